// SPDX-License-Identifier: GPL-2.0
/*
 * NAT64 tables: the accounting of subscribers (max-sessions-per-subscriber,
 * max-ports-per-subscriber). A subscriber is the IPv6 prefix of a BIB
 * entry's address, of the length the entry was charged with
 * (tern_bib_sub_plen()); its record counts its sessions and BIB entries
 * and goes with the last of them. nat64/table_int.h has the locking.
 */

#include <linux/slab.h>
#include "nat64/table_int.h"

/* Under t->sub_locks[bucket % TERN_TBL_SUB_NLOCKS] only. */
static spinlock_t *tern_sub_lock(struct tern_tables *t, u32 bucket)
{
	return &t->sub_locks[bucket % TERN_TBL_SUB_NLOCKS];
}

/*
 * Under the lock of @hash: its chain, in the arrays a resize under way
 * moved it to if it did (as tern_peer_chain()). Every array has at least
 * TERN_TBL_SUB_NLOCKS buckets: the lock is the same in every size.
 */
static struct hlist_head *tern_sub_chain(struct tern_tables *t, u32 hash)
{
	const struct tern_tbl_arrays *a;

	lockdep_assert_held(tern_sub_lock(t, hash));
	if (unlikely(t->sub_moved[hash % TERN_TBL_SUB_NLOCKS])) {
		a = t->peer_next;
		return &a->subs[hash & a->sub_mask];
	}
	return &t->subs[hash & t->sub_mask];
}

/* The prefix of @b's subscriber, and its hash. */
static u32 tern_sub_key(const struct tern_tables *t, const struct tern_bib *b,
			struct in6_addr *p)
{
	ipv6_addr_prefix(p, &b->t6.addr, tern_bib_sub_plen(b));
	return tern_tbl_hash_sub(t, p, tern_bib_sub_plen(b));
}

bool tern_bib_in_sub(const struct tern_bib *b, const struct in6_addr *addr)
{
	return ipv6_prefix_equal(&b->t6.addr, addr, tern_bib_sub_plen(b));
}

static struct tern_sub *tern_sub_find(struct tern_tables *t, u32 h,
				      const struct in6_addr *p, u8 plen)
{
	struct tern_sub *sub;

	hlist_for_each_entry(sub, tern_sub_chain(t, h), node)
		if (sub->plen == plen && ipv6_addr_equal(&sub->prefix, p))
			return sub;
	return NULL;
}

int tern_sub_charge_new(struct tern_tables *t, const struct tern_bib *b,
			const struct tern_limits *lim, u32 sessions)
{
	struct tern_sub *sub;
	struct in6_addr p;
	spinlock_t *lock;
	int err = 0;
	u32 h;

	h = tern_sub_key(t, b, &p);
	lock = tern_sub_lock(t, h);
	spin_lock(lock);
	sub = tern_sub_find(t, h, &p, tern_bib_sub_plen(b));
	if (!sub) {
		/* A static entry's (@lim NULL): the caller's memory cgroup. */
		sub = kzalloc(sizeof(*sub), GFP_ATOMIC | __GFP_NOWARN |
			      (lim ? 0 : __GFP_ACCOUNT));
		if (!sub) {
			err = -ENOMEM;
			goto out;
		}
		sub->prefix = p;
		sub->plen = tern_bib_sub_plen(b);
		hlist_add_head(&sub->node, tern_sub_chain(t, h));
	}
	if (lim && lim->max_ports_per_sub &&
	    sub->bibs >= lim->max_ports_per_sub)
		err = -EUSERS;
	else if (lim && sessions && lim->max_sess_per_sub &&
		 sub->sessions >= lim->max_sess_per_sub)
		err = -EDQUOT;
	if (err) {
		if (!sub->bibs && !sub->sessions) {
			hlist_del(&sub->node);
			kfree(sub);
		}
		goto out;
	}
	sub->bibs++;
	sub->sessions += sessions;
	/* A dynamic entry's address, for the subscriber's next ones. */
	if (lim)
		sub->addr4[b->l4] = b->t4.addr;
out:
	spin_unlock(lock);
	return err;
}

/*
 * The record of @addr's subscriber (its prefix of @plen bits) or NULL,
 * with its lock taken (*@lock): the caller unlocks.
 */
static struct tern_sub *tern_sub_lock_find(struct tern_tables *t,
					   const struct in6_addr *addr,
					   u8 plen, spinlock_t **lock)
{
	struct in6_addr p;
	u32 h;

	ipv6_addr_prefix(&p, addr, plen);
	h = tern_tbl_hash_sub(t, &p, plen);
	*lock = tern_sub_lock(t, h);
	spin_lock(*lock);
	return tern_sub_find(t, h, &p, plen);
}

__be32 tern_sub_addr4(struct tern_tables *t, u8 l4, const struct in6_addr *addr,
		      u8 plen)
{
	struct tern_sub *sub;
	spinlock_t *lock;
	__be32 a = 0;

	sub = tern_sub_lock_find(t, addr, plen, &lock);
	if (sub)
		a = sub->addr4[l4];
	spin_unlock(lock);
	return a;
}

int tern_sub_refuses(struct tern_tables *t, const struct in6_addr *addr,
		     u8 plen, const struct tern_limits *lim, bool new_bib)
{
	struct tern_sub *sub;
	spinlock_t *lock;
	int err = 0;

	if (!lim->max_ports_per_sub && !lim->max_sess_per_sub)
		return 0;
	sub = tern_sub_lock_find(t, addr, plen, &lock);
	if (sub && new_bib && lim->max_ports_per_sub &&
	    sub->bibs >= lim->max_ports_per_sub)
		err = -EUSERS;
	else if (sub && lim->max_sess_per_sub &&
		 sub->sessions >= lim->max_sess_per_sub)
		err = -EDQUOT;
	spin_unlock(lock);
	return err;
}

/* @b holds its subscriber's record alive: it is there. */
static struct tern_sub *tern_sub_of(struct tern_tables *t,
				    const struct tern_bib *b, spinlock_t **lock)
{
	struct tern_sub *sub;
	struct in6_addr p;
	u32 h;

	h = tern_sub_key(t, b, &p);
	*lock = tern_sub_lock(t, h);
	spin_lock(*lock);
	sub = tern_sub_find(t, h, &p, tern_bib_sub_plen(b));
	WARN_ON_ONCE(!sub);
	return sub;
}

int tern_sub_charge(struct tern_tables *t, const struct tern_bib *b,
		    const struct tern_limits *lim)
{
	spinlock_t *lock;
	struct tern_sub *sub = tern_sub_of(t, b, &lock);
	int err = 0;

	if (!sub)
		err = -ENOENT;
	else if (lim->max_sess_per_sub &&
		 sub->sessions >= lim->max_sess_per_sub)
		err = -EDQUOT;
	else
		sub->sessions++;
	spin_unlock(lock);
	return err;
}

/* Takes what @pd counts from its subscriber: 0 then. */
void tern_sub_settle(struct tern_tables *t, struct tern_sub_pending *pd)
{
	struct tern_sub *sub;
	spinlock_t *lock;
	u32 h;

	if (!pd->sessions && !pd->bibs)
		return;
	h = tern_tbl_hash_sub(t, &pd->prefix, pd->plen);
	lock = tern_sub_lock(t, h);
	spin_lock(lock);
	sub = tern_sub_find(t, h, &pd->prefix, pd->plen);
	/* Its entries held it alive: it is there. */
	if (!WARN_ON_ONCE(!sub)) {
		WARN_ON_ONCE(sub->sessions < pd->sessions ||
			     sub->bibs < pd->bibs);
		sub->sessions -= pd->sessions;
		sub->bibs -= pd->bibs;
		if (!sub->sessions && !sub->bibs) {
			hlist_del(&sub->node);
			kfree(sub);
		}
	}
	spin_unlock(lock);
	pd->sessions = 0;
	pd->bibs = 0;
}

void tern_sub_defer(struct tern_tables *t, struct tern_sub_pending *pd,
		    const struct tern_bib *b, u32 sessions, u32 bibs)
{
	struct in6_addr p;

	ipv6_addr_prefix(&p, &b->t6.addr, tern_bib_sub_plen(b));
	if (pd->plen != tern_bib_sub_plen(b) || !ipv6_addr_equal(&pd->prefix, &p)) {
		tern_sub_settle(t, pd);
		pd->prefix = p;
		pd->plen = tern_bib_sub_plen(b);
	}
	pd->sessions += sessions;
	pd->bibs += bibs;
}

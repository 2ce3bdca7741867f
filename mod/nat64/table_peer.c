// SPDX-License-Identifier: GPL-2.0
/*
 * NAT64 tables: the peers of BIB entries, for address-dependent filtering
 * (RFC 4787). The session table is hashed on the whole key, the peer's
 * port too, so "a session of this BIB entry with this peer address, any
 * port" is not one chain to walk: a record per (protocol, BIB entry's IPv4
 * transport address, peer address) counts the sessions that know it, each
 * key once, so no chain is longer for a peer's choice of ports. Only
 * sessions made while filtering is on count (TERN_SESS_PEER): with it off,
 * a session costs no more memory. Charged when a session is linked, taken
 * back when it is unlinked (in batches by a flush, as subscribers are: the
 * record lives while a batch still counts it). nat64/table_int.h has the
 * locking.
 */

#include <linux/rculist.h>
#include <linux/slab.h>
#include "nat64/table_int.h"

static spinlock_t *tern_peer_lock(struct tern_tables *t, u32 hash)
{
	return &t->peer_locks[hash % TERN_TBL_PEER_NLOCKS];
}

/*
 * Under the record's lock: the chain of @hash in the writers' arrays, or
 * in those a resize moves the records to once it moved this lock's
 * (nat64/table_resize.c). t->peers changes only while every lock's flag
 * is set, so with this one clear it is not changing.
 */
static struct hlist_head *tern_peer_chain(struct tern_tables *t, u32 hash)
{
	const struct tern_tbl_arrays *a;

	lockdep_assert_held(tern_peer_lock(t, hash));
	if (unlikely(t->peer_moved[hash % TERN_TBL_PEER_NLOCKS])) {
		a = t->peer_next;
		return &a->peers[hash & a->peer_mask];
	}
	return &t->peers[hash & t->peer_mask];
}

static bool tern_peer_is(const struct tern_peer *p, u8 l4, __be32 laddr,
			 __be16 lport, __be32 raddr)
{
	return p->raddr == raddr && p->laddr == laddr && p->lport == lport &&
	       p->l4 == l4;
}

/* Under RCU or the chain's lock. */
static struct tern_peer *tern_peer_find(struct hlist_head *chain, u8 l4,
					__be32 laddr, __be16 lport,
					__be32 raddr)
{
	struct tern_peer *p;

	hlist_for_each_entry_rcu(p, chain, node, true)
		if (tern_peer_is(p, l4, laddr, lport, raddr))
			return p;
	return NULL;
}

bool tern_sess_known4(struct tern_tables *t, u8 l4,
		      const struct tern_ta4 *local, __be32 raddr)
{
	u32 h = tern_tbl_hash_peer(t, l4, local->addr, local->port, raddr);
	const struct tern_tbl_arrays *a;
	struct tern_peer *p;
	unsigned int seq;

	/* As the other lookups: a miss while a resize moved looks again. */
	do {
		seq = tern_tbl_seq_begin(t);
		a = tern_tbl_arr(t);
		p = tern_peer_find(&a->peers[h & a->peer_mask], l4,
				   local->addr, local->port, raddr);
	} while (!p && tern_tbl_seq_retry(t, seq));

	/* 0: going (its last session went), not yet unlinked. */
	return p && READ_ONCE(p->sessions);
}

int tern_peer_charge(struct tern_tables *t, u8 l4, const struct tern_ta4 *t4,
		     __be32 raddr)
{
	u32 h = tern_tbl_hash_peer(t, l4, t4->addr, t4->port, raddr);
	spinlock_t *lock = tern_peer_lock(t, h);
	struct tern_peer *p;
	int err = 0;

	spin_lock(lock);
	p = tern_peer_find(tern_peer_chain(t, h), l4, t4->addr, t4->port,
			   raddr);
	if (!p) {
		p = kmem_cache_alloc(tern_peer_cache,
				     GFP_ATOMIC | __GFP_NOWARN);
		if (!p) {
			err = -ENOMEM;
			goto out;
		}
		p->laddr = t4->addr;
		p->lport = t4->port;
		p->raddr = raddr;
		p->l4 = l4;
		p->sessions = 0;
		hlist_add_head_rcu(&p->node, tern_peer_chain(t, h));
		atomic_inc(&t->npeer);
	}
	WRITE_ONCE(p->sessions, p->sessions + 1);
out:
	spin_unlock(lock);
	return err;
}

static void tern_peer_free_rcu(struct rcu_head *head)
{
	kmem_cache_free(tern_peer_cache,
			container_of(head, struct tern_peer, rcu));
}

void tern_peer_settle(struct tern_tables *t, struct tern_peer_pending *pd)
{
	struct tern_peer *p;
	spinlock_t *lock;
	u32 h;

	if (!pd->sessions)
		return;
	h = tern_tbl_hash_peer(t, pd->l4, pd->laddr, pd->lport, pd->raddr);
	lock = tern_peer_lock(t, h);
	spin_lock(lock);
	p = tern_peer_find(tern_peer_chain(t, h), pd->l4, pd->laddr,
			   pd->lport, pd->raddr);
	/* Its sessions held it alive: it is there. */
	if (!WARN_ON_ONCE(!p)) {
		WARN_ON_ONCE(p->sessions < pd->sessions);
		WRITE_ONCE(p->sessions, p->sessions - min(p->sessions,
							  pd->sessions));
		if (!p->sessions) {
			hlist_del_rcu(&p->node);
			atomic_dec(&t->npeer);
			call_rcu(&p->rcu, tern_peer_free_rcu);
		}
	}
	spin_unlock(lock);
	pd->sessions = 0;
}

void tern_peer_defer(struct tern_tables *t, struct tern_peer_pending *pd,
		     const struct tern_session *s)
{
	const struct tern_bib *b = s->bib;

	if (pd->l4 != b->l4 || pd->laddr != b->t4.addr ||
	    pd->lport != b->t4.port || pd->raddr != s->remote.addr) {
		tern_peer_settle(t, pd);
		pd->l4 = b->l4;
		pd->laddr = b->t4.addr;
		pd->lport = b->t4.port;
		pd->raddr = s->remote.addr;
	}
	pd->sessions++;
}

void tern_peer_uncharge(struct tern_tables *t, u8 l4,
			const struct tern_ta4 *t4, __be32 raddr)
{
	struct tern_peer_pending pd = {
		.l4 = l4,
		.laddr = t4->addr,
		.lport = t4->port,
		.raddr = raddr,
		.sessions = 1,
	};

	tern_peer_settle(t, &pd);
}

void tern_peers_free(struct tern_tables *t)
{
	struct hlist_node *n;
	struct tern_peer *p;
	u32 h;

	for (h = 0; h <= t->peer_mask; h++) {
		/* Every session went, uncharged: none is left. */
		hlist_for_each_entry_safe(p, n, &t->peers[h], node) {
			WARN_ON_ONCE(1);
			hlist_del(&p->node);
			atomic_dec(&t->npeer);
			kmem_cache_free(tern_peer_cache, p);
		}
	}
}

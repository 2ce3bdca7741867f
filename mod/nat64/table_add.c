// SPDX-License-Identifier: GPL-2.0
/*
 * NAT64 tables: new sessions and BIB entries, the subscriber accounting,
 * and the unlinking of one session (nat64/table_int.h has the locking).
 */

#include <linux/err.h>
#include <linux/rculist.h>
#include <linux/rculist_nulls.h>
#include <linux/slab.h>
#include "nat64/table_int.h"

/* After this many lost races, tern_sess_add*() gives up (-EAGAIN). */
#define TERN_TBL_RETRIES	8

/* Subscribers: under t->sub_locks[bucket % TERN_TBL_SUB_NLOCKS] only. */

static spinlock_t *tern_sub_lock(struct tern_tables *t, u32 bucket)
{
	return &t->sub_locks[bucket % TERN_TBL_SUB_NLOCKS];
}

static u32 tern_sub_bucket(const struct tern_tables *t,
			   const struct in6_addr *p, u8 plen)
{
	const u64 *a = (const u64 *)p;

	return (u32)siphash_3u64(a[0], a[1], plen, &t->key) & t->sub_mask;
}

/*
 * Charges a new BIB entry (and @sessions sessions) of @addr to its
 * subscriber, made if needed; @lim NULL: no limit (static entries).
 */
static struct tern_sub *tern_sub_charge_new(struct tern_tables *t,
					    const struct in6_addr *addr,
					    const struct tern_limits *lim,
					    u32 sessions, int *err)
{
	u8 plen = lim ? min_t(u8, lim->sub_prefix_len, 128) : 128;
	struct tern_sub *sub;
	struct in6_addr p;
	spinlock_t *lock;
	u32 h;

	ipv6_addr_prefix(&p, addr, plen);
	h = tern_sub_bucket(t, &p, plen);
	lock = tern_sub_lock(t, h);
	spin_lock(lock);
	hlist_for_each_entry(sub, &t->subs[h], node)
		if (sub->plen == plen && ipv6_addr_equal(&sub->prefix, &p))
			goto found;
	sub = kzalloc(sizeof(*sub), GFP_ATOMIC | __GFP_NOWARN);
	if (!sub) {
		*err = -ENOMEM;
		goto out;
	}
	sub->prefix = p;
	sub->plen = plen;
	hlist_add_head(&sub->node, &t->subs[h]);
found:
	if (lim && lim->max_ports_per_sub &&
	    sub->bibs >= lim->max_ports_per_sub)
		*err = -EUSERS;
	else if (lim && sessions && lim->max_sess_per_sub &&
		 sub->sessions >= lim->max_sess_per_sub)
		*err = -EDQUOT;
	else
		*err = 0;
	if (*err) {
		if (!sub->bibs && !sub->sessions) {
			hlist_del(&sub->node);
			kfree(sub);
		}
		sub = NULL;
		goto out;
	}
	sub->bibs++;
	sub->sessions += sessions;
out:
	spin_unlock(lock);
	return sub;
}

/* One more session of @sub (held alive by a BIB entry of it). */
static int tern_sub_charge(struct tern_tables *t, struct tern_sub *sub,
			   const struct tern_limits *lim)
{
	spinlock_t *lock = tern_sub_lock(t, tern_sub_bucket(t, &sub->prefix,
							    sub->plen));
	int err = 0;

	spin_lock(lock);
	if (lim->max_sess_per_sub && sub->sessions >= lim->max_sess_per_sub)
		err = -EDQUOT;
	else
		sub->sessions++;
	spin_unlock(lock);
	return err;
}

static void tern_sub_uncharge(struct tern_tables *t, struct tern_sub *sub,
			      u32 sessions, u32 bibs)
{
	spinlock_t *lock = tern_sub_lock(t, tern_sub_bucket(t, &sub->prefix,
							    sub->plen));

	spin_lock(lock);
	WARN_ON_ONCE(sub->sessions < sessions || sub->bibs < bibs);
	sub->sessions -= sessions;
	sub->bibs -= bibs;
	if (!sub->sessions && !sub->bibs) {
		hlist_del(&sub->node);
		kfree(sub);
	}
	spin_unlock(lock);
}

/* Unlinking, under the locks (nat64/table_int.h) */

static void tern_bib_free_rcu(struct rcu_head *h)
{
	kmem_cache_free(tern_bib_cache, container_of(h, struct tern_bib, rcu));
}

static void tern_sess_free_rcu(struct rcu_head *h)
{
	kmem_cache_free(tern_sess_cache,
			container_of(h, struct tern_session, rcu));
}

void tern_tbl_bib_unlink(struct tern_tables *t, struct tern_bib *b)
{
	hlist_nulls_del_init_rcu(&b->n6);
	hlist_nulls_del_init_rcu(&b->n4);
	atomic_dec(&t->nbib);
	tern_sub_uncharge(t, b->sub, 0, 1);
	call_rcu(&b->rcu, tern_bib_free_rcu);
}

bool tern_tbl_sess_unlink(struct tern_tables *t, struct tern_session *s,
			  bool *bib_gone)
{
	struct tern_bib *b = s->bib;

	*bib_gone = false;
	if (hlist_nulls_unhashed(&s->n6))
		return false;
	hlist_nulls_del_init_rcu(&s->n6);
	hlist_nulls_del_init_rcu(&s->n4);
	atomic_dec(&t->nsess);
	tern_sub_uncharge(t, b->sub, 1, 0);
	if (refcount_dec_and_test(&b->ref)) {
		tern_tbl_bib_unlink(t, b);
		*bib_gone = true;
	}
	call_rcu(&s->rcu, tern_sess_free_rcu);
	return true;
}

bool tern_tbl_sess_remove(struct tern_tables *t, struct tern_session *s,
			  bool if_expired)
{
	bool done = false, bib_gone = false;
	struct tern_tbl_where w;
	struct tern_lockset ls;

	rcu_read_lock();
	tern_tbl_where_sess(t, s, &w);
	tern_tbl_lock(t, &ls, &w);
	if (!if_expired || tern_sess_expired(s, (u32)jiffies))
		done = tern_tbl_sess_unlink(t, s, &bib_gone);
	tern_tbl_unlock(t, &ls);
	/* Freed after a grace period: both are still readable. */
	if (done)
		tern_tbl_ev_sess(t, s, false);
	if (bib_gone)
		tern_tbl_ev_bib(t, s->bib, false);
	rcu_read_unlock();
	return done;
}

/* Inserts */

static void tern_tbl_link_sess(struct tern_tables *t, struct tern_session *s,
			       const struct tern_tbl_where *w)
{
	hlist_nulls_add_head_rcu(&s->n6, &t->sess6[w->s6]);
	hlist_nulls_add_head_rcu(&s->n4, &t->sess4[w->s4]);
}

static void tern_tbl_link_bib(struct tern_tables *t, struct tern_bib *b,
			      const struct tern_tbl_where *w)
{
	hlist_nulls_add_head_rcu(&b->n6, &t->bib6[w->b6]);
	hlist_nulls_add_head_rcu(&b->n4, &t->bib4[w->b4]);
	atomic_inc(&t->nbib);
}

/*
 * Under the locks: the session of @s's key if there is one, made current
 * again if it had expired (the worker had not removed it yet).
 */
static struct tern_session *tern_tbl_existing(struct tern_tables *t,
					      const struct tern_tbl_where *w,
					      u8 l4, const struct tern_ta6 *t6,
					      const struct tern_session *s)
{
	struct tern_session *old = tern_tbl_sess6(t, w->s6, l4, t6, &s->remote);

	if (old && tern_sess_expired(old, (u32)jiffies)) {
		WRITE_ONCE(old->state, s->state);
		WRITE_ONCE(old->expires, s->expires);
	}
	return old;
}

/*
 * Adds @s on the BIB entry @b (found under RCU). Returns 0 (@s added), 1
 * (*@old is the session that was there) or an error; -EAGAIN: @b is going.
 */
static int tern_tbl_attach(struct tern_tables *t, struct tern_bib *b,
			   struct tern_session *s,
			   const struct tern_limits *lim,
			   struct tern_session **old)
{
	struct tern_tbl_where w;
	struct tern_lockset ls;
	int ret = 0;

	tern_tbl_where(t, b->l4, &b->t6, &b->t4, &s->remote, &w);
	tern_tbl_lock(t, &ls, &w);
	*old = tern_tbl_existing(t, &w, b->l4, &b->t6, s);
	if (*old) {
		ret = 1;
	} else if (!refcount_inc_not_zero(&b->ref)) {
		ret = -EAGAIN;
	} else {
		ret = tern_sub_charge(t, b->sub, lim);
		if (ret) {
			refcount_dec(&b->ref);
		} else {
			s->bib = b;
			tern_tbl_link_sess(t, s, &w);
		}
	}
	tern_tbl_unlock(t, &ls);
	return ret;
}

/*
 * Adds the new BIB entry @nb (its addresses filled in) with @s. Returns
 * as tern_tbl_attach(); -EAGAIN: the IPv6 side has an entry now,
 * -EADDRNOTAVAIL: the IPv4 side is taken.
 */
static int tern_tbl_insert(struct tern_tables *t, struct tern_bib *nb,
			   struct tern_session *s,
			   const struct tern_limits *lim,
			   struct tern_session **old)
{
	struct tern_tbl_where w;
	struct tern_lockset ls;
	int ret = 0;

	tern_tbl_where(t, nb->l4, &nb->t6, &nb->t4, &s->remote, &w);
	tern_tbl_lock(t, &ls, &w);
	*old = tern_tbl_existing(t, &w, nb->l4, &nb->t6, s);
	if (*old)
		ret = 1;
	else if (tern_bib_find6(t, nb->l4, &nb->t6))
		ret = -EAGAIN;
	else if (tern_bib_find4(t, nb->l4, &nb->t4))
		ret = -EADDRNOTAVAIL;
	else
		nb->sub = tern_sub_charge_new(t, &nb->t6.addr, lim, 1, &ret);
	if (!ret) {
		nb->is_static = false;
		refcount_set(&nb->ref, 1);
		tern_tbl_link_bib(t, nb, &w);
		s->bib = nb;
		tern_tbl_link_sess(t, s, &w);
	}
	tern_tbl_unlock(t, &ls);
	return ret;
}

static bool tern_tbl_reserve(struct tern_tables *t,
			     const struct tern_limits *lim)
{
	if (atomic_inc_return(&t->nsess) > lim->max_sessions &&
	    lim->max_sessions) {
		atomic_dec(&t->nsess);
		return false;
	}
	return true;
}

static struct tern_session *tern_sess_new(const struct tern_ta4 *remote,
					  u8 state, unsigned long timeout)
{
	struct tern_session *s;

	s = kmem_cache_alloc(tern_sess_cache, GFP_ATOMIC | __GFP_NOWARN);
	if (s) {
		s->bib = NULL;
		s->remote = *remote;
		s->state = state;
		s->expires = (u32)(jiffies + timeout);
	}
	return s;
}

/* Ends an add: @ret 0 (@s went in), 1 (@old did) or an error. */
static struct tern_session *tern_tbl_done(struct tern_tables *t, int ret,
					  struct tern_session *s,
					  struct tern_session *old,
					  struct tern_bib *nb)
{
	if (nb)
		kmem_cache_free(tern_bib_cache, nb);
	if (!ret)
		return s;
	atomic_dec(&t->nsess);
	if (s)
		kmem_cache_free(tern_sess_cache, s);
	return ret == 1 ? old : ERR_PTR(ret);
}

struct tern_session *tern_sess_add6(struct tern_tables *t, u8 l4,
				    const struct tern_ta6 *src,
				    const struct tern_ta4 *remote,
				    const struct tern_limits *lim,
				    tern_pick4_fn pick, void *arg,
				    u8 state, unsigned long timeout)
{
	unsigned int attempt = 0, races = 0;
	struct tern_session *s, *old = NULL;
	struct tern_bib *b, *nb = NULL;
	bool new_bib = false;
	int ret;

	s = tern_sess_find6(t, l4, src, remote);
	if (s)
		return s;
	if (!tern_tbl_reserve(t, lim))
		return ERR_PTR(-ENOSPC);
	s = tern_sess_new(remote, state, timeout);
	if (!s)
		return tern_tbl_done(t, -ENOMEM, s, old, nb);
	for (;;) {
		b = tern_bib_find6(t, l4, src);
		if (b) {
			ret = tern_tbl_attach(t, b, s, lim, &old);
			if (ret != -EAGAIN || ++races > TERN_TBL_RETRIES)
				break;
			continue;
		}
		if (!nb) {
			nb = kmem_cache_alloc(tern_bib_cache,
					      GFP_ATOMIC | __GFP_NOWARN);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			nb->l4 = l4;
			nb->t6 = *src;
		}
		/* Probe under RCU; only the insert takes locks. */
		do {
			if (!pick(arg, src, attempt++, &nb->t4))
				return tern_tbl_done(t, -EADDRINUSE, s, old, nb);
		} while (tern_bib_find4(t, l4, &nb->t4));
		ret = tern_tbl_insert(t, nb, s, lim, &old);
		if (!ret) {
			new_bib = true;
			nb = NULL;
			break;
		}
		if (ret == -EADDRNOTAVAIL)
			continue;
		if (ret != -EAGAIN || ++races > TERN_TBL_RETRIES)
			break;
	}
	if (!ret) {
		if (new_bib)
			tern_tbl_ev_bib(t, s->bib, true);
		tern_tbl_ev_sess(t, s, true);
	}
	return tern_tbl_done(t, ret, s, old, nb);
}

struct tern_session *tern_sess_add4(struct tern_tables *t,
				    struct tern_bib *bib,
				    const struct tern_ta4 *remote,
				    const struct tern_limits *lim,
				    u8 state, unsigned long timeout)
{
	struct tern_session *s, *old = NULL;
	int ret;

	s = tern_sess_find4(t, bib->l4, &bib->t4, remote);
	if (s)
		return s;
	if (!tern_tbl_reserve(t, lim))
		return ERR_PTR(-ENOSPC);
	s = tern_sess_new(remote, state, timeout);
	if (!s)
		return tern_tbl_done(t, -ENOMEM, s, old, NULL);
	ret = tern_tbl_attach(t, bib, s, lim, &old);
	if (!ret)
		tern_tbl_ev_sess(t, s, true);
	return tern_tbl_done(t, ret == -EAGAIN ? -ENOENT : ret, s, old, NULL);
}

void tern_sess_set_state(struct tern_tables *t, struct tern_session *s,
			 u8 state, unsigned long timeout)
{
	struct tern_bib *b = s->bib;
	spinlock_t *lock;
	u32 h;

	h = tern_tbl_hash_sess6(t, b->l4, &b->t6, &s->remote) & t->sess_mask;
	lock = &t->locks[h % TERN_TBL_NLOCKS];
	spin_lock_bh(lock);
	WRITE_ONCE(s->state, state);
	if (timeout)
		WRITE_ONCE(s->expires, (u32)(jiffies + timeout));
	spin_unlock_bh(lock);
}

int tern_bib_add_static(struct tern_tables *t, u8 l4,
			const struct tern_ta6 *t6, const struct tern_ta4 *t4)
{
	struct tern_tbl_where w;
	struct tern_lockset ls;
	struct tern_bib *b;
	int ret = 0;

	b = kmem_cache_alloc(tern_bib_cache, GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	b->t6 = *t6;
	b->t4 = *t4;
	b->l4 = l4;
	b->is_static = true;
	refcount_set(&b->ref, 1);
	tern_tbl_where_bib(t, b, &w);
	tern_tbl_lock(t, &ls, &w);
	if (tern_bib_find6(t, l4, t6) || tern_bib_find4(t, l4, t4))
		ret = -EEXIST;
	else
		b->sub = tern_sub_charge_new(t, &t6->addr, NULL, 0, &ret);
	if (!ret)
		tern_tbl_link_bib(t, b, &w);
	tern_tbl_unlock(t, &ls);
	if (ret) {
		kmem_cache_free(tern_bib_cache, b);
		return ret;
	}
	/* A tern_bib_del() may be freeing it already: read it under RCU. */
	rcu_read_lock();
	tern_tbl_ev_bib(t, b, true);
	rcu_read_unlock();
	return 0;
}

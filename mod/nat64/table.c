// SPDX-License-Identifier: GPL-2.0
/*
 * NAT64 BIB and session tables (RFC 6146 3.1): allocation, locks and
 * lookups. nat64/table.h has the model, nat64/table_int.h the locking
 * rules; nat64/table_add.c inserts, nat64/table_sub.c the subscriber
 * accounting, nat64/table_peer.c the peers of address-dependent filtering, nat64/table_free.c unlinking and freeing, nat64/table_gc.c
 * expiry, walks and the freeing of the tables, nat64/table_flush.c flush.
 */

#include <linux/err.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/rculist_nulls.h>
#include <linux/slab.h>
#include "nat64/table_int.h"

struct kmem_cache *tern_bib_cache;
struct kmem_cache *tern_sess_cache;
struct kmem_cache *tern_peer_cache;

/*
 * Twice is once: the KUnit suites may run before the module's init. No
 * SLAB_HWCACHE_ALIGN: objects of 56 and 72 bytes, not rounded up to a
 * cache line (lookups read one entry or two; packing matters more). Peer
 * records are charged to the memory cgroup of the task that makes them,
 * if any (in softirq, none).
 */
int tern_tables_init(void)
{
	if (tern_sess_cache)
		return 0;
	tern_bib_cache = KMEM_CACHE(tern_bib, 0);
	tern_sess_cache = KMEM_CACHE(tern_session, 0);
	tern_peer_cache = KMEM_CACHE(tern_peer, SLAB_ACCOUNT);
	if (!tern_bib_cache || !tern_sess_cache || !tern_peer_cache) {
		kmem_cache_destroy(tern_peer_cache);
		kmem_cache_destroy(tern_sess_cache);
		kmem_cache_destroy(tern_bib_cache);
		tern_peer_cache = NULL;
		tern_sess_cache = NULL;
		tern_bib_cache = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* rcu_barrier(): peer records are freed by call_rcu(). */
void tern_tables_exit(void)
{
	rcu_barrier();
	kmem_cache_destroy(tern_peer_cache);
	kmem_cache_destroy(tern_sess_cache);
	kmem_cache_destroy(tern_bib_cache);
	tern_peer_cache = NULL;
	tern_sess_cache = NULL;
	tern_bib_cache = NULL;
}

static struct hlist_nulls_head *tern_tbl_array(u32 n)
{
	struct hlist_nulls_head *h;
	u32 i;

	h = kvcalloc(n, sizeof(*h), GFP_KERNEL_ACCOUNT);
	if (h)
		for (i = 0; i < n; i++)
			INIT_HLIST_NULLS_HEAD(&h[i], i);
	return h;
}

struct tern_tables *tern_tables_alloc(u32 max_sessions)
{
	/* A bucket or two a session when full: chains of one or so. */
	u32 ns = max_sessions ?: 1U << 16;
	struct tern_tables *t;
	u32 nb, nsub, npeer, i;

	ns = roundup_pow_of_two(clamp(ns, 1U << 10, TERN_TBL_SESS_BUCKETS));
	nb = max(ns / 2, 1U << 10);
	nsub = clamp(ns / 16, 256U, 1U << 16);
	/* A peer a session at worst: chains of four when full. */
	npeer = max(ns / 4, 1U << 10);
	t = kvzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t)
		return NULL;
	get_random_bytes(&t->key, sizeof(t->key));
	t->sess_mask = ns - 1;
	t->bib_mask = nb - 1;
	t->sub_mask = nsub - 1;
	t->peer_mask = npeer - 1;
	t->bib6 = tern_tbl_array(nb);
	t->bib4 = tern_tbl_array(nb);
	t->sess6 = tern_tbl_array(ns);
	t->sess4 = tern_tbl_array(ns);
	t->subs = kvcalloc(nsub, sizeof(*t->subs), GFP_KERNEL_ACCOUNT);
	t->peers = kvcalloc(npeer, sizeof(*t->peers), GFP_KERNEL_ACCOUNT);
	if (!t->bib6 || !t->bib4 || !t->sess6 || !t->sess4 || !t->subs ||
	    !t->peers) {
		kvfree(t->bib6);
		kvfree(t->bib4);
		kvfree(t->sess6);
		kvfree(t->sess4);
		kvfree(t->subs);
		kvfree(t->peers);
		kvfree(t);
		return NULL;
	}
	for (i = 0; i < nsub; i++)
		INIT_HLIST_HEAD(&t->subs[i]);
	for (i = 0; i < npeer; i++)
		INIT_HLIST_HEAD(&t->peers[i]);
	for (i = 0; i < TERN_TBL_NLOCKS; i++)
		spin_lock_init(&t->locks[i]);
	for (i = 0; i < TERN_TBL_SUB_NLOCKS; i++)
		spin_lock_init(&t->sub_locks[i]);
	for (i = 0; i < TERN_TBL_PEER_NLOCKS; i++)
		spin_lock_init(&t->peer_locks[i]);
	atomic_set(&t->nbib, 0);
	atomic_set(&t->nsess, 0);
	atomic_set(&t->npeer, 0);
	init_llist_head(&t->gone_sess);
	init_llist_head(&t->gone_bib);
	INIT_WORK(&t->reap, tern_tbl_reap_work);
	return t;
}

void tern_tables_set_events(struct tern_tables *t,
			    const struct tern_table_events *ev)
{
	WRITE_ONCE(t->ev, ev);
}

/* Locks */

static void tern_lockset_add(struct tern_lockset *ls, u32 bucket)
{
	u16 idx = bucket % TERN_TBL_NLOCKS;
	unsigned int i, j;

	for (i = 0; i < ls->n; i++) {
		if (ls->idx[i] == idx)
			return;
		if (ls->idx[i] > idx)
			break;
	}
	for (j = ls->n; j > i; j--)
		ls->idx[j] = ls->idx[j - 1];
	ls->idx[i] = idx;
	ls->n++;
}

void __tern_tbl_lock(struct tern_tables *t, struct tern_lockset *ls,
		     const struct tern_tbl_where *w)
{
	unsigned int i;

	ls->n = 0;
	if (w->s6 != U32_MAX) {
		tern_lockset_add(ls, w->s6);
		tern_lockset_add(ls, w->s4);
	}
	tern_lockset_add(ls, w->b6);
	tern_lockset_add(ls, w->b4);
	for (i = 0; i < ls->n; i++)
		spin_lock_nested(&t->locks[ls->idx[i]], i);
}

void __tern_tbl_unlock(struct tern_tables *t, const struct tern_lockset *ls)
{
	unsigned int i = ls->n;

	while (i--)
		spin_unlock(&t->locks[ls->idx[i]]);
}

void tern_tbl_lock(struct tern_tables *t, struct tern_lockset *ls,
		   const struct tern_tbl_where *w)
{
	local_bh_disable();
	__tern_tbl_lock(t, ls, w);
}

void tern_tbl_unlock(struct tern_tables *t, const struct tern_lockset *ls)
{
	__tern_tbl_unlock(t, ls);
	local_bh_enable();
}

void tern_tbl_where(const struct tern_tables *t, u8 l4,
		    const struct tern_ta6 *t6, const struct tern_ta4 *t4,
		    const struct tern_ta4 *remote, struct tern_tbl_where *w)
{
	u32 h6;

	w->s6 = U32_MAX;
	w->s4 = U32_MAX;
	w->tag6 = 0;
	if (remote) {
		h6 = tern_tbl_hash_sess6(t, l4, t6, remote);
		w->s6 = h6 & t->sess_mask;
		w->tag6 = tern_tbl_tag(h6);
		w->s4 = tern_tbl_hash_sess4(t, l4, t4, remote) & t->sess_mask;
	}
	w->b6 = tern_tbl_hash_bib6(t, l4, t6) & t->bib_mask;
	w->b4 = tern_tbl_hash_bib4(t, l4, t4) & t->bib_mask;
}

void tern_tbl_where_sess(const struct tern_session *s, u32 h6,
			 struct tern_tbl_where *w)
{
	const struct tern_bib *b = s->bib;

	w->s6 = h6 % TERN_TBL_NLOCKS;
	w->s4 = tern_sess_lk4(s);
	w->tag6 = s->tag6;
	w->b6 = b->lk6;
	w->b4 = b->lk4;
}

void tern_tbl_where_bib(const struct tern_tables *t, const struct tern_bib *b,
			struct tern_tbl_where *w)
{
	tern_tbl_where(t, b->l4, &b->t6, &b->t4, NULL, w);
}

/* Expiry: the tcp_expire callback decides for TCP (nat64/table.h). */
bool tern_sess_tcp_expire(struct tern_tables *t, u8 *state,
			  unsigned long *timeout)
{
	const struct tern_table_events *ev = READ_ONCE(t->ev);

	return ev && ev->tcp_expire && ev->tcp_expire(ev->arg, state, timeout);
}

/* Lookups: under RCU, or under the chain's lock. */

struct tern_session *tern_tbl_sess6(struct tern_tables *t, u32 h, u8 tag,
				    u8 l4, const struct tern_ta6 *t6,
				    const struct tern_ta4 *r)
{
	struct hlist_nulls_node *n;
	struct tern_session *s;

begin:
	hlist_nulls_for_each_entry_rcu(s, n, &t->sess6[h], n6) {
		const struct tern_bib *b;

		/* The session's own fields first: its BIB entry is a miss. */
		if (s->tag6 != tag || !tern_tbl_ta4_eq(&s->remote, r))
			continue;
		b = s->bib;
		if (b->l4 == l4 && tern_tbl_ta6_eq(&b->t6, t6))
			return s;
	}
	if (get_nulls_value(n) != h)
		goto begin;
	return NULL;
}

struct tern_session *tern_sess_find6(struct tern_tables *t, u8 l4,
				     const struct tern_ta6 *src,
				     const struct tern_ta4 *remote)
{
	u32 h = tern_tbl_hash_sess6(t, l4, src, remote);
	struct tern_session *s = tern_tbl_sess6(t, h & t->sess_mask,
						tern_tbl_tag(h), l4, src, remote);

	return s && !tern_tbl_sess_gone(t, s, (u32)jiffies) ? s : NULL;
}

struct tern_session *tern_sess_find4(struct tern_tables *t, u8 l4,
				     const struct tern_ta4 *local,
				     const struct tern_ta4 *remote)
{
	u32 h = tern_tbl_hash_sess4(t, l4, local, remote) & t->sess_mask;
	struct hlist_nulls_node *n;
	struct tern_session *s;

begin:
	hlist_nulls_for_each_entry_rcu(s, n, &t->sess4[h], n4) {
		const struct tern_bib *b;

		if (!tern_tbl_ta4_eq(&s->remote, remote))
			continue;
		b = s->bib;
		if (b->l4 == l4 && tern_tbl_ta4_eq(&b->t4, local))
			return tern_tbl_sess_gone(t, s, (u32)jiffies) ? NULL : s;
	}
	if (get_nulls_value(n) != h)
		goto begin;
	return NULL;
}

/* A BIB entry whose last reference went is not found (it is going). */
struct tern_bib *tern_bib_find6(struct tern_tables *t, u8 l4,
				const struct tern_ta6 *t6)
{
	u32 h = tern_tbl_hash_bib6(t, l4, t6) & t->bib_mask;
	struct hlist_nulls_node *n;
	struct tern_bib *b;

begin:
	hlist_nulls_for_each_entry_rcu(b, n, &t->bib6[h], n6)
		if (b->l4 == l4 && tern_tbl_ta6_eq(&b->t6, t6) &&
		    refcount_read(&b->ref))
			return b;
	if (get_nulls_value(n) != h)
		goto begin;
	return NULL;
}

struct tern_bib *tern_bib_find4(struct tern_tables *t, u8 l4,
				const struct tern_ta4 *t4)
{
	u32 h = tern_tbl_hash_bib4(t, l4, t4) & t->bib_mask;
	struct hlist_nulls_node *n;
	struct tern_bib *b;

begin:
	hlist_nulls_for_each_entry_rcu(b, n, &t->bib4[h], n4)
		if (b->l4 == l4 && tern_tbl_ta4_eq(&b->t4, t4) &&
		    refcount_read(&b->ref))
			return b;
	if (get_nulls_value(n) != h)
		goto begin;
	return NULL;
}

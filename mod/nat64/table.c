// SPDX-License-Identifier: GPL-2.0
/*
 * NAT64 BIB and session tables (RFC 6146 3.1): allocation, locks,
 * lookups and TCP state changes. nat64/table.h has the model, nat64/table_int.h the locking
 * rules; nat64/table_add.c inserts, nat64/table_sub.c the subscriber
 * accounting, nat64/table_peer.c the peers of address-dependent filtering, nat64/table_free.c unlinking and freeing, nat64/table_gc.c
 * expiry, walks and the freeing of the tables, nat64/table_flush.c flush,
 * nat64/table_resize.c the arrays following max-sessions.
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
struct kmem_cache *tern_pair_cache;

/*
 * Twice is once: the KUnit suites may run before the module's init. No
 * SLAB_HWCACHE_ALIGN: objects of 56, 64 and 120 bytes, not rounded up to
 * a cache line (lookups read one entry or two; packing matters more). Peer
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
	tern_pair_cache = KMEM_CACHE(tern_bib_pair, 0);
	if (!tern_bib_cache || !tern_sess_cache || !tern_peer_cache ||
	    !tern_pair_cache) {
		kmem_cache_destroy(tern_pair_cache);
		kmem_cache_destroy(tern_peer_cache);
		kmem_cache_destroy(tern_sess_cache);
		kmem_cache_destroy(tern_bib_cache);
		tern_pair_cache = NULL;
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
	kmem_cache_destroy(tern_pair_cache);
	tern_pair_cache = NULL;
	kmem_cache_destroy(tern_peer_cache);
	kmem_cache_destroy(tern_sess_cache);
	kmem_cache_destroy(tern_bib_cache);
	tern_peer_cache = NULL;
	tern_sess_cache = NULL;
	tern_bib_cache = NULL;
}

struct tern_tables *tern_tables_alloc(u32 max_sessions)
{
	struct tern_tbl_arrays *a;
	struct tern_tables *t;
	u32 i;

	t = kvzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t)
		return NULL;
	get_random_bytes(&t->key, sizeof(t->key));
	a = &t->arrs[0];
	tern_tbl_sizes(max_sessions, a);
	if (tern_tbl_arrays_alloc(a)) {
		kvfree(t);
		return NULL;
	}
	tern_tbl_arrays_set(t, a);
	RCU_INIT_POINTER(t->arr, a);
	spin_lock_init(&t->all_lock);
	seqcount_spinlock_init(&t->seq, &t->all_lock);
	mutex_init(&t->resize_mutex);
	for (i = 0; i < TERN_TBL_NLOCKS; i++)
		spin_lock_init(&t->locks[i]);
	for (i = 0; i < TERN_TBL_SUB_NLOCKS; i++)
		spin_lock_init(&t->sub_locks[i]);
	for (i = 0; i < TERN_TBL_PEER_NLOCKS; i++)
		spin_lock_init(&t->peer_locks[i]);
	atomic_set(&t->nbib, 0);
	atomic_set(&t->nsess, 0);
	atomic_set(&t->npeer, 0);
	atomic_set(&t->pair_idle, 0);
	atomic_set(&t->ngone, 0);
	t->gc_note = (u32)jiffies + TERN_GC_FAR;
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

/*
 * While a resizer holds t->all_lock with t->all set, a writer waits for it
 * (nat64/table_int.h, Resizing): only at its first lock, the lowest.
 */
void tern_tbl_lock_first(struct tern_tables *t, spinlock_t *l)
{
	spin_lock(l);
	/* Pairs with the resizer's unlock of @l after it set t->all. */
	if (likely(!smp_load_acquire(&t->all)))
		return;
	spin_unlock(l);
	spin_lock(&t->all_lock);
	spin_lock(l);
	spin_unlock(&t->all_lock);
}

void __tern_tbl_lock(struct tern_tables *t, struct tern_lockset *ls,
		     const struct tern_tbl_where *w)
{
	unsigned int i;

	ls->n = 0;
	if (w->sess) {
		tern_lockset_add(ls, w->s6);
		tern_lockset_add(ls, w->s4);
	}
	tern_lockset_add(ls, w->b6);
	tern_lockset_add(ls, w->b4);
	tern_tbl_lock_first(t, &t->locks[ls->idx[0]]);
	for (i = 1; i < ls->n; i++)
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
	w->s6 = 0;
	w->s4 = 0;
	w->tag6 = 0;
	w->sess = remote;
	if (remote) {
		w->s6 = tern_tbl_hash_sess6(t, l4, t6, remote);
		w->tag6 = tern_tbl_tag(w->s6);
		w->s4 = tern_tbl_hash_sess4(t, l4, t4, remote);
	}
	w->b6 = tern_tbl_hash_bib6(t, l4, t6);
	w->b4 = tern_tbl_hash_bib4(t, l4, t4);
}

/*
 * A linked session's: its BIB entry's lock indices are found again from
 * its hashes (an entry does not keep them: struct tern_bib).
 */
void tern_tbl_where_sess(const struct tern_tables *t,
			 const struct tern_session *s, u32 h6,
			 struct tern_tbl_where *w)
{
	const struct tern_bib *b = s->bib;

	w->sess = true;
	w->s6 = h6 % TERN_TBL_NLOCKS;
	w->s4 = tern_sess_lk4(s);
	w->tag6 = s->tag6;
	w->b6 = tern_tbl_hash_bib6(t, b->l4, &b->t6);
	w->b4 = tern_tbl_hash_bib4(t, b->l4, &b->t4);
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

/*
 * Every writer of a session's state holds the lock of its chain by 6: the
 * expiry worker, the revival of an expired session, this. A refresh
 * (tern_sess_refresh()) stores the expiry without lock; nat64/tcp_sess.c
 * says how a refresh that raced a change here is set right.
 */
bool tern_sess_set_state(struct tern_tables *t, struct tern_session *s,
			 u8 old, bool expired, u8 state, unsigned long timeout)
{
	struct tern_bib *b = s->bib;
	spinlock_t *lock;
	bool done = false;
	u32 h;

	h = tern_tbl_hash_sess6(t, b->l4, &b->t6, &s->remote);
	lock = &t->locks[h % TERN_TBL_NLOCKS];
	local_bh_disable();
	tern_tbl_lock_first(t, lock);
	if (READ_ONCE(s->state) == old &&
	    tern_sess_expired(s, (u32)jiffies) == expired) {
		WRITE_ONCE(s->state, state);
		/* Ordered before the expiry: see tern_tcp_sess_step(). */
		smp_mb();
		if (timeout) {
			u32 exp = (u32)(jiffies + timeout);

			WRITE_ONCE(s->expires, exp);
			tern_tbl_gc_note(t, exp);
		}
		done = true;
	}
	spin_unlock_bh(lock);
	return done;
}

/*
 * Lookups: under RCU, or under the chain's lock. Lock-free ones read the
 * arrays once (t->arr) and, on a miss only, look again if a resize moved
 * entries meanwhile (the nulls value cannot tell: an entry may move to a
 * chain of the same index in the new array).
 */

/*
 * Each lookup has one side, IPv6 (@t6 given, @t4 NULL) or IPv4 (the
 * other way round): its key, its chains (n6 or n4) and its arrays. Inlined
 * with a constant side, each exported function keeps its own loop.
 */
static __always_inline bool tern_tbl_bib_is(const struct tern_bib *b, u8 l4,
					    const struct tern_ta6 *t6,
					    const struct tern_ta4 *t4)
{
	return b->l4 == l4 && (t6 ? tern_tbl_ta6_eq(&b->t6, t6) :
				    tern_tbl_ta4_eq(&b->t4, t4));
}

/* As hlist_nulls_for_each_entry_rcu(), the entry left to the caller. */
#define tern_tbl_chain_for_each(pos, head)				\
	for (({ barrier(); }),						\
	     pos = rcu_dereference_raw(hlist_nulls_first_rcu(head));	\
	     !is_a_nulls(pos);						\
	     pos = rcu_dereference_raw(hlist_nulls_next_rcu(pos)))

/* @tag: the IPv6 side's only. */
static __always_inline struct tern_session *
tern_tbl_sess_in(struct hlist_nulls_head *a, u32 h, u8 tag, u8 l4,
		 const struct tern_ta6 *t6, const struct tern_ta4 *t4,
		 const struct tern_ta4 *r)
{
	struct hlist_nulls_node *n;
	struct tern_session *s;

begin:
	tern_tbl_chain_for_each(n, &a[h]) {
		s = t6 ? hlist_nulls_entry(n, struct tern_session, n6) :
			 hlist_nulls_entry(n, struct tern_session, n4);
		/* The session's own fields first: its BIB entry is a miss. */
		if ((t6 && s->tag6 != tag) || !tern_tbl_ta4_eq(&s->remote, r))
			continue;
		if (tern_tbl_bib_is(s->bib, l4, t6, t4))
			return s;
	}
	if (get_nulls_value(n) != h)
		goto begin;
	return NULL;
}

struct tern_session *tern_tbl_sess6(struct tern_tables *t, u32 h, u8 tag,
				    u8 l4, const struct tern_ta6 *t6,
				    const struct tern_ta4 *r)
{
	return tern_tbl_sess_in(t->sess6, h & t->sess_mask, tag, l4, t6, NULL,
				r);
}

static __always_inline struct tern_session *
tern_tbl_sess_find(struct tern_tables *t, u8 l4, const struct tern_ta6 *t6,
		   const struct tern_ta4 *t4, const struct tern_ta4 *remote,
		   bool *gone)
{
	u32 h = t6 ? tern_tbl_hash_sess6(t, l4, t6, remote) :
		     tern_tbl_hash_sess4(t, l4, t4, remote);
	const struct tern_tbl_arrays *a;
	struct tern_session *s;
	unsigned int seq;

	do {
		seq = tern_tbl_seq_begin(t);
		a = tern_tbl_arr(t);
		s = tern_tbl_sess_in(t6 ? a->sess6 : a->sess4,
				     h & a->sess_mask, tern_tbl_tag(h), l4,
				     t6, t4, remote);
	} while (!s && tern_tbl_seq_retry(t, seq));
	if (s && tern_tbl_sess_gone(t, s, (u32)jiffies)) {
		if (gone)
			*gone = true;
		return NULL;
	}
	return s;
}

struct tern_session *tern_sess_find6(struct tern_tables *t, u8 l4,
				     const struct tern_ta6 *src,
				     const struct tern_ta4 *remote)
{
	return tern_tbl_sess_find(t, l4, src, NULL, remote, NULL);
}

struct tern_session *tern_sess_find4(struct tern_tables *t, u8 l4,
				     const struct tern_ta4 *local,
				     const struct tern_ta4 *remote)
{
	return tern_tbl_sess_find(t, l4, NULL, local, remote, NULL);
}

struct tern_session *tern_tbl_sess_lookup(struct tern_tables *t, u8 l4,
					  const struct tern_ta6 *t6,
					  const struct tern_ta4 *t4,
					  const struct tern_ta4 *remote,
					  bool *gone)
{
	*gone = false;
	return tern_tbl_sess_find(t, l4, t6, t4, remote, gone);
}

/* A BIB entry whose last reference went is not found (it is going). */
static __always_inline struct tern_bib *
tern_tbl_bib_in(struct hlist_nulls_head *a, u32 h, u8 l4,
		const struct tern_ta6 *t6, const struct tern_ta4 *t4)
{
	struct hlist_nulls_node *n;
	struct tern_bib *b;

begin:
	tern_tbl_chain_for_each(n, &a[h]) {
		b = t6 ? hlist_nulls_entry(n, struct tern_bib, n6) :
			 hlist_nulls_entry(n, struct tern_bib, n4);
		if (tern_tbl_bib_is(b, l4, t6, t4) && refcount_read(&b->ref))
			return b;
	}
	if (get_nulls_value(n) != h)
		goto begin;
	return NULL;
}

static __always_inline struct tern_bib *
tern_tbl_bib_find(struct tern_tables *t, u8 l4, const struct tern_ta6 *t6,
		  const struct tern_ta4 *t4)
{
	u32 h = t6 ? tern_tbl_hash_bib6(t, l4, t6) :
		     tern_tbl_hash_bib4(t, l4, t4);
	const struct tern_tbl_arrays *a;
	struct tern_bib *b;
	unsigned int seq;

	do {
		seq = tern_tbl_seq_begin(t);
		a = tern_tbl_arr(t);
		b = tern_tbl_bib_in(t6 ? a->bib6 : a->bib4, h & a->bib_mask, l4,
				    t6, t4);
	} while (!b && tern_tbl_seq_retry(t, seq));
	return b;
}

struct tern_bib *tern_bib_find6(struct tern_tables *t, u8 l4,
				const struct tern_ta6 *t6)
{
	return tern_tbl_bib_find(t, l4, t6, NULL);
}

struct tern_bib *tern_bib_find4(struct tern_tables *t, u8 l4,
				const struct tern_ta4 *t4)
{
	return tern_tbl_bib_find(t, l4, NULL, t4);
}

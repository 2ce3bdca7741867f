// SPDX-License-Identifier: GPL-2.0
/*
 * NAT64 tables: the session, BIB, peer and subscriber arrays follow
 * max-sessions (nat64/table_int.h, Resizing, has the locking).
 *
 * New arrays are allocated outside every lock. Then, BHs off, under
 * t->all_lock with t->all set, every writer is out (each bucket lock was
 * free once after t->all was set): the entries move to their chains in
 * the new arrays inside a write section of t->seq, the new arrays are
 * published (t->arr), and the writers let go. A lookup that walked an old
 * chain while entries moved may miss: it sees t->seq moved and looks
 * again; a hit is always right (the key is compared). The old arrays are
 * freed after a grace period: no lookup walks them then.
 */

#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/rculist.h>
#include <linux/rculist_nulls.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "nat64/table_int.h"

/*
 * An array of 2 MiB or more is mapped with huge pages where memory allows
 * (vmalloc_huge(), as alloc_large_system_hash() maps the kernel's own):
 * a session array of 2^24 buckets (128 MiB) then takes 64 TLB entries,
 * not 32,768, and a packet's bucket costs no page walk of its own. Every
 * head is set below, so no zeroing.
 */
static struct hlist_nulls_head *tern_tbl_array(u32 n)
{
	size_t size = array_size(n, sizeof(struct hlist_nulls_head));
	struct hlist_nulls_head *h;
	u32 i;

	if (size >= PMD_SIZE)
		h = vmalloc_huge(size, GFP_KERNEL_ACCOUNT);
	else
		h = kvmalloc(size, GFP_KERNEL_ACCOUNT);
	if (h)
		for (i = 0; i < n; i++)
			INIT_HLIST_NULLS_HEAD(&h[i], i);
	return h;
}

void tern_tbl_arrays_free(struct tern_tbl_arrays *a)
{
	kvfree(a->bib6);
	kvfree(a->bib4);
	kvfree(a->sess6);
	kvfree(a->sess4);
	kvfree(a->peers);
	kvfree(a->subs);
	a->bib6 = NULL;
	a->bib4 = NULL;
	a->sess6 = NULL;
	a->sess4 = NULL;
	a->peers = NULL;
	a->subs = NULL;
}

void tern_tbl_arrays_set(struct tern_tables *t,
			 const struct tern_tbl_arrays *a)
{
	t->sess_mask = a->sess_mask;
	t->bib_mask = a->bib_mask;
	t->sess6 = a->sess6;
	t->sess4 = a->sess4;
	t->bib6 = a->bib6;
	t->bib4 = a->bib4;
	t->peer_mask = a->peer_mask;
	t->peers = a->peers;
	t->sub_mask = a->sub_mask;
	t->subs = a->subs;
}

int tern_tbl_arrays_alloc(struct tern_tbl_arrays *a)
{
	a->bib6 = tern_tbl_array(a->bib_mask + 1);
	a->bib4 = tern_tbl_array(a->bib_mask + 1);
	a->sess6 = tern_tbl_array(a->sess_mask + 1);
	a->sess4 = tern_tbl_array(a->sess_mask + 1);
	a->peers = kvcalloc(a->peer_mask + 1, sizeof(*a->peers),
			    GFP_KERNEL_ACCOUNT);
	a->subs = kvcalloc(a->sub_mask + 1, sizeof(*a->subs),
			   GFP_KERNEL_ACCOUNT);
	/* (An empty hlist_head is zeroes.) */
	if (a->bib6 && a->bib4 && a->sess6 && a->sess4 && a->peers && a->subs)
		return 0;
	tern_tbl_arrays_free(a);
	return -ENOMEM;
}

void tern_tbl_sizes(u32 max_sessions, struct tern_tbl_arrays *a)
{
	/* A bucket or two a session when full: chains of one or so. */
	u32 n = max_sessions ?: 1U << 16, ns;

	ns = roundup_pow_of_two(clamp(n, 1U << 10, TERN_TBL_SESS_BUCKETS));
	a->sess_mask = ns - 1;
	a->bib_mask = max(ns / 2, 1U << 10) - 1;
	/* A peer (subscriber) a session at worst: chains of four when full. */
	a->peer_mask = max(ns / 4, 1U << 10) - 1;
	a->sub_mask = a->peer_mask;
}

/* At least as many buckets as locks: a lock index is the same in every size. */
static_assert(1U << 10 >= TERN_TBL_NLOCKS &&
	      1U << 10 >= TERN_TBL_PEER_NLOCKS &&
	      1U << 10 >= TERN_TBL_SUB_NLOCKS);

/*
 * Hysteresis: grow as soon as tern_tables_alloc() would pick more buckets
 * (the limit doubled: chains of two or more when full), shrink only when
 * it would pick a quarter or less. Growing keeps lookups short; shrinking
 * only gives back memory and stops writers as long, so a limit set back
 * and forth between neighbouring values resizes once, not every time.
 */
#define TERN_TBL_SHRINK		4

static void tern_tbl_move_sess(struct tern_tables *t,
			       const struct tern_tbl_arrays *o,
			       const struct tern_tbl_arrays *a)
{
	struct tern_session *s;
	struct tern_bib *b;
	u32 h, k;

	for (h = 0; h <= o->sess_mask; h++) {
		while (!hlist_nulls_empty(&o->sess6[h])) {
			s = hlist_nulls_entry(o->sess6[h].first,
					      struct tern_session, n6);
			b = s->bib;
			k = tern_tbl_hash_sess6(t, b->l4, &b->t6, &s->remote);
			/* Its next stays: a walk on it ends in the new chain. */
			hlist_nulls_del_rcu(&s->n6);
			hlist_nulls_add_head_rcu(&s->n6,
						 &a->sess6[k & a->sess_mask]);
		}
		while (!hlist_nulls_empty(&o->sess4[h])) {
			s = hlist_nulls_entry(o->sess4[h].first,
					      struct tern_session, n4);
			b = s->bib;
			k = tern_tbl_hash_sess4(t, b->l4, &b->t4, &s->remote);
			hlist_nulls_del_rcu(&s->n4);
			hlist_nulls_add_head_rcu(&s->n4,
						 &a->sess4[k & a->sess_mask]);
		}
	}
}

/*
 * Peer records are changed under a peer lock alone too (a batch's
 * uncharges), so the bucket locks do not keep their writers out: they
 * move lock by lock, each flagged under its lock, and the flags are
 * cleared once the new arrays are the writers' (tern_peer_chain()).
 */
static void tern_tbl_move_peers(struct tern_tables *t,
				const struct tern_tbl_arrays *o,
				struct tern_tbl_arrays *a)
{
	struct tern_peer *p;
	u32 i, h, k;

	t->peer_next = a;
	for (i = 0; i < TERN_TBL_PEER_NLOCKS; i++) {
		spin_lock(&t->peer_locks[i]);
		for (h = i; h <= o->peer_mask; h += TERN_TBL_PEER_NLOCKS) {
			while (!hlist_empty(&o->peers[h])) {
				p = hlist_entry(o->peers[h].first,
						struct tern_peer, node);
				k = tern_tbl_hash_peer(t, p->l4, p->laddr,
						       p->lport, p->raddr);
				/* A lookup that loses its way looks again. */
				hlist_del_rcu(&p->node);
				hlist_add_head_rcu(&p->node,
						   &a->peers[k & a->peer_mask]);
			}
		}
		t->peer_moved[i] = true;
		spin_unlock(&t->peer_locks[i]);
	}
}

/*
 * Subscriber records likewise (tern_sub_chain()), after the peers: the
 * flagged find the new arrays in t->peer_next. Nothing reads them without
 * their lock, so they need no RCU list operations.
 */
static void tern_tbl_move_subs(struct tern_tables *t,
			       const struct tern_tbl_arrays *o,
			       const struct tern_tbl_arrays *a)
{
	struct hlist_node *tmp;
	struct tern_sub *sub;
	u32 i, h, k;

	for (i = 0; i < TERN_TBL_SUB_NLOCKS; i++) {
		spin_lock(&t->sub_locks[i]);
		for (h = i; h <= o->sub_mask; h += TERN_TBL_SUB_NLOCKS) {
			hlist_for_each_entry_safe(sub, tmp, &o->subs[h], node) {
				k = tern_tbl_hash_sub(t, &sub->prefix,
						      sub->plen);
				hlist_del(&sub->node);
				hlist_add_head(&sub->node,
					       &a->subs[k & a->sub_mask]);
			}
		}
		t->sub_moved[i] = true;
		spin_unlock(&t->sub_locks[i]);
	}
}

static void tern_tbl_peers_moved(struct tern_tables *t)
{
	u32 i;

	for (i = 0; i < TERN_TBL_PEER_NLOCKS; i++) {
		spin_lock(&t->peer_locks[i]);
		t->peer_moved[i] = false;
		spin_unlock(&t->peer_locks[i]);
	}
	for (i = 0; i < TERN_TBL_SUB_NLOCKS; i++) {
		spin_lock(&t->sub_locks[i]);
		t->sub_moved[i] = false;
		spin_unlock(&t->sub_locks[i]);
	}
	t->peer_next = NULL;
}

static void tern_tbl_move_bib(struct tern_tables *t,
			      const struct tern_tbl_arrays *o,
			      const struct tern_tbl_arrays *a)
{
	struct tern_bib *b;
	u32 h, k;

	for (h = 0; h <= o->bib_mask; h++) {
		while (!hlist_nulls_empty(&o->bib6[h])) {
			b = hlist_nulls_entry(o->bib6[h].first,
					      struct tern_bib, n6);
			k = tern_tbl_hash_bib6(t, b->l4, &b->t6);
			hlist_nulls_del_rcu(&b->n6);
			hlist_nulls_add_head_rcu(&b->n6,
						 &a->bib6[k & a->bib_mask]);
		}
		while (!hlist_nulls_empty(&o->bib4[h])) {
			b = hlist_nulls_entry(o->bib4[h].first,
					      struct tern_bib, n4);
			k = tern_tbl_hash_bib4(t, b->l4, &b->t4);
			hlist_nulls_del_rcu(&b->n4);
			hlist_nulls_add_head_rcu(&b->n4,
						 &a->bib4[k & a->bib_mask]);
		}
	}
}

/* Every writer out (BHs off), as conntrack's nf_conntrack_all_lock(). */
static void tern_tbl_all_lock(struct tern_tables *t)
{
	unsigned int i;

	spin_lock(&t->all_lock);
	WRITE_ONCE(t->all, true);
	for (i = 0; i < TERN_TBL_NLOCKS; i++) {
		spin_lock(&t->locks[i]);
		/* Whoever takes it next sees t->all (tern_tbl_lock_first()). */
		spin_unlock(&t->locks[i]);
	}
}

static void tern_tbl_all_unlock(struct tern_tables *t)
{
	/* The moves before it: pairs with tern_tbl_lock_first()'s acquire. */
	smp_store_release(&t->all, false);
	spin_unlock(&t->all_lock);
}

int tern_tables_resize(struct tern_tables *t, u32 max_sessions)
{
	struct tern_tbl_arrays *o, *a, m;
	u32 ns;

	tern_tbl_sizes(max_sessions, &m);
	ns = m.sess_mask + 1;
	mutex_lock(&t->resize_mutex);
	o = rcu_dereference_protected(t->arr,
				      lockdep_is_held(&t->resize_mutex));
	if (ns == o->sess_mask + 1 ||
	    (ns < o->sess_mask + 1 && ns > (o->sess_mask + 1) / TERN_TBL_SHRINK)) {
		mutex_unlock(&t->resize_mutex);
		return 0;
	}
	a = o == &t->arrs[0] ? &t->arrs[1] : &t->arrs[0];
	a->sess_mask = m.sess_mask;
	a->bib_mask = m.bib_mask;
	a->peer_mask = m.peer_mask;
	a->sub_mask = m.sub_mask;
	if (tern_tbl_arrays_alloc(a)) {
		mutex_unlock(&t->resize_mutex);
		return -ENOMEM;
	}

	local_bh_disable();
	tern_tbl_all_lock(t);
	write_seqcount_begin(&t->seq);
	tern_tbl_move_sess(t, o, a);
	tern_tbl_move_bib(t, o, a);
	tern_tbl_move_peers(t, o, a);
	tern_tbl_move_subs(t, o, a);
	tern_tbl_arrays_set(t, a);
	rcu_assign_pointer(t->arr, a);
	write_seqcount_end(&t->seq);
	tern_tbl_peers_moved(t);
	/* A walk in parts that saw the arrays change says so. */
	atomic_inc(&t->changes);
	atomic_inc(&t->static_changes);
	tern_tbl_all_unlock(t);
	local_bh_enable();

	/* No lookup walks the old arrays after a grace period. */
	synchronize_rcu();
	tern_tbl_arrays_free(o);
	mutex_unlock(&t->resize_mutex);
	return 1;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * NAT64 tables: expiry, removal of a BIB entry, walks, counts and freeing
 * the tables (nat64/table_int.h has the locking; nat64/table_flush.c
 * flushes; the entries are freed by nat64/table_free.c).
 */

#include <linux/jiffies.h>
#include <linux/rculist.h>
#include <linux/rculist_nulls.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "nat64/table_int.h"

/*
 * The expiry collector, tern_tables_gc(), run by the instance's work item.
 * A sweep walks the whole session table in runs of at most TERN_GC_RUN_NS
 * a jiffy apart. After a sweep it pauses TERN_GC_DUTY times what the sweep
 * cost in CPU, and TERN_GC_PAUSE at least: a sweep a second on a small
 * table, about 1/(TERN_GC_DUTY + 1) of one CPU on a big one, however many
 * sessions expire (not one sweep after another, which on a big table of
 * long-lived sessions took a sixth of the translator's CPU). No sweep
 * starts before the earliest expiry it knows of (struct tern_tables,
 * gc_low and gc_note): a table of sessions that live on costs a look at
 * the clock a second, not a walk of every bucket. Lookups treat
 * an expired session meanwhile as the sweep will (nat64/table.h): gone, or
 * kept by tcp_expire, then a packet steps it from the state the sweep
 * would give it; only the memory of one gone, its place under
 * max-sessions, its port and its expiry event wait for the sweep.
 */
#define TERN_GC_RUN_NS		(2 * NSEC_PER_MSEC)
/* What a run counts at most (softirqs that interrupt it count too). */
#define TERN_GC_RUN_MAX_NS	(10 * TERN_GC_RUN_NS)
#define TERN_GC_DUTY		32
#define TERN_GC_PAUSE		HZ
#define TERN_GC_PAUSE_MAX	(60 * HZ)
/* Buckets between two looks at the clock. */
#define TERN_GC_CLOCK_EVERY	16
/* Buckets between two cond_resched() of a whole walk. */
#define TERN_GC_RESCHED		1024

/*
 * An expired TCP session the events callback keeps (struct
 * tern_table_events, tcp_expire): its new state and lifetime. Under
 * rcu_read_lock(). Returns false if it is to be removed.
 */
static bool tern_tbl_tcp_keep(struct tern_tables *t, struct tern_session *s,
			      u32 h6)
{
	const struct tern_table_events *ev = READ_ONCE(t->ev);
	struct tern_tbl_where w;
	struct tern_lockset ls;
	unsigned long timeout;
	bool kept = false;
	u8 old, state;
	u32 exp;

	if (s->bib->l4 != TERN_L4_TCP)
		return false;
	old = READ_ONCE(s->state);
	state = old;
	/* The rule lookups follow too (nat64/table.h). */
	if (!tern_sess_tcp_expire(t, &state, &timeout))
		return false;
	tern_tbl_where_sess(t, s, h6, &w);
	tern_tbl_lock(t, &ls, &w);
	/* Not if a packet or another remover came first. */
	if (!hlist_nulls_unhashed(&s->n6) && READ_ONCE(s->state) == old &&
	    tern_sess_expired(s, (u32)jiffies)) {
		WRITE_ONCE(s->state, state);
		/* As tern_sess_set_state(): a refresh reads the state again. */
		smp_mb();
		exp = (u32)(jiffies + timeout);
		WRITE_ONCE(s->expires, exp);
		tern_tbl_gc_note(t, exp);
		kept = true;
	}
	tern_tbl_unlock(t, &ls);
	if (kept && ev && ev->tcp_kept)
		ev->tcp_kept(ev->arg, s);
	/* Not kept: it changed meanwhile; the next sweep sees it again. */
	return true;
}

/* Removes the sessions of chain @h of @sess6 that @match says. */
static void tern_tbl_sweep(struct tern_tables *t,
			   struct hlist_nulls_head *sess6, u32 h,
			   bool (*match)(const struct tern_session *s,
					 const void *arg),
			   const void *arg)
{
	struct hlist_nulls_node *n;
	struct tern_session *s;

	if (hlist_nulls_empty(&sess6[h]))
		return;
	rcu_read_lock();
	/* An unlinked node keeps its next: the walk goes on from it. */
	hlist_nulls_for_each_entry_rcu(s, n, &sess6[h], n6)
		if (match(s, arg))
			tern_tbl_sess_remove(t, s, h, false);
	rcu_read_unlock();
}

/*
 * The sweep's step: removes the expired sessions of chain @h of @sess6 (or
 * keeps them, tcp_expire), and lowers *@low to the expiry of each left.
 */
static void tern_tbl_gc_chain(struct tern_tables *t,
			      struct hlist_nulls_head *sess6, u32 h, u32 now,
			      u32 *low)
{
	struct hlist_nulls_node *n;
	struct tern_session *s;
	u32 exp;

	if (hlist_nulls_empty(&sess6[h]))
		return;
	rcu_read_lock();
	/* An unlinked node keeps its next: the walk goes on from it. */
	hlist_nulls_for_each_entry_rcu(s, n, &sess6[h], n6) {
		if (tern_sess_expired(s, now) && !tern_tbl_tcp_keep(t, s, h) &&
		    tern_tbl_sess_remove(t, s, h, true))
			continue;
		/* Left (or removed by another): no later than it is. */
		exp = READ_ONCE(s->expires);
		if ((s32)(exp - *low) < 0)
			*low = exp;
	}
	rcu_read_unlock();
}

/*
 * Before a sweep: may it wait? Yes while the earliest expiry known is to
 * come. A session whose expiry was set meanwhile lowered gc_note.
 */
static bool tern_tbl_gc_idle(struct tern_tables *t, u32 now)
{
	u32 low = READ_ONCE(t->gc_note);

	if (!t->gc_low_set)
		return false;
	if ((s32)(t->gc_low - low) < 0)
		low = t->gc_low;
	return (s32)(now - low) < 0;
}

/*
 * After a whole sweep: the bound for the next. Every session left was
 * seen (gc_sweep_low), or had its expiry set since its bucket was, which
 * lowered gc_note (taken, and started afresh). A resize during the sweep
 * may have moved sessions behind the cursor unseen: their expiries are
 * no earlier than the bound before the sweep.
 */
static void tern_tbl_gc_bound(struct tern_tables *t, u32 now, bool resized)
{
	u32 low = t->gc_sweep_low;
	u32 note = xchg(&t->gc_note, now + TERN_GC_FAR);

	if ((s32)(note - low) < 0)
		low = note;
	if (resized && t->gc_low_set && (s32)(t->gc_low - low) < 0)
		low = t->gc_low;
	t->gc_low = low;
	t->gc_low_set = true;
}

unsigned long tern_tables_gc_pause(u64 cost_ns)
{
	u64 pause = div_u64(cost_ns * TERN_GC_DUTY, NSEC_PER_SEC / HZ);

	return clamp_t(u64, pause, TERN_GC_PAUSE, TERN_GC_PAUSE_MAX);
}

bool tern_tables_gc(struct tern_tables *t, unsigned long *next)
{
	u64 start = local_clock(), now_ns = start;
	const struct tern_tbl_arrays *a;
	u32 now = (u32)jiffies;
	u32 h;
	unsigned int i = 0;
	bool more;

	/*
	 * An empty table has nothing to expire, nor one whose earliest
	 * expiry is to come: a sweep starts over later.
	 */
	if (!atomic_read(&t->nsess) ||
	    (!t->gc_cursor && tern_tbl_gc_idle(t, now))) {
		t->gc_cursor = 0;
		t->gc_cost_ns = 0;
		if (next)
			*next = TERN_GC_PAUSE;
		return false;
	}
	/*
	 * One set of arrays, read once, valid for the run (under RCU: a run
	 * is short). A resize since the last run moved the sessions: the
	 * cursor goes on in the new arrays, what it misses the next sweep
	 * sees (an expired session is not found meanwhile).
	 */
	rcu_read_lock();
	/*
	 * A sweep's start: t->seq before the arrays (raw_read_seqcount()
	 * orders the reads), so that a resize that moves sessions behind
	 * the cursor is seen (odd: under way).
	 */
	if (!t->gc_cursor) {
		t->gc_sweep_low = now + TERN_GC_FAR;
		t->gc_sweep_seq = raw_read_seqcount(&t->seq);
	}
	a = tern_tbl_arr(t);
	h = t->gc_cursor & a->sess_mask;
	/* A bucket at least, the rest of the sweep at most. */
	do {
		tern_tbl_gc_chain(t, a->sess6, h, now, &t->gc_sweep_low);
		h = (h + 1) & a->sess_mask;
		if (!(++i % TERN_GC_CLOCK_EVERY))
			now_ns = local_clock();
	} while (h && now_ns - start < TERN_GC_RUN_NS);
	t->gc_cursor = h;
	if (!h)
		tern_tbl_gc_bound(t, now,
				  (t->gc_sweep_seq & 1) ||
				  raw_read_seqcount(&t->seq) != t->gc_sweep_seq);
	rcu_read_unlock();
	/* Bounded: local_clock() may step back on another CPU. */
	t->gc_cost_ns += min_t(u64, local_clock() - start,
			       TERN_GC_RUN_MAX_NS);
	more = h;
	if (next)
		*next = more ? 1 : tern_tables_gc_pause(t->gc_cost_ns);
	if (!more)
		t->gc_cost_ns = 0;
	return more;
}

static bool tern_match_bib(const struct tern_session *s, const void *arg)
{
	return s->bib == arg;
}

/*
 * Holding a reference (the static one, or one taken for a dynamic entry),
 * removes the sessions of the entry, then drops it: the entry goes unless
 * a session came meanwhile (it is dynamic then, and goes with it).
 */
int tern_bib_del(struct tern_tables *t, u8 l4, const struct tern_ta6 *t6,
		 const struct tern_ta4 *t4)
{
	struct tern_tbl_where w;
	struct tern_lockset ls;
	struct tern_bib *b;
	bool gone;
	int ret = 0;
	u32 h;

	rcu_read_lock();
	b = t6 ? tern_bib_find6(t, l4, t6) : t4 ? tern_bib_find4(t, l4, t4) :
	    NULL;
	if (!b || (t6 && t4 && !tern_tbl_ta4_eq(&b->t4, t4))) {
		rcu_read_unlock();
		return -ENOENT;
	}
	tern_tbl_where_bib(t, b, &w);
	tern_tbl_lock(t, &ls, &w);
	if (hlist_nulls_unhashed(&b->n6)) {
		ret = -ENOENT;
	} else if (b->is_static) {
		b->is_static = false;
		atomic_dec(&t->nstatic);
		atomic_inc(&t->static_changes);
	} else {
		refcount_inc(&b->ref);
	}
	tern_tbl_unlock(t, &ls);
	rcu_read_unlock();
	if (ret)
		return ret;

	mutex_lock(&t->resize_mutex);
	for (h = 0; h <= t->sess_mask; h++) {
		tern_tbl_sweep(t, t->sess6, h, tern_match_bib, b);
		if (!(h % TERN_GC_RESCHED))
			cond_resched();
	}
	mutex_unlock(&t->resize_mutex);

	rcu_read_lock();
	tern_tbl_lock(t, &ls, &w);
	gone = refcount_dec_and_test(&b->ref);
	if (gone)
		tern_tbl_bib_unlink(t, b);
	tern_tbl_unlock(t, &ls);
	if (gone)
		tern_tbl_ev_bib(t, b, false);
	rcu_read_unlock();
	return 0;
}

int tern_bib_walk(struct tern_tables *t, u8 l4, struct tern_walk_pos *pos,
		  int (*fn)(const struct tern_bib *b, void *arg), void *arg)
{
	/* Read once: a resize after a part may move what is left. */
	const struct tern_tbl_arrays *a = tern_tbl_arr(t);
	struct hlist_nulls_node *n;
	struct tern_bib *b;
	bool counted;
	u32 seen;
	int ret;

	for (; pos->bucket <= a->bib_mask; pos->bucket++, pos->skip = 0) {
		seen = 0;
		hlist_nulls_for_each_entry_rcu(b, n, &a->bib6[pos->bucket], n6) {
			if (l4 != TERN_L4_N && b->l4 != l4)
				continue;
			/*
			 * A walk of static entries counts only them; past its
			 * position the others still go to @fn (whose filter
			 * refuses them, and whose budget counts them).
			 */
			counted = !pos->only_static || b->is_static;
			if ((counted ? seen++ : seen) < pos->skip ||
			    !refcount_read(&b->ref))
				continue;
			ret = fn(b, arg);
			if (ret) {
				pos->skip = counted ? seen - 1 : seen;
				return ret;
			}
		}
	}
	return 0;
}

/* Expired sessions are counted in @pos but not shown. */
int tern_sess_walk(struct tern_tables *t, u8 l4, struct tern_walk_pos *pos,
		   int (*fn)(const struct tern_session *s, void *arg),
		   void *arg)
{
	const struct tern_tbl_arrays *a = tern_tbl_arr(t);
	struct hlist_nulls_node *n;
	struct tern_session *s;
	u32 now = (u32)jiffies;
	u32 seen;
	int ret;

	for (; pos->bucket <= a->sess_mask; pos->bucket++, pos->skip = 0) {
		seen = 0;
		hlist_nulls_for_each_entry_rcu(s, n, &a->sess6[pos->bucket], n6) {
			if (l4 != TERN_L4_N && s->bib->l4 != l4)
				continue;
			if (seen++ < pos->skip || tern_sess_expired(s, now))
				continue;
			ret = fn(s, arg);
			if (ret) {
				pos->skip = seen - 1;
				return ret;
			}
		}
	}
	return 0;
}

void tern_tables_count(struct tern_tables *t, struct tern_tables_count *c)
{
	int nb = atomic_read(&t->nbib), ns = atomic_read(&t->nsess);
	const struct tern_tbl_arrays *a;

	/* One set of arrays: their masks agree. */
	rcu_read_lock();
	a = tern_tbl_arr(t);
	c->bucket_bytes = 2 * ((u64)a->sess_mask + 1 + a->bib_mask + 1) *
			  sizeof(struct hlist_nulls_head) +
			  ((u64)a->peer_mask + 1 + a->sub_mask + 1) *
			  sizeof(struct hlist_head);
	rcu_read_unlock();

	c->bib = max(nb, 0);
	c->sessions = max(ns, 0);
	/* A pair is a BIB entry and a session (its room, when idle). */
	c->bytes = c->bib * kmem_cache_size(tern_bib_cache) +
		   (c->sessions + max(atomic_read(&t->pair_idle), 0)) *
		   kmem_cache_size(tern_sess_cache) +
		   (u64)max(atomic_read(&t->npeer), 0) *
		   kmem_cache_size(tern_peer_cache);
}

void tern_tables_free(struct tern_tables *t)
{
	struct hlist_nulls_node *n;
	struct tern_tbl_where w;
	struct tern_lockset ls;
	struct tern_bib *b;
	u32 h;

	if (!t)
		return;
	WRITE_ONCE(t->ev, NULL);
	tern_tables_flush(t, TERN_L4_N);
	/* Static entries are left, with their own reference only. */
	for (h = 0; h <= t->bib_mask; h++) {
		/* Millions of buckets: yield now and then, skip the empty. */
		if (!(h % TERN_GC_RESCHED))
			cond_resched();
		if (hlist_nulls_empty(&t->bib6[h]))
			continue;
		rcu_read_lock();
		hlist_nulls_for_each_entry_rcu(b, n, &t->bib6[h], n6) {
			tern_tbl_where_bib(t, b, &w);
			tern_tbl_lock(t, &ls, &w);
			if (!hlist_nulls_unhashed(&b->n6) &&
			    refcount_dec_and_test(&b->ref))
				tern_tbl_bib_unlink(t, b);
			tern_tbl_unlock(t, &ls);
		}
		rcu_read_unlock();
	}
	WARN_ON(atomic_read(&t->nbib) || atomic_read(&t->nsess));
	tern_peers_free(t);
	tern_tbl_reap_all(t);
	for (h = 0; h <= t->sub_mask; h++)
		WARN_ON(!hlist_empty(&t->subs[h]));
	tern_tbl_arrays_free(tern_tbl_arr(t));
	kvfree(t);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * NAT64 tables: flushing the sessions of a protocol, or all of them
 * (session flush, instance removal). nat64/table_int.h has the locking.
 *
 * A flush is shared between the CPUs: the caller and a worker for each
 * other part take runs of TERN_FLUSH_BATCH buckets of the session table
 * from one cursor until none is left, so a CPU that stalls (a busy or
 * preempted vCPU) holds up one run, not a fixed share of the table; a
 * worker that has not started when the caller runs out is cancelled. The
 * bucket locks serialize the removals that meet (as they do with
 * packets). Each gathers what it unlinked in a batch (struct
 * tern_tbl_batch) and accounts for it after each run: the CPUs do not take
 * turns at the table's counters, its free lists and a subscriber's lock
 * for every entry.
 */

#include <linux/rculist.h>
#include <linux/rculist_nulls.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "nat64/table_int.h"

/* Below TERN_FLUSH_PART buckets a part is not worth a worker. */
#define TERN_FLUSH_PART		(1U << 16)
#define TERN_FLUSH_PARTS_MAX	8
/* Buckets a batch spans, then a cond_resched(). */
#define TERN_FLUSH_BATCH	256

struct tern_flush {
	struct tern_tables *t;
	atomic_t next;			/* the next run to take */
	u32 runs;
	u8 l4;
	/* NULL: every session of @l4; else those whose BIB entry matches. */
	bool (*match)(const struct tern_bib *b, void *arg);
	void *arg;
};

/* Unlinks the sessions @f wants in chain @h of t->sess6. */
static void tern_flush_chain(struct tern_tables *t, u32 h,
			     const struct tern_flush *f,
			     struct tern_tbl_batch *bt)
{
	u8 l4 = f->l4;
	const struct tern_table_events *ev = READ_ONCE(t->ev);
	struct hlist_nulls_node *n;
	struct tern_tbl_where w;
	struct tern_lockset ls;
	struct tern_session *s;
	bool done, bib_gone;

	rcu_read_lock();
	/* An unlinked node keeps its next: the walk goes on from it. */
	hlist_nulls_for_each_entry_rcu(s, n, &t->sess6[h], n6) {
		if (l4 != TERN_L4_N && s->bib->l4 != l4)
			continue;
		if (f->match && !f->match(s->bib, f->arg))
			continue;
		tern_tbl_where_sess(t, s, h, &w);
		tern_tbl_lock(t, &ls, &w);
		done = tern_tbl_sess_unlink(t, s, &bib_gone, bt);
		tern_tbl_unlock(t, &ls);
		/* Freed after a grace period: both are still readable. */
		if (done && ev && ev->sess)
			ev->sess(ev->arg, s, false);
		if (bib_gone && ev && ev->bib)
			ev->bib(ev->arg, s->bib, false);
	}
	rcu_read_unlock();
}

/* Takes runs from @f's cursor, and empties them, until none is left. */
static void tern_flush_runs(struct tern_flush *f)
{
	struct tern_tables *t = f->t;
	struct tern_tbl_batch bt = {};
	u64 end, last = (u64)t->sess_mask + 1;
	u32 run, h;

	while ((run = atomic_inc_return(&f->next) - 1) < f->runs) {
		h = run * TERN_FLUSH_BATCH;
		end = min(last, (u64)h + TERN_FLUSH_BATCH);
		for (; h < end; h++)
			if (!hlist_nulls_empty(&t->sess6[h]))
				tern_flush_chain(t, h, f, &bt);
		local_bh_disable();
		tern_tbl_batch_end(t, &bt);
		local_bh_enable();
		cond_resched();
	}
}

struct tern_flush_part {
	struct work_struct work;
	struct tern_flush *f;
};

static void tern_flush_part_work(struct work_struct *work)
{
	tern_flush_runs(container_of(work, struct tern_flush_part, work)->f);
}

static void tern_flush_do(struct tern_tables *t, u8 l4, unsigned int parts,
			  bool (*match)(const struct tern_bib *b, void *arg),
			  void *arg)
{
	struct tern_flush f = {
		.t = t,
		.l4 = l4,
		.match = match,
		.arg = arg,
		.next = ATOMIC_INIT(0),
	};
	struct tern_flush_part *p = NULL;
	unsigned int i;

	/*
	 * No session: nothing to walk (a session is counted before it is
	 * linked, so none is missed that was linked before the flush began).
	 * An empty table of carrier size would otherwise cost a walk of
	 * every bucket: an emptied instance goes at once.
	 */
	if (!atomic_read(&t->nsess))
		return;
	/* The runs are of these arrays: no resize meanwhile. */
	mutex_lock(&t->resize_mutex);
	f.runs = DIV_ROUND_UP_ULL((u64)t->sess_mask + 1, TERN_FLUSH_BATCH);
	parts = clamp_t(u32, parts, 1, f.runs);
	if (parts > 1)
		p = kcalloc(parts - 1, sizeof(*p), GFP_KERNEL);
	for (i = 0; p && i < parts - 1; i++) {
		p[i].f = &f;
		INIT_WORK(&p[i].work, tern_flush_part_work);
		queue_work(system_unbound_wq, &p[i].work);
	}
	tern_flush_runs(&f);
	/* Nothing left to take: one not started has nothing to do. */
	for (i = 0; p && i < parts - 1; i++)
		cancel_work_sync(&p[i].work);
	kfree(p);
	mutex_unlock(&t->resize_mutex);
}

void tern_tables_flush_in(struct tern_tables *t, u8 l4, unsigned int parts)
{
	tern_flush_do(t, l4, parts, NULL, NULL);
}

static unsigned int tern_flush_parts(const struct tern_tables *t)
{
	return min3(num_online_cpus(), TERN_FLUSH_PARTS_MAX,
		    (t->sess_mask + 1) / TERN_FLUSH_PART);
}

void tern_tables_flush(struct tern_tables *t, u8 l4)
{
	tern_flush_do(t, l4, tern_flush_parts(t), NULL, NULL);
}

void tern_tables_flush_if(struct tern_tables *t,
			  bool (*match)(const struct tern_bib *b, void *arg),
			  void *arg)
{
	tern_flush_do(t, TERN_L4_N, tern_flush_parts(t), match, arg);
}

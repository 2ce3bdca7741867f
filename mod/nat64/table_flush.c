// SPDX-License-Identifier: GPL-2.0
/*
 * NAT64 tables: flushing the sessions of a protocol, or all of them
 * (session flush, instance removal). nat64/table_int.h has the locking.
 *
 * A flush is split between the CPUs: a part of the session table each, a
 * worker each but the caller's part. The bucket locks serialize the
 * removals that meet (as they do with packets). Each part gathers what it
 * unlinked in a batch (struct tern_tbl_batch) and accounts for it every
 * TERN_FLUSH_BATCH buckets: the two CPUs do not take turns at the table's
 * counters, its free lists and a subscriber's lock for every entry.
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

/* Unlinks the sessions of @l4 in chain @h of t->sess6. */
static void tern_flush_chain(struct tern_tables *t, u32 h, u8 l4,
			     struct tern_tbl_batch *bt)
{
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
		tern_tbl_where_sess(s, h, &w);
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

/* Removes the sessions of @l4 in buckets [@from, @to) of t->sess6. */
static void tern_flush_range(struct tern_tables *t, u8 l4, u32 from, u32 to)
{
	struct tern_tbl_batch bt = {};
	u32 h, end;

	for (h = from; h < to; h = end) {
		end = min(to, h + TERN_FLUSH_BATCH);
		for (; h < end; h++)
			if (!hlist_nulls_empty(&t->sess6[h]))
				tern_flush_chain(t, h, l4, &bt);
		local_bh_disable();
		tern_tbl_batch_end(t, &bt);
		local_bh_enable();
		cond_resched();
	}
}

struct tern_flush_part {
	struct work_struct work;
	struct tern_tables *t;
	u32 from, to;
	u8 l4;
};

static void tern_flush_part_work(struct work_struct *work)
{
	struct tern_flush_part *p = container_of(work, struct tern_flush_part,
						 work);

	tern_flush_range(p->t, p->l4, p->from, p->to);
}

void tern_tables_flush_in(struct tern_tables *t, u8 l4, unsigned int parts)
{
	u64 buckets = (u64)t->sess_mask + 1;
	struct tern_flush_part *p = NULL;
	unsigned int i;

	parts = clamp_t(u64, parts, 1, buckets);
	if (parts > 1)
		p = kcalloc(parts, sizeof(*p), GFP_KERNEL);
	if (!p) {
		tern_flush_range(t, l4, 0, buckets);
		return;
	}
	for (i = 0; i < parts; i++) {
		p[i].t = t;
		p[i].l4 = l4;
		p[i].from = div_u64(buckets * i, parts);
		p[i].to = div_u64(buckets * (i + 1), parts);
		INIT_WORK(&p[i].work, tern_flush_part_work);
		if (i)
			queue_work(system_unbound_wq, &p[i].work);
	}
	tern_flush_range(t, l4, p[0].from, p[0].to);
	for (i = 1; i < parts; i++)
		flush_work(&p[i].work);
	kfree(p);
}

void tern_tables_flush(struct tern_tables *t, u8 l4)
{
	unsigned int parts = min3(num_online_cpus(), TERN_FLUSH_PARTS_MAX,
				  (t->sess_mask + 1) / TERN_FLUSH_PART);

	tern_tables_flush_in(t, l4, parts);
}

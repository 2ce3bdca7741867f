// SPDX-License-Identifier: GPL-2.0
/*
 * NAT64 tables: the unlinking of one session or BIB entry and the freeing
 * of what was unlinked, in batches after a grace period (nat64/table_int.h
 * has the locking).
 *
 * No rcu_head per entry (it would take 16 of a UDP session's 120 bytes):
 * an unlinked entry is chained by its @gone, which overlays n4.pprev
 * (nat64/table.h). That is safe because, once both nodes are unlinked:
 * - RCU readers only follow next pointers (n6.next and n4.next stay as
 *   hlist_nulls_del_init_rcu() left them, so a walk in progress goes on);
 * - n6.pprev stays NULL, the "unlinked" mark every writer checks under the
 *   bucket locks before unlinking (hlist_nulls_unhashed(&x->n6)), so no
 *   writer touches n4 again; no linked node points back at the entry.
 * The worker takes both lists (llist_del_all()), then synchronize_rcu():
 * every entry it took was unlinked before it took it, so before that
 * grace period began; readers that saw the entry are done when it frees
 * them. Entries added meanwhile wait for the next run.
 */

#include <linux/rculist.h>
#include <linux/rculist_nulls.h>
#include <linux/slab.h>
#include "nat64/table_int.h"

/*
 * Frees what was unlinked before the call, after a grace period if @wait;
 * may sleep.
 */
static void tern_tbl_reap(struct tern_tables *t, bool wait)
{
	struct llist_node *sl = llist_del_all(&t->gone_sess);
	struct llist_node *bl = llist_del_all(&t->gone_bib);
	struct tern_session *s, *sn;
	struct tern_bib *b, *bn;
	int n = 0;

	if (!sl && !bl)
		return;
	if (wait)
		synchronize_rcu();
	llist_for_each_entry_safe(s, sn, sl, gone) {
		kmem_cache_free(tern_sess_cache, s);
		n++;
	}
	llist_for_each_entry_safe(b, bn, bl, gone) {
		if (b->paired)
			kmem_cache_free(tern_pair_cache,
					container_of(b, struct tern_bib_pair, b));
		else
			kmem_cache_free(tern_bib_cache, b);
		n++;
	}
	atomic_sub(n, &t->ngone);
}

void tern_tbl_reap_work(struct work_struct *work)
{
	tern_tbl_reap(container_of(work, struct tern_tables, reap), true);
}

/*
 * Nothing unlinks or reads any more (the tables are going, and their
 * caller waited for packets in flight: the arrays go next, without a grace
 * period either): waits for a run in progress, then frees what is left
 * at once (a namespace's exit pays no grace period a table).
 */
void tern_tbl_reap_all(struct tern_tables *t)
{
	cancel_work_sync(&t->reap);
	tern_tbl_reap(t, false);
}

/* Unlinking, under the locks (nat64/table_int.h) */

/* Chains @n on @bt's list (*@first, *@last), to hand over later. */
static void tern_tbl_batch_add(struct llist_node *n, struct llist_node **first,
			       struct llist_node **last)
{
	n->next = *first;
	if (!*first)
		*last = n;
	*first = n;
}

/*
 * Unlinks @b and puts it in @bt with @sessions sessions of its own to
 * uncharge (tern_tbl_batch_end() counts and hands it over).
 */
static void tern_tbl_bib_drop(struct tern_tables *t, struct tern_bib *b,
			      u32 sessions, struct tern_tbl_batch *bt)
{
	hlist_nulls_del_init_rcu(&b->n6);
	hlist_nulls_del_init_rcu(&b->n4);
	tern_tbl_ev_bound(t, b, false);
	bt->nbib++;
	/* Its own session's room (unused unless it is going too). */
	if (b->paired)
		bt->idle--;
	tern_sub_defer(t, &bt->sub, b, sessions, 1);
	tern_tbl_batch_add(&b->gone, &bt->bib, &bt->bib_last);
	bt->ngone++;
}

/* One entry is a batch of one: one way to count and hand over. */
void tern_tbl_bib_unlink(struct tern_tables *t, struct tern_bib *b)
{
	struct tern_tbl_batch bt = {};

	tern_tbl_bib_drop(t, b, 0, &bt);
	tern_tbl_batch_end(t, &bt);
}

bool tern_tbl_sess_unlink(struct tern_tables *t, struct tern_session *s,
			  bool *bib_gone, struct tern_tbl_batch *bt)
{
	struct tern_bib *b = s->bib;
	bool paired = tern_sess_paired(s);

	*bib_gone = false;
	if (hlist_nulls_unhashed(&s->n6))
		return false;
	hlist_nulls_del_init_rcu(&s->n6);
	hlist_nulls_del_init_rcu(&s->n4);
	if (tern_sess_tracked(s))
		tern_peer_defer(t, &bt->peer, s);
	if (tern_sess_from4(s))
		b->sess4--;
	if (paired)
		bt->idle++;
	/* Its last session: one uncharge for both (one hash, one lock). */
	if (refcount_dec_and_test(&b->ref)) {
		tern_tbl_bib_drop(t, b, 1, bt);
		*bib_gone = true;
	} else {
		tern_sub_defer(t, &bt->sub, b, 1, 0);
	}
	bt->nsess++;
	/* The entry's own: freed with it (struct tern_bib_pair). */
	if (!paired) {
		tern_tbl_batch_add(&s->gone, &bt->sess, &bt->sess_last);
		bt->ngone++;
	}
	return true;
}

void tern_tbl_batch_end(struct tern_tables *t, struct tern_tbl_batch *bt)
{
	bool run = false;

	if (bt->nsess)
		atomic_sub(bt->nsess, &t->nsess);
	if (bt->nbib)
		atomic_sub(bt->nbib, &t->nbib);
	if (bt->idle)
		atomic_add(bt->idle, &t->pair_idle);
	if (bt->nsess || bt->nbib)
		atomic_add(bt->nsess + bt->nbib, &t->changes);
	tern_sub_settle(t, &bt->sub);
	tern_peer_settle(t, &bt->peer);
	/* Counted before the worker can take (and count out) them. */
	if (bt->ngone)
		atomic_add(bt->ngone, &t->ngone);
	/* The first on an empty list asks for a run (another may be on). */
	if (bt->sess)
		run |= llist_add_batch(bt->sess, bt->sess_last, &t->gone_sess);
	if (bt->bib)
		run |= llist_add_batch(bt->bib, bt->bib_last, &t->gone_bib);
	if (run)
		queue_work(system_unbound_wq, &t->reap);
	bt->sess = NULL;
	bt->bib = NULL;
	bt->nsess = 0;
	bt->nbib = 0;
	bt->ngone = 0;
	bt->idle = 0;
}

bool tern_tbl_sess_remove(struct tern_tables *t, struct tern_session *s,
			  u32 h6, bool if_expired)
{
	bool done = false, bib_gone = false;
	struct tern_tbl_batch bt = {};
	struct tern_tbl_where w;
	struct tern_lockset ls;

	rcu_read_lock();
	tern_tbl_where_sess(t, s, h6, &w);
	tern_tbl_lock(t, &ls, &w);
	if (!if_expired || tern_sess_expired(s, (u32)jiffies))
		done = tern_tbl_sess_unlink(t, s, &bib_gone, &bt);
	tern_tbl_batch_end(t, &bt);
	tern_tbl_unlock(t, &ls);
	/* Freed after a grace period: both are still readable. */
	if (done)
		tern_tbl_ev_sess(t, s, false);
	if (bib_gone)
		tern_tbl_ev_bib(t, s->bib, false);
	rcu_read_unlock();
	return done;
}

void tern_sess_forget(struct tern_tables *t, struct tern_session *s)
{
	const struct tern_bib *b = s->bib;
	u32 h6 = tern_tbl_hash_sess6(t, b->l4, &b->t6, &s->remote);

	tern_tbl_sess_remove(t, s, h6, false);
}

u32 tern_tables_changes(const struct tern_tables *t)
{
	return (u32)atomic_read(&t->changes);
}

u32 tern_tables_static_changes(const struct tern_tables *t)
{
	return (u32)atomic_read(&t->static_changes);
}

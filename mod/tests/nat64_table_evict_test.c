// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: early drop at max-sessions (nat64/table_evict.c), the assured
 * mark (and an expired session opened again), an expired TCP session the
 * sweep keeps (no candidate), the bound on sessions opened from IPv4 on
 * one BIB entry, the bound on static BIB entries and on entries waiting
 * to be freed.
 */

#include <kunit/test.h>
#include "kt_nat64.h"
#include "nat64/table_int.h"

struct kt_evictions {
	unsigned int unconfirmed, expired;
};

static void kt_evicted(void *arg, bool expired)
{
	struct kt_evictions *e = arg;

	if (expired)
		e->expired++;
	else
		e->unconfirmed++;
}

/*
 * A table of @max sessions at most, its evictions counted in @x->e; the
 * picker and limits of the tests that fill it.
 */
struct kt_evict_rig {
	struct kt_picker p;
	struct tern_limits lim;
	struct kt_evictions e;
	struct tern_table_events ev;
	struct tern_tables *t;
};

static struct tern_tables *kt_evict_rig_init(struct kunit *test,
					     struct kt_evict_rig *x, u32 max)
{
	*x = (struct kt_evict_rig){
		.p = { .base = 2000, .max = 10 },
		.lim = { .max_sessions = max },
		.ev = { .evicted = kt_evicted, .arg = &x->e },
		.t = kt_tables(test, max),
	};
	tern_tables_set_events(x->t, &x->ev);
	return x->t;
}

static void kt_evict_rig_free(struct kt_evict_rig *x)
{
	tern_tables_set_events(x->t, NULL);
	tern_tables_free(x->t);
}

static void evict_assured_mark(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 4);
	struct kt_picker p = { .base = 2000, .max = 10 };
	struct tern_limits lim = {};
	struct tern_session *s6, *s4;

	s6 = kt_add6(t, TERN_L4_UDP, KT6(1, 1, 1000), KT4(KT_REMOTE(1), 53),
		     &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s6));
	s4 = kt_add4(t, TERN_L4_UDP, &s6->bib->t4, KT4(KT_REMOTE(2), 9),
		     &lim);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s4));
	KUNIT_EXPECT_FALSE(test, tern_sess_from4(s6));
	KUNIT_EXPECT_TRUE(test, tern_sess_from4(s4));
	/* The direction that opened it does not assure it. */
	tern_sess_seen(s6, true);
	tern_sess_seen(s4, false);
	KUNIT_EXPECT_FALSE(test, tern_sess_assured(s6));
	KUNIT_EXPECT_FALSE(test, tern_sess_assured(s4));
	tern_sess_seen(s6, false);
	tern_sess_seen(s4, true);
	KUNIT_EXPECT_TRUE(test, tern_sess_assured(s6));
	KUNIT_EXPECT_TRUE(test, tern_sess_assured(s4));
	/* The lock index and the peer flag are untouched. */
	KUNIT_EXPECT_EQ(test, tern_sess_lk4(s4),
			(u16)((tern_tbl_hash_sess4(t, TERN_L4_UDP,
						   &s4->bib->t4,
						   &s4->remote) &
			       t->sess_mask) % TERN_TBL_NLOCKS));
	KUNIT_EXPECT_FALSE(test, tern_sess_tracked(s4));
	KUNIT_EXPECT_EQ(test, s6->bib->sess4, 1);
	tern_tables_free(t);
}

/*
 * A table at max-sessions, filled from outside: each new session takes
 * the place of an unconfirmed one; assured ones stay; once only assured
 * ones are left, new sessions are refused.
 */
static void evict_unconfirmed(struct kunit *test)
{
	struct kt_evict_rig x;
	struct tern_tables *t = kt_evict_rig_init(test, &x, 4);
	struct tern_ta6 in = kt_t6(1, 1, 1000), in2 = kt_t6(1, 2, 1000);
	struct tern_ta6 srv = kt_t6(2, 1, 80);
	struct tern_ta4 srv4 = kt_t4(KT_POOL4, 80);
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 53);
	struct tern_session *a, *s;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, tern_bib_add_static(t, TERN_L4_UDP, &srv, &srv4),
			0);
	/* An inside flow with its answer: assured. */
	a = kt_add6(t, TERN_L4_UDP, &in, &r, &x.lim, &x.p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(a));
	tern_sess_seen(a, false);
	/* The spray: three outside peers fill the table. */
	for (i = 0; i < 3; i++) {
		s = kt_add4(t, TERN_L4_UDP, &srv4, KT4(KT_REMOTE(9), 1000 + i),
			    &x.lim);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	}
	KT_EXPECT_COUNT(test, t, 2, 4);
	KUNIT_EXPECT_EQ(test, x.e.unconfirmed, 0U);

	/* More of it: each takes the place of an unconfirmed one. */
	for (i = 3; i < 10; i++) {
		s = kt_add4(t, TERN_L4_UDP, &srv4, KT4(KT_REMOTE(9), 1000 + i),
			    &x.lim);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
		KT_EXPECT_COUNT(test, t, 2, 4);
	}
	KUNIT_EXPECT_EQ(test, x.e.unconfirmed, 7U);
	KUNIT_EXPECT_TRUE(test, kt_has6(t, &in, &r));

	/* A new inside flow gets in; the assured one is still there. */
	s = kt_add6(t, TERN_L4_UDP, &in2, &r, &x.lim, &x.p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_EQ(test, x.e.unconfirmed, 8U);
	KUNIT_EXPECT_EQ(test, x.e.expired, 0U);
	KUNIT_EXPECT_TRUE(test, kt_has6(t, &in, &r));
	KUNIT_EXPECT_TRUE(test, kt_has6(t, &in2, &r));
	KT_EXPECT_COUNT(test, t, 3, 4);
	KUNIT_EXPECT_EQ(test, tern_bib_find4(t, TERN_L4_UDP, &srv4)->sess4, 2);

	/* Everyone answered: nothing to evict, the new flow is refused. */
	tern_sess_seen(s, false);
	for (i = 0; i < 10; i++) {
		rcu_read_lock();
		s = tern_sess_find4(t, TERN_L4_UDP, &srv4,
				    KT4(KT_REMOTE(9), 1000 + i));
		if (s)
			tern_sess_seen(s, true);
		rcu_read_unlock();
	}
	s = kt_add6(t, TERN_L4_UDP, KT6(1, 3, 1000), &r, &x.lim, &x.p);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -ENOSPC);
	s = kt_add4(t, TERN_L4_UDP, &srv4, KT4(KT_REMOTE(9), 2000), &x.lim);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -ENOSPC);
	KUNIT_EXPECT_EQ(test, x.e.unconfirmed, 8U);
	KUNIT_EXPECT_EQ(test, x.e.expired, 0U);
	KT_EXPECT_COUNT(test, t, 3, 4);
	KUNIT_EXPECT_TRUE(test, kt_has6(t, &in, &r));
	KUNIT_EXPECT_TRUE(test, kt_has6(t, &in2, &r));
	kt_evict_rig_free(&x);
}

/* An expired session not yet swept gives its place, assured or not. */
static void evict_expired(struct kunit *test)
{
	struct kt_evict_rig x;
	struct tern_tables *t = kt_evict_rig_init(test, &x, 2);
	struct tern_ta6 a = kt_t6(1, 1, 1000);
	struct tern_ta4 r1 = kt_t4(KT_REMOTE(1), 53);
	struct tern_ta4 r2 = kt_t4(KT_REMOTE(2), 53);
	struct tern_session *s1, *s2, *s;

	s1 = kt_add6(t, TERN_L4_UDP, &a, &r1, &x.lim, &x.p);
	s2 = kt_add6(t, TERN_L4_UDP, &a, &r2, &x.lim, &x.p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s1));
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s2));
	tern_sess_seen(s1, false);
	tern_sess_seen(s2, false);
	WRITE_ONCE(s2->expires, (u32)jiffies - 1);
	tern_tbl_gc_note(t, READ_ONCE(s2->expires));
	s = kt_add6(t, TERN_L4_UDP, &a, KT4(KT_REMOTE(3), 53), &x.lim, &x.p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_EQ(test, x.e.expired, 1U);
	KUNIT_EXPECT_EQ(test, x.e.unconfirmed, 0U);
	KUNIT_EXPECT_TRUE(test, kt_has6(t, &a, &r1));
	KT_EXPECT_COUNT(test, t, 1, 2);
	kt_evict_rig_free(&x);
}

/*
 * An expired session not yet swept that a flow opens again is not assured
 * until answered, as a new one; opened again from the other side it stays
 * opened from where it was (not in b->sess4).
 */
static void evict_revived(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 4);
	struct kt_picker p = { .base = 2000, .max = 10 };
	struct tern_limits lim = {};
	struct tern_ta6 a = kt_t6(1, 1, 1000);
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 53);
	struct tern_session *s, *again;
	u16 lk;

	s = kt_add6(t, TERN_L4_UDP, &a, &r, &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	lk = tern_sess_lk4(s);
	tern_sess_seen(s, false);
	KUNIT_ASSERT_TRUE(test, tern_sess_assured(s));
	/* Live: found as it is. */
	KUNIT_EXPECT_PTR_EQ(test, kt_add6(t, TERN_L4_UDP, &a, &r, &lim, &p), s);
	KUNIT_EXPECT_TRUE(test, tern_sess_assured(s));
	WRITE_ONCE(s->expires, (u32)jiffies - 1);
	again = kt_add6(t, TERN_L4_UDP, &a, &r, &lim, &p);
	KUNIT_EXPECT_PTR_EQ(test, again, s);
	KUNIT_EXPECT_FALSE(test, tern_sess_expired(s, (u32)jiffies));
	KUNIT_EXPECT_FALSE(test, tern_sess_assured(s));
	KUNIT_EXPECT_FALSE(test, tern_sess_from4(s));
	KUNIT_EXPECT_EQ(test, tern_sess_lk4(s), lk);
	/* From IPv4 this time: not assured, still opened from IPv6. */
	tern_sess_seen(s, false);
	KUNIT_ASSERT_TRUE(test, tern_sess_assured(s));
	WRITE_ONCE(s->expires, (u32)jiffies - 1);
	again = kt_add4(t, TERN_L4_UDP, &s->bib->t4, &r, &lim);
	KUNIT_EXPECT_PTR_EQ(test, again, s);
	KUNIT_EXPECT_FALSE(test, tern_sess_expired(s, (u32)jiffies));
	KUNIT_EXPECT_FALSE(test, tern_sess_assured(s));
	KUNIT_EXPECT_FALSE(test, tern_sess_from4(s));
	KUNIT_EXPECT_EQ(test, s->bib->sess4, 0);
	KUNIT_EXPECT_EQ(test, tern_sess_lk4(s), lk);
	KT_EXPECT_COUNT(test, t, 1, 1);
	tern_tables_free(t);
}

/* ESTABLISHED (here: any state) lives on past its lifetime. */
static bool kt_keep_tcp(void *arg, u8 *state, unsigned long *timeout)
{
	*timeout = 240 * HZ;
	return true;
}

/*
 * An assured TCP session past its lifetime that the sweep keeps (RFC 6146
 * 3.5.2.2: TRANS and a probe) is no candidate: it is found, and with the
 * other session assured too, the new one is refused.
 */
static void evict_expired_kept(struct kunit *test)
{
	struct kt_evict_rig x;
	struct tern_tables *t = kt_evict_rig_init(test, &x, 2);
	struct tern_ta6 a = kt_t6(1, 1, 1000);
	struct tern_ta4 r1 = kt_t4(KT_REMOTE(1), 80);
	struct tern_session *s1, *s2, *s;

	tern_tables_set_events(t, NULL);
	x.ev.tcp_expire = kt_keep_tcp;
	tern_tables_set_events(t, &x.ev);
	s1 = kt_add6(t, TERN_L4_TCP, &a, &r1, &x.lim, &x.p);
	s2 = kt_add6(t, TERN_L4_TCP, &a, KT4(KT_REMOTE(2), 80), &x.lim, &x.p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s1));
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s2));
	tern_sess_seen(s1, false);
	tern_sess_seen(s2, false);
	WRITE_ONCE(s1->expires, (u32)jiffies - 1);
	tern_tbl_gc_note(t, READ_ONCE(s1->expires));
	s = kt_add6(t, TERN_L4_TCP, &a, KT4(KT_REMOTE(3), 80), &x.lim, &x.p);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -ENOSPC);
	KUNIT_EXPECT_EQ(test, x.e.expired, 0U);
	KUNIT_EXPECT_EQ(test, x.e.unconfirmed, 0U);
	rcu_read_lock();
	KUNIT_EXPECT_PTR_EQ(test, tern_sess_find6(t, TERN_L4_TCP, &a, &r1), s1);
	rcu_read_unlock();
	KT_EXPECT_COUNT(test, t, 1, 2);
	kt_evict_rig_free(&x);
}

/* max-sessions-per-bib-from-ipv4: counted in the entry, refused past it. */
static void evict_bib_sess4(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 0);
	struct kt_picker p = { .base = 2000, .max = 10 };
	struct tern_limits lim = { .max_bib_sess4 = 2 };
	struct tern_ta6 srv = kt_t6(2, 1, 80);
	struct tern_ta4 srv4 = kt_t4(KT_POOL4, 80);
	struct tern_session *s1, *s;
	struct tern_bib *b;

	KUNIT_ASSERT_EQ(test, tern_bib_add_static(t, TERN_L4_UDP, &srv, &srv4),
			0);
	s1 = kt_add4(t, TERN_L4_UDP, &srv4, KT4(KT_REMOTE(1), 1), &lim);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s1));
	s = kt_add4(t, TERN_L4_UDP, &srv4, KT4(KT_REMOTE(1), 2), &lim);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	s = kt_add4(t, TERN_L4_UDP, &srv4, KT4(KT_REMOTE(1), 3), &lim);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EMLINK);
	/* From the inside, the entry takes more. */
	s = kt_add6(t, TERN_L4_UDP, &srv, KT4(KT_REMOTE(2), 53), &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	b = s->bib;
	KUNIT_EXPECT_EQ(test, b->sess4, 2);
	KT_EXPECT_COUNT(test, t, 1, 3);
	/* One goes: a place again. */
	local_bh_disable();
	rcu_read_lock();
	tern_sess_forget(t, s1);
	rcu_read_unlock();
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, b->sess4, 1);
	s = kt_add4(t, TERN_L4_UDP, &srv4, KT4(KT_REMOTE(1), 3), &lim);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_EQ(test, b->sess4, 2);
	tern_tables_flush(t, TERN_L4_N);
	KUNIT_EXPECT_EQ(test, b->sess4, 0);
	KT_EXPECT_COUNT(test, t, 1, 0);
	tern_tables_free(t);
}

/* Static entries: bounded, counted until removed, failures not counted. */
static void evict_static_bound(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 0);

	KUNIT_EXPECT_EQ(test, tern_bib_add_static_max(t, TERN_L4_UDP,
						      KT6(1, 1, 1),
						      KT4(KT_POOL4, 1), 2), 0);
	KUNIT_EXPECT_EQ(test, tern_bib_add_static_max(t, TERN_L4_UDP,
						      KT6(1, 1, 1),
						      KT4(KT_POOL4, 2), 2),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, tern_bib_add_static_max(t, TERN_L4_TCP,
						      KT6(1, 1, 1),
						      KT4(KT_POOL4, 1), 2), 0);
	KUNIT_EXPECT_EQ(test, tern_bib_add_static_max(t, TERN_L4_UDP,
						      KT6(1, 2, 1),
						      KT4(KT_POOL4, 3), 2),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->nstatic), 2);
	KUNIT_EXPECT_EQ(test, tern_bib_del(t, TERN_L4_TCP, KT6(1, 1, 1), NULL),
			0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->nstatic), 1);
	KUNIT_EXPECT_EQ(test, tern_bib_add_static_max(t, TERN_L4_UDP,
						      KT6(1, 2, 1),
						      KT4(KT_POOL4, 3), 2), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->nstatic), 2);
	KT_EXPECT_COUNT(test, t, 2, 0);
	tern_tables_free(t);
}

/*
 * Entries unlinked and not yet freed count: while a reader holds up every
 * grace period, a full table's new sessions evict others until those
 * waiting and those linked reach max-sessions and a quarter, plus
 * TERN_TBL_GONE_SLACK; then new sessions are refused, nothing evicted for
 * them. Once the worker freed them, evictions go on.
 */
static void evict_gone_bound(struct kunit *test)
{
	struct kt_evict_rig x;
	struct tern_tables *t = kt_evict_rig_init(test, &x, 16);
	const u32 bound = 16 + 16 / 4 + TERN_TBL_GONE_SLACK;
	struct tern_ta6 in = kt_t6(1, 1, 1000);
	unsigned int i, added = 0, refused = 0, other = 0;
	struct tern_session *s;
	int gone, nsess;

	/* One BIB entry, sessions to as many peer ports: all unconfirmed. */
	for (i = 0; i < 16; i++)
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(kt_add6(t, TERN_L4_UDP,
			&in, KT4(KT_REMOTE(1), 1000 + i), &x.lim, &x.p)));
	flush_work(&t->reap);
	KUNIT_ASSERT_EQ(test, atomic_read(&t->ngone), 0);

	rcu_read_lock();
	for (i = 16; i < 16 + bound + 64; i++) {
		s = kt_add6(t, TERN_L4_UDP, &in, KT4(KT_REMOTE(1), 1000 + i),
			    &x.lim, &x.p);
		if (!IS_ERR_OR_NULL(s))
			added++;
		else if (PTR_ERR(s) == -ENOSPC)
			refused++;
		else
			other++;
	}
	gone = atomic_read(&t->ngone);
	nsess = atomic_read(&t->nsess);
	rcu_read_unlock();

	KUNIT_EXPECT_EQ(test, other, 0U);
	KUNIT_EXPECT_EQ(test, nsess, 16);
	KUNIT_EXPECT_EQ(test, (u32)(nsess + gone), bound);
	/* Each added one evicted one; at most one (the pair's) not listed. */
	KUNIT_EXPECT_EQ(test, x.e.unconfirmed, added);
	KUNIT_EXPECT_GE(test, added, bound - 16);
	KUNIT_EXPECT_LE(test, added, bound - 16 + 1);
	KUNIT_EXPECT_EQ(test, added + refused, bound + 64);

	/* Freed after the grace period: a new session evicts again. */
	flush_work(&t->reap);
	flush_work(&t->reap);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->ngone), 0);
	s = kt_add6(t, TERN_L4_UDP, &in, KT4(KT_REMOTE(2), 53), &x.lim, &x.p);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_EQ(test, x.e.unconfirmed, added + 1);
	KT_EXPECT_COUNT(test, t, 1, 16);
	kt_evict_rig_free(&x);
}

static struct kunit_case tern_nat64_table_evict_cases[] = {
	KUNIT_CASE(evict_assured_mark),
	KUNIT_CASE(evict_unconfirmed),
	KUNIT_CASE(evict_expired),
	KUNIT_CASE(evict_revived),
	KUNIT_CASE(evict_expired_kept),
	KUNIT_CASE(evict_bib_sess4),
	KUNIT_CASE(evict_static_bound),
	KUNIT_CASE(evict_gone_bound),
	{}
};

static struct kunit_suite tern_nat64_table_evict_suite = {
	.name = "tern_nat64_table_evict",
	.suite_init = kt_table_suite_init,
	.test_cases = tern_nat64_table_evict_cases,
};

kunit_test_suite(tern_nat64_table_evict_suite);

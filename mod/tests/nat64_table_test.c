// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the NAT64 BIB and session tables (nat64/table.c): inserts and
 * lookups, the picker, limits, subscribers, expiry and its pace.
 */

#include <kunit/test.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include "kt_nat64.h"
#include "nat64/table_int.h"

static void table_insert_lookup(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 0);
	struct kt_picker p = { .base = 2000, .max = 10 };
	struct tern_limits lim = {};
	struct tern_ta6 a = kt_t6(1, 1, 1000);
	struct tern_ta4 r1 = kt_t4(KT_REMOTE(1), 80);
	struct tern_ta4 r2 = kt_t4(KT_REMOTE(2), 80);
	struct tern_ta4 l4 = kt_t4(KT_POOL4, 2000);
	struct tern_tables_count c;
	struct tern_session *s, *s2;

	s = kt_add6(t, TERN_L4_UDP, &a, &r1, &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_EQ(test, p.calls, 1U);
	KUNIT_EXPECT_EQ(test, s->bib->t4.port, htons(2000));
	KUNIT_EXPECT_EQ(test, s->bib->t4.addr, KT_POOL4);
	KUNIT_EXPECT_FALSE(test, s->bib->is_static);

	rcu_read_lock();
	KUNIT_EXPECT_PTR_EQ(test, tern_sess_find6(t, TERN_L4_UDP, &a, &r1), s);
	KUNIT_EXPECT_PTR_EQ(test, tern_sess_find4(t, TERN_L4_UDP, &l4, &r1), s);
	KUNIT_EXPECT_NULL(test, tern_sess_find6(t, TERN_L4_TCP, &a, &r1));
	KUNIT_EXPECT_NULL(test, tern_sess_find6(t, TERN_L4_UDP, &a, &r2));
	KUNIT_EXPECT_NULL(test, tern_sess_find4(t, TERN_L4_UDP, &l4, &r2));
	KUNIT_EXPECT_PTR_EQ(test, tern_bib_find6(t, TERN_L4_UDP, &a), s->bib);
	KUNIT_EXPECT_PTR_EQ(test, tern_bib_find4(t, TERN_L4_UDP, &l4), s->bib);
	KUNIT_EXPECT_NULL(test, tern_bib_find4(t, TERN_L4_TCP, &l4));
	rcu_read_unlock();

	/* The same again: the same session, no pick. */
	s2 = kt_add6(t, TERN_L4_UDP, &a, &r1, &lim, &p);
	KUNIT_EXPECT_PTR_EQ(test, s2, s);
	KUNIT_EXPECT_EQ(test, p.calls, 1U);
	KT_EXPECT_COUNT(test, t, 1, 1);
	tern_tables_count(t, &c);
	kunit_info(test, "sizeof: BIB entry %zu, session %zu; slab: %llu\n",
		   sizeof(struct tern_bib), sizeof(struct tern_session),
		   c.bytes);

	/* Another peer: another session on the same BIB entry. */
	s2 = kt_add6(t, TERN_L4_UDP, &a, &r2, &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s2));
	KUNIT_EXPECT_PTR_EQ(test, s2->bib, s->bib);
	KUNIT_EXPECT_EQ(test, refcount_read(&s->bib->ref), 2U);
	KUNIT_EXPECT_EQ(test, p.calls, 1U);
	KT_EXPECT_COUNT(test, t, 1, 2);

	/* From the IPv4 side: a third peer on that entry. */
	s2 = kt_add4(t, TERN_L4_UDP, &l4, KT4(KT_REMOTE(3), 53), &lim);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s2));
	KUNIT_EXPECT_PTR_EQ(test, s2->bib, s->bib);
	KT_EXPECT_COUNT(test, t, 1, 3);

	/* The same protocol's table only. */
	s2 = kt_add6(t, TERN_L4_TCP, &a, &r1, &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s2));
	KUNIT_EXPECT_PTR_NE(test, s2, s);
	KUNIT_EXPECT_EQ(test, (u8)s2->bib->l4, TERN_L4_TCP);
	KT_EXPECT_COUNT(test, t, 2, 4);

	/* A compare-and-exchange: from the state there only. */
	KUNIT_EXPECT_FALSE(test, tern_sess_set_state(t, s2, 1, false, 3,
						     10 * HZ));
	KUNIT_EXPECT_FALSE(test, tern_sess_set_state(t, s2, 0, true, 3,
						     10 * HZ));
	KUNIT_EXPECT_EQ(test, s2->state, 0);
	KUNIT_EXPECT_TRUE(test, tern_sess_set_state(t, s2, 0, false, 3,
						    10 * HZ));
	KUNIT_EXPECT_EQ(test, s2->state, 3);
	tern_tables_free(t);
}

static void table_pick(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 0);
	struct kt_picker p = { .base = 2000, .max = 10 };
	struct tern_limits lim = {};
	struct tern_ta6 a = kt_t6(1, 1, 1000), b = kt_t6(1, 2, 1000);
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 80);
	struct tern_session *s;

	/* 2000 and 2001 taken: the third candidate. */
	KUNIT_ASSERT_EQ(test, tern_bib_add_static(t, TERN_L4_UDP, &b,
						  KT4(KT_POOL4, 2000)), 0);
	KUNIT_ASSERT_EQ(test, tern_bib_add_static(t, TERN_L4_UDP,
						  KT6(1, 3, 7),
						  KT4(KT_POOL4, 2001)), 0);
	s = kt_add6(t, TERN_L4_UDP, &a, &r, &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_EQ(test, s->bib->t4.port, htons(2002));
	KUNIT_EXPECT_EQ(test, p.calls, 3U);
	KT_EXPECT_COUNT(test, t, 3, 1);

	/* pick gives up after two candidates, both taken. */
	p.calls = 0;
	p.max = 2;
	s = kt_add6(t, TERN_L4_UDP, KT6(1, 4, 1), &r, &lim, &p);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, p.calls, 3U);
	KT_EXPECT_COUNT(test, t, 3, 1);

	/* A static entry's session from the IPv4 side, and from IPv6. */
	s = kt_add4(t, TERN_L4_UDP, KT4(KT_POOL4, 2000), &r, &lim);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_TRUE(test, s->bib->is_static);
	KUNIT_EXPECT_PTR_EQ(test, kt_add6(t, TERN_L4_UDP, &b, &r, &lim, &p), s);
	KT_EXPECT_COUNT(test, t, 3, 2);
	tern_tables_free(t);
}

static void table_max_sessions(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 4);
	struct kt_picker p = { .base = 2000, .max = 100 };
	struct tern_limits lim = { .max_sessions = 3 };
	struct tern_ta6 a = kt_t6(1, 1, 1000);
	struct tern_session *s;
	int i;

	/* Answered (assured): none is evicted for a new one. */
	for (i = 0; i < 3; i++) {
		s = kt_add6(t, TERN_L4_UDP, &a, KT4(KT_REMOTE(i), 80),
			    &lim, &p);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
		tern_sess_seen(s, false);
	}
	s = kt_add6(t, TERN_L4_UDP, &a, KT4(KT_REMOTE(9), 80), &lim, &p);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -ENOSPC);
	s = kt_add6(t, TERN_L4_TCP, KT6(2, 1, 1), KT4(KT_REMOTE(9), 80),
		    &lim, &p);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -ENOSPC);
	KT_EXPECT_COUNT(test, t, 1, 3);
	/* Existing sessions are still found at the limit. */
	s = kt_add6(t, TERN_L4_UDP, &a, KT4(KT_REMOTE(1), 80), &lim, &p);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
	/* The limit is read per call. */
	lim.max_sessions = 4;
	s = kt_add6(t, TERN_L4_UDP, &a, KT4(KT_REMOTE(9), 80), &lim, &p);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
	KT_EXPECT_COUNT(test, t, 1, 4);
	tern_tables_free(t);
}

static void table_subscriber(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 0);
	struct kt_picker p = { .base = 2000, .max = 100 };
	struct tern_limits lim = { .max_sess_per_sub = 3,
				   .max_ports_per_sub = 2,
				   .sub_prefix_len = 64 };
	struct tern_ta4 r1 = kt_t4(KT_REMOTE(1), 80);
	struct tern_ta4 r2 = kt_t4(KT_REMOTE(2), 80);
	struct tern_session *s;

	/* Two BIB entries in 2001:db8:0:1::/64 (two hosts), a third not. */
	s = kt_add6(t, TERN_L4_UDP, KT6(1, 1, 1), &r1, &lim, &p);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
	s = kt_add6(t, TERN_L4_UDP, KT6(1, 2, 1), &r1, &lim, &p);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
	s = kt_add6(t, TERN_L4_UDP, KT6(1, 1, 2), &r1, &lim, &p);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EUSERS);
	/* Other protocols count too. */
	s = kt_add6(t, TERN_L4_TCP, KT6(1, 3, 2), &r1, &lim, &p);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EUSERS);
	KT_EXPECT_COUNT(test, t, 2, 2);
	/* A third session on an existing entry, not a fourth. */
	s = kt_add6(t, TERN_L4_UDP, KT6(1, 1, 1), &r2, &lim, &p);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
	s = kt_add6(t, TERN_L4_UDP, KT6(1, 2, 1), &r2, &lim, &p);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EDQUOT);
	s = kt_add4(t, TERN_L4_UDP, KT4(KT_POOL4, 2000),
		    KT4(KT_REMOTE(3), 80), &lim);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EDQUOT);
	KT_EXPECT_COUNT(test, t, 2, 3);
	/* Another subscriber. */
	s = kt_add6(t, TERN_L4_UDP, KT6(2, 1, 1), &r1, &lim, &p);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
	KT_EXPECT_COUNT(test, t, 3, 4);
	/* Flushed, the subscriber starts again from nothing. */
	tern_tables_flush(t, TERN_L4_N);
	KT_EXPECT_COUNT(test, t, 0, 0);
	s = kt_add6(t, TERN_L4_UDP, KT6(1, 1, 1), &r1, &lim, &p);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
	s = kt_add6(t, TERN_L4_UDP, KT6(1, 1, 2), &r1, &lim, &p);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
	tern_tables_free(t);
}

static void table_expiry(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 2048);
	struct kt_picker p = { .base = 2000, .max = 100 };
	struct tern_limits lim = {};
	struct tern_ta6 a = kt_t6(1, 1, 1000), st = kt_t6(1, 9, 9);
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 80);
	struct tern_ta4 l = kt_t4(KT_POOL4, 2000), ls = kt_t4(KT_POOL4, 9);
	struct tern_session *s, *s2, *s3;

	KUNIT_ASSERT_EQ(test, tern_bib_add_static(t, TERN_L4_TCP, &st, &ls), 0);
	s = kt_add6(t, TERN_L4_UDP, &a, &r, &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	s2 = kt_add6(t, TERN_L4_UDP, KT6(1, 1, 1001), &r, &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s2));
	s3 = kt_add4(t, TERN_L4_TCP, &ls, &r, &lim);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s3));
	KT_EXPECT_COUNT(test, t, 3, 3);

	WRITE_ONCE(s->expires, (u32)jiffies - 1);
	WRITE_ONCE(s3->expires, (u32)jiffies - HZ);
	tern_tbl_gc_note(t, READ_ONCE(s3->expires));
	rcu_read_lock();
	KUNIT_EXPECT_NULL(test, tern_sess_find6(t, TERN_L4_UDP, &a, &r));
	KUNIT_EXPECT_NULL(test, tern_sess_find4(t, TERN_L4_UDP, &l, &r));
	KUNIT_EXPECT_NULL(test, tern_sess_find4(t, TERN_L4_TCP, &ls, &r));
	KUNIT_EXPECT_NOT_NULL(test, tern_bib_find6(t, TERN_L4_UDP, &a));
	rcu_read_unlock();

	/* Expired but not yet removed: a new packet makes it live again. */
	KUNIT_EXPECT_PTR_EQ(test, kt_add6(t, TERN_L4_UDP, &a, &r, &lim, &p), s);
	KUNIT_EXPECT_EQ(test, p.calls, 3U);
	KT_EXPECT_COUNT(test, t, 3, 3);
	rcu_read_lock();
	KUNIT_EXPECT_PTR_EQ(test, tern_sess_find6(t, TERN_L4_UDP, &a, &r), s);
	rcu_read_unlock();

	WRITE_ONCE(s->expires, (u32)jiffies - 1);
	tern_tbl_gc_note(t, READ_ONCE(s->expires));
	kt_gc_all(t);
	/* s and its BIB entry went, s2 stays, the static entry stays. */
	KT_EXPECT_COUNT(test, t, 2, 1);
	rcu_read_lock();
	KUNIT_EXPECT_NULL(test, tern_bib_find6(t, TERN_L4_UDP, &a));
	KUNIT_EXPECT_NULL(test, tern_bib_find4(t, TERN_L4_UDP, &l));
	KUNIT_EXPECT_NOT_NULL(test, tern_bib_find4(t, TERN_L4_TCP, &ls));
	KUNIT_EXPECT_PTR_EQ(test, tern_sess_find6(t, TERN_L4_UDP,
						  KT6(1, 1, 1001), &r), s2);
	rcu_read_unlock();
	tern_tables_free(t);
}

/*
 * The collector waits for the earliest expiry it knows of (nat64/
 * table_gc.c): a whole sweep sets it, an expiry set earlier since (a TCP
 * state change here) lowers it; one changed behind its back is not swept.
 */
static void table_gc_bound(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 2048);
	struct kt_picker p = { .base = 2000, .max = 100 };
	struct tern_limits lim = {};
	struct tern_session *s;

	s = kt_add6(t, TERN_L4_UDP, KT6(1, 1, 1000), KT4(KT_REMOTE(1), 80),
		    &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	kt_gc_all(t);
	KUNIT_EXPECT_TRUE(test, t->gc_low_set);
	KUNIT_EXPECT_EQ(test, t->gc_low, READ_ONCE(s->expires));

	/* Expired without telling: the sweep waits for the bound. */
	WRITE_ONCE(s->expires, (u32)jiffies - 1);
	kt_gc_all(t);
	KT_EXPECT_COUNT(test, t, 1, 1);
	tern_tbl_gc_note(t, READ_ONCE(s->expires));
	kt_gc_all(t);
	KT_EXPECT_COUNT(test, t, 0, 0);

	/* Another lives 60 s; a state change leaves it a jiffy. */
	s = kt_add6(t, TERN_L4_TCP, KT6(1, 1, 1001), KT4(KT_REMOTE(1), 80),
		    &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	kt_gc_all(t);
	KT_EXPECT_COUNT(test, t, 1, 1);
	rcu_read_lock();
	KUNIT_EXPECT_TRUE(test, tern_sess_set_state(t, s, READ_ONCE(s->state),
						    false, 1, 1));
	rcu_read_unlock();
	schedule_timeout_uninterruptible(3);
	kt_gc_all(t);
	KT_EXPECT_COUNT(test, t, 0, 0);
	tern_tables_free(t);
}

/*
 * The collector's pace (nat64/table_gc.c): a second's pause on an empty
 * table and after the sweep of a small one, a jiffy between the runs of a
 * sweep; after a sweep, 32 times its cost, within [1 s, 60 s].
 */
static void table_gc_pace(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 2048);
	struct kt_picker p = { .base = 2000, .max = 100 };
	struct tern_limits lim = {};
	unsigned long next = 0;
	struct tern_session *s;
	unsigned int runs = 0;
	bool more;

	KUNIT_EXPECT_FALSE(test, tern_tables_gc(t, &next));
	KUNIT_EXPECT_EQ(test, next, (unsigned long)HZ);
	s = kt_add6(t, TERN_L4_UDP, KT6(1, 1, 1000), KT4(KT_REMOTE(1), 80),
		    &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	WRITE_ONCE(s->expires, (u32)jiffies - 1);
	tern_tbl_gc_note(t, READ_ONCE(s->expires));
	do {
		next = 0;
		more = tern_tables_gc(t, &next);
		if (more)
			KUNIT_EXPECT_EQ(test, next, 1UL);
	} while (more && ++runs <= t->sess_mask);
	KUNIT_EXPECT_FALSE(test, more);
	KUNIT_EXPECT_EQ(test, next, (unsigned long)HZ);
	KT_EXPECT_COUNT(test, t, 0, 0);
	KUNIT_EXPECT_EQ(test, t->gc_cursor, 0U);
	KUNIT_EXPECT_EQ(test, t->gc_cost_ns, 0ULL);

	KUNIT_EXPECT_EQ(test, tern_tables_gc_pause(0), (unsigned long)HZ);
	KUNIT_EXPECT_EQ(test, tern_tables_gc_pause(NSEC_PER_SEC / 32),
			(unsigned long)HZ);
	KUNIT_EXPECT_EQ(test, tern_tables_gc_pause(NSEC_PER_SEC / 8),
			(unsigned long)(4 * HZ));
	KUNIT_EXPECT_EQ(test, tern_tables_gc_pause(NSEC_PER_SEC),
			(unsigned long)(32 * HZ));
	KUNIT_EXPECT_EQ(test, tern_tables_gc_pause(10 * NSEC_PER_SEC),
			(unsigned long)(60 * HZ));
	tern_tables_free(t);
}

/*
 * A flush shared by workers beside the caller (taking runs of buckets from
 * one cursor): three, then more than there are CPUs; it removes what it
 * is asked and no more.
 */
static void table_flush_parts(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 4096);
	struct kt_picker pu = { .base = 2000, .max = 1000 };
	struct kt_picker pt = { .base = 2000, .max = 1000 };
	struct tern_ta6 st = kt_t6(9, 9, 9);
	struct tern_ta4 ls = kt_t4(KT_POOL4, 9);
	struct tern_limits lim = {};
	struct tern_session *s;
	int i;

	KUNIT_ASSERT_EQ(test, tern_bib_add_static(t, TERN_L4_UDP, &st, &ls), 0);
	for (i = 0; i < 600; i++) {
		s = kt_add6(t, TERN_L4_UDP, KT6(1, i % 7, 1000 + i),
			    KT4(KT_REMOTE(1 + i % 3), 80), &lim, &pu);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	}
	for (i = 0; i < 400; i++) {
		s = kt_add6(t, TERN_L4_TCP, KT6(2, i % 5, 1000 + i),
			    KT4(KT_REMOTE(1), 443), &lim, &pt);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	}
	KT_EXPECT_COUNT(test, t, 1001, 1000);
	tern_tables_flush_in(t, TERN_L4_UDP, 3);
	KT_EXPECT_COUNT(test, t, 401, 400);
	rcu_read_lock();
	KUNIT_EXPECT_NOT_NULL(test, tern_bib_find6(t, TERN_L4_UDP, &st));
	KUNIT_EXPECT_NOT_NULL(test, tern_sess_find6(t, TERN_L4_TCP,
						    KT6(2, 1, 1001),
						    KT4(KT_REMOTE(1), 443)));
	rcu_read_unlock();
	tern_tables_flush_in(t, TERN_L4_N, 16);
	KT_EXPECT_COUNT(test, t, 1, 0);
	tern_tables_free(t);
}

/* Adds UDP BIB entries of subscriber @sub until refused: how many. */
static int kt_fill_sub(struct tern_tables *t, u16 sub,
		       const struct tern_limits *lim, struct kt_picker *p)
{
	struct tern_session *s;
	int i;

	for (i = 0; i < 100; i++) {
		s = kt_add6(t, TERN_L4_UDP, KT6(sub, 1 + i % 4, 5000 + i),
			    KT4(KT_REMOTE(1), 80), lim, p);
		if (IS_ERR_OR_NULL(s))
			return PTR_ERR(s) == -EUSERS ? i : -1;
	}
	return i;
}

/*
 * A flush settles what it took from each subscriber in batches, across
 * buckets and subscribers met in any order: afterwards each has exactly
 * its remaining entries charged (the limit gives that count back).
 */
static void table_flush_subscribers(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 4096);
	struct kt_picker p = { .base = 2000, .max = 1000 };
	struct tern_limits lim = { .max_ports_per_sub = 40,
				   .max_sess_per_sub = 100,
				   .sub_prefix_len = 64 };
	struct tern_session *s;
	int i, sub;

	for (i = 0; i < 40; i++) {
		for (sub = 1; sub <= 3; sub++) {
			s = kt_add6(t, sub == 1 && i < 10 ? TERN_L4_TCP :
				    TERN_L4_UDP, KT6(sub, 1 + i % 4, 1000 + i),
				    KT4(KT_REMOTE(1), 80), &lim, &p);
			KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
		}
		/* Sessions of entries that keep another. */
		if (i < 10) {
			s = kt_add6(t, TERN_L4_UDP, KT6(2, 1 + i % 4, 1000 + i),
				    KT4(KT_REMOTE(2), 80), &lim, &p);
			KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
		}
	}
	KT_EXPECT_COUNT(test, t, 120, 130);
	KUNIT_EXPECT_EQ(test, kt_fill_sub(t, 2, &lim, &p), 0);
	tern_tables_flush_in(t, TERN_L4_UDP, 2);
	KT_EXPECT_COUNT(test, t, 10, 10);
	KUNIT_EXPECT_EQ(test, kt_fill_sub(t, 1, &lim, &p), 30);
	KUNIT_EXPECT_EQ(test, kt_fill_sub(t, 2, &lim, &p), 40);
	KUNIT_EXPECT_EQ(test, kt_fill_sub(t, 3, &lim, &p), 40);
	KT_EXPECT_COUNT(test, t, 120, 120);
	tern_tables_flush(t, TERN_L4_N);
	KT_EXPECT_COUNT(test, t, 0, 0);
	KUNIT_EXPECT_EQ(test, kt_fill_sub(t, 1, &lim, &p), 40);
	tern_tables_free(t);
}

static struct kunit_case tern_nat64_table_cases[] = {
	KUNIT_CASE(table_insert_lookup),
	KUNIT_CASE(table_pick),
	KUNIT_CASE(table_max_sessions),
	KUNIT_CASE(table_subscriber),
	KUNIT_CASE(table_expiry),
	KUNIT_CASE(table_gc_bound),
	KUNIT_CASE(table_gc_pace),
	KUNIT_CASE(table_flush_parts),
	KUNIT_CASE(table_flush_subscribers),
	{}
};

static struct kunit_suite tern_nat64_table_suite = {
	.name = "tern_nat64_table",
	.suite_init = kt_table_suite_init,
	.test_cases = tern_nat64_table_cases,
};

kunit_test_suite(tern_nat64_table_suite);

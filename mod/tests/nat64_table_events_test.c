// SPDX-License-Identifier: GPL-2.0
/* KUnit: the NAT64 tables' events, flush and static BIB entries. */

#include <kunit/test.h>
#include <linux/slab.h>
#include "nat64/table_int.h"
#include "kt_nat64.h"

/* What the events callback was told, in order: 'B'/'b' BIB add/del, 'S'/'s'. */
struct kt_events {
	char log[32];
	unsigned int n;
	u16 port4[32];			/* the BIB entry's IPv4 port of each */
};

static void kt_ev_bib(void *arg, const struct tern_bib *b, bool add)
{
	struct kt_events *e = arg;

	if (e->n < ARRAY_SIZE(e->log) - 1) {
		e->port4[e->n] = ntohs(b->t4.port);
		e->log[e->n++] = add ? 'B' : 'b';
	}
}

static void kt_ev_sess(void *arg, const struct tern_session *s, bool add)
{
	struct kt_events *e = arg;

	if (e->n < ARRAY_SIZE(e->log) - 1) {
		e->port4[e->n] = ntohs(s->bib->t4.port);
		e->log[e->n++] = add ? 'S' : 's';
	}
}

static void table_events(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 2048);
	struct kt_picker p = { .base = 2000, .max = 100 };
	struct kt_events e = {};
	struct tern_table_events ev = {
		.bib = kt_ev_bib, .sess = kt_ev_sess, .arg = &e,
	};
	struct tern_limits lim = {};
	struct tern_ta6 a = kt_t6(1, 1, 1000), st = kt_t6(1, 9, 9);
	struct tern_ta4 r1 = kt_t4(KT_REMOTE(1), 80);
	struct tern_ta4 r2 = kt_t4(KT_REMOTE(2), 80);
	struct tern_ta4 ls = kt_t4(KT_POOL4, 9);
	struct tern_session *s;

	tern_tables_set_events(t, &ev);
	/* A new BIB entry with its session: the entry first. */
	s = kt_add6(t, TERN_L4_UDP, &a, &r1, &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	/* An existing session: nothing; a second one: the session only. */
	KUNIT_EXPECT_PTR_EQ(test, kt_add6(t, TERN_L4_UDP, &a, &r1, &lim, &p), s);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(kt_add6(t, TERN_L4_UDP, &a, &r2,
							&lim, &p)));
	KUNIT_EXPECT_STREQ(test, e.log, "BSS");
	KUNIT_EXPECT_EQ(test, e.port4[0], 2000);

	/* Static entry, an IPv4-side session on it, then expiry of that. */
	KUNIT_ASSERT_EQ(test, tern_bib_add_static(t, TERN_L4_TCP, &st, &ls), 0);
	s = kt_add4(t, TERN_L4_TCP, &ls, &r1, &lim);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	WRITE_ONCE(s->expires, (u32)jiffies - 1);
	tern_tbl_gc_note(t, READ_ONCE(s->expires));
	kt_gc_all(t);
	KUNIT_EXPECT_STREQ(test, e.log, "BSSBSs");
	KUNIT_EXPECT_EQ(test, e.port4[5], 9);

	/* Flush: each session, then its entry with the last one. */
	tern_tables_flush(t, TERN_L4_UDP);
	KUNIT_EXPECT_STREQ(test, e.log, "BSSBSsssb");
	KUNIT_EXPECT_EQ(test, e.port4[8], 2000);
	/* Removal of the static entry. */
	KUNIT_EXPECT_EQ(test, tern_bib_del(t, TERN_L4_TCP, NULL, &ls), 0);
	KUNIT_EXPECT_STREQ(test, e.log, "BSSBSsssbb");

	/* Nothing for what tern_tables_free() removes. */
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(kt_add6(t, TERN_L4_UDP, &a,
							&r1, &lim, &p)));
	KUNIT_ASSERT_EQ(test, tern_bib_add_static(t, TERN_L4_TCP, &st, &ls), 0);
	KUNIT_EXPECT_STREQ(test, e.log, "BSSBSsssbbBSB");
	tern_tables_free(t);
	KUNIT_EXPECT_STREQ(test, e.log, "BSSBSsssbbBSB");
}

static void table_flush(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 0);
	struct kt_picker p = { .base = 2000, .max = 1000 };
	struct tern_limits lim = {};
	struct tern_ta6 st = kt_t6(1, 9, 9);
	struct tern_ta4 ls = kt_t4(KT_POOL4, 9);
	struct tern_session *s;
	int i;

	KUNIT_ASSERT_EQ(test, tern_bib_add_static(t, TERN_L4_UDP, &st, &ls), 0);
	for (i = 0; i < 20; i++) {
		s = kt_add6(t, i % 2 ? TERN_L4_UDP : TERN_L4_TCP,
			    KT6(1, 1, i), KT4(KT_REMOTE(1), 80), &lim, &p);
		KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
		s = kt_add4(t, TERN_L4_UDP, &ls, KT4(KT_REMOTE(i), 80), &lim);
		KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
	}
	KT_EXPECT_COUNT(test, t, 21, 40);
	tern_tables_flush(t, TERN_L4_UDP);
	KT_EXPECT_COUNT(test, t, 11, 10);
	rcu_read_lock();
	KUNIT_EXPECT_NOT_NULL(test, tern_bib_find6(t, TERN_L4_UDP, &st));
	KUNIT_EXPECT_NULL(test, tern_bib_find6(t, TERN_L4_UDP, KT6(1, 1, 1)));
	KUNIT_EXPECT_NOT_NULL(test, tern_bib_find6(t, TERN_L4_TCP,
						   KT6(1, 1, 0)));
	rcu_read_unlock();
	tern_tables_flush(t, TERN_L4_N);
	KT_EXPECT_COUNT(test, t, 1, 0);
	/* The static entry takes sessions again. */
	s = kt_add4(t, TERN_L4_UDP, &ls, KT4(KT_REMOTE(1), 80), &lim);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
	tern_tables_free(t);
}

static void table_static(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 0);
	struct kt_picker p = { .base = 2000, .max = 10 };
	struct tern_limits lim = {};
	struct tern_ta6 a = kt_t6(1, 1, 1), b = kt_t6(1, 2, 1);
	struct tern_ta4 x = kt_t4(KT_POOL4, 1), y = kt_t4(KT_POOL4, 2);
	struct tern_session *s;
	int i;

	KUNIT_EXPECT_EQ(test, tern_bib_add_static(t, TERN_L4_UDP, &a, &x), 0);
	KUNIT_EXPECT_EQ(test, tern_bib_add_static(t, TERN_L4_UDP, &a, &y),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, tern_bib_add_static(t, TERN_L4_UDP, &b, &x),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, tern_bib_add_static(t, TERN_L4_TCP, &a, &x), 0);
	KT_EXPECT_COUNT(test, t, 2, 0);
	/* A dynamic entry is in the way too. */
	s = kt_add6(t, TERN_L4_UDP, &b, KT4(KT_REMOTE(1), 80), &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_EQ(test, tern_bib_add_static(t, TERN_L4_UDP, &b, &y),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, tern_bib_add_static(t, TERN_L4_UDP,
						  KT6(1, 3, 1),
						  KT4(KT_POOL4, 2000)),
			-EEXIST);

	for (i = 0; i < 5; i++) {
		s = kt_add4(t, TERN_L4_UDP, &x, KT4(KT_REMOTE(i), 80), &lim);
		KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
	}
	KT_EXPECT_COUNT(test, t, 3, 6);
	/* Removal by the IPv4 side takes the entry's sessions. */
	KUNIT_EXPECT_EQ(test, tern_bib_del(t, TERN_L4_UDP, NULL, &x), 0);
	KT_EXPECT_COUNT(test, t, 2, 1);
	KUNIT_EXPECT_EQ(test, tern_bib_del(t, TERN_L4_UDP, NULL, &x), -ENOENT);
	KUNIT_EXPECT_EQ(test, tern_bib_del(t, TERN_L4_UDP, &a, NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, tern_bib_del(t, TERN_L4_TCP, &a, &y), -ENOENT);
	KUNIT_EXPECT_EQ(test, tern_bib_del(t, TERN_L4_TCP, &a, &x), 0);
	/* And of a dynamic one. */
	KUNIT_EXPECT_EQ(test, tern_bib_del(t, TERN_L4_UDP, &b, NULL), 0);
	KT_EXPECT_COUNT(test, t, 0, 0);
	/* The addresses are free again. */
	KUNIT_EXPECT_EQ(test, tern_bib_add_static(t, TERN_L4_UDP, &b, &x), 0);
	tern_tables_free(t);
}

static struct kunit_case tern_nat64_table_events_cases[] = {
	KUNIT_CASE(table_flush),
	KUNIT_CASE(table_events),
	KUNIT_CASE(table_static),
	{}
};

static struct kunit_suite tern_nat64_table_events_suite = {
	.name = "tern_nat64_table_events",
	.suite_init = kt_table_suite_init,
	.test_cases = tern_nat64_table_events_cases,
};

kunit_test_suite(tern_nat64_table_events_suite);

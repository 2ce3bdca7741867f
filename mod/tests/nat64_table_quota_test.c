// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: at max-sessions, a new session its own limits refuse (sessions
 * opened from IPv4 on its BIB entry, its subscriber's sessions or ports)
 * takes no one's place (nat64/table_evict.c), nor does one that gets no
 * port, and one that makes an expired session current again is not
 * refused by limits that counted it; and an add tells whether it
 * put the session in, so that a packet dropped later takes back only a
 * session of its own (*made of tern_sess_add6() and tern_sess_add4()).
 */

#include <kunit/test.h>
#include "kt_nat64.h"
#include "nat64/table_int.h"

static void kt_q_evicted(void *arg, bool expired)
{
	(*(unsigned int *)arg)++;
}

/* A table of 3 sessions at most, its evictions counted in *@n. */
static struct tern_tables *kt_q_tables(struct kunit *test,
				       struct tern_table_events *ev,
				       unsigned int *n)
{
	struct tern_tables *t = kt_tables(test, 3);

	*n = 0;
	*ev = (struct tern_table_events){ .evicted = kt_q_evicted, .arg = n };
	tern_tables_set_events(t, ev);
	return t;
}

static void kt_q_free(struct tern_tables *t)
{
	tern_tables_set_events(t, NULL);
	tern_tables_free(t);
}

/*
 * Fill a table of 3: subscriber 1 (@a) at its limit of two sessions (to
 * KT_REMOTE(1) and (2)), one unassured flow of subscriber 2 (@b to @r).
 * Returns subscriber 1's second session.
 */
static struct tern_session *kt_q_sub_full(struct kunit *test,
					  struct tern_tables *t,
					  const struct tern_limits *lim,
					  struct kt_picker *p,
					  const struct tern_ta6 *a,
					  const struct tern_ta6 *b,
					  const struct tern_ta4 *r)
{
	struct tern_session *s = NULL;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		s = kt_add6(t, TERN_L4_UDP, a, KT4(KT_REMOTE(1 + i), 53), lim,
			    p);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
		tern_sess_seen(s, false);
	}
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(kt_add6(t, TERN_L4_UDP, b, r,
							 lim, p)));
	KT_EXPECT_COUNT(test, t, 2, 3);
	return s;
}

/*
 * A full table: two assured sessions opened from IPv4 on a static entry
 * that takes two, one unassured inside flow. A third peer of the entry is
 * refused (-EMLINK) and the inside flow keeps its place.
 */
static void quota_bib_sess4_evicts_nothing(struct kunit *test)
{
	struct tern_limits lim = { .max_sessions = 3, .max_bib_sess4 = 2 };
	struct kt_picker p = { .base = 2000, .max = 10 };
	struct tern_ta6 srv = kt_t6(2, 1, 80), in = kt_t6(1, 1, 1000);
	struct tern_ta4 srv4 = kt_t4(KT_POOL4, 80);
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 53);
	struct tern_table_events ev;
	struct tern_session *s;
	struct tern_tables *t;
	unsigned int n, i;

	t = kt_q_tables(test, &ev, &n);
	KUNIT_ASSERT_EQ(test, tern_bib_add_static(t, TERN_L4_UDP, &srv, &srv4),
			0);
	for (i = 0; i < 2; i++) {
		s = kt_add4(t, TERN_L4_UDP, &srv4, KT4(KT_REMOTE(9), 1000 + i),
			    &lim);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
		tern_sess_seen(s, true);
	}
	s = kt_add6(t, TERN_L4_UDP, &in, &r, &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KT_EXPECT_COUNT(test, t, 2, 3);

	s = kt_add4(t, TERN_L4_UDP, &srv4, KT4(KT_REMOTE(9), 2000), &lim);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EMLINK);
	KUNIT_EXPECT_EQ(test, n, 0U);
	KUNIT_EXPECT_TRUE(test, kt_has6(t, &in, &r));
	KT_EXPECT_COUNT(test, t, 2, 3);
	/* A flow within its limits still evicts the unassured one. */
	s = kt_add6(t, TERN_L4_UDP, KT6(3, 1, 1000), &r, &lim, &p);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_EQ(test, n, 1U);
	KUNIT_EXPECT_FALSE(test, kt_has6(t, &in, &r));
	kt_q_free(t);
}

/*
 * A full table: subscriber 1 at its limit (two sessions, assured), one
 * unassured flow of subscriber 2. Subscriber 1's new flow is refused
 * (-EDQUOT) and takes no place.
 */
static void quota_sub_sessions_evicts_nothing(struct kunit *test)
{
	struct tern_limits lim = { .max_sessions = 3, .max_sess_per_sub = 2,
				   .sub_prefix_len = 64 };
	struct kt_picker p = { .base = 2000, .max = 10 };
	struct tern_ta6 a = kt_t6(1, 1, 1000), b = kt_t6(2, 1, 1000);
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 53);
	struct tern_table_events ev;
	struct tern_session *s;
	struct tern_tables *t;
	unsigned int n;

	t = kt_q_tables(test, &ev, &n);
	kt_q_sub_full(test, t, &lim, &p, &a, &b, &r);

	s = kt_add6(t, TERN_L4_UDP, &a, KT4(KT_REMOTE(3), 53), &lim, &p);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EDQUOT);
	s = kt_add6(t, TERN_L4_UDP, KT6(1, 2, 1000), &r, &lim, &p);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EDQUOT);
	KUNIT_EXPECT_EQ(test, n, 0U);
	KUNIT_EXPECT_TRUE(test, kt_has6(t, &b, &r));
	KT_EXPECT_COUNT(test, t, 2, 3);
	kt_q_free(t);
}

/*
 * The same with max-ports-per-subscriber: subscriber 1's third source
 * port is refused (-EUSERS) and evicts nothing; a session on one of its
 * entries is within its limits and takes the unassured one's place.
 */
static void quota_sub_ports_evicts_nothing(struct kunit *test)
{
	struct tern_limits lim = { .max_sessions = 3, .max_ports_per_sub = 2,
				   .sub_prefix_len = 64 };
	struct kt_picker p = { .base = 2000, .max = 10 };
	struct tern_ta6 b = kt_t6(2, 1, 1000);
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 53);
	struct tern_table_events ev;
	struct tern_session *s;
	struct tern_tables *t;
	unsigned int n, i;

	t = kt_q_tables(test, &ev, &n);
	for (i = 0; i < 2; i++) {
		s = kt_add6(t, TERN_L4_UDP, KT6(1, 1, 1000 + i), &r, &lim, &p);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
		tern_sess_seen(s, false);
	}
	s = kt_add6(t, TERN_L4_UDP, &b, &r, &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KT_EXPECT_COUNT(test, t, 3, 3);

	s = kt_add6(t, TERN_L4_UDP, KT6(1, 1, 1002), &r, &lim, &p);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EUSERS);
	KUNIT_EXPECT_EQ(test, n, 0U);
	KUNIT_EXPECT_TRUE(test, kt_has6(t, &b, &r));
	KT_EXPECT_COUNT(test, t, 3, 3);

	s = kt_add6(t, TERN_L4_UDP, KT6(1, 1, 1000), KT4(KT_REMOTE(2), 53),
		    &lim, &p);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_EQ(test, n, 1U);
	KUNIT_EXPECT_FALSE(test, kt_has6(t, &b, &r));
	kt_q_free(t);
}

/*
 * A full table: subscriber 1 at its limit (two sessions), one unassured
 * flow of subscriber 2. One of subscriber 1's sessions expires (not swept
 * yet): a packet of its flow makes it current again, within its limits
 * (it was counted), not refused, and takes no one's place (it has its
 * own).
 */
static void quota_revive_at_limit(struct kunit *test)
{
	struct tern_limits lim = { .max_sessions = 3, .max_sess_per_sub = 2,
				   .sub_prefix_len = 64 };
	struct kt_picker p = { .base = 2000, .max = 10 };
	struct tern_ta6 a = kt_t6(1, 1, 1000), b = kt_t6(2, 1, 1000);
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 53);
	struct tern_session *s, *gone;
	struct tern_table_events ev;
	struct tern_tables *t;
	unsigned int n;

	t = kt_q_tables(test, &ev, &n);
	gone = kt_q_sub_full(test, t, &lim, &p, &a, &b, &r);
	WRITE_ONCE(gone->expires, (u32)jiffies - 1);
	KUNIT_ASSERT_FALSE(test, kt_has6(t, &a, KT4(KT_REMOTE(2), 53)));

	s = kt_add6(t, TERN_L4_UDP, &a, KT4(KT_REMOTE(2), 53), &lim, &p);
	KUNIT_EXPECT_PTR_EQ(test, s, gone);
	KUNIT_EXPECT_TRUE(test, kt_has6(t, &a, KT4(KT_REMOTE(2), 53)));
	KUNIT_EXPECT_TRUE(test, kt_has6(t, &b, &r));
	KUNIT_EXPECT_EQ(test, n, 0U);
	KT_EXPECT_COUNT(test, t, 2, 3);
	/* Still at its limit: a new one is refused. */
	s = kt_add6(t, TERN_L4_UDP, &a, KT4(KT_REMOTE(3), 53), &lim, &p);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EDQUOT);
	KUNIT_EXPECT_EQ(test, n, 0U);
	kt_q_free(t);
}

/*
 * A full table of unassured sessions: a flow that needs a new BIB entry
 * and gets no port (the pick fails: a deterministic or port block full)
 * is refused (-EADDRINUSE) and takes no one's place; with a port it does.
 */
static void quota_no_port_evicts_nothing(struct kunit *test)
{
	struct tern_limits lim = { .max_sessions = 3 };
	struct kt_picker p = { .base = 2000, .max = 10 };
	struct kt_picker none = { .base = 3000, .max = 0 };
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 53);
	struct tern_table_events ev;
	struct tern_session *s;
	struct tern_tables *t;
	unsigned int n, i;

	t = kt_q_tables(test, &ev, &n);
	for (i = 0; i < 3; i++) {
		s = kt_add6(t, TERN_L4_UDP, KT6(1 + i, 1, 1000), &r, &lim, &p);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	}
	KT_EXPECT_COUNT(test, t, 3, 3);

	s = kt_add6(t, TERN_L4_UDP, KT6(9, 1, 1000), &r, &lim, &none);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, none.calls, 1U);
	KUNIT_EXPECT_EQ(test, n, 0U);
	KT_EXPECT_COUNT(test, t, 3, 3);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_TRUE(test, kt_has6(t, KT6(1 + i, 1, 1000), &r));

	s = kt_add6(t, TERN_L4_UDP, KT6(9, 1, 1000), &r, &lim, &p);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_EQ(test, n, 1U);
	KT_EXPECT_COUNT(test, t, 3, 3);
	kt_q_free(t);
}

/* *made: true for the call that put the session in, false after. */
static void quota_made(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 0);
	struct kt_picker p = { .base = 2000, .max = 10 };
	struct tern_ta6 a = kt_t6(1, 1, 1000);
	struct tern_ta4 r1 = kt_t4(KT_REMOTE(1), 53);
	struct tern_ta4 r2 = kt_t4(KT_REMOTE(2), 53);
	struct tern_limits lim = {};
	struct tern_session *s1, *s2, *s;
	bool made[4];

	local_bh_disable();
	rcu_read_lock();
	s1 = tern_sess_add6(t, TERN_L4_UDP, &a, &r1, &lim, kt_pick, &p, 0,
			    60 * HZ, &made[0]);
	s = tern_sess_add6(t, TERN_L4_UDP, &a, &r1, &lim, kt_pick, &p, 0,
			   60 * HZ, &made[1]);
	KUNIT_EXPECT_PTR_EQ(test, s, s1);
	s2 = IS_ERR_OR_NULL(s1) ? s1 :
	     tern_sess_add4(t, s1->bib, &r2, &lim, 0, 60 * HZ, &made[2]);
	s = IS_ERR_OR_NULL(s1) ? s1 :
	    tern_sess_add4(t, s1->bib, &r2, &lim, 0, 60 * HZ, &made[3]);
	KUNIT_EXPECT_PTR_EQ(test, s, s2);
	rcu_read_unlock();
	local_bh_enable();
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s1));
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s2));
	KUNIT_EXPECT_TRUE(test, made[0]);
	KUNIT_EXPECT_FALSE(test, made[1]);
	KUNIT_EXPECT_TRUE(test, made[2]);
	KUNIT_EXPECT_FALSE(test, made[3]);
	KT_EXPECT_COUNT(test, t, 1, 2);
	tern_tables_free(t);
}

static struct kunit_case tern_nat64_table_quota_cases[] = {
	KUNIT_CASE(quota_bib_sess4_evicts_nothing),
	KUNIT_CASE(quota_sub_sessions_evicts_nothing),
	KUNIT_CASE(quota_sub_ports_evicts_nothing),
	KUNIT_CASE(quota_revive_at_limit),
	KUNIT_CASE(quota_no_port_evicts_nothing),
	KUNIT_CASE(quota_made),
	{}
};

static struct kunit_suite tern_nat64_table_quota_suite = {
	.name = "tern_nat64_table_quota",
	.suite_init = kt_table_suite_init,
	.test_cases = tern_nat64_table_quota_cases,
};

kunit_test_suite(tern_nat64_table_quota_suite);

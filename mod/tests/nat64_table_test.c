// SPDX-License-Identifier: GPL-2.0
/* KUnit: the NAT64 BIB and session tables (nat64/table.c). */

#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <linux/slab.h>
#include "nat64/table.h"

#define KT_POOL4	htonl(0xc0000201)	/* 192.0.2.1 */
#define KT_REMOTE(n)	htonl(0xcb007100 | (n))	/* 203.0.113.n */

/* pick: KT_POOL4, ports base + attempt, at most @max attempts. */
struct kt_picker {
	u16 base;
	unsigned int max;
	unsigned int calls;
};

static bool kt_pick(void *arg, const struct tern_ta6 *t6,
		    unsigned int attempt, struct tern_ta4 *t4)
{
	struct kt_picker *p = arg;

	p->calls++;
	if (attempt >= p->max)
		return false;
	t4->addr = KT_POOL4;
	t4->port = htons(p->base + attempt);
	return true;
}

/* 2001:db8:0:<sub>::<host> port @port, 192.0.2.x port @port */
#define KT6(sub, host, pt)	(&(struct tern_ta6){			\
	.addr.s6_addr32 = { htonl(0x20010db8), htonl(sub), 0, htonl(host) }, \
	.port = htons(pt) })
#define KT4(a, pt)	(&(struct tern_ta4){ .addr = (a), .port = htons(pt) })

static struct tern_ta6 kt_t6(u16 sub, u16 host, u16 port)
{
	return *KT6(sub, host, port);
}

static struct tern_ta4 kt_t4(__be32 addr, u16 port)
{
	return *KT4(addr, port);
}

/* As the packet path calls it: BHs off, under RCU. */
static struct tern_session *kt_add6(struct tern_tables *t, u8 l4,
				    const struct tern_ta6 *src,
				    const struct tern_ta4 *remote,
				    const struct tern_limits *lim,
				    struct kt_picker *p)
{
	struct tern_session *s;

	local_bh_disable();
	rcu_read_lock();
	s = tern_sess_add6(t, l4, src, remote, lim, kt_pick, p, 0, 60 * HZ);
	rcu_read_unlock();
	local_bh_enable();
	return s;
}

static struct tern_session *kt_add4(struct tern_tables *t, u8 l4,
				    const struct tern_ta4 *local,
				    const struct tern_ta4 *remote,
				    const struct tern_limits *lim)
{
	struct tern_session *s = ERR_PTR(-ENOENT);
	struct tern_bib *b;

	local_bh_disable();
	rcu_read_lock();
	b = tern_bib_find4(t, l4, local);
	if (b)
		s = tern_sess_add4(t, b, remote, lim, 0, 60 * HZ);
	rcu_read_unlock();
	local_bh_enable();
	return s;
}

static void kt_count(struct tern_tables *t, u64 *bib, u64 *sess)
{
	struct tern_tables_count c;

	tern_tables_count(t, &c);
	*bib = c.bib;
	*sess = c.sessions;
}

#define KT_EXPECT_COUNT(test, t, nb, ns) do {				\
	u64 __b, __s;							\
	kt_count(t, &__b, &__s);					\
	KUNIT_EXPECT_EQ(test, __b, (u64)(nb));				\
	KUNIT_EXPECT_EQ(test, __s, (u64)(ns));				\
} while (0)

static struct tern_tables *kt_tables(struct kunit *test, u32 max)
{
	struct tern_tables *t = tern_tables_alloc(max);

	KUNIT_ASSERT_NOT_NULL(test, t);
	return t;
}

/* Until the whole session-by-6 array was scanned (at most 2^20 / 1024). */
static void kt_gc_all(struct tern_tables *t)
{
	int i;

	for (i = 0; i < 1024 + 1; i++)
		tern_tables_gc(t);
}

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
	KUNIT_EXPECT_EQ(test, s2->bib->l4, TERN_L4_TCP);
	KT_EXPECT_COUNT(test, t, 2, 4);

	tern_sess_set_state(t, s2, 3, 10 * HZ);
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

	for (i = 0; i < 3; i++) {
		s = kt_add6(t, TERN_L4_UDP, &a, KT4(KT_REMOTE(i), 80),
			    &lim, &p);
		KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s));
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

/* Walks */

#define KT_WALK_N	300

struct kt_walk {
	unsigned long *seen;
	unsigned int dup, calls, stop_every;
};

static int kt_walk_one(struct kt_walk *w, u16 port)
{
	if (++w->calls % w->stop_every == 0)
		return 1;	/* not seen: it comes again next time */
	if (port >= KT_WALK_N || __test_and_set_bit(port, w->seen))
		w->dup++;
	return 0;
}

static int kt_walk_bib(const struct tern_bib *b, void *arg)
{
	return kt_walk_one(arg, ntohs(b->t6.port));
}

static int kt_walk_sess(const struct tern_session *s, void *arg)
{
	return kt_walk_one(arg, ntohs(s->bib->t6.port));
}

static void table_walk(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 0);
	struct kt_picker p = { .base = 2000, .max = 1000 };
	struct tern_limits lim = {};
	struct tern_walk_pos pos;
	struct kt_walk w = {};
	struct tern_session *s;
	int i, ret, rounds;

	w.seen = kunit_kzalloc(test, BITS_TO_LONGS(KT_WALK_N) * sizeof(long),
			       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w.seen);
	for (i = 0; i < KT_WALK_N; i++) {
		s = kt_add6(t, TERN_L4_UDP, KT6(1, 1, i),
			    KT4(KT_REMOTE(1), 80), &lim, &p);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	}
	/* Something of another protocol, not to be seen. */
	s = kt_add6(t, TERN_L4_TCP, KT6(1, 1, 5), KT4(KT_REMOTE(1), 80),
		    &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));

	memset(&pos, 0, sizeof(pos));
	w.stop_every = 7;
	for (rounds = 0; rounds < 1000; rounds++) {
		rcu_read_lock();
		ret = tern_bib_walk(t, TERN_L4_UDP, &pos, kt_walk_bib, &w);
		rcu_read_unlock();
		if (!ret)
			break;
	}
	KUNIT_EXPECT_EQ(test, w.dup, 0U);
	KUNIT_EXPECT_EQ(test, bitmap_weight(w.seen, KT_WALK_N), (unsigned int)KT_WALK_N);
	KUNIT_EXPECT_EQ(test, ret, 0);

	bitmap_zero(w.seen, KT_WALK_N);
	memset(&pos, 0, sizeof(pos));
	w.calls = 0;
	w.stop_every = 4;
	for (rounds = 0; rounds < 1000; rounds++) {
		rcu_read_lock();
		ret = tern_sess_walk(t, TERN_L4_UDP, &pos, kt_walk_sess, &w);
		rcu_read_unlock();
		if (!ret)
			break;
	}
	KUNIT_EXPECT_EQ(test, w.dup, 0U);
	KUNIT_EXPECT_EQ(test, bitmap_weight(w.seen, KT_WALK_N), (unsigned int)KT_WALK_N);
	KUNIT_EXPECT_EQ(test, ret, 0);
	tern_tables_free(t);
}

/* Concurrency: packet-path threads and a maintenance thread at once. */

#define KT_WORKERS	3

struct kt_conc {
	struct tern_tables *t;
	atomic_t bad;
	atomic_long_t adds, fails;
	struct tern_walk_pos pos;
};

static bool kt_pick_rand(void *arg, const struct tern_ta6 *t6,
			 unsigned int attempt, struct tern_ta4 *t4)
{
	if (attempt >= 16)
		return false;
	t4->addr = KT_POOL4;
	t4->port = htons(1024 + get_random_u32() % 512);
	return true;
}

static void kt_conc_one(struct kt_conc *c, const struct tern_limits *lim)
{
	u32 r = get_random_u32();
	struct tern_ta6 src = kt_t6(1, r % 4, (r >> 8) % 256);
	struct tern_ta4 rem = kt_t4(KT_REMOTE((r >> 16) % 8), 80);
	u8 l4 = (r >> 24) % 2;
	struct tern_session *s, *f;
	struct tern_bib *b;

	local_bh_disable();
	rcu_read_lock();
	s = tern_sess_add6(c->t, l4, &src, &rem, lim, kt_pick_rand, NULL, 0,
			   HZ / 10 + r % HZ);
	if (IS_ERR(s)) {
		atomic_long_inc(&c->fails);
		switch (PTR_ERR(s)) {
		case -ENOSPC:
		case -EDQUOT:
		case -EUSERS:
		case -EADDRINUSE:
		case -EAGAIN:
			break;
		default:
			atomic_inc(&c->bad);
		}
		goto out;
	}
	atomic_long_inc(&c->adds);
	b = s->bib;
	if (b->l4 != l4 || memcmp(&b->t6, &src, sizeof(src)))
		atomic_inc(&c->bad);
	f = tern_sess_find6(c->t, l4, &src, &rem);
	if (f && (f->bib->l4 != l4 || memcmp(&f->remote, &rem, sizeof(rem)) ||
		  memcmp(&f->bib->t6, &src, sizeof(src))))
		atomic_inc(&c->bad);
	/*
	 * Found by its IPv4 key: that key (another thread may have removed
	 * @b meanwhile and given its IPv4 transport address to another host).
	 */
	f = tern_sess_find4(c->t, l4, &b->t4, &rem);
	if (f && (f->bib->l4 != l4 ||
		  memcmp(&f->bib->t4, &b->t4, sizeof(b->t4)) ||
		  memcmp(&f->remote, &rem, sizeof(rem))))
		atomic_inc(&c->bad);
	tern_sess_refresh(s, HZ / 2);
	if (r % 16 == 1)
		tern_sess_set_state(c->t, s, 2, HZ / 20);
	if (r % 64 == 2)
		WRITE_ONCE(s->expires, (u32)jiffies - 1);
	if (r % 32 == 3) {
		b = tern_bib_find4(c->t, TERN_L4_UDP, KT4(KT_POOL4, 99));
		if (b && IS_ERR(tern_sess_add4(c->t, b, &rem, lim, 0, HZ)))
			atomic_long_inc(&c->fails);
	}
out:
	rcu_read_unlock();
	local_bh_enable();
}

static int kt_conc_worker(void *arg)
{
	struct tern_limits lim = { .max_sessions = 1500,
				   .max_sess_per_sub = 400,
				   .max_ports_per_sub = 200,
				   .sub_prefix_len = 128 };
	struct kt_conc *c = arg;
	unsigned int i = 0;

	while (!kthread_should_stop()) {
		kt_conc_one(c, &lim);
		if (!(++i % 32))
			cond_resched();
	}
	return 0;
}

static int kt_count_bib(const struct tern_bib *b, void *arg)
{
	(*(unsigned int *)arg)++;
	return 0;
}

static int kt_stop_sess(const struct tern_session *s, void *arg)
{
	return ++(*(unsigned int *)arg) % 50 == 0;
}

static int kt_conc_maint(void *arg)
{
	struct tern_ta6 st = kt_t6(1, 7, 7);
	struct kt_conc *c = arg;
	unsigned int i = 0, n;
	int ret;

	while (!kthread_should_stop()) {
		tern_tables_gc(c->t);
		switch (++i % 8) {
		case 0:
			tern_tables_flush(c->t, get_random_u32() % 3);
			break;
		case 1:
			tern_bib_add_static(c->t, TERN_L4_UDP, &st,
					    KT4(KT_POOL4, 99));
			break;
		case 2:
			if (get_random_u32() % 4 == 0)
				tern_bib_del(c->t, TERN_L4_UDP, NULL,
					     KT4(KT_POOL4, 99));
			break;
		case 3:
			tern_bib_del(c->t, get_random_u32() % 2,
				     KT6(1, get_random_u32() % 4,
					 get_random_u32() % 256), NULL);
			break;
		case 4:
			n = 0;
			rcu_read_lock();
			ret = tern_sess_walk(c->t, TERN_L4_N, &c->pos,
					     kt_stop_sess, &n);
			rcu_read_unlock();
			if (!ret)
				memset(&c->pos, 0, sizeof(c->pos));
			break;
		}
		usleep_range(500, 1000);
	}
	return 0;
}

static void table_concurrency(struct kunit *test)
{
	struct task_struct *tasks[KT_WORKERS + 1];
	struct tern_walk_pos pos = {};
	struct kt_conc *c;
	unsigned int n = 0;
	int i;
	u64 nb, ns;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->t = kt_tables(test, 1024);
	for (i = 0; i <= KT_WORKERS; i++) {
		tasks[i] = kthread_run(i ? kt_conc_worker : kt_conc_maint, c,
				       "kt_table%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(tasks[i]));
	}
	msleep(3000);
	for (i = 0; i <= KT_WORKERS; i++)
		kthread_stop(tasks[i]);
	kunit_info(test, "%ld sessions made, %ld refused\n",
		   atomic_long_read(&c->adds), atomic_long_read(&c->fails));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->bad), 0);
	KUNIT_EXPECT_GT(test, atomic_long_read(&c->adds), 0L);

	/* The counts are exact. */
	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, tern_bib_walk(c->t, TERN_L4_N, &pos,
					    kt_count_bib, &n), 0);
	rcu_read_unlock();
	kt_count(c->t, &nb, &ns);
	KUNIT_EXPECT_EQ(test, nb, (u64)n);
	KUNIT_EXPECT_LE(test, ns, 1500ULL);
	tern_tables_flush(c->t, TERN_L4_N);
	kt_count(c->t, &nb, &ns);
	KUNIT_EXPECT_LE(test, nb, 1ULL);
	KUNIT_EXPECT_EQ(test, ns, 0ULL);
	tern_bib_del(c->t, TERN_L4_UDP, NULL, KT4(KT_POOL4, 99));
	KT_EXPECT_COUNT(test, c->t, 0, 0);
	tern_tables_free(c->t);
}

static struct kunit_case tern_nat64_table_cases[] = {
	KUNIT_CASE(table_insert_lookup),
	KUNIT_CASE(table_pick),
	KUNIT_CASE(table_max_sessions),
	KUNIT_CASE(table_subscriber),
	KUNIT_CASE(table_expiry),
	KUNIT_CASE(table_flush),
	KUNIT_CASE(table_events),
	KUNIT_CASE(table_static),
	KUNIT_CASE(table_walk),
	KUNIT_CASE(table_concurrency),
	{}
};

/* The suites run when the module loads, maybe before its init. */
static int kt_table_suite_init(struct kunit_suite *suite)
{
	return tern_tables_init();
}

static struct kunit_suite tern_nat64_table_suite = {
	.name = "tern_nat64_table",
	.suite_init = kt_table_suite_init,
	.test_cases = tern_nat64_table_cases,
};

kunit_test_suite(tern_nat64_table_suite);

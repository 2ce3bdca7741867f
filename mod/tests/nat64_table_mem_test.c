// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the memory of the NAT64 tables (nat64/table_free.c,
 * nat64/table_sub.c): the sizes of the entries and of the arrays, chains
 * of several entries, their freeing in batches after a grace period, and
 * the subscriber accounting without a pointer.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/slab.h>
#include "nat64/table_int.h"

#define KT_POOL4	htonl(0xc0000201)	/* 192.0.2.1 */
#define KT_REMOTE	htonl(0xcb007101)	/* 203.0.113.1 */

/* 2001:db8:0:<sub>::<host> port 1000 */
static struct tern_ta6 kt_m6(u32 sub, u32 host)
{
	struct tern_ta6 a = {
		.addr.s6_addr32 = { htonl(0x20010db8), htonl(sub), 0,
				    htonl(host) },
		.port = htons(1000),
	};

	return a;
}

/* Port 2000 + attempt of KT_POOL4. */
static bool kt_m_pick(void *arg, const struct tern_ta6 *t6,
		      unsigned int attempt, struct tern_ta4 *t4)
{
	if (attempt >= 1000)
		return false;
	t4->addr = KT_POOL4;
	t4->port = htons(2000 + attempt);
	return true;
}

/* A session from @src to KT_REMOTE port @port. */
static struct tern_session *kt_m_add_to(struct tern_tables *t,
					const struct tern_ta6 *src, u16 port,
					const struct tern_limits *lim)
{
	struct tern_ta4 r = { .addr = KT_REMOTE, .port = htons(port) };
	struct tern_session *s;
	bool made;

	local_bh_disable();
	rcu_read_lock();
	s = tern_sess_add6(t, TERN_L4_UDP, src, &r, lim, kt_m_pick, NULL, 0,
			   60 * HZ, &made);
	rcu_read_unlock();
	local_bh_enable();
	return s;
}

static struct tern_session *kt_m_add(struct tern_tables *t,
				     const struct tern_ta6 *src,
				     const struct tern_limits *lim)
{
	return kt_m_add_to(t, src, 80, lim);
}

/* Expires @s and runs the expiry over the whole table. */
static void kt_m_expire(struct tern_tables *t, struct tern_session *s)
{
	int i;

	WRITE_ONCE(s->expires, (u32)jiffies - 1);
	tern_tbl_gc_note(t, READ_ONCE(s->expires));
	for (i = 0; i < 1024 + 1; i++)
		tern_tables_gc(t, NULL);
}

static unsigned int kt_m_subs(struct tern_tables *t)
{
	struct tern_sub *sub;
	unsigned int n = 0;
	u32 h;

	for (h = 0; h <= t->sub_mask; h++)
		hlist_for_each_entry(sub, &t->subs[h], node)
			n++;
	return n;
}

/* Issue 12: at most 128 bytes a UDP session with its own BIB entry. */
static void table_mem_sizes(struct kunit *test)
{
	struct tern_tables *t = tern_tables_alloc(2048);
	struct tern_ta6 a = kt_m6(1, 1);
	struct tern_limits lim = {};
	struct tern_tables_count c;
	struct tern_session *s;

	KUNIT_EXPECT_EQ(test, sizeof(struct tern_session), 56);
	KUNIT_EXPECT_EQ(test, sizeof(struct tern_bib), 64);
	KUNIT_EXPECT_EQ(test, sizeof(struct tern_ta6), 18);
	KUNIT_EXPECT_EQ(test, sizeof(struct tern_ta4), 6);
	/* The slab objects are not rounded up (no SLAB_HWCACHE_ALIGN). */
	KUNIT_EXPECT_EQ(test, kmem_cache_size(tern_sess_cache), 56U);
	KUNIT_EXPECT_EQ(test, kmem_cache_size(tern_bib_cache), 64U);
	KUNIT_EXPECT_EQ(test, kmem_cache_size(tern_pair_cache), 120U);
	/* The link of an unlinked entry is n4.pprev: next stays for readers. */
	KUNIT_EXPECT_EQ(test, offsetof(struct tern_session, gone),
			offsetof(struct tern_session, n4) +
			offsetof(struct hlist_nulls_node, pprev));
	KUNIT_EXPECT_EQ(test, offsetof(struct tern_bib, gone),
			offsetof(struct tern_bib, n4) +
			offsetof(struct hlist_nulls_node, pprev));

	KUNIT_ASSERT_NOT_NULL(test, t);
	s = kt_m_add(t, &a, &lim);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	tern_tables_count(t, &c);
	KUNIT_EXPECT_EQ(test, c.sessions, 1ULL);
	KUNIT_EXPECT_EQ(test, c.bib, 1ULL);
	KUNIT_EXPECT_EQ(test, c.bytes, 120ULL);
	/* Allocated together, the session right after its entry. */
	KUNIT_EXPECT_TRUE(test, s->bib->paired);
	KUNIT_EXPECT_TRUE(test, tern_sess_paired(s));
	KUNIT_EXPECT_PTR_EQ(test, (void *)s, (void *)s->bib + 64);
	tern_tables_free(t);
}

/*
 * A BIB entry's own session goes first: the entry stays with its other
 * session (readable, KASAN says), the room counts in the bytes until the
 * entry goes; then nothing is left, nothing leaks (kmemleak).
 */
static void table_mem_pair(struct kunit *test)
{
	struct tern_tables *t = tern_tables_alloc(2048);
	struct tern_ta6 a = kt_m6(1, 1);
	struct tern_limits lim = {};
	struct tern_session *s1, *s2;
	struct tern_tables_count c;
	struct tern_bib *b;

	KUNIT_ASSERT_NOT_NULL(test, t);
	s1 = kt_m_add_to(t, &a, 80, &lim);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s1));
	s2 = kt_m_add_to(t, &a, 81, &lim);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s2));
	b = s1->bib;
	KUNIT_EXPECT_PTR_EQ(test, s2->bib, b);
	KUNIT_EXPECT_TRUE(test, tern_sess_paired(s1));
	KUNIT_EXPECT_FALSE(test, tern_sess_paired(s2));
	tern_tables_count(t, &c);
	KUNIT_EXPECT_EQ(test, c.bytes, 64ULL + 2 * 56);

	kt_m_expire(t, s1);
	flush_work(&t->reap);
	tern_tables_count(t, &c);
	KUNIT_EXPECT_EQ(test, c.sessions, 1ULL);
	KUNIT_EXPECT_EQ(test, c.bib, 1ULL);
	KUNIT_EXPECT_EQ(test, c.bytes, 64ULL + 2 * 56);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pair_idle), 1);
	/* Its own session's room was not freed, nor the entry. */
	rcu_read_lock();
	s2 = tern_sess_find6(t, TERN_L4_UDP, &a,
			     &(struct tern_ta4){ .addr = KT_REMOTE,
						 .port = htons(81) });
	KUNIT_ASSERT_NOT_NULL(test, s2);
	KUNIT_EXPECT_PTR_EQ(test, s2->bib, b);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&b->t6.addr, &a.addr));
	rcu_read_unlock();
	KUNIT_EXPECT_NULL(test, tern_sess_find6(t, TERN_L4_UDP, &a,
			  &(struct tern_ta4){ .addr = KT_REMOTE,
					      .port = htons(80) }));

	/* A new session on it is one of its own: the room stays unused. */
	s1 = kt_m_add_to(t, &a, 82, &lim);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s1));
	KUNIT_EXPECT_PTR_EQ(test, s1->bib, b);
	KUNIT_EXPECT_FALSE(test, tern_sess_paired(s1));
	kt_m_expire(t, s1);
	kt_m_expire(t, s2);
	flush_work(&t->reap);
	tern_tables_count(t, &c);
	KUNIT_EXPECT_EQ(test, c.sessions, 0ULL);
	KUNIT_EXPECT_EQ(test, c.bib, 0ULL);
	KUNIT_EXPECT_EQ(test, c.bytes, 0ULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->pair_idle), 0);
	KUNIT_EXPECT_TRUE(test, llist_empty(&t->gone_sess));
	KUNIT_EXPECT_TRUE(test, llist_empty(&t->gone_bib));
	tern_tables_free(t);
}

/* A port of KT_POOL4 from the host number of @t6: no probing. */
static bool kt_m_pick_host(void *arg, const struct tern_ta6 *t6,
			   unsigned int attempt, struct tern_ta4 *t4)
{
	if (attempt)
		return false;
	t4->addr = KT_POOL4;
	t4->port = htons(10000 + ntohl(t6->addr.s6_addr32[3]) % 50000);
	return true;
}

/*
 * A bucket or two a session (the array grows to the next power of two
 * of max-sessions); chains of several sessions with one peer, told apart
 * by the tag byte of their hash before their BIB entry is read: each is
 * found from both sides, a key that differs in its IPv6 side only or in
 * the peer's port is not.
 */
static void table_mem_buckets(struct kunit *test)
{
	struct tern_ta4 r = { .addr = KT_REMOTE, .port = htons(80) };
	struct tern_ta4 r81 = { .addr = KT_REMOTE, .port = htons(81) };
	struct tern_tables *t = tern_tables_alloc(3000);
	struct tern_ta6 a, none = kt_m6(1, 4001);
	struct tern_limits lim = {};
	struct tern_session *s;
	int i, bad = 0;
	bool made;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, t->sess_mask + 1, 4096U);
	KUNIT_EXPECT_EQ(test, t->bib_mask + 1, 2048U);
	tern_tables_free(t);

	t = tern_tables_alloc(1024);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, t->sess_mask + 1, 1024U);
	for (i = 1; i <= 4000; i++) {
		a = kt_m6(1, i);
		local_bh_disable();
		rcu_read_lock();
		s = tern_sess_add6(t, TERN_L4_UDP, &a, &r, &lim,
				   kt_m_pick_host, NULL, 0, 60 * HZ, &made);
		rcu_read_unlock();
		local_bh_enable();
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	}
	rcu_read_lock();
	for (i = 1; i <= 4000; i++) {
		a = kt_m6(1, i);
		s = tern_sess_find6(t, TERN_L4_UDP, &a, &r);
		if (!s || !ipv6_addr_equal(&s->bib->t6.addr, &a.addr) ||
		    s->tag6 != tern_tbl_tag(tern_tbl_hash_sess6(t, TERN_L4_UDP,
								&a, &r)) ||
		    tern_sess_find4(t, TERN_L4_UDP, &s->bib->t4, &r) != s ||
		    tern_sess_find6(t, TERN_L4_UDP, &a, &r81))
			bad++;
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_NULL(test, tern_sess_find6(t, TERN_L4_UDP, &none, &r));
	rcu_read_unlock();
	tern_tables_free(t);
}

/*
 * A reader that found a session before it was removed can still read it
 * and its BIB entry until rcu_read_unlock(), however long it takes (the
 * freeing worker, on another CPU, waits for it); after it the worker
 * frees both and its lists are empty.
 */
static void table_mem_grace(struct kunit *test)
{
	struct tern_ta4 r = { .addr = KT_REMOTE, .port = htons(80) };
	struct tern_tables *t = tern_tables_alloc(2048);
	struct tern_ta6 a = kt_m6(1, 1);
	struct tern_limits lim = {};
	struct tern_session *s;
	struct tern_bib *b;
	struct tern_ta4 t4;

	KUNIT_ASSERT_NOT_NULL(test, t);
	s = kt_m_add(t, &a, &lim);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));

	rcu_read_lock();
	s = tern_sess_find6(t, TERN_L4_UDP, &a, &r);
	KUNIT_ASSERT_NOT_NULL(test, s);
	b = s->bib;
	t4 = b->t4;
	kt_m_expire(t, s);
	KUNIT_EXPECT_NULL(test, tern_sess_find6(t, TERN_L4_UDP, &a, &r));
	KUNIT_EXPECT_NULL(test, tern_bib_find6(t, TERN_L4_UDP, &a));
	/* Time for the worker to run elsewhere: it must not free them. */
	mdelay(50);
	/* Freed, these words would hold the slab's free pointer (or KASAN). */
	KUNIT_EXPECT_PTR_EQ(test, s->bib, b);
	KUNIT_EXPECT_EQ(test, s->remote.addr, r.addr);
	KUNIT_EXPECT_EQ(test, s->remote.port, r.port);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&b->t6.addr, &a.addr));
	KUNIT_EXPECT_EQ(test, b->t6.port, a.port);
	KUNIT_EXPECT_EQ(test, b->t4.addr, t4.addr);
	KUNIT_EXPECT_EQ(test, b->t4.port, t4.port);
	KUNIT_EXPECT_EQ(test, (u8)b->l4, TERN_L4_UDP);
	rcu_read_unlock();

	/* The run queued by the removal took both; none is left. */
	flush_work(&t->reap);
	KUNIT_EXPECT_TRUE(test, llist_empty(&t->gone_sess));
	KUNIT_EXPECT_TRUE(test, llist_empty(&t->gone_bib));
	tern_tables_free(t);
}

static void kt_m_noop(struct work_struct *work)
{
}

/* What is still waiting when the tables go is freed with them. */
static void table_mem_drain(struct kunit *test)
{
	struct tern_tables *t = tern_tables_alloc(2048);
	struct tern_limits lim = {};
	struct tern_session *s;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	/* A second session each: one not freed with its BIB entry. */
	for (i = 0; i < 100; i++) {
		struct tern_ta6 a = kt_m6(1, i + 1);

		s = kt_m_add(t, &a, &lim);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
		s = kt_m_add_to(t, &a, 81, &lim);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	}
	/* A worker that does nothing: what the flush unlinks stays there. */
	cancel_work_sync(&t->reap);
	INIT_WORK(&t->reap, kt_m_noop);
	tern_tables_flush(t, TERN_L4_N);
	cancel_work_sync(&t->reap);
	INIT_WORK(&t->reap, tern_tbl_reap_work);
	KUNIT_EXPECT_FALSE(test, llist_empty(&t->gone_sess));
	KUNIT_EXPECT_FALSE(test, llist_empty(&t->gone_bib));
	tern_tbl_reap_all(t);
	KUNIT_EXPECT_TRUE(test, llist_empty(&t->gone_sess));
	KUNIT_EXPECT_TRUE(test, llist_empty(&t->gone_bib));

	/*
	 * Again, left on the lists for tern_tables_free() (kmemleak tells
	 * if it does not free them).
	 */
	for (i = 0; i < 100; i++) {
		struct tern_ta6 a = kt_m6(2, i + 1);

		s = kt_m_add(t, &a, &lim);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
		s = kt_m_add_to(t, &a, 81, &lim);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	}
	cancel_work_sync(&t->reap);
	INIT_WORK(&t->reap, kt_m_noop);
	tern_tables_flush(t, TERN_L4_UDP);
	KUNIT_EXPECT_FALSE(test, llist_empty(&t->gone_sess));
	tern_tables_free(t);
}

/*
 * An entry is uncharged from the subscriber it was charged to, even when
 * subscriber-prefix-len changed meanwhile; the records go with the last.
 */
static void table_mem_subscriber(struct kunit *test)
{
	struct tern_limits l64 = { .max_ports_per_sub = 2,
				   .sub_prefix_len = 64 };
	struct tern_limits l128 = { .max_ports_per_sub = 1,
				    .sub_prefix_len = 128 };
	struct tern_tables *t = tern_tables_alloc(2048);
	struct tern_ta6 a1 = kt_m6(1, 1), a2 = kt_m6(1, 2);
	struct tern_ta6 a3 = kt_m6(1, 3), a4 = kt_m6(1, 4);
	struct tern_session *s1, *s;

	KUNIT_ASSERT_NOT_NULL(test, t);
	s1 = kt_m_add(t, &a1, &l64);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s1));
	s = kt_m_add(t, &a2, &l64);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_EQ(test, PTR_ERR(kt_m_add(t, &a3, &l64)), -EUSERS);
	KUNIT_EXPECT_EQ(test, kt_m_subs(t), 1U);

	/* Now /128: a3 is a subscriber of its own. */
	s = kt_m_add(t, &a3, &l128);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_EQ(test, tern_bib_sub_plen(s->bib), 128);
	KUNIT_EXPECT_EQ(test, kt_m_subs(t), 2U);
	/* The /64 still has its two. */
	KUNIT_EXPECT_EQ(test, PTR_ERR(kt_m_add(t, &a4, &l64)), -EUSERS);

	/* a1 goes: from the /64, which has room for a4 again. */
	kt_m_expire(t, s1);
	s = kt_m_add(t, &a4, &l64);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_EQ(test, tern_bib_sub_plen(s->bib), 64);
	KUNIT_EXPECT_EQ(test, kt_m_subs(t), 2U);

	tern_tables_flush(t, TERN_L4_N);
	KUNIT_EXPECT_EQ(test, kt_m_subs(t), 0U);
	tern_tables_free(t);
}

static struct kunit_case tern_nat64_table_mem_cases[] = {
	KUNIT_CASE(table_mem_sizes),
	KUNIT_CASE(table_mem_pair),
	KUNIT_CASE(table_mem_buckets),
	KUNIT_CASE(table_mem_grace),
	KUNIT_CASE(table_mem_drain),
	KUNIT_CASE(table_mem_subscriber),
	{}
};

/* The suites run when the module loads, maybe before its init. */
static int kt_table_mem_suite_init(struct kunit_suite *suite)
{
	return tern_tables_init();
}

static struct kunit_suite tern_nat64_table_mem_suite = {
	.name = "tern_nat64_table_mem",
	.suite_init = kt_table_mem_suite_init,
	.test_cases = tern_nat64_table_mem_cases,
};

kunit_test_suite(tern_nat64_table_mem_suite);

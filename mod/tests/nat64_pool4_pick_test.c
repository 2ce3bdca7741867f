// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the port selection of pool4 (NAT64), tern_pick4(): spread,
 * parity and class, paired address pooling, marks, probe limit,
 * determinism; the subscriber's address kept across a pool4 change.
 */

#include <kunit/test.h>
#include <linux/string.h>
#include "kt_nat64.h"
#include "kt_pool4.h"

static const siphash_key_t tern_kt_key = { { 0x0123456789abcdefULL,
					     0xfedcba9876543210ULL } };

/* --- tern_pick4() */

static void pick_empty(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 0), 24, TCP, 1024, 65535, 0),
	};
	struct tern_pick pk = { NULL, &tern_kt_key, 0, TERN_L4_TCP };
	struct tern_ta6 t6;
	struct tern_ta4 t4;

	tern_kt_src(&t6, 1, 5000);
	KUNIT_EXPECT_FALSE(test, tern_pick4(&pk, &t6, 0, &t4));
	pk.pool = tern_kt_pool(test, e, ARRAY_SIZE(e));
	KUNIT_EXPECT_TRUE(test, tern_pick4(&pk, &t6, 0, &t4));
	pk.l4 = TERN_L4_UDP;
	KUNIT_EXPECT_FALSE(test, tern_pick4(&pk, &t6, 0, &t4));
	pk.l4 = TERN_L4_TCP;
	pk.mark = 7;
	KUNIT_EXPECT_FALSE(test, tern_pick4(&pk, &t6, 0, &t4));
	tern_pool4_free((struct tern_pool4 *)pk.pool);
}

static void pick_probes(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 1), 32, UDP, 1024, 65535, 0),
	};
	struct tern_pick pk = { NULL, &tern_kt_key, 0, TERN_L4_UDP };
	struct tern_ta4 t4, seen[TERN_PICK_PROBES];
	struct tern_ta6 t6;
	unsigned int i, j;

	pk.pool = tern_kt_pool(test, e, ARRAY_SIZE(e));
	tern_kt_src(&t6, 42, 40000);
	for (i = 0; i < TERN_PICK_PROBES; i++) {
		KUNIT_ASSERT_TRUE(test, tern_pick4(&pk, &t6, i, &seen[i]));
		/* No candidate twice. */
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE(test, seen[i].port, seen[j].port);
	}
	KUNIT_EXPECT_FALSE(test, tern_pick4(&pk, &t6, TERN_PICK_PROBES, &t4));
	KUNIT_EXPECT_FALSE(test, tern_pick4(&pk, &t6, UINT_MAX, &t4));
	tern_pool4_free((struct tern_pool4 *)pk.pool);
}

static void pick_deterministic(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 0), 28, TCP, 1024, 65535, 0),
	};
	static const siphash_key_t other = { { 1, 2 } };
	struct tern_pick pk = { NULL, &tern_kt_key, 0, TERN_L4_TCP };
	struct tern_pick pk2 = { NULL, &other, 0, TERN_L4_TCP };
	unsigned int i, differ = 0;
	struct tern_ta4 a, c;
	struct tern_ta6 t6;

	pk.pool = tern_kt_pool(test, e, ARRAY_SIZE(e));
	pk2.pool = pk.pool;
	for (i = 0; i < 100; i++) {
		tern_kt_src(&t6, i, 1024 + i);
		tern_kt_same_pick(test, &pk, &pk, &t6, i % 40, &a);
		KUNIT_ASSERT_TRUE(test, tern_pick4(&pk2, &t6, i % 40, &c));
		differ += a.addr != c.addr || a.port != c.port;
	}
	/* The key matters. */
	KUNIT_EXPECT_GT(test, differ, 90U);
	tern_pool4_free((struct tern_pool4 *)pk.pool);
}

/* Paired pooling: every port of one IPv6 host, one IPv4 address. */
static void pick_paired(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 0), 28, TCP, 1024, 65535, 0),
		ENTRY(A4(203, 0, 113, 7), 32, TCP, 1024, 65535, 0),
	};
	struct tern_pick pk = { NULL, &tern_kt_key, 0, TERN_L4_TCP };
	unsigned int i, port, attempt, count[17] = { 0 };
	struct tern_ta4 first, t4;
	struct tern_ta6 t6;

	pk.pool = tern_kt_pool(test, e, ARRAY_SIZE(e));
	for (i = 0; i < 1700; i++) {
		tern_kt_src(&t6, i, 1024);
		KUNIT_ASSERT_TRUE(test, tern_pick4(&pk, &t6, 0, &first));
		for (port = 1; port < 65535; port += 4999) {
			t6.port = htons(port);
			for (attempt = 0; attempt < TERN_PICK_ADDR_PROBES;
			     attempt += 7) {
				KUNIT_ASSERT_TRUE(test, tern_pick4(&pk, &t6, attempt, &t4));
				KUNIT_ASSERT_EQ(test, t4.addr, first.addr);
			}
		}
		/* The next address once the probes on this one failed. */
		KUNIT_ASSERT_TRUE(test, tern_pick4(&pk, &t6, TERN_PICK_ADDR_PROBES, &t4));
		KUNIT_EXPECT_NE(test, t4.addr, first.addr);
		if (first.addr == A4(203, 0, 113, 7))
			count[16]++;
		else
			count[ntohl(first.addr) & 15]++;
	}
	/* 17 addresses, 100 hosts each on average. */
	for (i = 0; i < ARRAY_SIZE(count); i++)
		KUNIT_EXPECT_TRUE_MSG(test, count[i] > 50 && count[i] < 150,
				      "address %u: %u hosts", i, count[i]);
	tern_pool4_free((struct tern_pool4 *)pk.pool);
}

/* Entries of another mark are never used. */
static void pick_marks(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 0), 24, UDP, 1024, 65535, 0),
		ENTRY(A4(198, 51, 100, 0), 24, UDP, 1024, 65535, 1),
		ENTRY(A4(203, 0, 113, 0), 24, UDP, 1024, 65535, 2),
		ENTRY(A4(198, 51, 100, 0), 24, TCP, 1024, 65535, 1),
	};
	struct tern_pick pk = { NULL, &tern_kt_key, 1, TERN_L4_UDP };
	unsigned int i, attempt;
	struct tern_ta6 t6;
	struct tern_ta4 t4;

	pk.pool = tern_kt_pool(test, e, ARRAY_SIZE(e));
	for (i = 0; i < 300; i++) {
		tern_kt_src(&t6, i, 2000 + i);
		for (attempt = 0; attempt < TERN_PICK_PROBES; attempt += 5) {
			pk.mark = 1;
			KUNIT_ASSERT_TRUE(test, tern_pick4(&pk, &t6, attempt, &t4));
			KUNIT_ASSERT_EQ(test, ntohl(t4.addr) >> 8, 0xc63364U);
			pk.mark = 0;
			KUNIT_ASSERT_TRUE(test, tern_pick4(&pk, &t6, attempt, &t4));
			KUNIT_ASSERT_EQ(test, ntohl(t4.addr) >> 8, 0xc00002U);
		}
	}
	tern_pool4_free((struct tern_pool4 *)pk.pool);
}

/* 10000 IPv6 hosts over one address: the ports spread evenly. */
static void pick_spread(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 1), 32, UDP, 1024, 65535, 0),
	};
	struct tern_pick pk = { NULL, &tern_kt_key, 0, TERN_L4_UDP };
	unsigned int i, bucket[16] = { 0 };
	struct tern_ta6 t6;
	struct tern_ta4 t4;

	pk.pool = tern_kt_pool(test, e, ARRAY_SIZE(e));
	for (i = 0; i < 10000; i++) {
		tern_kt_src(&t6, i, 40000);
		KUNIT_ASSERT_TRUE(test, tern_pick4(&pk, &t6, 0, &t4));
		bucket[(ntohs(t4.port) - 1024) * 16 / 64512]++;
	}
	/* 625 each on average: sd 24; a loose bound. */
	for (i = 0; i < ARRAY_SIZE(bucket); i++)
		KUNIT_EXPECT_TRUE_MSG(test, bucket[i] > 450 && bucket[i] < 800,
				      "ports %u..: %u", 1024 + i * 4032,
				      bucket[i]);
	tern_pool4_free((struct tern_pool4 *)pk.pool);
}

/* --- parity and class of the IPv6 port */

struct tern_kt_class {
	const char *desc;
	u8 l4;
	u16 pmin, pmax;		/* the pool's range */
	u16 port6;
	u16 lo, hi;		/* where the picks must land */
	int parity;		/* of an address's first half: 0, 1, -1 any */
	int parity2;		/* of its second half */
};

static const struct tern_kt_class tern_kt_class_cases[] = {
	{ "low even", TERN_L4_TCP, 1, 65535, 80, 1, 1023, 0, 1 },
	{ "low odd", TERN_L4_UDP, 1, 65535, 53, 1, 1023, 1, 0 },
	{ "high even", TERN_L4_TCP, 1, 65535, 40000, 1024, 65535, 0, 1 },
	{ "high odd", TERN_L4_UDP, 1, 65535, 40001, 1024, 65535, 1, 0 },
	{ "low, no low ports", TERN_L4_TCP, 1024, 65535, 80, 1024, 65535, 0,
	  1 },
	{ "high, no high ports", TERN_L4_UDP, 1, 1023, 5001, 1, 1023, 1, 0 },
	{ "straddling range", TERN_L4_TCP, 1000, 1030, 1025, 1024, 1030, 1,
	  0 },
	{ "one port, other parity", TERN_L4_TCP, 2000, 2000, 3, 2000, 2000, 0,
	  0 },
	{ "two ports", TERN_L4_UDP, 2000, 2001, 3, 2000, 2001, 1, 0 },
	{ "ICMP: any id", TERN_L4_ICMP, 0, 65535, 80, 0, 65535, -1, -1 },
	{ "ICMP small range", TERN_L4_ICMP, 100, 102, 1, 100, 102, -1, -1 },
};

static void tern_kt_class_desc(const struct tern_kt_class *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tern_kt_class, tern_kt_class_cases, tern_kt_class_desc);

static void pick_class(struct kunit *test)
{
	const struct tern_kt_class *k = test->param_value;
	struct tern_pool4_entry e = { { A4(192, 0, 2, 0), 30 }, k->l4,
				      k->pmin, k->pmax, 0 };
	struct tern_pick pk = { NULL, &tern_kt_key, 0, k->l4 };
	unsigned int i, attempt, seen_odd = 0, seen_even = 0;
	struct tern_ta6 t6;
	struct tern_ta4 t4;
	u16 port;
	int want;

	pk.pool = tern_kt_pool(test, &e, 1);
	for (i = 0; i < 200; i++) {
		tern_kt_src(&t6, i, k->port6);
		for (attempt = 0; attempt < TERN_PICK_PROBES; attempt += 3) {
			KUNIT_ASSERT_TRUE(test, tern_pick4(&pk, &t6, attempt, &t4));
			port = ntohs(t4.port);
			KUNIT_ASSERT_TRUE_MSG(test, port >= k->lo && port <= k->hi,
					      "port %u", port);
			want = attempt % TERN_PICK_ADDR_PROBES <
			       TERN_PICK_ADDR_PROBES / 2 ? k->parity :
							   k->parity2;
			if (want >= 0)
				KUNIT_ASSERT_EQ_MSG(test, port & 1, want,
						    "attempt %u", attempt);
			if (port & 1)
				seen_odd++;
			else
				seen_even++;
		}
	}
	if (k->parity < 0 && k->hi > k->lo)
		KUNIT_EXPECT_TRUE(test, seen_odd && seen_even);
	tern_pool4_free((struct tern_pool4 *)pk.pool);
}

/* --- The subscriber's address first (struct tern_pick's tables) */

#define KT_STICKY_HOSTS	64

/* A picker of @pool, as the packet path's (share @box of 2; 0: all). */
static void kt_sticky_pick(struct tern_pick *pk, const struct tern_pool4 *pool,
			   u8 l4, u32 box)
{
	*pk = (struct tern_pick){ .pool = pool, .key = &tern_kt_key,
				  .l4 = l4, .sub_plen = 128,
				  .boxes = box ? 2 : 0, .box = box };
}

/*
 * The transport address of a new session of host @i (a subscriber of its
 * own: /128), port (ICMP: identifier) @port, to 203.0.113.1#53, picked
 * with the tables as the packet path picks (BHs off, under RCU); 0.0.0.0
 * if refused.
 */
static struct tern_ta4 kt_sticky_add(struct tern_tables *t,
				     const struct tern_pool4 *pool, u8 l4,
				     u32 box, u32 i, u16 port)
{
	struct tern_limits lim = { .sub_prefix_len = 128 };
	struct tern_ta4 r = { A4(203, 0, 113, 1), htons(53) }, got = { 0 };
	struct tern_session *s;
	struct tern_pick pk;
	struct tern_ta6 t6;
	bool made;

	kt_sticky_pick(&pk, pool, l4, box);
	pk.tables = t;
	tern_kt_src(&t6, i, port);
	local_bh_disable();
	rcu_read_lock();
	s = tern_sess_add6(t, l4, &t6, &r, &lim, tern_pick4, &pk, 0, 60 * HZ,
			   &made);
	if (!IS_ERR_OR_NULL(s) && made)
		got = s->bib->t4;
	rcu_read_unlock();
	local_bh_enable();
	return got;
}

static __be32 kt_sticky_addr(struct tern_tables *t,
			     const struct tern_pool4 *pool, u32 box, u32 i,
			     u16 port)
{
	return kt_sticky_add(t, pool, TERN_L4_UDP, box, i, port).addr;
}

/* What the hash alone gives host @i in @pool (no subscriber's address). */
static __be32 kt_sticky_pure(struct kunit *test,
			     const struct tern_pool4 *pool, u32 box, u32 i,
			     u16 port)
{
	struct tern_pick pk;
	struct tern_ta6 t6;
	struct tern_ta4 t4;

	kt_sticky_pick(&pk, pool, TERN_L4_UDP, box);
	tern_kt_src(&t6, i, port);
	KUNIT_EXPECT_TRUE(test, tern_pick4(&pk, &t6, 0, &t4));
	return t4.addr;
}

/*
 * UDP pool4 grows from 192.0.2.1 to two /29s (and 192.0.2.1's low ports
 * nested in the first): hosts with entries on 192.0.2.1 get their next
 * ones there, of the entry with ports of their port's class (the hash
 * alone would move most of them: counted), though they made ICMP entries
 * elsewhere meanwhile (an address a protocol). New hosts, a box's share
 * without their address, pool4 without it, and once their entries were
 * flushed: the hash's address. A TCP entry before the UDP ones: the UDP
 * run does not start at the first slot.
 */
static void pick_sticky(struct kunit *test)
{
	static const struct tern_pool4_entry one[] = {
		ENTRY(A4(10, 0, 0, 0), 30, TCP, 1024, 65535, 0),
		ENTRY(A4(192, 0, 2, 1), 32, UDP, 1024, 65535, 0),
		ENTRY(A4(10, 0, 1, 0), 30, ICMP, 1, 65535, 0),
	};
	static const struct tern_pool4_entry many[] = {
		ENTRY(A4(10, 0, 0, 0), 30, TCP, 1024, 65535, 0),
		ENTRY(A4(192, 0, 2, 0), 29, UDP, 1024, 65535, 0),
		ENTRY(A4(192, 0, 2, 1), 32, UDP, 1, 1023, 0),
		ENTRY(A4(192, 0, 2, 8), 29, UDP, 1024, 65535, 0),
		ENTRY(A4(10, 0, 1, 0), 30, ICMP, 1, 65535, 0),
	};
	static const struct tern_pool4_entry other[] = {
		ENTRY(A4(10, 0, 0, 0), 30, TCP, 1024, 65535, 0),
		ENTRY(A4(198, 51, 100, 0), 30, UDP, 1024, 65535, 0),
	};
	struct tern_pool4 *p1, *pm, *po;
	unsigned int i, would_move = 0;
	struct tern_tables *t;
	struct tern_ta4 t4;

	p1 = tern_kt_pool(test, one, ARRAY_SIZE(one));
	pm = tern_kt_pool(test, many, ARRAY_SIZE(many));
	po = tern_kt_pool(test, other, ARRAY_SIZE(other));
	t = kt_tables(test, 0);
	for (i = 1; i <= KT_STICKY_HOSTS; i++) {
		KUNIT_EXPECT_EQ(test, kt_sticky_addr(t, p1, 0, i, 5000),
				A4(192, 0, 2, 1));
		t4 = kt_sticky_add(t, p1, TERN_L4_ICMP, 0, i, 7);
		KUNIT_EXPECT_EQ(test, ntohl(t4.addr) >> 2, 0x0a000100U >> 2);
	}
	for (i = 1; i <= KT_STICKY_HOSTS; i++) {
		t4 = kt_sticky_add(t, pm, TERN_L4_UDP, 0, i, 5001);
		KUNIT_EXPECT_EQ(test, t4.addr, A4(192, 0, 2, 1));
		KUNIT_EXPECT_GE(test, ntohs(t4.port), 1024);
		if (kt_sticky_pure(test, pm, 0, i, 5001) != A4(192, 0, 2, 1))
			would_move++;
	}
	/* The test has power: 15 of 16 hosts would move by the hash. */
	KUNIT_EXPECT_GT(test, would_move, KT_STICKY_HOSTS / 2);
	for (i = KT_STICKY_HOSTS + 1; i <= 2 * KT_STICKY_HOSTS; i++)
		KUNIT_EXPECT_EQ(test, kt_sticky_addr(t, pm, 0, i, 5000),
				kt_sticky_pure(test, pm, 0, i, 5000));
	/* Box 1 of 2: 192.0.2.1 is the first box's. */
	for (i = 1; i <= KT_STICKY_HOSTS; i++)
		KUNIT_EXPECT_EQ(test, kt_sticky_addr(t, pm, 1, i, 5004),
				kt_sticky_pure(test, pm, 1, i, 5004));
	for (i = 1; i <= KT_STICKY_HOSTS; i++)
		KUNIT_EXPECT_EQ(test, kt_sticky_addr(t, po, 0, i, 5002),
				kt_sticky_pure(test, po, 0, i, 5002));
	/* 192.0.2.1 again, then forgotten with the entries. */
	for (i = 1; i <= KT_STICKY_HOSTS; i++)
		KUNIT_EXPECT_EQ(test, kt_sticky_addr(t, p1, 0, i, 5006),
				A4(192, 0, 2, 1));
	tern_tables_flush(t, TERN_L4_N);
	for (i = 1; i <= KT_STICKY_HOSTS; i++)
		KUNIT_EXPECT_EQ(test, kt_sticky_addr(t, pm, 0, i, 5003),
				kt_sticky_pure(test, pm, 0, i, 5003));
	tern_tables_free(t);
	tern_pool4_free(po);
	tern_pool4_free(pm);
	tern_pool4_free(p1);
}

static struct kunit_case tern_pool4_sticky_cases[] = {
	KUNIT_CASE(pick_sticky),
	{}
};

static struct kunit_suite tern_pool4_sticky_suite = {
	.name = "tern_nat64_pool4_sticky",
	.suite_init = kt_table_suite_init,
	.test_cases = tern_pool4_sticky_cases,
};

static struct kunit_case tern_pool4_pick_cases[] = {
	KUNIT_CASE(pick_empty),
	KUNIT_CASE(pick_probes),
	KUNIT_CASE(pick_deterministic),
	KUNIT_CASE(pick_paired),
	KUNIT_CASE(pick_marks),
	KUNIT_CASE(pick_spread),
	KUNIT_CASE_PARAM(pick_class, tern_kt_class_gen_params),
	{}
};

static struct kunit_suite tern_pool4_pick_suite = {
	.name = "tern_nat64_pool4_pick",
	.test_cases = tern_pool4_pick_cases,
};

kunit_test_suites(&tern_pool4_pick_suite, &tern_pool4_sticky_suite);

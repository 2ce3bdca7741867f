// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: pool4 (NAT64): validation, add/del/overlap, lookups, the
 * address limit (tern_pick4(): nat64_pool4_pick_test.c).
 */

#include <kunit/test.h>
#include <linux/string.h>
#include "kt_pool4.h"
#include "nat64/pool4_int.h"


/* --- validation */

struct tern_kt_valid {
	const char *desc;
	struct tern_pool4_entry e;
	int ret;
};

/* Only cases that do not look at the namespace (no TCP/UDP accepted). */
static const struct tern_kt_valid tern_kt_valid_cases[] = {
	{ "ICMP /24 all ids", ENTRY(A4(192, 0, 2, 0), 24, ICMP, 0, 65535, 0), 0 },
	{ "ICMP /32 one id", ENTRY(A4(192, 0, 2, 1), 32, ICMP, 7, 7, 3), 0 },
	{ "ICMP /16", ENTRY(A4(10, 1, 0, 0), 16, ICMP, 0, 65535, 0), 0 },
	{ "length 15", ENTRY(A4(10, 0, 0, 0), 15, ICMP, 0, 65535, 0), -EINVAL },
	{ "length 33", ENTRY(A4(10, 0, 0, 0), 33, TCP, 1, 65535, 0), -EINVAL },
	{ "host bits", ENTRY(A4(192, 0, 2, 1), 24, ICMP, 0, 9, 0), -EINVAL },
	{ "empty range", ENTRY(A4(192, 0, 2, 1), 32, ICMP, 9, 8, 0), -EINVAL },
	{ "TCP empty range", ENTRY(A4(192, 0, 2, 1), 32, TCP, 9, 8, 0), -EINVAL },
	{ "TCP port 0", ENTRY(A4(192, 0, 2, 1), 32, TCP, 0, 8, 0), -EINVAL },
	{ "UDP port 0", ENTRY(A4(192, 0, 2, 1), 32, UDP, 0, 0, 0), -EINVAL },
	{ "bad protocol", { { A4(192, 0, 2, 1), 32 }, TERN_L4_N, 1, 2, 0 },
	  -EINVAL },
};

static void tern_kt_valid_desc(const struct tern_kt_valid *v, char *desc)
{
	strscpy(desc, v->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tern_kt_valid, tern_kt_valid_cases, tern_kt_valid_desc);

static void validation(struct kunit *test)
{
	const struct tern_kt_valid *v = test->param_value;
	struct tern_pool4_clash clash;

	KUNIT_EXPECT_EQ(test, tern_pool4_validate(NULL, &v->e, &clash, NULL),
			v->ret);
}

/* --- changes and lookups */

static void add_del_contains(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 0), 24, TCP, 1024, 65535, 0),
		ENTRY(A4(192, 0, 2, 0), 24, UDP, 1024, 65535, 0),
		ENTRY(A4(192, 0, 2, 0), 24, ICMP, 0, 65535, 0),
		ENTRY(A4(198, 51, 100, 0), 30, TCP, 1, 1023, 0),
		/* Nested in the first, other ports: no overlap. */
		ENTRY(A4(192, 0, 2, 128), 25, TCP, 1, 1023, 0),
		/* The same as the first for another mark. */
		ENTRY(A4(192, 0, 2, 0), 24, TCP, 1024, 65535, 1),
	};
	struct tern_pool4_entry x = ENTRY(A4(192, 0, 2, 5), 32, TCP, 2000,
					  3000, 0);
	const struct tern_pool4_entry *c;
	struct tern_pool4 *p, *q;
	u32 i;

	p = tern_kt_pool(test, e, ARRAY_SIZE(e));
	KUNIT_EXPECT_EQ(test, tern_pool4_count(p), 6U);
	/* In address order. */
	for (i = 1; i < tern_pool4_count(p); i++)
		KUNIT_EXPECT_LE(test, ntohl(tern_pool4_entry(p, i - 1)->prefix.addr),
				ntohl(tern_pool4_entry(p, i)->prefix.addr));
	KUNIT_EXPECT_NULL(test, tern_pool4_entry(p, 6));

	/* Overlaps: a port range and prefix of the same protocol and mark. */
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_pool4_add(p, &x, &c)), -EEXIST);
	KUNIT_EXPECT_PTR_EQ(test, c, tern_pool4_entry(p, 0));
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_pool4_add(p, &e[3], &c)), -EEXIST);
	x.pmin = 1000;
	x.pmax = 1000;
	x.prefix.addr = A4(192, 0, 2, 200);
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_pool4_add(p, &x, &c)), -EEXIST);
	KUNIT_EXPECT_EQ(test, c->prefix.len, 25);
	x.prefix.addr = A4(192, 0, 2, 100);
	q = tern_pool4_add(p, &x, &c);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(q));
	KUNIT_EXPECT_TRUE(test, tern_pool4_contains(q, TERN_L4_TCP,
						    A4(192, 0, 2, 100), 1000));
	KUNIT_EXPECT_FALSE(test, tern_pool4_contains(p, TERN_L4_TCP,
						     A4(192, 0, 2, 100), 1000));
	tern_pool4_free(q);

	KUNIT_EXPECT_TRUE(test, tern_pool4_contains(p, TERN_L4_TCP, A4(192, 0, 2, 5), 1024));
	KUNIT_EXPECT_TRUE(test, tern_pool4_contains(p, TERN_L4_TCP, A4(192, 0, 2, 255), 65535));
	KUNIT_EXPECT_FALSE(test, tern_pool4_contains(p, TERN_L4_TCP, A4(192, 0, 2, 5), 80));
	KUNIT_EXPECT_TRUE(test, tern_pool4_contains(p, TERN_L4_TCP, A4(192, 0, 2, 200), 80));
	KUNIT_EXPECT_FALSE(test, tern_pool4_contains(p, TERN_L4_UDP, A4(192, 0, 2, 200), 80));
	KUNIT_EXPECT_TRUE(test, tern_pool4_contains(p, TERN_L4_ICMP, A4(192, 0, 2, 1), 0));
	KUNIT_EXPECT_TRUE(test, tern_pool4_contains(p, TERN_L4_TCP, A4(198, 51, 100, 3), 5));
	KUNIT_EXPECT_FALSE(test, tern_pool4_contains(p, TERN_L4_TCP, A4(198, 51, 100, 4), 5));
	KUNIT_EXPECT_FALSE(test, tern_pool4_contains(p, TERN_L4_TCP, A4(198, 51, 100, 3), 1024));
	KUNIT_EXPECT_FALSE(test, tern_pool4_contains(p, TERN_L4_UDP, A4(192, 0, 3, 0), 2000));
	KUNIT_EXPECT_FALSE(test, tern_pool4_contains(NULL, TERN_L4_UDP, A4(192, 0, 2, 0), 2000));
	KUNIT_EXPECT_TRUE(test, tern_pool4_has_addr(p, A4(198, 51, 100, 2)));
	KUNIT_EXPECT_TRUE(test, tern_pool4_has_addr(p, A4(192, 0, 2, 0)));
	KUNIT_EXPECT_FALSE(test, tern_pool4_has_addr(p, A4(198, 51, 100, 4)));
	KUNIT_EXPECT_FALSE(test, tern_pool4_has_addr(p, A4(192, 0, 1, 255)));
	KUNIT_EXPECT_FALSE(test, tern_pool4_has_addr(NULL, A4(192, 0, 2, 1)));
	/* Between two entries, inside the pool's range. */
	KUNIT_EXPECT_FALSE(test, tern_pool4_has_addr(p, A4(194, 0, 0, 1)));

	/* Removal: by prefix, protocol and mark; ports if given. */
	x = e[0];
	x.pmin = 1025;
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_pool4_del(p, &x, true)), -ENOENT);
	x.prefix.len = 25;
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_pool4_del(p, &x, false)), -ENOENT);
	q = tern_pool4_del(p, &e[0], true);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(q));
	tern_pool4_free(p);
	p = q;
	KUNIT_EXPECT_EQ(test, tern_pool4_count(p), 5U);
	/* Mark 1 still has it. */
	KUNIT_EXPECT_TRUE(test, tern_pool4_contains(p, TERN_L4_TCP, A4(192, 0, 2, 5), 1024));
	q = tern_pool4_del(p, &e[5], false);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(q));
	tern_pool4_free(p);
	p = q;
	KUNIT_EXPECT_FALSE(test, tern_pool4_contains(p, TERN_L4_TCP, A4(192, 0, 2, 5), 1024));
	KUNIT_EXPECT_TRUE(test, tern_pool4_contains(p, TERN_L4_UDP, A4(192, 0, 2, 5), 1024));
	KUNIT_EXPECT_TRUE(test, tern_pool4_contains(p, TERN_L4_TCP, A4(192, 0, 2, 200), 80));
	for (i = 1; i <= 4; i++) {
		q = tern_pool4_del(p, &e[i], false);
		KUNIT_ASSERT_FALSE(test, IS_ERR(q));
		tern_pool4_free(p);
		p = q;
		KUNIT_EXPECT_EQ(test, tern_pool4_count(p), 4 - i);
	}
	KUNIT_EXPECT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_pool4_del(NULL, &e[0], false)), -ENOENT);
}

static void several_ranges(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 1), 32, UDP, 3000, 3999, 0),
		ENTRY(A4(192, 0, 2, 1), 32, UDP, 1000, 1999, 0),
		ENTRY(A4(192, 0, 2, 1), 32, UDP, 5000, 5000, 0),
	};
	struct tern_pool4_entry x = ENTRY(A4(192, 0, 2, 0), 31, UDP, 1999,
					  3000, 0);
	const struct tern_pool4_entry *c;
	struct tern_pool4 *p, *q;

	p = tern_kt_pool(test, e, ARRAY_SIZE(e));
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_pool4_add(p, &x, &c)), -EEXIST);
	KUNIT_EXPECT_EQ(test, c->pmin, 1000);
	x.pmin = 2000;
	x.pmax = 2999;
	q = tern_pool4_add(p, &x, &c);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(q));
	KUNIT_EXPECT_TRUE(test, tern_pool4_contains(q, TERN_L4_UDP, A4(192, 0, 2, 0), 2500));
	KUNIT_EXPECT_TRUE(test, tern_pool4_contains(q, TERN_L4_UDP, A4(192, 0, 2, 1), 2500));
	KUNIT_EXPECT_TRUE(test, tern_pool4_contains(q, TERN_L4_UDP, A4(192, 0, 2, 1), 5000));
	KUNIT_EXPECT_FALSE(test, tern_pool4_contains(q, TERN_L4_UDP, A4(192, 0, 2, 1), 4999));
	tern_pool4_free(q);
	/* Exact ports: only that one goes. */
	q = tern_pool4_del(p, &e[0], true);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(q));
	KUNIT_EXPECT_EQ(test, tern_pool4_count(q), 2U);
	KUNIT_EXPECT_FALSE(test, tern_pool4_contains(q, TERN_L4_UDP, A4(192, 0, 2, 1), 3500));
	KUNIT_EXPECT_TRUE(test, tern_pool4_contains(q, TERN_L4_UDP, A4(192, 0, 2, 1), 1500));
	tern_pool4_free(q);
	/* Without ports: all of them. */
	KUNIT_EXPECT_NULL(test, tern_pool4_del(p, &e[0], false));
	tern_pool4_free(p);
}

static void address_limit(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(10, 0, 0, 0), 16, TCP, 1024, 65535, 0),
		/* The same addresses: no more of them. */
		ENTRY(A4(10, 0, 0, 0), 16, UDP, 1024, 65535, 0),
		ENTRY(A4(10, 0, 1, 0), 24, ICMP, 0, 65535, 0),
	};
	struct tern_pool4_entry x = ENTRY(A4(10, 1, 0, 0), 32, UDP, 1, 2, 0);
	const struct tern_pool4_entry *c;
	struct tern_pool4 *p;

	p = tern_kt_pool(test, e, ARRAY_SIZE(e));
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_pool4_add(p, &x, &c)), -E2BIG);
	tern_pool4_free(p);
}

/* A pool of @e, dense or not, and four addresses: is each the pool's? */
struct kt_dense {
	const struct tern_pool4_entry *e;
	unsigned int n;
	bool dense;
	__be32 addr[4];
	bool in[4];
};

/*
 * Entries that cover their range whole (one prefix, adjacent ones, one
 * nested) make a dense pool: every address of it is the pool's, none
 * beside it; a gap between two entries does not.
 */
static void dense_ranges(struct kunit *test)
{
	static const struct tern_pool4_entry one[] = {
		ENTRY(A4(198, 18, 0, 0), 22, UDP, 1024, 65535, 0),
	};
	static const struct tern_pool4_entry adjacent[] = {
		ENTRY(A4(192, 0, 2, 0), 25, TCP, 1024, 65535, 0),
		ENTRY(A4(192, 0, 2, 128), 25, UDP, 1024, 65535, 0),
		ENTRY(A4(192, 0, 2, 64), 26, ICMP, 0, 65535, 0),
		ENTRY(A4(192, 0, 3, 0), 32, TCP, 1, 1023, 0),
	};
	static const struct tern_pool4_entry gap[] = {
		ENTRY(A4(192, 0, 2, 0), 25, TCP, 1024, 65535, 0),
		ENTRY(A4(192, 0, 2, 192), 26, UDP, 1024, 65535, 0),
	};
	const struct kt_dense cases[] = {
		{ one, ARRAY_SIZE(one), true,
		  { A4(198, 18, 0, 0), A4(198, 18, 3, 255), A4(198, 18, 4, 0),
		    A4(198, 17, 255, 255) }, { true, true, false, false } },
		{ adjacent, ARRAY_SIZE(adjacent), true,
		  { A4(192, 0, 2, 127), A4(192, 0, 2, 128), A4(192, 0, 3, 0),
		    A4(192, 0, 3, 1) }, { true, true, true, false } },
		{ gap, ARRAY_SIZE(gap), false,
		  { A4(192, 0, 2, 127), A4(192, 0, 2, 128), A4(192, 0, 2, 191),
		    A4(192, 0, 2, 192) }, { true, false, false, true } },
	};
	struct tern_pool4 *p;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		p = tern_kt_pool(test, cases[i].e, cases[i].n);
		KUNIT_EXPECT_EQ_MSG(test, p->dense, cases[i].dense, "case %u", i);
		for (j = 0; j < ARRAY_SIZE(cases[i].addr); j++)
			KUNIT_EXPECT_EQ_MSG(test,
					    tern_pool4_has_addr(p,
								cases[i].addr[j]),
					    cases[i].in[j], "case %u, address %u",
					    i, j);
		tern_pool4_free(p);
	}
}

static struct kunit_case tern_pool4_cases[] = {
	KUNIT_CASE_PARAM(validation, tern_kt_valid_gen_params),
	KUNIT_CASE(add_del_contains),
	KUNIT_CASE(dense_ranges),
	KUNIT_CASE(several_ranges),
	KUNIT_CASE(address_limit),
	{}
};

static struct kunit_suite tern_pool4_suite = {
	.name = "tern_nat64_pool4",
	.test_cases = tern_pool4_cases,
};

kunit_test_suite(tern_pool4_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: EAMT (RFC 7757) updates: overlapping entries refused, deletion
 * from snapshots, random tables against a linear scan (binary search and
 * hash index alike, added one by one and built at once).
 */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/random.h>
#include <linux/slab.h>
#include "siit/eamt_hash.h"
#include "siit/prefix.h"
#include "kt_eamt.h"

static void overlap_refused(struct kunit *test)
{
	struct tern_eam base = tern_kt_eam(test, "2001:db8:6::", 120, "198.51.100.0", 24);
	struct tern_eam other = tern_kt_eam(test, "2001:db8:7::", 120, "192.0.2.0", 24);
	struct {
		struct tern_eam e;
		const struct tern_eam *with;	/* the entry it hits */
		bool v4;
	} cases[] = {
		/* Nested inside, around, equal, on either side. */
		{ tern_kt_eam(test, "2001:db8:8::", 124, "198.51.100.16", 28), &base, true },
		{ tern_kt_eam(test, "2001:db8:8::", 112, "198.51.0.0", 16), &base, true },
		{ tern_kt_eam(test, "2001:db8:8::", 96, "0.0.0.0", 0), &other, true },
		{ tern_kt_eam(test, "2001:db8:8::ff", 128, "198.51.100.255", 32), &base, true },
		{ tern_kt_eam(test, "2001:db8:6::80", 121, "203.0.113.0", 25), &base, false },
		{ tern_kt_eam(test, "2001:db8:6::", 112, "203.0.0.0", 16), &base, false },
		{ tern_kt_eam(test, "2001:db8:7::ff", 128, "203.0.113.1", 32), &other, false },
		{ base, &base, true },
	};
	const struct tern_eam *c;
	struct tern_eamt *t = NULL, *n;
	bool c4;
	int i;

	tern_kt_add_eam(test, &t, &base);
	tern_kt_add_eam(test, &t, &other);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		n = tern_eamt_add(t, &cases[i].e, false, &c, &c4);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(n), -EEXIST, "case %d", i);
		KUNIT_ASSERT_NOT_NULL(test, c);
		KUNIT_EXPECT_TRUE_MSG(test,
				      tern_prefix4_equal(&c->p4, &cases[i].with->p4),
				      "case %d hit %pI4/%u", i, &c->p4.addr,
				      c->p4.len);
		KUNIT_EXPECT_EQ_MSG(test, c4, cases[i].v4, "case %d", i);
	}
	/* Neighbours that touch but do not overlap are fine. */
	other = tern_kt_eam(test, "2001:db8:6::100", 120, "198.51.101.0", 24);
	tern_kt_add_eam(test, &t, &other);
	other = tern_kt_eam(test, "2001:db8:5:ffff:ffff:ffff:ffff:ff00", 120,
			    "198.51.99.0", 24);
	tern_kt_add_eam(test, &t, &other);
	KUNIT_EXPECT_EQ(test, tern_eamt_count(t), 4U);
	tern_eamt_free(t);
}

static void delete(struct kunit *test)
{
	struct tern_eamt *t = tern_kt_rfc7757_table(test), *n;
	struct tern_prefix6 p6 = { tern_kt_a6(test, "2001:db8:cccc::"), 124 };
	struct tern_prefix4 p4 = { tern_kt_a4(test, "192.0.2.16"), 28 };
	struct tern_prefix4 wrong4 = { tern_kt_a4(test, "192.0.2.1"), 32 };
	struct tern_prefix4 sub4 = { tern_kt_a4(test, "192.0.2.16"), 29 };
	struct in6_addr x = tern_kt_a6(test, "2001:db8:cccc::3");

	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_eamt_del(t, &p6, &wrong4, NULL)),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_eamt_del(t, NULL, &sub4, NULL)),
			-ENOENT);
	n = tern_eamt_del(t, &p6, &p4, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(n));
	KUNIT_EXPECT_EQ(test, tern_eamt_count(n), 3U);
	KUNIT_EXPECT_NULL(test, tern_eamt_find6(n, &x));
	KUNIT_EXPECT_NULL(test, tern_eamt_find4(n, tern_kt_a4(test, "192.0.2.17")));
	/* @t is untouched: a reader of the old snapshot still sees it. */
	KUNIT_EXPECT_NOT_NULL(test, tern_eamt_find6(t, &x));
	tern_kt_both_ways(test, n, "64:ff9b::1", "192.0.2.193");
	tern_kt_both_ways(test, n, "2001:db8:aaaa::", "192.0.2.1");
	tern_eamt_free(t);
	t = n;
	n = tern_eamt_del(t, NULL, &wrong4, NULL);
	tern_eamt_free(t);
	t = n;
	p6.addr = tern_kt_a6(test, "2001:db8:bbbb::b");
	p6.len = 128;
	n = tern_eamt_del(t, &p6, NULL, NULL);
	tern_eamt_free(t);
	t = n;
	KUNIT_EXPECT_EQ(test, tern_eamt_count(t), 1U);
	p4.addr = tern_kt_a4(test, "192.0.2.192");
	p4.len = 31;
	n = tern_eamt_del(t, NULL, &p4, NULL);
	KUNIT_EXPECT_NULL(test, n);		/* empty */
	tern_eamt_free(t);
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_eamt_del(NULL, NULL, &p4, NULL)),
			-ENOENT);
}

/*
 * Random disjoint entries of the IPv4 lengths @lens (IPv6: 96 more), added
 * one by one and built at once, looked up against a linear scan; @hashed:
 * whether the lookups must take the hash index (at most TERN_EAMT_HLENS
 * lengths) or the binary search.
 */
static void random_tables(struct kunit *test, const u8 *lens, int nlens,
			  bool hashed)
{
	const int max = 400;
	struct tern_eam *v = kunit_kcalloc(test, max, sizeof(*v), GFP_KERNEL);
	struct tern_eamt *t = NULL, *n, *b;
	const struct tern_eam *c;
	int count = 0, i, j, tries;
	u32 bad, other;
	bool c4;

	KUNIT_ASSERT_NOT_NULL(test, v);
	for (tries = 0; tries < 2000 && count < max; tries++) {
		u8 len4 = lens[get_random_u32() % nlens];
		struct tern_eam e = {
			.p4 = { htonl(get_random_u32() & ~tern_hostmask4(len4)),
				len4 },
			.p6 = { .len = 96 + len4 },
		};
		bool clash = false;

		e.p6.addr.s6_addr32[0] = htonl(0x20010db8);
		e.p6.addr.s6_addr32[3] = htonl(get_random_u32() &
					       ~tern_hostmask4(len4));
		for (j = 0; j < count; j++)
			clash |= tern_prefix4_overlap(&v[j].p4, &e.p4) ||
				 tern_prefix6_overlap(&v[j].p6, &e.p6);
		n = tern_eamt_add(t, &e, false, &c, &c4);
		KUNIT_ASSERT_EQ(test, IS_ERR(n), clash);
		if (clash)
			continue;
		tern_eamt_free(t);
		t = n;
		v[count++] = e;
	}
	KUNIT_ASSERT_GT(test, count, 100);
	KUNIT_EXPECT_EQ(test, tern_eamt_hashed(t, false), hashed);
	KUNIT_EXPECT_EQ(test, tern_eamt_hashed(t, true), hashed);
	tern_kt_eamt_scan(test, t, v, count);
	b = tern_eamt_build(v, count, NULL, &bad, &other);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(b));
	KUNIT_EXPECT_EQ(test, tern_eamt_hashed(b, false), hashed);
	tern_kt_eamt_scan(test, b, v, count);
	tern_eamt_free(b);
	/* Remove all, in insertion order; the rest stays findable. */
	for (i = 0; i < count; i++) {
		n = tern_eamt_del(t, i % 2 ? &v[i].p6 : NULL,
				  i % 2 ? NULL : &v[i].p4, NULL);
		KUNIT_ASSERT_FALSE(test, IS_ERR(n));
		tern_eamt_free(t);
		t = n;
		KUNIT_EXPECT_EQ(test, tern_eamt_count(t), (u32)(count - i - 1));
		if (i + 1 < count) {
			KUNIT_EXPECT_NOT_NULL(test,
					      tern_eamt_find4(t, v[count - 1].p4.addr));
			KUNIT_EXPECT_NOT_NULL(test,
					      tern_eamt_find6(t, &v[count - 1].p6.addr));
			KUNIT_EXPECT_NULL(test, tern_eamt_find4(t, v[i].p4.addr));
			KUNIT_EXPECT_NULL(test, tern_eamt_find6(t, &v[i].p6.addr));
		}
	}
	KUNIT_EXPECT_NULL(test, t);
}

/* 13 lengths: more than the hash index takes; the binary search. */
static void random_against_scan(struct kunit *test)
{
	static const u8 lens[] = { 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
				   31, 32 };

	random_tables(test, lens, ARRAY_SIZE(lens), false);
}

/* As many lengths as the hash index takes (/32 hosts among subnets). */
static void random_hashed(struct kunit *test)
{
	static const u8 lens[] = { 32, 30, 28, 24 };

	BUILD_BUG_ON(ARRAY_SIZE(lens) != TERN_EAMT_HLENS);
	random_tables(test, lens, ARRAY_SIZE(lens), true);
}

/* Hosts only (/32 <-> /128): one length, one hash a lookup. */
static void random_hosts(struct kunit *test)
{
	static const u8 lens[] = { 32 };

	random_tables(test, lens, ARRAY_SIZE(lens), true);
}

/*
 * 256 consecutive hosts (192.0.2.0-255 <-> 2001:db8::c000:200-2ff), the
 * commonest table: the index spreads them and finds each. Consecutive
 * hosts differ in a __be32's highest byte, which a product alone never
 * carries down to the slot bits: each had one home slot, and the build
 * gave the family up (a probe sequence past TERN_EAMT_MAXPROBE).
 */
static void consecutive_hosts_hashed(struct kunit *test)
{
	const u32 n = 256;
	struct tern_eam *v = kunit_kcalloc(test, n, sizeof(*v), GFP_KERNEL);
	u32 *slot = kunit_kcalloc(test, tern_eamt_hash_slots(n), sizeof(u32),
				  GFP_KERNEL);
	struct in6_addr out6;
	struct tern_eamt_hash h;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_NOT_NULL(test, slot);
	for (i = 0; i < n; i++) {
		v[i].p4.addr = htonl(0xc0000200 + i);
		v[i].p4.len = 32;
		v[i].p6.addr.s6_addr32[0] = htonl(0x20010db8);
		v[i].p6.addr.s6_addr32[3] = htonl(0xc0000200 + i);
		v[i].p6.len = 128;
	}
	tern_eamt_hash_build(&h, slot, v, n, false);
	KUNIT_ASSERT_EQ(test, h.nlen, 1);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_PTR_EQ(test,
				    tern_eamt_hash_find4(&h, v, v[i].p4.addr),
				    &v[i]);
	KUNIT_EXPECT_NULL(test, tern_eamt_hash_find4(&h, v,
						     htonl(0xc0000300)));
	tern_eamt_hash_build(&h, slot, v, n, true);
	KUNIT_ASSERT_EQ(test, h.nlen, 1);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_PTR_EQ(test,
				    tern_eamt_hash_find6(&h, v, &v[i].p6.addr),
				    &v[i]);
	out6 = v[0].p6.addr;
	out6.s6_addr32[3] = htonl(0xc0000300);
	KUNIT_EXPECT_NULL(test, tern_eamt_hash_find6(&h, v, &out6));
}

static struct kunit_case tern_eamt_update_cases[] = {
	KUNIT_CASE(overlap_refused),
	KUNIT_CASE(delete),
	KUNIT_CASE(random_against_scan),
	KUNIT_CASE(random_hashed),
	KUNIT_CASE(random_hosts),
	KUNIT_CASE(consecutive_hosts_hashed),
	{}
};

static struct kunit_suite tern_eamt_update_suite = {
	.name = "tern_eamt_update",
	.test_cases = tern_eamt_update_cases,
};

kunit_test_suite(tern_eamt_update_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: EAMT entries nested inside others (added with force): the longest
 * prefix covering an address wins, both ways and in both lookups (hash
 * index and binary search); equal prefixes are refused even with force;
 * removal uncovers the entry around; a bulk build accepts a nested pair
 * only when one of the two is forced.
 */

#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/err.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include "siit/prefix.h"
#include "kt_eamt.h"

/* Adds @e with force, or expects -EEXIST naming the entry with @hit4. */
static void add_forced(struct kunit *test, struct tern_eamt **t,
		       const struct tern_eam *e, const char *hit4)
{
	const struct tern_eam *c;
	struct tern_eamt *n;
	bool c4;

	n = tern_eamt_add(*t, e, true, &c, &c4);
	if (hit4) {
		KUNIT_ASSERT_EQ(test, PTR_ERR(n), -EEXIST);
		KUNIT_EXPECT_EQ(test, c->p4.addr, tern_kt_a4(test, hit4));
		return;
	}
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(n));
	tern_eamt_free(*t);
	*t = n;
}

/* @s4 -> @want6 and @s6 -> @want4 through the table. */
static void maps(struct kunit *test, const struct tern_eamt *t,
		 const char *s4, const char *want6, const char *s6,
		 const char *want4)
{
	struct in6_addr in6 = tern_kt_a6(test, s6), w6 = tern_kt_a6(test, want6);
	__be32 in4 = tern_kt_a4(test, s4), out4;
	const struct tern_eam *e;
	struct in6_addr out6;

	e = tern_eamt_find4(t, in4);
	KUNIT_ASSERT_NOT_NULL_MSG(test, e, "%s", s4);
	tern_eam_4to6(e, in4, &out6);
	KUNIT_EXPECT_TRUE_MSG(test, ipv6_addr_equal(&out6, &w6),
			      "%s -> %pI6c, want %s", s4, &out6, want6);
	e = tern_eamt_find6(t, &in6);
	KUNIT_ASSERT_NOT_NULL_MSG(test, e, "%s", s6);
	tern_eam_6to4(e, &in6, &out4);
	KUNIT_EXPECT_EQ_MSG(test, out4, tern_kt_a4(test, want4),
			    "%s -> %pI4, want %s", s6, &out4, want4);
}

/*
 * Entries of other lengths, so that neither family has few enough for
 * the hash index: a /0 around everything IPv4 (::/96), an entry starting
 * where the /24 starts, and three of lengths of their own.
 */
static void extra_lengths(struct kunit *test, struct tern_eamt **t)
{
	struct tern_eam v[] = {
		tern_kt_eam(test, "::", 96, "0.0.0.0", 0),
		tern_kt_eam(test, "2001:db8:f:3::", 125, "198.51.100.0", 29),
		tern_kt_eam(test, "2001:db8:f::", 128, "192.0.2.1", 32),
		tern_kt_eam(test, "2001:db8:f:1::", 126, "192.0.2.4", 30),
		tern_kt_eam(test, "2001:db8:f:2::", 127, "192.0.2.8", 31),
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(v); i++)
		add_forced(test, t, &v[i], NULL);
	KUNIT_ASSERT_FALSE(test, tern_eamt_hashed(*t, false));
	KUNIT_ASSERT_FALSE(test, tern_eamt_hashed(*t, true));
	maps(test, *t, "198.51.100.3", "2001:db8:f:3::3", "2001:db8:6::3",
	     "198.51.100.3");
	maps(test, *t, "203.0.113.200", "::cb00:71c8", "::c633:6409",
	     "198.51.100.9");
}

/*
 * A /29 inside a /24, other nestings around them; @search: with
 * extra_lengths() (the binary search and its walk up), else four lengths
 * a family (the hash index).
 */
static void longest_wins(struct kunit *test, bool search)
{
	struct tern_eam e24 = tern_kt_eam(test, "2001:db8:6::", 120, "198.51.100.0", 24);
	struct tern_eam e29 = tern_kt_eam(test, "2001:db8:7::", 125, "198.51.100.8", 29);
	struct tern_eam e16 = tern_kt_eam(test, "2001:db8:9::", 112, "198.51.0.0", 16);
	struct tern_eam in6 = tern_kt_eam(test, "2001:db8:6::80", 121, "203.0.113.0", 25);
	struct tern_eam same4 = tern_kt_eam(test, "2001:db8:8::", 120, "198.51.100.0", 24);
	struct tern_eam same6 = tern_kt_eam(test, "2001:db8:6::", 120, "192.0.2.0", 24);
	struct tern_eam host = tern_kt_eam(test, "2001:db8:a::", 128, "198.51.100.10", 32);
	struct in6_addr gone = tern_kt_a6(test, "2001:db8:6::5");
	struct tern_prefix4 p24 = e24.p4;
	const struct tern_eam *c;
	struct tern_eamt *t = NULL, *n;
	bool c4;
	u32 i;

	tern_kt_add_eam(test, &t, &e24);
	/* Without force, the nested entry is refused, naming the /24. */
	n = tern_eamt_add(t, &e29, false, &c, &c4);
	KUNIT_ASSERT_EQ(test, PTR_ERR(n), -EEXIST);
	KUNIT_EXPECT_PTR_EQ(test, c, tern_eamt_entry(t, 0));
	KUNIT_EXPECT_TRUE(test, c4);
	KUNIT_EXPECT_FALSE(test, tern_eamt_overlaps(t, 0));
	add_forced(test, &t, &e29, NULL);
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_TRUE(test, tern_eamt_overlaps(t, i));
	if (search)
		extra_lengths(test, &t);
	/* 198.51.100.9 is the /29's; 2001:db8:6::9 is still the /24's. */
	maps(test, t, "198.51.100.9", "2001:db8:7::1", "2001:db8:6::9",
	     "198.51.100.9");
	maps(test, t, "198.51.100.20", "2001:db8:6::14", "2001:db8:7::7",
	     "198.51.100.15");
	/* Equal prefixes are refused with force too. */
	add_forced(test, &t, &same4, "198.51.100.0");
	add_forced(test, &t, &same6, "198.51.100.0");
	/* Nested on the IPv6 side; then an entry around both. */
	add_forced(test, &t, &in6, NULL);
	maps(test, t, "203.0.113.1", "2001:db8:6::81", "2001:db8:6::81",
	     "203.0.113.1");
	maps(test, t, "198.51.100.21", "2001:db8:6::15", "2001:db8:6::5",
	     "198.51.100.5");
	add_forced(test, &t, &e16, NULL);
	KUNIT_EXPECT_EQ(test, tern_eamt_hashed(t, false), !search);
	KUNIT_EXPECT_EQ(test, tern_eamt_hashed(t, true), !search);
	maps(test, t, "198.51.7.7", "2001:db8:9::707", "2001:db8:9::6409",
	     "198.51.100.9");
	maps(test, t, "198.51.100.9", "2001:db8:7::1", "2001:db8:7::1",
	     "198.51.100.9");
	/* Without force, a host inside the /29 names the /29. */
	n = tern_eamt_add(t, &host, false, &c, &c4);
	KUNIT_ASSERT_EQ(test, PTR_ERR(n), -EEXIST);
	KUNIT_EXPECT_TRUE(test, tern_prefix4_equal(&c->p4, &e29.p4));
	/* The /24 goes: its addresses fall to the /16, the /29 stays. */
	n = tern_eamt_del(t, NULL, &p24, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(n));
	tern_eamt_free(t);
	t = n;
	maps(test, t, "198.51.100.20", "2001:db8:9::6414", "2001:db8:6::81",
	     "203.0.113.1");
	maps(test, t, "198.51.100.9", "2001:db8:7::1", "2001:db8:7::1",
	     "198.51.100.9");
	KUNIT_EXPECT_NULL(test, tern_eamt_find6(t, &gone));
	tern_eamt_free(t);
}

static void longest_wins_hashed(struct kunit *test)
{
	longest_wins(test, false);
}

static void longest_wins_search(struct kunit *test)
{
	longest_wins(test, true);
}

/* A build of @v refused: -EEXIST naming entries @bad and @other. */
static void build_refused(struct kunit *test, const struct tern_eam *v,
			  u32 n, const unsigned long *force, u32 bad, u32 other)
{
	struct tern_eamt *t;
	u32 b = U32_MAX, o = U32_MAX;

	t = tern_eamt_build(v, n, force, &b, &o);
	if (!IS_ERR(t))
		tern_eamt_free(t);
	KUNIT_EXPECT_EQ(test, PTR_ERR(t), -EEXIST);
	KUNIT_EXPECT_EQ(test, b, bad);
	KUNIT_EXPECT_EQ(test, o, other);
}

/* A bulk build: a nested pair needs force on one of its two entries. */
static void build_needs_force(struct kunit *test)
{
	struct tern_eam v[] = {
		tern_kt_eam(test, "2001:db8:7::", 125, "198.51.100.8", 29),
		tern_kt_eam(test, "2001:db8:9::", 112, "198.51.0.0", 16),
		tern_kt_eam(test, "2001:db8:6::", 120, "198.51.100.0", 24),
		tern_kt_eam(test, "2001:db8:5::", 120, "192.0.2.0", 24),
	};
	unsigned long force[1] = { 0 };
	struct tern_eamt *t;
	u32 bad, other;

	build_refused(test, v, ARRAY_SIZE(v), NULL, 2, 1); /* /24 in the /16 */
	/* The /24 forced: it may nest, but the /29 is in the /16 too. */
	__set_bit(2, force);
	build_refused(test, v, ARRAY_SIZE(v), force, 1, 0);
	__set_bit(0, force);
	t = tern_eamt_build(v, ARRAY_SIZE(v), force, &bad, &other);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(t));
	maps(test, t, "198.51.100.9", "2001:db8:7::1", "2001:db8:6::9",
	     "198.51.100.9");
	maps(test, t, "198.51.100.20", "2001:db8:6::14", "2001:db8:9::102",
	     "198.51.1.2");
	KUNIT_EXPECT_FALSE(test, tern_eamt_overlaps(t, 0));	/* 192.0.2.0 */
	KUNIT_EXPECT_TRUE(test, tern_eamt_overlaps(t, 1));
	tern_eamt_free(t);
	/* Equal prefixes, forced or not. */
	v[3].p4 = v[2].p4;
	bitmap_fill(force, ARRAY_SIZE(v));
	build_refused(test, v, ARRAY_SIZE(v), force, 3, 2);
}

/*
 * Random entries of the IPv4 lengths @lens (IPv6: 96 more) in a /16 and
 * a 2^16 IPv6 range, so that many nest: added with force one by one and
 * built at once, looked up against a scan, then removed one by one.
 */
static void random_nested(struct kunit *test, const u8 *lens, int nlens,
			  bool hashed)
{
	const u32 max = 300;
	struct tern_eam *v = kunit_kcalloc(test, max, sizeof(*v), GFP_KERNEL);
	unsigned long *all = kunit_kcalloc(test, BITS_TO_LONGS(max),
					   sizeof(long), GFP_KERNEL);
	struct tern_eamt *t = NULL, *n, *b;
	const struct tern_eam *c;
	u32 count = 0, i, j, bad, other, tries;
	bool c4, nested = false;

	KUNIT_ASSERT_NOT_NULL(test, v);
	KUNIT_ASSERT_NOT_NULL(test, all);
	for (tries = 0; tries < 2000 && count < max; tries++) {
		u8 len4 = lens[get_random_u32() % nlens];
		struct tern_eam e = {
			.p4 = { htonl((0xc6330000 | (get_random_u32() & 0xffff)) &
				      ~tern_hostmask4(len4)), len4 },
			.p6 = { .len = 96 + len4 },
		};
		bool same = false;

		e.p6.addr.s6_addr32[0] = htonl(0x20010db8);
		e.p6.addr.s6_addr32[3] = htonl((get_random_u32() & 0xffff) &
					       ~tern_hostmask4(len4));
		bool over = false;

		for (j = 0; j < count; j++) {
			same |= tern_prefix4_equal(&v[j].p4, &e.p4) ||
				tern_prefix6_equal(&v[j].p6, &e.p6);
			over |= tern_prefix4_overlap(&v[j].p4, &e.p4);
		}
		n = tern_eamt_add(t, &e, true, &c, &c4);
		KUNIT_ASSERT_EQ(test, IS_ERR(n), same);
		if (same)
			continue;
		nested |= over;
		tern_eamt_free(t);
		t = n;
		v[count++] = e;
	}
	KUNIT_ASSERT_GT(test, count, 100U);
	KUNIT_ASSERT_TRUE(test, nested);
	KUNIT_EXPECT_EQ(test, tern_eamt_hashed(t, false), hashed);
	tern_kt_eamt_scan(test, t, v, count);
	b = tern_eamt_build(v, count, NULL, &bad, &other);
	if (!IS_ERR(b))
		tern_eamt_free(b);
	KUNIT_EXPECT_EQ(test, PTR_ERR(b), -EEXIST);
	bitmap_fill(all, count);
	b = tern_eamt_build(v, count, all, &bad, &other);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(b));
	KUNIT_EXPECT_EQ(test, tern_eamt_hashed(b, true), hashed);
	tern_kt_eamt_scan(test, b, v, count);
	tern_eamt_free(b);
	/* Removed in insertion order: the rest still answer as the scan. */
	for (i = 0; i < count; i++) {
		n = tern_eamt_del(t, i % 2 ? &v[i].p6 : NULL,
				  i % 2 ? NULL : &v[i].p4, NULL);
		KUNIT_ASSERT_FALSE(test, IS_ERR(n));
		tern_eamt_free(t);
		t = n;
		if (i % 50 == 49 && i + 1 < count)
			tern_kt_eamt_scan(test, t, v + i + 1, count - i - 1);
	}
	KUNIT_EXPECT_NULL(test, t);
}

static void random_nested_search(struct kunit *test)
{
	static const u8 lens[] = { 20, 22, 23, 24, 26, 27, 28, 29, 30, 32 };

	random_nested(test, lens, ARRAY_SIZE(lens), false);
}

static void random_nested_hashed(struct kunit *test)
{
	static const u8 lens[] = { 32, 28, 26, 24 };

	random_nested(test, lens, ARRAY_SIZE(lens), true);
}

static struct kunit_case tern_eamt_nest_cases[] = {
	KUNIT_CASE(longest_wins_hashed),
	KUNIT_CASE(longest_wins_search),
	KUNIT_CASE(build_needs_force),
	KUNIT_CASE(random_nested_search),
	KUNIT_CASE(random_nested_hashed),
	{}
};

static struct kunit_suite tern_eamt_nest_suite = {
	.name = "tern_eamt_nest",
	.test_cases = tern_eamt_nest_cases,
};

kunit_test_suite(tern_eamt_nest_suite);

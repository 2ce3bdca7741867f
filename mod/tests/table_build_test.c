// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the EAMT and denylist4 built at once from a list in any order
 * (tern config apply): the same tables as entry by entry, 10,000 hosts
 * through the EAMT's hash index, and overlaps named by the later entry's
 * index and the earlier one's.
 */

#include <kunit/test.h>
#include <linux/err.h>
#include "siit/denylist4.h"
#include "siit/eamt.h"
#include "siit/prefix.h"
#include "kt_eamt.h"
#include "kt_util.h"

#define N_BULK 3000

/* Entry @i of a bulk list: 2001:db8:I::/120 and 10.I.0/24, shuffled. */
static struct tern_eam bulk_eam(u32 i)
{
	struct tern_eam e = { };

	i = (i * 7919) % N_BULK;
	e.p6.addr.s6_addr32[0] = htonl(0x20010db8);
	e.p6.addr.s6_addr32[1] = htonl(i << 8);
	e.p6.len = 120;
	e.p4.addr = htonl(0x0a000000 | (i << 8));
	e.p4.len = 24;
	return e;
}

static void eamt_build_same_as_add(struct kunit *test)
{
	struct tern_eam *v;
	struct tern_eamt *t, *s = NULL;
	u32 i, bad = 0, other = 0;

	v = kunit_kmalloc_array(test, N_BULK, sizeof(*v), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, v);
	for (i = 0; i < N_BULK; i++) {
		v[i] = bulk_eam(i);
		if (i < 64)
			tern_kt_add_eam(test, &s, &v[i]);
	}
	KUNIT_EXPECT_NULL(test, tern_eamt_build(v, 0, NULL, &bad, &other));
	t = tern_eamt_build(v, 64, NULL, &bad, &other);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(t));
	KUNIT_ASSERT_EQ(test, tern_eamt_count(t), 64U);
	for (i = 0; i < 64; i++) {
		KUNIT_EXPECT_EQ(test, memcmp(tern_eamt_entry(t, i),
					     tern_eamt_entry(s, i),
					     sizeof(struct tern_eam)), 0);
	}
	tern_eamt_free(t);
	tern_eamt_free(s);

	t = tern_eamt_build(v, N_BULK, NULL, &bad, &other);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(t));
	for (i = 0; i < N_BULK; i++) {
		struct in6_addr a6 = v[i].p6.addr;
		__be32 a4 = v[i].p4.addr | htonl(0x42);

		a6.s6_addr[15] = 0x42;
		KUNIT_EXPECT_PTR_EQ(test, tern_eamt_find4(t, a4),
				    tern_eamt_find6(t, &a6));
		KUNIT_ASSERT_NOT_NULL(test, tern_eamt_find4(t, a4));
		KUNIT_EXPECT_TRUE(test, tern_prefix4_equal(&tern_eamt_find4(t, a4)->p4,
							   &v[i].p4));
	}
	tern_eamt_free(t);
}

/*
 * 10,000 hosts, /128 <-> /32 (2001:db8:e0::N <-> 100.64.N, the bench's
 * table): one length a family, looked up in the hash index, every entry
 * found both ways and its neighbours past the table not.
 */
static void eamt_build_hosts_hashed(struct kunit *test)
{
	const u32 n = 10000;
	struct tern_eam *v;
	struct tern_eamt *t;
	u32 i, bad = 0, other = 0;

	v = kunit_kmalloc_array(test, n, sizeof(*v), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, v);
	for (i = 0; i < n; i++) {
		v[i] = (struct tern_eam){ .p6.len = 128, .p4.len = 32 };
		v[i].p6.addr.s6_addr32[0] = htonl(0x20010db8);
		v[i].p6.addr.s6_addr32[1] = htonl(0x00e00000);
		v[i].p6.addr.s6_addr32[3] = htonl(i + 1);
		v[i].p4.addr = htonl(0x64400000 + i + 1);
	}
	t = tern_eamt_build(v, n, NULL, &bad, &other);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(t));
	KUNIT_EXPECT_TRUE(test, tern_eamt_hashed(t, false));
	KUNIT_EXPECT_TRUE(test, tern_eamt_hashed(t, true));
	for (i = 0; i < n; i++) {
		const struct tern_eam *e4 = tern_eamt_find4(t, v[i].p4.addr);
		const struct tern_eam *e6 = tern_eamt_find6(t, &v[i].p6.addr);
		struct in6_addr past6 = v[i].p6.addr;

		KUNIT_ASSERT_NOT_NULL(test, e4);
		KUNIT_EXPECT_PTR_EQ(test, e4, e6);
		KUNIT_EXPECT_TRUE(test, tern_prefix4_equal(&e4->p4, &v[i].p4));
		past6.s6_addr32[3] = htonl(n + i + 1);
		KUNIT_EXPECT_NULL(test, tern_eamt_find6(t, &past6));
		KUNIT_EXPECT_NULL(test,
				  tern_eamt_find4(t, htonl(0x64400000 + n + i + 1)));
	}
	tern_eamt_free(t);
}

static void eamt_build_overlaps(struct kunit *test)
{
	struct tern_eam v[] = {
		tern_kt_eam(test, "2001:db8::", 120, "192.0.2.0", 24),
		tern_kt_eam(test, "2001:db8:1::", 120, "198.51.100.0", 24),
		tern_kt_eam(test, "2001:db8:2::", 128, "192.0.2.77", 32),
		tern_kt_eam(test, "2001:db8:1::80", 128, "203.0.113.1", 32),
	};
	u32 bad = 99, other = 99;

	/* IPv4 side: entry 2 inside entry 0. */
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_eamt_build(v, 3, NULL, &bad, &other)),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, bad, 2U);
	KUNIT_EXPECT_EQ(test, other, 0U);
	/* IPv6 side: entry 3 inside entry 1 (2 left out). */
	v[2] = v[3];
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_eamt_build(v, 3, NULL, &bad, &other)),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, bad, 2U);
	KUNIT_EXPECT_EQ(test, other, 1U);
}

static void deny4_build(struct kunit *test)
{
	struct tern_prefix4 v[] = {
		{ tern_kt_a4(test, "198.51.100.0"), 24 },
		{ tern_kt_a4(test, "10.0.0.0"), 8 },
		{ tern_kt_a4(test, "192.0.2.7"), 32 },
		{ tern_kt_a4(test, "10.1.0.0"), 16 },
	};
	struct tern_deny4 *d;
	u32 bad = 99, other = 99;

	KUNIT_EXPECT_NULL(test, tern_deny4_build(v, 0, &bad, &other));
	d = tern_deny4_build(v, 3, &bad, &other);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(d));
	KUNIT_EXPECT_EQ(test, tern_deny4_count(d), 3U);
	KUNIT_EXPECT_EQ(test, ntohl(tern_deny4_entry(d, 0)->addr), 0x0a000000U);
	KUNIT_EXPECT_TRUE(test, tern_deny4_contains(d, tern_kt_a4(test, "192.0.2.7")));
	KUNIT_EXPECT_FALSE(test, tern_deny4_contains(d, tern_kt_a4(test, "192.0.2.8")));
	tern_deny4_free(d);
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_deny4_build(v, 4, &bad, &other)),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, bad, 3U);
	KUNIT_EXPECT_EQ(test, other, 1U);
}

static struct kunit_case tern_table_build_cases[] = {
	KUNIT_CASE(eamt_build_same_as_add),
	KUNIT_CASE(eamt_build_hosts_hashed),
	KUNIT_CASE(eamt_build_overlaps),
	KUNIT_CASE(deny4_build),
	{}
};

static struct kunit_suite tern_table_build_suite = {
	.name = "tern_table_build",
	.test_cases = tern_table_build_cases,
};

kunit_test_suite(tern_table_build_suite);

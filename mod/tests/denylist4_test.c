// SPDX-License-Identifier: GPL-2.0
/* KUnit: denylist4, the IPv4 prefixes pool6 does not translate. */

#include <kunit/test.h>
#include <linux/err.h>
#include "siit/denylist4.h"
#include "siit/prefix.h"
#include "kt_util.h"

static void denylist4(struct kunit *test)
{
	struct tern_prefix4 p[] = {
		{ tern_kt_a4(test, "198.51.100.0"), 24 },
		{ tern_kt_a4(test, "10.0.0.0"), 8 },
		{ tern_kt_a4(test, "192.0.2.7"), 32 },
	};
	struct tern_prefix4 nested = { tern_kt_a4(test, "10.1.0.0"), 16 };
	struct tern_prefix4 around = { tern_kt_a4(test, "192.0.0.0"), 16 };
	const struct tern_prefix4 *c;
	struct tern_deny4 *d = NULL, *n;
	int i;

	for (i = 0; i < ARRAY_SIZE(p); i++) {
		n = tern_deny4_add(d, &p[i], &c);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(n));
		tern_deny4_free(d);
		d = n;
	}
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_deny4_add(d, &nested, &c)), -EEXIST);
	KUNIT_EXPECT_TRUE(test, tern_prefix4_equal(c, &p[1]));
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_deny4_add(d, &around, &c)), -EEXIST);
	KUNIT_EXPECT_TRUE(test, tern_prefix4_equal(c, &p[2]));
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_deny4_add(d, &p[0], &c)), -EEXIST);

	KUNIT_EXPECT_TRUE(test, tern_deny4_contains(d, tern_kt_a4(test, "10.255.255.255")));
	KUNIT_EXPECT_TRUE(test, tern_deny4_contains(d, tern_kt_a4(test, "198.51.100.0")));
	KUNIT_EXPECT_TRUE(test, tern_deny4_contains(d, tern_kt_a4(test, "192.0.2.7")));
	KUNIT_EXPECT_FALSE(test, tern_deny4_contains(d, tern_kt_a4(test, "192.0.2.8")));
	KUNIT_EXPECT_FALSE(test, tern_deny4_contains(d, tern_kt_a4(test, "11.0.0.0")));
	KUNIT_EXPECT_FALSE(test, tern_deny4_contains(d, tern_kt_a4(test, "9.255.255.255")));
	KUNIT_EXPECT_FALSE(test, tern_deny4_contains(NULL, tern_kt_a4(test, "10.0.0.1")));
	KUNIT_EXPECT_EQ(test, ntohl(tern_deny4_entry(d, 0)->addr), 0x0a000000U);

	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_deny4_del(d, &nested)), -ENOENT);
	n = tern_deny4_del(d, &p[1]);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(n));
	KUNIT_EXPECT_FALSE(test, tern_deny4_contains(n, tern_kt_a4(test, "10.0.0.1")));
	KUNIT_EXPECT_TRUE(test, tern_deny4_contains(d, tern_kt_a4(test, "10.0.0.1")));
	tern_deny4_free(d);
	d = n;
	/* Now the nested one fits. */
	n = tern_deny4_add(d, &nested, &c);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(n));
	tern_deny4_free(d);
	KUNIT_EXPECT_EQ(test, tern_deny4_count(n), 3U);
	tern_deny4_free(n);
}

static struct kunit_case tern_denylist4_cases[] = {
	KUNIT_CASE(denylist4),
	{}
};

static struct kunit_suite tern_denylist4_suite = {
	.name = "tern_denylist4",
	.test_cases = tern_denylist4_cases,
};

kunit_test_suite(tern_denylist4_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the mapping policy over the EAMT, pool6 and denylist4, and what
 * address queries report.
 */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include "siit/denylist4.h"
#include "siit/mapping.h"
#include "siit/prefix.h"
#include "kt_eamt.h"

/* The mapping calls, each in its own RCU read side (KUnit may sleep). */
static int map64(const struct tern_config *cfg, const struct in6_addr *x,
		 __be32 *out)
{
	int via;

	rcu_read_lock();
	via = tern_map_6to4(cfg, x, out);
	rcu_read_unlock();
	return via;
}

static int map46(const struct tern_config *cfg, __be32 x, struct in6_addr *out)
{
	int via;

	rcu_read_lock();
	via = tern_map_4to6(cfg, x, out);
	rcu_read_unlock();
	return via;
}

static void explain6(const struct tern_config *cfg, const struct in6_addr *x,
		     struct tern_map_answer *ans)
{
	rcu_read_lock();
	tern_map_explain6(cfg, x, ans);
	rcu_read_unlock();
}

static void explain4(const struct tern_config *cfg, __be32 x,
		     struct tern_map_answer *ans)
{
	rcu_read_lock();
	tern_map_explain4(cfg, x, ans);
	rcu_read_unlock();
}

/* The policy: EAMT, then pool6 unless denylisted; what queries report. */
static void mapping_policy(struct kunit *test)
{
	struct tern_eam e1 = tern_kt_eam(test, "2001:db8:64::a00:0", 120,
					 "203.0.113.0", 24);
	struct tern_eam e2 = tern_kt_eam(test, "2001:db8:6::", 120, "198.51.100.0", 24);
	struct tern_prefix4 d1 = { tern_kt_a4(test, "198.51.100.0"), 24 };
	struct tern_prefix4 d2 = { tern_kt_a4(test, "192.0.2.128"), 25 };
	struct tern_map_answer ans;
	struct tern_config cfg;
	struct tern_eamt *t = NULL;
	struct tern_deny4 *d = NULL, *n;
	const struct tern_prefix4 *c;
	struct in6_addr x6, out6;
	__be32 out4 = 0;

	tern_config_defaults(&cfg);
	cfg.pool6_set = true;
	cfg.pool6.addr = tern_kt_a6(test, "2001:db8:64::");
	cfg.pool6.len = 96;
	tern_kt_add_eam(test, &t, &e1);
	tern_kt_add_eam(test, &t, &e2);
	n = tern_deny4_add(d, &d1, &c);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(n));
	d = tern_deny4_add(n, &d2, &c);
	tern_deny4_free(n);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(d));
	/* The tables the configuration names (struct tern_config). */
	cfg.eamt = t;
	cfg.deny4 = d;

	/* Inside pool6 and an EAM: the EAM. */
	x6 = tern_kt_a6(test, "2001:db8:64::a00:7");
	KUNIT_EXPECT_EQ(test, map64(&cfg, &x6, &out4), TERN_VIA_EAMT);
	KUNIT_EXPECT_EQ(test, out4, tern_kt_a4(test, "203.0.113.7"));
	KUNIT_EXPECT_EQ(test, map46(&cfg, tern_kt_a4(test, "203.0.113.7"),
					    &out6), TERN_VIA_EAMT);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&out6, &x6));
	/* pool6 alone. */
	x6 = tern_kt_a6(test, "2001:db8:64::c000:201");
	KUNIT_EXPECT_EQ(test, map64(&cfg, &x6, &out4), TERN_VIA_POOL6);
	KUNIT_EXPECT_EQ(test, out4, tern_kt_a4(test, "192.0.2.1"));
	/* pool6 denied both ways, output untouched. */
	x6 = tern_kt_a6(test, "2001:db8:64::c000:281");
	out4 = 0;
	KUNIT_EXPECT_EQ(test, map64(&cfg, &x6, &out4), TERN_VIA_NONE);
	KUNIT_EXPECT_EQ(test, out4, 0U);
	KUNIT_EXPECT_EQ(test, map46(&cfg, tern_kt_a4(test, "192.0.2.129"),
					    &out6), TERN_VIA_NONE);
	/* denylist4 does not apply to the EAMT. */
	KUNIT_EXPECT_EQ(test, map46(&cfg, tern_kt_a4(test, "198.51.100.9"),
					    &out6), TERN_VIA_EAMT);
	x6 = tern_kt_a6(test, "2001:db8:6::9");
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&out6, &x6));
	x6 = tern_kt_a6(test, "2001:db8:64::c633:6409");
	KUNIT_EXPECT_EQ(test, map64(&cfg, &x6, &out4), TERN_VIA_NONE);

	/* Queries. */
	explain4(&cfg, tern_kt_a4(test, "192.0.2.129"), &ans);
	KUNIT_EXPECT_EQ(test, ans.via, TERN_VIA_NONE);
	KUNIT_EXPECT_EQ(test, ans.why, TERN_WHY_DENYLIST4);
	explain4(&cfg, tern_kt_a4(test, "127.0.0.1"), &ans);
	KUNIT_EXPECT_EQ(test, ans.why, TERN_WHY_SPECIAL4);
	x6 = tern_kt_a6(test, "2001:db8:64::e000:1");
	explain6(&cfg, &x6, &ans);
	KUNIT_EXPECT_EQ(test, ans.why, TERN_WHY_SPECIAL4);
	x6 = tern_kt_a6(test, "2001:db8:65::1");
	explain6(&cfg, &x6, &ans);
	KUNIT_EXPECT_EQ(test, ans.why, TERN_WHY_NO_MAPPING);
	x6 = tern_kt_a6(test, "2001:db8:6::ff");
	explain6(&cfg, &x6, &ans);
	KUNIT_EXPECT_EQ(test, ans.via, TERN_VIA_EAMT);
	KUNIT_EXPECT_EQ(test, ans.out.a4, tern_kt_a4(test, "198.51.100.255"));
	KUNIT_EXPECT_TRUE(test, tern_prefix6_equal(&ans.eam.p6, &e2.p6));
	explain4(&cfg, tern_kt_a4(test, "8.8.8.8"), &ans);
	KUNIT_EXPECT_EQ(test, ans.via, TERN_VIA_POOL6);
	x6 = tern_kt_a6(test, "2001:db8:64::808:808");
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&ans.out.a6, &x6));
	/* Well-Known Prefix and strict-wkp: non-global refused by pool6 only. */
	cfg.pool6.addr = tern_kt_a6(test, "64:ff9b::");
	explain4(&cfg, tern_kt_a4(test, "10.0.0.1"), &ans);
	KUNIT_EXPECT_EQ(test, ans.why, TERN_WHY_WKP_NONGLOBAL);
	explain4(&cfg, tern_kt_a4(test, "203.0.113.1"), &ans);
	KUNIT_EXPECT_EQ(test, ans.via, TERN_VIA_EAMT);

	tern_eamt_free(t);
	tern_deny4_free(d);
}

static struct kunit_case tern_mapping_cases[] = {
	KUNIT_CASE(mapping_policy),
	{}
};

static struct kunit_suite tern_mapping_suite = {
	.name = "tern_mapping",
	.test_cases = tern_mapping_cases,
};

kunit_test_suite(tern_mapping_suite);

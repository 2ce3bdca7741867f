// SPDX-License-Identifier: GPL-2.0
/* KUnit: RFC 6052 address mapping and the RFC 6890 special ranges. */

#include <kunit/test.h>
#include <linux/inet.h>
#include <linux/netlink.h>
#include <net/ipv6.h>
#include "core/addr.h"
#include "kt_util.h"

/* RFC 6052 2.4, Table 1: 192.0.2.33 under each prefix length. */
static const struct {
	const char *prefix;
	u8 len;
	const char *embedded;
} rfc6052_examples[] = {
	{ "2001:db8::", 32, "2001:db8:c000:221::" },
	{ "2001:db8:100::", 40, "2001:db8:1c0:2:21::" },
	{ "2001:db8:122::", 48, "2001:db8:122:c000:2:2100::" },
	{ "2001:db8:122:300::", 56, "2001:db8:122:3c0:0:221::" },
	{ "2001:db8:122:344::", 64, "2001:db8:122:344:c0:2:2100:0" },
	{ "2001:db8:122:344::", 96, "2001:db8:122:344::c000:221" },
	{ "64:ff9b::", 96, "64:ff9b::c000:221" },
};

static void rfc6052_examples_4to6(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(rfc6052_examples); i++) {
		struct tern_prefix6 p = {
			.addr = tern_kt_a6(test, rfc6052_examples[i].prefix),
			.len = rfc6052_examples[i].len,
		};
		struct in6_addr want = tern_kt_a6(test, rfc6052_examples[i].embedded);
		struct in6_addr got;

		tern_rfc6052_4to6(&p, tern_kt_a4(test, "192.0.2.33"), &got);
		KUNIT_EXPECT_TRUE_MSG(test, ipv6_addr_equal(&got, &want),
				      "prefix /%u: got %pI6c, want %pI6c",
				      p.len, &got, &want);
	}
}

static void rfc6052_examples_6to4(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(rfc6052_examples); i++) {
		struct tern_prefix6 p = {
			.addr = tern_kt_a6(test, rfc6052_examples[i].prefix),
			.len = rfc6052_examples[i].len,
		};
		struct in6_addr in = tern_kt_a6(test, rfc6052_examples[i].embedded);
		__be32 got = 0;

		KUNIT_EXPECT_TRUE(test, tern_rfc6052_6to4(&p, &in, &got));
		KUNIT_EXPECT_EQ_MSG(test, ntohl(got), 0xc0000221U,
				    "prefix /%u", p.len);
	}
}

static void rfc6052_outside_prefix(struct kunit *test)
{
	/* One bit off in each of the prefix's three words, first and last. */
	static const char * const outside[] = {
		"3001:db8:64::c000:221", "2001:db8:64:0:1::c000:221",
		"2001:db8:65::c000:221", "2001:db8:64:0:0:1:c000:221",
		"2001:db9:64::c000:221",
	};
	struct tern_prefix6 p = { .addr = tern_kt_a6(test, "2001:db8:64::"), .len = 96 };
	int i;

	for (i = 0; i < ARRAY_SIZE(outside); i++) {
		struct in6_addr out = tern_kt_a6(test, outside[i]);
		__be32 got = htonl(0x01020304);

		KUNIT_EXPECT_FALSE_MSG(test, tern_rfc6052_6to4(&p, &out, &got),
				       "%s", outside[i]);
		KUNIT_EXPECT_EQ(test, ntohl(got), 0x01020304U);
	}
}

static void rfc6052_roundtrip_all_lengths(struct kunit *test)
{
	static const u8 lens[] = { 32, 40, 48, 56, 64, 96 };
	int i, n;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		struct tern_prefix6 p = { .addr = tern_kt_a6(test, "2001:db8::"), .len = lens[i] };

		for (n = 0; n < 200; n++) {
			__be32 v4 = (__force __be32)get_random_u32(), back = 0;
			struct in6_addr v6;

			tern_rfc6052_4to6(&p, v4, &v6);
			KUNIT_EXPECT_EQ(test, v6.s6_addr[8], 0);	/* u-octet */
			KUNIT_EXPECT_TRUE(test, tern_rfc6052_6to4(&p, &v6, &back));
			KUNIT_EXPECT_EQ(test, back, v4);
		}
	}
}

static void prefix6_validation(struct kunit *test)
{
	static const struct {
		const char *addr;
		u8 len;
		int ret;
	} cases[] = {
		{ "64:ff9b::", 96, 0 },
		{ "2001:db8::", 32, 0 },
		{ "2001:db8:100::", 40, 0 },
		{ "2001:db8:122::", 48, 0 },
		{ "2001:db8:122:300::", 56, 0 },
		{ "2001:db8:122:344::", 64, 0 },
		{ "64:ff9b::", 95, -EINVAL },		/* length */
		{ "64:ff9b::", 128, -EINVAL },
		{ "2001:db8::", 0, -EINVAL },
		{ "2001:db8::1:0", 96, -EINVAL },	/* bits past the length */
		{ "2001:db8:0:0:100::", 96, -EINVAL },	/* u-octet */
		{ "ff0e::", 96, -EINVAL },		/* multicast */
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct tern_prefix6 p = { .addr = tern_kt_a6(test, cases[i].addr),
					  .len = cases[i].len };

		KUNIT_EXPECT_EQ_MSG(test, tern_prefix6_validate_rfc6052(&p, NULL),
				    cases[i].ret, "%s/%u", cases[i].addr, cases[i].len);
	}
}

static void wkp_detection(struct kunit *test)
{
	struct tern_prefix6 wkp = { .addr = tern_kt_a6(test, "64:ff9b::"), .len = 96 };
	struct tern_prefix6 local = { .addr = tern_kt_a6(test, "64:ff9b:1::"), .len = 48 };
	struct tern_prefix6 nsp = { .addr = tern_kt_a6(test, "2001:db8::"), .len = 96 };

	KUNIT_EXPECT_TRUE(test, tern_prefix6_is_wkp(&wkp));
	KUNIT_EXPECT_FALSE(test, tern_prefix6_is_wkp(&local));
	KUNIT_EXPECT_FALSE(test, tern_prefix6_is_wkp(&nsp));
}

static void addr4_ranges(struct kunit *test)
{
	static const struct {
		const char *addr;
		bool never;
		bool nonglobal;
	} cases[] = {
		{ "0.1.2.3", true, true },
		{ "10.0.0.1", false, true },
		{ "100.64.0.1", false, true },
		{ "100.128.0.1", false, false },
		{ "127.0.0.1", true, true },
		{ "169.254.1.1", true, true },
		{ "172.16.0.1", false, true },
		{ "172.32.0.1", false, false },
		{ "192.0.0.1", false, true },
		{ "192.0.0.9", false, false },		/* PCP anycast: global */
		{ "192.0.0.10", false, false },		/* TURN anycast: global */
		{ "192.0.2.1", false, true },
		{ "192.168.1.1", false, true },
		{ "198.18.0.1", false, true },
		{ "198.19.255.255", false, true },
		{ "198.20.0.1", false, false },
		{ "198.51.100.1", false, true },
		{ "203.0.113.1", false, true },
		{ "8.8.8.8", false, false },
		{ "224.0.0.1", true, true },
		{ "240.0.0.1", true, true },
		{ "255.255.255.255", true, true },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		__be32 a = tern_kt_a4(test, cases[i].addr);

		KUNIT_EXPECT_EQ_MSG(test, tern_addr4_never_translated(a),
				    cases[i].never, "%s", cases[i].addr);
		KUNIT_EXPECT_EQ_MSG(test, tern_addr4_is_nonglobal(a),
				    cases[i].nonglobal, "%s", cases[i].addr);
	}
}

static struct kunit_case tern_addr_cases[] = {
	KUNIT_CASE(rfc6052_examples_4to6),
	KUNIT_CASE(rfc6052_examples_6to4),
	KUNIT_CASE(rfc6052_outside_prefix),
	KUNIT_CASE(rfc6052_roundtrip_all_lengths),
	KUNIT_CASE(prefix6_validation),
	KUNIT_CASE(wkp_detection),
	KUNIT_CASE(addr4_ranges),
	{}
};

static struct kunit_suite tern_addr_suite = {
	.name = "tern_addr",
	.test_cases = tern_addr_cases,
};

kunit_test_suite(tern_addr_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: EAMT (RFC 7757) lookups and translations: the RFC's example table,
 * entry validation, suffixes of every length, longest prefix match.
 */

#include <kunit/test.h>
#include <linux/random.h>
#include <net/ipv6.h>
#include "kt_eamt.h"

struct addr_pair {
	const char *s6, *s4;
};

/* tern_kt_both_ways() on each of @n pairs. */
static void both_ways_each(struct kunit *test, const struct tern_eamt *t,
			   const struct addr_pair *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		tern_kt_both_ways(test, t, v[i].s6, v[i].s4);
}

static void rfc7757_examples(struct kunit *test)
{
	struct tern_eamt *t = tern_kt_rfc7757_table(test);
	static const struct addr_pair both[] = {
		{ "2001:db8:aaaa::", "192.0.2.1" },
		{ "2001:db8:bbbb::b", "192.0.2.2" },
		{ "2001:db8:cccc::", "192.0.2.16" },
		{ "2001:db8:cccc::1", "192.0.2.17" },
		{ "2001:db8:cccc::8", "192.0.2.24" },
		{ "2001:db8:cccc::f", "192.0.2.31" },
		{ "64:ff9b::", "192.0.2.192" },
		{ "64:ff9b::1", "192.0.2.193" },
	};
	static const char *const miss6[] = {
		"2001:db8:aaaa::1", "2001:db8:bbbb::a", "2001:db8:cccc::10",
		"64:ff9b::2", "2001:db8:dddd::1", "::",
	};
	static const char *const miss4[] = {
		"192.0.2.0", "192.0.2.3", "192.0.2.15", "192.0.2.32",
		"192.0.2.191", "192.0.2.194", "192.0.2.152",
	};
	int i;

	KUNIT_EXPECT_EQ(test, tern_eamt_count(t), 4U);
	both_ways_each(test, t, both, ARRAY_SIZE(both));
	for (i = 0; i < ARRAY_SIZE(miss6); i++) {
		struct in6_addr a = tern_kt_a6(test, miss6[i]);

		KUNIT_EXPECT_NULL_MSG(test, tern_eamt_find6(t, &a), "%s",
				      miss6[i]);
	}
	for (i = 0; i < ARRAY_SIZE(miss4); i++)
		KUNIT_EXPECT_NULL_MSG(test, tern_eamt_find4(t, tern_kt_a4(test, miss4[i])),
				      "%s", miss4[i]);
	/* Entries come out in IPv4 order. */
	KUNIT_EXPECT_EQ(test, ntohl(tern_eamt_entry(t, 0)->p4.addr), 0xc0000201U);
	KUNIT_EXPECT_EQ(test, ntohl(tern_eamt_entry(t, 3)->p4.addr), 0xc00002c0U);
	KUNIT_EXPECT_NULL(test, tern_eamt_entry(t, 4));
	tern_eamt_free(t);
}

static void validation(struct kunit *test)
{
	struct {
		struct tern_eam e;
		int ret;
	} cases[] = {
		/* IPv6 suffix longer than the IPv4 one: fine (RFC 7757 3.2). */
		{ tern_kt_eam(test, "2001:db8:dddd::", 64, "192.0.2.128", 26), 0 },
		{ tern_kt_eam(test, "2001:db8::", 120, "192.0.2.0", 25), 0 },
		{ tern_kt_eam(test, "2001:db8:1c6:3364::", 72, "198.51.100.0", 24), 0 },
		{ tern_kt_eam(test, "::", 0, "0.0.0.0", 0), 0 },
		{ tern_kt_eam(test, "2001:db8:1c6:3364:1::", 72, "198.51.100.0", 24), -EINVAL },
		/* Shorter: IPv4 suffix bits would be lost. */
		{ tern_kt_eam(test, "2001:db8::", 121, "192.0.2.0", 24), -EINVAL },
		{ tern_kt_eam(test, "2001:db8::1", 128, "192.0.2.0", 31), -EINVAL },
		{ tern_kt_eam(test, "2001:db8::", 97, "0.0.0.0", 0), -EINVAL },
		{ tern_kt_eam(test, "2001:db8::", 96, "0.0.0.0", 0), 0 },
		{ tern_kt_eam(test, "2001:db8::1", 120, "192.0.2.0", 24), -EINVAL },
		{ tern_kt_eam(test, "2001:db8::100", 120, "192.0.2.0", 24), 0 },
		{ tern_kt_eam(test, "2001:db8::", 120, "192.0.2.1", 24), -EINVAL },
		{ tern_kt_eam(test, "2001:db8::1", 128, "192.0.2.1", 32), 0 },
		{ tern_kt_eam(test, "2001:db8::", 97, "128.0.0.0", 1), 0 },
		{ tern_kt_eam(test, "2001:db8::", 97, "64.0.0.0", 1), -EINVAL },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, tern_eam_validate(&cases[i].e, NULL),
				    cases[i].ret, "case %d", i);
}

/*
 * RFC 7757 Appendix A's entry whose IPv6 suffix is longer than the IPv4
 * one, 192.0.2.128/26 - 2001:db8:dddd::/64, with the others: the 6 suffix
 * bits sit right after the IPv6 prefix (bits 64-69); the IPv6 bits after
 * them are zero 4 -> 6 and ignored 6 -> 4. And the /72 - /24 example.
 */
static void longer_ipv6_suffix(struct kunit *test)
{
	struct tern_eamt *t = tern_kt_rfc7757_table(test);
	struct tern_eam dddd = tern_kt_eam(test, "2001:db8:dddd::", 64, "192.0.2.128", 26);
	struct tern_eam x72 = tern_kt_eam(test, "2001:db8:1c6:3364::", 72,
					  "198.51.100.0", 24);
	static const struct addr_pair both[] = {
		{ "2001:db8:dddd::", "192.0.2.128" },
		{ "2001:db8:dddd:0:400::", "192.0.2.129" },
		{ "2001:db8:dddd:0:800::", "192.0.2.130" },
		{ "2001:db8:dddd:0:8000::", "192.0.2.160" },
		{ "2001:db8:dddd:0:fc00::", "192.0.2.191" },
		{ "2001:db8:1c6:3364::", "198.51.100.0" },
		{ "2001:db8:1c6:3364:5::", "198.51.100.5" },
		{ "2001:db8:1c6:3364:ff::", "198.51.100.255" },
		/* The other entries are unchanged. */
		{ "2001:db8:cccc::f", "192.0.2.31" },
		{ "64:ff9b::1", "192.0.2.193" },
	}, one_way[] = {
		{ "2001:db8:dddd::1", "192.0.2.128" },
		{ "2001:db8:dddd:0:3ff:ffff:ffff:ffff", "192.0.2.128" },
		{ "2001:db8:dddd:0:fc00::1", "192.0.2.191" },
		{ "2001:db8:dddd:0:ffff:ffff:ffff:ffff", "192.0.2.191" },
		{ "2001:db8:dddd:0:8ab::", "192.0.2.130" },
		{ "2001:db8:1c6:3364:ff:ffff:ffff:ffff", "198.51.100.255" },
		{ "2001:db8:1c6:3364:42:1::", "198.51.100.66" },
	};
	int i;

	tern_kt_add_eam(test, &t, &dddd);
	tern_kt_add_eam(test, &t, &x72);
	KUNIT_EXPECT_EQ(test, tern_eamt_count(t), 6U);
	both_ways_each(test, t, both, ARRAY_SIZE(both));
	for (i = 0; i < ARRAY_SIZE(one_way); i++) {
		struct in6_addr in6 = tern_kt_a6(test, one_way[i].s6);
		const struct tern_eam *e = tern_eamt_find6(t, &in6);
		__be32 out4 = 0;

		KUNIT_ASSERT_NOT_NULL_MSG(test, e, "%s", one_way[i].s6);
		tern_eam_6to4(e, &in6, &out4);
		KUNIT_EXPECT_EQ_MSG(test, out4, tern_kt_a4(test, one_way[i].s4),
				    "%s -> %pI4", one_way[i].s6, &out4);
	}
	tern_eamt_free(t);
}

/*
 * Every split of the suffixes: each IPv4 suffix bit lands right after the
 * IPv6 prefix, at every IPv6 prefix length that leaves room, and back.
 */
static void suffix_bits_every_length(struct kunit *test)
{
	int l4, l6, b;

	for (l4 = 0; l4 <= 32; l4++) {
		for (l6 = 0; l6 <= 96 + l4; l6++) {
			struct tern_eam e = { .p6 = { .len = l6 },
					      .p4 = { .len = l4 } };
			unsigned int n = 32 - l4;

			KUNIT_ASSERT_EQ(test, tern_eam_validate(&e, NULL), 0);
			for (b = 0; b < n; b++) {
				__be32 in4 = htonl(1U << (n - 1 - b)), out4;
				struct in6_addr out6, want = { };

				tern_eam_4to6(&e, in4, &out6);
				want.s6_addr[(l6 + b) / 8] = 0x80 >> ((l6 + b) % 8);
				KUNIT_EXPECT_TRUE_MSG(test, ipv6_addr_equal(&out6, &want),
						      "/%d /%d bit %d: %pI6c", l4, l6,
						      b, &out6);
				tern_eam_6to4(&e, &out6, &out4);
				KUNIT_EXPECT_EQ(test, out4, in4);
			}
		}
		/* One IPv6 bit fewer than the IPv4 suffix: refused. */
		if (l4 < 32) {
			struct tern_eam bad = { .p6 = { .len = 97 + l4 },
						.p4 = { .len = l4 } };

			KUNIT_EXPECT_EQ(test, tern_eam_validate(&bad, NULL),
					-EINVAL);
		}
	}
}

/*
 * Entries of every length: IPv4 [2^k, 2^(k+1)) is a /(32-k) prefix, all
 * disjoint, mapped to 2001:db8:0:k::/(128-k). Added in a shuffled order.
 */
static struct tern_eam ladder(int k)
{
	struct tern_eam e = {
		.p6 = { .len = 128 - k },
		.p4 = { .addr = htonl(1U << k), .len = 32 - k },
	};

	e.p6.addr.s6_addr32[0] = htonl(0x20010db8);
	e.p6.addr.s6_addr32[1] = htonl(k);
	return e;
}

static void lpm_every_length(struct kunit *test)
{
	struct tern_eamt *t = NULL;
	int order[32], i, k, j;

	for (i = 0; i < 32; i++)
		order[i] = i;
	for (i = 31; i > 0; i--) {
		j = get_random_u32() % (i + 1);
		swap(order[i], order[j]);
	}
	for (i = 0; i < 32; i++) {
		struct tern_eam e = ladder(order[i]);

		tern_kt_add_eam(test, &t, &e);
	}
	KUNIT_ASSERT_EQ(test, tern_eamt_count(t), 32U);

	for (k = 0; k < 32; k++) {
		u32 lo = 1U << k, span = lo, offs[] = { 0, span - 1, span / 2,
			get_random_u32() % span };
		struct tern_eam want = ladder(k);

		for (i = 0; i < ARRAY_SIZE(offs); i++) {
			__be32 in4 = htonl(lo + offs[i]), out4;
			const struct tern_eam *e = tern_eamt_find4(t, in4);
			struct in6_addr in6 = want.p6.addr;

			KUNIT_ASSERT_NOT_NULL_MSG(test, e, "%pI4", &in4);
			KUNIT_EXPECT_EQ(test, e->p4.len, 32 - k);
			in6.s6_addr32[3] = htonl(offs[i]);
			e = tern_eamt_find6(t, &in6);
			KUNIT_ASSERT_NOT_NULL_MSG(test, e, "%pI6c", &in6);
			tern_eam_6to4(e, &in6, &out4);
			KUNIT_EXPECT_EQ_MSG(test, out4, in4, "%pI6c", &in6);
		}
	}
	KUNIT_EXPECT_NULL(test, tern_eamt_find4(t, 0));
	tern_eamt_free(t);
}

static void suffix_kept(struct kunit *test)
{
	struct tern_eam e = tern_kt_eam(test, "2001:db8:6::", 120, "198.51.100.0", 24);
	struct tern_eamt *t = NULL;
	int i;

	tern_kt_add_eam(test, &t, &e);
	for (i = 0; i < 256; i++) {
		struct in6_addr in6 = e.p6.addr, out6;
		__be32 in4 = htonl(0xc6336400 | i), out4;

		in6.s6_addr[15] = i;
		tern_eam_6to4(tern_eamt_find6(t, &in6), &in6, &out4);
		KUNIT_EXPECT_EQ(test, out4, in4);
		tern_eam_4to6(tern_eamt_find4(t, in4), in4, &out6);
		KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&out6, &in6));
	}
	tern_eamt_free(t);
}

static struct kunit_case tern_eamt_cases[] = {
	KUNIT_CASE(rfc7757_examples),
	KUNIT_CASE(validation),
	KUNIT_CASE(lpm_every_length),
	KUNIT_CASE(suffix_kept),
	KUNIT_CASE(longer_ipv6_suffix),
	KUNIT_CASE(suffix_bits_every_length),
	{}
};

static struct kunit_suite tern_eamt_suite = {
	.name = "tern_eamt",
	.test_cases = tern_eamt_cases,
};

kunit_test_suite(tern_eamt_suite);

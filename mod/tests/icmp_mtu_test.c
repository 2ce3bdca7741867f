// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the MTU of translated Packet Too Big / Fragmentation Needed
 * messages (RFC 7915 4.2, 5.2): the three terms, the RFC 1191 plateaus.
 */

#include <kunit/test.h>
#include "xlat/icmp.h"

static const u16 rfc1191[] = {
	65535, 32000, 17914, 8166, 4352, 2002, 1492, 1006, 508, 296, 68
};

/* A case of tern_icmp_mtu_4to6(): with the RFC 1191 plateaus or none. */
struct mtu_case {
	bool no_plateaus;
	u32 mtu4, tot_len, mtu6_out, mtu4_in, want;
};

static void mtu_4to6_cases(struct kunit *test, const struct mtu_case *c,
			   int n)
{
	int i;

	for (i = 0; i < n; i++) {
		const u16 *pl = c[i].no_plateaus ? NULL : rfc1191;
		unsigned int npl = pl ? ARRAY_SIZE(rfc1191) : 0;

		KUNIT_EXPECT_EQ_MSG(test, tern_icmp_mtu_4to6(pl, npl, c[i].mtu4,
							     c[i].tot_len,
							     c[i].mtu6_out,
							     c[i].mtu4_in),
				    c[i].want, "case %d", i);
	}
}

/* Advertised MTU: min() of the three terms, each one the smallest once. */
static void mtu_4to6_min_of_three(struct kunit *test)
{
	static const struct mtu_case cases[] = {
		/* advertised + 20 smallest */
		{ false, 1400, 1500, 9000, 9000, 1420 },
		/* IPv6 next hop smallest */
		{ false, 1480, 1500, 1400, 9000, 1400 },
		/* IPv4 interface + 20 smallest */
		{ false, 1480, 1500, 9000, 1300, 1320 },
		/* Equal terms */
		{ false, 1480, 1500, 1500, 1480, 1500 },
		/* Below 1280: clamped */
		{ false, 576, 1500, 9000, 9000, 1280 },
		{ false, 68, 1500, 9000, 9000, 1280 },
		{ false, 1400, 1500, 1000, 9000, 1280 },
		{ false, 1400, 1500, 9000, 576, 1280 },
		/* Exactly 1260 + 20 */
		{ false, 1260, 1500, 9000, 9000, 1280 },
		{ false, 1261, 1500, 9000, 9000, 1281 },
		/* Jumbo */
		{ false, 65535, 65535, 65575, 65535, 65555 },
		/* A non-zero MTU ignores the plateaus and the Total Length. */
		{ false, 1300, 20, 9000, 9000, 1320 },
		{ true, 1300, 0, 9000, 9000, 1320 },
	};

	mtu_4to6_cases(test, cases, ARRAY_SIZE(cases));
}

/* MTU 0 (pre-RFC 1191 router): the greatest plateau below Total Length. */
static void mtu_4to6_plateaus(struct kunit *test)
{
	static const struct mtu_case cases[] = {
		{ false, 0, 1500, 9000, 9000, 1512 },
		{ false, 0, 1493, 9000, 9000, 1512 },
		{ false, 0, 2002, 9000, 9000, 1512 },
		{ false, 0, 2003, 9000, 9000, 2022 },
		{ false, 0, 4400, 9000, 9000, 4372 },
		{ false, 0, 9000, 9000, 9000, 8186 },
		{ false, 0, 65535, 65575, 65535, 32020 },
		/* The plateau term is still limited by the two others. */
		{ false, 0, 9000, 1500, 9000, 1500 },
		{ false, 0, 9000, 9000, 1400, 1420 },
		/* No plateau of at least 1280 below the Total Length: 1280. */
		{ false, 0, 1492, 9000, 9000, 1280 },
		{ false, 0, 1400, 9000, 9000, 1280 },
		{ false, 0, 1200, 9000, 9000, 1280 },
		{ false, 0, 576, 9000, 9000, 1280 },
		{ false, 0, 68, 9000, 9000, 1280 },
		{ false, 0, 20, 9000, 9000, 1280 },
		{ false, 0, 0, 9000, 9000, 1280 },
		{ true, 0, 1500, 9000, 9000, 1280 },
	};

	mtu_4to6_cases(test, cases, ARRAY_SIZE(cases));
}

/*
 * Custom plateaus (any value 68..65535), at each Total Length where the
 * answer changes, derived from RFC 7915 4.2 by hand: the greatest plateau
 * below the Total Length that is at least 1280 (9000, 1500, 1400 here;
 * 1270 and 1262 are not, though 20 more would be), plus 20; none: 1280.
 */
static void mtu_4to6_custom_plateaus(struct kunit *test)
{
	static const u16 pl[] = { 9000, 1500, 1400, 1270, 1262, 1000 };
	static const struct { u32 tot_len, want; } cases[] = {
		{ 0, 1280 }, { 1001, 1280 }, { 1263, 1280 }, { 1271, 1280 },
		{ 1280, 1280 }, { 1400, 1280 }, { 1401, 1420 }, { 1500, 1420 },
		{ 1501, 1520 }, { 9000, 1520 }, { 9001, 9020 }, { 10000, 9020 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, tern_icmp_mtu_4to6(pl, ARRAY_SIZE(pl),
							     0, cases[i].tot_len,
							     9100, 9100),
				    cases[i].want, "Total Length %u",
				    cases[i].tot_len);
}

/* The packet in error had no Fragment header. */
static u32 mtu64(u32 mtu6, u32 mtu4_out, u32 mtu6_in)
{
	return tern_icmp_mtu_6to4(mtu6, mtu4_out, mtu6_in, false);
}

/* RFC 7915 5.2: min(advertised - 20, IPv4 next hop, IPv6 interface - 20). */
static void mtu_6to4(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mtu64(1280, 1500, 1500), 1260U);
	KUNIT_EXPECT_EQ(test, mtu64(1500, 1400, 1500), 1400U);
	KUNIT_EXPECT_EQ(test, mtu64(1500, 1500, 1400), 1380U);
	KUNIT_EXPECT_EQ(test, mtu64(1500, 1500, 1500), 1480U);
	KUNIT_EXPECT_EQ(test, mtu64(9000, 9000, 9000), 8980U);
	/*
	 * An advertised MTU below the IPv6 minimum (0 included) counts as
	 * 1280 (RFC 8200 5, RFC 8201 4): 1260, never 68 or less.
	 */
	KUNIT_EXPECT_EQ(test, mtu64(0, 1500, 1500), 1260U);
	KUNIT_EXPECT_EQ(test, mtu64(20, 1500, 1500), 1260U);
	KUNIT_EXPECT_EQ(test, mtu64(88, 1500, 1500), 1260U);
	KUNIT_EXPECT_EQ(test, mtu64(1000, 1500, 1500), 1260U);
	KUNIT_EXPECT_EQ(test, mtu64(1279, 1500, 1500), 1260U);
	KUNIT_EXPECT_EQ(test, mtu64(1281, 1500, 1500), 1261U);
	/* ... and still the smaller IPv4 next hop or IPv6 interface. */
	KUNIT_EXPECT_EQ(test, mtu64(0, 1000, 1500), 1000U);
	KUNIT_EXPECT_EQ(test, mtu64(1000, 576, 1500), 576U);
	/* Clamped to 68 and to the 16-bit field. */
	KUNIT_EXPECT_EQ(test, mtu64(1500, 0, 1500), 68U);
	KUNIT_EXPECT_EQ(test, mtu64(1500, 1500, 10), 68U);
	KUNIT_EXPECT_EQ(test, mtu64(U32_MAX, U32_MAX, U32_MAX), 65535U);
	KUNIT_EXPECT_EQ(test, mtu64(70000, 70000, 70000), 65535U);
	KUNIT_EXPECT_EQ(test, mtu64(65555, 65536, 65575), 65535U);
}

/*
 * The packet in error had a Fragment header (an IPv4 fragment translated:
 * 48 bytes of headers for 20): 28 less, where the formula subtracts 20.
 */
static void mtu_6to4_fragment(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, tern_icmp_mtu_6to4(1400, 1500, 1500, true), 1372U);
	KUNIT_EXPECT_EQ(test, tern_icmp_mtu_6to4(1500, 1500, 1400, true), 1372U);
	KUNIT_EXPECT_EQ(test, tern_icmp_mtu_6to4(1500, 1300, 1500, true), 1300U);
	KUNIT_EXPECT_EQ(test, tern_icmp_mtu_6to4(0, 1500, 1500, true), 1252U);
	KUNIT_EXPECT_EQ(test, tern_icmp_mtu_6to4(1500, 1500, 28, true), 68U);
}

static struct kunit_case tern_icmp_mtu_cases[] = {
	KUNIT_CASE(mtu_4to6_min_of_three),
	KUNIT_CASE(mtu_4to6_plateaus),
	KUNIT_CASE(mtu_4to6_custom_plateaus),
	KUNIT_CASE(mtu_6to4),
	KUNIT_CASE(mtu_6to4_fragment),
	{}
};

static struct kunit_suite tern_icmp_mtu_suite = {
	.name = "tern_icmp_mtu",
	.test_cases = tern_icmp_mtu_cases,
};

kunit_test_suite(tern_icmp_mtu_suite);

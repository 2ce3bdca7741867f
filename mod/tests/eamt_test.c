// SPDX-License-Identifier: GPL-2.0
/* KUnit: the EAMT (RFC 7757), denylist4 and the mapping policy over them. */

#include <kunit/test.h>
#include <linux/inet.h>
#include <linux/netlink.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include "siit/denylist4.h"
#include "siit/eamt.h"
#include "siit/mapping.h"
#include "siit/prefix.h"

static struct in6_addr a6(struct kunit *test, const char *s)
{
	struct in6_addr a;

	KUNIT_ASSERT_EQ(test, in6_pton(s, -1, a.s6_addr, -1, NULL), 1);
	return a;
}

static __be32 a4(struct kunit *test, const char *s)
{
	__be32 a;

	KUNIT_ASSERT_EQ(test, in4_pton(s, -1, (u8 *)&a, -1, NULL), 1);
	return a;
}

static struct tern_eam eam(struct kunit *test, const char *p6, u8 len6,
			   const char *p4, u8 len4)
{
	struct tern_eam e = {
		.p6 = { .addr = a6(test, p6), .len = len6 },
		.p4 = { .addr = a4(test, p4), .len = len4 },
	};

	return e;
}

/* Adds @e to *@t (replacing it) and expects success. */
static void add_ok(struct kunit *test, struct tern_eamt **t,
		   const struct tern_eam *e)
{
	const struct tern_eam *c;
	struct tern_eamt *n;
	bool c4;

	KUNIT_ASSERT_EQ(test, tern_eam_validate(e, NULL), 0);
	n = tern_eamt_add(*t, e, &c, &c4);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_OR_NULL(n), "adding %pI6c/%u %pI4/%u",
			       &e->p6.addr, e->p6.len, &e->p4.addr, e->p4.len);
	tern_eamt_free(*t);
	*t = n;
}

/* Both ways through the table: @s6 <-> @s4, by the same entry. */
static void both_ways(struct kunit *test, const struct tern_eamt *t,
		      const char *s6, const char *s4)
{
	struct in6_addr in6 = a6(test, s6), out6;
	__be32 in4 = a4(test, s4), out4 = 0;
	const struct tern_eam *e6 = tern_eamt_find6(t, &in6);
	const struct tern_eam *e4 = tern_eamt_find4(t, in4);

	KUNIT_ASSERT_NOT_NULL_MSG(test, e6, "%s", s6);
	KUNIT_ASSERT_NOT_NULL_MSG(test, e4, "%s", s4);
	KUNIT_EXPECT_PTR_EQ_MSG(test, e6, e4, "%s / %s", s6, s4);
	tern_eam_6to4(e6, &in6, &out4);
	KUNIT_EXPECT_EQ_MSG(test, out4, in4, "%s -> %pI4, want %s", s6, &out4,
			    s4);
	tern_eam_4to6(e4, in4, &out6);
	KUNIT_EXPECT_TRUE_MSG(test, ipv6_addr_equal(&out6, &in6),
			      "%s -> %pI6c, want %s", s4, &out6, s6);
}

/*
 * The example EAMT of RFC 7757 (Appendix A), less its entry whose suffix
 * lengths differ (192.0.2.128/26 - 2001:db8:dddd::/64: longer_ipv6_suffix).
 */
static struct tern_eamt *rfc7757_table(struct kunit *test)
{
	struct tern_eam v[] = {
		eam(test, "2001:db8:aaaa::", 128, "192.0.2.1", 32),
		eam(test, "2001:db8:bbbb::b", 128, "192.0.2.2", 32),
		eam(test, "2001:db8:cccc::", 124, "192.0.2.16", 28),
		eam(test, "64:ff9b::", 127, "192.0.2.192", 31),
	};
	struct tern_eamt *t = NULL;
	int i;

	for (i = 0; i < ARRAY_SIZE(v); i++)
		add_ok(test, &t, &v[i]);
	return t;
}

static void rfc7757_examples(struct kunit *test)
{
	struct tern_eamt *t = rfc7757_table(test);
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
	both_ways(test, t, "2001:db8:aaaa::", "192.0.2.1");
	both_ways(test, t, "2001:db8:bbbb::b", "192.0.2.2");
	both_ways(test, t, "2001:db8:cccc::", "192.0.2.16");
	both_ways(test, t, "2001:db8:cccc::1", "192.0.2.17");
	both_ways(test, t, "2001:db8:cccc::8", "192.0.2.24");
	both_ways(test, t, "2001:db8:cccc::f", "192.0.2.31");
	both_ways(test, t, "64:ff9b::", "192.0.2.192");
	both_ways(test, t, "64:ff9b::1", "192.0.2.193");
	for (i = 0; i < ARRAY_SIZE(miss6); i++) {
		struct in6_addr a = a6(test, miss6[i]);

		KUNIT_EXPECT_NULL_MSG(test, tern_eamt_find6(t, &a), "%s",
				      miss6[i]);
	}
	for (i = 0; i < ARRAY_SIZE(miss4); i++)
		KUNIT_EXPECT_NULL_MSG(test, tern_eamt_find4(t, a4(test, miss4[i])),
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
		{ eam(test, "2001:db8:dddd::", 64, "192.0.2.128", 26), 0 },
		{ eam(test, "2001:db8::", 120, "192.0.2.0", 25), 0 },
		{ eam(test, "2001:db8:1c6:3364::", 72, "198.51.100.0", 24), 0 },
		{ eam(test, "::", 0, "0.0.0.0", 0), 0 },
		{ eam(test, "2001:db8:1c6:3364:1::", 72, "198.51.100.0", 24), -EINVAL },
		/* Shorter: IPv4 suffix bits would be lost. */
		{ eam(test, "2001:db8::", 121, "192.0.2.0", 24), -EINVAL },
		{ eam(test, "2001:db8::1", 128, "192.0.2.0", 31), -EINVAL },
		{ eam(test, "2001:db8::", 97, "0.0.0.0", 0), -EINVAL },
		{ eam(test, "2001:db8::", 96, "0.0.0.0", 0), 0 },
		{ eam(test, "2001:db8::1", 120, "192.0.2.0", 24), -EINVAL },
		{ eam(test, "2001:db8::100", 120, "192.0.2.0", 24), 0 },
		{ eam(test, "2001:db8::", 120, "192.0.2.1", 24), -EINVAL },
		{ eam(test, "2001:db8::1", 128, "192.0.2.1", 32), 0 },
		{ eam(test, "2001:db8::", 97, "128.0.0.0", 1), 0 },
		{ eam(test, "2001:db8::", 97, "64.0.0.0", 1), -EINVAL },
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
	struct tern_eamt *t = rfc7757_table(test);
	struct tern_eam dddd = eam(test, "2001:db8:dddd::", 64, "192.0.2.128", 26);
	struct tern_eam x72 = eam(test, "2001:db8:1c6:3364::", 72,
				  "198.51.100.0", 24);
	static const struct {
		const char *s6, *s4;
	} one_way[] = {
		{ "2001:db8:dddd::1", "192.0.2.128" },
		{ "2001:db8:dddd:0:3ff:ffff:ffff:ffff", "192.0.2.128" },
		{ "2001:db8:dddd:0:fc00::1", "192.0.2.191" },
		{ "2001:db8:dddd:0:ffff:ffff:ffff:ffff", "192.0.2.191" },
		{ "2001:db8:dddd:0:8ab::", "192.0.2.130" },
		{ "2001:db8:1c6:3364:ff:ffff:ffff:ffff", "198.51.100.255" },
		{ "2001:db8:1c6:3364:42:1::", "198.51.100.66" },
	};
	int i;

	add_ok(test, &t, &dddd);
	add_ok(test, &t, &x72);
	KUNIT_EXPECT_EQ(test, tern_eamt_count(t), 6U);
	both_ways(test, t, "2001:db8:dddd::", "192.0.2.128");
	both_ways(test, t, "2001:db8:dddd:0:400::", "192.0.2.129");
	both_ways(test, t, "2001:db8:dddd:0:800::", "192.0.2.130");
	both_ways(test, t, "2001:db8:dddd:0:8000::", "192.0.2.160");
	both_ways(test, t, "2001:db8:dddd:0:fc00::", "192.0.2.191");
	both_ways(test, t, "2001:db8:1c6:3364::", "198.51.100.0");
	both_ways(test, t, "2001:db8:1c6:3364:5::", "198.51.100.5");
	both_ways(test, t, "2001:db8:1c6:3364:ff::", "198.51.100.255");
	/* The other entries are unchanged. */
	both_ways(test, t, "2001:db8:cccc::f", "192.0.2.31");
	both_ways(test, t, "64:ff9b::1", "192.0.2.193");
	for (i = 0; i < ARRAY_SIZE(one_way); i++) {
		struct in6_addr in6 = a6(test, one_way[i].s6);
		const struct tern_eam *e = tern_eamt_find6(t, &in6);
		__be32 out4 = 0;

		KUNIT_ASSERT_NOT_NULL_MSG(test, e, "%s", one_way[i].s6);
		tern_eam_6to4(e, &in6, &out4);
		KUNIT_EXPECT_EQ_MSG(test, out4, a4(test, one_way[i].s4),
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

		add_ok(test, &t, &e);
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
	struct tern_eam e = eam(test, "2001:db8:6::", 120, "198.51.100.0", 24);
	struct tern_eamt *t = NULL;
	int i;

	add_ok(test, &t, &e);
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

static void overlap_refused(struct kunit *test)
{
	struct tern_eam base = eam(test, "2001:db8:6::", 120, "198.51.100.0", 24);
	struct tern_eam other = eam(test, "2001:db8:7::", 120, "192.0.2.0", 24);
	struct {
		struct tern_eam e;
		const struct tern_eam *with;	/* the entry it hits */
		bool v4;
	} cases[] = {
		/* Nested inside, around, equal, on either side. */
		{ eam(test, "2001:db8:8::", 124, "198.51.100.16", 28), &base, true },
		{ eam(test, "2001:db8:8::", 112, "198.51.0.0", 16), &base, true },
		{ eam(test, "2001:db8:8::", 96, "0.0.0.0", 0), &other, true },
		{ eam(test, "2001:db8:8::ff", 128, "198.51.100.255", 32), &base, true },
		{ eam(test, "2001:db8:6::80", 121, "203.0.113.0", 25), &base, false },
		{ eam(test, "2001:db8:6::", 112, "203.0.0.0", 16), &base, false },
		{ eam(test, "2001:db8:7::ff", 128, "203.0.113.1", 32), &other, false },
		{ base, &base, true },
	};
	const struct tern_eam *c;
	struct tern_eamt *t = NULL, *n;
	bool c4;
	int i;

	add_ok(test, &t, &base);
	add_ok(test, &t, &other);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		n = tern_eamt_add(t, &cases[i].e, &c, &c4);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(n), -EEXIST, "case %d", i);
		KUNIT_ASSERT_NOT_NULL(test, c);
		KUNIT_EXPECT_TRUE_MSG(test,
				      tern_prefix4_equal(&c->p4, &cases[i].with->p4),
				      "case %d hit %pI4/%u", i, &c->p4.addr,
				      c->p4.len);
		KUNIT_EXPECT_EQ_MSG(test, c4, cases[i].v4, "case %d", i);
	}
	/* Neighbours that touch but do not overlap are fine. */
	other = eam(test, "2001:db8:6::100", 120, "198.51.101.0", 24);
	add_ok(test, &t, &other);
	other = eam(test, "2001:db8:5:ffff:ffff:ffff:ffff:ff00", 120,
		    "198.51.99.0", 24);
	add_ok(test, &t, &other);
	KUNIT_EXPECT_EQ(test, tern_eamt_count(t), 4U);
	tern_eamt_free(t);
}

static void delete(struct kunit *test)
{
	struct tern_eamt *t = rfc7757_table(test), *n;
	struct tern_prefix6 p6 = { a6(test, "2001:db8:cccc::"), 124 };
	struct tern_prefix4 p4 = { a4(test, "192.0.2.16"), 28 };
	struct tern_prefix4 wrong4 = { a4(test, "192.0.2.1"), 32 };
	struct tern_prefix4 sub4 = { a4(test, "192.0.2.16"), 29 };
	struct in6_addr x = a6(test, "2001:db8:cccc::3");

	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_eamt_del(t, &p6, &wrong4, NULL)),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_eamt_del(t, NULL, &sub4, NULL)),
			-ENOENT);
	n = tern_eamt_del(t, &p6, &p4, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(n));
	KUNIT_EXPECT_EQ(test, tern_eamt_count(n), 3U);
	KUNIT_EXPECT_NULL(test, tern_eamt_find6(n, &x));
	KUNIT_EXPECT_NULL(test, tern_eamt_find4(n, a4(test, "192.0.2.17")));
	/* @t is untouched: a reader of the old snapshot still sees it. */
	KUNIT_EXPECT_NOT_NULL(test, tern_eamt_find6(t, &x));
	both_ways(test, n, "64:ff9b::1", "192.0.2.193");
	both_ways(test, n, "2001:db8:aaaa::", "192.0.2.1");
	tern_eamt_free(t);
	t = n;
	n = tern_eamt_del(t, NULL, &wrong4, NULL);
	tern_eamt_free(t);
	t = n;
	p6.addr = a6(test, "2001:db8:bbbb::b");
	p6.len = 128;
	n = tern_eamt_del(t, &p6, NULL, NULL);
	tern_eamt_free(t);
	t = n;
	KUNIT_EXPECT_EQ(test, tern_eamt_count(t), 1U);
	p4.addr = a4(test, "192.0.2.192");
	p4.len = 31;
	n = tern_eamt_del(t, NULL, &p4, NULL);
	KUNIT_EXPECT_NULL(test, n);		/* empty */
	tern_eamt_free(t);
	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_eamt_del(NULL, NULL, &p4, NULL)),
			-ENOENT);
}

/* Random disjoint entries and lookups against a linear scan. */
static void random_against_scan(struct kunit *test)
{
	const int max = 400;
	struct tern_eam *v = kunit_kcalloc(test, max, sizeof(*v), GFP_KERNEL);
	struct tern_eamt *t = NULL, *n;
	const struct tern_eam *c;
	int count = 0, i, j, tries;
	bool c4;

	KUNIT_ASSERT_NOT_NULL(test, v);
	for (tries = 0; tries < 2000 && count < max; tries++) {
		u8 len4 = 20 + get_random_u32() % 13;
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
		n = tern_eamt_add(t, &e, &c, &c4);
		KUNIT_ASSERT_EQ(test, IS_ERR(n), clash);
		if (clash)
			continue;
		tern_eamt_free(t);
		t = n;
		v[count++] = e;
	}
	for (i = 0; i < 4000; i++) {
		const struct tern_eam *want = NULL;
		struct in6_addr q6 = v[i % count].p6.addr;
		__be32 q4 = htonl(get_random_u32());

		if (i % 2)
			q4 = v[i % count].p4.addr ^ htonl(get_random_u32() & 0x3ff);
		q6.s6_addr32[3] ^= htonl(get_random_u32() & 0x3ff);
		for (j = 0; j < count; j++)
			if (tern_prefix4_contains(&v[j].p4, q4))
				want = &v[j];
		c = tern_eamt_find4(t, q4);
		KUNIT_EXPECT_TRUE_MSG(test, want ? c && tern_prefix4_equal(&c->p4, &want->p4) : !c,
				      "%pI4", &q4);
		want = NULL;
		for (j = 0; j < count; j++)
			if (tern_prefix6_contains(&v[j].p6, &q6))
				want = &v[j];
		c = tern_eamt_find6(t, &q6);
		KUNIT_EXPECT_TRUE_MSG(test, want ? c && tern_prefix6_equal(&c->p6, &want->p6) : !c,
				      "%pI6c", &q6);
	}
	/* Remove all, in insertion order; the rest stays findable. */
	for (i = 0; i < count; i++) {
		n = tern_eamt_del(t, i % 2 ? &v[i].p6 : NULL,
				  i % 2 ? NULL : &v[i].p4, NULL);
		KUNIT_ASSERT_FALSE(test, IS_ERR(n));
		tern_eamt_free(t);
		t = n;
		KUNIT_EXPECT_EQ(test, tern_eamt_count(t), (u32)(count - i - 1));
		if (i + 1 < count)
			KUNIT_EXPECT_NOT_NULL(test,
					      tern_eamt_find4(t, v[count - 1].p4.addr));
	}
	KUNIT_EXPECT_NULL(test, t);
}

static void denylist4(struct kunit *test)
{
	struct tern_prefix4 p[] = {
		{ a4(test, "198.51.100.0"), 24 },
		{ a4(test, "10.0.0.0"), 8 },
		{ a4(test, "192.0.2.7"), 32 },
	};
	struct tern_prefix4 nested = { a4(test, "10.1.0.0"), 16 };
	struct tern_prefix4 around = { a4(test, "192.0.0.0"), 16 };
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

	KUNIT_EXPECT_TRUE(test, tern_deny4_contains(d, a4(test, "10.255.255.255")));
	KUNIT_EXPECT_TRUE(test, tern_deny4_contains(d, a4(test, "198.51.100.0")));
	KUNIT_EXPECT_TRUE(test, tern_deny4_contains(d, a4(test, "192.0.2.7")));
	KUNIT_EXPECT_FALSE(test, tern_deny4_contains(d, a4(test, "192.0.2.8")));
	KUNIT_EXPECT_FALSE(test, tern_deny4_contains(d, a4(test, "11.0.0.0")));
	KUNIT_EXPECT_FALSE(test, tern_deny4_contains(d, a4(test, "9.255.255.255")));
	KUNIT_EXPECT_FALSE(test, tern_deny4_contains(NULL, a4(test, "10.0.0.1")));
	KUNIT_EXPECT_EQ(test, ntohl(tern_deny4_entry(d, 0)->addr), 0x0a000000U);

	KUNIT_EXPECT_EQ(test, PTR_ERR(tern_deny4_del(d, &nested)), -ENOENT);
	n = tern_deny4_del(d, &p[1]);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(n));
	KUNIT_EXPECT_FALSE(test, tern_deny4_contains(n, a4(test, "10.0.0.1")));
	KUNIT_EXPECT_TRUE(test, tern_deny4_contains(d, a4(test, "10.0.0.1")));
	tern_deny4_free(d);
	d = n;
	/* Now the nested one fits. */
	n = tern_deny4_add(d, &nested, &c);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(n));
	tern_deny4_free(d);
	KUNIT_EXPECT_EQ(test, tern_deny4_count(n), 3U);
	tern_deny4_free(n);
}

/* The mapping calls, each in its own RCU read side (KUnit may sleep). */
static int map64(const struct tern_instance *inst,
		 const struct tern_config *cfg, const struct in6_addr *x,
		 __be32 *out)
{
	int via;

	rcu_read_lock();
	via = tern_map_6to4(inst, cfg, x, out);
	rcu_read_unlock();
	return via;
}

static int map46(const struct tern_instance *inst,
		 const struct tern_config *cfg, __be32 x, struct in6_addr *out)
{
	int via;

	rcu_read_lock();
	via = tern_map_4to6(inst, cfg, x, out);
	rcu_read_unlock();
	return via;
}

static void explain6(const struct tern_instance *inst,
		     const struct tern_config *cfg, const struct in6_addr *x,
		     struct tern_map_answer *ans)
{
	rcu_read_lock();
	tern_map_explain6(inst, cfg, x, ans);
	rcu_read_unlock();
}

static void explain4(const struct tern_instance *inst,
		     const struct tern_config *cfg, __be32 x,
		     struct tern_map_answer *ans)
{
	rcu_read_lock();
	tern_map_explain4(inst, cfg, x, ans);
	rcu_read_unlock();
}

/* The policy: EAMT, then pool6 unless denylisted; what queries report. */
static void mapping_policy(struct kunit *test)
{
	struct tern_instance *inst = kunit_kzalloc(test, sizeof(*inst),
						   GFP_KERNEL);
	struct tern_eam e1 = eam(test, "2001:db8:64::a00:0", 120,
				 "203.0.113.0", 24);
	struct tern_eam e2 = eam(test, "2001:db8:6::", 120, "198.51.100.0", 24);
	struct tern_prefix4 d1 = { a4(test, "198.51.100.0"), 24 };
	struct tern_prefix4 d2 = { a4(test, "192.0.2.128"), 25 };
	struct tern_map_answer ans;
	struct tern_config cfg;
	struct tern_eamt *t = NULL;
	struct tern_deny4 *d = NULL, *n;
	const struct tern_prefix4 *c;
	struct in6_addr x6, out6;
	__be32 out4 = 0;

	KUNIT_ASSERT_NOT_NULL(test, inst);
	tern_config_defaults(&cfg);
	cfg.pool6_set = true;
	cfg.pool6.addr = a6(test, "2001:db8:64::");
	cfg.pool6.len = 96;
	add_ok(test, &t, &e1);
	add_ok(test, &t, &e2);
	n = tern_deny4_add(d, &d1, &c);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(n));
	d = tern_deny4_add(n, &d2, &c);
	tern_deny4_free(n);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(d));
	RCU_INIT_POINTER(inst->eamt, t);
	RCU_INIT_POINTER(inst->deny4, d);

	/* Inside pool6 and an EAM: the EAM. */
	x6 = a6(test, "2001:db8:64::a00:7");
	KUNIT_EXPECT_EQ(test, map64(inst, &cfg, &x6, &out4), TERN_VIA_EAMT);
	KUNIT_EXPECT_EQ(test, out4, a4(test, "203.0.113.7"));
	KUNIT_EXPECT_EQ(test, map46(inst, &cfg, a4(test, "203.0.113.7"),
					    &out6), TERN_VIA_EAMT);
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&out6, &x6));
	/* pool6 alone. */
	x6 = a6(test, "2001:db8:64::c000:201");
	KUNIT_EXPECT_EQ(test, map64(inst, &cfg, &x6, &out4), TERN_VIA_POOL6);
	KUNIT_EXPECT_EQ(test, out4, a4(test, "192.0.2.1"));
	/* pool6 denied both ways, output untouched. */
	x6 = a6(test, "2001:db8:64::c000:281");
	out4 = 0;
	KUNIT_EXPECT_EQ(test, map64(inst, &cfg, &x6, &out4), TERN_VIA_NONE);
	KUNIT_EXPECT_EQ(test, out4, 0U);
	KUNIT_EXPECT_EQ(test, map46(inst, &cfg, a4(test, "192.0.2.129"),
					    &out6), TERN_VIA_NONE);
	/* denylist4 does not apply to the EAMT. */
	KUNIT_EXPECT_EQ(test, map46(inst, &cfg, a4(test, "198.51.100.9"),
					    &out6), TERN_VIA_EAMT);
	x6 = a6(test, "2001:db8:6::9");
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&out6, &x6));
	x6 = a6(test, "2001:db8:64::c633:6409");
	KUNIT_EXPECT_EQ(test, map64(inst, &cfg, &x6, &out4), TERN_VIA_NONE);

	/* Queries. */
	explain4(inst, &cfg, a4(test, "192.0.2.129"), &ans);
	KUNIT_EXPECT_EQ(test, ans.via, TERN_VIA_NONE);
	KUNIT_EXPECT_EQ(test, ans.why, TERN_WHY_DENYLIST4);
	explain4(inst, &cfg, a4(test, "127.0.0.1"), &ans);
	KUNIT_EXPECT_EQ(test, ans.why, TERN_WHY_SPECIAL4);
	x6 = a6(test, "2001:db8:64::e000:1");
	explain6(inst, &cfg, &x6, &ans);
	KUNIT_EXPECT_EQ(test, ans.why, TERN_WHY_SPECIAL4);
	x6 = a6(test, "2001:db8:65::1");
	explain6(inst, &cfg, &x6, &ans);
	KUNIT_EXPECT_EQ(test, ans.why, TERN_WHY_NO_MAPPING);
	x6 = a6(test, "2001:db8:6::ff");
	explain6(inst, &cfg, &x6, &ans);
	KUNIT_EXPECT_EQ(test, ans.via, TERN_VIA_EAMT);
	KUNIT_EXPECT_EQ(test, ans.out.a4, a4(test, "198.51.100.255"));
	KUNIT_EXPECT_TRUE(test, tern_prefix6_equal(&ans.eam.p6, &e2.p6));
	explain4(inst, &cfg, a4(test, "8.8.8.8"), &ans);
	KUNIT_EXPECT_EQ(test, ans.via, TERN_VIA_POOL6);
	x6 = a6(test, "2001:db8:64::808:808");
	KUNIT_EXPECT_TRUE(test, ipv6_addr_equal(&ans.out.a6, &x6));
	/* Well-Known Prefix and strict-wkp: non-global refused by pool6 only. */
	cfg.pool6.addr = a6(test, "64:ff9b::");
	explain4(inst, &cfg, a4(test, "10.0.0.1"), &ans);
	KUNIT_EXPECT_EQ(test, ans.why, TERN_WHY_WKP_NONGLOBAL);
	explain4(inst, &cfg, a4(test, "203.0.113.1"), &ans);
	KUNIT_EXPECT_EQ(test, ans.via, TERN_VIA_EAMT);

	tern_eamt_free(t);
	tern_deny4_free(d);
}

static struct kunit_case tern_eamt_cases[] = {
	KUNIT_CASE(rfc7757_examples),
	KUNIT_CASE(validation),
	KUNIT_CASE(lpm_every_length),
	KUNIT_CASE(suffix_kept),
	KUNIT_CASE(longer_ipv6_suffix),
	KUNIT_CASE(suffix_bits_every_length),
	KUNIT_CASE(overlap_refused),
	KUNIT_CASE(delete),
	KUNIT_CASE(random_against_scan),
	KUNIT_CASE(denylist4),
	KUNIT_CASE(mapping_policy),
	{}
};

static struct kunit_suite tern_eamt_suite = {
	.name = "tern_eamt",
	.test_cases = tern_eamt_cases,
};

kunit_test_suite(tern_eamt_suite);

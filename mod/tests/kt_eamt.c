// SPDX-License-Identifier: GPL-2.0
/* KUnit helpers of the EAMT and mapping suites: entries and tables. */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/random.h>
#include <net/ipv6.h>
#include "siit/prefix.h"
#include "kt_eamt.h"

struct tern_eam tern_kt_eam(struct kunit *test, const char *p6, u8 len6,
			    const char *p4, u8 len4)
{
	struct tern_eam e = {
		.p6 = { .addr = tern_kt_a6(test, p6), .len = len6 },
		.p4 = { .addr = tern_kt_a4(test, p4), .len = len4 },
	};

	return e;
}

/* Adds @e to *@t (replacing it) and expects success. */
void tern_kt_add_eam(struct kunit *test, struct tern_eamt **t,
		     const struct tern_eam *e)
{
	const struct tern_eam *c;
	struct tern_eamt *n;
	bool c4;

	KUNIT_ASSERT_EQ(test, tern_eam_validate(e, NULL), 0);
	n = tern_eamt_add(*t, e, false, &c, &c4);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_OR_NULL(n), "adding %pI6c/%u %pI4/%u",
			       &e->p6.addr, e->p6.len, &e->p4.addr, e->p4.len);
	tern_eamt_free(*t);
	*t = n;
}

/* Both ways through the table: @s6 <-> @s4, by the same entry. */
void tern_kt_both_ways(struct kunit *test, const struct tern_eamt *t,
		       const char *s6, const char *s4)
{
	struct in6_addr in6 = tern_kt_a6(test, s6), out6;
	__be32 in4 = tern_kt_a4(test, s4), out4 = 0;
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
struct tern_eamt *tern_kt_rfc7757_table(struct kunit *test)
{
	struct tern_eam v[] = {
		tern_kt_eam(test, "2001:db8:aaaa::", 128, "192.0.2.1", 32),
		tern_kt_eam(test, "2001:db8:bbbb::b", 128, "192.0.2.2", 32),
		tern_kt_eam(test, "2001:db8:cccc::", 124, "192.0.2.16", 28),
		tern_kt_eam(test, "64:ff9b::", 127, "192.0.2.192", 31),
	};
	struct tern_eamt *t = NULL;
	int i;

	for (i = 0; i < ARRAY_SIZE(v); i++)
		tern_kt_add_eam(test, &t, &v[i]);
	return t;
}

/*
 * The entry of @t found for each of 4000 queries (random addresses, and
 * addresses near the entries' prefixes) has the longest prefix of
 * @v[0..@n) covering the query (@n > 0), as a linear scan finds it.
 */
void tern_kt_eamt_scan(struct kunit *test, const struct tern_eamt *t,
		       const struct tern_eam *v, u32 n)
{
	const struct tern_eam *c, *w4, *w6;
	u32 i, j;

	for (i = 0; i < 4000; i++) {
		struct in6_addr q6 = v[(i * 7) % n].p6.addr;
		__be32 q4 = htonl(get_random_u32());

		if (i % 2)
			q4 = v[i % n].p4.addr ^ htonl(get_random_u32() & 0x3ff);
		q6.s6_addr32[3] ^= htonl(get_random_u32() & 0x3ff);
		w4 = NULL;
		w6 = NULL;
		for (j = 0; j < n; j++) {
			if (tern_prefix4_contains(&v[j].p4, q4) &&
			    (!w4 || v[j].p4.len > w4->p4.len))
				w4 = &v[j];
			if (tern_prefix6_contains(&v[j].p6, &q6) &&
			    (!w6 || v[j].p6.len > w6->p6.len))
				w6 = &v[j];
		}
		c = tern_eamt_find4(t, q4);
		KUNIT_EXPECT_TRUE_MSG(test, w4 ? c && tern_prefix4_equal(&c->p4, &w4->p4) : !c,
				      "%pI4", &q4);
		c = tern_eamt_find6(t, &q6);
		KUNIT_EXPECT_TRUE_MSG(test, w6 ? c && tern_prefix6_equal(&c->p6, &w6->p6) : !c,
				      "%pI6c", &q6);
	}
}

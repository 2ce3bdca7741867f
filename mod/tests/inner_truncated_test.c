// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: truncated quotes (inner.c) at every length and every output
 * size, in buffers of the exact size: KASAN catches a read past the quote
 * or a write past the output.
 */

#include <kunit/test.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include "kt_inner.h"

/* The checksum offset inside the transport header, and when it is there. */
static unsigned int csum_off(u8 proto)
{
	switch (proto) {
	case IPPROTO_TCP:
		return 16;
	case IPPROTO_UDP:
		return 6;
	default:
		return 2;
	}
}

/*
 * What a cut-off translation must hold: @exp cut to @n bytes, except a
 * transport checksum field only partly present, which is copied as is
 * from @in_l4 (the untranslated transport header).
 */
static void expect_cut(u8 *want, const u8 *exp, unsigned int n,
		       unsigned int l3, u8 proto, const u8 *in_l4)
{
	unsigned int co = csum_off(proto), i;

	memcpy(want, exp, n);
	if (n >= l3 + co + 2)
		return;
	for (i = l3 + co; i < n; i++)
		want[i] = in_l4[i - l3];
}

/*
 * Every quote length from 0 to whole, each in a buffer of exactly that
 * size; then every output size.
 */
static void inner_truncated(struct kunit *test)
{
	u8 *full = kunit_kzalloc(test, TERN_KT_BIG, GFP_KERNEL);
	u8 *exp = kunit_kzalloc(test, TERN_KT_BIG, GFP_KERNEL);
	u8 *want = kunit_kzalloc(test, TERN_KT_BIG, GFP_KERNEL);
	int i, dir;

	KUNIT_ASSERT_NOT_NULL(test, full);
	KUNIT_ASSERT_NOT_NULL(test, exp);
	KUNIT_ASSERT_NOT_NULL(test, want);
	for (dir = 0; dir < 2; dir++) {
		for (i = 0; i < ARRAY_SIZE(tern_kt_inner_cases); i++) {
			const struct tern_kt_inner_case *c = &tern_kt_inner_cases[i];
			unsigned int len, elen, l3in, l3out, ql, o;
			struct tern_kt_quote q;
			u32 tot_len;

			tern_kt_quote_fill(&q, c->proto, c->icmp_type, c->udp0);
			if (dir == 0) {
				len = tern_kt_build4(full, &q, 0, 0, c->udp0);
				elen = tern_kt_expect6(exp, &q, c->udp0);
				l3in = 20;
				l3out = 40;
			} else {
				len = tern_kt_build6(full, &q, 0, NULL, 0, c->udp0);
				elen = tern_kt_expect4(exp, &q, c->udp0);
				l3in = 40;
				l3out = 20;
			}
			/* Quote lengths. */
			for (ql = 0; ql <= len; ql++) {
				u8 *in = kmalloc(ql, GFP_KERNEL);
				u8 *out = kmalloc(TERN_KT_BIG, GFP_KERNEL);
				int n, wn;

				if (!in || !out) {
					kfree(in);
					kfree(out);
					KUNIT_FAIL(test, "no memory");
					return;
				}
				memcpy(in, full, ql);
				memset(out, TERN_KT_POISON, TERN_KT_BIG);
				if (dir)
					tern_kt_expect4_next_id(exp);
				n = dir == 0 ? tern_kt_call4to6(test, in, ql, out, TERN_KT_BIG,
								&tot_len) :
					       tern_kt_call6to4(test, in, ql, out, TERN_KT_BIG);
				if (ql < l3in || (ql == l3in && q.proto == IPPROTO_ICMP))
					wn = -1;
				else
					wn = l3out + ql - l3in;
				KUNIT_EXPECT_EQ_MSG(test, n, wn, "%s %s, quote of %u bytes",
						    dir ? "6to4" : "4to6", c->name, ql);
				if (n == wn && n > 0) {
					expect_cut(want, exp, n, l3out, q.proto,
						   full + l3in);
					TERN_KT_EXPECT_BYTES(test, out, want, n,
							       "%s %s, quote of %u bytes",
							       dir ? "6to4" : "4to6",
							       c->name, ql);
					KUNIT_EXPECT_EQ(test, out[n], TERN_KT_POISON);
				}
				kfree(in);
				kfree(out);
			}
			/* Output sizes (whole quote). */
			for (o = 0; o <= elen + 8; o++) {
				u8 *in = kmalloc(len, GFP_KERNEL);
				u8 *out = kmalloc(o ? o : 1, GFP_KERNEL);
				int n, wn;

				if (!in || !out) {
					kfree(in);
					kfree(out);
					KUNIT_FAIL(test, "no memory");
					return;
				}
				memcpy(in, full, len);
				memset(out, TERN_KT_POISON, o ? o : 1);
				if (dir)
					tern_kt_expect4_next_id(exp);
				n = dir == 0 ? tern_kt_call4to6(test, in, len, out, o, &tot_len) :
					       tern_kt_call6to4(test, in, len, out, o);
				if (o < l3out || (o == l3out && q.proto == IPPROTO_ICMP))
					wn = -1;
				else
					wn = min(o, elen);
				KUNIT_EXPECT_EQ_MSG(test, n, wn, "%s %s, output of %u bytes",
						    dir ? "6to4" : "4to6", c->name, o);
				if (n == wn && n > 0) {
					expect_cut(want, exp, n, l3out, q.proto,
						   full + l3in);
					TERN_KT_EXPECT_BYTES(test, out, want, n,
							       "%s %s, output of %u bytes",
							       dir ? "6to4" : "4to6",
							       c->name, o);
					if (n < o)
						KUNIT_EXPECT_EQ(test, out[n], TERN_KT_POISON);
				}
				kfree(in);
				kfree(out);
			}
		}
	}
}

/* Truncated quotes with extension headers: cut inside each of them. */
static void inner_truncated_exthdrs(struct kunit *test)
{
	u8 *full = kunit_kzalloc(test, TERN_KT_BIG, GFP_KERNEL);
	u8 *ext = kunit_kzalloc(test, 40, GFP_KERNEL);
	struct tern_kt_quote q;
	unsigned int len, ql;

	KUNIT_ASSERT_NOT_NULL(test, full);
	KUNIT_ASSERT_NOT_NULL(test, ext);
	/* Hop-by-Hop (8) at 40, Destination (16) at 48, Fragment at 64. */
	ext[0] = NEXTHDR_DEST;
	ext[8] = NEXTHDR_FRAGMENT;
	ext[9] = 1;
	ext[24] = IPPROTO_TCP;
	tern_kt_quote_fill(&q, IPPROTO_TCP, 0, false);
	len = tern_kt_build6(full, &q, NEXTHDR_HOP, ext, 32, false);
	for (ql = 0; ql <= len; ql++) {
		u8 *in = kmalloc(ql, GFP_KERNEL);
		u8 *out = kmalloc(576, GFP_KERNEL);
		int n;

		if (!in || !out) {
			kfree(in);
			kfree(out);
			KUNIT_FAIL(test, "no memory");
			return;
		}
		memcpy(in, full, ql);
		n = tern_kt_call6to4(test, in, ql, out, 576);
		/* All the headers up to the upper layer are needed. */
		KUNIT_EXPECT_EQ_MSG(test, n, ql < 72 ? -1 : (int)(20 + ql - 72),
				    "quote of %u bytes", ql);
		kfree(in);
		kfree(out);
	}
}

static struct kunit_case tern_inner_truncated_cases[] = {
	KUNIT_CASE(inner_truncated),
	KUNIT_CASE(inner_truncated_exthdrs),
	{}
};

static struct kunit_suite tern_inner_truncated_suite = {
	.name = "tern_inner_truncated",
	.init = tern_kt_inner_init,
	.exit = tern_kt_inner_exit,
	.test_cases = tern_inner_truncated_cases,
};

kunit_test_suite(tern_inner_truncated_suite);

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

/* One quote translated in one direction, cut at every length or size. */
struct cut {
	struct kunit *test;
	const char *name;
	int dir;			/* 0: 4to6, 1: 6to4 */
	u8 *full, *exp, *want;
	unsigned int l3in, l3out;
	u8 proto;
};

/*
 * The first @ilen bytes of the quote translated into @olen bytes, each in
 * a buffer of exactly that size: @wn expected (the bytes of @exp, cut).
 * @what and @size name the case. False: no memory.
 */
static bool try_cut(const struct cut *x, unsigned int ilen, unsigned int olen,
		    int wn, const char *what, unsigned int size)
{
	struct kunit *test = x->test;
	const char *d = x->dir ? "6to4" : "4to6";
	u8 *in = kmalloc(ilen, GFP_KERNEL);
	u8 *out = kmalloc(olen ? olen : 1, GFP_KERNEL);
	u32 tot_len;
	int n;

	if (!in || !out) {
		kfree(in);
		kfree(out);
		KUNIT_FAIL(test, "no memory");
		return false;
	}
	memcpy(in, x->full, ilen);
	memset(out, TERN_KT_POISON, olen ? olen : 1);
	if (x->dir)
		tern_kt_expect4_next_id(x->exp);
	n = x->dir == 0 ? tern_kt_call4to6(test, in, ilen, out, olen, &tot_len) :
			  tern_kt_call6to4(test, in, ilen, out, olen);
	KUNIT_EXPECT_EQ_MSG(test, n, wn, "%s %s, %s of %u bytes", d, x->name,
			    what, size);
	if (n == wn && n > 0) {
		expect_cut(x->want, x->exp, n, x->l3out, x->proto,
			   x->full + x->l3in);
		TERN_KT_EXPECT_BYTES(test, out, x->want, n,
				     "%s %s, %s of %u bytes", d, x->name,
				     what, size);
		if (n < olen)
			KUNIT_EXPECT_EQ(test, out[n], TERN_KT_POISON);
	}
	kfree(in);
	kfree(out);
	return true;
}

/*
 * Every quote length from 0 to whole, each in a buffer of exactly that
 * size; then every output size.
 */
static void inner_truncated(struct kunit *test)
{
	struct cut x = { .test = test };
	int i;

	x.full = tern_kt_big(test);
	x.exp = tern_kt_big(test);
	x.want = tern_kt_big(test);
	for (x.dir = 0; x.dir < 2; x.dir++) {
		for (i = 0; i < ARRAY_SIZE(tern_kt_inner_cases); i++) {
			const struct tern_kt_inner_case *c = &tern_kt_inner_cases[i];
			unsigned int len, elen, ql, o;
			struct tern_kt_quote q;
			bool icmp;

			tern_kt_quote_fill(&q, c->proto, c->icmp_type, c->udp0);
			if (x.dir == 0) {
				len = tern_kt_build4(x.full, &q, 0, 0, c->udp0);
				elen = tern_kt_expect6(x.exp, &q, c->udp0);
				x.l3in = 20;
				x.l3out = 40;
			} else {
				len = tern_kt_build6(x.full, &q, 0, NULL, 0, c->udp0);
				elen = tern_kt_expect4(x.exp, &q, c->udp0);
				x.l3in = 40;
				x.l3out = 20;
			}
			x.name = c->name;
			x.proto = q.proto;
			icmp = q.proto == IPPROTO_ICMP;
			/* Quote lengths. */
			for (ql = 0; ql <= len; ql++) {
				int wn = ql < x.l3in || (ql == x.l3in && icmp) ?
					 -1 : (int)(x.l3out + ql - x.l3in);

				if (!try_cut(&x, ql, TERN_KT_BIG, wn, "quote", ql))
					return;
			}
			/* Output sizes (whole quote). */
			for (o = 0; o <= elen + 8; o++) {
				int wn = o < x.l3out || (o == x.l3out && icmp) ?
					 -1 : (int)min(o, elen);

				if (!try_cut(&x, len, o, wn, "output", o))
					return;
			}
		}
	}
}

/* Truncated quotes with extension headers: cut inside each of them. */
static void inner_truncated_exthdrs(struct kunit *test)
{
	u8 *full = tern_kt_big(test);
	u8 *ext = kunit_kzalloc(test, 40, GFP_KERNEL);
	struct tern_kt_quote q;
	unsigned int len, ql;

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

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: quoted fragments (inner.c): IPv4 fragment fields <-> the IPv6
 * Fragment header, extension headers before it.
 */

#include <kunit/test.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include "kt_inner.h"
#include "xlat/packet.h"

/* Fragments: IPv4 fragment -> Fragment header, and back. */
static void inner_fragments(struct kunit *test)
{
	u8 *in = tern_kt_big(test);
	u8 *out = tern_kt_big(test);
	u8 *exp = tern_kt_big(test);
	struct frag_hdr *fh = (struct frag_hdr *)(out + 40);
	struct iphdr *iph = (struct iphdr *)out;
	struct tern_kt_quote q;
	unsigned int len, elen;
	u32 tot_len;
	int n;

	/* First fragment (MF): checksum updated like the whole packet's. */
	tern_kt_quote_fill(&q, IPPROTO_TCP, 0, false);
	len = tern_kt_build4(in, &q, IP_MF, 0, false);
	elen = tern_kt_expect6(exp, &q, false);
	n = tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len);
	KUNIT_EXPECT_EQ(test, n, (int)elen + 8);
	TERN_KT_EXPECT_BYTES(test, out + 8, exp + 8, 32, "bytes");	/* addresses */
	KUNIT_EXPECT_EQ(test, out[6], NEXTHDR_FRAGMENT);
	KUNIT_EXPECT_EQ(test, out[7], 37);
	KUNIT_EXPECT_EQ(test, ntohs(((struct ipv6hdr *)out)->payload_len),
			q.l4len + 8);
	KUNIT_EXPECT_EQ(test, fh->nexthdr, IPPROTO_TCP);
	KUNIT_EXPECT_EQ(test, fh->reserved, 0);
	KUNIT_EXPECT_EQ(test, ntohs(fh->frag_off), IP6_MF);
	KUNIT_EXPECT_EQ(test, ntohl(fh->identification), 0xabcdU);
	TERN_KT_EXPECT_BYTES(test, out + 48, exp + 40, q.l4len, "bytes");

	/* Last fragment at 1480 (185 units): nothing of the payload touched. */
	tern_kt_quote_fill(&q, IPPROTO_ICMP, ICMP_DEST_UNREACH, false);
	len = tern_kt_build4(in, &q, 185, 0, false);
	n = tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len);
	KUNIT_EXPECT_EQ(test, n, 48 + (int)q.l4len);
	KUNIT_EXPECT_EQ(test, fh->nexthdr, IPPROTO_ICMPV6);
	KUNIT_EXPECT_EQ(test, ntohs(fh->frag_off), 1480);
	KUNIT_EXPECT_EQ(test, ntohl(fh->identification), 0xabcdU);
	TERN_KT_EXPECT_BYTES(test, out + 48, in + 20, q.l4len, "bytes");
	/* Middle fragment, offset and MF; a maximal offset. */
	len = tern_kt_build4(in, &q, IP_MF | 1, 0, false);
	KUNIT_EXPECT_GT(test, tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len), 0);
	KUNIT_EXPECT_EQ(test, ntohs(fh->frag_off), 8 | IP6_MF);
	len = tern_kt_build4(in, &q, IP_DF | IP_OFFSET, 0, false);
	KUNIT_EXPECT_GT(test, tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len), 0);
	KUNIT_EXPECT_EQ(test, ntohs(fh->frag_off), 0xfff8);
	/* DF alone is no fragment. */
	tern_kt_quote_fill(&q, IPPROTO_UDP, 0, false);
	len = tern_kt_build4(in, &q, IP_DF, 0, false);
	KUNIT_EXPECT_EQ(test, tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len),
			40 + (int)q.l4len);
	KUNIT_EXPECT_EQ(test, out[6], IPPROTO_UDP);

	/* IPv6 first fragment: ID low 16 bits, MF, DF clear. */
	{
		u8 *ext = kunit_kzalloc(test, 16, GFP_KERNEL);
		struct frag_hdr *f;

		KUNIT_ASSERT_NOT_NULL(test, ext);
		f = (struct frag_hdr *)ext;
		f->nexthdr = IPPROTO_TCP;
		f->frag_off = htons(IP6_MF);
		f->identification = htonl(0x12345678);
		tern_kt_quote_fill(&q, IPPROTO_TCP, 0, false);
		len = tern_kt_build6(in, &q, NEXTHDR_FRAGMENT, ext, 8, false);
		elen = tern_kt_expect4(exp, &q, false);
		n = tern_kt_call6to4(test, in, len, out, TERN_KT_BIG);
		KUNIT_EXPECT_EQ(test, n, (int)elen);
		KUNIT_EXPECT_EQ(test, ntohs(iph->id), 0x5678);
		KUNIT_EXPECT_EQ(test, ntohs(iph->frag_off), IP_MF);
		KUNIT_EXPECT_EQ(test, ntohs(iph->tot_len), elen);
		KUNIT_EXPECT_EQ(test, iph->protocol, IPPROTO_TCP);
		KUNIT_EXPECT_EQ(test, ip_fast_csum(out, 5), 0);
		TERN_KT_EXPECT_BYTES(test, out + 20, exp + 20, q.l4len, "bytes");

		/* Non-first, last: offset 1480, payload untouched. */
		f->frag_off = htons(1480);
		f->nexthdr = IPPROTO_ICMPV6;
		tern_kt_quote_fill(&q, IPPROTO_ICMP, ICMPV6_DEST_UNREACH, false);
		len = tern_kt_build6(in, &q, NEXTHDR_FRAGMENT, ext, 8, false);
		in[48] = ICMPV6_DEST_UNREACH;	/* data, not a header */
		n = tern_kt_call6to4(test, in, len, out, TERN_KT_BIG);
		KUNIT_EXPECT_EQ(test, n, 20 + (int)q.l4len);
		KUNIT_EXPECT_EQ(test, ntohs(iph->frag_off), 185);
		KUNIT_EXPECT_EQ(test, iph->protocol, IPPROTO_ICMP);
		TERN_KT_EXPECT_BYTES(test, out + 20, in + 48, q.l4len, "bytes");
		KUNIT_EXPECT_EQ(test, ip_fast_csum(out, 5), 0);

		/* Atomic fragment: ID kept, no flag. */
		f->frag_off = 0;
		f->nexthdr = IPPROTO_UDP;
		tern_kt_quote_fill(&q, IPPROTO_UDP, 0, false);
		len = tern_kt_build6(in, &q, NEXTHDR_FRAGMENT, ext, 8, false);
		n = tern_kt_call6to4(test, in, len, out, TERN_KT_BIG);
		KUNIT_EXPECT_EQ(test, n, 20 + (int)q.l4len);
		KUNIT_EXPECT_EQ(test, ntohs(iph->frag_off), 0);
		KUNIT_EXPECT_EQ(test, ntohs(iph->id), 0x5678);
	}

	/* Extension headers before the Fragment header are skipped. */
	{
		u8 *e = kunit_kzalloc(test, 40, GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, e);
		e[0] = NEXTHDR_DEST;		/* Hop-by-Hop, 8 bytes */
		e[2] = 1;			/* PadN */
		e[3] = 4;
		e[8] = NEXTHDR_ROUTING;		/* Destination, 16 bytes */
		e[9] = 1;
		e[10] = 1;
		e[11] = 12;
		e[24] = NEXTHDR_FRAGMENT;	/* Routing, 8 bytes, SL 0 */
		e[32] = IPPROTO_UDP;		/* Fragment, offset 0, M */
		e[35] = IP6_MF;
		e[36] = 0xde;
		e[37] = 0xad;
		e[38] = 0xbe;
		e[39] = 0xef;
		tern_kt_quote_fill(&q, IPPROTO_UDP, 0, false);
		len = tern_kt_build6(in, &q, NEXTHDR_HOP, e, 40, false);
		elen = tern_kt_expect4(exp, &q, false);
		n = tern_kt_call6to4(test, in, len, out, TERN_KT_BIG);
		KUNIT_EXPECT_EQ(test, n, (int)elen);
		KUNIT_EXPECT_EQ(test, ntohs(iph->id), 0xbeef);
		KUNIT_EXPECT_EQ(test, ntohs(iph->frag_off), IP_MF);
		KUNIT_EXPECT_EQ(test, ntohs(iph->tot_len), elen);
		KUNIT_EXPECT_EQ(test, ip_fast_csum(out, 5), 0);
		TERN_KT_EXPECT_BYTES(test, out + 20, exp + 20, q.l4len, "exthdrs");
	}
}

/*
 * A quoted later fragment: the walk ends at its Fragment header, whatever
 * the Next Header there says; the bytes after it are data, not headers.
 */
static void inner_later_fragment_walk(struct kunit *test)
{
	static const u8 nexts[] = { NEXTHDR_DEST, NEXTHDR_HOP, NEXTHDR_ROUTING,
				    NEXTHDR_FRAGMENT, IPPROTO_UDP };
	u8 *in = tern_kt_big(test);
	struct ipv6hdr *ip6 = (struct ipv6hdr *)in;
	struct tern_pkt p;
	int i;

	for (i = 0; i < ARRAY_SIZE(nexts); i++) {
		memset(in, 0, 40 + 8 + 64);
		ip6->version = 6;
		ip6->payload_len = htons(8 + 64);
		ip6->nexthdr = NEXTHDR_FRAGMENT;
		in[40] = nexts[i];
		in[42] = 0x01;			/* offset 256 bytes */
		in[43] = 0x00;
		/* Data that would be a header of 2 KiB if walked. */
		memset(in + 48, 0xff, 64);
		in[48] = NEXTHDR_DEST;
		KUNIT_EXPECT_EQ(test, tern_ipv6_walk(NULL, in, 40 + 8 + 64, false,
						     &p), 0);
		KUNIT_EXPECT_EQ(test, p.l3len, 48U);
		KUNIT_EXPECT_EQ(test, p.proto, nexts[i]);
		KUNIT_EXPECT_TRUE(test, p.nonfirst);
		KUNIT_EXPECT_EQ(test, p.frag6, 40);
	}
}

static struct kunit_case tern_inner_frag_cases[] = {
	KUNIT_CASE(inner_fragments),
	KUNIT_CASE(inner_later_fragment_walk),
	{}
};

static struct kunit_suite tern_inner_frag_suite = {
	.name = "tern_inner_frag",
	.init = tern_kt_inner_init,
	.exit = tern_kt_inner_exit,
	.test_cases = tern_inner_frag_cases,
};

kunit_test_suite(tern_inner_frag_suite);

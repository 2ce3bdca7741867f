// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: quoted packets the translation of an ICMP error refuses
 * (inner.c): malformed headers, quoted ICMP errors, addresses a normal
 * packet could not have.
 */

#include <kunit/test.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include "kt_inner.h"

/* Malformed quotes and quoted ICMP errors: -1. */
static void inner_refused(struct kunit *test)
{
	u8 *in = tern_kt_big(test);
	u8 *out = tern_kt_big(test);
	struct tern_kt_quote q;
	unsigned int len;
	u32 tot_len;
	int t;

	/* An ICMP error quoting an ICMP error (any non-echo type). */
	for (t = 0; t < 256; t++) {
		if (t == ICMP_ECHO || t == ICMP_ECHOREPLY)
			continue;
		tern_kt_quote_fill(&q, IPPROTO_ICMP, t, false);
		len = tern_kt_build4(in, &q, 0, 0, false);
		KUNIT_EXPECT_EQ_MSG(test, tern_kt_call4to6(test, in, len, out,
							   TERN_KT_BIG, &tot_len),
				    -1, "inner ICMPv4 type %d", t);
	}
	for (t = 0; t < 256; t++) {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)in;
		struct in6_addr s, d;

		if (t == ICMPV6_ECHO_REQUEST || t == ICMPV6_ECHO_REPLY)
			continue;
		tern_kt_quote_fill(&q, IPPROTO_ICMP, ICMP_ECHO, false);
		len = tern_kt_build6(in, &q, 0, NULL, 0, false);
		in[40] = t;
		s = ip6->saddr;
		d = ip6->daddr;
		tern_kt_l4csum6(in + 40, q.l4len, IPPROTO_ICMPV6, &s, &d);
		KUNIT_EXPECT_EQ_MSG(test, tern_kt_call6to4(test, in, len, out, TERN_KT_BIG), -1,
				    "inner ICMPv6 type %d", t);
	}

	tern_kt_quote_fill(&q, IPPROTO_UDP, 0, false);
	len = tern_kt_build4(in, &q, 0, 0, false);
	in[0] = 0x65;	/* version 6 */
	KUNIT_EXPECT_EQ(test, tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len), -1);
	in[0] = 0x44;	/* IHL 4 */
	KUNIT_EXPECT_EQ(test, tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len), -1);
	in[0] = 0x4f;	/* IHL 15: longer than the quote */
	KUNIT_EXPECT_EQ(test, tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len), -1);
	in[0] = 0x45;
	((struct iphdr *)in)->tot_len = htons(19);	/* < IHL */
	KUNIT_EXPECT_EQ(test, tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len), -1);
	((struct iphdr *)in)->tot_len = htons(20);	/* header only */
	KUNIT_EXPECT_EQ(test, tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len),
			(int)(len + 20));

	len = tern_kt_build6(in, &q, 0, NULL, 0, false);
	in[0] = 0x45;
	KUNIT_EXPECT_EQ(test, tern_kt_call6to4(test, in, len, out, TERN_KT_BIG), -1);
	in[0] = 0x62;
	/* Payload Length shorter than the extension headers. */
	{
		u8 *ext = kunit_kzalloc(test, 80, GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, ext);
		tern_kt_dest_chain(ext, 1, IPPROTO_UDP);
		len = tern_kt_build6(in, &q, NEXTHDR_DEST, ext, 8, false);
		((struct ipv6hdr *)in)->payload_len = htons(7);
		KUNIT_EXPECT_EQ(test, tern_kt_call6to4(test, in, len, out, TERN_KT_BIG), -1);
		((struct ipv6hdr *)in)->payload_len = htons(8);
		KUNIT_EXPECT_EQ(test, tern_kt_call6to4(test, in, len, out, TERN_KT_BIG),
				(int)(len - 48 + 20));
		KUNIT_EXPECT_EQ(test, ntohs(((struct iphdr *)out)->tot_len), 20);
		/* Two Fragment headers. */
		memset(ext, 0, 16);
		ext[0] = NEXTHDR_FRAGMENT;
		ext[8] = IPPROTO_UDP;
		len = tern_kt_build6(in, &q, NEXTHDR_FRAGMENT, ext, 16, false);
		KUNIT_EXPECT_EQ(test, tern_kt_call6to4(test, in, len, out, TERN_KT_BIG), -1);
		/* Nine extension headers: more than the walk accepts; eight. */
		tern_kt_dest_chain(ext, 9, IPPROTO_UDP);
		len = tern_kt_build6(in, &q, NEXTHDR_DEST, ext, 72, false);
		KUNIT_EXPECT_EQ(test, tern_kt_call6to4(test, in, len, out, TERN_KT_BIG), -1);
		tern_kt_dest_chain(ext, 8, IPPROTO_UDP);
		len = tern_kt_build6(in, &q, NEXTHDR_DEST, ext, 64, false);
		KUNIT_EXPECT_EQ(test, tern_kt_call6to4(test, in, len, out, TERN_KT_BIG),
				20 + (int)q.l4len);
		/* An unknown upper layer behind them: copied as is. */
		tern_kt_dest_chain(ext, 2, 253);
		len = tern_kt_build6(in, &q, NEXTHDR_DEST, ext, 16, false);
		KUNIT_EXPECT_EQ(test, tern_kt_call6to4(test, in, len, out, TERN_KT_BIG),
				20 + (int)q.l4len);
		KUNIT_EXPECT_EQ(test, out[9], 253);
		TERN_KT_EXPECT_BYTES(test, out + 20, in + 56, q.l4len, "unknown");
	}
	/* Not mapped: no pool6. */
	tern_kt_cfg_of(test)->pool6_set = false;
	len = tern_kt_build6(in, &q, 0, NULL, 0, false);
	KUNIT_EXPECT_EQ(test, tern_kt_call6to4(test, in, len, out, TERN_KT_BIG), -1);
	len = tern_kt_build4(in, &q, 0, 0, false);
	KUNIT_EXPECT_EQ(test, tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len), -1);
	tern_kt_cfg_of(test)->pool6_set = true;
}

/*
 * The quoted packet's addresses follow a normal packet's rules (RFC 7915
 * 4.1, 5.1): never-translated IPv4 addresses refused either side, either
 * way; with the Well-Known Prefix and strict-wkp, non-global ones mapped
 * by pool6 too.
 */
static void inner_addresses(struct kunit *test)
{
	static const u32 special[] = {
		0x00000005, 0x7f000001, 0xa9fe0001, 0xe0000001, 0xf0000001,
		0xffffffff,
	};
	static const struct in6_addr wkp = { { { 0, 0x64, 0xff, 0x9b } } };
	u8 *in = tern_kt_big(test);
	u8 *out = tern_kt_big(test);
	struct tern_config *cfg = tern_kt_cfg_of(test);
	struct ipv6hdr *ip6 = (struct ipv6hdr *)in;
	struct iphdr *iph = (struct iphdr *)in;
	unsigned int len, i, side;
	struct tern_kt_quote q;
	u32 tot_len;

	tern_kt_quote_fill(&q, IPPROTO_UDP, 0, false);
	/* The controls. */
	len = tern_kt_build4(in, &q, 0, 0, false);
	KUNIT_EXPECT_EQ(test, tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len),
			(int)(len + 20));
	len = tern_kt_build6(in, &q, 0, NULL, 0, false);
	KUNIT_EXPECT_EQ(test, tern_kt_call6to4(test, in, len, out, TERN_KT_BIG), (int)(len - 20));
	for (i = 0; i < ARRAY_SIZE(special); i++) {
		for (side = 0; side < 2; side++) {
			__be32 a4 = htonl(special[i]);

			len = tern_kt_build4(in, &q, 0, 0, false);
			if (side)
				iph->daddr = a4;
			else
				iph->saddr = a4;
			KUNIT_EXPECT_EQ_MSG(test,
					    tern_kt_call4to6(test, in, len, out, TERN_KT_BIG,
							     &tot_len), -1,
					    "4to6 %pI4 side %u", &a4, side);
			len = tern_kt_build6(in, &q, 0, NULL, 0, false);
			tern_kt_map6(a4, side ? &ip6->daddr : &ip6->saddr);
			KUNIT_EXPECT_EQ_MSG(test,
					    tern_kt_call6to4(test, in, len, out, TERN_KT_BIG), -1,
					    "6to4 %pI4 side %u", &a4, side);
		}
	}

	/* The Well-Known Prefix: 192.0.2.1 and 203.0.113.9 are not global. */
	cfg->pool6.addr = wkp;
	cfg->strict_wkp = true;
	len = tern_kt_build4(in, &q, 0, 0, false);
	KUNIT_EXPECT_EQ(test, tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len), -1);
	len = tern_kt_build6(in, &q, 0, NULL, 0, false);
	ip6->saddr = wkp;
	ip6->saddr.s6_addr32[3] = tern_kt_in_d4();
	ip6->daddr = wkp;
	ip6->daddr.s6_addr32[3] = tern_kt_in_s4();
	KUNIT_EXPECT_EQ(test, tern_kt_call6to4(test, in, len, out, TERN_KT_BIG), -1);
	/* Global addresses: translated. */
	ip6->saddr.s6_addr32[3] = htonl(0x08080808);
	ip6->daddr.s6_addr32[3] = htonl(0x5db8d822);
	KUNIT_EXPECT_EQ(test, tern_kt_call6to4(test, in, len, out, TERN_KT_BIG), (int)(len - 20));
	len = tern_kt_build4(in, &q, 0, 0, false);
	iph->saddr = htonl(0x08080808);
	iph->daddr = htonl(0x5db8d822);
	KUNIT_EXPECT_EQ(test, tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len),
			(int)(len + 20));
	/* Not strict: the non-global ones too. */
	cfg->strict_wkp = false;
	len = tern_kt_build4(in, &q, 0, 0, false);
	KUNIT_EXPECT_EQ(test, tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len),
			(int)(len + 20));
}

static struct kunit_case tern_inner_refused_cases[] = {
	KUNIT_CASE(inner_refused),
	KUNIT_CASE(inner_addresses),
	{}
};

static struct kunit_suite tern_inner_refused_suite = {
	.name = "tern_inner_refused",
	.init = tern_kt_inner_init,
	.exit = tern_kt_inner_exit,
	.test_cases = tern_inner_refused_cases,
};

kunit_test_suite(tern_inner_refused_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: packet sizes through the whole translator: DF and ID by size
 * (RFC 7915 5.1), DF=0 packets cut at lowest-ipv6-mtu, DF=1 packets too
 * big for the IPv6 route (Fragmentation Needed).
 */

#include <kunit/test.h>
#include <linux/icmp.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netfilter.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <asm/unaligned.h>
#include "kt_xlat.h"

/* RFC 7915 5.1: DF set above 1260 bytes (IPv4), ID 0 then. */
static void xlat_6to4_df(struct kunit *test)
{
	u8 *b = tern_kt_xlat_of(test)->buf;
	unsigned int tl;

	for (tl = 1258; tl <= 1263; tl++) {
		unsigned int len = tern_kt_pkt6(b, TERN_KT_H6(2), TERN_KT_H4(5), IPPROTO_UDP,
						tl - 20, 64);
		struct tern_kt_pkt *p;
		struct iphdr *iph;

		tern_kt_expect_run(test, len, true, NF_STOLEN, TERN_STAT_XLAT_64);
		p = tern_kt_expect_captured(test, 1, 0, NFPROTO_IPV4);
		iph = tern_kt_check4(test, p);
		KUNIT_EXPECT_EQ(test, p->len, tl);
		if (tl > 1260) {
			KUNIT_EXPECT_EQ_MSG(test, ntohs(iph->frag_off), IP_DF, "%u", tl);
			KUNIT_EXPECT_EQ_MSG(test, iph->id, 0, "%u", tl);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, ntohs(iph->frag_off), 0, "%u", tl);
		}
		KUNIT_EXPECT_EQ(test, tern_kt_l4check4(p->data + 20, tl - 20, IPPROTO_UDP,
						       iph->saddr, iph->daddr), 0);
	}
}

/*
 * DF clear and bigger than lowest-ipv6-mtu: IPv6 fragments carrying the
 * IPv4 ID; also an IPv4 fragment cut again.
 */
static void xlat_4to6_df0_big(struct kunit *test)
{
	u8 *b = tern_kt_xlat_of(test)->buf;
	u8 *re = kunit_kzalloc(test, TERN_KT_BUF, GFP_KERNEL);
	int lin, round;

	KUNIT_ASSERT_NOT_NULL(test, re);
	for (round = 0; round < 3; round++) {
		for (lin = 0; lin < 2; lin++) {
			u16 fo = round == 2 ? (IP_MF | 50) : 0;
			unsigned int len = tern_kt_pkt4(b, TERN_KT_H4(7), TERN_KT_H6(1),
							IPPROTO_UDP, 2980, 64, 0x4242, fo);
			unsigned int i, off = 0, n = 3, expect_n;
			struct ipv6hdr *first = NULL;

			if (round == 1)	/* TCP this time */
				len = tern_kt_pkt4(b, TERN_KT_H4(7), TERN_KT_H6(1),
						   IPPROTO_TCP, 2980, 64, 0x4242, 0);
			tern_kt_snap(test);
			KUNIT_EXPECT_EQ(test, tern_kt_run_buf(test, len, false,
							      lin ? 60 : TERN_KT_BUF),
					NF_STOLEN);
			tern_kt_expect_counter(test, TERN_STAT_XLAT_46);
			expect_n = n;
			KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), expect_n);
			for (i = 0; i < tern_kt_ncaptured(); i++) {
				struct tern_kt_pkt *p = tern_kt_captured(i);
				struct ipv6hdr *ip6 = tern_kt_check6(test, p);
				struct frag_hdr *fh = (struct frag_hdr *)(p->data + 40);
				unsigned int flen = p->len - 48;
				bool last = i + 1 == expect_n;

				KUNIT_EXPECT_LE(test, p->len, 1280U);
				KUNIT_EXPECT_EQ(test, ip6->nexthdr, NEXTHDR_FRAGMENT);
				KUNIT_EXPECT_EQ(test, fh->nexthdr,
						round == 1 ? IPPROTO_TCP : IPPROTO_UDP);
				KUNIT_EXPECT_EQ(test, ntohl(fh->identification), 0x4242U);
				KUNIT_EXPECT_EQ_MSG(test, ntohs(fh->frag_off),
						    ((round == 2 ? 400 : 0) + off) |
						    (!last || round == 2 ? IP6_MF : 0),
						    "fragment %u", i);
				KUNIT_EXPECT_EQ(test, flen, last ? 2980U - 2 * 1232 : 1232U);
				if (!first)
					first = ip6;
				else
					TERN_KT_EXPECT_BYTES(test, &ip6->saddr, &first->saddr,
							     32, "addresses");
				if (off + flen <= TERN_KT_BUF)
					memcpy(re + off, p->data + 48, flen);
				off += flen;
			}
			KUNIT_EXPECT_EQ(test, off, 2980U);
			if (first && off == 2980 && round != 2)
				KUNIT_EXPECT_EQ(test,
						tern_kt_l4check6(re, 2980, round == 1 ?
								 IPPROTO_TCP : IPPROTO_UDP,
								 &first->saddr,
								 &first->daddr), 0);
			if (off == 2980)
				TERN_KT_EXPECT_BYTES(test, re + 20, b + 40, 2960, "data");
		}
	}

	/* lowest-ipv6-mtu 1500: a 1400-byte DF=0 packet goes whole. */
	tern_kt_xlat_of(test)->ki.cfg->lowest_ipv6_mtu = 1500;
	tern_kt_snap(test);
	KUNIT_EXPECT_EQ(test, tern_kt_run_buf(test, tern_kt_pkt4(b, TERN_KT_H4(7), TERN_KT_H6(1),
								 IPPROTO_UDP, 1380, 64, 9, 0),
					      false, TERN_KT_BUF), NF_STOLEN);
	tern_kt_expect_counter(test, TERN_STAT_XLAT_46);
	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 1U);
	if (tern_kt_ncaptured() == 1)
		KUNIT_EXPECT_EQ(test, tern_kt_captured(0)->len, 1420U);
	/* 1261 bytes (1281 once translated), default lowest-ipv6-mtu: cut. */
	tern_kt_xlat_of(test)->ki.cfg->lowest_ipv6_mtu = 1280;
	tern_kt_snap(test);
	KUNIT_EXPECT_EQ(test, tern_kt_run_buf(test, tern_kt_pkt4(b, TERN_KT_H4(7), TERN_KT_H6(1),
								 IPPROTO_UDP, 1241, 64, 9, 0),
					      false, TERN_KT_BUF), NF_STOLEN);
	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 2U);
	tern_kt_snap(test);
	KUNIT_EXPECT_EQ(test, tern_kt_run_buf(test, tern_kt_pkt4(b, TERN_KT_H4(7), TERN_KT_H6(1),
								 IPPROTO_UDP, 1240, 64, 9, 0),
					      false, TERN_KT_BUF), NF_STOLEN);
	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 1U);
	if (tern_kt_ncaptured() == 1) {
		KUNIT_EXPECT_EQ(test, tern_kt_captured(0)->len, 1280U);
		KUNIT_EXPECT_EQ(test, tern_kt_captured(0)->data[6], IPPROTO_UDP);
	}
}

/* DF set and too big for the IPv6 route (1500): dropped, Frag Needed. */
static void xlat_4to6_df1_too_big(struct kunit *test)
{
	u8 *b = tern_kt_xlat_of(test)->buf;
	struct tern_kt_pkt *p;
	unsigned int len;

	len = tern_kt_pkt4(b, TERN_KT_H4(8), TERN_KT_H6(1), IPPROTO_UDP, 1461, 64, 1, IP_DF);
	tern_kt_expect_run(test, len, false, NF_DROP, TERN_STAT_DROP_TOO_BIG);
	/* The kernel's Fragmentation Needed, back to the IPv4 source. */
	KUNIT_ASSERT_EQ(test, tern_kt_ncaptured(), 1U);
	p = tern_kt_captured(0);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, p->family, NFPROTO_IPV4);
	KUNIT_ASSERT_GE(test, p->len, 28U);
	{
		struct iphdr *iph = tern_kt_check4(test, p);

		KUNIT_EXPECT_EQ(test, iph->daddr, TERN_KT_H4(8));
		KUNIT_EXPECT_EQ(test, iph->protocol, IPPROTO_ICMP);
		KUNIT_EXPECT_EQ(test, p->data[20], ICMP_DEST_UNREACH);
		KUNIT_EXPECT_EQ(test, p->data[21], ICMP_FRAG_NEEDED);
		KUNIT_EXPECT_EQ(test, get_unaligned_be16(p->data + 26), 1480);
	}
	/* 1460 + 20 = 1500: fits. */
	len = tern_kt_pkt4(b, TERN_KT_H4(8), TERN_KT_H6(1), IPPROTO_UDP, 1460, 64, 1, IP_DF);
	tern_kt_expect_run(test, len, false, NF_STOLEN, TERN_STAT_XLAT_46);
	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 1U);
}

static struct kunit_case tern_xlat_mtu_cases[] = {
	KUNIT_CASE(xlat_6to4_df),
	KUNIT_CASE(xlat_4to6_df0_big),
	KUNIT_CASE(xlat_4to6_df1_too_big),
	{}
};

static struct kunit_suite tern_xlat_mtu_suite = {
	.name = "tern_xlat_mtu",
	.suite_init = tern_kt_net_suite_init,
	.suite_exit = tern_kt_net_suite_exit,
	.init = tern_kt_xlat_init,
	.exit = tern_kt_xlat_exit,
	.test_cases = tern_xlat_mtu_cases,
};

kunit_test_suite(tern_xlat_mtu_suite);

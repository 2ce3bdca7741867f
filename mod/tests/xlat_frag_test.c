// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: fragments through the whole translator: Fragment header <-> IPv4
 * fragment fields, fragments ending past the largest datagram, datagrams
 * reassembled by defrag sent as fragments.
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

/*
 * An IPv6 fragment H6(3) -> H4(5), hop limit 30, of the @n bytes at
 * @b + 48, with a Fragment header (@frag_off, @id) before a UDP one.
 * Returns its length.
 */
static unsigned int frag6(u8 *b, unsigned int n, u16 frag_off, u32 id)
{
	struct frag_hdr *fh = (struct frag_hdr *)(b + 40);
	struct in6_addr s, d;

	tern_kt_map6(TERN_KT_H6(3), &s);
	tern_kt_map6(TERN_KT_H4(5), &d);
	tern_kt_ip6(b, 8 + n, NEXTHDR_FRAGMENT, &s, &d, 30);
	fh->nexthdr = IPPROTO_UDP;
	fh->reserved = 0;
	fh->frag_off = htons(frag_off);
	fh->identification = htonl(id);
	return 48 + n;
}

/* IPv6 Fragment header -> IPv4 fragment fields (RFC 7915 5.1.1). */
static void xlat_6to4_fragments(struct kunit *test)
{
	static const struct {
		u16 frag_off;		/* IPv6 Fragment header field */
		u16 want;		/* IPv4 flags + offset */
	} rows[] = {
		{ IP6_MF, IP_MF },			/* first */
		{ 1232 | IP6_MF, IP_MF | 154 },		/* middle */
		{ 2464, 308 },				/* last */
		{ 0, 0 },				/* atomic */
		{ 0xff20, 0x1fe4 },	/* the last that fits: 65312 + 200 + 20 */
	};
	u8 *b = tern_kt_xlat_of(test)->buf;
	struct ipv6hdr *ip6 = (struct ipv6hdr *)b;
	int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct tern_kt_pkt *p;
		struct iphdr *iph;

		tern_kt_fill(b + 48, 200, 0x33);
		b[52] = 0;	/* UDP length 200 */
		b[53] = 200;
		frag6(b, 200, rows[i].frag_off, 0x89abcdef);
		tern_kt_l4csum6(b + 48, 200, IPPROTO_UDP, &ip6->saddr,
				&ip6->daddr);

		tern_kt_expect_run(test, 248, true, NF_STOLEN, TERN_STAT_XLAT_64);
		p = tern_kt_expect_captured(test, 1, 0, NFPROTO_IPV4);
		iph = tern_kt_check4(test, p);
		KUNIT_EXPECT_EQ(test, p->len, 220U);
		KUNIT_EXPECT_EQ_MSG(test, ntohs(iph->frag_off), rows[i].want, "row %d", i);
		KUNIT_EXPECT_EQ_MSG(test, ntohs(iph->id), 0xcdef, "row %d", i);
		KUNIT_EXPECT_EQ(test, iph->protocol, IPPROTO_UDP);
		KUNIT_EXPECT_EQ(test, iph->ttl, 29);
		if (rows[i].frag_off & IP6_OFFSET)	/* untouched */
			TERN_KT_EXPECT_BYTES(test, p->data + 20, b + 48, 200, "row %d", i);
		else
			KUNIT_EXPECT_EQ_MSG(test, tern_kt_l4check4(p->data + 20, 200,
								   IPPROTO_UDP, iph->saddr,
								   iph->daddr), 0,
					    "row %d", i);
	}
}

/* IPv4 fragment -> Fragment header: ID zero-extended, offset, M. */
static void xlat_4to6_fragments(struct kunit *test)
{
	static const struct {
		u16 frag_off;		/* IPv4 */
		u16 want;		/* IPv6 Fragment header field */
	} rows[] = {
		{ IP_MF, IP6_MF },
		{ IP_MF | 100, 800 | IP6_MF },
		{ 200, 1600 },
		{ IP_DF | IP_MF | 3, 24 | IP6_MF },
		{ 8141, 0xfe68 },	/* the last that fits: 65128 + 400 */
	};
	u8 *b = tern_kt_xlat_of(test)->buf;
	int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		unsigned int len = tern_kt_pkt4(b, TERN_KT_H4(6), TERN_KT_H6(1), IPPROTO_UDP,
						400, 10, 0xbeef, rows[i].frag_off);
		struct frag_hdr *fh;
		struct tern_kt_pkt *p;
		struct ipv6hdr *ip6;

		tern_kt_snap(test);
		KUNIT_EXPECT_EQ(test, tern_kt_run_buf(test, len, false,
						      i & 1 ? 40 : TERN_KT_BUF),
				NF_STOLEN);
		tern_kt_expect_counter(test, TERN_STAT_XLAT_46);
		p = tern_kt_expect_captured(test, 1, 0, NFPROTO_IPV6);
		ip6 = tern_kt_check6(test, p);
		KUNIT_EXPECT_EQ(test, p->len, 448U);
		KUNIT_EXPECT_EQ(test, ip6->nexthdr, NEXTHDR_FRAGMENT);
		KUNIT_EXPECT_EQ(test, ip6->hop_limit, 9);
		fh = (struct frag_hdr *)(p->data + 40);
		KUNIT_EXPECT_EQ(test, fh->nexthdr, IPPROTO_UDP);
		KUNIT_EXPECT_EQ(test, fh->reserved, 0);
		KUNIT_EXPECT_EQ_MSG(test, ntohs(fh->frag_off), rows[i].want, "row %d", i);
		KUNIT_EXPECT_EQ(test, ntohl(fh->identification), 0xbeefU);
		if (rows[i].frag_off & IP_OFFSET)
			TERN_KT_EXPECT_BYTES(test, p->data + 48, b + 20, 400, "row %d", i);
		else
			KUNIT_EXPECT_EQ(test, tern_kt_l4check6(p->data + 48, 400,
							       IPPROTO_UDP, &ip6->saddr,
							       &ip6->daddr), 0);
	}
}

/* Runs one packet made reassembled by defrag (frag_max_size @fms). */
static unsigned int run_reasm(struct kunit *test, unsigned int len, bool v6,
			      u16 fms)
{
	struct sk_buff *skb = tern_kt_skb(tern_kt_xlat_of(test)->buf, len, v6, 200);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	if (v6) {
		IP6CB(skb)->frag_max_size = fms;
		IP6CB(skb)->flags |= IP6SKB_FRAGMENTED;
	} else {
		IPCB(skb)->frag_max_size = fms;
	}
	return tern_kt_run(&tern_kt_xlat_of(test)->ki, skb);
}

/*
 * Fragments ending past the largest datagram (item 10): dropped before
 * anything is sent; the IPv6 pieces of a cut IPv4 fragment never wrap.
 */
static void xlat_frag_bounds(struct kunit *test)
{
	static const struct {
		bool v6;
		u16 frag_off;	/* IPv4 field, or IPv6 Fragment header field */
		unsigned int n;	/* data bytes */
		unsigned int sent;	/* 0: dropped */
	} rows[] = {
		{ false, 0x1fff, 400, 0 },		/* 65528 + 400 */
		{ false, 8141, 408, 0 },		/* 65128 + 408 = 65536 */
		{ false, 8141, 407, 1 },		/* 65535 */
		{ false, 8017, 1400, 0 },		/* 64136 + 1400 */
		{ false, 8017, 1399, 2 },		/* cut: 65368 + 167 */
		{ false, IP_MF | 8017, 1399, 2 },
		{ true, 0xfff8, 100, 0 },		/* 20 + 65528 + 100 */
		{ true, 0xff20, 204, 0 },		/* 20 + 65312 + 204 */
		{ true, 0xff20, 203, 1 },		/* 65535 */
		{ true, 0xff20 | IP6_MF, 203, 1 },
	};
	u8 *b = tern_kt_xlat_of(test)->buf;
	int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		unsigned int len;

		if (rows[i].v6) {
			tern_kt_fill(b + 48, rows[i].n, 0x44);
			len = frag6(b, rows[i].n, rows[i].frag_off, 0x0102);
		} else {
			tern_kt_fill(b + 20, rows[i].n, 0x44);
			tern_kt_ip4(b, 20 + rows[i].n, IPPROTO_UDP, TERN_KT_H4(6),
				    TERN_KT_H6(1), 10, 0x0102, rows[i].frag_off);
			len = 20 + rows[i].n;
		}
		tern_kt_snap(test);
		KUNIT_EXPECT_EQ_MSG(test, tern_kt_run_buf(test, len, rows[i].v6, TERN_KT_BUF),
				    rows[i].sent ? NF_STOLEN : NF_DROP, "row %d", i);
		tern_kt_expect_counter(test, !rows[i].sent ? TERN_STAT_DROP_FRAGMENT :
				     rows[i].v6 ? TERN_STAT_XLAT_64 : TERN_STAT_XLAT_46);
		KUNIT_EXPECT_EQ_MSG(test, tern_kt_ncaptured(), rows[i].sent, "row %d", i);
		if (rows[i].sent == 2) {
			struct tern_kt_pkt *p0 = tern_kt_captured(0);
			struct tern_kt_pkt *p1 = tern_kt_captured(1);
			u16 mf = rows[i].frag_off & IP_MF ? IP6_MF : 0;

			KUNIT_ASSERT_TRUE(test, p0 && p1);
			KUNIT_EXPECT_EQ(test, get_unaligned_be16(p0->data + 42),
					64136 | IP6_MF);
			KUNIT_EXPECT_EQ(test, p0->len, 48U + 1232);
			KUNIT_EXPECT_EQ(test, get_unaligned_be16(p1->data + 42),
					65368 | mf);
			KUNIT_EXPECT_EQ(test, p1->len, 48U + 167);
		}
	}
}

/*
 * An IPv4 datagram reassembled by nf_defrag_ipv4 (item 9): IPv6 fragments
 * no bigger than its biggest fragment translated (frag_max_size + 28), or
 * lowest-ipv6-mtu, with its Identification; with DF (all its fragments
 * had it), not cut for lowest-ipv6-mtu, and Fragmentation Needed (MTU
 * 1500 - 28) when they would not fit.
 */
static void xlat_4to6_reassembled(struct kunit *test)
{
	static const struct {
		u16 fms, frag_off;
		unsigned int chunk;	/* 0: too big */
	} rows[] = {
		{ 1020, 0, 1000 },
		{ 1500, 0, 1232 },		/* lowest-ipv6-mtu */
		{ 1420, IP_DF, 1400 },
		{ 1472, IP_DF, 1448 },		/* 1472 + 28 = 1500 */
		{ 1473, IP_DF, 0 },
		{ 27, 0, 8 },			/* at least 8 bytes */
	};
	u8 *b = tern_kt_xlat_of(test)->buf;
	int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		unsigned int len = tern_kt_pkt4(b, TERN_KT_H4(7), TERN_KT_H6(1), IPPROTO_UDP,
						2980, 64, 0x4243, rows[i].frag_off);
		unsigned int k, off = 0, n, chunk = rows[i].chunk;

		if (rows[i].fms == 27)
			len = tern_kt_pkt4(b, TERN_KT_H4(7), TERN_KT_H6(1), IPPROTO_UDP,
					   40, 64, 0x4243, 0);
		tern_kt_snap(test);
		if (!chunk) {
			struct tern_kt_pkt *p;

			KUNIT_EXPECT_EQ(test, run_reasm(test, len, false, rows[i].fms),
					NF_DROP);
			tern_kt_expect_counter(test, TERN_STAT_DROP_TOO_BIG);
			KUNIT_ASSERT_EQ(test, tern_kt_ncaptured(), 1U);
			p = tern_kt_captured(0);
			KUNIT_ASSERT_NOT_NULL(test, p);
			KUNIT_ASSERT_EQ(test, p->family, NFPROTO_IPV4);
			KUNIT_ASSERT_GE(test, p->len, 28U);
			KUNIT_EXPECT_EQ(test, p->data[20], ICMP_DEST_UNREACH);
			KUNIT_EXPECT_EQ(test, p->data[21], ICMP_FRAG_NEEDED);
			KUNIT_EXPECT_EQ(test, get_unaligned_be16(p->data + 26),
					1472);
			continue;
		}
		KUNIT_EXPECT_EQ(test, run_reasm(test, len, false, rows[i].fms),
				NF_STOLEN);
		tern_kt_expect_counter(test, TERN_STAT_XLAT_46);
		n = len - 20;
		KUNIT_EXPECT_EQ_MSG(test, tern_kt_ncaptured(), DIV_ROUND_UP(n, chunk),
				    "row %d", i);
		for (k = 0; k < tern_kt_ncaptured(); k++) {
			struct tern_kt_pkt *p = tern_kt_captured(k);
			struct frag_hdr *fh = (struct frag_hdr *)(p->data + 40);
			unsigned int flen = min(chunk, n - off);

			tern_kt_check6(test, p);
			KUNIT_EXPECT_EQ(test, p->data[6], NEXTHDR_FRAGMENT);
			KUNIT_EXPECT_EQ_MSG(test, p->len, 48 + flen, "row %d frag %u", i, k);
			KUNIT_EXPECT_EQ(test, fh->nexthdr, IPPROTO_UDP);
			KUNIT_EXPECT_EQ(test, ntohl(fh->identification), 0x4243U);
			KUNIT_EXPECT_EQ_MSG(test, ntohs(fh->frag_off),
					    off | (off + flen < n ? IP6_MF : 0),
					    "row %d frag %u", i, k);
			if (k)
				TERN_KT_EXPECT_BYTES(test, p->data + 48, b + 20 + off, flen,
						     "row %d frag %u", i, k);
			off += flen;
		}
	}
}

/*
 * An IPv6 datagram reassembled by nf_conntrack (item 9): DF clear even
 * above 1260 bytes, an Identification of the generator (the Fragment
 * header is gone); the IPv4 output cuts it (after POST_ROUTING, where the
 * capture is).
 */
static void xlat_6to4_reassembled(struct kunit *test)
{
	u8 *b = tern_kt_xlat_of(test)->buf;
	struct tern_kt_pkt *p;
	struct iphdr *iph;
	unsigned int len;

	len = tern_kt_pkt6(b, TERN_KT_H6(3), TERN_KT_H4(5), IPPROTO_UDP, 1440, 64);
	tern_kt_snap(test);
	KUNIT_EXPECT_EQ(test, run_reasm(test, len, true, 848), NF_STOLEN);
	tern_kt_expect_counter(test, TERN_STAT_XLAT_64);
	p = tern_kt_expect_captured(test, 1, 0, NFPROTO_IPV4);
	iph = tern_kt_check4(test, p);
	KUNIT_EXPECT_EQ(test, p->len, 1460U);
	KUNIT_EXPECT_EQ(test, ntohs(iph->frag_off), 0);
	/* Without frag_max_size: DF and ID 0. */
	len = tern_kt_pkt6(b, TERN_KT_H6(3), TERN_KT_H4(5), IPPROTO_UDP, 1440, 64);
	tern_kt_snap(test);
	KUNIT_EXPECT_EQ(test, tern_kt_run_buf(test, len, true, TERN_KT_BUF), NF_STOLEN);
	p = tern_kt_expect_captured(test, 1, 0, NFPROTO_IPV4);
	iph = tern_kt_check4(test, p);
	KUNIT_EXPECT_EQ(test, ntohs(iph->frag_off), IP_DF);
	KUNIT_EXPECT_EQ(test, iph->id, 0);
}

static struct kunit_case tern_xlat_frag_cases[] = {
	KUNIT_CASE(xlat_6to4_fragments),
	KUNIT_CASE(xlat_4to6_fragments),
	KUNIT_CASE(xlat_frag_bounds),
	KUNIT_CASE(xlat_4to6_reassembled),
	KUNIT_CASE(xlat_6to4_reassembled),
	{}
};

static struct kunit_suite tern_xlat_frag_suite = {
	.name = "tern_xlat_frag",
	.suite_init = tern_kt_net_suite_init,
	.suite_exit = tern_kt_net_suite_exit,
	.init = tern_kt_xlat_init,
	.exit = tern_kt_xlat_exit,
	.test_cases = tern_xlat_frag_cases,
};

kunit_test_suite(tern_xlat_frag_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: header translation of whole packets, both ways, through
 * tern_xlat_6to4() / tern_xlat_4to6() on a fake instance in init_net. The
 * translated packets are routed to the test interface (test/kunit-net.sh)
 * and captured at POST_ROUTING; their headers, checksums and the counters
 * are checked exactly.
 */

#include <kunit/test.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netfilter.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <asm/unaligned.h>
#include "xlat/ipid.h"
#include "kt_util.h"

#define BUF 4096

struct xlat_ctx {
	struct tern_kt_inst ki;
	u8 *buf;
	u64 before[TERN_STAT_MAX + 1];
};

static struct xlat_ctx *ctx_of(struct kunit *test)
{
	return test->priv;
}

static void snap(struct kunit *test)
{
	tern_kt_stats_total(&ctx_of(test)->ki, ctx_of(test)->before);
	tern_kt_capture_reset();
}

/* Exactly one counter moved since snap(), by one, and it is @stat. */
static void expect_counter(struct kunit *test, int stat)
{
	struct xlat_ctx *c = ctx_of(test);
	u64 now[TERN_STAT_MAX + 1];
	int i;

	tern_kt_stats_total(&c->ki, now);
	for (i = 0; i <= TERN_STAT_MAX; i++)
		KUNIT_EXPECT_EQ_MSG(test, now[i] - c->before[i], i == stat ? 1ULL : 0ULL,
				    "counter %d (expected %d to move)", i, stat);
}

/* Runs one packet; returns the verdict. */
static unsigned int run(struct kunit *test, unsigned int len, bool v6,
			unsigned int linear)
{
	struct sk_buff *skb = tern_kt_skb(ctx_of(test)->buf, len, v6, linear);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	return tern_kt_run(&ctx_of(test)->ki, skb);
}

static void fill(u8 *p, unsigned int len, u8 seed)
{
	unsigned int i;

	for (i = 0; i < len; i++)
		p[i] = seed + i * 7;
}

/* IPv6 packet @s -> @d (IPv4 addresses, pool6-mapped) with an L4 segment. */
static unsigned int pkt6(u8 *p, __be32 s4, __be32 d4, u8 proto,
			 unsigned int l4len, u8 hlim)
{
	struct in6_addr s, d;

	tern_kt_map6(s4, &s);
	tern_kt_map6(d4, &d);
	fill(p + 40, l4len, 0x11);
	if (proto == IPPROTO_UDP) {
		p[44] = l4len >> 8;
		p[45] = l4len;
	} else if (proto == IPPROTO_ICMPV6) {
		p[40] = ICMPV6_ECHO_REQUEST;
		p[41] = 0;
	} else if (proto == IPPROTO_TCP) {
		p[52] = 5 << 4;
	}
	tern_kt_l4csum6(p + 40, l4len, proto, &s, &d);
	tern_kt_ip6(p, l4len, proto, &s, &d, hlim);
	return 40 + l4len;
}

static unsigned int pkt4(u8 *p, __be32 s, __be32 d, u8 proto,
			 unsigned int l4len, u8 ttl, u16 id, u16 frag_off)
{
	fill(p + 20, l4len, 0x22);
	if (proto == IPPROTO_UDP) {
		p[24] = l4len >> 8;
		p[25] = l4len;
	} else if (proto == IPPROTO_ICMP) {
		p[20] = ICMP_ECHO;
		p[21] = 0;
	} else if (proto == IPPROTO_TCP) {
		p[32] = 5 << 4;
	}
	tern_kt_l4csum4(p + 20, l4len, proto, s, d);
	tern_kt_ip4(p, 20 + l4len, proto, s, d, ttl, id, frag_off);
	return 20 + l4len;
}

static struct tern_kt_pkt *expect_captured(struct kunit *test, unsigned int n,
					   unsigned int i, u8 family)
{
	struct tern_kt_pkt *p;

	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), n);
	p = tern_kt_captured(i);
	KUNIT_ASSERT_NOT_NULL_MSG(test, p, "packet %u not captured", i);
	KUNIT_ASSERT_EQ(test, p->family, family);
	return p;
}

/* Checks of any IPv4 header: version, IHL, lengths, header checksum. */
static struct iphdr *check4(struct kunit *test, struct tern_kt_pkt *p)
{
	struct iphdr *iph = (struct iphdr *)p->data;

	KUNIT_ASSERT_GE(test, p->len, 20U);
	KUNIT_EXPECT_EQ(test, p->data[0] >> 4, 4);
	KUNIT_EXPECT_EQ(test, p->data[0] & 15, 5);
	KUNIT_EXPECT_EQ(test, ntohs(iph->tot_len), p->len);
	KUNIT_EXPECT_EQ(test, ip_fast_csum(iph, 5), 0);
	return iph;
}

static struct ipv6hdr *check6(struct kunit *test, struct tern_kt_pkt *p)
{
	struct ipv6hdr *ip6 = (struct ipv6hdr *)p->data;

	KUNIT_ASSERT_GE(test, p->len, 40U);
	KUNIT_EXPECT_EQ(test, p->data[0] >> 4, 6);
	KUNIT_EXPECT_EQ(test, ntohs(ip6->payload_len) + 40, p->len);
	return ip6;
}

static void expect_addr6(struct kunit *test, const struct in6_addr *a,
			 __be32 a4)
{
	struct in6_addr w;

	tern_kt_map6(a4, &w);
	TERN_KT_EXPECT_BYTES(test, a, &w, 16, "IPv6 address");
}

/* 6 -> 4: UDP, TCP, ICMP echo; small packets: DF clear, per-flow IDs. */
static void xlat_6to4_basic(struct kunit *test)
{
	static const u8 protos[] = { IPPROTO_UDP, IPPROTO_TCP, IPPROTO_ICMPV6 };
	u8 *b = ctx_of(test)->buf;
	int i, lin;

	for (lin = 0; lin < 2; lin++) {
		for (i = 0; i < ARRAY_SIZE(protos); i++) {
			u8 proto4 = protos[i] == IPPROTO_ICMPV6 ? IPPROTO_ICMP : protos[i];
			unsigned int len = pkt6(b, TERN_KT_H6(1), TERN_KT_H4(5),
						protos[i], 120, 64);
			struct tern_kt_pkt *p;
			struct iphdr *iph;
			u16 id;

			snap(test);
			KUNIT_EXPECT_EQ(test, run(test, len, true, lin ? 48 : BUF),
					NF_STOLEN);
			expect_counter(test, TERN_STAT_XLAT_64);
			p = expect_captured(test, 1, 0, NFPROTO_IPV4);
			iph = check4(test, p);
			KUNIT_EXPECT_EQ(test, p->len, 140U);
			KUNIT_EXPECT_EQ(test, iph->tos, 0x28);
			KUNIT_EXPECT_EQ(test, ntohs(iph->frag_off), 0);
			KUNIT_EXPECT_EQ(test, iph->ttl, 63);
			KUNIT_EXPECT_EQ(test, iph->protocol, proto4);
			KUNIT_EXPECT_EQ(test, iph->saddr, TERN_KT_H6(1));
			KUNIT_EXPECT_EQ(test, iph->daddr, TERN_KT_H4(5));
			KUNIT_EXPECT_EQ(test, tern_kt_l4check4(p->data + 20, 120, proto4,
							       iph->saddr, iph->daddr), 0);
			if (proto4 == IPPROTO_ICMP)
				KUNIT_EXPECT_EQ(test, p->data[20], ICMP_ECHO);
			/* Data untouched (past the checksum field). */
			TERN_KT_EXPECT_BYTES(test, p->data + 38, b + 58, 100, "data");
			id = ntohs(iph->id);

			/* The next packet of the flow: the next ID. */
			snap(test);
			KUNIT_EXPECT_EQ(test, run(test, len, true, BUF), NF_STOLEN);
			p = expect_captured(test, 1, 0, NFPROTO_IPV4);
			iph = check4(test, p);
			KUNIT_EXPECT_EQ(test, ntohs(iph->id), (u16)(id + 1));
		}
	}
}

/* RFC 7915 5.1: DF set above 1260 bytes (IPv4), ID 0 then. */
static void xlat_6to4_df(struct kunit *test)
{
	u8 *b = ctx_of(test)->buf;
	unsigned int tl;

	for (tl = 1258; tl <= 1263; tl++) {
		unsigned int len = pkt6(b, TERN_KT_H6(2), TERN_KT_H4(5), IPPROTO_UDP,
					tl - 20, 64);
		struct tern_kt_pkt *p;
		struct iphdr *iph;

		snap(test);
		KUNIT_EXPECT_EQ(test, run(test, len, true, BUF), NF_STOLEN);
		expect_counter(test, TERN_STAT_XLAT_64);
		p = expect_captured(test, 1, 0, NFPROTO_IPV4);
		iph = check4(test, p);
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
	u8 *b = ctx_of(test)->buf;
	struct in6_addr s, d;
	int i;

	tern_kt_map6(TERN_KT_H6(3), &s);
	tern_kt_map6(TERN_KT_H4(5), &d);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct frag_hdr *fh = (struct frag_hdr *)(b + 40);
		struct tern_kt_pkt *p;
		struct iphdr *iph;

		fill(b + 48, 200, 0x33);
		b[52] = 0;	/* UDP length 200 */
		b[53] = 200;
		tern_kt_l4csum6(b + 48, 200, IPPROTO_UDP, &s, &d);
		tern_kt_ip6(b, 208, NEXTHDR_FRAGMENT, &s, &d, 30);
		fh->nexthdr = IPPROTO_UDP;
		fh->reserved = 0;
		fh->frag_off = htons(rows[i].frag_off);
		fh->identification = htonl(0x89abcdef);

		snap(test);
		KUNIT_EXPECT_EQ(test, run(test, 248, true, BUF), NF_STOLEN);
		expect_counter(test, TERN_STAT_XLAT_64);
		p = expect_captured(test, 1, 0, NFPROTO_IPV4);
		iph = check4(test, p);
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

/* 4 -> 6: TCP, UDP, ICMP echo; DF set and clear, small packets. */
static void xlat_4to6_basic(struct kunit *test)
{
	static const u8 protos[] = { IPPROTO_UDP, IPPROTO_TCP, IPPROTO_ICMP };
	u8 *b = ctx_of(test)->buf;
	int i, df;

	for (df = 0; df < 2; df++) {
		for (i = 0; i < ARRAY_SIZE(protos); i++) {
			u8 proto6 = protos[i] == IPPROTO_ICMP ? IPPROTO_ICMPV6 : protos[i];
			unsigned int len = pkt4(b, TERN_KT_H4(5), TERN_KT_H6(1), protos[i],
						300, 64, 0x1234, df ? IP_DF : 0);
			struct tern_kt_pkt *p;
			struct ipv6hdr *ip6;

			snap(test);
			KUNIT_EXPECT_EQ(test, run(test, len, false, df ? BUF : 34),
					NF_STOLEN);
			expect_counter(test, TERN_STAT_XLAT_46);
			p = expect_captured(test, 1, 0, NFPROTO_IPV6);
			ip6 = check6(test, p);
			KUNIT_EXPECT_EQ(test, p->len, 340U);
			KUNIT_EXPECT_EQ(test, ntohl(*(__be32 *)ip6), 0x62800000U);
			KUNIT_EXPECT_EQ(test, ip6->nexthdr, proto6);
			KUNIT_EXPECT_EQ(test, ip6->hop_limit, 63);
			expect_addr6(test, &ip6->saddr, TERN_KT_H4(5));
			expect_addr6(test, &ip6->daddr, TERN_KT_H6(1));
			KUNIT_EXPECT_EQ(test, tern_kt_l4check6(p->data + 40, 300, proto6,
							       &ip6->saddr, &ip6->daddr), 0);
			if (proto6 == IPPROTO_ICMPV6)
				KUNIT_EXPECT_EQ(test, p->data[40], ICMPV6_ECHO_REQUEST);
			TERN_KT_EXPECT_BYTES(test, p->data + 60, b + 40, 280, "data");
		}
	}
}

/* UDP with a zero checksum: dropped, or computed when asked (RFC 7915 4.5). */
static void xlat_4to6_udp_csum0(struct kunit *test)
{
	u8 *b = ctx_of(test)->buf;
	unsigned int len = pkt4(b, TERN_KT_H4(5), TERN_KT_H6(1), IPPROTO_UDP, 100,
				64, 1, 0);
	struct tern_kt_pkt *p;
	struct ipv6hdr *ip6;

	b[26] = b[27] = 0;
	ctx_of(test)->ki.cfg->icmp_on_drop = false;
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, false, BUF), NF_DROP);
	expect_counter(test, TERN_STAT_DROP_UDP_CSUM0);
	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 0U);
	ctx_of(test)->ki.cfg->icmp_on_drop = true;

	ctx_of(test)->ki.cfg->amend_udp_csum0 = true;
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, false, 30), NF_STOLEN);
	expect_counter(test, TERN_STAT_XLAT_46);
	p = expect_captured(test, 1, 0, NFPROTO_IPV6);
	ip6 = check6(test, p);
	KUNIT_EXPECT_NE(test, p->data[46] | p->data[47], 0);
	KUNIT_EXPECT_EQ(test, tern_kt_l4check6(p->data + 40, 100, IPPROTO_UDP,
					       &ip6->saddr, &ip6->daddr), 0);
	/* Not for a fragment: the whole datagram is not here. */
	pkt4(b, TERN_KT_H4(5), TERN_KT_H6(1), IPPROTO_UDP, 100, 64, 1, IP_MF);
	b[26] = b[27] = 0;
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, false, BUF), NF_DROP);
	expect_counter(test, TERN_STAT_DROP_UDP_CSUM0);
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
	u8 *b = ctx_of(test)->buf;
	int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		unsigned int len = pkt4(b, TERN_KT_H4(6), TERN_KT_H6(1), IPPROTO_UDP,
					400, 10, 0xbeef, rows[i].frag_off);
		struct frag_hdr *fh;
		struct tern_kt_pkt *p;
		struct ipv6hdr *ip6;

		snap(test);
		KUNIT_EXPECT_EQ(test, run(test, len, false, i & 1 ? 40 : BUF), NF_STOLEN);
		expect_counter(test, TERN_STAT_XLAT_46);
		p = expect_captured(test, 1, 0, NFPROTO_IPV6);
		ip6 = check6(test, p);
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

/*
 * DF clear and bigger than lowest-ipv6-mtu: IPv6 fragments carrying the
 * IPv4 ID; also an IPv4 fragment cut again.
 */
static void xlat_4to6_df0_big(struct kunit *test)
{
	u8 *b = ctx_of(test)->buf;
	u8 *re = kunit_kzalloc(test, BUF, GFP_KERNEL);
	int lin, round;

	KUNIT_ASSERT_NOT_NULL(test, re);
	for (round = 0; round < 3; round++) {
		for (lin = 0; lin < 2; lin++) {
			u16 fo = round == 2 ? (IP_MF | 50) : 0;
			unsigned int len = pkt4(b, TERN_KT_H4(7), TERN_KT_H6(1),
						IPPROTO_UDP, 2980, 64, 0x4242, fo);
			unsigned int i, off = 0, n = 3, expect_n;
			struct ipv6hdr *first = NULL;

			if (round == 1)	/* TCP this time */
				len = pkt4(b, TERN_KT_H4(7), TERN_KT_H6(1),
					   IPPROTO_TCP, 2980, 64, 0x4242, 0);
			snap(test);
			KUNIT_EXPECT_EQ(test, run(test, len, false, lin ? 60 : BUF),
					NF_STOLEN);
			expect_counter(test, TERN_STAT_XLAT_46);
			expect_n = n;
			KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), expect_n);
			for (i = 0; i < tern_kt_ncaptured(); i++) {
				struct tern_kt_pkt *p = tern_kt_captured(i);
				struct ipv6hdr *ip6 = check6(test, p);
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
				if (off + flen <= BUF)
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
	ctx_of(test)->ki.cfg->lowest_ipv6_mtu = 1500;
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, pkt4(b, TERN_KT_H4(7), TERN_KT_H6(1),
					     IPPROTO_UDP, 1380, 64, 9, 0),
				  false, BUF), NF_STOLEN);
	expect_counter(test, TERN_STAT_XLAT_46);
	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 1U);
	if (tern_kt_ncaptured() == 1)
		KUNIT_EXPECT_EQ(test, tern_kt_captured(0)->len, 1420U);
	/* 1261 bytes (1281 once translated), default lowest-ipv6-mtu: cut. */
	ctx_of(test)->ki.cfg->lowest_ipv6_mtu = 1280;
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, pkt4(b, TERN_KT_H4(7), TERN_KT_H6(1),
					     IPPROTO_UDP, 1241, 64, 9, 0),
				  false, BUF), NF_STOLEN);
	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 2U);
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, pkt4(b, TERN_KT_H4(7), TERN_KT_H6(1),
					     IPPROTO_UDP, 1240, 64, 9, 0),
				  false, BUF), NF_STOLEN);
	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 1U);
	if (tern_kt_ncaptured() == 1) {
		KUNIT_EXPECT_EQ(test, tern_kt_captured(0)->len, 1280U);
		KUNIT_EXPECT_EQ(test, tern_kt_captured(0)->data[6], IPPROTO_UDP);
	}
}

/* DF set and too big for the IPv6 route (1500): dropped, Frag Needed. */
static void xlat_4to6_df1_too_big(struct kunit *test)
{
	u8 *b = ctx_of(test)->buf;
	struct tern_kt_pkt *p;
	unsigned int len;

	len = pkt4(b, TERN_KT_H4(8), TERN_KT_H6(1), IPPROTO_UDP, 1461, 64, 1, IP_DF);
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, false, BUF), NF_DROP);
	expect_counter(test, TERN_STAT_DROP_TOO_BIG);
	/* The kernel's Fragmentation Needed, back to the IPv4 source. */
	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 1U);
	p = tern_kt_captured(0);
	if (p && p->family == NFPROTO_IPV4 && p->len >= 28) {
		struct iphdr *iph = check4(test, p);

		KUNIT_EXPECT_EQ(test, iph->daddr, TERN_KT_H4(8));
		KUNIT_EXPECT_EQ(test, iph->protocol, IPPROTO_ICMP);
		KUNIT_EXPECT_EQ(test, p->data[20], ICMP_DEST_UNREACH);
		KUNIT_EXPECT_EQ(test, p->data[21], ICMP_FRAG_NEEDED);
		KUNIT_EXPECT_EQ(test, get_unaligned_be16(p->data + 26), 1480);
	}
	/* 1460 + 20 = 1500: fits. */
	len = pkt4(b, TERN_KT_H4(8), TERN_KT_H6(1), IPPROTO_UDP, 1460, 64, 1, IP_DF);
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, false, BUF), NF_STOLEN);
	expect_counter(test, TERN_STAT_XLAT_46);
	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 1U);
}

/* Runs one packet made reassembled by defrag (frag_max_size @fms). */
static unsigned int run_reasm(struct kunit *test, unsigned int len, bool v6,
			      u16 fms)
{
	struct sk_buff *skb = tern_kt_skb(ctx_of(test)->buf, len, v6, 200);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	if (v6) {
		IP6CB(skb)->frag_max_size = fms;
		IP6CB(skb)->flags |= IP6SKB_FRAGMENTED;
	} else {
		IPCB(skb)->frag_max_size = fms;
	}
	return tern_kt_run(&ctx_of(test)->ki, skb);
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
	u8 *b = ctx_of(test)->buf;
	struct in6_addr s, d;
	int i;

	tern_kt_map6(TERN_KT_H6(3), &s);
	tern_kt_map6(TERN_KT_H4(5), &d);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		unsigned int len;

		if (rows[i].v6) {
			struct frag_hdr *fh = (struct frag_hdr *)(b + 40);

			fill(b + 48, rows[i].n, 0x44);
			tern_kt_ip6(b, 8 + rows[i].n, NEXTHDR_FRAGMENT, &s, &d, 30);
			fh->nexthdr = IPPROTO_UDP;
			fh->reserved = 0;
			fh->frag_off = htons(rows[i].frag_off);
			fh->identification = htonl(0x0102);
			len = 48 + rows[i].n;
		} else {
			fill(b + 20, rows[i].n, 0x44);
			tern_kt_ip4(b, 20 + rows[i].n, IPPROTO_UDP, TERN_KT_H4(6),
				    TERN_KT_H6(1), 10, 0x0102, rows[i].frag_off);
			len = 20 + rows[i].n;
		}
		snap(test);
		KUNIT_EXPECT_EQ_MSG(test, run(test, len, rows[i].v6, BUF),
				    rows[i].sent ? NF_STOLEN : NF_DROP, "row %d", i);
		expect_counter(test, !rows[i].sent ? TERN_STAT_DROP_FRAGMENT :
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
	u8 *b = ctx_of(test)->buf;
	int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		unsigned int len = pkt4(b, TERN_KT_H4(7), TERN_KT_H6(1), IPPROTO_UDP,
					2980, 64, 0x4243, rows[i].frag_off);
		unsigned int k, off = 0, n, chunk = rows[i].chunk;

		if (rows[i].fms == 27)
			len = pkt4(b, TERN_KT_H4(7), TERN_KT_H6(1), IPPROTO_UDP,
				   40, 64, 0x4243, 0);
		snap(test);
		if (!chunk) {
			struct tern_kt_pkt *p;

			KUNIT_EXPECT_EQ(test, run_reasm(test, len, false, rows[i].fms),
					NF_DROP);
			expect_counter(test, TERN_STAT_DROP_TOO_BIG);
			KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 1U);
			p = tern_kt_captured(0);
			if (p && p->family == NFPROTO_IPV4 && p->len >= 28) {
				KUNIT_EXPECT_EQ(test, p->data[20], ICMP_DEST_UNREACH);
				KUNIT_EXPECT_EQ(test, p->data[21], ICMP_FRAG_NEEDED);
				KUNIT_EXPECT_EQ(test, get_unaligned_be16(p->data + 26),
						1472);
			}
			continue;
		}
		KUNIT_EXPECT_EQ(test, run_reasm(test, len, false, rows[i].fms),
				NF_STOLEN);
		expect_counter(test, TERN_STAT_XLAT_46);
		n = len - 20;
		KUNIT_EXPECT_EQ_MSG(test, tern_kt_ncaptured(), DIV_ROUND_UP(n, chunk),
				    "row %d", i);
		for (k = 0; k < tern_kt_ncaptured(); k++) {
			struct tern_kt_pkt *p = tern_kt_captured(k);
			struct frag_hdr *fh = (struct frag_hdr *)(p->data + 40);
			unsigned int flen = min(chunk, n - off);

			check6(test, p);
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
	u8 *b = ctx_of(test)->buf;
	struct tern_kt_pkt *p;
	struct iphdr *iph;
	unsigned int len;

	len = pkt6(b, TERN_KT_H6(3), TERN_KT_H4(5), IPPROTO_UDP, 1440, 64);
	snap(test);
	KUNIT_EXPECT_EQ(test, run_reasm(test, len, true, 848), NF_STOLEN);
	expect_counter(test, TERN_STAT_XLAT_64);
	p = expect_captured(test, 1, 0, NFPROTO_IPV4);
	iph = check4(test, p);
	KUNIT_EXPECT_EQ(test, p->len, 1460U);
	KUNIT_EXPECT_EQ(test, ntohs(iph->frag_off), 0);
	/* Without frag_max_size: DF and ID 0. */
	len = pkt6(b, TERN_KT_H6(3), TERN_KT_H4(5), IPPROTO_UDP, 1440, 64);
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, true, BUF), NF_STOLEN);
	p = expect_captured(test, 1, 0, NFPROTO_IPV4);
	iph = check4(test, p);
	KUNIT_EXPECT_EQ(test, ntohs(iph->frag_off), IP_DF);
	KUNIT_EXPECT_EQ(test, iph->id, 0);
}

/* Packets not translated: the reason counted once, nothing sent. */
static void xlat_not_translated(struct kunit *test)
{
	struct xlat_ctx *c = ctx_of(test);
	u8 *b = c->buf;
	struct in6_addr other = { { { 0x20, 0x01, 0x0d, 0xb8, 0, 0x99 } } };
	unsigned int len;
	struct sk_buff *skb;

	/* Destination outside pool6. */
	len = pkt6(b, TERN_KT_H6(1), TERN_KT_H4(5), IPPROTO_UDP, 50, 64);
	((struct ipv6hdr *)b)->daddr = other;
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, true, BUF), NF_ACCEPT);
	expect_counter(test, TERN_STAT_PASS_NO_MAPPING);
	/* Source outside pool6. */
	len = pkt6(b, TERN_KT_H6(1), TERN_KT_H4(5), IPPROTO_UDP, 50, 64);
	((struct ipv6hdr *)b)->saddr = other;
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, true, BUF), NF_DROP);
	expect_counter(test, TERN_STAT_DROP_SRC_UNTRANSLATABLE);
	/* Hop limit 1 and TTL 1. */
	len = pkt6(b, TERN_KT_H6(1), TERN_KT_H4(5), IPPROTO_UDP, 50, 1);
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, true, BUF), NF_DROP);
	expect_counter(test, TERN_STAT_DROP_TTL);
	len = pkt4(b, TERN_KT_H4(5), TERN_KT_H6(1), IPPROTO_UDP, 50, 1, 1, 0);
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, false, BUF), NF_DROP);
	expect_counter(test, TERN_STAT_DROP_TTL);
	/* Special IPv4 addresses. */
	len = pkt4(b, htonl(0x7f000001), TERN_KT_H6(1), IPPROTO_UDP, 50, 64, 1, 0);
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, false, BUF), NF_ACCEPT);
	expect_counter(test, TERN_STAT_PASS_SPECIAL4);
	len = pkt6(b, htonl(0xe0000001), TERN_KT_H4(5), IPPROTO_UDP, 50, 64);
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, true, BUF), NF_DROP);
	expect_counter(test, TERN_STAT_DROP_SPECIAL4);
	/* A local IPv4 destination (the test interface's address). */
	len = pkt4(b, TERN_KT_H4(5), htonl(0x0aff0001), IPPROTO_UDP, 50, 64, 1, 0);
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, false, BUF), NF_ACCEPT);
	expect_counter(test, TERN_STAT_PASS_LOCAL);
	/* No route (nothing routes 100.64.0.0/10 in the VM). */
	len = pkt6(b, TERN_KT_H6(1), htonl(0x64400001), IPPROTO_UDP, 50, 64);
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, true, BUF), NF_DROP);
	expect_counter(test, TERN_STAT_DROP_NO_ROUTE);
	/* Other host; disabled. */
	len = pkt6(b, TERN_KT_H6(1), TERN_KT_H4(5), IPPROTO_UDP, 50, 64);
	skb = tern_kt_skb(b, len, true, BUF);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb->pkt_type = PACKET_OTHERHOST;
	snap(test);
	KUNIT_EXPECT_EQ(test, tern_kt_run(&c->ki, skb), NF_ACCEPT);
	expect_counter(test, TERN_STAT_PASS_OTHERHOST);
	c->ki.cfg->enabled = false;
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, true, BUF), NF_ACCEPT);
	expect_counter(test, TERN_STAT_PASS_DISABLED);
	KUNIT_EXPECT_EQ(test, run(test, pkt4(b, TERN_KT_H4(5), TERN_KT_H6(1),
					     IPPROTO_UDP, 50, 64, 1, 0),
				  false, BUF), NF_ACCEPT);
	c->ki.cfg->enabled = true;
	/* ICMP informational other than echo; ICMP fragments. */
	len = pkt6(b, TERN_KT_H6(1), TERN_KT_H4(5), IPPROTO_ICMPV6, 50, 64);
	b[40] = 135;	/* neighbour solicitation */
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, true, BUF), NF_DROP);
	expect_counter(test, TERN_STAT_DROP_ICMP_INFO);
	len = pkt4(b, TERN_KT_H4(5), TERN_KT_H6(1), IPPROTO_ICMP, 50, 64, 1, IP_MF);
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, false, BUF), NF_DROP);
	expect_counter(test, TERN_STAT_DROP_ICMP_FRAGMENT);
	/* A Routing header with Segments Left. */
	len = pkt6(b, TERN_KT_H6(1), TERN_KT_H4(5), IPPROTO_UDP, 58, 64);
	memmove(b + 48, b + 40, 50);
	b[6] = NEXTHDR_ROUTING;
	b[40] = IPPROTO_UDP;
	b[41] = 0;
	b[42] = 4;
	b[43] = 1;
	memset(b + 44, 0, 4);
	snap(test);
	KUNIT_EXPECT_EQ(test, run(test, len, true, BUF), NF_DROP);
	expect_counter(test, TERN_STAT_DROP_ROUTING_HDR);
}

/* An ICMPv4 error with a whole UDP datagram quoted. */
static unsigned int icmp4_err(u8 *b, u8 type, u8 code, __be32 rest,
			      unsigned int qlen, unsigned int tot_len)
{
	u8 *q = b + 28;

	/* The quote: what the translator sent, H6(1) -> H4(5). */
	pkt4(q, TERN_KT_H6(1), TERN_KT_H4(5), IPPROTO_UDP, tot_len - 20, 17, 0x777,
	     IP_DF);
	memset(b + 20, 0, 8);
	b[20] = type;
	b[21] = code;
	memcpy(b + 24, &rest, 4);
	*(__sum16 *)(b + 22) = ip_compute_csum(b + 20, 8 + qlen);
	tern_kt_ip4(b, 28 + qlen, IPPROTO_ICMP, TERN_KT_R4(9), TERN_KT_H6(1), 50,
		    1, 0);
	return 28 + qlen;
}

static void xlat_icmp_err_4to6(struct kunit *test)
{
	static const struct {
		u8 type, code;
		__be32 rest;
		u8 t6, c6;
		u32 rest6;
	} rows[] = {
		{ 3, 3, 0, 1, 4, 0 },
		{ 3, 1, 0, 1, 0, 0 },
		{ 3, 13, 0, 1, 1, 0 },
		{ 3, 2, 0, 4, 1, 6 },
		{ 3, 4, cpu_to_be32(1400), 2, 0, 1420 },
		{ 3, 4, 0, 2, 0, 1280 },		/* plateau 1006 -> 1280 */
		{ 11, 0, 0, 3, 0, 0 },
		{ 12, 0, cpu_to_be32(9 << 24), 4, 0, 6 },
		{ 12, 2, cpu_to_be32(16 << 24), 4, 0, 24 },
	};
	u8 *b = ctx_of(test)->buf;
	int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		unsigned int len = icmp4_err(b, rows[i].type, rows[i].code,
					     rows[i].rest, 48, 48);
		struct tern_kt_pkt *p;
		struct ipv6hdr *ip6, *in6;

		if (rows[i].type == 3 && rows[i].code == 4 && !rows[i].rest) {
			/* Total Length 1200: greatest plateau below is 1006. */
			((struct iphdr *)(b + 28))->tot_len = htons(1200);
			ip_send_check((struct iphdr *)(b + 28));
			*(__sum16 *)(b + 22) = 0;
			*(__sum16 *)(b + 22) = ip_compute_csum(b + 20, 8 + 48);
		}
		snap(test);
		KUNIT_EXPECT_EQ_MSG(test, run(test, len, false, i & 1 ? 30 : BUF),
				    NF_STOLEN, "row %d", i);
		expect_counter(test, TERN_STAT_XLAT_ICMP_ERR_46);
		p = expect_captured(test, 1, 0, NFPROTO_IPV6);
		ip6 = check6(test, p);
		KUNIT_EXPECT_EQ(test, p->len, 40U + 8 + 40 + 28);
		KUNIT_EXPECT_EQ(test, ip6->nexthdr, IPPROTO_ICMPV6);
		KUNIT_EXPECT_EQ(test, ip6->hop_limit, 49);
		expect_addr6(test, &ip6->saddr, TERN_KT_R4(9));
		expect_addr6(test, &ip6->daddr, TERN_KT_H6(1));
		KUNIT_EXPECT_EQ_MSG(test, p->data[40], rows[i].t6, "row %d", i);
		KUNIT_EXPECT_EQ_MSG(test, p->data[41], rows[i].c6, "row %d", i);
		KUNIT_EXPECT_EQ_MSG(test, get_unaligned_be32(p->data + 44), rows[i].rest6,
				    "row %d", i);
		KUNIT_EXPECT_EQ(test, tern_kt_l4check6(p->data + 40, p->len - 40,
						       IPPROTO_ICMPV6, &ip6->saddr,
						       &ip6->daddr), 0);
		/* The packet in error, translated. */
		in6 = (struct ipv6hdr *)(p->data + 48);
		KUNIT_EXPECT_EQ(test, p->data[48] >> 4, 6);
		KUNIT_EXPECT_EQ(test, in6->nexthdr, IPPROTO_UDP);
		KUNIT_EXPECT_EQ(test, in6->hop_limit, 17);
		expect_addr6(test, &in6->saddr, TERN_KT_H6(1));
		expect_addr6(test, &in6->daddr, TERN_KT_H4(5));
		if (rows[i].code == 4 && !rows[i].rest) {
			KUNIT_EXPECT_EQ(test, ntohs(in6->payload_len), 1180);
		} else {
			KUNIT_EXPECT_EQ(test, ntohs(in6->payload_len), 28);
			KUNIT_EXPECT_EQ(test, tern_kt_l4check6(p->data + 88, 28, IPPROTO_UDP,
							       &in6->saddr, &in6->daddr), 0);
		}
	}

	/* Dropped ones: Source Quench, Redirect, Parameter Problem on options. */
	for (i = 0; i < 3; i++) {
		static const u8 t[] = { 4, 5, 12 };
		unsigned int len = icmp4_err(b, t[i], 0, cpu_to_be32(24 << 24), 48, 48);

		snap(test);
		KUNIT_EXPECT_EQ(test, run(test, len, false, BUF), NF_DROP);
		expect_counter(test, TERN_STAT_DROP_ICMP_ERROR);
	}
	/* An error about an ICMP error. */
	{
		unsigned int len = icmp4_err(b, 3, 1, 0, 48, 48);

		b[28 + 9] = IPPROTO_ICMP;
		b[48] = ICMP_DEST_UNREACH;
		/* A right checksum: the quote, not the message, is refused. */
		*(__sum16 *)(b + 22) = 0;
		*(__sum16 *)(b + 22) = ip_compute_csum(b + 20, 8 + 48);
		snap(test);
		KUNIT_EXPECT_EQ(test, run(test, len, false, BUF), NF_DROP);
		expect_counter(test, TERN_STAT_DROP_ICMP_INNER);
	}

	/* RFC 4884: Time Exceeded, 128 bytes quoted, an 8-byte extension. */
	{
		unsigned int len = icmp4_err(b, 11, 0, cpu_to_be32(32 << 16), 136, 128);
		struct tern_kt_pkt *p;
		static const u8 ext[8] = { 0x20, 0, 0, 0, 0, 4, 1, 1 };

		memcpy(b + 28 + 128, ext, 8);
		*(__sum16 *)(b + 22) = 0;
		*(__sum16 *)(b + 22) = ip_compute_csum(b + 20, 8 + 136);
		snap(test);
		KUNIT_EXPECT_EQ(test, run(test, len, false, BUF), NF_STOLEN);
		expect_counter(test, TERN_STAT_XLAT_ICMP_ERR_46);
		p = expect_captured(test, 1, 0, NFPROTO_IPV6);
		check6(test, p);
		/* 148 bytes translated, padded to 152 (19 words), then the extension. */
		KUNIT_EXPECT_EQ(test, p->len, 40U + 8 + 152 + 8);
		KUNIT_EXPECT_EQ(test, p->data[44], 19);
		if (p->len == 208) {
			static const u8 zero[4];

			TERN_KT_EXPECT_BYTES(test, p->data + 48 + 148, zero, 4, "padding");
			TERN_KT_EXPECT_BYTES(test, p->data + 200, ext, 8, "extension");
		}
	}
}

/* An ICMPv6 error quoting @qlen bytes of a UDP packet H4(5) -> H6(1). */
static unsigned int icmp6_err(u8 *b, u8 type, u8 code, u32 rest,
			      unsigned int qlen, unsigned int plen)
{
	struct in6_addr s, d;

	pkt6(b + 48, TERN_KT_H4(5), TERN_KT_H6(1), IPPROTO_UDP, plen, 23);
	memset(b + 40, 0, 8);
	b[40] = type;
	b[41] = code;
	put_unaligned_be32(rest, b + 44);
	tern_kt_map6(TERN_KT_H6(7), &s);
	tern_kt_map6(TERN_KT_H4(5), &d);
	tern_kt_l4csum6(b + 40, 8 + qlen, IPPROTO_ICMPV6, &s, &d);
	tern_kt_ip6(b, 8 + qlen, IPPROTO_ICMPV6, &s, &d, 40);
	return 48 + qlen;
}

static void xlat_icmp_err_6to4(struct kunit *test)
{
	static const struct {
		u8 type, code;
		u32 rest;
		u8 t4, c4;
		u32 rest4;	/* bytes 4-7 of the ICMPv4 header */
	} rows[] = {
		{ 1, 4, 0, 3, 3, 0 },
		{ 1, 0, 0, 3, 1, 0 },
		{ 1, 1, 0, 3, 10, 0 },
		{ 2, 0, 1400, 3, 4, 1380 },
		{ 2, 0, 1280, 3, 4, 1260 },
		{ 2, 0, 0, 3, 4, 1260 },	/* below 1280: as 1280 */
		{ 2, 0, 1000, 3, 4, 1260 },
		{ 3, 1, 0, 11, 1, 0 },
		{ 4, 0, 7, 12, 0, 8U << 24 },
		{ 4, 0, 30, 12, 0, 16U << 24 },
		{ 4, 1, 6, 3, 2, 0 },
	};
	u8 *b = ctx_of(test)->buf;
	int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		unsigned int len = icmp6_err(b, rows[i].type, rows[i].code,
					     rows[i].rest, 68, 28);
		struct tern_kt_pkt *p;
		struct iphdr *iph, *in4;

		snap(test);
		KUNIT_EXPECT_EQ_MSG(test, run(test, len, true, i & 1 ? 50 : BUF),
				    NF_STOLEN, "row %d", i);
		expect_counter(test, TERN_STAT_XLAT_ICMP_ERR_64);
		p = expect_captured(test, 1, 0, NFPROTO_IPV4);
		iph = check4(test, p);
		KUNIT_EXPECT_EQ(test, p->len, 20U + 8 + 20 + 28);
		KUNIT_EXPECT_EQ(test, iph->protocol, IPPROTO_ICMP);
		KUNIT_EXPECT_EQ(test, iph->ttl, 39);
		KUNIT_EXPECT_EQ(test, ntohs(iph->frag_off) & ~IP_DF, 0);
		KUNIT_EXPECT_EQ(test, iph->saddr, TERN_KT_H6(7));
		KUNIT_EXPECT_EQ(test, iph->daddr, TERN_KT_H4(5));
		KUNIT_EXPECT_EQ_MSG(test, p->data[20], rows[i].t4, "row %d", i);
		KUNIT_EXPECT_EQ_MSG(test, p->data[21], rows[i].c4, "row %d", i);
		KUNIT_EXPECT_EQ_MSG(test, get_unaligned_be32(p->data + 24), rows[i].rest4,
				    "row %d", i);
		KUNIT_EXPECT_EQ(test, ip_compute_csum(p->data + 20, p->len - 20), 0);
		in4 = (struct iphdr *)(p->data + 28);
		KUNIT_EXPECT_EQ(test, p->data[28], 0x45);
		KUNIT_EXPECT_EQ(test, ntohs(in4->tot_len), 48);
		/* 48 bytes declared: DF clear, an Identification (RFC 7915 5.3). */
		KUNIT_EXPECT_EQ(test, ntohs(in4->frag_off), 0);
		KUNIT_EXPECT_EQ(test, in4->ttl, 23);
		KUNIT_EXPECT_EQ(test, in4->protocol, IPPROTO_UDP);
		KUNIT_EXPECT_EQ(test, in4->saddr, TERN_KT_H4(5));
		KUNIT_EXPECT_EQ(test, in4->daddr, TERN_KT_H6(1));
		KUNIT_EXPECT_EQ(test, ip_fast_csum(in4, 5), 0);
		KUNIT_EXPECT_EQ(test, tern_kt_l4check4(p->data + 48, 28, IPPROTO_UDP,
						       in4->saddr, in4->daddr), 0);
	}

	/* Dropped: unrecognized option, unknown codes, pointer in the Flow Label. */
	{
		static const struct { u8 t, c; u32 rest; } drops[] = {
			{ 4, 2, 0 }, { 1, 7, 0 }, { 4, 0, 2 }, { 4, 0, 40 }, { 4, 3, 0 },
		};

		for (i = 0; i < ARRAY_SIZE(drops); i++) {
			unsigned int len = icmp6_err(b, drops[i].t, drops[i].c,
						     drops[i].rest, 68, 28);

			snap(test);
			KUNIT_EXPECT_EQ(test, run(test, len, true, BUF), NF_DROP);
			expect_counter(test, TERN_STAT_DROP_ICMP_ERROR);
		}
	}

	/* RFC 4884: 128 bytes quoted (16 words), an 8-byte extension. */
	{
		static const u8 ext[8] = { 0x20, 0, 0, 0, 0, 4, 1, 1 };
		struct in6_addr s, d;
		unsigned int len = icmp6_err(b, 1, 4, 16U << 24, 136, 88);
		struct tern_kt_pkt *p;

		memcpy(b + 48 + 128, ext, 8);
		tern_kt_map6(TERN_KT_H6(7), &s);
		tern_kt_map6(TERN_KT_H4(5), &d);
		tern_kt_l4csum6(b + 40, 8 + 136, IPPROTO_ICMPV6, &s, &d);
		snap(test);
		KUNIT_EXPECT_EQ(test, run(test, len, true, BUF), NF_STOLEN);
		expect_counter(test, TERN_STAT_XLAT_ICMP_ERR_64);
		p = expect_captured(test, 1, 0, NFPROTO_IPV4);
		check4(test, p);
		/* 108 bytes translated, padded to 128 (32 words), extension. */
		KUNIT_EXPECT_EQ(test, p->len, 20U + 8 + 128 + 8);
		KUNIT_EXPECT_EQ(test, p->data[25], 32);
		if (p->len == 164)
			TERN_KT_EXPECT_BYTES(test, p->data + 156, ext, 8, "extension");
		KUNIT_EXPECT_EQ(test, ip_compute_csum(p->data + 20, p->len - 20), 0);
	}

	/* RFC 6791: a source outside pool6, the error gets one from the pool. */
	{
		struct in6_addr other = { { { 0x20, 0x01, 0x0d, 0xb8, 0, 0x99 } } };
		unsigned int len = icmp6_err(b, 3, 0, 0, 68, 28);
		struct tern_kt_pkt *p;
		struct tern_config *cfg = ctx_of(test)->ki.cfg;

		((struct ipv6hdr *)b)->saddr = other;
		tern_kt_l4csum6(b + 40, 76, IPPROTO_ICMPV6, &other,
				&((struct ipv6hdr *)b)->daddr);
		cfg->rfc6791v4_set = true;
		cfg->rfc6791v4.addr = TERN_KT_R4(128);
		cfg->rfc6791v4.len = 25;
		snap(test);
		KUNIT_EXPECT_EQ(test, run(test, len, true, BUF), NF_STOLEN);
		expect_counter(test, TERN_STAT_XLAT_ICMP_ERR_64);
		p = expect_captured(test, 1, 0, NFPROTO_IPV4);
		KUNIT_EXPECT_EQ(test, ntohl(check4(test, p)->saddr) & ~0x7fU,
				ntohl(TERN_KT_R4(128)));
		cfg->rfc6791v4_set = false;
	}

	/*
	 * RFC 6791 pools of every length down to a single address: the
	 * source stays inside (a /32 once shifted a u32 by 32: UBSAN).
	 */
	{
		struct in6_addr other = { { { 0x20, 0x01, 0x0d, 0xb8, 0, 0x98 } } };
		struct tern_config *cfg = ctx_of(test)->ki.cfg;
		unsigned int plen;

		for (plen = 24; plen <= 32; plen++) {
			unsigned int len = icmp6_err(b, 3, 0, 0, 68, 28);
			u32 mask = plen == 32 ? ~0U : ~(~0U >> plen);
			struct tern_kt_pkt *p;

			((struct ipv6hdr *)b)->saddr = other;
			tern_kt_l4csum6(b + 40, 76, IPPROTO_ICMPV6, &other,
					&((struct ipv6hdr *)b)->daddr);
			cfg->rfc6791v4_set = true;
			cfg->rfc6791v4.addr = TERN_KT_R4(128);
			cfg->rfc6791v4.len = plen;
			tern_kt_capture_reset();
			snap(test);
			KUNIT_EXPECT_EQ(test, run(test, len, true, BUF), NF_STOLEN);
			expect_counter(test, TERN_STAT_XLAT_ICMP_ERR_64);
			p = expect_captured(test, 1, 0, NFPROTO_IPV4);
			KUNIT_EXPECT_EQ_MSG(test,
					    ntohl(check4(test, p)->saddr) & mask,
					    ntohl(TERN_KT_R4(128)) & mask,
					    "pool length %u", plen);
			if (plen == 32)
				KUNIT_EXPECT_EQ(test, check4(test, p)->saddr,
						TERN_KT_R4(128));
		}
		cfg->rfc6791v4_set = false;
	}
}

static int xlat_init(struct kunit *test)
{
	struct xlat_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	if (!c)
		return -ENOMEM;
	c->buf = kunit_kzalloc(test, BUF, GFP_KERNEL);
	if (!c->buf || tern_kt_inst_init(&c->ki))
		return -ENOMEM;
	test->priv = c;
	tern_kt_capture_reset();
	return 0;
}

static void xlat_exit(struct kunit *test)
{
	struct xlat_ctx *c = test->priv;

	tern_kt_capture_reset();
	tern_kt_inst_fini(&c->ki);
}

static int xlat_suite_init(struct kunit_suite *suite)
{
	tern_ipid_init();
	return tern_kt_capture_register();
}

static void xlat_suite_exit(struct kunit_suite *suite)
{
	tern_kt_capture_unregister();
}

static struct kunit_case tern_xlat_cases[] = {
	KUNIT_CASE(xlat_6to4_basic),
	KUNIT_CASE(xlat_6to4_df),
	KUNIT_CASE(xlat_6to4_fragments),
	KUNIT_CASE(xlat_4to6_basic),
	KUNIT_CASE(xlat_4to6_udp_csum0),
	KUNIT_CASE(xlat_4to6_fragments),
	KUNIT_CASE(xlat_4to6_df0_big),
	KUNIT_CASE(xlat_4to6_df1_too_big),
	KUNIT_CASE(xlat_frag_bounds),
	KUNIT_CASE(xlat_4to6_reassembled),
	KUNIT_CASE(xlat_6to4_reassembled),
	KUNIT_CASE(xlat_not_translated),
	KUNIT_CASE(xlat_icmp_err_4to6),
	KUNIT_CASE(xlat_icmp_err_6to4),
	{}
};

static struct kunit_suite tern_xlat_suite = {
	.name = "tern_xlat",
	.suite_init = xlat_suite_init,
	.suite_exit = xlat_suite_exit,
	.init = xlat_init,
	.exit = xlat_exit,
	.test_cases = tern_xlat_cases,
};

kunit_test_suite(tern_xlat_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: ICMP errors through the whole translator, both ways: type, code,
 * MTU and pointer of the outer message, the packet in error translated,
 * RFC 4884 lengths, the RFC 6791 source, the errors that are dropped.
 */

#include <kunit/test.h>
#include <linux/icmp.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netfilter.h>
#include <net/ip.h>
#include <asm/unaligned.h>
#include "kt_xlat.h"

/*
 * Row @row of a table of errors, @linear bytes of it linear: translated,
 * counted, and the one packet sent.
 */
static struct tern_kt_pkt *run_row(struct kunit *test, unsigned int len,
				   bool v6, unsigned int linear, int row)
{
	tern_kt_snap(test);
	KUNIT_EXPECT_EQ_MSG(test, tern_kt_run_buf(test, len, v6, linear),
			    NF_STOLEN, "row %d", row);
	tern_kt_expect_counter(test, v6 ? TERN_STAT_XLAT_ICMP_ERR_64 :
					  TERN_STAT_XLAT_ICMP_ERR_46);
	return tern_kt_expect_captured(test, 1, 0,
				       v6 ? NFPROTO_IPV4 : NFPROTO_IPV6);
}

/* An ICMPv4 error with a whole UDP datagram quoted. */
static unsigned int icmp4_err(u8 *b, u8 type, u8 code, __be32 rest,
			      unsigned int qlen, unsigned int tot_len)
{
	u8 *q = b + 28;

	/* The quote: what the translator sent, H6(1) -> H4(5). */
	tern_kt_pkt4(q, TERN_KT_H6(1), TERN_KT_H4(5), IPPROTO_UDP, tot_len - 20, 17, 0x777,
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
	u8 *b = tern_kt_xlat_of(test)->buf;
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
		p = run_row(test, len, false, i & 1 ? 30 : TERN_KT_BUF, i);
		ip6 = tern_kt_check6(test, p);
		KUNIT_EXPECT_EQ(test, p->len, 40U + 8 + 40 + 28);
		KUNIT_EXPECT_EQ(test, ip6->nexthdr, IPPROTO_ICMPV6);
		KUNIT_EXPECT_EQ(test, ip6->hop_limit, 49);
		tern_kt_expect_addr6(test, &ip6->saddr, TERN_KT_R4(9));
		tern_kt_expect_addr6(test, &ip6->daddr, TERN_KT_H6(1));
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
		tern_kt_expect_addr6(test, &in6->saddr, TERN_KT_H6(1));
		tern_kt_expect_addr6(test, &in6->daddr, TERN_KT_H4(5));
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

		tern_kt_expect_run(test, len, false, NF_DROP, TERN_STAT_DROP_ICMP_ERROR);
	}
	/* An error about an ICMP error. */
	{
		unsigned int len = icmp4_err(b, 3, 1, 0, 48, 48);

		b[28 + 9] = IPPROTO_ICMP;
		b[48] = ICMP_DEST_UNREACH;
		/* A right checksum: the quote, not the message, is refused. */
		*(__sum16 *)(b + 22) = 0;
		*(__sum16 *)(b + 22) = ip_compute_csum(b + 20, 8 + 48);
		tern_kt_expect_run(test, len, false, NF_DROP, TERN_STAT_DROP_ICMP_INNER);
	}

	/* RFC 4884: Time Exceeded, 128 bytes quoted, an 8-byte extension. */
	{
		unsigned int len = icmp4_err(b, 11, 0, cpu_to_be32(32 << 16), 136, 128);
		struct tern_kt_pkt *p;
		static const u8 ext[8] = { 0x20, 0, 0, 0, 0, 4, 1, 1 };

		memcpy(b + 28 + 128, ext, 8);
		*(__sum16 *)(b + 22) = 0;
		*(__sum16 *)(b + 22) = ip_compute_csum(b + 20, 8 + 136);
		tern_kt_expect_run(test, len, false, NF_STOLEN, TERN_STAT_XLAT_ICMP_ERR_46);
		p = tern_kt_expect_captured(test, 1, 0, NFPROTO_IPV6);
		tern_kt_check6(test, p);
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

	tern_kt_pkt6(b + 48, TERN_KT_H4(5), TERN_KT_H6(1), IPPROTO_UDP, plen, 23);
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

/*
 * icmp6_err() (Address Unreachable) from @src, outside pool6, with the
 * RFC 6791 pool R4(128)/@plen.
 */
static unsigned int icmp6_err_rfc6791(struct kunit *test, u8 *b,
				      const struct in6_addr *src,
				      unsigned int plen)
{
	struct tern_config *cfg = tern_kt_xlat_of(test)->ki.cfg;
	unsigned int len = icmp6_err(b, 3, 0, 0, 68, 28);

	((struct ipv6hdr *)b)->saddr = *src;
	tern_kt_l4csum6(b + 40, 76, IPPROTO_ICMPV6, src,
			&((struct ipv6hdr *)b)->daddr);
	cfg->rfc6791v4_set = true;
	cfg->rfc6791v4.addr = TERN_KT_R4(128);
	cfg->rfc6791v4.len = plen;
	return len;
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
	u8 *b = tern_kt_xlat_of(test)->buf;
	int i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		unsigned int len = icmp6_err(b, rows[i].type, rows[i].code,
					     rows[i].rest, 68, 28);
		struct tern_kt_pkt *p;
		struct iphdr *iph, *in4;

		p = run_row(test, len, true, i & 1 ? 50 : TERN_KT_BUF, i);
		iph = tern_kt_check4(test, p);
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

			tern_kt_expect_run(test, len, true, NF_DROP, TERN_STAT_DROP_ICMP_ERROR);
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
		tern_kt_expect_run(test, len, true, NF_STOLEN, TERN_STAT_XLAT_ICMP_ERR_64);
		p = tern_kt_expect_captured(test, 1, 0, NFPROTO_IPV4);
		tern_kt_check4(test, p);
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
		unsigned int len = icmp6_err_rfc6791(test, b, &other, 25);
		struct tern_kt_pkt *p;

		tern_kt_expect_run(test, len, true, NF_STOLEN, TERN_STAT_XLAT_ICMP_ERR_64);
		p = tern_kt_expect_captured(test, 1, 0, NFPROTO_IPV4);
		KUNIT_EXPECT_EQ(test, ntohl(tern_kt_check4(test, p)->saddr) & ~0x7fU,
				ntohl(TERN_KT_R4(128)));
		tern_kt_xlat_of(test)->ki.cfg->rfc6791v4_set = false;
	}

	/*
	 * RFC 6791 pools of every length down to a single address: the
	 * source stays inside (a /32 once shifted a u32 by 32: UBSAN).
	 */
	{
		struct in6_addr other = { { { 0x20, 0x01, 0x0d, 0xb8, 0, 0x98 } } };
		struct tern_config *cfg = tern_kt_xlat_of(test)->ki.cfg;
		unsigned int plen;

		for (plen = 24; plen <= 32; plen++) {
			unsigned int len = icmp6_err_rfc6791(test, b, &other, plen);
			u32 mask = plen == 32 ? ~0U : ~(~0U >> plen);
			struct tern_kt_pkt *p;

			tern_kt_expect_run(test, len, true, NF_STOLEN, TERN_STAT_XLAT_ICMP_ERR_64);
			p = tern_kt_expect_captured(test, 1, 0, NFPROTO_IPV4);
			KUNIT_EXPECT_EQ_MSG(test,
					    ntohl(tern_kt_check4(test, p)->saddr) & mask,
					    ntohl(TERN_KT_R4(128)) & mask,
					    "pool length %u", plen);
			if (plen == 32)
				KUNIT_EXPECT_EQ(test, tern_kt_check4(test, p)->saddr,
						TERN_KT_R4(128));
		}
		cfg->rfc6791v4_set = false;
	}
}

static struct kunit_case tern_xlat_icmp_err_cases[] = {
	KUNIT_CASE(xlat_icmp_err_4to6),
	KUNIT_CASE(xlat_icmp_err_6to4),
	{}
};

static struct kunit_suite tern_xlat_icmp_err_suite = {
	.name = "tern_xlat_icmp_err",
	.suite_init = tern_kt_net_suite_init,
	.suite_exit = tern_kt_net_suite_exit,
	.init = tern_kt_xlat_init,
	.exit = tern_kt_xlat_exit,
	.test_cases = tern_xlat_icmp_err_cases,
};

kunit_test_suite(tern_xlat_icmp_err_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the packet quoted in an ICMP error (inner.c), whole, translated
 * both ways buffer to buffer: exact bytes, checksums recomputed, header
 * fields, declared lengths, DF and Identification by the declared size.
 */

#include <kunit/test.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include "xlat/ipid.h"
#include "kt_inner.h"

/*
 * Whole quotes of every case, translated 4to6 (@to4 false) or 6to4: exact
 * bytes, nothing written past them, the checksums recomputed from scratch.
 */
static void inner_whole(struct kunit *test, bool to4)
{
	u8 *in = tern_kt_big(test);
	u8 *out = tern_kt_big(test);
	u8 *exp = tern_kt_big(test);
	struct tern_kt_quote q;
	int i;

	for (i = 0; i < ARRAY_SIZE(tern_kt_inner_cases); i++) {
		const struct tern_kt_inner_case *c = &tern_kt_inner_cases[i];
		unsigned int len, elen;
		u32 tot_len = 0;
		int n;

		tern_kt_quote_fill(&q, c->proto, c->icmp_type, c->udp0);
		memset(out, TERN_KT_POISON, TERN_KT_BIG);
		if (!to4) {
			len = tern_kt_build4(in, &q, IP_DF, 0, c->udp0);
			elen = tern_kt_expect6(exp, &q, c->udp0);
			n = tern_kt_call4to6(test, in, len, out, TERN_KT_BIG,
					     &tot_len);
			KUNIT_EXPECT_EQ_MSG(test, tot_len, len, "%s", c->name);
		} else {
			len = tern_kt_build6(in, &q, 0, NULL, 0, c->udp0);
			elen = tern_kt_expect4(exp, &q, c->udp0);
			tern_kt_expect4_next_id(exp);
			n = tern_kt_call6to4(test, in, len, out, TERN_KT_BIG);
		}
		KUNIT_EXPECT_EQ_MSG(test, n, (int)elen, "%s", c->name);
		TERN_KT_EXPECT_BYTES(test, out, exp, elen, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, out[elen], TERN_KT_POISON, "%s", c->name);
		if (to4) {
			KUNIT_EXPECT_EQ_MSG(test, ip_fast_csum(out, 5), 0, "%s", c->name);
			if (!c->udp0)
				KUNIT_EXPECT_EQ_MSG(test,
						    tern_kt_l4check4(out + 20, q.l4len, q.proto,
								     tern_kt_in_d4(),
								     tern_kt_in_s4()), 0,
						    "%s", c->name);
		} else if (!c->udp0) {
			struct in6_addr s, d;

			tern_kt_map6(tern_kt_in_s4(), &s);
			tern_kt_map6(tern_kt_in_d4(), &d);
			KUNIT_EXPECT_EQ_MSG(test, tern_kt_l4check6(out + 40, q.l4len,
								   out[6], &s, &d), 0,
					    "%s", c->name);
		} else {
			KUNIT_EXPECT_EQ(test, out[46], 0);
			KUNIT_EXPECT_EQ(test, out[47], 0);
		}
	}
}

static void inner_4to6_whole(struct kunit *test)
{
	inner_whole(test, false);
}

static void inner_6to4_whole(struct kunit *test)
{
	inner_whole(test, true);
}

/* TTL, Traffic Class/TOS, declared length with IPv4 options. */
static void inner_header_fields(struct kunit *test)
{
	u8 *in = tern_kt_big(test);
	u8 *out = tern_kt_big(test);
	u8 *exp = tern_kt_big(test);
	struct tern_config *cfg = tern_kt_cfg_of(test);
	struct tern_kt_quote q;
	unsigned int len, elen;
	u32 tot_len;
	int n;

	tern_kt_quote_fill(&q, IPPROTO_UDP, 0, false);

	/* IPv4 options: dropped, Payload Length without them. */
	len = tern_kt_build4(in, &q, 0, 8, false);
	elen = tern_kt_expect6(exp, &q, false);
	n = tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len);
	KUNIT_EXPECT_EQ(test, n, (int)elen);
	TERN_KT_EXPECT_BYTES(test, out, exp, elen, "bytes");
	KUNIT_EXPECT_EQ(test, tot_len, len);

	/* TTL copied, not decremented, both ways; 0 and 255 too. */
	in[8] = 1;
	ip_send_check((struct iphdr *)in);
	n = tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len);
	KUNIT_EXPECT_EQ(test, out[7], 1);
	len = tern_kt_build6(in, &q, 0, NULL, 0, false);
	in[7] = 0;
	KUNIT_EXPECT_GT(test, tern_kt_call6to4(test, in, len, out, TERN_KT_BIG), 0);
	KUNIT_EXPECT_EQ(test, out[8], 0);
	in[7] = 255;
	KUNIT_EXPECT_GT(test, tern_kt_call6to4(test, in, len, out, TERN_KT_BIG), 0);
	KUNIT_EXPECT_EQ(test, out[8], 255);
	KUNIT_EXPECT_EQ(test, ip_fast_csum(out, 5), 0);

	/* zeroize-traffic-class and override-tos. */
	len = tern_kt_build4(in, &q, 0, 0, false);
	cfg->zeroize_tc = true;
	KUNIT_EXPECT_GT(test, tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len), 0);
	KUNIT_EXPECT_EQ(test, out[0], 0x60);
	KUNIT_EXPECT_EQ(test, out[1], 0);
	cfg->zeroize_tc = false;
	KUNIT_EXPECT_GT(test, tern_kt_call4to6(test, in, len, out, TERN_KT_BIG, &tot_len), 0);
	KUNIT_EXPECT_EQ(test, out[0], 0x62);
	KUNIT_EXPECT_EQ(test, out[1], 0x80);
	len = tern_kt_build6(in, &q, 0, NULL, 0, false);
	cfg->override_tos = true;
	cfg->tos = 0xb8;
	KUNIT_EXPECT_GT(test, tern_kt_call6to4(test, in, len, out, TERN_KT_BIG), 0);
	KUNIT_EXPECT_EQ(test, out[1], 0xb8);
	cfg->override_tos = false;
	KUNIT_EXPECT_GT(test, tern_kt_call6to4(test, in, len, out, TERN_KT_BIG), 0);
	KUNIT_EXPECT_EQ(test, out[1], 0x28);
	KUNIT_EXPECT_EQ(test, ip_fast_csum(out, 5), 0);

	/* Declared lengths, not quoted ones: a 1400-byte packet cut at 60. */
	len = tern_kt_build4(in, &q, 0, 0, false);
	((struct iphdr *)in)->tot_len = htons(1400);
	ip_send_check((struct iphdr *)in);
	n = tern_kt_call4to6(test, in, 60, out, TERN_KT_BIG, &tot_len);
	KUNIT_EXPECT_EQ(test, n, 80);
	KUNIT_EXPECT_EQ(test, tot_len, 1400U);
	KUNIT_EXPECT_EQ(test, ntohs(((struct ipv6hdr *)out)->payload_len), 1380);
	len = tern_kt_build6(in, &q, 0, NULL, 0, false);
	((struct ipv6hdr *)in)->payload_len = htons(1380);
	n = tern_kt_call6to4(test, in, 60, out, TERN_KT_BIG);
	KUNIT_EXPECT_EQ(test, n, 40);
	KUNIT_EXPECT_EQ(test, ntohs(((struct iphdr *)out)->tot_len), 1400);
	KUNIT_EXPECT_EQ(test, ip_fast_csum(out, 5), 0);
	/* Too long for IPv4 once translated. */
	((struct ipv6hdr *)in)->payload_len = htons(65535 - 19);
	KUNIT_EXPECT_EQ(test, tern_kt_call6to4(test, in, 60, out, TERN_KT_BIG), -1);
	((struct ipv6hdr *)in)->payload_len = htons(65535 - 20);
	KUNIT_EXPECT_EQ(test, tern_kt_call6to4(test, in, 60, out, TERN_KT_BIG), 40);
}

/*
 * RFC 7915 5.3: DF and Identification of the quoted packet follow 5.1 by
 * its declared size (the quote is cut): at most 1260 bytes once
 * translated, DF clear and one Identification of the flow each time;
 * larger, DF set and Identification 0.
 */
static void inner_6to4_df_id(struct kunit *test)
{
	u8 *in = tern_kt_big(test);
	u8 *out = tern_kt_big(test);
	struct iphdr *iph = (struct iphdr *)out;
	static const struct {
		u16 plen;	/* declared Payload Length */
		bool df;
	} sizes[] = { { 33, false }, { 1239, false }, { 1240, false },
		      { 1241, true }, { 1432, true }, { 65515, true } };
	struct tern_kt_quote q;
	unsigned int len;
	int i, n;

	tern_kt_quote_fill(&q, IPPROTO_TCP, 0, false);
	len = tern_kt_build6(in, &q, 0, NULL, 0, false);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		u16 id = 0;

		((struct ipv6hdr *)in)->payload_len = htons(sizes[i].plen);
		if (!sizes[i].df)
			id = ntohs(tern_ipid_next(&init_net, tern_kt_in_d4(),
						  tern_kt_in_s4(),
						  IPPROTO_TCP)) + 1;
		n = tern_kt_call6to4(test, in, len, out, TERN_KT_BIG);
		KUNIT_EXPECT_EQ_MSG(test, n, (int)(20 + q.l4len), "plen %u",
				    sizes[i].plen);
		KUNIT_EXPECT_EQ_MSG(test, ntohs(iph->tot_len), sizes[i].plen + 20,
				    "plen %u", sizes[i].plen);
		KUNIT_EXPECT_EQ_MSG(test, ntohs(iph->frag_off),
				    sizes[i].df ? IP_DF : 0, "plen %u",
				    sizes[i].plen);
		KUNIT_EXPECT_EQ_MSG(test, ntohs(iph->id), id, "plen %u",
				    sizes[i].plen);
		KUNIT_EXPECT_EQ(test, ip_fast_csum(out, 5), 0);
	}
	/* Extension headers do not count: 1260 bytes once translated. */
	{
		u8 ext[16];

		tern_kt_dest_chain(ext, 2, IPPROTO_TCP);
		len = tern_kt_build6(in, &q, NEXTHDR_DEST, ext, 16, false);
		((struct ipv6hdr *)in)->payload_len = htons(1240 + 16);
		n = tern_kt_call6to4(test, in, len, out, TERN_KT_BIG);
		KUNIT_EXPECT_EQ(test, n, (int)(20 + q.l4len));
		KUNIT_EXPECT_EQ(test, ntohs(iph->tot_len), 1260);
		KUNIT_EXPECT_EQ(test, ntohs(iph->frag_off), 0);
		((struct ipv6hdr *)in)->payload_len = htons(1241 + 16);
		n = tern_kt_call6to4(test, in, len, out, TERN_KT_BIG);
		KUNIT_EXPECT_EQ(test, ntohs(iph->frag_off), IP_DF);
		KUNIT_EXPECT_EQ(test, ntohs(iph->id), 0);
	}
}

static struct kunit_case tern_inner_whole_cases[] = {
	KUNIT_CASE(inner_4to6_whole),
	KUNIT_CASE(inner_6to4_whole),
	KUNIT_CASE(inner_6to4_df_id),
	KUNIT_CASE(inner_header_fields),
	{}
};

static struct kunit_suite tern_inner_whole_suite = {
	.name = "tern_inner_whole",
	.init = tern_kt_inner_init,
	.exit = tern_kt_inner_exit,
	.test_cases = tern_inner_whole_cases,
};

kunit_test_suite(tern_inner_whole_suite);

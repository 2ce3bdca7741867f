// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: translation of the packet quoted in an ICMP error (inner.c), both
 * ways, buffer to buffer: exact bytes, declared lengths, fragments,
 * truncated quotes at every length (buffers of the exact size: KASAN
 * catches a read past the quote or a write past the output) and every
 * output size.
 */

#include <kunit/test.h>
#include <linux/rcupdate.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include "xlat/inner.h"
#include "xlat/ipid.h"
#include "kt_util.h"

#define BIG 1600
#define POISON 0xa5

struct inner_ctx {
	struct tern_kt_inst ki;
};

/* A quoted packet, built whole: transport segment with a right checksum. */
struct quote {
	u8 proto;		/* IPPROTO_{TCP,UDP,ICMP} as in IPv4 */
	unsigned int l4len;	/* transport header + data */
	u8 l4[64];		/* as sent over IPv4 (checksum for IPv4) */
};

static void quote_fill(struct quote *q, u8 proto, u8 icmp_type, bool udp0)
{
	unsigned int i;

	memset(q, 0, sizeof(*q));
	q->proto = proto;
	for (i = 0; i < sizeof(q->l4); i++)
		q->l4[i] = 0x30 + i;
	switch (proto) {
	case IPPROTO_TCP:
		q->l4len = 20 + 13;
		q->l4[12] = 5 << 4;	/* data offset */
		q->l4[13] = 0x18;	/* PSH ACK */
		break;
	case IPPROTO_UDP:
		q->l4len = 8 + 11;
		q->l4[4] = 0;
		q->l4[5] = q->l4len;
		break;
	default:
		q->l4len = 8 + 16;
		q->l4[0] = icmp_type;
		q->l4[1] = 0;
		break;
	}
}

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

static __be32 in_s4(void)
{
	return TERN_KT_H6(1);
}

static __be32 in_d4(void)
{
	return TERN_KT_H4(9);
}

/* IPv4 packet (20-byte header plus @opt option bytes) quoting @q. */
static unsigned int build4(u8 *p, const struct quote *q, u16 frag_off,
			   unsigned int opt, bool udp0)
{
	unsigned int hl = 20 + opt;
	struct iphdr *iph = (struct iphdr *)p;

	memcpy(p + hl, q->l4, q->l4len);
	tern_kt_l4csum4(p + hl, q->l4len, q->proto, in_s4(), in_d4());
	if (udp0)
		p[hl + 6] = p[hl + 7] = 0;
	tern_kt_ip4(p, hl + q->l4len, q->proto, in_s4(), in_d4(), 37, 0xabcd,
		    frag_off);
	if (opt) {
		memset(p + 20, IPOPT_NOOP, opt);
		iph->ihl = hl / 4;
		ip_send_check(iph);
	}
	return hl + q->l4len;
}

/* The expected IPv6 packet for the whole @q (no fragment). */
static unsigned int expect6(u8 *e, const struct quote *q, bool udp0)
{
	struct in6_addr s, d;
	u8 *l4 = e + 40;
	u8 nh = q->proto == IPPROTO_ICMP ? IPPROTO_ICMPV6 : q->proto;

	tern_kt_map6(in_s4(), &s);
	tern_kt_map6(in_d4(), &d);
	tern_kt_ip6(e, q->l4len, nh, &s, &d, 37);
	memcpy(l4, q->l4, q->l4len);
	if (q->proto == IPPROTO_ICMP)
		l4[0] = l4[0] == ICMP_ECHO ? ICMPV6_ECHO_REQUEST : ICMPV6_ECHO_REPLY;
	if (udp0)
		l4[6] = l4[7] = 0;
	else
		tern_kt_l4csum6(l4, q->l4len, nh, &s, &d);
	return 40 + q->l4len;
}

/*
 * IPv6 packet quoting @q (from the IPv4 host back to the IPv6 one), with
 * @extlen bytes of extension headers @ext, the first of type @nh0.
 */
static unsigned int build6(u8 *p, const struct quote *q, u8 nh0,
			   const u8 *ext, unsigned int extlen, bool udp0)
{
	struct in6_addr s, d;
	u8 nh = q->proto == IPPROTO_ICMP ? IPPROTO_ICMPV6 : q->proto;
	u8 *l4 = p + 40 + extlen;

	tern_kt_map6(in_d4(), &s);
	tern_kt_map6(in_s4(), &d);
	memcpy(l4, q->l4, q->l4len);
	if (q->proto == IPPROTO_ICMP)
		l4[0] = l4[0] == ICMP_ECHO ? ICMPV6_ECHO_REQUEST : ICMPV6_ECHO_REPLY;
	tern_kt_l4csum6(l4, q->l4len, nh, &s, &d);
	if (udp0)
		l4[6] = l4[7] = 0;
	tern_kt_ip6(p, extlen + q->l4len, extlen ? nh0 : nh, &s, &d, 37);
	if (extlen)
		memcpy(p + 40, ext, extlen);
	return 40 + extlen + q->l4len;
}

/* @n Destination Options headers of 8 bytes, then @last. */
static void dest_chain(u8 *ext, unsigned int n, u8 last)
{
	unsigned int i;

	memset(ext, 0, 8 * n);
	for (i = 0; i < n; i++)
		ext[8 * i] = i + 1 == n ? last : NEXTHDR_DEST;
}

/* The expected IPv4 packet for the whole @q (not a fragment). */
static unsigned int expect4(u8 *e, const struct quote *q, bool udp0)
{
	u8 *l4 = e + 20;

	memcpy(l4, q->l4, q->l4len);
	if (udp0)
		l4[6] = l4[7] = 0;
	else
		tern_kt_l4csum4(l4, q->l4len, q->proto, in_d4(), in_s4());
	tern_kt_ip4(e, 20 + q->l4len, q->proto, in_d4(), in_s4(), 37, 0, 0);
	return 20 + q->l4len;
}

/*
 * RFC 7915 5.3 with 5.1: a quote of at most 1260 bytes gets DF clear and
 * the next Identification of its flow. Takes one from the generator and
 * writes the one after it (what the translation will take) into the
 * expected header @e.
 */
static void expect4_next_id(u8 *e)
{
	struct iphdr *iph = (struct iphdr *)e;

	iph->id = htons(ntohs(tern_ipid_next(iph->saddr, iph->daddr,
					     iph->protocol)) + 1);
	ip_send_check(iph);
}

static struct tern_config *cfg_of(struct kunit *test)
{
	return ((struct inner_ctx *)test->priv)->ki.cfg;
}

static struct tern_instance *inst_of(struct kunit *test)
{
	return &((struct inner_ctx *)test->priv)->ki.inst;
}

/* The mapping reads the instance's tables under RCU, as the hooks do. */
static int call4to6(struct kunit *test, const u8 *in, unsigned int in_len,
		    u8 *out, unsigned int out_size, u32 *tot_len)
{
	struct tern_xlat x;
	int n;

	rcu_read_lock();
	tern_xlat_init(&x, inst_of(test), cfg_of(test));
	n = tern_inner_4to6(&x, in, in_len, out, out_size, tot_len);
	rcu_read_unlock();
	return n;
}

static int call6to4(struct kunit *test, const u8 *in, unsigned int in_len,
		    u8 *out, unsigned int out_size)
{
	struct tern_xlat x;
	int n;

	rcu_read_lock();
	tern_xlat_init(&x, inst_of(test), cfg_of(test));
	n = tern_inner_6to4(&x, in, in_len, out, out_size);
	rcu_read_unlock();
	return n;
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

struct inner_case {
	const char *name;
	u8 proto;
	u8 icmp_type;
	bool udp0;
};

static const struct inner_case inner_cases[] = {
	{ "TCP", IPPROTO_TCP, 0, false },
	{ "UDP", IPPROTO_UDP, 0, false },
	{ "UDP, zero checksum", IPPROTO_UDP, 0, true },
	{ "ICMP echo request", IPPROTO_ICMP, ICMP_ECHO, false },
	{ "ICMP echo reply", IPPROTO_ICMP, ICMP_ECHOREPLY, false },
};

/* Whole quotes: exact bytes, and the checksum recomputed from scratch. */
static void inner_4to6_whole(struct kunit *test)
{
	u8 *in = kunit_kzalloc(test, BIG, GFP_KERNEL);
	u8 *out = kunit_kzalloc(test, BIG, GFP_KERNEL);
	u8 *exp = kunit_kzalloc(test, BIG, GFP_KERNEL);
	struct quote q;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_NOT_NULL(test, exp);
	for (i = 0; i < ARRAY_SIZE(inner_cases); i++) {
		const struct inner_case *c = &inner_cases[i];
		unsigned int len, elen;
		u32 tot_len = 0;
		int n;

		quote_fill(&q, c->proto, c->icmp_type, c->udp0);
		len = build4(in, &q, IP_DF, 0, c->udp0);
		elen = expect6(exp, &q, c->udp0);
		memset(out, POISON, BIG);
		n = call4to6(test, in, len, out, BIG, &tot_len);
		KUNIT_EXPECT_EQ_MSG(test, n, (int)elen, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, tot_len, len, "%s", c->name);
		TERN_KT_EXPECT_BYTES(test, out, exp, elen, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, out[elen], POISON, "%s", c->name);
		if (!c->udp0) {
			struct in6_addr s, d;

			tern_kt_map6(in_s4(), &s);
			tern_kt_map6(in_d4(), &d);
			KUNIT_EXPECT_EQ_MSG(test, tern_kt_l4check6(out + 40, q.l4len,
								   out[6], &s, &d), 0,
					    "%s", c->name);
		} else {
			KUNIT_EXPECT_EQ(test, out[46], 0);
			KUNIT_EXPECT_EQ(test, out[47], 0);
		}
	}
}

static void inner_6to4_whole(struct kunit *test)
{
	u8 *in = kunit_kzalloc(test, BIG, GFP_KERNEL);
	u8 *out = kunit_kzalloc(test, BIG, GFP_KERNEL);
	u8 *exp = kunit_kzalloc(test, BIG, GFP_KERNEL);
	struct quote q;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_NOT_NULL(test, exp);
	for (i = 0; i < ARRAY_SIZE(inner_cases); i++) {
		const struct inner_case *c = &inner_cases[i];
		unsigned int len, elen;
		int n;

		quote_fill(&q, c->proto, c->icmp_type, c->udp0);
		len = build6(in, &q, 0, NULL, 0, c->udp0);
		elen = expect4(exp, &q, c->udp0);
		memset(out, POISON, BIG);
		expect4_next_id(exp);
		n = call6to4(test, in, len, out, BIG);
		KUNIT_EXPECT_EQ_MSG(test, n, (int)elen, "%s", c->name);
		TERN_KT_EXPECT_BYTES(test, out, exp, elen, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, out[elen], POISON, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, ip_fast_csum(out, 5), 0, "%s", c->name);
		if (!c->udp0)
			KUNIT_EXPECT_EQ_MSG(test, tern_kt_l4check4(out + 20, q.l4len,
								   q.proto, in_d4(),
								   in_s4()), 0,
					    "%s", c->name);
	}
}

/* TTL, Traffic Class/TOS, declared length with IPv4 options. */
static void inner_header_fields(struct kunit *test)
{
	u8 *in = kunit_kzalloc(test, BIG, GFP_KERNEL);
	u8 *out = kunit_kzalloc(test, BIG, GFP_KERNEL);
	u8 *exp = kunit_kzalloc(test, BIG, GFP_KERNEL);
	struct tern_config *cfg = cfg_of(test);
	struct quote q;
	unsigned int len, elen;
	u32 tot_len;
	int n;

	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_NOT_NULL(test, exp);
	quote_fill(&q, IPPROTO_UDP, 0, false);

	/* IPv4 options: dropped, Payload Length without them. */
	len = build4(in, &q, 0, 8, false);
	elen = expect6(exp, &q, false);
	n = call4to6(test, in, len, out, BIG, &tot_len);
	KUNIT_EXPECT_EQ(test, n, (int)elen);
	TERN_KT_EXPECT_BYTES(test, out, exp, elen, "bytes");
	KUNIT_EXPECT_EQ(test, tot_len, len);

	/* TTL copied, not decremented, both ways; 0 and 255 too. */
	in[8] = 1;
	ip_send_check((struct iphdr *)in);
	n = call4to6(test, in, len, out, BIG, &tot_len);
	KUNIT_EXPECT_EQ(test, out[7], 1);
	len = build6(in, &q, 0, NULL, 0, false);
	in[7] = 0;
	KUNIT_EXPECT_GT(test, call6to4(test, in, len, out, BIG), 0);
	KUNIT_EXPECT_EQ(test, out[8], 0);
	in[7] = 255;
	KUNIT_EXPECT_GT(test, call6to4(test, in, len, out, BIG), 0);
	KUNIT_EXPECT_EQ(test, out[8], 255);
	KUNIT_EXPECT_EQ(test, ip_fast_csum(out, 5), 0);

	/* zeroize-traffic-class and override-tos. */
	len = build4(in, &q, 0, 0, false);
	cfg->zeroize_tc = true;
	KUNIT_EXPECT_GT(test, call4to6(test, in, len, out, BIG, &tot_len), 0);
	KUNIT_EXPECT_EQ(test, out[0], 0x60);
	KUNIT_EXPECT_EQ(test, out[1], 0);
	cfg->zeroize_tc = false;
	KUNIT_EXPECT_GT(test, call4to6(test, in, len, out, BIG, &tot_len), 0);
	KUNIT_EXPECT_EQ(test, out[0], 0x62);
	KUNIT_EXPECT_EQ(test, out[1], 0x80);
	len = build6(in, &q, 0, NULL, 0, false);
	cfg->override_tos = true;
	cfg->tos = 0xb8;
	KUNIT_EXPECT_GT(test, call6to4(test, in, len, out, BIG), 0);
	KUNIT_EXPECT_EQ(test, out[1], 0xb8);
	cfg->override_tos = false;
	KUNIT_EXPECT_GT(test, call6to4(test, in, len, out, BIG), 0);
	KUNIT_EXPECT_EQ(test, out[1], 0x28);
	KUNIT_EXPECT_EQ(test, ip_fast_csum(out, 5), 0);

	/* Declared lengths, not quoted ones: a 1400-byte packet cut at 60. */
	len = build4(in, &q, 0, 0, false);
	((struct iphdr *)in)->tot_len = htons(1400);
	ip_send_check((struct iphdr *)in);
	n = call4to6(test, in, 60, out, BIG, &tot_len);
	KUNIT_EXPECT_EQ(test, n, 80);
	KUNIT_EXPECT_EQ(test, tot_len, 1400U);
	KUNIT_EXPECT_EQ(test, ntohs(((struct ipv6hdr *)out)->payload_len), 1380);
	len = build6(in, &q, 0, NULL, 0, false);
	((struct ipv6hdr *)in)->payload_len = htons(1380);
	n = call6to4(test, in, 60, out, BIG);
	KUNIT_EXPECT_EQ(test, n, 40);
	KUNIT_EXPECT_EQ(test, ntohs(((struct iphdr *)out)->tot_len), 1400);
	KUNIT_EXPECT_EQ(test, ip_fast_csum(out, 5), 0);
	/* Too long for IPv4 once translated. */
	((struct ipv6hdr *)in)->payload_len = htons(65535 - 19);
	KUNIT_EXPECT_EQ(test, call6to4(test, in, 60, out, BIG), -1);
	((struct ipv6hdr *)in)->payload_len = htons(65535 - 20);
	KUNIT_EXPECT_EQ(test, call6to4(test, in, 60, out, BIG), 40);
}

/* Malformed quotes and quoted ICMP errors: -1. */
static void inner_refused(struct kunit *test)
{
	u8 *in = kunit_kzalloc(test, BIG, GFP_KERNEL);
	u8 *out = kunit_kzalloc(test, BIG, GFP_KERNEL);
	struct quote q;
	unsigned int len;
	u32 tot_len;
	int t;

	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, out);
	/* An ICMP error quoting an ICMP error (any non-echo type). */
	for (t = 0; t < 256; t++) {
		if (t == ICMP_ECHO || t == ICMP_ECHOREPLY)
			continue;
		quote_fill(&q, IPPROTO_ICMP, t, false);
		len = build4(in, &q, 0, 0, false);
		KUNIT_EXPECT_EQ_MSG(test, call4to6(test, in, len, out, BIG, &tot_len),
				    -1, "inner ICMPv4 type %d", t);
	}
	for (t = 0; t < 256; t++) {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)in;
		struct in6_addr s, d;

		if (t == ICMPV6_ECHO_REQUEST || t == ICMPV6_ECHO_REPLY)
			continue;
		quote_fill(&q, IPPROTO_ICMP, ICMP_ECHO, false);
		len = build6(in, &q, 0, NULL, 0, false);
		in[40] = t;
		s = ip6->saddr;
		d = ip6->daddr;
		tern_kt_l4csum6(in + 40, q.l4len, IPPROTO_ICMPV6, &s, &d);
		KUNIT_EXPECT_EQ_MSG(test, call6to4(test, in, len, out, BIG), -1,
				    "inner ICMPv6 type %d", t);
	}

	quote_fill(&q, IPPROTO_UDP, 0, false);
	len = build4(in, &q, 0, 0, false);
	in[0] = 0x65;	/* version 6 */
	KUNIT_EXPECT_EQ(test, call4to6(test, in, len, out, BIG, &tot_len), -1);
	in[0] = 0x44;	/* IHL 4 */
	KUNIT_EXPECT_EQ(test, call4to6(test, in, len, out, BIG, &tot_len), -1);
	in[0] = 0x4f;	/* IHL 15: longer than the quote */
	KUNIT_EXPECT_EQ(test, call4to6(test, in, len, out, BIG, &tot_len), -1);
	in[0] = 0x45;
	((struct iphdr *)in)->tot_len = htons(19);	/* < IHL */
	KUNIT_EXPECT_EQ(test, call4to6(test, in, len, out, BIG, &tot_len), -1);
	((struct iphdr *)in)->tot_len = htons(20);	/* header only */
	KUNIT_EXPECT_EQ(test, call4to6(test, in, len, out, BIG, &tot_len),
			(int)(len + 20));

	len = build6(in, &q, 0, NULL, 0, false);
	in[0] = 0x45;
	KUNIT_EXPECT_EQ(test, call6to4(test, in, len, out, BIG), -1);
	in[0] = 0x62;
	/* Payload Length shorter than the extension headers. */
	{
		u8 *ext = kunit_kzalloc(test, 80, GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, ext);
		dest_chain(ext, 1, IPPROTO_UDP);
		len = build6(in, &q, NEXTHDR_DEST, ext, 8, false);
		((struct ipv6hdr *)in)->payload_len = htons(7);
		KUNIT_EXPECT_EQ(test, call6to4(test, in, len, out, BIG), -1);
		((struct ipv6hdr *)in)->payload_len = htons(8);
		KUNIT_EXPECT_EQ(test, call6to4(test, in, len, out, BIG),
				(int)(len - 48 + 20));
		KUNIT_EXPECT_EQ(test, ntohs(((struct iphdr *)out)->tot_len), 20);
		/* Two Fragment headers. */
		memset(ext, 0, 16);
		ext[0] = NEXTHDR_FRAGMENT;
		ext[8] = IPPROTO_UDP;
		len = build6(in, &q, NEXTHDR_FRAGMENT, ext, 16, false);
		KUNIT_EXPECT_EQ(test, call6to4(test, in, len, out, BIG), -1);
		/* Nine extension headers: more than the walk accepts; eight. */
		dest_chain(ext, 9, IPPROTO_UDP);
		len = build6(in, &q, NEXTHDR_DEST, ext, 72, false);
		KUNIT_EXPECT_EQ(test, call6to4(test, in, len, out, BIG), -1);
		dest_chain(ext, 8, IPPROTO_UDP);
		len = build6(in, &q, NEXTHDR_DEST, ext, 64, false);
		KUNIT_EXPECT_EQ(test, call6to4(test, in, len, out, BIG),
				20 + (int)q.l4len);
		/* An unknown upper layer behind them: copied as is. */
		dest_chain(ext, 2, 253);
		len = build6(in, &q, NEXTHDR_DEST, ext, 16, false);
		KUNIT_EXPECT_EQ(test, call6to4(test, in, len, out, BIG),
				20 + (int)q.l4len);
		KUNIT_EXPECT_EQ(test, out[9], 253);
		TERN_KT_EXPECT_BYTES(test, out + 20, in + 56, q.l4len, "unknown");
	}
	/* Not mapped: no pool6. */
	cfg_of(test)->pool6_set = false;
	len = build6(in, &q, 0, NULL, 0, false);
	KUNIT_EXPECT_EQ(test, call6to4(test, in, len, out, BIG), -1);
	len = build4(in, &q, 0, 0, false);
	KUNIT_EXPECT_EQ(test, call4to6(test, in, len, out, BIG, &tot_len), -1);
	cfg_of(test)->pool6_set = true;
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
	u8 *in = kunit_kzalloc(test, BIG, GFP_KERNEL);
	u8 *out = kunit_kzalloc(test, BIG, GFP_KERNEL);
	struct tern_config *cfg = cfg_of(test);
	struct ipv6hdr *ip6 = (struct ipv6hdr *)in;
	struct iphdr *iph = (struct iphdr *)in;
	unsigned int len, i, side;
	struct quote q;
	u32 tot_len;

	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, out);
	quote_fill(&q, IPPROTO_UDP, 0, false);
	/* The controls. */
	len = build4(in, &q, 0, 0, false);
	KUNIT_EXPECT_EQ(test, call4to6(test, in, len, out, BIG, &tot_len),
			(int)(len + 20));
	len = build6(in, &q, 0, NULL, 0, false);
	KUNIT_EXPECT_EQ(test, call6to4(test, in, len, out, BIG), (int)(len - 20));
	for (i = 0; i < ARRAY_SIZE(special); i++) {
		for (side = 0; side < 2; side++) {
			__be32 a4 = htonl(special[i]);

			len = build4(in, &q, 0, 0, false);
			if (side)
				iph->daddr = a4;
			else
				iph->saddr = a4;
			KUNIT_EXPECT_EQ_MSG(test,
					    call4to6(test, in, len, out, BIG,
						     &tot_len), -1,
					    "4to6 %pI4 side %u", &a4, side);
			len = build6(in, &q, 0, NULL, 0, false);
			tern_kt_map6(a4, side ? &ip6->daddr : &ip6->saddr);
			KUNIT_EXPECT_EQ_MSG(test,
					    call6to4(test, in, len, out, BIG), -1,
					    "6to4 %pI4 side %u", &a4, side);
		}
	}

	/* The Well-Known Prefix: 192.0.2.1 and 203.0.113.9 are not global. */
	cfg->pool6.addr = wkp;
	cfg->strict_wkp = true;
	len = build4(in, &q, 0, 0, false);
	KUNIT_EXPECT_EQ(test, call4to6(test, in, len, out, BIG, &tot_len), -1);
	len = build6(in, &q, 0, NULL, 0, false);
	ip6->saddr = wkp;
	ip6->saddr.s6_addr32[3] = in_d4();
	ip6->daddr = wkp;
	ip6->daddr.s6_addr32[3] = in_s4();
	KUNIT_EXPECT_EQ(test, call6to4(test, in, len, out, BIG), -1);
	/* Global addresses: translated. */
	ip6->saddr.s6_addr32[3] = htonl(0x08080808);
	ip6->daddr.s6_addr32[3] = htonl(0x5db8d822);
	KUNIT_EXPECT_EQ(test, call6to4(test, in, len, out, BIG), (int)(len - 20));
	len = build4(in, &q, 0, 0, false);
	iph->saddr = htonl(0x08080808);
	iph->daddr = htonl(0x5db8d822);
	KUNIT_EXPECT_EQ(test, call4to6(test, in, len, out, BIG, &tot_len),
			(int)(len + 20));
	/* Not strict: the non-global ones too. */
	cfg->strict_wkp = false;
	len = build4(in, &q, 0, 0, false);
	KUNIT_EXPECT_EQ(test, call4to6(test, in, len, out, BIG, &tot_len),
			(int)(len + 20));
}

/* Fragments: IPv4 fragment -> Fragment header, and back. */
static void inner_fragments(struct kunit *test)
{
	u8 *in = kunit_kzalloc(test, BIG, GFP_KERNEL);
	u8 *out = kunit_kzalloc(test, BIG, GFP_KERNEL);
	u8 *exp = kunit_kzalloc(test, BIG, GFP_KERNEL);
	struct frag_hdr *fh = (struct frag_hdr *)(out + 40);
	struct iphdr *iph = (struct iphdr *)out;
	struct quote q;
	unsigned int len, elen;
	u32 tot_len;
	int n;

	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_NOT_NULL(test, exp);

	/* First fragment (MF): checksum updated like the whole packet's. */
	quote_fill(&q, IPPROTO_TCP, 0, false);
	len = build4(in, &q, IP_MF, 0, false);
	elen = expect6(exp, &q, false);
	n = call4to6(test, in, len, out, BIG, &tot_len);
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
	quote_fill(&q, IPPROTO_ICMP, ICMP_DEST_UNREACH, false);
	len = build4(in, &q, 185, 0, false);
	n = call4to6(test, in, len, out, BIG, &tot_len);
	KUNIT_EXPECT_EQ(test, n, 48 + (int)q.l4len);
	KUNIT_EXPECT_EQ(test, fh->nexthdr, IPPROTO_ICMPV6);
	KUNIT_EXPECT_EQ(test, ntohs(fh->frag_off), 1480);
	KUNIT_EXPECT_EQ(test, ntohl(fh->identification), 0xabcdU);
	TERN_KT_EXPECT_BYTES(test, out + 48, in + 20, q.l4len, "bytes");
	/* Middle fragment, offset and MF; a maximal offset. */
	len = build4(in, &q, IP_MF | 1, 0, false);
	KUNIT_EXPECT_GT(test, call4to6(test, in, len, out, BIG, &tot_len), 0);
	KUNIT_EXPECT_EQ(test, ntohs(fh->frag_off), 8 | IP6_MF);
	len = build4(in, &q, IP_DF | IP_OFFSET, 0, false);
	KUNIT_EXPECT_GT(test, call4to6(test, in, len, out, BIG, &tot_len), 0);
	KUNIT_EXPECT_EQ(test, ntohs(fh->frag_off), 0xfff8);
	/* DF alone is no fragment. */
	quote_fill(&q, IPPROTO_UDP, 0, false);
	len = build4(in, &q, IP_DF, 0, false);
	KUNIT_EXPECT_EQ(test, call4to6(test, in, len, out, BIG, &tot_len),
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
		quote_fill(&q, IPPROTO_TCP, 0, false);
		len = build6(in, &q, NEXTHDR_FRAGMENT, ext, 8, false);
		elen = expect4(exp, &q, false);
		n = call6to4(test, in, len, out, BIG);
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
		quote_fill(&q, IPPROTO_ICMP, ICMPV6_DEST_UNREACH, false);
		len = build6(in, &q, NEXTHDR_FRAGMENT, ext, 8, false);
		in[48] = ICMPV6_DEST_UNREACH;	/* data, not a header */
		n = call6to4(test, in, len, out, BIG);
		KUNIT_EXPECT_EQ(test, n, 20 + (int)q.l4len);
		KUNIT_EXPECT_EQ(test, ntohs(iph->frag_off), 185);
		KUNIT_EXPECT_EQ(test, iph->protocol, IPPROTO_ICMP);
		TERN_KT_EXPECT_BYTES(test, out + 20, in + 48, q.l4len, "bytes");
		KUNIT_EXPECT_EQ(test, ip_fast_csum(out, 5), 0);

		/* Atomic fragment: ID kept, no flag. */
		f->frag_off = 0;
		f->nexthdr = IPPROTO_UDP;
		quote_fill(&q, IPPROTO_UDP, 0, false);
		len = build6(in, &q, NEXTHDR_FRAGMENT, ext, 8, false);
		n = call6to4(test, in, len, out, BIG);
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
		quote_fill(&q, IPPROTO_UDP, 0, false);
		len = build6(in, &q, NEXTHDR_HOP, e, 40, false);
		elen = expect4(exp, &q, false);
		n = call6to4(test, in, len, out, BIG);
		KUNIT_EXPECT_EQ(test, n, (int)elen);
		KUNIT_EXPECT_EQ(test, ntohs(iph->id), 0xbeef);
		KUNIT_EXPECT_EQ(test, ntohs(iph->frag_off), IP_MF);
		KUNIT_EXPECT_EQ(test, ntohs(iph->tot_len), elen);
		KUNIT_EXPECT_EQ(test, ip_fast_csum(out, 5), 0);
		TERN_KT_EXPECT_BYTES(test, out + 20, exp + 20, q.l4len, "exthdrs");
	}
}

/*
 * RFC 7915 5.3: DF and Identification of the quoted packet follow 5.1 by
 * its declared size (the quote is cut): at most 1260 bytes once
 * translated, DF clear and one Identification of the flow each time;
 * larger, DF set and Identification 0.
 */
static void inner_6to4_df_id(struct kunit *test)
{
	u8 *in = kunit_kzalloc(test, BIG, GFP_KERNEL);
	u8 *out = kunit_kzalloc(test, BIG, GFP_KERNEL);
	struct iphdr *iph = (struct iphdr *)out;
	static const struct {
		u16 plen;	/* declared Payload Length */
		bool df;
	} sizes[] = { { 33, false }, { 1239, false }, { 1240, false },
		      { 1241, true }, { 1432, true }, { 65515, true } };
	struct quote q;
	unsigned int len;
	int i, n;

	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, out);
	quote_fill(&q, IPPROTO_TCP, 0, false);
	len = build6(in, &q, 0, NULL, 0, false);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		u16 id = 0;

		((struct ipv6hdr *)in)->payload_len = htons(sizes[i].plen);
		if (!sizes[i].df)
			id = ntohs(tern_ipid_next(in_d4(), in_s4(),
						  IPPROTO_TCP)) + 1;
		n = call6to4(test, in, len, out, BIG);
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

		dest_chain(ext, 2, IPPROTO_TCP);
		len = build6(in, &q, NEXTHDR_DEST, ext, 16, false);
		((struct ipv6hdr *)in)->payload_len = htons(1240 + 16);
		n = call6to4(test, in, len, out, BIG);
		KUNIT_EXPECT_EQ(test, n, (int)(20 + q.l4len));
		KUNIT_EXPECT_EQ(test, ntohs(iph->tot_len), 1260);
		KUNIT_EXPECT_EQ(test, ntohs(iph->frag_off), 0);
		((struct ipv6hdr *)in)->payload_len = htons(1241 + 16);
		n = call6to4(test, in, len, out, BIG);
		KUNIT_EXPECT_EQ(test, ntohs(iph->frag_off), IP_DF);
		KUNIT_EXPECT_EQ(test, ntohs(iph->id), 0);
	}
}

/*
 * Every quote length from 0 to whole, each in a buffer of exactly that
 * size; then every output size.
 */
static void inner_truncated(struct kunit *test)
{
	u8 *full = kunit_kzalloc(test, BIG, GFP_KERNEL);
	u8 *exp = kunit_kzalloc(test, BIG, GFP_KERNEL);
	u8 *want = kunit_kzalloc(test, BIG, GFP_KERNEL);
	int i, dir;

	KUNIT_ASSERT_NOT_NULL(test, full);
	KUNIT_ASSERT_NOT_NULL(test, exp);
	KUNIT_ASSERT_NOT_NULL(test, want);
	for (dir = 0; dir < 2; dir++) {
		for (i = 0; i < ARRAY_SIZE(inner_cases); i++) {
			const struct inner_case *c = &inner_cases[i];
			unsigned int len, elen, l3in, l3out, ql, o;
			struct quote q;
			u32 tot_len;

			quote_fill(&q, c->proto, c->icmp_type, c->udp0);
			if (dir == 0) {
				len = build4(full, &q, 0, 0, c->udp0);
				elen = expect6(exp, &q, c->udp0);
				l3in = 20;
				l3out = 40;
			} else {
				len = build6(full, &q, 0, NULL, 0, c->udp0);
				elen = expect4(exp, &q, c->udp0);
				l3in = 40;
				l3out = 20;
			}
			/* Quote lengths. */
			for (ql = 0; ql <= len; ql++) {
				u8 *in = kmalloc(ql, GFP_KERNEL);
				u8 *out = kmalloc(BIG, GFP_KERNEL);
				int n, wn;

				if (!in || !out) {
					kfree(in);
					kfree(out);
					KUNIT_FAIL(test, "no memory");
					return;
				}
				memcpy(in, full, ql);
				memset(out, POISON, BIG);
				if (dir)
					expect4_next_id(exp);
				n = dir == 0 ? call4to6(test, in, ql, out, BIG, &tot_len) :
					       call6to4(test, in, ql, out, BIG);
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
					KUNIT_EXPECT_EQ(test, out[n], POISON);
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
				memset(out, POISON, o ? o : 1);
				if (dir)
					expect4_next_id(exp);
				n = dir == 0 ? call4to6(test, in, len, out, o, &tot_len) :
					       call6to4(test, in, len, out, o);
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
						KUNIT_EXPECT_EQ(test, out[n], POISON);
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
	u8 *full = kunit_kzalloc(test, BIG, GFP_KERNEL);
	u8 *ext = kunit_kzalloc(test, 40, GFP_KERNEL);
	struct quote q;
	unsigned int len, ql;

	KUNIT_ASSERT_NOT_NULL(test, full);
	KUNIT_ASSERT_NOT_NULL(test, ext);
	/* Hop-by-Hop (8) at 40, Destination (16) at 48, Fragment at 64. */
	ext[0] = NEXTHDR_DEST;
	ext[8] = NEXTHDR_FRAGMENT;
	ext[9] = 1;
	ext[24] = IPPROTO_TCP;
	quote_fill(&q, IPPROTO_TCP, 0, false);
	len = build6(full, &q, NEXTHDR_HOP, ext, 32, false);
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
		n = call6to4(test, in, ql, out, 576);
		/* All the headers up to the upper layer are needed. */
		KUNIT_EXPECT_EQ_MSG(test, n, ql < 72 ? -1 : (int)(20 + ql - 72),
				    "quote of %u bytes", ql);
		kfree(in);
		kfree(out);
	}
}

static int inner_init(struct kunit *test)
{
	struct inner_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	if (!ctx || tern_kt_inst_init(&ctx->ki))
		return -ENOMEM;
	test->priv = ctx;
	return 0;
}

static void inner_exit(struct kunit *test)
{
	struct inner_ctx *ctx = test->priv;

	tern_kt_inst_fini(&ctx->ki);
}

static struct kunit_case tern_inner_cases[] = {
	KUNIT_CASE(inner_4to6_whole),
	KUNIT_CASE(inner_6to4_whole),
	KUNIT_CASE(inner_6to4_df_id),
	KUNIT_CASE(inner_header_fields),
	KUNIT_CASE(inner_refused),
	KUNIT_CASE(inner_addresses),
	KUNIT_CASE(inner_fragments),
	KUNIT_CASE(inner_truncated),
	KUNIT_CASE(inner_truncated_exthdrs),
	{}
};

static struct kunit_suite tern_inner_suite = {
	.name = "tern_inner",
	.init = inner_init,
	.exit = inner_exit,
	.test_cases = tern_inner_cases,
};

kunit_test_suite(tern_inner_suite);

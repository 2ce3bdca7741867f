// SPDX-License-Identifier: GPL-2.0
/* KUnit helpers of the tern_inner_* suites: quoted packets and their translations. */

#include <kunit/test.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include "xlat/inner.h"
#include "xlat/ipid.h"
#include "kt_inner.h"

void tern_kt_quote_fill(struct tern_kt_quote *q, u8 proto, u8 icmp_type,
			bool udp0)
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

/* IPv4 packet (20-byte header plus @opt option bytes) quoting @q. */
unsigned int tern_kt_build4(u8 *p, const struct tern_kt_quote *q, u16 frag_off,
			    unsigned int opt, bool udp0)
{
	unsigned int hl = 20 + opt;
	struct iphdr *iph = (struct iphdr *)p;

	memcpy(p + hl, q->l4, q->l4len);
	tern_kt_l4csum4(p + hl, q->l4len, q->proto, tern_kt_in_s4(), tern_kt_in_d4());
	if (udp0)
		p[hl + 6] = p[hl + 7] = 0;
	tern_kt_ip4(p, hl + q->l4len, q->proto, tern_kt_in_s4(), tern_kt_in_d4(), 37, 0xabcd,
		    frag_off);
	if (opt) {
		memset(p + 20, IPOPT_NOOP, opt);
		iph->ihl = hl / 4;
		ip_send_check(iph);
	}
	return hl + q->l4len;
}

/* The expected IPv6 packet for the whole @q (no fragment). */
unsigned int tern_kt_expect6(u8 *e, const struct tern_kt_quote *q, bool udp0)
{
	struct in6_addr s, d;
	u8 *l4 = e + 40;
	u8 nh = q->proto == IPPROTO_ICMP ? IPPROTO_ICMPV6 : q->proto;

	tern_kt_map6(tern_kt_in_s4(), &s);
	tern_kt_map6(tern_kt_in_d4(), &d);
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
unsigned int tern_kt_build6(u8 *p, const struct tern_kt_quote *q, u8 nh0,
			    const u8 *ext, unsigned int extlen, bool udp0)
{
	struct in6_addr s, d;
	u8 nh = q->proto == IPPROTO_ICMP ? IPPROTO_ICMPV6 : q->proto;
	u8 *l4 = p + 40 + extlen;

	tern_kt_map6(tern_kt_in_d4(), &s);
	tern_kt_map6(tern_kt_in_s4(), &d);
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
void tern_kt_dest_chain(u8 *ext, unsigned int n, u8 last)
{
	unsigned int i;

	memset(ext, 0, 8 * n);
	for (i = 0; i < n; i++)
		ext[8 * i] = i + 1 == n ? last : NEXTHDR_DEST;
}

/* The expected IPv4 packet for the whole @q (not a fragment). */
unsigned int tern_kt_expect4(u8 *e, const struct tern_kt_quote *q, bool udp0)
{
	u8 *l4 = e + 20;

	memcpy(l4, q->l4, q->l4len);
	if (udp0)
		l4[6] = l4[7] = 0;
	else
		tern_kt_l4csum4(l4, q->l4len, q->proto, tern_kt_in_d4(), tern_kt_in_s4());
	tern_kt_ip4(e, 20 + q->l4len, q->proto, tern_kt_in_d4(), tern_kt_in_s4(), 37, 0, 0);
	return 20 + q->l4len;
}

/*
 * RFC 7915 5.3 with 5.1: a quote of at most 1260 bytes gets DF clear and
 * the next Identification of its flow. Takes one from the generator and
 * writes the one after it (what the translation will take) into the
 * expected header @e.
 */
void tern_kt_expect4_next_id(u8 *e)
{
	struct iphdr *iph = (struct iphdr *)e;

	iph->id = htons(ntohs(tern_ipid_next(&init_net, iph->saddr,
					     iph->daddr, iph->protocol)) + 1);
	ip_send_check(iph);
}

struct tern_config *tern_kt_cfg_of(struct kunit *test)
{
	return ((struct tern_kt_inner *)test->priv)->ki.cfg;
}

u8 *tern_kt_big(struct kunit *test)
{
	u8 *p = kunit_kzalloc(test, TERN_KT_BIG, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return p;
}

static struct tern_instance *inst_of(struct kunit *test)
{
	return &((struct tern_kt_inner *)test->priv)->ki.inst;
}

/* The mapping reads the tables its configuration names, under RCU. */
int tern_kt_call4to6(struct kunit *test, const u8 *in, unsigned int in_len,
		     u8 *out, unsigned int out_size, u32 *tot_len)
{
	struct tern_xlat x;
	int n;

	rcu_read_lock();
	tern_xlat_init(&x, inst_of(test), tern_kt_cfg_of(test));
	n = tern_inner_4to6(&x, in, in_len, out, out_size, tot_len);
	rcu_read_unlock();
	return n;
}

int tern_kt_call6to4(struct kunit *test, const u8 *in, unsigned int in_len,
		     u8 *out, unsigned int out_size)
{
	struct tern_xlat x;
	bool frag;
	int n;

	rcu_read_lock();
	tern_xlat_init(&x, inst_of(test), tern_kt_cfg_of(test));
	n = tern_inner_6to4(&x, in, in_len, out, out_size, &frag);
	rcu_read_unlock();
	return n;
}

const struct tern_kt_inner_case tern_kt_inner_cases[TERN_KT_INNER_CASES] = {
	{ "TCP", IPPROTO_TCP, 0, false },
	{ "UDP", IPPROTO_UDP, 0, false },
	{ "UDP, zero checksum", IPPROTO_UDP, 0, true },
	{ "ICMP echo request", IPPROTO_ICMP, ICMP_ECHO, false },
	{ "ICMP echo reply", IPPROTO_ICMP, ICMP_ECHOREPLY, false },
};

int tern_kt_inner_init(struct kunit *test)
{
	struct tern_kt_inner *ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);

	if (!ctx || tern_kt_inst_init(&ctx->ki))
		return -ENOMEM;
	test->priv = ctx;
	return 0;
}

void tern_kt_inner_exit(struct kunit *test)
{
	struct tern_kt_inner *ctx = test->priv;

	tern_kt_inst_fini(&ctx->ki);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: random packets, malformed, truncated or with random fields, both
 * ways through the translator (random extension header chains, fragment
 * headers, ICMP errors with random quotes and RFC 4884 lengths, linear or
 * paged). The packets pass what the kernel checks before PRE_ROUTING
 * (version, IHL and Total Length, header checksum, Payload Length). Nothing
 * may crash or leak (KASAN, kmemleak), exactly one counter moves per
 * packet, and whatever leaves through the test interface is well formed.
 * The seed is fixed and printed: a failure can be replayed.
 */

#include <kunit/test.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netfilter.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include "xlat/ipid.h"
#include "kt_util.h"

#define FUZZ_SEED	0x7e4e5eedULL
#define FUZZ_PACKETS	4000	/* per direction: about 15 s each in the VM */
#define FUZZ_BUF	4200

struct fuzz {
	struct rnd_state rs;
	struct tern_kt_inst ki;
	u8 *buf;
	u8 *tmp;
	unsigned long packets, bad_count, bad_out;
	u64 per_stat[TERN_STAT_MAX + 1];
};

static u32 rnd(struct fuzz *f, u32 n)
{
	return n ? prandom_u32_state(&f->rs) % n : 0;
}

static bool chance(struct fuzz *f, u32 percent)
{
	return rnd(f, 100) < percent;
}

static void rnd_bytes(struct fuzz *f, u8 *p, unsigned int n)
{
	prandom_bytes_state(&f->rs, p, n);
}

/* An IPv4 address: mostly in the routed test networks. */
static __be32 rnd_a4(struct fuzz *f, bool v6side)
{
	switch (rnd(f, 10)) {
	case 0:
		return htonl(prandom_u32_state(&f->rs));
	case 1:
		return TERN_KT_R4(rnd(f, 256));
	case 2:
		return htonl(0x0aff0001);	/* local */
	default:
		return v6side ? TERN_KT_H6(rnd(f, 256)) : TERN_KT_H4(rnd(f, 256));
	}
}

static void rnd_a6(struct fuzz *f, struct in6_addr *a, bool v6side)
{
	if (chance(f, 8)) {
		rnd_bytes(f, (u8 *)a, sizeof(*a));
		return;
	}
	tern_kt_map6(rnd_a4(f, v6side), a);
	if (chance(f, 3))
		a->s6_addr[rnd(f, 12)] ^= 1 << rnd(f, 8);	/* beside pool6 */
}

static u8 rnd_ttl(struct fuzz *f)
{
	static const u8 v[] = { 0, 1, 2, 64, 255 };

	return chance(f, 30) ? v[rnd(f, ARRAY_SIZE(v))] : rnd(f, 256);
}

static unsigned int rnd_l4len(struct fuzz *f)
{
	switch (rnd(f, 10)) {
	case 0:
		return rnd(f, 8);
	case 1:
		return 1200 + rnd(f, 2800);
	default:
		return rnd(f, 600);
	}
}

static unsigned int gen4(struct fuzz *f, u8 *p, unsigned int room, int depth);
static unsigned int gen6(struct fuzz *f, u8 *p, unsigned int room, int depth);

/*
 * The transport part at @l4 (at most @room bytes): TCP, UDP, ICMP with
 * maybe an error quoting another packet (mostly one sent by @odst, the
 * outer destination, as real errors do), or random. Returns its length.
 */
static unsigned int gen_l4(struct fuzz *f, u8 *l4, unsigned int room, u8 proto,
			   bool v6, int depth, const void *odst)
{
	unsigned int len = min(rnd_l4len(f), room);

	rnd_bytes(f, l4, len);
	if ((proto == IPPROTO_ICMP || proto == IPPROTO_ICMPV6) && len >= 8 &&
	    depth < 2 && chance(f, 60)) {
		static const u8 err4[] = { 3, 4, 5, 11, 12, 0, 8 };
		static const u8 err6[] = { 1, 2, 3, 4, 128, 129 };
		unsigned int q;

		l4[0] = v6 ? err6[rnd(f, ARRAY_SIZE(err6))] :
			     err4[rnd(f, ARRAY_SIZE(err4))];
		if (chance(f, 70))
			l4[1] = rnd(f, 5);
		/* The quote: a packet of the same family, maybe cut. */
		q = v6 ? gen6(f, l4 + 8, room - 8, depth + 1) :
			 gen4(f, l4 + 8, room - 8, depth + 1);
		if (chance(f, 80) && q >= (v6 ? 40 : 20))
			memcpy(l4 + 8 + (v6 ? offsetof(struct ipv6hdr, saddr) :
				       offsetof(struct iphdr, saddr)),
			       odst, v6 ? 16 : 4);
		if (chance(f, 50))
			q = rnd(f, q + 1);
		len = 8 + q;
		/* RFC 4884 length: none, right, or anything. */
		switch (rnd(f, 4)) {
		case 0:
			l4[v6 ? 4 : 5] = q / (v6 ? 8 : 4);
			break;
		case 1:
			l4[v6 ? 4 : 5] = 0;
			break;
		case 2:
			l4[v6 ? 4 : 5] = 128 / (v6 ? 8 : 4);
			break;
		}
		if (chance(f, 20) && len + 16 <= room) {	/* extension */
			rnd_bytes(f, l4 + len, 16);
			len += 16;
		}
	} else if (proto == IPPROTO_ICMP && len >= 1 && chance(f, 50)) {
		l4[0] = chance(f, 50) ? ICMP_ECHO : ICMP_ECHOREPLY;
	} else if (proto == IPPROTO_ICMPV6 && len >= 1 && chance(f, 50)) {
		l4[0] = chance(f, 50) ? ICMPV6_ECHO_REQUEST : ICMPV6_ECHO_REPLY;
	} else if (proto == IPPROTO_UDP && len >= 8) {
		if (chance(f, 80)) {
			l4[4] = len >> 8;
			l4[5] = len;
		}
		if (chance(f, 10))
			l4[6] = l4[7] = 0;
	} else if (proto == IPPROTO_TCP && len >= 20 && chance(f, 80)) {
		l4[12] = 5 << 4;
	}
	return len;
}

static u8 rnd_proto(struct fuzz *f, bool v6)
{
	switch (rnd(f, 8)) {
	case 0:
		return rnd(f, 256);
	case 1:
	case 2:
		return IPPROTO_TCP;
	case 3:
	case 4:
		return IPPROTO_UDP;
	default:
		return v6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP;
	}
}

/* An IPv4 packet in @p (at most @room bytes); the checks of ip_rcv pass. */
static unsigned int gen4(struct fuzz *f, u8 *p, unsigned int room, int depth)
{
	struct iphdr *iph = (struct iphdr *)p;
	unsigned int hl = 20, len;
	u16 fo;

	if (room < 20)
		return 0;
	if (chance(f, 15))
		hl = min(room & ~3U, 20 + 4 * rnd(f, 11));
	switch (rnd(f, 6)) {
	case 0:
		fo = IP_MF;
		break;
	case 1:
		fo = rnd(f, 0x10000);
		break;
	case 2:
		fo = rnd(f, 0x2000);
		break;
	default:
		fo = chance(f, 50) ? IP_DF : 0;
		break;
	}
	tern_kt_ip4(p, hl, rnd_proto(f, false), rnd_a4(f, false), rnd_a4(f, true),
		    rnd_ttl(f), rnd(f, 0x10000), fo);
	iph->tos = rnd(f, 256);
	if (hl > 20) {
		rnd_bytes(f, p + 20, hl - 20);
		if (chance(f, 30)) {	/* a source route option */
			p[20] = chance(f, 50) ? IPOPT_LSRR : IPOPT_SSRR;
			p[21] = min(hl - 20, 3 + 4 * rnd(f, 3));
			p[22] = 4 + 4 * rnd(f, 3);
		}
		iph->ihl = hl / 4;
	}
	len = hl + gen_l4(f, p + hl, room - hl, iph->protocol, false, depth,
			  &iph->daddr);
	if (chance(f, 60) && !(fo & IP_OFFSET))
		tern_kt_l4csum4(p + hl, len - hl, iph->protocol, iph->saddr,
				iph->daddr);
	if (chance(f, 20)) {	/* random damage past the fixed fields */
		int i, n = 1 + rnd(f, 4);

		for (i = 0; i < n; i++) {
			unsigned int at = 4 + rnd(f, len - 4);

			p[at] = rnd(f, 256);
		}
	}
	/* What ip_rcv ensures (an inner packet needs none of it). */
	iph->version = 4;
	if (depth == 0) {
		if (iph->ihl < 5 || iph->ihl * 4 > len)
			iph->ihl = 5;
		iph->tot_len = htons(len);
	} else if (chance(f, 80)) {
		iph->tot_len = htons(len);
	}
	iph->check = 0;
	iph->check = ip_fast_csum(iph, iph->ihl < 5 ? 5 : iph->ihl);
	return len;
}

/* Extension headers, then an upper layer; Payload Length as ipv6_rcv trims. */
static unsigned int gen6(struct fuzz *f, u8 *p, unsigned int room, int depth)
{
	static const u8 ext[] = { NEXTHDR_HOP, NEXTHDR_ROUTING, NEXTHDR_DEST,
				  NEXTHDR_FRAGMENT, NEXTHDR_NONE };
	struct ipv6hdr *ip6 = (struct ipv6hdr *)p;
	unsigned int off = 40, n, i, len;
	u8 *nhp = &ip6->nexthdr;
	struct in6_addr s, d;
	u8 proto;

	if (room < 40)
		return 0;
	rnd_a6(f, &s, true);
	rnd_a6(f, &d, false);
	tern_kt_ip6(p, 0, 0, &s, &d, rnd_ttl(f));
	if (chance(f, 30))
		ip6_flow_hdr(ip6, rnd(f, 256), htonl(rnd(f, 0x100000)));
	n = chance(f, 50) ? 0 : rnd(f, 11);
	for (i = 0; i < n; i++) {
		u8 t = ext[rnd(f, ARRAY_SIZE(ext) - (chance(f, 90) ? 1 : 0))];
		unsigned int hl = t == NEXTHDR_FRAGMENT ? 8 : 8 * (1 + rnd(f, 3));

		if (off + hl > room)
			break;
		*nhp = t;
		rnd_bytes(f, p + off, hl);
		nhp = p + off;
		if (t == NEXTHDR_FRAGMENT) {
			p[off + 1] = 0;
			if (chance(f, 50))
				p[off + 2] = p[off + 3] = 0;	/* atomic */
			else if (chance(f, 50))
				p[off + 3] &= ~0xf8;	/* first */
		} else {
			p[off + 1] = hl / 8 - 1;
			if (t == NEXTHDR_ROUTING && chance(f, 70))
				p[off + 3] = 0;	/* Segments Left */
		}
		off += hl;
		if (t == NEXTHDR_NONE)
			break;
	}
	proto = rnd_proto(f, true);
	*nhp = proto;
	len = off + gen_l4(f, p + off, room - off, proto, true, depth,
			   &ip6->daddr);
	if (chance(f, 60))
		tern_kt_l4csum6(p + off, len - off, proto, &s, &d);
	if (chance(f, 20)) {
		int k, m = 1 + rnd(f, 4);

		for (k = 0; k < m; k++) {
			unsigned int at = 1 + rnd(f, len - 1);

			p[at] = rnd(f, 256);
		}
	}
	ip6->version = 6;
	if (depth == 0 || chance(f, 80))
		ip6->payload_len = htons(len - 40);
	return len;
}

/* Every packet that left is well formed (lengths, IPv4 header checksum). */
static void fuzz_check_out(struct kunit *test, struct fuzz *f)
{
	unsigned int i;

	for (i = 0; i < tern_kt_ncaptured(); i++) {
		struct tern_kt_pkt *p = tern_kt_captured(i);
		bool ok;

		if (p->family == NFPROTO_IPV4) {
			const struct iphdr *iph = (const struct iphdr *)p->data;

			ok = p->len >= 20 && iph->version == 4 && iph->ihl >= 5 &&
			     ntohs(iph->tot_len) == p->len &&
			     iph->ihl * 4 <= p->len &&
			     !ip_fast_csum(iph, iph->ihl);
		} else {
			const struct ipv6hdr *ip6 = (const struct ipv6hdr *)p->data;

			ok = p->len >= 40 && ip6->version == 6 &&
			     ntohs(ip6->payload_len) + 40 == p->len &&
			     p->len <= 1500;
		}
		if (!ok && f->bad_out++ < 5)
			KUNIT_FAIL(test, "packet %lu: malformed IPv%d output of %u bytes",
				   f->packets, p->family == NFPROTO_IPV4 ? 4 : 6, p->len);
	}
	tern_kt_capture_reset();
}

static void fuzz_one(struct kunit *test, struct fuzz *f, bool v6)
{
	unsigned int len, lin, l3;
	struct sk_buff *skb;
	u64 before, after;

	memset(f->buf, 0, 64);
	len = v6 ? gen6(f, f->buf, FUZZ_BUF, 0) : gen4(f, f->buf, FUZZ_BUF, 0);
	l3 = v6 ? 40 : ((struct iphdr *)f->buf)->ihl * 4;
	lin = chance(f, 60) ? len : l3 + rnd(f, len - l3 + 1);
	skb = tern_kt_skb(f->buf, len, v6, lin);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	if (chance(f, 5))
		skb->pkt_type = PACKET_OTHERHOST;
	before = tern_kt_stats_total(&f->ki, NULL);
	tern_kt_run(&f->ki, skb);
	after = tern_kt_stats_total(&f->ki, NULL);
	f->packets++;
	if (after - before != 1 && f->bad_count++ < 5)
		KUNIT_FAIL(test, "packet %lu (IPv%d, %u bytes): %llu counters moved",
			   f->packets, v6 ? 6 : 4, len, after - before);
	fuzz_check_out(test, f);
}

static void fuzz_run(struct kunit *test, bool v6, u64 seed)
{
	struct fuzz *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	u64 xlat, err;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->buf = kunit_kzalloc(test, FUZZ_BUF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->buf);
	KUNIT_ASSERT_EQ(test, tern_kt_inst_init(&f->ki), 0);
	prandom_seed_state(&f->rs, seed);
	kunit_info(test, "seed %#llx, %d IPv%d packets", seed, FUZZ_PACKETS,
		   v6 ? 6 : 4);
	for (i = 0; i < FUZZ_PACKETS; i++) {
		/* Configuration changes now and then. */
		if (i % 500 == 250) {
			f->ki.cfg->amend_udp_csum0 ^= 1;
			f->ki.cfg->icmp_on_drop = chance(f, 50);
			f->ki.cfg->lowest_ipv6_mtu = 1280 + 8 * rnd(f, 40);
			f->ki.cfg->rfc6791v4_set = chance(f, 50);
			f->ki.cfg->rfc6791v4.addr = TERN_KT_R4(0);
			f->ki.cfg->rfc6791v4.len = 24 + rnd(f, 9);
			f->ki.cfg->rfc6791v6_set = chance(f, 50);
			tern_kt_map6(TERN_KT_R4(0), &f->ki.cfg->rfc6791v6.addr);
			f->ki.cfg->rfc6791v6.len = 96 + rnd(f, 33);
			f->ki.cfg->zeroize_tc = chance(f, 50);
			f->ki.cfg->override_tos = chance(f, 50);
		}
		fuzz_one(test, f, v6);
	}
	/* The whole breakdown goes to the kernel log (KUnit's is short). */
	tern_stats_sum(f->ki.inst.stats, f->per_stat);
	for (i = 0; i <= TERN_STAT_MAX; i++)
		if (f->per_stat[i])
			pr_info("tern_fuzz: IPv%d seed %#llx: counter %d: %llu\n",
				v6 ? 6 : 4, seed, i, f->per_stat[i]);
	/* The random packets reach the translation paths too. */
	xlat = f->per_stat[v6 ? TERN_STAT_XLAT_64 : TERN_STAT_XLAT_46];
	err = f->per_stat[v6 ? TERN_STAT_XLAT_ICMP_ERR_64 : TERN_STAT_XLAT_ICMP_ERR_46];
	kunit_info(test, "translated %llu, ICMP errors translated %llu", xlat, err);
	KUNIT_EXPECT_GT(test, xlat, 0ULL);
	KUNIT_EXPECT_GT(test, err, 0ULL);
	KUNIT_EXPECT_EQ(test, tern_kt_stats_total(&f->ki, NULL), (u64)FUZZ_PACKETS);
	KUNIT_EXPECT_EQ(test, f->bad_count, 0UL);
	KUNIT_EXPECT_EQ(test, f->bad_out, 0UL);
	tern_kt_inst_fini(&f->ki);
}

static void fuzz_6to4(struct kunit *test)
{
	fuzz_run(test, true, FUZZ_SEED);
}

static void fuzz_4to6(struct kunit *test)
{
	fuzz_run(test, false, FUZZ_SEED + 1);
}

static int fuzz_suite_init(struct kunit_suite *suite)
{
	tern_ipid_init();
	return tern_kt_capture_register();
}

static void fuzz_suite_exit(struct kunit_suite *suite)
{
	tern_kt_capture_unregister();
}

static struct kunit_case tern_fuzz_cases[] = {
	KUNIT_CASE(fuzz_6to4),
	KUNIT_CASE(fuzz_4to6),
	{}
};

static struct kunit_suite tern_fuzz_suite = {
	.name = "tern_fuzz",
	.suite_init = fuzz_suite_init,
	.suite_exit = fuzz_suite_exit,
	.test_cases = tern_fuzz_cases,
};

kunit_test_suite(tern_fuzz_suite);

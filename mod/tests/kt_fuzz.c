// SPDX-License-Identifier: GPL-2.0
/*
 * The random packets of tern_fuzz: malformed, truncated or with random
 * fields (extension header chains, fragment headers, ICMP errors with
 * random quotes and RFC 4884 lengths), yet passing what the kernel checks
 * before PRE_ROUTING (version, IHL and Total Length, header checksum,
 * Payload Length).
 */

#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include "kt_fuzz.h"

static void rnd_bytes(struct tern_kt_fuzz *f, u8 *p, unsigned int n)
{
	prandom_bytes_state(&f->rs, p, n);
}

/* An IPv4 address: mostly in the routed test networks. */
static __be32 rnd_a4(struct tern_kt_fuzz *f, bool v6side)
{
	switch (tern_kt_rnd(f, 10)) {
	case 0:
		return htonl(prandom_u32_state(&f->rs));
	case 1:
		return TERN_KT_R4(tern_kt_rnd(f, 256));
	case 2:
		return htonl(0x0aff0001);	/* local */
	default:
		return v6side ? TERN_KT_H6(tern_kt_rnd(f, 256)) : TERN_KT_H4(tern_kt_rnd(f, 256));
	}
}

static void rnd_a6(struct tern_kt_fuzz *f, struct in6_addr *a, bool v6side)
{
	if (tern_kt_chance(f, 8)) {
		rnd_bytes(f, (u8 *)a, sizeof(*a));
		return;
	}
	tern_kt_map6(rnd_a4(f, v6side), a);
	if (tern_kt_chance(f, 3))
		a->s6_addr[tern_kt_rnd(f, 12)] ^= 1 << tern_kt_rnd(f, 8);	/* beside pool6 */
}

static u8 rnd_ttl(struct tern_kt_fuzz *f)
{
	static const u8 v[] = { 0, 1, 2, 64, 255 };

	return tern_kt_chance(f, 30) ? v[tern_kt_rnd(f, ARRAY_SIZE(v))] : tern_kt_rnd(f, 256);
}

static unsigned int rnd_l4len(struct tern_kt_fuzz *f)
{
	switch (tern_kt_rnd(f, 10)) {
	case 0:
		return tern_kt_rnd(f, 8);
	case 1:
		return 1200 + tern_kt_rnd(f, 2800);
	default:
		return tern_kt_rnd(f, 600);
	}
}

/*
 * The transport part at @l4 (at most @room bytes): TCP, UDP, ICMP with
 * maybe an error quoting another packet (mostly one sent by @odst, the
 * outer destination, as real errors do), or random. Returns its length.
 */
static unsigned int gen_l4(struct tern_kt_fuzz *f, u8 *l4, unsigned int room, u8 proto,
			   bool v6, int depth, const void *odst)
{
	unsigned int len = min(rnd_l4len(f), room);

	rnd_bytes(f, l4, len);
	if ((proto == IPPROTO_ICMP || proto == IPPROTO_ICMPV6) && len >= 8 &&
	    depth < 2 && tern_kt_chance(f, 60)) {
		static const u8 err4[] = { 3, 4, 5, 11, 12, 0, 8 };
		static const u8 err6[] = { 1, 2, 3, 4, 128, 129 };
		unsigned int q;

		l4[0] = v6 ? err6[tern_kt_rnd(f, ARRAY_SIZE(err6))] :
			     err4[tern_kt_rnd(f, ARRAY_SIZE(err4))];
		if (tern_kt_chance(f, 70))
			l4[1] = tern_kt_rnd(f, 5);
		/* The quote: a packet of the same family, maybe cut. */
		q = v6 ? tern_kt_gen6(f, l4 + 8, room - 8, depth + 1) :
			 tern_kt_gen4(f, l4 + 8, room - 8, depth + 1);
		if (tern_kt_chance(f, 80) && q >= (v6 ? 40 : 20))
			memcpy(l4 + 8 + (v6 ? offsetof(struct ipv6hdr, saddr) :
				       offsetof(struct iphdr, saddr)),
			       odst, v6 ? 16 : 4);
		if (tern_kt_chance(f, 50))
			q = tern_kt_rnd(f, q + 1);
		len = 8 + q;
		/* RFC 4884 length: none, right, or anything. */
		switch (tern_kt_rnd(f, 4)) {
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
		if (tern_kt_chance(f, 20) && len + 16 <= room) {	/* extension */
			rnd_bytes(f, l4 + len, 16);
			len += 16;
		}
	} else if (proto == IPPROTO_ICMP && len >= 1 && tern_kt_chance(f, 50)) {
		l4[0] = tern_kt_chance(f, 50) ? ICMP_ECHO : ICMP_ECHOREPLY;
	} else if (proto == IPPROTO_ICMPV6 && len >= 1 && tern_kt_chance(f, 50)) {
		l4[0] = tern_kt_chance(f, 50) ? ICMPV6_ECHO_REQUEST : ICMPV6_ECHO_REPLY;
	} else if (proto == IPPROTO_UDP && len >= 8) {
		if (tern_kt_chance(f, 80)) {
			l4[4] = len >> 8;
			l4[5] = len;
		}
		if (tern_kt_chance(f, 10))
			l4[6] = l4[7] = 0;
	} else if (proto == IPPROTO_TCP && len >= 20 && tern_kt_chance(f, 80)) {
		l4[12] = 5 << 4;
	}
	return len;
}

static u8 rnd_proto(struct tern_kt_fuzz *f, bool v6)
{
	switch (tern_kt_rnd(f, 8)) {
	case 0:
		return tern_kt_rnd(f, 256);
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
unsigned int tern_kt_gen4(struct tern_kt_fuzz *f, u8 *p, unsigned int room, int depth)
{
	struct iphdr *iph = (struct iphdr *)p;
	unsigned int hl = 20, len;
	u16 fo;

	if (room < 20)
		return 0;
	if (tern_kt_chance(f, 15))
		hl = min(room & ~3U, 20 + 4 * tern_kt_rnd(f, 11));
	switch (tern_kt_rnd(f, 6)) {
	case 0:
		fo = IP_MF;
		break;
	case 1:
		fo = tern_kt_rnd(f, 0x10000);
		break;
	case 2:
		fo = tern_kt_rnd(f, 0x2000);
		break;
	default:
		fo = tern_kt_chance(f, 50) ? IP_DF : 0;
		break;
	}
	tern_kt_ip4(p, hl, rnd_proto(f, false), rnd_a4(f, false), rnd_a4(f, true),
		    rnd_ttl(f), tern_kt_rnd(f, 0x10000), fo);
	iph->tos = tern_kt_rnd(f, 256);
	if (hl > 20) {
		rnd_bytes(f, p + 20, hl - 20);
		if (tern_kt_chance(f, 30)) {	/* a source route option */
			p[20] = tern_kt_chance(f, 50) ? IPOPT_LSRR : IPOPT_SSRR;
			p[21] = min(hl - 20, 3 + 4 * tern_kt_rnd(f, 3));
			p[22] = 4 + 4 * tern_kt_rnd(f, 3);
		}
		iph->ihl = hl / 4;
	}
	len = hl + gen_l4(f, p + hl, room - hl, iph->protocol, false, depth,
			  &iph->daddr);
	if (tern_kt_chance(f, 60) && !(fo & IP_OFFSET))
		tern_kt_l4csum4(p + hl, len - hl, iph->protocol, iph->saddr,
				iph->daddr);
	if (tern_kt_chance(f, 20)) {	/* random damage past the fixed fields */
		int i, n = 1 + tern_kt_rnd(f, 4);

		for (i = 0; i < n; i++) {
			unsigned int at = 4 + tern_kt_rnd(f, len - 4);

			p[at] = tern_kt_rnd(f, 256);
		}
	}
	/* What ip_rcv ensures (an inner packet needs none of it). */
	iph->version = 4;
	if (depth == 0) {
		if (iph->ihl < 5 || iph->ihl * 4 > len)
			iph->ihl = 5;
		iph->tot_len = htons(len);
	} else if (tern_kt_chance(f, 80)) {
		iph->tot_len = htons(len);
	}
	iph->check = 0;
	iph->check = ip_fast_csum(iph, iph->ihl < 5 ? 5 : iph->ihl);
	return len;
}

/* Extension headers, then an upper layer; Payload Length as ipv6_rcv trims. */
unsigned int tern_kt_gen6(struct tern_kt_fuzz *f, u8 *p, unsigned int room, int depth)
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
	if (tern_kt_chance(f, 30))
		ip6_flow_hdr(ip6, tern_kt_rnd(f, 256), htonl(tern_kt_rnd(f, 0x100000)));
	n = tern_kt_chance(f, 50) ? 0 : tern_kt_rnd(f, 11);
	for (i = 0; i < n; i++) {
		u8 t = ext[tern_kt_rnd(f, ARRAY_SIZE(ext) - (tern_kt_chance(f, 90) ? 1 : 0))];
		unsigned int hl = t == NEXTHDR_FRAGMENT ? 8 : 8 * (1 + tern_kt_rnd(f, 3));

		if (off + hl > room)
			break;
		*nhp = t;
		rnd_bytes(f, p + off, hl);
		nhp = p + off;
		if (t == NEXTHDR_FRAGMENT) {
			p[off + 1] = 0;
			if (tern_kt_chance(f, 50))
				p[off + 2] = p[off + 3] = 0;	/* atomic */
			else if (tern_kt_chance(f, 50))
				p[off + 3] &= ~0xf8;	/* first */
		} else {
			p[off + 1] = hl / 8 - 1;
			if (t == NEXTHDR_ROUTING && tern_kt_chance(f, 70))
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
	if (tern_kt_chance(f, 60))
		tern_kt_l4csum6(p + off, len - off, proto, &s, &d);
	if (tern_kt_chance(f, 20)) {
		int k, m = 1 + tern_kt_rnd(f, 4);

		for (k = 0; k < m; k++) {
			unsigned int at = 1 + tern_kt_rnd(f, len - 1);

			p[at] = tern_kt_rnd(f, 256);
		}
	}
	ip6->version = 6;
	if (depth == 0 || tern_kt_chance(f, 80))
		ip6->payload_len = htons(len - 40);
	return len;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The packet quoted in an ICMP error: its IP header is translated like any
 * header (with the declared lengths, not the quoted ones), its addresses
 * mapped, its transport checksum updated when the quote holds the field,
 * and the rest copied. Quotes are often truncated; nothing past @in_len is
 * read.
 */

#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/dsfield.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include "xlat/csum.h"
#include "xlat/hdr.h"
#include "xlat/icmp.h"
#include "xlat/inner.h"
#include "xlat/ipid.h"
#include "xlat/mode.h"
#include "xlat/packet.h"
#include "xlat/xlat.h"

/*
 * Fixes the transport header copied to @l4 (@len bytes present) for new
 * addresses (@diff: the change of the pseudo-header sum). ICMP echo also
 * gets its type mapped: @icmp_pseudo is the ICMPv6 pseudo-header sum,
 * added (4 -> 6) or removed (6 -> 4). Returns -1 for an inner ICMP
 * message that is not an echo (an error about an error, or worse).
 */
static int tern_inner_l4(u8 proto, u8 *l4, unsigned int len, __wsum diff,
			 __wsum icmp_pseudo, bool to6)
{
	u8 type;

	switch (proto) {
	case IPPROTO_TCP:
		if (len >= offsetof(struct tcphdr, check) + 2)
			csum_replace_by_diff(&((struct tcphdr *)l4)->check,
					     diff);
		return 0;
	case IPPROTO_UDP:
		if (len >= sizeof(struct udphdr) &&
		    ((struct udphdr *)l4)->check) {
			struct udphdr *uh = (struct udphdr *)l4;

			csum_replace_by_diff(&uh->check, diff);
			if (!uh->check)
				uh->check = CSUM_MANGLED_0;
		}
		return 0;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		if (len < 1)
			return -1;
		if (to6 ? tern_icmp4_classify(l4[0], &type) != TERN_ICMP_ECHO :
			  tern_icmp6_classify(l4[0], &type) != TERN_ICMP_ECHO)
			return -1;
		if (len >= 4)
			tern_csum_icmp((__sum16 *)(l4 + 2), l4, type,
				       icmp_pseudo, to6);
		else
			l4[0] = type;
		return 0;
	}
	return 0;
}

/*
 * The quoted transport identifiers @id (of the whole quote) become @nport:
 * written where the translated quote (@len bytes at @l4) holds them, its
 * checksum updated where it holds that.
 */
static void tern_inner_ids(u8 proto, u8 *l4, unsigned int len,
			   const struct tern_l4id *id, const __be16 *nport)
{
	unsigned int coff, i, n = 2;
	__be16 *at = (__be16 *)l4;
	__sum16 *check;

	if (!id->valid)
		return;
	switch (proto) {
	case IPPROTO_TCP:
		coff = offsetof(struct tcphdr, check);
		break;
	case IPPROTO_UDP:
		coff = offsetof(struct udphdr, check);
		break;
	default:	/* ICMP echo: one identifier */
		coff = 2;
		at = (__be16 *)(l4 + 4);
		n = 1;
		break;
	}
	check = len >= coff + 2 ? (__sum16 *)(l4 + coff) : NULL;
	if (check && proto == IPPROTO_UDP && !*check)
		check = NULL;
	for (i = 0; i < n; i++) {
		if (id->port[i] == nport[i])
			continue;
		/* The checksum covers the whole packet, cut off or not. */
		if (check)
			csum_replace2(check, id->port[i], nport[i]);
		if ((u8 *)&at[i + 1] - l4 <= len)
			at[i] = nport[i];
	}
	if (check && proto == IPPROTO_UDP && !*check)
		*check = CSUM_MANGLED_0;
}

int tern_inner_4to6(const struct tern_xlat *x, const u8 *in,
		    unsigned int in_len, u8 *out, unsigned int out_size,
		    u32 *tot_len)
{
	const struct iphdr *iph = (const struct iphdr *)in;
	struct ipv6hdr *ip6 = (struct ipv6hdr *)out;
	unsigned int ihl, hlen, body, ulen;
	struct tern_l4id id;
	__be16 nport[2];
	u16 fo;
	bool frag;
	u8 proto;

	if (in_len < sizeof(*iph) || iph->version != 4 || iph->ihl < 5)
		return -1;
	ihl = iph->ihl * 4;
	*tot_len = ntohs(iph->tot_len);
	if (ihl > in_len || *tot_len < ihl)
		return -1;
	fo = ntohs(iph->frag_off);
	frag = fo & (IP_MF | IP_OFFSET);
	hlen = sizeof(*ip6) + (frag ? sizeof(struct frag_hdr) : 0);
	/* As for a packet: no IPv6 header made of an IPv4 protocol number. */
	if (out_size < hlen || tern_proto_in(iph->protocol, TERN_PROTO_V6ONLY))
		return -1;
	proto = iph->protocol == IPPROTO_ICMP ? IPPROTO_ICMPV6 : iph->protocol;
	ulen = *tot_len - ihl;

	ip6_flow_hdr(ip6, x->cfg->zeroize_tc ? 0 : iph->tos, 0);
	ip6->payload_len = htons(ulen + hlen - sizeof(*ip6));
	ip6->nexthdr = frag ? NEXTHDR_FRAGMENT : proto;
	ip6->hop_limit = iph->ttl;
	/* The decision of a normal packet, for the packet in error. */
	id.valid = false;
	if (!(fo & IP_OFFSET))
		tern_l4id_parse(iph->protocol, in + ihl, in_len - ihl, &id);
	memcpy(nport, id.port, sizeof(nport));
	if (!x->mode->inner4(x, iph->saddr, iph->daddr, &ip6->saddr,
			     &ip6->daddr, &id, nport))
		return -1;
	if (frag)
		tern_frag_hdr_4to6((struct frag_hdr *)(ip6 + 1), iph, proto);

	body = min(in_len - ihl, out_size - hlen);
	memcpy(out + hlen, in + ihl, body);
	tern_inner_ids(iph->protocol, out + hlen, body, &id, nport);
	if (!(fo & IP_OFFSET) &&
	    tern_inner_l4(iph->protocol, out + hlen, body,
			  tern_csum_diff(&iph->saddr, 8, &ip6->saddr, 32),
			  tern_csum_pseudo6(&ip6->saddr, &ip6->daddr, ulen,
					    IPPROTO_ICMPV6), true))
		return -1;
	return hlen + body;
}

int tern_inner_6to4(const struct tern_xlat *x, const u8 *in,
		    unsigned int in_len, u8 *out, unsigned int out_size,
		    bool *frag)
{
	const struct ipv6hdr *ip6 = (const struct ipv6hdr *)in;
	struct iphdr *iph = (struct iphdr *)out;
	const struct frag_hdr *fh = NULL;
	unsigned int body, ulen, off;
	struct tern_l4id id;
	struct tern_pkt p;
	__be16 nport[2];
	u8 proto;

	if (in_len < sizeof(*ip6) || ip6->version != 6 ||
	    out_size < sizeof(*iph) ||
	    tern_ipv6_walk(NULL, in, in_len, false, &p))
		return -1;
	off = p.l3len;
	proto = p.proto;
	/*
	 * As for a packet: nothing of IPv4's; no header after a later
	 * fragment's Fragment header (where the walk ends) as a protocol.
	 */
	if (tern_proto_in(proto, TERN_PROTO_V4ONLY | TERN_PROTO_V6HDRS))
		return -1;
	if (p.frag6 >= 0)
		fh = (const struct frag_hdr *)(in + p.frag6);
	*frag = fh;
	if (sizeof(*ip6) + ntohs(ip6->payload_len) < off)
		return -1;
	ulen = sizeof(*ip6) + ntohs(ip6->payload_len) - off;
	if (ulen + sizeof(*iph) > IP_MAX_MTU)
		return -1;

	iph->version = 4;
	iph->ihl = 5;
	iph->tos = x->cfg->override_tos ? x->cfg->tos :
					  ipv6_get_dsfield(ip6);
	iph->tot_len = htons(ulen + sizeof(*iph));
	if (fh)
		tern_frag_fields_6to4(iph, fh);
	iph->ttl = ip6->hop_limit;
	iph->protocol = proto == IPPROTO_ICMPV6 ? IPPROTO_ICMP : proto;
	id.valid = false;
	if (!p.nonfirst)
		tern_l4id_parse(proto, in + off, in_len - off, &id);
	memcpy(nport, id.port, sizeof(nport));
	if (!x->mode->inner6(x, &ip6->saddr, &ip6->daddr, &iph->saddr,
			     &iph->daddr, &id, nport))
		return -1;
	/*
	 * RFC 7915 5.3: translated like a normal packet (5.1), so by its
	 * declared size: DF only above 1260 bytes, else an Identification.
	 */
	if (!fh && ulen + sizeof(*iph) > TERN_DF_THRESHOLD) {
		iph->id = 0;
		iph->frag_off = htons(IP_DF);
	} else if (!fh) {
		iph->id = tern_ipid_next(x->inst->net, iph->saddr, iph->daddr,
					 iph->protocol);
		iph->frag_off = 0;
	}
	ip_send_check(iph);

	body = min(in_len - off, out_size - (unsigned int)sizeof(*iph));
	memcpy(out + sizeof(*iph), in + off, body);
	tern_inner_ids(proto, out + sizeof(*iph), body, &id, nport);
	if (!(fh && (fh->frag_off & htons(IP6_OFFSET))) &&
	    tern_inner_l4(proto, out + sizeof(*iph), body,
			  tern_csum_diff(&ip6->saddr, 32, &iph->saddr, 8),
			  tern_csum_pseudo6(&ip6->saddr, &ip6->daddr, ulen,
					    IPPROTO_ICMPV6), false))
		return -1;
	return sizeof(*iph) + body;
}

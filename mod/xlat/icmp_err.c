// SPDX-License-Identifier: GPL-2.0
/*
 * ICMP errors (RFC 7915 4.2, 5.2). They are rare and change size (the
 * quoted packet is translated too), so they are rebuilt in a new buffer:
 * IP header, ICMP header, translated packet in error, then the RFC 4884
 * extension if it still fits the size limit of the new protocol.
 */

#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/addrconf.h>
#include <net/dsfield.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <net/route.h>
#include "core/addr.h"
#include "xlat/icmp.h"
#include "xlat/icmp_err.h"
#include "xlat/icmp_quote.h"
#include "xlat/inner.h"
#include "xlat/ipid.h"
#include "xlat/mode.h"
#include "xlat/packet.h"
#include "xlat/route.h"
#include "xlat/verdict.h"
#include "xlat/xlat.h"

/*
 * What both directions check first: the error whole in the linear part,
 * its ICMP header (8 bytes in both families) present, its checksum right
 * (a fresh one must never make a corrupt error valid).
 */
static int tern_err_check(struct sk_buff *skb, const struct tern_pkt *p)
{
	if (skb_linearize(skb))
		return TERN_STAT_DROP_NOMEM;
	if (skb->len < p->l3len + sizeof(struct icmphdr))
		return TERN_STAT_DROP_TRUNCATED;
	if (!tern_icmp_csum_ok(skb, p->l3len))
		return TERN_STAT_DROP_BAD_CSUM;
	return 0;
}

/* The error @out built for @skb takes its metadata; @skb is consumed. */
static void tern_err_finish(struct sk_buff *skb, struct sk_buff *out, bool v6)
{
	out->protocol = htons(v6 ? ETH_P_IPV6 : ETH_P_IP);
	out->mark = skb->mark;
	out->priority = skb->priority;
	out->dev = skb->dev;
	skb_set_transport_header(out, v6 ? sizeof(struct ipv6hdr) :
					   sizeof(struct iphdr));
	consume_skb(skb);
}

/* Sends the error @out built for @skb (consumed) along @dst. */
static unsigned int tern_err_send(struct tern_instance *inst,
				  struct sk_buff *skb, struct sk_buff *out,
				  struct dst_entry *dst, bool v6,
				  enum tern_stat counter)
{
	tern_err_finish(skb, out, v6);
	tern_output(inst->net, out, dst);
	return tern_stolen(inst, counter);
}

/*
 * A stateful mode decides about the quoted packet (@len bytes at @q) first
 * (->quote4/6): its session gives the error its IPv6 destination, the
 * quoted packet its addresses and identifiers.
 */
static int tern_err_quote4(struct tern_xlat *x, const u8 *q, unsigned int len)
{
	const struct iphdr *iph = (const struct iphdr *)q;
	struct tern_l4id id = { .valid = false };
	unsigned int ihl;

	if (!x->mode->quote4)
		return 0;
	if (len < sizeof(*iph) || iph->version != 4 || iph->ihl < 5 ||
	    iph->ihl * 4 > len)
		return TERN_STAT_DROP_ICMP_INNER;
	ihl = iph->ihl * 4;
	if (!(iph->frag_off & htons(IP_OFFSET)))
		tern_l4id_parse(iph->protocol, q + ihl, len - ihl, &id);
	return x->mode->quote4(x, iph->saddr, iph->daddr, iph->protocol, &id);
}

static int tern_err_quote6(struct tern_xlat *x, const u8 *q, unsigned int len)
{
	const struct ipv6hdr *ip6 = (const struct ipv6hdr *)q;
	struct tern_l4id id = { .valid = false };
	struct tern_pkt p;

	if (!x->mode->quote6)
		return 0;
	if (len < sizeof(*ip6) || ip6->version != 6 ||
	    tern_ipv6_walk(NULL, q, len, false, &p) || p.l3len > len)
		return TERN_STAT_DROP_ICMP_INNER;
	if (!p.nonfirst)
		tern_l4id_parse(p.proto, q + p.l3len, len - p.l3len, &id);
	return x->mode->quote6(x, &ip6->saddr, &ip6->daddr, p.proto, &id);
}

/*
 * The ICMPv4 error a router would send about IPv4 packet @skb (@type,
 * @code, @info as icmp_send() takes them), from the packet's destination
 * to its source, quoting as much of it as 576 bytes hold (RFC 1812
 * 4.3.2.3). Built for a hairpin's second pass to translate, never sent as
 * it is. NULL without memory.
 */
struct sk_buff *tern_icmp_err_about4(const struct sk_buff *skb, u8 type,
				     u8 code, __be32 info)
{
	const struct iphdr *iph = ip_hdr(skb);
	unsigned int off = skb_network_offset(skb);
	unsigned int qlen = min_t(unsigned int, skb->len - off,
				  TERN_ICMP4_ERR_MAX - sizeof(*iph) -
				  sizeof(struct icmphdr));
	struct sk_buff *out = tern_err_alloc(NULL, TERN_ICMP4_ERR_MAX);
	struct icmphdr *ih;
	struct iphdr *eh;

	if (!out)
		return NULL;
	skb_reset_network_header(out);
	eh = skb_put(out, sizeof(*eh));
	ih = skb_put(out, sizeof(*ih));
	if (skb_copy_bits(skb, off, skb_put(out, qlen), qlen)) {
		kfree_skb(out);
		return NULL;
	}
	memset(ih, 0, sizeof(*ih));
	ih->type = type;
	ih->code = code;
	ih->un.gateway = info;
	ih->checksum = ip_compute_csum(ih, sizeof(*ih) + qlen);

	memset(eh, 0, sizeof(*eh));
	eh->version = 4;
	eh->ihl = 5;
	eh->tot_len = htons(out->len);
	eh->ttl = IPDEFTTL;
	eh->protocol = IPPROTO_ICMP;
	eh->saddr = iph->daddr;
	eh->daddr = iph->saddr;
	ip_send_check(eh);

	out->protocol = htons(ETH_P_IP);
	out->mark = skb->mark;
	out->priority = skb->priority;
	out->dev = skb->dev;
	skb_set_transport_header(out, sizeof(*eh));
	return out;
}

/* ICMPv4 error -> ICMPv6 (RFC 7915 4.2, 4.3). */
unsigned int tern_icmp_err_4to6(struct tern_xlat *x, struct sk_buff *skb)
{
	struct tern_instance *inst = x->inst;
	const struct tern_config *cfg = x->cfg;
	const struct tern_pkt *p = &x->p;
	const struct in6_addr *daddr = &x->a6[1];
	struct in6_addr *saddr = &x->a6[0];
	struct dst_entry *dst;
	struct tern_err e;
	struct sk_buff *out;
	struct ipv6hdr *ip6;
	struct icmp6hdr *ih6;
	const struct iphdr *iph;
	const struct icmphdr *ih;
	unsigned int room, qlen, msglen, padded;
	u32 tot_len = 0, info = 0;
	int ptr, n, why;
	bool have_src;
	u8 type, code;

	why = tern_err_check(skb, p);
	if (why)
		return tern_drop(inst, why);
	iph = ip_hdr(skb);
	ih = (const struct icmphdr *)(skb->data + p->l3len);
	if (tern_icmp4_err_map(ih->type, ih->code, &type, &code, &ptr))
		return tern_drop(inst, TERN_STAT_DROP_ICMP_ERROR);
	if (ih->type == ICMP_PARAMETERPROB) {
		ptr = tern_icmp_ptr_4to6(((const u8 *)ih)[4]);
		if (ptr < 0)
			return tern_drop(inst, TERN_STAT_DROP_ICMP_ERROR);
	}
	/* Never an ICMP error about an ICMP error: just drop. */
	if (iph->ttl <= 1)
		return tern_drop(inst, TERN_STAT_DROP_TTL);
	/* DU, TE and PP carry an RFC 4884 length in byte 5 (32-bit words). */
	tern_err_split(&e, (const u8 *)(ih + 1), skb->len - p->l3len - sizeof(*ih),
		       ih->type == ICMP_DEST_UNREACH && ih->code == ICMP_FRAG_NEEDED ?
		       0 : ((const u8 *)ih)[5], 4);
	/* The session is looked up in what is translated: the quote. */
	why = tern_err_quote4(x, e.quote, e.quote_len);
	/* Not about a session: the host's own, if it is addressed to it. */
	if (why == TERN_STAT_PASS_LOCAL)
		return tern_pass(inst, why);
	if (why)
		return tern_drop(inst, why);
	/* Never to the host itself, a multicast group or nobody. */
	if (ipv6_addr_type(daddr) & (IPV6_ADDR_MULTICAST | IPV6_ADDR_LOOPBACK |
				     IPV6_ADDR_ANY))
		return tern_drop(inst, TERN_STAT_DROP_ERR_DEST);
	/*
	 * An illegal source (RFC 7915 4.1: 0.0.0.0, 127.0.0.1, ...) is
	 * translated for troubleshooting: pool6 says who reported it, but
	 * the Well-Known Prefix under strict-wkp, which never stands for a
	 * non-global address (RFC 6052 3.1); an address the mode refuses
	 * otherwise gets an RFC 6791 source.
	 */
	have_src = !tern_addr4_never_translated(iph->saddr) &&
		   !x->mode->source4(x, iph->saddr, iph->daddr);
	if (!have_src && cfg->pool6_set &&
	    tern_addr4_never_translated(iph->saddr) &&
	    !tern_cfg_wkp_strict(cfg)) {
		tern_rfc6052_4to6(&cfg->pool6, iph->saddr, saddr);
		have_src = true;
	}
	if (!have_src && cfg->rfc6791v6_set) {
		tern_rfc6791_v6(cfg, iph->saddr, saddr);
		have_src = true;
	}
	dst = tern_route6(inst->net, skb, have_src ? saddr : &in6addr_any,
			  daddr, IPPROTO_ICMPV6);
	if (!dst)
		return tern_drop(inst, TERN_STAT_DROP_NO_ROUTE);
	if (tern_dst_local(dst)) {
		dst_release(dst);
		return tern_drop(inst, TERN_STAT_DROP_ERR_DEST);
	}
	/* No RFC 6791 pool: the translator's own address toward @daddr. */
	if (!have_src &&
	    ipv6_dev_get_saddr(inst->net, dst->dev, daddr, 0, saddr)) {
		dst_release(dst);
		return tern_drop(inst, TERN_STAT_DROP_SRC_UNTRANSLATABLE);
	}

	if (!tern_err_quote_from4(&e, iph->daddr)) {
		dst_release(dst);
		return tern_drop(inst, TERN_STAT_DROP_ERR_DEST);
	}
	room = TERN_ICMP6_ERR_MAX - sizeof(*ip6) - sizeof(*ih6);
	out = tern_err_alloc(dst, TERN_ICMP6_ERR_MAX);
	if (!out) {
		dst_release(dst);
		return tern_drop(inst, TERN_STAT_DROP_NOMEM);
	}
	skb_reset_network_header(out);
	ip6 = skb_put(out, sizeof(*ip6));
	ih6 = skb_put(out, sizeof(*ih6));
	n = tern_inner_4to6(x, e.quote, e.quote_len, (u8 *)(ih6 + 1), room,
			    &tot_len);
	if (n < 0) {
		kfree_skb(out);
		dst_release(dst);
		return tern_drop(inst, TERN_STAT_DROP_ICMP_INNER);
	}
	qlen = n;
	/* Only Destination Unreachable and Time Exceeded have the length. */
	padded = type == ICMPV6_DEST_UNREACH || type == ICMPV6_TIME_EXCEED ?
		 tern_err_pad((u8 *)(ih6 + 1), qlen, 8, &e, room) : 0;
	msglen = sizeof(*ih6) + (padded ? padded + e.ext_len : qlen);
	skb_put(out, msglen - sizeof(*ih6));

	memset(ih6, 0, sizeof(*ih6));
	ih6->icmp6_type = type;
	ih6->icmp6_code = code;
	if (type == ICMPV6_PKT_TOOBIG) {
		info = tern_icmp_mtu_4to6(cfg->plateaus, cfg->n_plateaus,
					  ntohs(ih->un.frag.mtu), tot_len,
					  dst_mtu(dst), skb->dev->mtu);
		ih6->icmp6_mtu = htonl(info);
	} else if (type == ICMPV6_PARAMPROB) {
		ih6->icmp6_pointer = htonl(ptr);
	} else if (padded) {
		((u8 *)ih6)[4] = padded / 8;
	}
	ih6->icmp6_cksum = csum_ipv6_magic(saddr, daddr, msglen,
					   IPPROTO_ICMPV6,
					   csum_partial(ih6, msglen, 0));

	ip6_flow_hdr(ip6, cfg->zeroize_tc ? 0 : iph->tos, 0);
	ip6->payload_len = htons(msglen);
	ip6->nexthdr = IPPROTO_ICMPV6;
	ip6->hop_limit = iph->ttl - 1;
	ip6->saddr = *saddr;
	ip6->daddr = *daddr;
	return tern_err_send(inst, skb, out, dst, true,
			     TERN_STAT_XLAT_ICMP_ERR_46);
}

/* ICMPv6 error -> ICMPv4 (RFC 7915 5.2, 5.3). */
unsigned int tern_icmp_err_6to4(struct tern_xlat *x, struct sk_buff *skb)
{
	struct tern_instance *inst = x->inst;
	const struct tern_config *cfg = x->cfg;
	const struct tern_pkt *p = &x->p;
	__be32 daddr = x->a4[1];
	const struct ipv6hdr *ip6;
	const struct icmp6hdr *ih6;
	struct dst_entry *dst;
	struct tern_err e;
	struct sk_buff *out;
	struct iphdr *iph;
	struct icmphdr *ih;
	unsigned int room, qlen, msglen, padded;
	__be32 saddr = 0;
	int ptr = 0, n, why;
	bool have_src, hairpin, frag;
	u8 type, code, tos;

	why = tern_err_check(skb, p);
	if (why)
		return tern_drop(inst, why);
	ip6 = ipv6_hdr(skb);
	ih6 = (const struct icmp6hdr *)(skb->data + p->l3len);
	if (tern_icmp6_err_map(ih6->icmp6_type, ih6->icmp6_code, &type, &code))
		return tern_drop(inst, TERN_STAT_DROP_ICMP_ERROR);
	if (type == ICMP_PARAMETERPROB) {
		ptr = tern_icmp_ptr_6to4(ntohl(ih6->icmp6_pointer));
		if (ptr < 0)
			return tern_drop(inst, TERN_STAT_DROP_ICMP_ERROR);
	}
	if (ip6->hop_limit <= 1)
		return tern_drop(inst, TERN_STAT_DROP_TTL);
	/* DU and TE carry an RFC 4884 length in byte 4 (64-bit words). */
	tern_err_split(&e, (const u8 *)(ih6 + 1),
		       skb->len - p->l3len - sizeof(*ih6),
		       ih6->icmp6_type == ICMPV6_DEST_UNREACH ||
		       ih6->icmp6_type == ICMPV6_TIME_EXCEED ?
		       ((const u8 *)ih6)[4] : 0, 8);
	/* The session is looked up in what is translated: the quote. */
	why = tern_err_quote6(x, e.quote, e.quote_len);
	if (why)
		return tern_drop(inst, why);
	/*
	 * The destination is checked as for any packet (RFC 7915 5.1): a
	 * source the error cannot keep is replaced (RFC 6791), a destination
	 * never.
	 */
	if (!x->mode->error_dest_ok6(x))
		return tern_drop(inst, TERN_STAT_DROP_ERR_DEST);
	have_src = !x->mode->source6(x, &ip6->saddr);
	if (x->silent)
		return tern_drop(inst, TERN_STAT_DROP_SRC_UNTRANSLATABLE);
	if (have_src)
		saddr = x->a4[0];
	if (!have_src && cfg->rfc6791v4_set) {
		saddr = tern_rfc6791_v4(cfg, &ip6->saddr);
		have_src = true;
	}
	tos = cfg->override_tos ? cfg->tos : ipv6_get_dsfield(ip6);
	/* RFC 7757 4.2: errors hairpin like other packets (no route needed). */
	hairpin = x->mode->hairpins(x, &ip6->daddr);
	dst = tern_route4_src(inst->net, skb, have_src ? saddr : 0, daddr, tos,
			      IPPROTO_ICMP, &saddr);
	if (!dst && !(hairpin && have_src))
		return tern_drop(inst, TERN_STAT_DROP_NO_ROUTE);
	/* A hairpin goes back to IPv6 (NAT64: pool4 may be the host's). */
	if (dst && !hairpin && tern_dst_local(dst)) {
		dst_release(dst);
		return tern_drop(inst, TERN_STAT_DROP_ERR_DEST);
	}

	if (!tern_err_quote_from6(&e, &ip6->daddr)) {
		dst_release(dst);
		return tern_drop(inst, TERN_STAT_DROP_ERR_DEST);
	}
	room = TERN_ICMP4_ERR_MAX - sizeof(*iph) - sizeof(*ih);
	out = tern_err_alloc(dst, TERN_ICMP4_ERR_MAX);
	if (!out) {
		dst_release(dst);
		return tern_drop(inst, TERN_STAT_DROP_NOMEM);
	}
	skb_reset_network_header(out);
	iph = skb_put(out, sizeof(*iph));
	ih = skb_put(out, sizeof(*ih));
	n = tern_inner_6to4(x, e.quote, e.quote_len, (u8 *)(ih + 1), room,
			    &frag);
	if (n < 0) {
		kfree_skb(out);
		dst_release(dst);
		return tern_drop(inst, TERN_STAT_DROP_ICMP_INNER);
	}
	qlen = n;
	padded = type == ICMP_DEST_UNREACH || type == ICMP_TIME_EXCEEDED ?
		 tern_err_pad((u8 *)(ih + 1), qlen, 4, &e, room) : 0;
	msglen = sizeof(*ih) + (padded ? padded + e.ext_len : qlen);
	skb_put(out, msglen - sizeof(*ih));

	memset(ih, 0, sizeof(*ih));
	ih->type = type;
	ih->code = code;
	if (type == ICMP_DEST_UNREACH && code == ICMP_FRAG_NEEDED)
		ih->un.frag.mtu = htons(tern_icmp_mtu_6to4(ntohl(ih6->icmp6_mtu),
							   dst ? dst_mtu(dst) :
							   IP_MAX_MTU,
							   skb->dev->mtu, frag));
	else if (type == ICMP_PARAMETERPROB)
		((u8 *)ih)[4] = ptr;
	if (padded)
		((u8 *)ih)[5] = padded / 4;
	ih->checksum = ip_compute_csum(ih, msglen);

	iph->version = 4;
	iph->ihl = 5;
	iph->tos = tos;
	iph->tot_len = htons(sizeof(*iph) + msglen);
	iph->frag_off = 0;
	iph->ttl = ip6->hop_limit - 1;
	iph->protocol = IPPROTO_ICMP;
	iph->saddr = saddr;
	iph->daddr = daddr;
	/*
	 * RFC 7915 5.1.1: an atomic fragment (RFC 8021; a fragment never gets
	 * here) gives its Identification, as any packet does.
	 */
	if (p->frag6 >= 0)
		iph->id = htons(ntohl(((const struct frag_hdr *)
				       (skb->data + p->frag6))->identification));
	else
		iph->id = tern_ipid_next(inst->net, saddr, daddr, IPPROTO_ICMP);
	ip_send_check(iph);

	if (!hairpin)
		return tern_err_send(inst, skb, out, dst, false,
				     TERN_STAT_XLAT_ICMP_ERR_64);
	/* The driver translates it back to IPv6 (xlat/xlat.c). */
	tern_err_finish(skb, out, false);
	x->back_skb = out;
	x->back_dst = dst;
	x->back_error = true;
	return TERN_XLAT_HAIRPIN;
}

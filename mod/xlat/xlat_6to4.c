// SPDX-License-Identifier: GPL-2.0
/*
 * IPv6 -> IPv4 (RFC 7915 section 5), in place: the IPv6 header and its
 * extension headers are replaced by an IPv4 header in the same buffer,
 * and the transport checksum is updated incrementally.
 */

#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/addrconf.h>
#include <net/dsfield.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/netfilter/nf_conntrack.h>
#include "core/compat.h"
#include "xlat/csum.h"
#include "xlat/frag.h"
#include "xlat/hdr.h"
#include "xlat/gso.h"
#include "xlat/icmp.h"
#include "xlat/icmp_err.h"
#include "xlat/ipid.h"
#include "xlat/mode.h"
#include "xlat/packet.h"
#include "xlat/route.h"
#include "xlat/verdict.h"
#include "xlat/xlat.h"

/*
 * A header chain Tern does not translate (an extension header after the
 * Fragment header, two Fragment headers, too many headers): a policy
 * drop, answered like the others (RFC 7915 5.1.1, 5.4), unless the packet
 * is an ICMPv6 message.
 */
static bool tern_6to4_chain_refused(const struct sk_buff *skb, int why)
{
	u8 nexthdr = ipv6_hdr(skb)->nexthdr;
	__be16 frag_off;

	if (why != TERN_STAT_DROP_FRAGMENT && why != TERN_STAT_DROP_EXTHDR)
		return false;
	return ipv6_skip_exthdr(skb, sizeof(struct ipv6hdr), &nexthdr,
				&frag_off) < 0 || nexthdr != IPPROTO_ICMPV6;
}

static void tern_gso_6to4(struct sk_buff *skb)
{
	struct skb_shared_info *si = skb_shinfo(skb);

	if (si->gso_type & SKB_GSO_TCPV6) {
		si->gso_type &= ~SKB_GSO_TCPV6;
		si->gso_type |= SKB_GSO_TCPV4;
	}
}

/* The transport checksum, for the new pseudo-header. */
static void tern_6to4_csum(struct sk_buff *skb, const struct tern_pkt *p,
			   const struct ipv6hdr *ip6, const __be32 *addrs,
			   u8 type4)
{
	void *l4 = skb->data + p->l3len;

	if (p->nonfirst)
		return;
	if (p->proto == IPPROTO_ICMPV6) {
		struct icmp6hdr *ih = l4;

		tern_csum_icmp(&ih->icmp6_cksum, (u8 *)ih, type4,
			       tern_csum_pseudo6(&ip6->saddr, &ip6->daddr,
						 skb->len - p->l3len,
						 IPPROTO_ICMPV6), false);
	} else {
		tern_csum_l4_pseudo(skb, p->proto, l4,
				    tern_csum_diff(&ip6->saddr, 32, addrs, 8));
	}
}

/* Transport bytes of a full segment of super-packet @skb. */
static unsigned int tern_gso_l4seg(const struct sk_buff *skb)
{
	const struct skb_shared_info *si = skb_shinfo(skb);

	if (si->gso_type & SKB_GSO_UDP_L4)
		return sizeof(struct udphdr) + si->gso_size;
	return tcp_hdrlen(skb) + si->gso_size;
}

/* How many packets @skb stands for (a GSO one: at least its segments). */
static u16 tern_gso_segs(const struct sk_buff *skb)
{
	const struct skb_shared_info *si = skb_shinfo(skb);

	if (!skb_is_gso(skb))
		return 1;
	if (si->gso_segs)
		return si->gso_segs;
	return min_t(unsigned int, DIV_ROUND_UP(skb->len, si->gso_size),
		     U16_MAX);
}

/*
 * Identification and flags (RFC 7915 5.1, 5.1.1): from the Fragment
 * header if there is one (DF clear); otherwise DF on packets that may not
 * fit an IPv6 path, and a per-flow Identification on the others (one for
 * each segment of a super-packet: segmentation counts up from it).
 */
static void tern_6to4_frag_fields(const struct net *net, struct sk_buff *skb,
				  const struct tern_pkt *p, struct iphdr *iph,
				  const struct frag_hdr *fh, bool df)
{
	if (p->frag6 >= 0) {
		tern_frag_fields_6to4(iph, fh);
	} else if (df) {
		iph->id = 0;
		iph->frag_off = htons(IP_DF);
	} else {
		iph->id = tern_ipid_reserve(net, iph->saddr, iph->daddr,
					    iph->protocol, tern_gso_segs(skb));
		iph->frag_off = 0;
	}
}

unsigned int tern_6to4_translate(struct tern_xlat *x, struct sk_buff *skb)
{
	struct tern_instance *inst = x->inst;
	const struct tern_config *cfg = x->cfg;
	struct tern_pkt *p = &x->p;
	__be32 *addrs = x->a4;	/* saddr, daddr */
	struct frag_hdr fh = { 0 };
	struct dst_entry *dst;
	struct ipv6hdr ip6;
	struct iphdr *iph;
	unsigned int tot_len, len4, mtu;
	u8 proto, tos, type4 = 0;
	enum tern_gso_action later;
	int why;
	bool df, hairpin, reasm, lent;
	u16 fms = 0;

	ip6 = *ipv6_hdr(skb);
	/* Is the destination the mode's? Then not one of this host's. */
	why = tern_mode_call(x, dest6, &ip6.daddr);
	if (why)
		return tern_pass(inst, why);
	if (tern_addr6_is_host(inst, &ip6.daddr))
		return tern_pass(inst, TERN_STAT_PASS_LOCAL);

	why = tern_parse6(skb, p);
	if (why) {
		if (why == TERN_STAT_DROP_ROUTING_HDR)
			tern_icmp6_error(skb, ICMPV6_PARAMPROB, ICMPV6_HDR_FIELD,
					 p->rthdr_segleft_pos);
		else if (tern_6to4_chain_refused(skb, why))
			return tern_refuse6(inst, cfg, skb, why);
		return tern_drop(inst, why);
	}
	why = tern_gso_check(skb, p, true, &later);
	if (why)
		return tern_drop(inst, why);
	proto = p->proto;
	if (proto == IPPROTO_ICMPV6 && !p->nonfirst) {
		enum tern_icmp_kind k;

		k = tern_icmp6_classify(skb->data[p->l3len], &type4);
		if (k == TERN_ICMP_ERROR && !p->fragment)
			return tern_icmp_err_6to4(x, skb);
		why = tern_icmp_drop_reason(k);
		if (why)
			return tern_drop(inst, why);
		/* Never make a corrupt message valid (nor answer it). */
		if (!p->fragment && !tern_icmp_csum_ok(skb, p->l3len))
			return tern_drop(inst, TERN_STAT_DROP_BAD_CSUM);
	}
	if (proto == IPPROTO_ICMPV6) {
		if (p->fragment)
			return tern_drop(inst, TERN_STAT_DROP_ICMP_FRAGMENT);
		proto = IPPROTO_ICMP;
	}
	/* Validity first: what will not be translated creates no state. */
	if (p->frag6 >= 0 && skb_copy_bits(skb, p->frag6, &fh, sizeof(fh)))
		return tern_drop(inst, TERN_STAT_DROP_TRUNCATED);
	/* A fragment ending past the largest IPv4 datagram cannot be. */
	if (p->fragment &&
	    !tern_frag_end_ok(ntohs(fh.frag_off) & IP6_OFFSET,
			      skb->len - p->l3len,
			      IP_MAX_MTU - sizeof(struct iphdr)))
		return tern_drop(inst, TERN_STAT_DROP_FRAGMENT);
	if (ip6.hop_limit <= 1) {
		tern_icmp6_error(skb, ICMPV6_TIME_EXCEED, ICMPV6_EXC_HOPLIMIT, 0);
		return tern_drop(inst, TERN_STAT_DROP_TTL);
	}
	tot_len = skb->len - p->l3len + sizeof(struct iphdr);
	if (later != TERN_GSO_SEGMENT && tot_len > IP_MAX_MTU)
		return tern_drop(inst, TERN_STAT_DROP_TOO_BIG);
	tern_l4id_read(skb, p, &x->id);
	x->mark = skb->mark;
	why = tern_mode_call(x, source6, &ip6.saddr);
	if (why && x->err && p->proto != IPPROTO_ICMPV6)
		tern_icmp6_error(skb, x->err_type, x->err_code, 0);
	if (why)
		return p->proto == IPPROTO_ICMPV6 || x->err || x->silent ?
		       tern_drop(inst, why) :
		       tern_refuse6(inst, cfg, skb, why);
	if (later == TERN_GSO_SEGMENT)
		return TERN_XLAT_SEGMENT;
	why = later == TERN_GSO_WHOLE ? tern_gso_whole(skb, p, true) : 0;
	if (why) {
		tern_unwind(x);
		return tern_drop(inst, why);
	}

	tos = cfg->override_tos ? cfg->tos : ipv6_get_dsfield(&ip6);

	/* A hairpin goes back to IPv6: an IPv4 route is optional. */
	hairpin = tern_mode_call(x, hairpins, &ip6.daddr);
	dst = tern_route4_fast(inst, skb, addrs[0], addrs[1], tos, proto,
			       &lent);
	if (!dst && !hairpin) {
		tern_unwind(x);
		tern_icmp6_error(skb, ICMPV6_DEST_UNREACH, ICMPV6_NOROUTE, 0);
		return tern_drop(inst, TERN_STAT_DROP_NO_ROUTE);
	}
	if (dst && !hairpin && tern_dst_local(dst)) {
		tern_route_put(dst, lent);
		tern_unwind(x);
		return tern_drop(inst, TERN_STAT_DROP_TO_SELF);
	}

	/*
	 * RFC 7915 5.1: DF only on packets that may not fit an IPv6 path;
	 * those of a super-packet are its segments.
	 */
	skb_set_transport_header(skb, p->l3len);
	len4 = skb_is_gso(skb) ? sizeof(struct iphdr) + tern_gso_l4seg(skb) :
				 tot_len;
	/*
	 * A datagram reassembled by nf_conntrack (IP6SKB_FRAGMENTED) was sent
	 * as fragments: it goes out as fragments too (DF clear), no bigger
	 * than its biggest one translated. Its Fragment header, and with it
	 * the Identification, is gone: it gets one of the generator's.
	 */
	reasm = p->frag6 < 0 && (IP6CB(skb)->flags & IP6SKB_FRAGMENTED) &&
		IP6CB(skb)->frag_max_size;
	df = p->frag6 < 0 && !reasm && len4 > TERN_DF_THRESHOLD;
	if (reasm)
		fms = clamp_t(int, IP6CB(skb)->frag_max_size - (int)p->l3len -
			      (int)sizeof(struct frag_hdr) +
			      (int)sizeof(struct iphdr), 68, IP_MAX_MTU);
	/* Only DF packets are held to it. */
	mtu = !df || hairpin ? IP_MAX_MTU : dst_mtu(dst);
	if (df && tot_len > mtu &&
	    !(skb_is_gso(skb) &&
	      skb_gso_validate_network_len(skb, mtu + p->l3len -
					   sizeof(struct iphdr)))) {
		tern_route_put(dst, lent);
		tern_unwind(x);
		tern_icmp6_error(skb, ICMPV6_PKT_TOOBIG, 0,
				 max_t(u32, mtu + 20, IPV6_MIN_MTU));
		return tern_drop(inst, TERN_STAT_DROP_TOO_BIG);
	}

	/* From here on the packet is modified: no way back to NF_ACCEPT. */
	/*
	 * The shared info (gso_type, written below) is shared by clones:
	 * a GSO packet that is a clone gets its own first.
	 */
	if ((skb_is_gso(skb) && skb_unclone(skb, GFP_ATOMIC)) ||
	    tern_skb_writable(skb, p->l3len + p->l4len)) {
		tern_route_put(dst, lent);
		tern_unwind(x);
		return tern_drop(inst, TERN_STAT_DROP_NOMEM);
	}
	skb_forward_csum(skb);
	if (x->nat)
		tern_l4id_write(skb, p, &x->id, x->nport);
	tern_6to4_csum(skb, p, &ip6, addrs, type4);

	__skb_pull(skb, p->l3len - sizeof(*iph));
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, sizeof(*iph));
	iph = ip_hdr(skb);
	iph->version = 4;
	iph->ihl = 5;
	iph->tos = tos;
	iph->tot_len = htons(tot_len);
	iph->ttl = ip6.hop_limit - 1;
	iph->protocol = proto;
	iph->saddr = addrs[0];
	iph->daddr = addrs[1];
	tern_6to4_frag_fields(inst->net, skb, p, iph, &fh, df);
	tern_ip_send_check(iph);

	skb->protocol = htons(ETH_P_IP);
	if (skb_is_gso(skb))
		tern_gso_6to4(skb);
	memset(IPCB(skb), 0, sizeof(*IPCB(skb)));
	/* ip_do_fragment() cuts at min(MTU, frag_max_size). */
	IPCB(skb)->frag_max_size = fms;
	nf_reset_ct(skb);
	skb_clear_tstamp(skb);
	if (hairpin) {
		/* The driver translates it back to IPv6 (xlat/xlat.c). */
		x->back_skb = skb;
		x->back_dst = tern_route_hold(dst, lent);
		x->back_error = false;
		return TERN_XLAT_HAIRPIN;
	}
	tern_output_fast(inst->net, skb, dst, lent);
	return tern_stolen(inst, TERN_STAT_XLAT_64);
}

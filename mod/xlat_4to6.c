// SPDX-License-Identifier: GPL-2.0
/*
 * IPv4 -> IPv6 (RFC 7915 section 4), in place: the IPv4 header is replaced
 * by an IPv6 header in the same buffer (headroom grown when needed), and
 * the transport checksum is updated incrementally.
 */

#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <net/netfilter/nf_conntrack.h>
#include "compat.h"
#include "csum.h"
#include "icmp.h"
#include "mapping.h"
#include "packet.h"
#include "route.h"
#include "xlat.h"

struct tern_addrs6 {
	struct in6_addr saddr;
	struct in6_addr daddr;
};

/* Checks and address mapping; returns 0 to translate or sets a verdict. */
static int tern_4to6_addrs(struct tern_instance *inst,
			   const struct tern_config *cfg,
			   const struct iphdr *iph, struct tern_addrs6 *a6,
			   unsigned int *verdict)
{
	int svia, dvia;

	if (tern_addr4_never_translated(iph->daddr) ||
	    tern_addr4_never_translated(iph->saddr)) {
		*verdict = tern_pass(inst, TERN_STAT_PASS_SPECIAL4);
		return -1;
	}
	dvia = tern_map_4to6(inst, cfg, iph->daddr, &a6->daddr);
	if (dvia == TERN_VIA_NONE) {
		*verdict = tern_pass(inst, TERN_STAT_PASS_NO_MAPPING);
		return -1;
	}
	if (__ip_dev_find(inst->net, iph->daddr, false)) {
		*verdict = tern_pass(inst, TERN_STAT_PASS_LOCAL);
		return -1;
	}
	svia = tern_map_4to6(inst, cfg, iph->saddr, &a6->saddr);
	if (svia == TERN_VIA_NONE) {
		*verdict = tern_drop(inst, TERN_STAT_DROP_SRC_UNTRANSLATABLE);
		return -1;
	}
	if (cfg->strict_wkp && tern_prefix6_is_wkp(&cfg->pool6) &&
	    ((svia == TERN_VIA_POOL6 && tern_addr4_is_nonglobal(iph->saddr)) ||
	     (dvia == TERN_VIA_POOL6 && tern_addr4_is_nonglobal(iph->daddr)))) {
		*verdict = tern_drop(inst, TERN_STAT_DROP_WKP_NONGLOBAL);
		return -1;
	}
	return 0;
}

static void tern_gso_4to6(struct sk_buff *skb)
{
	struct skb_shared_info *si = skb_shinfo(skb);

	if (si->gso_type & SKB_GSO_TCPV4) {
		si->gso_type &= ~(SKB_GSO_TCPV4 | SKB_GSO_TCP_FIXEDID);
		si->gso_type |= SKB_GSO_TCPV6;
	}
}

unsigned int tern_xlat_4to6(struct tern_instance *inst, struct sk_buff *skb)
{
	const struct tern_config *cfg = tern_instance_config(inst);
	struct tern_addrs6 a6;
	struct dst_entry *dst;
	struct ipv6hdr *ip6h;
	struct iphdr ip4;
	struct tern_pkt p;
	unsigned int payload_len, mtu, verdict;
	u8 proto, type6 = 0;
	int hdiff, why;
	bool df, amend = false;
	void *l4;

	if (!cfg->enabled)
		return tern_pass(inst, TERN_STAT_PASS_DISABLED);
	if (skb->pkt_type != PACKET_HOST)
		return tern_pass(inst, TERN_STAT_PASS_OTHERHOST);
	ip4 = *ip_hdr(skb);
	if (tern_4to6_addrs(inst, cfg, &ip4, &a6, &verdict))
		return verdict;

	why = tern_parse4(skb, &p);
	if (why)
		return tern_drop(inst, why);
	if (ip_is_fragment(&ip4))
		return tern_drop(inst, TERN_STAT_DROP_FRAGMENT);
	if (ip4.ttl <= 1) {
		tern_icmp4_error(skb, ICMP_TIME_EXCEEDED, ICMP_EXC_TTL, 0);
		return tern_drop(inst, TERN_STAT_DROP_TTL);
	}
	if (p.l3len > sizeof(ip4) && tern_ipv4_has_srcroute(skb)) {
		tern_icmp4_error(skb, ICMP_DEST_UNREACH, ICMP_SR_FAILED, 0);
		return tern_drop(inst, TERN_STAT_DROP_SRCROUTE);
	}

	proto = p.proto;
	l4 = skb->data + p.l3len;
	/*
	 * RFC 7915 4.5: IPv6 needs a UDP checksum. Computing it means reading
	 * the whole payload, so it is done only when asked (fragments, whose
	 * payload is incomplete, never reach here).
	 */
	if (proto == IPPROTO_UDP && !((struct udphdr *)l4)->check &&
	    skb->ip_summed != CHECKSUM_PARTIAL) {
		if (!cfg->amend_udp_csum0)
			return tern_drop(inst, TERN_STAT_DROP_UDP_CSUM0);
		amend = true;
	}
	if (proto == IPPROTO_ICMP) {
		why = tern_icmp_drop_reason(tern_icmp4_classify(*(u8 *)l4, &type6));
		if (why)
			return tern_drop(inst, why);
		proto = IPPROTO_ICMPV6;
	}
	if (skb_is_gso(skb) && (skb_shinfo(skb)->gso_type & ~TERN_GSO_OK))
		return tern_drop(inst, TERN_STAT_DROP_OUTPUT);

	payload_len = skb->len - p.l3len;

	dst = tern_route6(inst->net, skb, &a6.saddr, &a6.daddr, proto);
	if (!dst) {
		tern_icmp4_error(skb, ICMP_DEST_UNREACH, ICMP_HOST_UNREACH, 0);
		return tern_drop(inst, TERN_STAT_DROP_NO_ROUTE);
	}

	df = ip4.frag_off & htons(IP_DF);
	mtu = dst_mtu(dst);
	skb_set_transport_header(skb, p.l3len);
	if (df && payload_len + sizeof(*ip6h) > mtu &&
	    !(skb_is_gso(skb) &&
	      skb_gso_validate_network_len(skb, mtu + p.l3len - sizeof(*ip6h)))) {
		dst_release(dst);
		tern_icmp4_error(skb, ICMP_DEST_UNREACH, ICMP_FRAG_NEEDED,
				 htonl(mtu - 20));
		return tern_drop(inst, TERN_STAT_DROP_TOO_BIG);
	}

	/* From here on the packet is modified: no way back to NF_ACCEPT. */
	hdiff = (int)sizeof(*ip6h) - (int)p.l3len;
	if (skb_ensure_writable(skb, p.l3len + p.l4len) ||
	    (hdiff > 0 && skb_cow_head(skb, hdiff)) ||
	    (proto == IPPROTO_ICMPV6 && skb->ip_summed == CHECKSUM_PARTIAL &&
	     skb_checksum_help(skb))) {
		dst_release(dst);
		return tern_drop(inst, TERN_STAT_DROP_NOMEM);
	}
	skb_forward_csum(skb);

	l4 = skb->data + p.l3len;
	if (proto == IPPROTO_ICMPV6) {
		struct icmphdr *ih = l4;

		tern_csum_icmp(&ih->checksum, (u8 *)ih, type6,
			       tern_csum_pseudo6(&a6.saddr, &a6.daddr,
						 payload_len, IPPROTO_ICMPV6),
			       true);
	} else if (amend) {
		struct udphdr *uh = l4;

		uh->check = csum_ipv6_magic(&a6.saddr, &a6.daddr, payload_len,
					    IPPROTO_UDP,
					    skb_checksum(skb, p.l3len, payload_len, 0));
		if (!uh->check)
			uh->check = CSUM_MANGLED_0;
	} else {
		tern_csum_l4_pseudo(skb, proto, l4,
				    tern_csum_diff(&ip4.saddr, 8, &a6, 32));
	}

	if (hdiff >= 0)
		skb_push(skb, hdiff);
	else
		skb_pull(skb, -hdiff);
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, sizeof(*ip6h));
	ip6h = ipv6_hdr(skb);
	ip6_flow_hdr(ip6h, cfg->zeroize_tc ? 0 : ip4.tos, 0);
	ip6h->payload_len = htons(payload_len);
	ip6h->nexthdr = proto;
	ip6h->hop_limit = ip4.ttl - 1;
	ip6h->saddr = a6.saddr;
	ip6h->daddr = a6.daddr;

	skb->protocol = htons(ETH_P_IPV6);
	if (skb_is_gso(skb))
		tern_gso_4to6(skb);
	memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));
	if (!df && payload_len + sizeof(*ip6h) > TERN_LOWEST_IPV6_MTU) {
		/* RFC 7915 4.1: fragment to fit the lowest IPv6 MTU. */
		skb->ignore_df = 1;
		IP6CB(skb)->frag_max_size = TERN_LOWEST_IPV6_MTU;
	}
	nf_reset_ct(skb);
	skb_clear_tstamp(skb);
	tern_output(inst->net, skb, dst);
	return tern_stolen(inst, TERN_STAT_XLAT_46);
}

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
#include "core/compat.h"
#include "xlat/csum.h"
#include "xlat/frag.h"
#include "xlat/hdr.h"
#include "xlat/gso.h"
#include "xlat/icmp.h"
#include "xlat/icmp_err.h"
#include "xlat/mode.h"
#include "core/addr.h"
#include "xlat/packet.h"
#include "xlat/route.h"
#include "xlat/verdict.h"
#include "xlat/xlat.h"

/* An unfragmented ICMPv4 error (its type byte read, not pulled). */
static bool tern_is_icmp4_error(const struct sk_buff *skb,
				const struct iphdr *iph)
{
	u8 buf, type6;
	const u8 *type;

	if (iph->protocol != IPPROTO_ICMP || ip_is_fragment(iph))
		return false;
	type = skb_header_pointer(skb, iph->ihl * 4, 1, &buf);
	return type && tern_icmp4_classify(*type, &type6) == TERN_ICMP_ERROR;
}

/*
 * Destination checks, and the mode's decision on it; returns 0 to go on
 * or the counter of the reason to let the packet pass.
 */
static int tern_4to6_daddr(struct tern_xlat *x, const struct sk_buff *skb,
			   const struct iphdr *iph)
{
	int why;

	/*
	 * RFC 7915 4.1: an illegal source is dropped, but for an ICMPv4 error,
	 * translated for troubleshooting (with an RFC 6791 source).
	 */
	if (tern_addr4_never_translated(iph->daddr) ||
	    (tern_addr4_never_translated(iph->saddr) &&
	     !tern_is_icmp4_error(skb, iph)))
		return TERN_STAT_PASS_SPECIAL4;
	why = tern_mode_call(x, dest4, iph->daddr);
	if (why)
		return why;
	/*
	 * The host's own addresses and the broadcast addresses of its subnets
	 * are the host's business: as destinations, delivered or broadcast
	 * by it; as sources, martians it drops (RFC 1812 5.3.7), an ICMP
	 * error included (the host's own errors never pass this hook), but
	 * in a hairpin's second pass (NAT64: the source is pool4's).
	 */
	switch (tern_addr4_type(x->inst, iph->daddr)) {
	case RTN_LOCAL:
		if (!x->mode->local4)
			return TERN_STAT_PASS_LOCAL;
		x->dlocal = true;
		break;
	case RTN_BROADCAST:
		return TERN_STAT_PASS_SPECIAL4;
	}
	if (!x->second_pass && !tern_addr4_never_translated(iph->saddr) &&
	    tern_addr4_is_host(x->inst, iph->saddr))
		return TERN_STAT_PASS_SPECIAL4;
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

/*
 * An ICMPv4 error about @skb. The second pass of a hairpin does not send
 * it (its destination is the translator's own address): it notes it for
 * the driver, which translates it to the IPv6 sender (xlat/xlat.c).
 */
static void tern_4to6_error(struct tern_xlat *x, struct sk_buff *skb,
			    int type, int code, __be32 info)
{
	if (!x->second_pass) {
		tern_icmp4_error(skb, type, code, info);
		return;
	}
	x->back_err = true;
	x->back_err_type = type;
	x->back_err_code = code;
	x->back_err_info = info;
}

/*
 * A drop by the translator's policy (an address it may not translate, a
 * UDP datagram without checksum). With icmp-on-drop the sender learns
 * why: Communication Administratively Prohibited (RFC 7915 4.4). Never
 * an ICMPv4 error: those are not answered.
 */
static unsigned int tern_4to6_refuse(struct tern_xlat *x,
				     struct sk_buff *skb, int why)
{
	if (x->cfg->icmp_on_drop)
		tern_4to6_error(x, skb, ICMP_DEST_UNREACH, ICMP_PKT_FILTERED,
				0);
	return tern_drop(x->inst, why);
}

/* Checks of the transport header; returns 0 or the reason for a drop. */
static int tern_4to6_l4_check(const struct tern_xlat *x, struct sk_buff *skb,
			      const struct tern_pkt *p, u8 *type6, bool *amend)
{
	const void *l4 = skb->data + p->l3len;
	unsigned int ulen;

	*amend = false;
	if (p->proto == IPPROTO_ICMP) {
		int why;

		if (p->fragment)
			return TERN_STAT_DROP_ICMP_FRAGMENT;
		why = tern_icmp_drop_reason(tern_icmp4_classify(*(u8 *)l4,
								type6));
		if (why)
			return why;
		/* Never make a corrupt message valid (nor answer it). */
		if (!tern_icmp_csum_ok(skb, p->l3len))
			return TERN_STAT_DROP_BAD_CSUM;
		return 0;
	}
	/*
	 * RFC 7915 4.5: IPv6 needs a UDP checksum. Computing it means reading
	 * the whole datagram: only for unfragmented ones, and only when asked.
	 */
	if (p->proto == IPPROTO_UDP && !p->nonfirst &&
	    !((struct udphdr *)l4)->check &&
	    skb->ip_summed != CHECKSUM_PARTIAL) {
		/* A hairpin's came from IPv6 so: it goes on as it came. */
		if (x->second_pass)
			return 0;
		if (!x->cfg->amend_udp_csum0 || p->fragment)
			return TERN_STAT_DROP_UDP_CSUM0;
		/* What is summed: the datagram its length says. */
		ulen = ntohs(((struct udphdr *)l4)->len);
		if (ulen < sizeof(struct udphdr) || ulen > skb->len - p->l3len)
			return TERN_STAT_DROP_TRUNCATED;
		*amend = true;
	}
	return 0;
}

/* A packet tern_4to6_l4_check() refused (a missing UDP checksum: policy). */
static unsigned int tern_4to6_l4_refused(struct tern_xlat *x,
					 struct sk_buff *skb, int why)
{
	if (why == TERN_STAT_DROP_UDP_CSUM0)
		return tern_4to6_refuse(x, skb, why);
	return tern_drop(x->inst, why);
}

/* The transport checksum, for the new pseudo-header. */
static void tern_4to6_csum(struct sk_buff *skb, const struct tern_pkt *p,
			   const struct iphdr *ip4, const struct in6_addr *a6,
			   u8 type6, bool amend)
{
	unsigned int len = skb->len - p->l3len;
	void *l4 = skb->data + p->l3len;

	if (p->nonfirst)
		return;
	if (p->proto == IPPROTO_ICMP) {
		struct icmphdr *ih = l4;

		tern_csum_icmp(&ih->checksum, (u8 *)ih, type6,
			       tern_csum_pseudo6(&a6[0], &a6[1], len,
						 IPPROTO_ICMPV6), true);
	} else if (amend) {
		struct udphdr *uh = l4;
		unsigned int ulen = ntohs(uh->len);

		/* Bytes after the datagram (in its IPv4 payload) are not. */
		uh->check = csum_ipv6_magic(&a6[0], &a6[1], ulen, IPPROTO_UDP,
					    skb_checksum(skb, p->l3len, ulen,
							 0));
		if (!uh->check)
			uh->check = CSUM_MANGLED_0;
	} else {
		tern_csum_l4_pseudo(skb, p->proto, l4,
				    tern_csum_diff(&ip4->saddr, 8, a6, 32));
	}
}

/* Writes the IPv6 header (and Fragment header) over the IPv4 one. */
static void tern_4to6_header(struct sk_buff *skb, const struct tern_config *cfg,
			     const struct iphdr *ip4, const struct tern_pkt *p,
			     const struct in6_addr *a6, u8 proto)
{
	unsigned int hlen = sizeof(struct ipv6hdr) +
			    (p->fragment ? sizeof(struct frag_hdr) : 0);
	int hdiff = (int)hlen - (int)p->l3len;
	struct ipv6hdr *ip6h;

	if (hdiff >= 0)
		__skb_push(skb, hdiff);
	else
		__skb_pull(skb, -hdiff);
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, hlen);
	ip6h = ipv6_hdr(skb);
	ip6_flow_hdr(ip6h, cfg->zeroize_tc ? 0 : ip4->tos, 0);
	ip6h->payload_len = htons(skb->len - sizeof(*ip6h));
	ip6h->nexthdr = proto;
	ip6h->hop_limit = ip4->ttl - 1;
	ip6h->saddr = a6[0];
	ip6h->daddr = a6[1];
	if (p->fragment) {
		ip6h->nexthdr = NEXTHDR_FRAGMENT;
		tern_frag_hdr_4to6((struct frag_hdr *)(ip6h + 1), ip4, proto);
	}
}

unsigned int tern_4to6_translate(struct tern_xlat *x, struct sk_buff *skb)
{
	struct tern_instance *inst = x->inst;
	const struct tern_config *cfg = x->cfg;
	struct tern_pkt *p = &x->p;
	struct in6_addr *a6 = x->a6;	/* saddr, daddr */
	struct dst_entry *dst;
	struct iphdr ip4;
	unsigned int len6, mtu, limit;
	u8 proto, type6 = 0;
	enum tern_gso_action later;
	int hdiff, why;
	unsigned int fraglen6;
	bool df, amend, gso_frag, fixedid, reasm, lent;

	ip4 = *ip_hdr(skb);
	why = tern_4to6_daddr(x, skb, &ip4);
	if (why)
		return tern_pass(inst, why);

	why = tern_parse4(skb, p);
	if (why)
		return tern_drop(inst, why);
	why = tern_gso_check(skb, p, false, &later);
	if (why)
		return tern_drop(inst, why);
	if (p->proto == IPPROTO_ICMP && !p->fragment &&
	    tern_icmp4_classify(skb->data[p->l3len], &type6) == TERN_ICMP_ERROR) {
		/*
		 * RFC 7915 4.1: an unexpired source route is dropped; no error
		 * is sent about an error.
		 */
		if (p->l3len > sizeof(ip4) && tern_ipv4_has_srcroute(skb))
			return tern_drop(inst, TERN_STAT_DROP_SRCROUTE);
		return tern_icmp_err_4to6(x, skb);
	}
	/*
	 * A destination of this host: the mode says whether the packet is
	 * its own (NAT64: a pool4 transport address), from what it is, before
	 * any check; the host gets the others as they came.
	 */
	tern_l4id_read(skb, p, &x->id);
	if (x->dlocal && !x->mode->local4(x, ip4.daddr))
		return tern_pass(inst, TERN_STAT_PASS_LOCAL);
	/* RFC 7915 4.2: IGMP is single-hop; silently dropped. */
	if (p->proto == IPPROTO_IGMP)
		return tern_drop(inst, TERN_STAT_DROP_IGMP);
	if (unlikely(tern_proto_in(p->proto, TERN_PROTO_V6ONLY)))
		return tern_drop(inst, TERN_STAT_DROP_OTHER_FAMILY);
	/*
	 * Validity first: what will not be translated creates no state, and
	 * is answered by the first rule it breaks in the order a router
	 * applies them (an untranslatable source route before the TTL).
	 */
	why = tern_4to6_l4_check(x, skb, p, &type6, &amend);
	if (why)
		return tern_4to6_l4_refused(x, skb, why);
	/* A fragment ending past the largest IPv6 datagram cannot be. */
	if (p->fragment &&
	    !tern_frag_end_ok((ntohs(ip4.frag_off) & IP_OFFSET) << 3,
			      skb->len - p->l3len, IPV6_MAXPLEN))
		return tern_drop(inst, TERN_STAT_DROP_FRAGMENT);
	if (p->l3len > sizeof(ip4) && tern_ipv4_has_srcroute(skb)) {
		tern_4to6_error(x, skb, ICMP_DEST_UNREACH, ICMP_SR_FAILED, 0);
		return tern_drop(inst, TERN_STAT_DROP_SRCROUTE);
	}
	if (ip4.ttl <= 1) {
		tern_4to6_error(x, skb, ICMP_TIME_EXCEEDED, ICMP_EXC_TTL, 0);
		return tern_drop(inst, TERN_STAT_DROP_TTL);
	}
	x->mark = skb->mark;
	why = tern_mode_call(x, source4, ip4.saddr, ip4.daddr);
	if (why == TERN_STAT_SYN_STORED) {
		why = x->mode->keep4(x, skb);
		if (why == TERN_STAT_SYN_STORED)
			return tern_stolen(inst, why);
		return tern_drop(inst, why);
	}
	/* ICMP errors do not come here: an ICMP query is answered too. */
	if (why && x->err) {
		tern_4to6_error(x, skb, x->err_type, x->err_code, 0);
		return tern_drop(inst, why);
	}
	if (why)
		return tern_4to6_refuse(x, skb, why);
	proto = p->proto == IPPROTO_ICMP ? IPPROTO_ICMPV6 : p->proto;
	if (later == TERN_GSO_SEGMENT)
		return TERN_XLAT_SEGMENT;
	why = later == TERN_GSO_WHOLE ? tern_gso_whole(skb, p, false) : 0;
	if (why) {
		tern_unwind(x);
		return tern_drop(inst, why);
	}

	dst = tern_route6_fast(inst, skb, &a6[0], &a6[1], proto, &lent);
	if (!dst) {
		tern_unwind(x);
		tern_4to6_error(x, skb, ICMP_DEST_UNREACH, ICMP_HOST_UNREACH, 0);
		return tern_drop(inst, TERN_STAT_DROP_NO_ROUTE);
	}
	if (tern_dst_local(dst)) {
		tern_route_put(dst, lent);
		tern_unwind(x);
		return tern_drop(inst, TERN_STAT_DROP_TO_SELF);
	}

	/*
	 * RFC 7915 4.1: DF=0 packets may be fragmented; a packet with DF set,
	 * a fragment too, may not. A datagram reassembled by nf_defrag_ipv4
	 * goes out as fragments no bigger than its biggest one translated
	 * (the kernel's ip_forward() and ip_fragment() keep frag_max_size
	 * the same way), with its Identification.
	 */
	df = ip4.frag_off & htons(IP_DF);
	reasm = !p->fragment && IPCB(skb)->frag_max_size;
	len6 = skb->len - p->l3len + sizeof(struct ipv6hdr) +
	       (p->fragment ? sizeof(struct frag_hdr) : 0);
	fraglen6 = reasm ? max_t(unsigned int, IPCB(skb)->frag_max_size,
				 p->l3len + 8) - p->l3len +
			   sizeof(struct ipv6hdr) + sizeof(struct frag_hdr) :
		   len6;
	mtu = dst_mtu(dst);
	skb_set_transport_header(skb, p->l3len);
	if (df && fraglen6 > mtu &&
	    !(skb_is_gso(skb) &&
	      skb_gso_validate_network_len(skb, mtu + p->l3len -
					   sizeof(struct ipv6hdr)))) {
		tern_route_put(dst, lent);
		tern_unwind(x);
		/* What an IPv4 packet (of 20 header bytes) may be to fit. */
		tern_4to6_error(x, skb, ICMP_DEST_UNREACH, ICMP_FRAG_NEEDED,
				htonl(mtu - (p->fragment || reasm ? 28 : 20)));
		return tern_drop(inst, TERN_STAT_DROP_TOO_BIG);
	}
	limit = min(cfg->lowest_ipv6_mtu, mtu);
	/* A DF=0 super-packet whose segments will need fragmenting. */
	gso_frag = !df && skb_is_gso(skb) &&
		   !skb_gso_validate_network_len(skb, limit + p->l3len -
						 sizeof(struct ipv6hdr));
	fixedid = skb_is_gso(skb) &&
		  (skb_shinfo(skb)->gso_type & SKB_GSO_TCP_FIXEDID);
	if (gso_frag && skb->ip_summed != CHECKSUM_PARTIAL) {
		/* GRO leaves CHECKSUM_PARTIAL; segmenting wants it. */
		tern_route_put(dst, lent);
		tern_unwind(x);
		return tern_drop(inst, TERN_STAT_DROP_OUTPUT);
	}

	/* From here on the packet is modified: no way back to NF_ACCEPT. */
	hdiff = (int)len6 - (int)skb->len;
	/*
	 * The shared info (gso_type, written below) is shared by clones:
	 * a GSO packet that is a clone gets its own first.
	 */
	if ((skb_is_gso(skb) && skb_unclone(skb, GFP_ATOMIC)) ||
	    tern_skb_writable(skb, p->l3len + p->l4len) ||
	    (hdiff > 0 && skb_cow_head(skb, hdiff))) {
		tern_route_put(dst, lent);
		tern_unwind(x);
		return tern_drop(inst, TERN_STAT_DROP_NOMEM);
	}
	skb_forward_csum(skb);
	if (x->nat)
		tern_l4id_write(skb, p, &x->id, x->nport);
	tern_4to6_csum(skb, p, &ip4, a6, type6, amend);
	tern_4to6_header(skb, cfg, &ip4, p, a6, proto);

	skb->protocol = htons(ETH_P_IPV6);
	if (skb_is_gso(skb))
		tern_gso_4to6(skb);
	memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));
	nf_reset_ct(skb);
	skb_clear_tstamp(skb);
	if (reasm || gso_frag ||
	    (!df && !skb_is_gso(skb) && skb->len > limit)) {
		struct dst_entry *held = tern_route_hold(dst, lent);
		__be32 id = htonl(ntohs(ip4.id));
		int err;

		if (reasm)
			err = tern_frag6_output(inst->net, skb, held,
						df ? fraglen6 :
						min(fraglen6, limit), id);
		else if (gso_frag)
			err = tern_frag6_gso_output(inst->net, skb, held, limit,
						    ntohs(ip4.id), fixedid);
		else
			err = tern_frag6_output(inst->net, skb, held, limit, id);
		/* Fragments lost are the packet lost. */
		if (err)
			return tern_stolen(inst, err == -ENOMEM ?
					   TERN_STAT_DROP_NOMEM :
					   TERN_STAT_DROP_OUTPUT);
		return tern_stolen(inst, TERN_STAT_XLAT_46);
	}
	tern_output_fast(inst->net, skb, dst, lent);
	return tern_stolen(inst, TERN_STAT_XLAT_46);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Offload metadata from untrusted sources. A tun/tap device with
 * IFF_VNET_HDR, or a virtio guest, hands the stack packets whose GSO type,
 * GSO size and CHECKSUM_PARTIAL offsets are whatever the writer claimed
 * (SKB_GSO_DODGY); the kernel's own checks at injection leave much out,
 * and it validates the rest only when it segments. Tern rewrites headers
 * and checksums before any segmentation, so it checks first: the GSO type
 * against the protocol and the family, the TCP header, the checksum
 * offsets against the transport header. GSO types Tern does not rewrite
 * (tunnels, GSO partial, ...) and super-packets too big for the other
 * family's length field (BIG TCP) are segmented in software and
 * translated segment by segment. UDP fragmentation offload is not
 * segmented: its segments are IP fragments, of which NAT64 could
 * translate only the first (the others carry no ports); the datagram is
 * translated whole and leaves as the fragments segmentation would make.
 */

#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netfilter.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include "core/compat.h"
#include "xlat/gso.h"

/* Offset of the checksum field of @proto's header, or -1. */
static int tern_csum_field(u8 proto)
{
	switch (proto) {
	case IPPROTO_TCP:
		return offsetof(struct tcphdr, check);
	case IPPROTO_UDP:
		return offsetof(struct udphdr, check);
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		return 2;	/* type, code, checksum */
	default:
		return -1;
	}
}

/* CHECKSUM_PARTIAL offsets of a packet that is not a super-packet. */
static enum tern_gso_action tern_csum_classify(const struct tern_gso_meta *m)
{
	int field = m->nonfirst ? -1 : tern_csum_field(m->proto);

	/* Never in the headers Tern rewrites, never past the end. */
	if (m->csum_start < (int)m->l3len ||
	    m->csum_start + m->csum_offset + sizeof(__sum16) > m->len)
		return TERN_GSO_BAD;
	if (field < 0)
		return TERN_GSO_AS_IS;
	if (m->csum_start == m->l3len)
		return m->csum_offset == field ? TERN_GSO_AS_IS : TERN_GSO_BAD;
	/* An inner checksum of a tunnel: completed before translation. */
	return m->encap ? TERN_GSO_CSUM_HELP : TERN_GSO_BAD;
}

/* Bigger than the translated header's length field can say. */
static bool tern_gso_too_long(const struct tern_gso_meta *m)
{
	unsigned int l4 = m->len - m->l3len;

	return m->v6 ? l4 + sizeof(struct iphdr) > IP_MAX_MTU :
		       l4 > IPV6_MAXPLEN;
}

enum tern_gso_action tern_gso_classify(const struct tern_gso_meta *m)
{
	unsigned int type = m->gso_type & ~(SKB_GSO_DODGY | SKB_GSO_TCP_ECN);
	unsigned int tcp = m->v6 ? SKB_GSO_TCPV6 : SKB_GSO_TCPV4;
	unsigned int l4 = m->len - m->l3len;

	if (m->l3len > m->len)
		return TERN_GSO_BAD;
	if (!m->gso_size)
		return m->partial ? tern_csum_classify(m) : TERN_GSO_AS_IS;
	/*
	 * Segments of a fragment would be fragments of nothing; no GSO type
	 * segments ICMP (an error would be translated whole, then).
	 */
	if (m->fragment || m->proto == IPPROTO_ICMP ||
	    m->proto == IPPROTO_ICMPV6)
		return TERN_GSO_BAD;
	/*
	 * TCP segmentation writes each segment a checksum of its own unless
	 * the super-packet's is CHECKSUM_PARTIAL: from a writer
	 * (SKB_GSO_DODGY: tun, a packet socket, virtio), a corrupt one would
	 * leave valid. The kernel's own (GRO, LRO, fraglist GRO) are not
	 * partial only when their segments' checksums were checked.
	 */
	if ((m->gso_type & (SKB_GSO_TCPV4 | SKB_GSO_TCPV6)) &&
	    (m->gso_type & SKB_GSO_DODGY) && !m->partial)
		return TERN_GSO_BAD;
	/* A UDP datagram, its checksum (if partial) at its place. */
	if (type == SKB_GSO_UDP) {
		if (m->proto != IPPROTO_UDP || m->gso_size == GSO_BY_FRAGS ||
		    l4 < sizeof(struct udphdr) ||
		    (m->partial &&
		     (m->csum_start != m->l3len ||
		      m->csum_offset != offsetof(struct udphdr, check))))
			return TERN_GSO_BAD;
		return TERN_GSO_WHOLE;
	}
	if (type == tcp || (!m->v6 && type == (tcp | SKB_GSO_TCP_FIXEDID))) {
		if (m->proto != IPPROTO_TCP || m->gso_size == GSO_BY_FRAGS ||
		    m->thlen < sizeof(struct tcphdr) || m->thlen > l4)
			return TERN_GSO_BAD;
		if (m->partial &&
		    (m->csum_start != m->l3len ||
		     m->csum_offset != offsetof(struct tcphdr, check)))
			return TERN_GSO_BAD;
	} else if (type == SKB_GSO_UDP_L4) {
		/* As __udp_gso_segment() wants it. */
		if (m->proto != IPPROTO_UDP || m->gso_size == GSO_BY_FRAGS ||
		    !m->partial || m->csum_start != m->l3len ||
		    m->csum_offset != offsetof(struct udphdr, check) ||
		    l4 <= sizeof(struct udphdr) + m->gso_size)
			return TERN_GSO_BAD;
	} else {
		/* Not rewritten: the kernel's segmentation will judge. */
		return TERN_GSO_SEGMENT;
	}
	return tern_gso_too_long(m) ? TERN_GSO_SEGMENT : TERN_GSO_AS_IS;
}

/*
 * tern_gso_check() of a packet with GSO or CHECKSUM_PARTIAL (the inline
 * has set *@later to TERN_GSO_AS_IS and handled the packets with neither).
 */
int tern_gso_check_meta(struct sk_buff *skb, const struct tern_pkt *p,
			bool v6, enum tern_gso_action *later)
{
	struct tern_gso_meta m = {
		.gso_type = skb_shinfo(skb)->gso_type,
		.gso_size = skb_shinfo(skb)->gso_size,
		.partial = skb->ip_summed == CHECKSUM_PARTIAL,
		.encap = skb->encapsulation,
		.len = skb->len,
		.l3len = p->l3len,
		.proto = p->proto,
		.v6 = v6,
		.fragment = p->fragment,
		.nonfirst = p->nonfirst,
	};
	enum tern_gso_action action;

	if (m.partial) {
		m.csum_start = skb_checksum_start(skb) - skb_network_header(skb);
		m.csum_offset = skb->csum_offset;
	}
	/* The parser pulled the fixed TCP header; the options too. */
	if (m.gso_size && p->proto == IPPROTO_TCP && !p->nonfirst) {
		m.thlen = (skb->data[p->l3len + 12] >> 4) * 4;
		if (!pskb_may_pull(skb, p->l3len + m.thlen))
			return TERN_STAT_DROP_BAD_GSO;
	}
	action = tern_gso_classify(&m);
	switch (action) {
	case TERN_GSO_AS_IS:
		return 0;
	case TERN_GSO_CSUM_HELP:
		if (!pskb_may_pull(skb, m.csum_start + m.csum_offset +
				   sizeof(__sum16)) ||
		    skb_checksum_help(skb))
			return TERN_STAT_DROP_NOMEM;
		return 0;
	case TERN_GSO_SEGMENT:
	case TERN_GSO_WHOLE:
		*later = action;
		return 0;
	default:
		return TERN_STAT_DROP_BAD_GSO;
	}
}

/*
 * Removes the Jumbo Payload option of an IPv6 BIG TCP super-packet (a
 * Hop-by-Hop header of its own, right after the IPv6 header, payload
 * length 0), as segmentation would. Linux 6.1's ipv6_gso_segment() does
 * it assuming an Ethernet header before the IPv6 one: on a packet that
 * starts at its network header, as here, it moves 14 bytes over the TCP
 * header. Each segment gets its payload length from segmentation.
 */
static int tern_gso_strip_jumbo(struct sk_buff *skb)
{
	const unsigned int hlen = sizeof(struct ipv6hdr) +
				  sizeof(struct hop_jumbo_hdr);
	struct hop_jumbo_hdr *jh;
	struct ipv6hdr *ip6;
	u8 nexthdr;

	if (skb->protocol != htons(ETH_P_IPV6) || skb->len <= IPV6_MAXPLEN ||
	    !pskb_may_pull(skb, hlen))
		return 0;
	ip6 = ipv6_hdr(skb);
	jh = (struct hop_jumbo_hdr *)(ip6 + 1);
	if (ip6->nexthdr != NEXTHDR_HOP || ip6->payload_len || jh->hdrlen ||
	    jh->tlv_type != IPV6_TLV_JUMBO)
		return 0;
	if (skb_ensure_writable(skb, hlen))
		return -ENOMEM;
	ip6 = ipv6_hdr(skb);
	nexthdr = ((struct hop_jumbo_hdr *)(ip6 + 1))->nexthdr;
	memmove((u8 *)ip6 + sizeof(*jh), ip6, sizeof(*ip6));
	__skb_pull(skb, sizeof(*jh));
	skb_reset_network_header(skb);
	ipv6_hdr(skb)->nexthdr = nexthdr;
	return 0;
}

int tern_gso_segment(struct sk_buff *skb, struct sk_buff **segs)
{
	/*
	 * Segmentation may write the transport header (UDP fragmentation
	 * offload fills in the checksum): not in one a clone shares.
	 */
	if (skb_cow_head(skb, 0) || tern_gso_strip_jumbo(skb))
		return TERN_STAT_DROP_NOMEM;
	/* The receive path's variant: no transmit-side checksum warning. */
	*segs = __skb_gso_segment(skb, 0, false);
	if (IS_ERR_OR_NULL(*segs))
		return TERN_STAT_DROP_BAD_GSO;
	consume_skb(skb);
	return 0;
}

/*
 * Makes UDP fragmentation offload super-packet @skb (tern_gso_classify():
 * TERN_GSO_WHOLE) the datagram it stands for: no longer a GSO packet, but
 * one that leaves as the fragments its segmentation would have made, of
 * gso_size bytes of UDP header and data each, as if reassembled by defrag
 * (frag_max_size, which the translation and the output fragmentation
 * keep). Its checksum stays what the sender wrote or asked for. Returns 0
 * or a TERN_STAT_* reason (@skb then unchanged).
 */
int tern_gso_whole(struct sk_buff *skb, const struct tern_pkt *p, bool v6)
{
	unsigned int mss = skb_shinfo(skb)->gso_size;
	unsigned int l4 = skb->len - p->l3len;

	/* The shared info is shared by clones: a clone gets its own. */
	if (skb_unclone(skb, GFP_ATOMIC))
		return TERN_STAT_DROP_NOMEM;
	skb_gso_reset(skb);
	/* One segment: a datagram that was never to be fragmented. */
	if (l4 <= mss)
		return 0;
	if (v6) {
		IP6CB(skb)->flags |= IP6SKB_FRAGMENTED;
		IP6CB(skb)->frag_max_size =
			min_t(unsigned int, p->l3len + sizeof(struct frag_hdr) +
			      mss, U16_MAX);
	} else {
		IPCB(skb)->frag_max_size = p->l3len + mss;
	}
	return 0;
}

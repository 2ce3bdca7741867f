/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_HDR_H
#define _TERN_HDR_H

#include <linux/ip.h>
#include <net/ip.h>
#include <net/ipv6.h>

/*
 * The fragment fields of one family written in the other's (RFC 7915
 * 4.1, 5.1.1): one statement each for the packet, the packet quoted by an
 * ICMP error, and the fragments Tern makes.
 */
static inline void tern_frag_hdr_set(struct frag_hdr *fh, u8 nexthdr,
				     unsigned int offset, bool more, __be32 id)
{
	fh->nexthdr = nexthdr;
	fh->reserved = 0;
	fh->frag_off = htons(offset | (more ? IP6_MF : 0));
	fh->identification = id;
}

/* From the IPv4 header: offset, MF, Identification zero-extended. */
static inline void tern_frag_hdr_4to6(struct frag_hdr *fh,
				      const struct iphdr *iph, u8 proto)
{
	u16 fo = ntohs(iph->frag_off);

	tern_frag_hdr_set(fh, proto, (fo & IP_OFFSET) << 3, fo & IP_MF,
			  htonl(ntohs(iph->id)));
}

/* The low 16 bits of the Identification (RFC 7915 5.1.1). */
static inline void tern_frag_fields_6to4(struct iphdr *iph,
					 const struct frag_hdr *fh)
{
	u16 fo = ntohs(fh->frag_off);

	iph->id = htons(ntohl(fh->identification) & 0xffff);
	iph->frag_off = htons(fo >> 3 | (fo & IP6_MF ? IP_MF : 0));
}

/*
 * skb_ensure_writable() and ip_send_check() without the calls in the
 * common case (every packet of the fast path).
 */
static inline int tern_skb_writable(struct sk_buff *skb, unsigned int len)
{
	if (likely(!skb_cloned(skb) && len <= skb_headlen(skb)))
		return 0;
	return skb_ensure_writable(skb, len);
}

static inline void tern_ip_send_check(struct iphdr *iph)
{
	iph->check = 0;
	iph->check = ip_fast_csum((unsigned char *)iph, iph->ihl);
}

#endif /* _TERN_HDR_H */

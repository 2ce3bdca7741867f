// SPDX-License-Identifier: GPL-2.0
/*
 * Packet parsing: finds the upper-layer header behind the IPv6 extension
 * headers or the IPv4 header and makes sure the bytes translation touches
 * are present. Parsers return 0 or the TERN_STAT_* reason for a drop.
 */

#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include "xlat/packet.h"

#define TERN_MAX_EXTHDRS 8

static unsigned int tern_l4len(u8 proto)
{
	switch (proto) {
	case IPPROTO_TCP:
		return sizeof(struct tcphdr);
	case IPPROTO_UDP:
		return sizeof(struct udphdr);
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		return 8;
	default:
		return 0;
	}
}

/*
 * The transport header of a packet or first fragment, pulled: its fixed
 * part (what Tern rewrites), and all of a TCP header, options included (a
 * first fragment that ends inside it is malformed, and a filter after the
 * translator could not see its flags: RFC 1858).
 */
static int tern_pull_l4(struct sk_buff *skb, struct tern_pkt *p)
{
	unsigned int doff;

	p->l4len = p->nonfirst ? 0 : tern_l4len(p->proto);
	if (!pskb_may_pull(skb, p->l3len + p->l4len))
		return TERN_STAT_DROP_TRUNCATED;
	if (p->l4len && p->proto == IPPROTO_TCP) {
		doff = ((const struct tcphdr *)(skb->data + p->l3len))->doff * 4;
		if (doff < sizeof(struct tcphdr) ||
		    p->l3len + doff > skb->len)
			return TERN_STAT_DROP_TRUNCATED;
	}
	return 0;
}

int tern_ipv6_walk(const struct sk_buff *skb, const u8 *data,
		   unsigned int len, bool outer, struct tern_pkt *p)
{
	unsigned int off = sizeof(struct ipv6hdr);
	u8 nexthdr = ((const struct ipv6hdr *)data)->nexthdr;
	int i;

	p->rthdr_segleft_pos = -1;
	p->frag6 = -1;
	p->fragment = false;
	p->nonfirst = false;

	for (i = 0; ; i++) {
		u8 buf[4];
		const u8 *h;

		switch (nexthdr) {
		case NEXTHDR_HOP:
		case NEXTHDR_ROUTING:
		case NEXTHDR_DEST:
			break;
		case NEXTHDR_FRAGMENT:
			if (p->frag6 >= 0)
				return TERN_STAT_DROP_FRAGMENT;
			break;
		default:
			goto upper;
		}
		if (i == TERN_MAX_EXTHDRS)
			return TERN_STAT_DROP_EXTHDR;
		h = __skb_header_pointer(skb, off, sizeof(buf), data,
					 skb ? skb_headlen(skb) : len, buf);
		if (!h)
			return TERN_STAT_DROP_TRUNCATED;
		/* Hop-by-Hop is only allowed right after the fixed header. */
		if (outer && nexthdr == NEXTHDR_HOP &&
		    off != sizeof(struct ipv6hdr))
			return TERN_STAT_DROP_EXTHDR;
		if (outer && nexthdr == NEXTHDR_ROUTING && h[3]) {
			p->rthdr_segleft_pos = off + 3;
			return TERN_STAT_DROP_ROUTING_HDR;
		}
		if (nexthdr == NEXTHDR_FRAGMENT) {
			__be16 fo = *(const __be16 *)(h + 2);

			p->frag6 = off;
			p->nonfirst = !!(fo & htons(IP6_OFFSET));
			p->fragment = !!(fo & htons(IP6_OFFSET | IP6_MF));
			off += sizeof(struct frag_hdr);
			/* Headers after it are in the fragmentable part. */
			if (outer && p->fragment && ipv6_ext_hdr(h[0]) &&
			    h[0] != NEXTHDR_NONE)
				return TERN_STAT_DROP_FRAGMENT;
			/* A later fragment: what follows is data. */
			if (p->nonfirst) {
				nexthdr = h[0];
				goto upper;
			}
		} else {
			off += ipv6_optlen((const struct ipv6_opt_hdr *)h);
		}
		nexthdr = h[0];
	}

upper:
	if (off > len)
		return TERN_STAT_DROP_TRUNCATED;
	p->l3len = off;
	p->proto = nexthdr;
	return 0;
}

int tern_parse6(struct sk_buff *skb, struct tern_pkt *p)
{
	const struct ipv6hdr *ip6;
	int why;

	if (!pskb_may_pull(skb, sizeof(struct ipv6hdr)))
		return TERN_STAT_DROP_TRUNCATED;
	/*
	 * Payload Length 0 before a Hop-by-Hop header is a jumbogram's (RFC
	 * 2675), more than 65,535 bytes, and the kernel then cut the packet
	 * to its Jumbo Payload option; below that, there was no such option
	 * and nothing gave the packet a length (what follows may be a
	 * frame's padding).
	 */
	ip6 = ipv6_hdr(skb);
	if (unlikely(!ip6->payload_len) && ip6->nexthdr == NEXTHDR_HOP &&
	    skb->len <= sizeof(*ip6) + IPV6_MAXPLEN)
		return TERN_STAT_DROP_TRUNCATED;
	why = tern_ipv6_walk(skb, skb->data, skb->len, true, p);
	if (why)
		return why;
	if (unlikely(tern_proto_in(p->proto, TERN_PROTO_V4ONLY)))
		return TERN_STAT_DROP_OTHER_FAMILY;
	return tern_pull_l4(skb, p);
}

int tern_parse4(struct sk_buff *skb, struct tern_pkt *p)
{
	const struct iphdr *iph = ip_hdr(skb);

	p->l3len = iph->ihl * 4;
	p->proto = iph->protocol;
	p->rthdr_segleft_pos = -1;
	p->frag6 = -1;
	p->fragment = ip_is_fragment(iph);
	p->nonfirst = !!(iph->frag_off & htons(IP_OFFSET));
	/* Only the first fragment carries the transport header. */
	return tern_pull_l4(skb, p);
}

void tern_l4id_parse(u8 proto, const u8 *l4, unsigned int len,
		     struct tern_l4id *id)
{
	id->valid = false;
	id->tcp_flags = 0;
	switch (proto) {
	case IPPROTO_TCP:
		if (len > 13)
			id->tcp_flags = l4[13];
		fallthrough;
	case IPPROTO_UDP:
		if (len < sizeof(id->port))
			return;
		memcpy(id->port, l4, sizeof(id->port));
		break;
	case IPPROTO_ICMP:
		if (len < 6 || (l4[0] != ICMP_ECHO && l4[0] != ICMP_ECHOREPLY))
			return;
		goto echo;
	case IPPROTO_ICMPV6:
		if (len < 6 || (l4[0] != ICMPV6_ECHO_REQUEST &&
				l4[0] != ICMPV6_ECHO_REPLY))
			return;
echo:
		memcpy(&id->port[0], l4 + 4, sizeof(id->port[0]));
		id->port[1] = id->port[0];
		break;
	default:
		return;
	}
	id->valid = true;
}

void tern_l4id_read(const struct sk_buff *skb, const struct tern_pkt *p,
		    struct tern_l4id *id)
{
	id->valid = false;
	if (p->nonfirst || !p->l4len)
		return;
	tern_l4id_parse(p->proto, skb->data + p->l3len, p->l4len, id);
}

void tern_l4id_write(struct sk_buff *skb, const struct tern_pkt *p,
		     const struct tern_l4id *id, const __be16 *nport)
{
	u8 *l4 = skb->data + p->l3len;
	__be16 *ports = (__be16 *)l4;
	__sum16 *check;
	int i;

	switch (p->proto) {
	case IPPROTO_TCP:
		check = &((struct tcphdr *)l4)->check;
		break;
	case IPPROTO_UDP:
		check = &((struct udphdr *)l4)->check;
		/* No checksum (IPv4): none to update. */
		if (!*check && skb->ip_summed != CHECKSUM_PARTIAL)
			check = NULL;
		break;
	default:	/* ICMP echo: the identifier, in the checksum */
		check = &((struct icmphdr *)l4)->checksum;
		ports = (__be16 *)(l4 + 4);
		if (*ports != nport[0])
			csum_replace2(check, *ports, nport[0]);
		*ports = nport[0];
		return;
	}
	for (i = 0; i < 2; i++) {
		if (ports[i] == nport[i])
			continue;
		/* Ports are not in the pseudo-header: PARTIAL sums stay. */
		if (check)
			inet_proto_csum_replace2(check, skb, ports[i],
						 nport[i], false);
		ports[i] = nport[i];
	}
	if (check && p->proto == IPPROTO_UDP && !*check &&
	    skb->ip_summed != CHECKSUM_PARTIAL)
		*check = CSUM_MANGLED_0;
}

/*
 * RFC 7915 4.1: an unexpired Loose or Strict Source Route option means the
 * packet must not be translated.
 */
bool tern_ipv4_has_srcroute(const struct sk_buff *skb)
{
	const struct iphdr *iph = ip_hdr(skb);
	const u8 *opt = (const u8 *)(iph + 1);
	unsigned int len = iph->ihl * 4 - sizeof(*iph);
	unsigned int i = 0;

	while (i < len) {
		u8 type = opt[i];
		u8 olen;

		if (type == IPOPT_END)
			break;
		if (type == IPOPT_NOOP) {
			i++;
			continue;
		}
		if (i + 1 >= len)
			break;
		olen = opt[i + 1];
		if (olen < 2 || i + olen > len)
			break;
		/* Pointer (1-based) not past the option: route not expired. */
		if ((type == IPOPT_LSRR || type == IPOPT_SSRR) && olen >= 3 &&
		    opt[i + 2] <= olen)
			return true;
		i += olen;
	}
	return false;
}

/*
 * Whether the ICMP or ICMPv6 message at @off (to the end of @skb) has a
 * right checksum. A message whose checksum is still to be computed on
 * output (CHECKSUM_PARTIAL, from tun or virtio) gets it now, as the
 * device would: what it would have sent is checked (a wrong seed in the
 * field makes it corrupt, and an error rebuilt with a fresh checksum
 * must not make it valid). A claim that it was
 * checked (CHECKSUM_UNNECESSARY) is not believed: hardware does not check
 * ICMP, so the claim comes from a virtual device (tun or virtio's
 * DATA_VALID), that is from whoever wrote the packet. A CHECKSUM_COMPLETE
 * sum spares reading the message, and where it disagrees the message is
 * summed again, as the stack does.
 */
bool tern_icmp_csum_ok(struct sk_buff *skb, unsigned int off)
{
	bool v6 = ipv6_hdr(skb)->version == 6;
	unsigned int len = skb->len - off;
	__wsum sum;

	if (skb->ip_summed == CHECKSUM_PARTIAL &&
	    (skb_checksum_start(skb) - skb_network_header(skb) != off ||
	     skb->csum_offset != 2 || !pskb_may_pull(skb, off + 4) ||
	     skb_checksum_help(skb)))
		return false;
	if (skb->ip_summed == CHECKSUM_COMPLETE) {
		/* skb->csum covers the packet from its network header. */
		sum = csum_sub(skb->csum, skb_checksum(skb, 0, off, 0));
		if (v6 ? !csum_ipv6_magic(&ipv6_hdr(skb)->saddr,
					  &ipv6_hdr(skb)->daddr, len,
					  IPPROTO_ICMPV6, sum) :
			 !csum_fold(sum))
			return true;
	}
	sum = skb_checksum(skb, off, len, 0);
	if (v6)
		return !csum_ipv6_magic(&ipv6_hdr(skb)->saddr,
					&ipv6_hdr(skb)->daddr, len,
					IPPROTO_ICMPV6, sum);
	return !csum_fold(sum);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ICMP: type mapping between ICMPv4 and ICMPv6 (RFC 7915 4.2, 5.2) and the
 * errors Tern itself sends. Errors go through the kernel's own senders,
 * so they get its rate limits (icmp_ratelimit, icmpv6 ratelimit).
 */

#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <net/icmp.h>
#include <net/ipv6.h>
#include <net/ip.h>
#include <net/route.h>
#include "xlat/icmp.h"

enum tern_icmp_kind tern_icmp6_classify(u8 type6, u8 *type4)
{
	switch (type6) {
	case ICMPV6_ECHO_REQUEST:
		*type4 = ICMP_ECHO;
		return TERN_ICMP_ECHO;
	case ICMPV6_ECHO_REPLY:
		*type4 = ICMP_ECHOREPLY;
		return TERN_ICMP_ECHO;
	case ICMPV6_DEST_UNREACH:
	case ICMPV6_PKT_TOOBIG:
	case ICMPV6_TIME_EXCEED:
	case ICMPV6_PARAMPROB:
		return TERN_ICMP_ERROR;
	}
	return type6 & ICMPV6_INFOMSG_MASK ? TERN_ICMP_INFO : TERN_ICMP_OTHER;
}

enum tern_icmp_kind tern_icmp4_classify(u8 type4, u8 *type6)
{
	switch (type4) {
	case ICMP_ECHO:
		*type6 = ICMPV6_ECHO_REQUEST;
		return TERN_ICMP_ECHO;
	case ICMP_ECHOREPLY:
		*type6 = ICMPV6_ECHO_REPLY;
		return TERN_ICMP_ECHO;
	case ICMP_DEST_UNREACH:
	case ICMP_SOURCE_QUENCH:
	case ICMP_REDIRECT:
	case ICMP_TIME_EXCEEDED:
	case ICMP_PARAMETERPROB:
		return TERN_ICMP_ERROR;
	case ICMP_TIMESTAMP:
	case ICMP_TIMESTAMPREPLY:
	case ICMP_INFO_REQUEST:
	case ICMP_INFO_REPLY:
	case ICMP_ADDRESS:
	case ICMP_ADDRESSREPLY:
	case 9:		/* router advertisement */
	case 10:	/* router solicitation */
		return TERN_ICMP_INFO;
	}
	return TERN_ICMP_OTHER;
}

/*
 * Sends an ICMPv4 error about @skb, an IPv4 packet in PRE_ROUTING. The
 * kernel's sender needs an input route to pick the source address; give
 * it the one forwarding would have used.
 */
void tern_icmp4_error(struct sk_buff *skb, int type, int code, __be32 info)
{
	const struct iphdr *iph = ip_hdr(skb);

	if (!skb_dst(skb) &&
	    ip_route_input_noref(skb, iph->daddr, iph->saddr, iph->tos, skb->dev))
		return;
	icmp_send(skb, type, code, info);
}

void tern_icmp6_error(struct sk_buff *skb, u8 type, u8 code, u32 info)
{
	icmpv6_send(skb, type, code, info);
}

/*
 * RFC 7915 4.2: ICMPv4 error type/code -> ICMPv6. Returns 0, or -1 for a
 * message the translator silently drops. *@ptr is set for the Parameter
 * Problem that Protocol Unreachable becomes (pointer to Next Header).
 */
int tern_icmp4_err_map(u8 type, u8 code, u8 *type6, u8 *code6, int *ptr)
{
	*ptr = -1;
	switch (type) {
	case ICMP_DEST_UNREACH:
		switch (code) {
		case ICMP_NET_UNREACH:
		case ICMP_HOST_UNREACH:
		case ICMP_SR_FAILED:
		case ICMP_NET_UNKNOWN:
		case ICMP_HOST_UNKNOWN:
		case ICMP_HOST_ISOLATED:
		case ICMP_NET_UNR_TOS:
		case ICMP_HOST_UNR_TOS:
			*type6 = ICMPV6_DEST_UNREACH;
			*code6 = ICMPV6_NOROUTE;
			return 0;
		case ICMP_NET_ANO:
		case ICMP_HOST_ANO:
		case ICMP_PKT_FILTERED:
		case ICMP_PREC_CUTOFF:
			*type6 = ICMPV6_DEST_UNREACH;
			*code6 = ICMPV6_ADM_PROHIBITED;
			return 0;
		case ICMP_PORT_UNREACH:
			*type6 = ICMPV6_DEST_UNREACH;
			*code6 = ICMPV6_PORT_UNREACH;
			return 0;
		case ICMP_PROT_UNREACH:
			*type6 = ICMPV6_PARAMPROB;
			*code6 = ICMPV6_UNK_NEXTHDR;
			*ptr = offsetof(struct ipv6hdr, nexthdr);
			return 0;
		case ICMP_FRAG_NEEDED:
			*type6 = ICMPV6_PKT_TOOBIG;
			*code6 = 0;
			return 0;
		}
		return -1;	/* 14 (precedence violation) and unknown codes */
	case ICMP_TIME_EXCEEDED:
		*type6 = ICMPV6_TIME_EXCEED;
		*code6 = code;
		return 0;
	case ICMP_PARAMETERPROB:
		if (code != 0 && code != 2)
			return -1;
		*type6 = ICMPV6_PARAMPROB;
		*code6 = ICMPV6_HDR_FIELD;
		return 0;
	}
	return -1;	/* Source Quench, Redirect, anything else */
}

/* RFC 7915 5.2: ICMPv6 error type/code -> ICMPv4; 0 or -1 (dropped). */
int tern_icmp6_err_map(u8 type, u8 code, u8 *type4, u8 *code4)
{
	switch (type) {
	case ICMPV6_DEST_UNREACH:
		*type4 = ICMP_DEST_UNREACH;
		switch (code) {
		case ICMPV6_NOROUTE:
		case ICMPV6_NOT_NEIGHBOUR:
		case ICMPV6_ADDR_UNREACH:
			*code4 = ICMP_HOST_UNREACH;
			return 0;
		case ICMPV6_ADM_PROHIBITED:
			*code4 = ICMP_HOST_ANO;
			return 0;
		case ICMPV6_PORT_UNREACH:
			*code4 = ICMP_PORT_UNREACH;
			return 0;
		}
		return -1;
	case ICMPV6_PKT_TOOBIG:
		*type4 = ICMP_DEST_UNREACH;
		*code4 = ICMP_FRAG_NEEDED;
		return 0;
	case ICMPV6_TIME_EXCEED:
		*type4 = ICMP_TIME_EXCEEDED;
		*code4 = code;
		return 0;
	case ICMPV6_PARAMPROB:
		if (code == ICMPV6_HDR_FIELD) {
			*type4 = ICMP_PARAMETERPROB;
			*code4 = 0;
			return 0;
		}
		if (code == ICMPV6_UNK_NEXTHDR) {
			*type4 = ICMP_DEST_UNREACH;
			*code4 = ICMP_PROT_UNREACH;
			return 0;
		}
		return -1;
	}
	return -1;
}

/* RFC 7915 Figure 3: IPv4 header byte -> IPv6 header byte, or -1. */
int tern_icmp_ptr_4to6(u32 ptr)
{
	switch (ptr) {
	case 0:
		return 0;	/* Version/IHL -> Version/Traffic Class */
	case 1:
		return 1;	/* Type of Service -> Traffic Class/Flow Label */
	case 2:
	case 3:
		return 4;	/* Total Length -> Payload Length */
	case 8:
		return 7;	/* Time to Live -> Hop Limit */
	case 9:
		return 6;	/* Protocol -> Next Header */
	}
	if (ptr >= 12 && ptr <= 15)
		return 8;	/* Source Address */
	if (ptr >= 16 && ptr <= 19)
		return 24;	/* Destination Address */
	return -1;
}

/* RFC 7915 Figure 6: IPv6 header byte -> IPv4 header byte, or -1. */
int tern_icmp_ptr_6to4(u32 ptr)
{
	switch (ptr) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 4:
	case 5:
		return 2;
	case 6:
		return 9;
	case 7:
		return 8;
	}
	if (ptr >= 8 && ptr <= 23)
		return 12;
	if (ptr >= 24 && ptr <= 39)
		return 16;
	return -1;
}

/*
 * RFC 7915 4.2: the MTU of a Packet Too Big made of a Fragmentation Needed
 * advertising @mtu4 (0: a pre-RFC 1191 router; guess from the plateaus and
 * the Total Length @tot_len of the packet in error). @mtu6_out: the IPv6
 * next hop's; @mtu4_in: the IPv4 interface the error came in on.
 */
u32 tern_icmp_mtu_4to6(const u16 *plateaus, unsigned int n, u32 mtu4,
		       u32 tot_len, u32 mtu6_out, u32 mtu4_in)
{
	unsigned int i;
	u32 mtu;

	if (!mtu4) {
		for (i = 0; i < n; i++) {
			if (plateaus[i] < tot_len && plateaus[i] >= IPV6_MIN_MTU) {
				mtu4 = plateaus[i];
				break;
			}
		}
		/*
		 * No plateau fits: the IPv6 minimum, so the sender's packets
		 * leave with DF clear (<= 1260 bytes, RFC 7915 5.1) and IPv4
		 * routers may fragment them.
		 */
		if (!mtu4)
			return IPV6_MIN_MTU;
	}
	mtu = min3(mtu4 + 20, mtu6_out, mtu4_in + 20);
	return max_t(u32, mtu, IPV6_MIN_MTU);
}

/*
 * RFC 7915 5.2: the MTU of a Fragmentation Needed made of a Packet Too Big.
 * No IPv6 link is smaller than 1280 bytes (RFC 8200 5) and a node ignores
 * a Packet Too Big below that (RFC 8201 4): a smaller @mtu6 (0 included)
 * counts as 1280, so the IPv4 sender learns 1260, whose packets fit any
 * IPv6 path, not 68 (or less), which it cannot use. The headers differ by
 * 20 bytes, 28 if the packet in error has a Fragment header (@frag: an
 * IPv4 fragment's translation carries 48 bytes of headers for 20).
 */
u32 tern_icmp_mtu_6to4(u32 mtu6, u32 mtu4_out, u32 mtu6_in, bool frag)
{
	u32 hd = frag ? sizeof(struct ipv6hdr) + sizeof(struct frag_hdr) -
			sizeof(struct iphdr) :
			sizeof(struct ipv6hdr) - sizeof(struct iphdr);
	u32 mtu = min3(max_t(u32, mtu6, IPV6_MIN_MTU) - hd, mtu4_out,
		       mtu6_in > hd ? mtu6_in - hd : 0);

	return clamp_t(u32, mtu, 68, 0xffff);
}

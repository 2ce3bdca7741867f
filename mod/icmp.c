// SPDX-License-Identifier: GPL-2.0
/*
 * ICMP: type mapping between ICMPv4 and ICMPv6 (RFC 7915 4.2, 5.2) and the
 * errors Tern itself sends. Errors go through the kernel's own senders,
 * so they get its rate limits (icmp_ratelimit, icmpv6 ratelimit).
 */

#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <net/icmp.h>
#include <net/ip.h>
#include <net/route.h>
#include "icmp.h"

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

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_XLAT_H
#define _TERN_XLAT_H

#include <linux/netfilter.h>
#include <linux/skbuff.h>
#include "instance.h"

/* Every exit of the packet path goes through one of these: one counter each. */
static inline unsigned int tern_pass(struct tern_instance *inst,
				     enum tern_stat why)
{
	tern_stats_inc(inst->stats, why);
	return NF_ACCEPT;
}

static inline unsigned int tern_drop(struct tern_instance *inst,
				     enum tern_stat why)
{
	tern_stats_inc(inst->stats, why);
	return NF_DROP;
}

static inline unsigned int tern_stolen(struct tern_instance *inst,
				       enum tern_stat why)
{
	tern_stats_inc(inst->stats, why);
	return NF_STOLEN;
}

/* GSO types translated as they are (the TCP ones switched 4 <-> 6). */
#define TERN_GSO_OK (SKB_GSO_TCPV4 | SKB_GSO_TCPV6 | SKB_GSO_TCP_ECN | \
		     SKB_GSO_TCP_FIXEDID | SKB_GSO_DODGY | SKB_GSO_UDP_L4)

/* Largest IPv4 packet sent with DF=0 (RFC 7915 5.1). */
#define TERN_DF_THRESHOLD 1260
/* Default lowest-ipv6-mtu (RFC 7915 4.1). */
#define TERN_LOWEST_IPV6_MTU 1280

unsigned int tern_xlat_6to4(struct tern_instance *inst, struct sk_buff *skb);
unsigned int tern_xlat_4to6(struct tern_instance *inst, struct sk_buff *skb);

#endif /* _TERN_XLAT_H */

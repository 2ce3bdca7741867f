/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_VERDICT_H
#define _TERN_VERDICT_H

/*
 * The verdicts of the packet path, below the driver (xlat/xlat.c), the
 * passes (xlat_6to4.c, xlat_4to6.c) and the ICMP errors (icmp_err.c):
 * they all end a packet with one of these, and these call none of them.
 */

#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/netfilter.h>
#include <linux/skbuff.h>
#include "xlat/icmp.h"
#include "core/inst.h"

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

/*
 * A drop by the translator's policy (an address it may not translate).
 * With icmp-on-drop the sender learns why: Communication Administratively
 * Prohibited (RFC 7915 5.4; 4->6: xlat_4to6.c). The callers never pass an
 * ICMPv6 message, which must not be answered; the kernel's sender applies
 * its rate limits.
 */
static inline unsigned int tern_refuse6(struct tern_instance *inst,
					const struct tern_config *cfg,
					struct sk_buff *skb, enum tern_stat why)
{
	if (cfg->icmp_on_drop)
		tern_icmp6_error(skb, ICMPV6_DEST_UNREACH,
				 ICMPV6_ADM_PROHIBITED, 0);
	return tern_drop(inst, why);
}

static inline unsigned int tern_stolen(struct tern_instance *inst,
				       enum tern_stat why)
{
	tern_stats_inc(inst->stats, why);
	return NF_STOLEN;
}

#endif /* _TERN_VERDICT_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_XLAT_H
#define _TERN_XLAT_H

#include <linux/bottom_half.h>
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
 * A drop by the translator's policy (an address it may not translate, a
 * UDP datagram without checksum). With icmp-on-drop the sender learns
 * why: Communication Administratively Prohibited (RFC 7915 4.4, 5.4). The
 * callers never pass an ICMPv4 error or an ICMPv6 message, which must not
 * be answered; the kernel's senders apply its rate limits.
 */
static inline unsigned int tern_refuse4(struct tern_instance *inst,
					const struct tern_config *cfg,
					struct sk_buff *skb, enum tern_stat why)
{
	if (cfg->icmp_on_drop)
		tern_icmp4_error(skb, ICMP_DEST_UNREACH, ICMP_PKT_FILTERED, 0);
	return tern_drop(inst, why);
}

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

/* Largest IPv4 packet sent with DF=0 (RFC 7915 5.1). */
#define TERN_DF_THRESHOLD 1260
/* Default lowest-ipv6-mtu (RFC 7915 4.1). */
#define TERN_LOWEST_IPV6_MTU 1280

/*
 * The driver (xlat/xlat.c), called by the hooks with rcu_read_lock() held
 * and BHs off: a netfilter verdict; @skb is consumed if it is NF_STOLEN.
 */
unsigned int tern_xlat_6to4(struct tern_instance *inst, struct sk_buff *skb);
unsigned int tern_xlat_4to6(struct tern_instance *inst, struct sk_buff *skb);

/*
 * The same from a netfilter hook or an xtables target: the packet path
 * keeps per-CPU state (counters, the host and route caches) and needs BHs
 * off. Hooks run in softirq as a rule, but those after an NFQUEUE verdict
 * run in process context with BHs on (nf_reinject()): then they are
 * turned off for the translation.
 */
static inline unsigned int tern_xlat_6to4_any(struct tern_instance *inst,
					      struct sk_buff *skb)
{
	unsigned int verdict;

	if (likely(in_softirq()))
		return tern_xlat_6to4(inst, skb);
	local_bh_disable();
	verdict = tern_xlat_6to4(inst, skb);
	local_bh_enable();
	return verdict;
}

static inline unsigned int tern_xlat_4to6_any(struct tern_instance *inst,
					      struct sk_buff *skb)
{
	unsigned int verdict;

	if (likely(in_softirq()))
		return tern_xlat_4to6(inst, skb);
	local_bh_disable();
	verdict = tern_xlat_4to6(inst, skb);
	local_bh_enable();
	return verdict;
}

/*
 * One pass of one direction (xlat_6to4.c, xlat_4to6.c): parse, ask the
 * mode, rewrite and send. Returns a netfilter verdict or one of the
 * driver's (TERN_XLAT_HAIRPIN, TERN_XLAT_SEGMENT, xlat/mode.h).
 */
struct tern_xlat;
unsigned int tern_6to4_translate(struct tern_xlat *x, struct sk_buff *skb);
unsigned int tern_4to6_translate(struct tern_xlat *x, struct sk_buff *skb);

#endif /* _TERN_XLAT_H */

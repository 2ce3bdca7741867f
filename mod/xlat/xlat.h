/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_XLAT_H
#define _TERN_XLAT_H

#include <linux/bottom_half.h>
#include <linux/netfilter.h>
#include <linux/skbuff.h>
#include "core/inst.h"

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

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_ICMP_ERR_H
#define _TERN_ICMP_ERR_H

#include <linux/skbuff.h>
#include "xlat/mode.h"

/* Size limits of translated ICMP errors (RFC 7915 4.2, 5.2). */
#define TERN_ICMP6_ERR_MAX	1280	/* the whole IPv6 packet */
#define TERN_ICMP4_ERR_MAX	576	/* the whole IPv4 packet */

/*
 * An ICMP error, rebuilt in the other family with its quoted packet
 * translated (the decision on both from x->mode). @x holds the outer
 * destination as the mode decided it (a6[1] or a4[1], dvia). They consume
 * @skb unless the verdict is NF_DROP; an ICMPv4 error that hairpins is
 * handed back to the driver (TERN_XLAT_HAIRPIN, in x->back_*).
 */
unsigned int tern_icmp_err_4to6(struct tern_xlat *x, struct sk_buff *skb);
unsigned int tern_icmp_err_6to4(struct tern_xlat *x, struct sk_buff *skb);

/*
 * The ICMPv4 error about IPv4 packet @skb a router would send (from its
 * destination to its source), built for a hairpin's second pass to
 * translate; NULL without memory.
 */
struct sk_buff *tern_icmp_err_about4(const struct sk_buff *skb, u8 type,
				     u8 code, __be32 info);

#endif /* _TERN_ICMP_ERR_H */

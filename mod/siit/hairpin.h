/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_HAIRPIN_H
#define _TERN_HAIRPIN_H

#include <linux/skbuff.h>
#include "core/instance.h"

struct dst_entry;

/*
 * Does the IPv4 packet of 6->4 translation to @daddr4, whose original IPv6
 * destination was @daddr6, hairpin (eam-hairpin-mode, RFC 7757 4.2)?
 * Caller holds RCU.
 */
bool tern_hairpins(const struct tern_instance *inst,
		   const struct tern_config *cfg, __be32 daddr4,
		   const struct in6_addr *daddr6);

/*
 * The last step of IPv6 -> IPv4 for a packet that hairpins: translates
 * @skb back to IPv6 and sends that (xlat-hairpin; the 4->6 pass bumps its
 * own counter too). @dst is the IPv4 route toward the destination, or NULL
 * if there is none (the U-turn does not need one). Always consumes the
 * reference on @dst; consumes @skb unless the verdict is NF_DROP (the
 * caller's netfilter core frees it then).
 */
unsigned int tern_hairpin_output(struct tern_instance *inst,
				 const struct tern_config *cfg,
				 struct sk_buff *skb, struct dst_entry *dst);

/*
 * The same for an ICMPv4 error built by tern_icmp_err_6to4() (@skb, whose
 * quoted packet's destination intrinsic mode also maps back by pool6).
 * Always consumes @skb and the reference on @dst; returns NF_STOLEN.
 */
unsigned int tern_hairpin_error(struct tern_instance *inst,
				const struct tern_config *cfg,
				struct sk_buff *skb, struct dst_entry *dst);

/*
 * True while this CPU translates back an intrinsically hairpinned packet
 * of @inst whose IPv4 source is @a4 (or, for an ICMP error, whose
 * quoted packet's destination is @a4): the EAMT is skipped for it, pool6
 * maps it (see tern_map_4to6()).
 */
bool tern_hairpin_src_by_pool6(const struct tern_instance *inst, __be32 a4);

#endif /* _TERN_HAIRPIN_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_HAIRPIN_H
#define _TERN_HAIRPIN_H

#include <linux/skbuff.h>
#include "instance.h"

struct dst_entry;

/*
 * The last step of IPv6 -> IPv4: sends the translated packet @skb along
 * its IPv4 route @dst (counted xlat-6to4), or, when eam-hairpin-mode says
 * it hairpins (RFC 7757 4.2), translates it back to IPv6 and sends that
 * instead (xlat-hairpin; the 4->6 pass bumps its own counter too).
 * @daddr6 is the packet's original IPv6 destination. Always consumes the
 * reference on @dst; consumes @skb unless the verdict is NF_DROP (the
 * caller's netfilter core frees it then).
 */
unsigned int tern_hairpin_output(struct tern_instance *inst,
				 const struct tern_config *cfg,
				 struct sk_buff *skb, struct dst_entry *dst,
				 const struct in6_addr *daddr6);

/*
 * True while this CPU translates back an intrinsically hairpinned packet
 * of @inst whose IPv4 source is @a4: the EAMT is skipped for it, pool6
 * maps it (see tern_map_4to6()).
 */
bool tern_hairpin_src_by_pool6(const struct tern_instance *inst, __be32 a4);

#endif /* _TERN_HAIRPIN_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_ICMP_ERR_H
#define _TERN_ICMP_ERR_H

#include <linux/skbuff.h>
#include "core/instance.h"
#include "xlat/packet.h"

/* Size limits of translated ICMP errors (RFC 7915 4.2, 5.2). */
#define TERN_ICMP6_ERR_MAX	1280	/* the whole IPv6 packet */
#define TERN_ICMP4_ERR_MAX	576	/* the whole IPv4 packet */

unsigned int tern_icmp_err_4to6(struct tern_instance *inst,
				const struct tern_config *cfg,
				struct sk_buff *skb, const struct tern_pkt *p,
				const struct in6_addr *daddr, int dvia);
unsigned int tern_icmp_err_6to4(struct tern_instance *inst,
				const struct tern_config *cfg,
				struct sk_buff *skb, const struct tern_pkt *p,
				__be32 daddr, int dvia);

/* Shared with the packet path (xlat_*.c). */
int tern_4to6_saddr(const struct tern_instance *inst,
		    const struct tern_config *cfg, __be32 saddr, __be32 daddr,
		    int dvia, struct in6_addr *a6, int *why);
int tern_6to4_saddr(const struct tern_instance *inst,
		    const struct tern_config *cfg, const struct in6_addr *saddr,
		    __be32 daddr, int dvia, __be32 *a4, int *why);

#endif /* _TERN_ICMP_ERR_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_MODE_ERR_H
#define _TERN_NAT64_MODE_ERR_H

#include <linux/in.h>
#include "nat64/table.h"
#include "xlat/mode.h"

/* The table of a transport protocol (ICMP: either family's); -1: none. */
static inline int tern_l4_of(u8 proto)
{
	switch (proto) {
	case IPPROTO_TCP:
		return TERN_L4_TCP;
	case IPPROTO_UDP:
		return TERN_L4_UDP;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		return TERN_L4_ICMP;
	}
	return -1;
}

/* ICMP errors through sessions (nat64/mode_err.c): the ops of the mode. */
int tern_nat64_quote4(struct tern_xlat *x, __be32 s4, __be32 d4, u8 proto,
		      const struct tern_l4id *id);
int tern_nat64_quote6(struct tern_xlat *x, const struct in6_addr *s6,
		      const struct in6_addr *d6, u8 proto,
		      const struct tern_l4id *id);
bool tern_nat64_inner6(const struct tern_xlat *x, const struct in6_addr *s6,
		       const struct in6_addr *d6, __be32 *s4, __be32 *d4,
		       const struct tern_l4id *id, __be16 *nport);
bool tern_nat64_inner4(const struct tern_xlat *x, __be32 s4, __be32 d4,
		       struct in6_addr *s6, struct in6_addr *d6,
		       const struct tern_l4id *id, __be16 *nport);

#endif /* _TERN_NAT64_MODE_ERR_H */

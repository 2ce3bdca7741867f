/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_IPID_H
#define _TERN_IPID_H

#include <linux/types.h>

struct net;

void tern_ipid_init(void);
/* The next Identification of the flow of namespace @net. */
__be16 tern_ipid_next(const struct net *net, __be32 saddr, __be32 daddr,
		      u8 proto);
/*
 * The first of @n consecutive Identifications of the flow, all reserved
 * (the segments of a GSO super-packet: its segmentation numbers them from
 * the first on).
 */
__be16 tern_ipid_reserve(const struct net *net, __be32 saddr, __be32 daddr,
			 u8 proto, u16 n);
/* tern_ipid_reserve() at jiffies @now (it passes jiffies; KUnit its own). */
__be16 tern_ipid_reserve_at(const struct net *net, __be32 saddr,
			    __be32 daddr, u8 proto, u16 n, u32 now);

#endif /* _TERN_IPID_H */

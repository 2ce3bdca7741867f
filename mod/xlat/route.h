/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_ROUTE_H
#define _TERN_ROUTE_H

#include <linux/skbuff.h>

struct net;
struct in6_addr;
struct tern_instance;

struct dst_entry *tern_route4_src(struct net *net, const struct sk_buff *skb,
				  __be32 saddr, __be32 daddr, u8 tos, u8 proto,
				  __be32 *src);
struct dst_entry *tern_route4(struct net *net, const struct sk_buff *skb,
			      __be32 saddr, __be32 daddr, u8 tos, u8 proto);
struct dst_entry *tern_route6(struct net *net, const struct sk_buff *skb,
			      const struct in6_addr *saddr,
			      const struct in6_addr *daddr, u8 proto);
/*
 * tern_route4() and tern_route6() for the packet path: answered from the
 * instance's route cache (core/route_cache.c) where it may. BHs off,
 * under RCU.
 */
struct dst_entry *tern_route4_fast(const struct tern_instance *inst,
				   const struct sk_buff *skb, __be32 saddr,
				   __be32 daddr, u8 tos, u8 proto);
struct dst_entry *tern_route6_fast(const struct tern_instance *inst,
				   const struct sk_buff *skb,
				   const struct in6_addr *saddr,
				   const struct in6_addr *daddr, u8 proto);
bool tern_dst_local(const struct dst_entry *dst);
void tern_output(struct net *net, struct sk_buff *skb, struct dst_entry *dst);

#endif /* _TERN_ROUTE_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_ROUTE_H
#define _TERN_ROUTE_H

#include <linux/skbuff.h>
#include <net/dst.h>

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
 * instance's route cache (core/route_cache.c) where it may. Such a route
 * is lent (*@lent true): no reference of the caller's, good until its
 * RCU read section ends; otherwise it is a reference of the caller's.
 * tern_route_put(), tern_route_hold() and tern_output_fast() take either.
 * BHs off, under RCU.
 */
struct dst_entry *tern_route4_fast(const struct tern_instance *inst,
				   const struct sk_buff *skb, __be32 saddr,
				   __be32 daddr, u8 tos, u8 proto, bool *lent);
struct dst_entry *tern_route6_fast(const struct tern_instance *inst,
				   const struct sk_buff *skb,
				   const struct in6_addr *saddr,
				   const struct in6_addr *daddr, u8 proto,
				   bool *lent);

/* Done with a route of tern_route*_fast() (or NULL). */
static inline void tern_route_put(struct dst_entry *dst, bool lent)
{
	if (!lent)
		dst_release(dst);
}

/* A reference of the caller's on a route of tern_route*_fast(), or NULL. */
static inline struct dst_entry *tern_route_hold(struct dst_entry *dst,
						bool lent)
{
	if (dst && lent)
		dst_hold(dst);
	return dst;
}

bool tern_dst_local(const struct dst_entry *dst);
void tern_output(struct net *net, struct sk_buff *skb, struct dst_entry *dst);
/* tern_output() with a route of tern_route*_fast(): consumes it. */
void tern_output_fast(struct net *net, struct sk_buff *skb,
		      struct dst_entry *dst, bool lent);

#endif /* _TERN_ROUTE_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_ROUTE_H
#define _TERN_ROUTE_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/dst.h>
#include <net/ip6_fib.h>
#include <net/route.h>

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
 * under RCU. A route from the cache comes without a reference (*@noref
 * true): valid until the caller's RCU read-side section ends, and
 * tern_dst_ref() makes it one of the caller's own before another lookup.
 */
struct dst_entry *tern_route4_fast(const struct tern_instance *inst,
				   const struct sk_buff *skb, __be32 saddr,
				   __be32 daddr, u8 tos, u8 proto, bool *noref);
struct dst_entry *tern_route6_fast(const struct tern_instance *inst,
				   const struct sk_buff *skb,
				   const struct in6_addr *saddr,
				   const struct in6_addr *daddr, u8 proto,
				   bool *noref);

/* The caller is done with a route of tern_route*_fast(). */
static inline void tern_dst_put(struct dst_entry *dst, bool noref)
{
	if (!noref)
		dst_release(dst);
}

/* A route of tern_route*_fast() as a reference of the caller's own. */
static inline struct dst_entry *tern_dst_ref(struct dst_entry *dst,
					     bool noref)
{
	return noref ? dst_clone(dst) : dst;
}

/*
 * Whether @dst delivers to this host (RTN_LOCAL, an IPv6 local route):
 * translated packets never go there. The host's answers would not come
 * back through Tern's hooks, and an ICMP error "from" the IPv6 side would
 * be forged.
 */
static inline bool tern_dst_local(const struct dst_entry *dst)
{
	if (dst->ops->family == AF_INET)
		return ((const struct rtable *)dst)->rt_type != RTN_UNICAST;
	return ((const struct rt6_info *)dst)->rt6i_flags & RTF_LOCAL ||
	       dst->dev->flags & IFF_LOOPBACK;
}

/* Sends @skb by @dst (consumed: the skb and the route's reference). */
void tern_output(struct net *net, struct sk_buff *skb, struct dst_entry *dst);
/* The same with a route of tern_route*_fast() (@noref: no reference). */
void tern_output_fast(struct net *net, struct sk_buff *skb,
		      struct dst_entry *dst, bool noref);

#endif /* _TERN_ROUTE_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Routing and output of translated packets, in the namespace of the
 * instance. The translated packet is a forwarded one: it skips LOCAL_OUT
 * and FORWARD and goes through POST_ROUTING.
 */

#include <net/dst.h>
#include <net/ip.h>
#include <net/ip6_fib.h>
#include <net/ip6_route.h>
#include <net/route.h>
#include <net/xfrm.h>
#include "core/inst.h"
#include "core/route_cache.h"
#include "xlat/route.h"

/*
 * Returns a referenced unicast (or local) route, or NULL. With @saddr 0,
 * *@src gets the source the kernel would pick.
 */
struct dst_entry *tern_route4_src(struct net *net, const struct sk_buff *skb,
				  __be32 saddr, __be32 daddr, u8 tos, u8 proto,
				  __be32 *src)
{
	struct flowi4 fl4 = {
		.daddr = daddr,
		.saddr = saddr,
		.flowi4_tos = RT_TOS(tos),
		.flowi4_proto = proto,
		.flowi4_mark = skb->mark,
		/* The source belongs to the IPv6 side, not to this host. */
		.flowi4_flags = FLOWI_FLAG_ANYSRC,
	};
	struct rtable *rt;

	rt = ip_route_output_key(net, &fl4);
	if (IS_ERR(rt))
		return NULL;
	if (rt->rt_type != RTN_UNICAST && rt->rt_type != RTN_LOCAL) {
		ip_rt_put(rt);
		return NULL;
	}
	*src = fl4.saddr;
	return &rt->dst;
}

struct dst_entry *tern_route4(struct net *net, const struct sk_buff *skb,
			      __be32 saddr, __be32 daddr, u8 tos, u8 proto)
{
	__be32 src;

	return tern_route4_src(net, skb, saddr, daddr, tos, proto, &src);
}

struct dst_entry *tern_route6(struct net *net, const struct sk_buff *skb,
			      const struct in6_addr *saddr,
			      const struct in6_addr *daddr, u8 proto)
{
	struct flowi6 fl6 = {
		.daddr = *daddr,
		.saddr = *saddr,
		.flowi6_proto = proto,
		.flowi6_mark = skb->mark,
	};
	struct dst_entry *dst;

	dst = ip6_route_output(net, NULL, &fl6);
	if (dst->error) {
		dst_release(dst);
		return NULL;
	}
	/*
	 * IPsec output policies, as ip_route_output_key() asks them for
	 * IPv4: a bundle to go by, or a refusal (a policy that blocks, no
	 * state yet). Consumes @dst on error.
	 */
	dst = xfrm_lookup_route(net, dst, flowi6_to_flowi(&fl6), NULL, 0);
	return IS_ERR(dst) ? NULL : dst;
}

struct dst_entry *tern_route4_fast(const struct tern_instance *inst,
				   const struct sk_buff *skb, __be32 saddr,
				   __be32 daddr, u8 tos, u8 proto, bool *lent)
{
	struct tern_rt4_key k = { .saddr = saddr, .daddr = daddr,
				  .mark = skb->mark,
				  .tos = tos & TERN_RT4_TOS_MASK,
				  .proto = proto };
	struct dst_entry *dst;

	dst = tern_rtc4_get(inst->routes, inst->net, &k);
	*lent = !!dst;
	if (dst)
		return dst;
	dst = tern_route4(inst->net, skb, saddr, daddr, tos, proto);
	if (dst)
		tern_rtc4_put(inst->routes, inst->net, &k, dst);
	return dst;
}

struct dst_entry *tern_route6_fast(const struct tern_instance *inst,
				   const struct sk_buff *skb,
				   const struct in6_addr *saddr,
				   const struct in6_addr *daddr, u8 proto,
				   bool *lent)
{
	struct tern_rt6_key k = { .saddr = *saddr, .daddr = *daddr,
				  .mark = skb->mark, .proto = proto };
	struct dst_entry *dst;

	dst = tern_rtc6_get(inst->routes, inst->net, &k);
	*lent = !!dst;
	if (dst)
		return dst;
	dst = tern_route6(inst->net, skb, saddr, daddr, proto);
	if (dst)
		tern_rtc6_put(inst->routes, inst->net, &k, dst);
	return dst;
}

/*
 * Whether @dst delivers to this host (RTN_LOCAL, an IPv6 local route):
 * translated packets never go there. The host's answers would not come
 * back through Tern's hooks, and an ICMP error "from" the IPv6 side would
 * be forged.
 */
bool tern_dst_local(const struct dst_entry *dst)
{
	if (dst->ops->family == AF_INET)
		return ((const struct rtable *)dst)->rt_type != RTN_UNICAST;
	return ((const struct rt6_info *)dst)->rt6i_flags & RTF_LOCAL ||
	       dst->dev->flags & IFF_LOOPBACK;
}

/* Consumes @skb and the reference on @dst. */
void tern_output(struct net *net, struct sk_buff *skb, struct dst_entry *dst)
{
	skb_dst_drop(skb);
	skb_dst_set(skb, dst);
	skb->dev = dst->dev;
	dst_output(net, NULL, skb);
}

void tern_output_fast(struct net *net, struct sk_buff *skb,
		      struct dst_entry *dst, bool lent)
{
	if (!lent) {
		tern_output(net, skb, dst);
		return;
	}
	skb_dst_drop(skb);
	skb_dst_set_noref(skb, dst);
	skb->dev = dst->dev;
	dst_output(net, NULL, skb);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The output routes of the translated packets, kept per instance and CPU
 * for the flows seen last (a few direct-mapped slots per family), as a
 * socket keeps its route: a slot holds a reference on the route the kernel
 * gave, and the route is used again while dst_check() says it is valid.
 * That is the kernel's own test for a cached route: an IPv4 route dies
 * with any change of the FIB (net->ipv4.rt_genid) and when a PMTU
 * exception or the removal of its nexthop marks it; an IPv6 one when its
 * fib6 node changes (the cookie). A route whose device went away points
 * at another namespace's device: it dies too.
 *
 * A slot is looked up by all the lookup depends on: addresses, mark, TOS
 * and protocol. An IPv4 slot is found by its destination, mark, TOS and
 * protocol, and serves other sources too once the FIB said its route has
 * one path (the source only chooses between the paths of a multipath
 * route; the route the kernel gives is the nexthop's, whatever the
 * source): a NAT64 with many pool4 addresses, or a SIIT with many hosts,
 * then asks the kernel once a destination and CPU, not once a source
 * too. A multipath destination's routes are kept by source and
 * destination, in slots of their own. Only where that is all: no policy
 * routing rule of one's own (the default rules only), multipath hashing
 * on addresses (policy 0, the default) and not by neighbour state, IPv6
 * forwarding on (otherwise
 * router reachability chooses), no nexthop objects (`ip nexthop`, as FRR
 * installs routes: a group skips members whose gateway's neighbour is not
 * valid, whatever the sysctl), for IPv4 at most one default route in the
 * main and default tables (between several the kernel chooses by their
 * gateways' neighbour state), and no IPsec output policy nor a default
 * that blocks (the lookups also ask xfrm: xlat/route.c). A neighbour
 * changing its state changes no generation count. Otherwise every packet
 * asks the kernel, as before.
 *
 * A hit lends the slot's route: the packet goes out with it unreferenced
 * (skb_dst_set_noref(), as forwarding does with its input route), which
 * saves an atomic increment and decrement of the route's count (shared
 * by the CPUs that use that route) a packet. Replacing or dropping a
 * slot releases its route: dst_release() frees it after a grace period,
 * so the memory of a route lent stays until the borrower's RCU read
 * section ends, but its count may be 0 by then. A packet that outlives
 * the section (a queue) takes a reference of its own (skb_dst_force());
 * where the count is 0 it goes on without a route, as a forwarded packet
 * would.
 */

#include <linux/hash.h>
#include <linux/ip.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/xfrm.h>
#include <net/dst.h>
#include <net/ip_fib.h>
#include <net/nexthop.h>
#include <net/ip6_fib.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include "core/route_cache.h"

#define TERN_RTC4_BITS 3
#define TERN_RTC6_BITS 2
static_assert(TERN_RT4_TOS_MASK == (IPTOS_TOS_MASK & ~3));

struct tern_rtc4_slot {
	struct tern_rt4_key key;
	/*
	 * Its route has one path (any_src: another source gets it too) or
	 * several (multi: no need to ask again) as the FIB said while the
	 * route was valid; both go with the route.
	 */
	bool any_src, multi;
	struct dst_entry *dst;		/* a reference of its own; or NULL */
};

struct tern_rtc6_slot {
	struct tern_rt6_key key;
	u32 cookie;
	struct dst_entry *dst;
};

struct tern_route_cache {
	struct tern_rtc4_slot s4[1 << TERN_RTC4_BITS];	/* by destination */
	/* By source and destination: of multipath destinations. */
	struct tern_rtc4_slot x4[1 << TERN_RTC4_BITS];
	struct tern_rtc6_slot s6[1 << TERN_RTC6_BITS];
};

struct tern_route_cache __percpu *tern_route_cache_alloc(void)
{
	return alloc_percpu_gfp(struct tern_route_cache,
				GFP_KERNEL_ACCOUNT);
}

void tern_route_cache_free(struct tern_route_cache __percpu *rc)
{
	struct tern_route_cache *c;
	unsigned int i;
	int cpu;

	if (!rc)
		return;
	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(rc, cpu);
		for (i = 0; i < ARRAY_SIZE(c->s4); i++) {
			dst_release(c->s4[i].dst);
			dst_release(c->x4[i].dst);
		}
		for (i = 0; i < ARRAY_SIZE(c->s6); i++)
			dst_release(c->s6[i].dst);
	}
	free_percpu(rc);
}

/* IPsec output policies (or a default that blocks) decide per packet. */
static bool tern_rtc_xfrm_free(const struct net *net)
{
#ifdef CONFIG_XFRM
	if (READ_ONCE(net->xfrm.policy_count[XFRM_POLICY_OUT]) ||
	    READ_ONCE(net->xfrm.policy_default[XFRM_POLICY_OUT]) !=
	    XFRM_USERPOLICY_ACCEPT)
		return false;
#endif
	return true;
}

/* Nexthop objects: a group chooses by neighbour state. */
static bool tern_rtc_nh_free(const struct net *net)
{
	return !READ_ONCE(net->nexthop.rb_root.rb_node);
}

#ifdef CONFIG_IP_MULTIPLE_TABLES
/* Several default routes: fib_select_default() goes by neighbour state. */
static bool tern_rtc4_one_default(const struct fib_table *tb)
{
	return !tb || READ_ONCE(tb->tb_num_default) <= 1;
}
#endif

/* Under rcu_read_lock(), as the packet path runs. */
static bool tern_rtc4_usable(const struct net *net)
{
#ifdef CONFIG_IP_MULTIPLE_TABLES
	if (READ_ONCE(net->ipv4.fib_has_custom_rules) ||
	    !tern_rtc4_one_default(rcu_dereference(net->ipv4.fib_main)) ||
	    !tern_rtc4_one_default(rcu_dereference(net->ipv4.fib_default)))
		return false;
#endif
	if (!tern_rtc_nh_free(net))
		return false;
#ifdef CONFIG_IP_ROUTE_MULTIPATH
	/* Nexthops chosen by neighbour state change no generation count. */
	if (READ_ONCE(net->ipv4.sysctl_fib_multipath_hash_policy) ||
	    READ_ONCE(net->ipv4.sysctl_fib_multipath_use_neigh))
		return false;
#endif
	return tern_rtc_xfrm_free(net);
}

static bool tern_rtc6_usable(const struct net *net)
{
#ifdef CONFIG_IPV6_MULTIPLE_TABLES
	if (READ_ONCE(net->ipv6.fib6_has_custom_rules))
		return false;
#endif
	/*
	 * Not forwarding, a lookup prefers reachable routers and takes
	 * turns between them (RT6_LOOKUP_F_REACHABLE): no cookie changes.
	 */
	return !ip6_multipath_hash_policy(net) &&
	       READ_ONCE(net->ipv6.devconf_all->forwarding) &&
	       tern_rtc_nh_free(net) && tern_rtc_xfrm_free(net);
}

/* By destination: a slot serves every source its route allows. */
static struct tern_rtc4_slot *tern_rtc4_slot(struct tern_route_cache *c,
					     const struct tern_rt4_key *k)
{
	u32 h = (__force u32)k->daddr ^ k->mark;

	return &c->s4[hash_32(h, TERN_RTC4_BITS)];
}

static struct tern_rtc4_slot *tern_rtc4_xslot(struct tern_route_cache *c,
					      const struct tern_rt4_key *k)
{
	u32 h = (__force u32)k->saddr ^ (__force u32)k->daddr ^ k->mark;

	return &c->x4[hash_32(h, TERN_RTC4_BITS)];
}

/* The same lookup but for the source. */
static bool tern_rtc4_dst_eq(const struct tern_rt4_key *a,
			     const struct tern_rt4_key *b)
{
	return a->daddr == b->daddr && a->mark == b->mark &&
	       a->tos == b->tos && a->proto == b->proto;
}

static struct tern_rtc6_slot *tern_rtc6_slot(struct tern_route_cache *c,
					     const struct tern_rt6_key *k)
{
	u32 h = (__force u32)(k->saddr.s6_addr32[3] ^ k->daddr.s6_addr32[2] ^
			      k->daddr.s6_addr32[3]) ^ k->mark;

	return &c->s6[hash_32(h, TERN_RTC6_BITS)];
}

/* A slot's route, lent to the caller if still good, else dropped. */
static struct dst_entry *tern_rtc_take(struct dst_entry **slot,
				       struct net *net, bool usable,
				       u32 cookie)
{
	struct dst_entry *dst = *slot;

	if (!usable || !dst_check(dst, cookie) ||
	    !net_eq(dev_net(dst->dev), net)) {
		*slot = NULL;
		dst_release(dst);
		return NULL;
	}
	return dst;
}

static void tern_rtc_keep(struct dst_entry **slot, struct dst_entry *dst)
{
	struct dst_entry *old = *slot;

	dst_hold(dst);
	*slot = dst;
	dst_release(old);
}

/*
 * A source the kernel neither refuses nor looks up by (it checks these
 * before the FIB): one whose route another source's may be.
 */
static bool tern_rtc4_src_plain(__be32 saddr)
{
	return !ipv4_is_loopback(saddr) && !ipv4_is_multicast(saddr) &&
	       !ipv4_is_lbcast(saddr) && !ipv4_is_zeronet(saddr);
}

/*
 * Whether the kernel's lookup for @k gives every plain source the same
 * route: the destination is an ordinary unicast address (for the others
 * it looks up by source), and the FIB's route for it has one path
 * (several: the source's hash chooses). As ip_route_output_key() looks
 * up (no rule of one's own: main, then default); the route's validity is
 * the slot's (any change of the FIB fails dst_check()).
 */
static bool tern_rtc4_one_path(struct net *net, const struct tern_rt4_key *k)
{
	struct flowi4 fl4 = {
		.daddr = k->daddr,
		.flowi4_iif = LOOPBACK_IFINDEX,
		.flowi4_tos = k->tos,
		.flowi4_scope = RT_SCOPE_UNIVERSE,
		.flowi4_mark = k->mark,
		.flowi4_proto = k->proto,
	};
	struct fib_result res;

	if (ipv4_is_multicast(k->daddr) || ipv4_is_lbcast(k->daddr) ||
	    ipv4_is_zeronet(k->daddr))
		return false;
	if (fib_lookup(net, &fl4, &res, 0))
		return false;
	return !res.fi || fib_info_num_path(res.fi) == 1;
}

struct dst_entry *tern_rtc4_get(struct tern_route_cache __percpu *rc,
				struct net *net, const struct tern_rt4_key *k)
{
	struct tern_route_cache *c = this_cpu_ptr(rc);
	struct tern_rtc4_slot *s = tern_rtc4_slot(c, k);
	struct dst_entry *dst;

	if (s->dst && tern_rtc4_dst_eq(&s->key, k)) {
		dst = tern_rtc_take(&s->dst, net, tern_rtc4_usable(net), 0);
		if (dst && (s->key.saddr == k->saddr ||
			    (s->any_src && tern_rtc4_src_plain(k->saddr))))
			return dst;
		/* Another source: once a route, the FIB says whether it may. */
		if (dst && !s->any_src && !s->multi &&
		    tern_rtc4_src_plain(k->saddr)) {
			if (tern_rtc4_one_path(net, k)) {
				s->any_src = true;
				return dst;
			}
			s->multi = true;
		}
	}
	/* A multipath destination's (or an odd source's): this source's. */
	s = tern_rtc4_xslot(c, k);
	if (!s->dst || !tern_rtc4_dst_eq(&s->key, k) || s->key.saddr != k->saddr)
		return NULL;
	return tern_rtc_take(&s->dst, net, tern_rtc4_usable(net), 0);
}

struct dst_entry *tern_rtc6_get(struct tern_route_cache __percpu *rc,
				struct net *net, const struct tern_rt6_key *k)
{
	struct tern_rtc6_slot *s = tern_rtc6_slot(this_cpu_ptr(rc), k);

	if (!s->dst || !ipv6_addr_equal(&s->key.daddr, &k->daddr) ||
	    !ipv6_addr_equal(&s->key.saddr, &k->saddr) ||
	    s->key.mark != k->mark || s->key.proto != k->proto)
		return NULL;
	return tern_rtc_take(&s->dst, net, tern_rtc6_usable(net), s->cookie);
}

void tern_rtc4_put(struct tern_route_cache __percpu *rc, struct net *net,
		   const struct tern_rt4_key *k, struct dst_entry *dst)
{
	struct tern_rtc4_slot *s;

	if (!tern_rtc4_usable(net))
		return;
	s = tern_rtc4_slot(this_cpu_ptr(rc), k);
	/*
	 * A miss with the destination's slot there (just found valid): the
	 * destination is multipath, or the source odd. The slot stays; this
	 * source's route goes by source and destination.
	 */
	if (s->dst && tern_rtc4_dst_eq(&s->key, k) && s->key.saddr != k->saddr)
		s = tern_rtc4_xslot(this_cpu_ptr(rc), k);
	s->any_src = false;
	s->multi = false;
	tern_rtc_keep(&s->dst, dst);
	s->key = *k;
}

void tern_rtc6_put(struct tern_route_cache __percpu *rc, struct net *net,
		   const struct tern_rt6_key *k, struct dst_entry *dst)
{
	struct tern_rtc6_slot *s;

	if (!tern_rtc6_usable(net))
		return;
	s = tern_rtc6_slot(this_cpu_ptr(rc), k);
	tern_rtc_keep(&s->dst, dst);
	s->key = *k;
	s->cookie = rt6_get_cookie((const struct rt6_info *)dst);
}

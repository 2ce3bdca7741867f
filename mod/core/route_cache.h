/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_ROUTE_CACHE_H
#define _TERN_ROUTE_CACHE_H

#include <linux/in6.h>
#include <linux/types.h>

struct net;
struct dst_entry;
struct tern_route_cache;

/* What an output route is looked up by (the rest of the flow is fixed). */
struct tern_rt4_key {
	__be32 saddr, daddr;
	u32 mark;
	u8 tos, proto;		/* tos: the bits of TERN_RT4_TOS_MASK */
};

/*
 * The TOS bits an IPv4 route lookup compares (6.1's IPTOS_RT_MASK; 6.12
 * keeps the DSCP, the same bits of an RT_TOS() value): not the ECN
 * field, which a flow's packets change (ECT data, Not-ECT SYNs and ACKs).
 */
#define TERN_RT4_TOS_MASK	0x1c

struct tern_rt6_key {
	struct in6_addr saddr, daddr;
	u32 mark;
	u8 proto;
};

struct tern_route_cache __percpu *tern_route_cache_alloc(void);
/* Drops the routes kept; once no packet can reach @rc any more. */
void tern_route_cache_free(struct tern_route_cache __percpu *rc);

/*
 * The route kept for @k on this CPU, if it is still valid (dst_check())
 * and may be used in @net; otherwise NULL. Lent, not referenced: its
 * memory stays until the caller's RCU read section ends, its count may
 * drop to 0 at this CPU's next get or put (the slot's reference gone).
 * To keep it longer, dst_hold() it before that. BHs off, under RCU.
 */
struct dst_entry *tern_rtc4_get(struct tern_route_cache __percpu *rc,
				struct net *net, const struct tern_rt4_key *k);
struct dst_entry *tern_rtc6_get(struct tern_route_cache __percpu *rc,
				struct net *net, const struct tern_rt6_key *k);
/*
 * Keeps @dst (a reference of its own), the route the kernel gave for @k,
 * if the routes of @net depend on @k only. BHs off, under RCU.
 */
void tern_rtc4_put(struct tern_route_cache __percpu *rc, struct net *net,
		   const struct tern_rt4_key *k, struct dst_entry *dst);
void tern_rtc6_put(struct tern_route_cache __percpu *rc, struct net *net,
		   const struct tern_rt6_key *k, struct dst_entry *dst);

#endif /* _TERN_ROUTE_CACHE_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_HOST_H
#define _TERN_HOST_H

#include <linux/in6.h>
#include <linux/types.h>

struct net;
struct tern_host_cache;

struct tern_host_cache __percpu *tern_host_cache_alloc(void);
void tern_host_cache_free(struct tern_host_cache __percpu *hc);

/*
 * The kind of IPv4 address @a is for this host, as inet_addr_type():
 * RTN_LOCAL (its own), RTN_BROADCAST (a broadcast address of one of its
 * subnets), otherwise RTN_UNICAST (or RTN_MULTICAST). With BHs off.
 */
unsigned int tern_host4_type(struct tern_host_cache __percpu *hc,
			     struct net *net, __be32 a);
/* Is @a one of this host's IPv6 addresses (ipv6_chk_addr())? BHs off. */
bool tern_host6_is_local(struct tern_host_cache __percpu *hc,
			 struct net *net, const struct in6_addr *a);

#endif /* _TERN_HOST_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Is an address this host's? RFC 7915's rules ask it of every packet: an
 * IPv6 destination of this host is not translated, an IPv4 source of this
 * host is a martian, an IPv4 destination of this host is delivered. The
 * kernel answers with a lookup in its IPv6 address hash or in the local
 * FIB table, each in an RCU read section of its own: two of them per 4->6
 * packet.
 *
 * Each instance keeps the answers for the addresses it saw last, per CPU
 * (a few direct-mapped slots), valid while the kernel's generation
 * counters stand still:
 * - IPv4: net->ipv4.rt_genid, bumped by rt_cache_flush() whenever the FIB
 *   changes in a way the kernel's own cached routes must see: an address
 *   added or removed, any route added, a route removed once a lookup used
 *   it (so every answer "local" or "broadcast" given here). An answer is
 *   exactly as fresh as the kernel's route cache.
 * - IPv6: net->ipv6.dev_addr_genid, bumped at every address event
 *   (RTM_NEWADDR, DAD done included, and RTM_DELADDR).
 * The counter is read before the lookup: a change racing with it bumps
 * the counter after, and the answer dies with the old value.
 */

#include <linux/hash.h>
#include <linux/inetdevice.h>
#include <linux/percpu.h>
#include <net/addrconf.h>
#include <net/route.h>
#include <net/net_namespace.h>
#include "core/host.h"

#define TERN_HOST4_BITS 3
#define TERN_HOST6_BITS 2

struct tern_host_cache {
	int gen4;
	int gen6;
	u8 valid4;			/* a bit per slot */
	u8 valid6;
	u8 type4[1 << TERN_HOST4_BITS];
	bool local6[1 << TERN_HOST6_BITS];
	__be32 addr4[1 << TERN_HOST4_BITS];
	struct in6_addr addr6[1 << TERN_HOST6_BITS];
};

struct tern_host_cache __percpu *tern_host_cache_alloc(void)
{
	return alloc_percpu_gfp(struct tern_host_cache, GFP_KERNEL_ACCOUNT);
}

void tern_host_cache_free(struct tern_host_cache __percpu *hc)
{
	free_percpu(hc);
}

unsigned int tern_host4_type(struct tern_host_cache __percpu *hc,
			     struct net *net, __be32 a)
{
	struct tern_host_cache *c = this_cpu_ptr(hc);
	unsigned int i = hash_32((__force u32)a, TERN_HOST4_BITS);
	int gen = atomic_read(&net->ipv4.rt_genid);
	unsigned int type;

	if (c->gen4 != gen) {
		c->gen4 = gen;
		c->valid4 = 0;
	} else if ((c->valid4 & BIT(i)) && c->addr4[i] == a) {
		return c->type4[i];
	}
	smp_rmb();	/* the counter, then the table */
	type = inet_addr_type(net, a);
	c->addr4[i] = a;
	c->type4[i] = type;
	c->valid4 |= BIT(i);
	return type;
}

bool tern_host6_is_local(struct tern_host_cache __percpu *hc,
			 struct net *net, const struct in6_addr *a)
{
	struct tern_host_cache *c = this_cpu_ptr(hc);
	unsigned int i = hash_32((__force u32)(a->s6_addr32[2] ^
					       a->s6_addr32[3]),
				 TERN_HOST6_BITS);
	int gen = atomic_read(&net->ipv6.dev_addr_genid);
	bool local;

	if (c->gen6 != gen) {
		c->gen6 = gen;
		c->valid6 = 0;
	} else if ((c->valid6 & BIT(i)) && ipv6_addr_equal(&c->addr6[i], a)) {
		return c->local6[i];
	}
	smp_rmb();	/* as in tern_host4_type() */
	local = ipv6_chk_addr(net, a, NULL, 0);
	c->addr6[i] = *a;
	c->local6[i] = local;
	c->valid6 |= BIT(i);
	return local;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * IPv4 Identification for translated packets that need one (RFC 6864,
 * RFC 4963): a counter per flow bucket, each starting at a random value,
 * the flow's ID its bucket's counter plus an offset of its own (RFC 7739
 * 5.4: another flow of the bucket does not tell this one's next ID). The
 * bucket and the offset are a keyed hash of the flow and its namespace:
 * 65,536 buckets, a namespace's flows never sure to share another's. A
 * packet costs one keyed hash and one atomic increment; the random number
 * generator is only used at load time.
 */

#include <linux/atomic.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <net/netns/hash.h>
#include "xlat/ipid.h"

#define TERN_IPID_BITS 16

static atomic_t tern_ipid_ctr[1 << TERN_IPID_BITS];
static hsiphash_key_t tern_ipid_key;

void tern_ipid_init(void)
{
	int i;

	get_random_bytes(&tern_ipid_key, sizeof(tern_ipid_key));
	for (i = 0; i < ARRAY_SIZE(tern_ipid_ctr); i++)
		atomic_set(&tern_ipid_ctr[i], get_random_u32());
}

__be16 tern_ipid_next(const struct net *net, __be32 saddr, __be32 daddr,
		      u8 proto)
{
	return tern_ipid_reserve(net, saddr, daddr, proto, 1);
}

__be16 tern_ipid_reserve(const struct net *net, __be32 saddr, __be32 daddr,
			 u8 proto, u16 n)
{
	u32 h = hsiphash_4u32((__force u32)saddr, (__force u32)daddr, proto,
			      net_hash_mix(net), &tern_ipid_key);
	atomic_t *ctr = &tern_ipid_ctr[h >> (32 - TERN_IPID_BITS)];

	return htons((u16)(atomic_add_return(n, ctr) - n + 1 + h));
}

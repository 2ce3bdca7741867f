// SPDX-License-Identifier: GPL-2.0
/*
 * IPv4 Identification for translated packets that need one (RFC 6864,
 * RFC 4963): a counter per flow bucket, each starting at a random value.
 * A packet costs one keyed hash and one atomic increment; the random
 * number generator is only used at load time.
 */

#include <linux/atomic.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include "xlat/ipid.h"

#define TERN_IPID_BITS 12

static atomic_t tern_ipid_ctr[1 << TERN_IPID_BITS];
static hsiphash_key_t tern_ipid_key;

void tern_ipid_init(void)
{
	int i;

	get_random_bytes(&tern_ipid_key, sizeof(tern_ipid_key));
	for (i = 0; i < ARRAY_SIZE(tern_ipid_ctr); i++)
		atomic_set(&tern_ipid_ctr[i], get_random_u32());
}

__be16 tern_ipid_next(__be32 saddr, __be32 daddr, u8 proto)
{
	return tern_ipid_reserve(saddr, daddr, proto, 1);
}

__be16 tern_ipid_reserve(__be32 saddr, __be32 daddr, u8 proto, u16 n)
{
	u32 h = hsiphash_3u32((__force u32)saddr, (__force u32)daddr, proto,
			      &tern_ipid_key);
	atomic_t *ctr = &tern_ipid_ctr[h >> (32 - TERN_IPID_BITS)];

	return htons((u16)(atomic_add_return(n, ctr) - n + 1));
}

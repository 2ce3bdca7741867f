// SPDX-License-Identifier: GPL-2.0
/*
 * IPv4 Identification for translated packets that need one (RFC 6864,
 * RFC 4963): a counter per flow bucket, each starting at a random value,
 * the flow's ID its bucket's counter plus an offset of its own (RFC 7739
 * 5.4: another flow of the bucket does not tell this one's next ID). The
 * bucket and the offset are a keyed hash of the flow and its namespace:
 * 65,536 buckets, a namespace's flows never sure to share another's.
 *
 * As Linux's own generator (ip_idents_reserve()), the first use of a
 * counter in a jiffy adds a step below the jiffies since its last use, so
 * that a flow sharing the counter cannot count this one's packets between
 * two of its own. The step is a keyed hash of (counter, jiffies), not a
 * draw of the random number generator, which is only used at load time.
 * A packet costs one keyed hash and one atomic increment; a counter's
 * first packet in a jiffy, one more hash and a compare-and-exchange on
 * the same cache line.
 */

#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <net/netns/hash.h>
#include "xlat/ipid.h"

#define TERN_IPID_BITS 16

struct tern_ipid_slot {
	atomic_t ctr;
	u32 stamp;		/* jiffies of its last use; cmpxchg() */
};

static struct tern_ipid_slot tern_ipid_slots[1 << TERN_IPID_BITS];
static hsiphash_key_t tern_ipid_key, tern_ipid_step_key;

#ifdef TERN_KUNIT
/*
 * In KUnit the clock stands still, so that the IDs suites predict stay
 * exact; the step's own case passes its clock (tern_ipid_reserve_at()).
 */
#define TERN_IPID_NOW()	1U
#else
#define TERN_IPID_NOW()	((u32)jiffies)
#endif

void tern_ipid_init(void)
{
	int i;

	get_random_bytes(&tern_ipid_key, sizeof(tern_ipid_key));
	get_random_bytes(&tern_ipid_step_key, sizeof(tern_ipid_step_key));
	for (i = 0; i < ARRAY_SIZE(tern_ipid_slots); i++) {
		atomic_set(&tern_ipid_slots[i].ctr, get_random_u32());
		tern_ipid_slots[i].stamp = 0;
	}
}

__be16 tern_ipid_next(const struct net *net, __be32 saddr, __be32 daddr,
		      u8 proto)
{
	return tern_ipid_reserve(net, saddr, daddr, proto, 1);
}

__be16 tern_ipid_reserve_at(const struct net *net, __be32 saddr,
			    __be32 daddr, u8 proto, u16 n, u32 now)
{
	u32 h = hsiphash_4u32((__force u32)saddr, (__force u32)daddr, proto,
			      net_hash_mix(net), &tern_ipid_key);
	u32 i = h >> (32 - TERN_IPID_BITS);
	struct tern_ipid_slot *sl = &tern_ipid_slots[i];
	u32 old = READ_ONCE(sl->stamp), step = 0;

	/* Uniform below the gap, as get_random_u32_below(now - old). */
	if (old != now && cmpxchg(&sl->stamp, old, now) == old)
		step = ((u64)hsiphash_2u32(i, now, &tern_ipid_step_key) *
			(now - old)) >> 32;
	return htons((u16)(atomic_add_return(n + step, &sl->ctr) - n + 1 + h));
}

__be16 tern_ipid_reserve(const struct net *net, __be32 saddr, __be32 daddr,
			 u8 proto, u16 n)
{
	return tern_ipid_reserve_at(net, saddr, daddr, proto, n,
				    TERN_IPID_NOW());
}

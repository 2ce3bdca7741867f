/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_BLOCKS_INT_H
#define _TERN_NAT64_BLOCKS_INT_H

/*
 * Port blocks, inside: the records (nat64/blocks.c) and the picker
 * (nat64/blocks_pick.c) share these. Everything here is under
 * tern_blocks.lock but tern_blk_told().
 */

#include <linux/list.h>
#include <linux/spinlock.h>
#include "nat64/blocks.h"

/*
 * Buckets of each of the two hashes: from the least, doubled by
 * tern_blocks_grow() while there are more than twice as many blocks (a
 * subscriber with blocks has one at least: its hash is no fuller).
 */
#define TERN_BLK_BUCKETS_MIN	1024
#define TERN_BLK_BUCKETS_MAX	(1U << 20)
/* Most records looked at to find a free block in pool4. */
#define TERN_BLK_PROBES		4096
/* Most blocks tried for one new BIB entry. */
#define TERN_BLK_TRIES		4

struct tern_bsub {
	struct hlist_node node;
	struct list_head blocks;
	struct in6_addr prefix;
	u8 plen;
	u32 nblocks;
	__be32 addr[TERN_L4_N];		/* of its latest block of each */
};

struct tern_blk {
	struct hlist_node node;
	struct list_head sub_node;
	struct tern_bsub *sub;
	__be32 addr;
	u16 first;
	u8 l4;
	u32 mark;			/* of the pool4 entries it came from */
	u32 size;
	u32 used;			/* BIB entries charged: bits of map */
	u32 holds;			/* choices under way */
	unsigned long map[];
};

struct tern_blocks {
	spinlock_t lock;
	/* Of every block given: set by the first one, while there are any. */
	u32 size;
	u32 nblocks;
	tern_blk_event_fn ev;
	void *arg;
	/* Of the two hashes: subscribers choose their prefixes. */
	siphash_key_t key;
	u32 mask;			/* buckets - 1, of both */
	struct hlist_head *blk;		/* by (l4, addr, first) */
	struct hlist_head *sub;		/* by (prefix, plen) */
};

/* Events told after the lock is released. */
struct tern_blk_evs {
	struct tern_blk_info bi[2];
	bool add[2];
	unsigned int n;
};

u32 tern_blk_hash(const struct tern_blocks *bl, u8 l4, __be32 addr, u16 first);
struct tern_blk *tern_blk_find(struct tern_blocks *bl, u8 l4, __be32 addr,
			       u16 first);
u32 tern_bsub_start(const struct tern_blocks *bl, const struct tern_bsub *sub,
		    u32 total);
struct tern_bsub *tern_bsub_get(struct tern_blocks *bl,
				const struct in6_addr *addr, u8 plen);
void tern_blk_tell(struct tern_blk_evs *evs, const struct tern_blk *blk,
		   bool add);
void tern_blk_told(struct tern_blocks *bl, struct tern_blk_evs *evs);
void tern_blk_maybe_release(struct tern_blocks *bl, struct tern_blk *blk,
			    struct tern_blk_evs *evs);
void tern_bsub_put(struct tern_bsub *sub);

#endif /* _TERN_NAT64_BLOCKS_INT_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_BLOCKS_H
#define _TERN_NAT64_BLOCKS_H

/*
 * Port blocks (RFC 7422's logging reduction, dynamic): with
 * port-block-size N, a subscriber (its IPv6 prefix of
 * subscriber-prefix-len) gets N consecutive ports of one pool4 address on
 * its first new BIB entry of a protocol, and its later BIB entries of that
 * protocol take ports of its blocks only; when they are full it gets
 * another one, up to max-ports-per-subscriber / N (rounded up; 0: no
 * bound), else the new flow is refused. A block goes back when its last
 * BIB entry does. One event per block given and returned is enough to say
 * who had an IPv4 transport address when.
 *
 * Blocks are aligned on multiples of N in the port space (port p is in the
 * block starting at p - p % N) and lie wholly inside a pool4 entry of
 * their protocol. All of this runs when a BIB entry is made or removed,
 * never for a packet of an established flow. docs/design.md has the
 * choices.
 */

#include <linux/siphash.h>
#include <linux/types.h>
#include "nat64/table.h"

struct tern_pool4;
struct tern_blocks;
struct tern_pick;

/* A block, as events tell it. */
struct tern_blk_info {
	struct in6_addr prefix;		/* the subscriber */
	u8 plen;
	u8 l4;				/* enum tern_l4 */
	__be32 addr;
	u16 first, last;		/* host order, inclusive */
};

/*
 * Told of every block given (@add) and returned, from the packet path
 * (BHs off), the expiry worker or a netlink command, under
 * rcu_read_lock() and possibly under the tables' bucket locks: must not
 * sleep.
 */
typedef void (*tern_blk_event_fn)(void *arg, const struct tern_blk_info *bi,
				  bool add);

struct tern_blocks *tern_blocks_alloc(tern_blk_event_fn ev, void *arg);
/* After the tables are gone: frees the records left, without events. */
void tern_blocks_free(struct tern_blocks *bl);
/* Blocks given now (tests, counters). */
u32 tern_blocks_count(struct tern_blocks *bl);
/* Process context (the expiry worker): sizes the hashes to the blocks. */
void tern_blocks_grow(struct tern_blocks *bl);

/*
 * The tables' bib_bound callback (struct tern_table_events): a dynamic
 * BIB entry @b was linked (@add) or unlinked, under its bucket locks. A
 * linked one inside a block is charged to it; an unlinked one charged is
 * taken off, and the block is returned if it was its last and no new BIB
 * entry is being made in it.
 */
void tern_blocks_bound(struct tern_blocks *bl, const struct tern_bib *b,
		       bool add);

/*
 * The choice of a new BIB entry's IPv4 transport address in port-block
 * mode: the tern_pick4_fn of tern_sess_add6() with this as its argument,
 * set up by tern_blk_pick_init() and ended by tern_blk_pick_end() (in
 * every case: the block being tried is held meanwhile).
 */
struct tern_blk_pick {
	struct tern_blocks *bl;
	const struct tern_pool4 *pool;
	const siphash_key_t *key;
	u32 size;			/* N */
	u32 max_blocks;			/* 0: no bound */
	u32 mark;
	u8 l4;
	u8 plen;
	/* Where the choice is. */
	void *held;			/* the block tried (a hold on it) */
	__be32 addr;
	u16 first;
	u32 bsize;			/* its size (N when it was given) */
	u32 n;				/* candidates of this block given */
	u32 pref;			/* of the IPv6 port's class, parity */
	u32 start, scan;		/* the walk of its map: from, done */
	u32 tried;			/* blocks tried */
	int why;			/* a refusal's counter, or 0 */
};

void tern_blk_pick_init(struct tern_blk_pick *bp, struct tern_blocks *bl,
			const struct tern_pool4 *pool,
			const siphash_key_t *key, u32 size, u32 max_ports,
			u8 plen, u8 l4, u32 mark);
/*
 * Candidates: ports of the subscriber's blocks with room (the class and
 * parity of the IPv6 port first, RFC 6056 order from a keyed hash as
 * tern_pick4(), then the ports its map has free from a hashed start; at
 * most TERN_PICK_PROBES of each a block), then of a new block; false
 * when the subscriber has its most blocks (bp->why:
 * TERN_STAT_DROP_BLOCK_REFUSED) or pool4 has no free block (bp->why:
 * TERN_STAT_DROP_POOL4_FULL).
 */
bool tern_blk_pick4(void *arg, const struct tern_ta6 *t6, unsigned int attempt,
		    struct tern_ta4 *t4);
void tern_blk_pick_end(struct tern_blk_pick *bp);

/*
 * port-block-size off while blocks given before remain: the choice of
 * tern_pick4() (@pick), passing over the ports of those blocks, which stay
 * their subscribers' until their last BIB entry goes (no entry of another
 * subscriber is charged to them, nor logged as theirs). At most
 * TERN_PICK_PROBES candidates in all; a lookup under the blocks' lock
 * each, only while such blocks remain.
 */
struct tern_blk_drain {
	struct tern_blocks *bl;
	struct tern_pick *pick;
	unsigned int next;
};

bool tern_blk_drain_pick4(void *arg, const struct tern_ta6 *t6,
			  unsigned int attempt, struct tern_ta4 *t4);

#endif /* _TERN_NAT64_BLOCKS_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Port blocks (nat64/blocks.h): the picker, the tern_pick4_fn of a new
 * BIB entry with port-block-size set: a port of one of the subscriber's
 * blocks, a new block when they are full. The records are in
 * nat64/blocks.c.
 */

#include <linux/bitmap.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include "nat64/blocks_int.h"
#include "nat64/pool4.h"
#include "nat64/pool4_int.h"
#include "tern_genl.h"

void tern_blk_pick_init(struct tern_blk_pick *bp, struct tern_blocks *bl,
			const struct tern_pool4 *pool,
			const siphash_key_t *key, u32 size, u32 max_ports,
			u8 plen, u8 l4, u32 mark)
{
	memset(bp, 0, sizeof(*bp));
	bp->bl = bl;
	bp->pool = pool;
	bp->key = key;
	bp->size = size;
	bp->max_blocks = max_ports ? DIV_ROUND_UP(max_ports, size) : 0;
	bp->plen = min_t(u8, plen, 128);
	bp->l4 = l4;
	bp->mark = mark;
}

/*
 * Under the lock: a block of @bp's pool4 entries no record has, in *@a,
 * *@first, the lowest block of each address: from the address of the
 * subscriber's latest block of the protocol while the run holds it, else
 * from the one its prefix hashes to (keyed). Its blocks share an address
 * while the address has room, whatever pool4 became meanwhile (paired
 * pooling, RFC 6146 3.5.1.1).
 * At most TERN_BLK_PROBES steps, an address or a block taken each (an
 * address whose ports hold no aligned block counts too).
 */
static bool tern_blk_free_slot(struct tern_blocks *bl,
			       const struct tern_blk_pick *bp,
			       const struct tern_bsub *sub, __be32 *a,
			       u16 *first)
{
	const struct tern_pool4 *p = bp->pool;
	u32 lo, hi, total, start, i, k, n = 0, size = bl->size;

	if (!p)
		return false;
	tern_pick_run(p, bp->l4, bp->mark, &lo, &hi);
	if (lo == hi)
		return false;
	total = p->cum[hi] - p->cum[lo];
	if (!sub->addr[bp->l4] ||
	    !tern_pick_slot_of(p, lo, hi, sub->addr[bp->l4], 1024, &start))
		start = tern_bsub_start(bl, sub, total);
	for (i = 0; i < total; i++) {
		u32 slot = (start + i) % total, f;
		const struct tern_pool4_entry *e;

		if (++n > TERN_BLK_PROBES)
			return false;
		k = tern_pick_entry(p, lo, hi, slot);
		e = &p->e[p->by_pick[k]];
		*a = htonl(ntohl(e->prefix.addr) + (p->cum[lo] + slot -
						    p->cum[k]));
		for (f = roundup(e->pmin, size); f + size - 1 <= e->pmax;
		     f += size) {
			if (!tern_blk_find(bl, bp->l4, *a, f)) {
				*first = f;
				return true;
			}
			if (++n > TERN_BLK_PROBES)
				return false;
		}
	}
	return false;
}

/* Under the lock: a new block for @sub, held by @bp; NULL, bp->why set. */
static struct tern_blk *tern_blk_new(struct tern_blocks *bl,
				     struct tern_blk_pick *bp,
				     struct tern_bsub *sub)
{
	struct tern_blk *blk;
	u16 first;
	__be32 a;

	if (bp->max_blocks && sub->nblocks >= bp->max_blocks) {
		bp->why = TERN_STAT_DROP_BLOCK_REFUSED;
		return NULL;
	}
	if (!bl->nblocks)
		bl->size = bp->size;
	if (!tern_blk_free_slot(bl, bp, sub, &a, &first)) {
		bp->why = TERN_STAT_DROP_POOL4_FULL;
		return NULL;
	}
	blk = kzalloc(struct_size(blk, map, BITS_TO_LONGS(bl->size)),
		      GFP_ATOMIC | __GFP_NOWARN);
	if (!blk) {
		bp->why = TERN_STAT_DROP_NOMEM;
		return NULL;
	}
	blk->sub = sub;
	blk->addr = a;
	blk->first = first;
	blk->l4 = bp->l4;
	blk->mark = bp->mark;
	blk->size = bl->size;
	sub->addr[bp->l4] = a;
	hlist_add_head(&blk->node, &bl->blk[tern_blk_hash(bl, bp->l4, a, first)]);
	list_add(&blk->sub_node, &sub->blocks);
	sub->nblocks++;
	WRITE_ONCE(bl->nblocks, bl->nblocks + 1);
	return blk;
}

/*
 * The next block to try for @t6 (the one tried before is let go): one of
 * its subscriber's with room not tried yet, else a new one.
 */
static bool tern_blk_next(struct tern_blk_pick *bp, const struct tern_ta6 *t6)
{
	struct tern_blk_evs evs = { .n = 0 };
	struct tern_blocks *bl = bp->bl;
	struct tern_blk *blk, *held = bp->held, *pick = NULL;
	struct tern_bsub *sub;
	u32 i = 0;

	if (bp->tried >= TERN_BLK_TRIES) {
		bp->why = TERN_STAT_DROP_POOL4_FULL;
		return false;
	}
	spin_lock_bh(&bl->lock);
	if (held) {
		held->holds--;
		tern_blk_maybe_release(bl, held, &evs);
		bp->held = NULL;
	}
	sub = tern_bsub_get(bl, &t6->addr, bp->plen);
	if (!sub) {
		bp->why = TERN_STAT_DROP_NOMEM;
		goto out;
	}
	/*
	 * The blocks tried are the first ones with room, in list order; the
	 * full ones are at the end (a subscriber with many blocks is not
	 * scanned whole for each new BIB entry).
	 */
	list_for_each_entry(blk, &sub->blocks, sub_node) {
		if (blk->used >= blk->size)
			break;
		/* Of the pool4 entries the packet's mark selects only. */
		if (blk->l4 != bp->l4 || blk->mark != bp->mark)
			continue;
		if (i++ == bp->tried) {
			pick = blk;
			break;
		}
	}
	if (!pick) {
		pick = tern_blk_new(bl, bp, sub);
		if (pick)
			tern_blk_tell(&evs, pick, true);
		else
			tern_bsub_put(sub);
	}
	if (pick) {
		pick->holds++;
		bp->held = pick;
		bp->addr = pick->addr;
		bp->first = pick->first;
		bp->bsize = pick->size;
		bp->n = 0;
		bp->pref = bp->l4 == TERN_L4_ICMP ? 0 :
			   tern_pick_port_count(pick->first,
						pick->first + pick->size - 1,
						ntohs(t6->port));
		bp->pref = min_t(u32, bp->pref, TERN_PICK_PROBES);
		bp->start = tern_pick_nth(tern_pick_hash(bp->key, t6, bp->addr,
							 bp->l4), 0, bp->bsize);
		bp->scan = 0;
		bp->tried++;
	}
out:
	spin_unlock_bh(&bl->lock);
	tern_blk_told(bl, &evs);
	return pick;
}

/*
 * The next port the map of the block held has free, from bit bp->start
 * round to it (bp->scan bits walked so far): a bounded walk of the map
 * (a bit a port, a word a step), not a lookup a port. Read under the
 * blocks' lock; another entry may take the port meanwhile, the caller's
 * lookup decides. False when no bit is left.
 */
static bool tern_blk_map_port(struct tern_blk_pick *bp, u16 *port)
{
	const struct tern_blk *blk = bp->held;
	u32 size = bp->bsize, bit = size, from, end;

	spin_lock_bh(&bp->bl->lock);
	while (bp->scan < size) {
		from = (bp->start + bp->scan) % size;
		/* To the end of the map, or to the start after the wrap. */
		end = from < bp->start ? bp->start : size;
		bit = find_next_zero_bit(blk->map, end, from);
		if (bit < end) {
			bp->scan += bit - from + 1;
			break;
		}
		bp->scan += end - from;
		bit = size;
	}
	spin_unlock_bh(&bp->bl->lock);
	if (bit >= size)
		return false;
	*port = bp->first + bit;
	return true;
}

/*
 * Candidate @n of the block held: of the IPv6 port's class and parity
 * from a hash of the flow (nat64/ports.c), then a port its map has free.
 */
static bool tern_blk_port(struct tern_blk_pick *bp, const struct tern_ta6 *t6,
			  u32 n, u16 *port)
{
	u64 h;

	if (n >= bp->pref)
		return n < bp->pref + TERN_PICK_PROBES &&
		       tern_blk_map_port(bp, port);
	h = tern_pick_hash(bp->key, t6, bp->addr, bp->l4);
	*port = tern_pick_port(bp->first, bp->first + bp->bsize - 1,
			       ntohs(t6->port), h, n);
	return true;
}

bool tern_blk_pick4(void *arg, const struct tern_ta6 *t6, unsigned int attempt,
		    struct tern_ta4 *t4)
{
	struct tern_blk_pick *bp = arg;
	u16 port;

	for (;;) {
		/* tern_blk_next() tries TERN_BLK_TRIES blocks at most. */
		if (!bp->held || !tern_blk_port(bp, t6, bp->n++, &port)) {
			if (!tern_blk_next(bp, t6))
				return false;
			continue;
		}
		/* pool4 may have lost part of the block since it was given. */
		if (tern_pool4_contains(bp->pool, bp->l4, bp->addr, port)) {
			t4->addr = bp->addr;
			t4->port = htons(port);
			return true;
		}
	}
}

void tern_blk_pick_end(struct tern_blk_pick *bp)
{
	struct tern_blk_evs evs = { .n = 0 };
	struct tern_blocks *bl = bp->bl;
	struct tern_blk *held = bp->held;

	if (!held)
		return;
	spin_lock_bh(&bl->lock);
	held->holds--;
	tern_blk_maybe_release(bl, held, &evs);
	spin_unlock_bh(&bl->lock);
	bp->held = NULL;
	tern_blk_told(bl, &evs);
}

bool tern_blk_drain_pick4(void *arg, const struct tern_ta6 *t6,
			  unsigned int attempt, struct tern_ta4 *t4)
{
	struct tern_blk_drain *d = arg;
	struct tern_blocks *bl = d->bl;
	bool taken;
	u16 port;

	for (;;) {
		/* Its own count: candidates passed over count too. */
		if (!tern_pick4(d->pick, t6, d->next++, t4))
			return false;
		if (!READ_ONCE(bl->nblocks))
			return true;
		port = ntohs(t4->port);
		spin_lock_bh(&bl->lock);
		taken = bl->size && tern_blk_find(bl, d->pick->l4, t4->addr,
						  port - port % bl->size);
		spin_unlock_bh(&bl->lock);
		if (!taken)
			return true;
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Port blocks (nat64/blocks.h): the records of the blocks given and of
 * their subscribers, under one lock of the instance taken only when a BIB
 * entry is made or removed (inside the tables' bucket locks, or alone).
 *
 * A block counts the dynamic BIB entries charged to it in a bitmap of its
 * ports (set and cleared under the bucket locks of the entry's IPv4
 * transport address, which is unique among linked entries: a bit says
 * exactly whether the entry there was charged), and the choices under way
 * in it (holds); it goes when both are none. Memory: a block has a BIB
 * entry or a hold, so there are no more blocks than BIB entries and
 * choices under way, and one record a subscriber with blocks.
 */

#include <linux/bitmap.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/ipv6.h>
#include "nat64/blocks_int.h"
#include "nat64/pool4.h"
#include "nat64/pool4_int.h"
#include "tern_genl.h"

struct tern_blocks *tern_blocks_alloc(tern_blk_event_fn ev, void *arg)
{
	struct tern_blocks *bl = kzalloc(sizeof(*bl), GFP_KERNEL_ACCOUNT);

	if (!bl)
		return NULL;
	bl->blk = kvcalloc(TERN_BLK_BUCKETS_MIN, sizeof(*bl->blk),
			   GFP_KERNEL_ACCOUNT);
	bl->sub = kvcalloc(TERN_BLK_BUCKETS_MIN, sizeof(*bl->sub),
			   GFP_KERNEL_ACCOUNT);
	if (!bl->blk || !bl->sub) {
		kvfree(bl->blk);
		kvfree(bl->sub);
		kfree(bl);
		return NULL;
	}
	bl->mask = TERN_BLK_BUCKETS_MIN - 1;
	spin_lock_init(&bl->lock);
	get_random_bytes(&bl->key, sizeof(bl->key));
	bl->ev = ev;
	bl->arg = arg;
	return bl;
}

void tern_blocks_free(struct tern_blocks *bl)
{
	struct hlist_node *tmp;
	struct tern_bsub *sub;
	struct tern_blk *blk;
	u32 h;

	if (!bl)
		return;
	for (h = 0; h <= bl->mask; h++) {
		hlist_for_each_entry_safe(blk, tmp, &bl->blk[h], node)
			kfree(blk);
		hlist_for_each_entry_safe(sub, tmp, &bl->sub[h], node)
			kfree(sub);
	}
	kvfree(bl->blk);
	kvfree(bl->sub);
	kfree(bl);
}

u32 tern_blocks_count(struct tern_blocks *bl)
{
	return READ_ONCE(bl->nblocks);
}

u32 tern_blk_hash(const struct tern_blocks *bl, u8 l4, __be32 addr, u16 first)
{
	return (u32)siphash_3u32((__force u32)addr, first, l4, &bl->key) &
	       bl->mask;
}

struct tern_blk *tern_blk_find(struct tern_blocks *bl, u8 l4, __be32 addr,
			       u16 first)
{
	struct tern_blk *blk;

	hlist_for_each_entry(blk, &bl->blk[tern_blk_hash(bl, l4, addr, first)],
			     node)
		if (blk->addr == addr && blk->first == first && blk->l4 == l4)
			return blk;
	return NULL;
}

static u32 tern_bsub_hash(const struct tern_blocks *bl,
			  const struct in6_addr *p, u8 plen)
{
	const u64 *a = (const u64 *)p;

	return (u32)siphash_3u64(a[0], a[1], plen, &bl->key) & bl->mask;
}

/*
 * Where the search for a free block of @sub starts, of @total slots:
 * keyed, as the hashes (a subscriber chooses its prefix, and with it how
 * many taken blocks its searches would walk), and not the bucket's hash.
 */
u32 tern_bsub_start(const struct tern_blocks *bl, const struct tern_bsub *sub,
		    u32 total)
{
	const u64 *a = (const u64 *)&sub->prefix;

	return (u32)siphash_3u64(a[0], a[1], sub->plen | 1ULL << 32,
				 &bl->key) % total;
}

/* The record of @addr's subscriber, made if new (NULL: no memory). */
struct tern_bsub *tern_bsub_get(struct tern_blocks *bl,
				const struct in6_addr *addr, u8 plen)
{
	struct tern_bsub *sub;
	struct in6_addr p;
	u32 h;

	ipv6_addr_prefix(&p, addr, plen);
	h = tern_bsub_hash(bl, &p, plen);
	hlist_for_each_entry(sub, &bl->sub[h], node)
		if (sub->plen == plen && ipv6_addr_equal(&sub->prefix, &p))
			return sub;
	sub = kzalloc(sizeof(*sub), GFP_ATOMIC | __GFP_NOWARN);
	if (!sub)
		return NULL;
	sub->prefix = p;
	sub->plen = plen;
	INIT_LIST_HEAD(&sub->blocks);
	hlist_add_head(&sub->node, &bl->sub[h]);
	return sub;
}

void tern_bsub_put(struct tern_bsub *sub)
{
	if (sub->nblocks)
		return;
	hlist_del(&sub->node);
	kfree(sub);
}

/*
 * From the instance's expiry worker: more buckets for both hashes when
 * there are more than twice as many blocks, as many as there are blocks
 * (rounded up to a power of two, at most TERN_BLK_BUCKETS_MAX). Allocated
 * first; the records move under the lock (nothing reads them without it),
 * in one pass with BH off, as conntrack's resize: blocks are made only
 * with a subscriber's first BIB entry of a block, never per packet.
 */
void tern_blocks_grow(struct tern_blocks *bl)
{
	struct hlist_head *nblk, *nsub, *oblk, *osub;
	struct hlist_node *tmp;
	struct tern_bsub *sub;
	struct tern_blk *blk;
	u32 n, h, omask;

	n = READ_ONCE(bl->nblocks);
	if (n <= 2 * (READ_ONCE(bl->mask) + 1) ||
	    READ_ONCE(bl->mask) + 1 >= TERN_BLK_BUCKETS_MAX)
		return;
	n = min_t(u32, roundup_pow_of_two(n), TERN_BLK_BUCKETS_MAX);
	nblk = kvcalloc(n, sizeof(*nblk), GFP_KERNEL_ACCOUNT);
	nsub = kvcalloc(n, sizeof(*nsub), GFP_KERNEL_ACCOUNT);
	if (!nblk || !nsub) {
		kvfree(nblk);
		kvfree(nsub);
		return;
	}
	spin_lock_bh(&bl->lock);
	oblk = bl->blk;
	osub = bl->sub;
	omask = bl->mask;
	bl->blk = nblk;
	bl->sub = nsub;
	bl->mask = n - 1;
	for (h = 0; h <= omask; h++) {
		hlist_for_each_entry_safe(blk, tmp, &oblk[h], node) {
			hlist_del(&blk->node);
			hlist_add_head(&blk->node,
				       &nblk[tern_blk_hash(bl, blk->l4,
							   blk->addr,
							   blk->first)]);
		}
		hlist_for_each_entry_safe(sub, tmp, &osub[h], node) {
			hlist_del(&sub->node);
			hlist_add_head(&sub->node,
				       &nsub[tern_bsub_hash(bl, &sub->prefix,
							    sub->plen)]);
		}
	}
	spin_unlock_bh(&bl->lock);
	kvfree(oblk);
	kvfree(osub);
}

void tern_blk_tell(struct tern_blk_evs *evs, const struct tern_blk *blk,
		   bool add)
{
	struct tern_blk_info *bi = &evs->bi[evs->n];

	bi->prefix = blk->sub->prefix;
	bi->plen = blk->sub->plen;
	bi->l4 = blk->l4;
	bi->addr = blk->addr;
	bi->first = blk->first;
	bi->last = blk->first + blk->size - 1;
	evs->add[evs->n++] = add;
}

void tern_blk_told(struct tern_blocks *bl, struct tern_blk_evs *evs)
{
	unsigned int i;

	for (i = 0; i < evs->n; i++)
		if (bl->ev)
			bl->ev(bl->arg, &evs->bi[i], evs->add[i]);
}

/* Under the lock: @blk goes if nothing holds it any more. */
void tern_blk_maybe_release(struct tern_blocks *bl, struct tern_blk *blk,
			    struct tern_blk_evs *evs)
{
	struct tern_bsub *sub = blk->sub;

	if (blk->used || blk->holds)
		return;
	tern_blk_tell(evs, blk, false);
	hlist_del(&blk->node);
	list_del(&blk->sub_node);
	sub->nblocks--;
	WRITE_ONCE(bl->nblocks, bl->nblocks - 1);
	kfree(blk);
	tern_bsub_put(sub);
}

void tern_blocks_bound(struct tern_blocks *bl, const struct tern_bib *b,
		       bool add)
{
	struct tern_blk_evs evs = { .n = 0 };
	u16 port = ntohs(b->t4.port);
	struct tern_blk *blk;
	u32 bit;

	/* Without blocks, nothing to do (and no lock taken). */
	if (!READ_ONCE(bl->nblocks))
		return;
	spin_lock_bh(&bl->lock);
	if (!bl->size)
		goto out;
	blk = tern_blk_find(bl, b->l4, b->t4.addr, port - port % bl->size);
	if (!blk)
		goto out;
	bit = port - blk->first;
	/* Full blocks at the end of their subscriber's list: see below. */
	if (add && !__test_and_set_bit(bit, blk->map)) {
		if (++blk->used == blk->size)
			list_move_tail(&blk->sub_node, &blk->sub->blocks);
	} else if (!add && __test_and_clear_bit(bit, blk->map)) {
		if (blk->used-- == blk->size)
			list_move(&blk->sub_node, &blk->sub->blocks);
		tern_blk_maybe_release(bl, blk, &evs);
	}
out:
	spin_unlock_bh(&bl->lock);
	tern_blk_told(bl, &evs);
}

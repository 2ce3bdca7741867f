// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: port blocks (nat64/blocks.c) with the NAT64 tables. Blocks given
 * never overlap; a subscriber's BIB entries only take ports of its own
 * blocks, exactly as many blocks as its entries need; a block goes back
 * with its last BIB entry (not before); a subscriber past its most blocks,
 * or a pool4 without a free block, is refused; blocks serve their packet
 * mark only; the search for a free block is bounded; turned off, the
 * blocks left are no one else's.
 */

#include "kt_blocks.h"

/*
 * 4 subscribers x 150 UDP entries, blocks of 64: 3 blocks each, disjoint,
 * every entry in a block of its own subscriber; a flush returns them all.
 */
static void blocks_own(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 0), 31, UDP, 1024, 2047, 0),
	};
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 53);
	struct kt_blk *k;
	struct tern_session *s;
	unsigned int i, j, sub;
	int why;

	k = kt_blk_setup(test, e, ARRAY_SIZE(e), 64, 0);
	for (sub = 1; sub <= 4; sub++) {
		for (i = 0; i < 150; i++) {
			struct tern_ta6 a = kt_t6(sub, 1 + i % 3, 10000 + i);

			s = kt_blk_add(k, TERN_L4_UDP, &a, &r, &why);
			KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_OR_NULL(s),
					       "sub %u entry %u why %d", sub,
					       i, why);
			KUNIT_ASSERT_TRUE_MSG(test,
					      kt_blk_owned(&k->log, TERN_L4_UDP,
							   &a, &s->bib->t4),
					      "sub %u entry %u port %u", sub,
					      i, ntohs(s->bib->t4.port));
		}
	}
	KUNIT_EXPECT_EQ(test, k->log.adds, 12U);
	KUNIT_EXPECT_EQ(test, k->log.dels, 0U);
	KUNIT_EXPECT_EQ(test, tern_blocks_count(k->bl), 12U);
	/* Aligned, inside pool4, never overlapping. */
	for (i = 0; i < k->log.n; i++) {
		const struct tern_blk_info *a = &k->log.bi[i];

		KUNIT_EXPECT_EQ(test, a->first % 64, 0);
		KUNIT_EXPECT_EQ(test, a->last, a->first + 63);
		KUNIT_EXPECT_GE(test, a->first, 1024);
		KUNIT_EXPECT_LE(test, a->last, 2047);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_FALSE(test, a->addr == k->log.bi[j].addr &&
					   a->first == k->log.bi[j].first);
	}
	KT_EXPECT_COUNT(test, k->t, 600, 600);
	tern_tables_flush(k->t, TERN_L4_N);
	KUNIT_EXPECT_EQ(test, k->log.dels, 12U);
	KUNIT_EXPECT_EQ(test, tern_blocks_count(k->bl), 0U);
	kt_blk_teardown(k);
}

/* A block goes with its last BIB entry, not before. */
static void blocks_release_last(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 1), 32, TCP, 1024, 65535, 0),
	};
	struct tern_ta6 a = kt_t6(7, 1, 5000), b = kt_t6(7, 2, 5001);
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 80);
	struct tern_session *s1, *s2;
	struct kt_blk *k;
	int why;

	k = kt_blk_setup(test, e, ARRAY_SIZE(e), 256, 0);
	s1 = kt_blk_add(k, TERN_L4_TCP, &a, &r, &why);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s1));
	s2 = kt_blk_add(k, TERN_L4_TCP, &b, &r, &why);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s2));
	KUNIT_EXPECT_EQ(test, k->log.adds, 1U);
	/* The same block: the same address, ports 256 apart at most. */
	KUNIT_EXPECT_EQ(test, s1->bib->t4.addr, s2->bib->t4.addr);
	KUNIT_EXPECT_EQ(test, ntohs(s1->bib->t4.port) / 256,
			ntohs(s2->bib->t4.port) / 256);
	/* Parity of the IPv6 port kept inside the block. */
	KUNIT_EXPECT_EQ(test, ntohs(s1->bib->t4.port) % 2, 0);
	KUNIT_EXPECT_EQ(test, ntohs(s2->bib->t4.port) % 2, 1);
	KUNIT_EXPECT_EQ(test, tern_bib_del(k->t, TERN_L4_TCP, &a, NULL), 0);
	KUNIT_EXPECT_EQ(test, k->log.dels, 0U);
	KUNIT_EXPECT_EQ(test, tern_blocks_count(k->bl), 1U);
	KUNIT_EXPECT_EQ(test, tern_bib_del(k->t, TERN_L4_TCP, &b, NULL), 0);
	KUNIT_EXPECT_EQ(test, k->log.dels, 1U);
	KUNIT_EXPECT_EQ(test, tern_blocks_count(k->bl), 0U);
	/* A new entry afterwards gets a new block. */
	s1 = kt_blk_add(k, TERN_L4_TCP, &a, &r, &why);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s1));
	KUNIT_EXPECT_EQ(test, k->log.adds, 2U);
	kt_blk_teardown(k);
}

/*
 * max-ports-per-subscriber 64, blocks of 32: 2 blocks, the 65th entry
 * refused with no third block; a pool4 of 3 blocks in all refuses the
 * second subscriber's second block.
 */
static void blocks_refused(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 1), 32, UDP, 1024, 1119, 0),
	};
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 53);
	struct tern_session *s;
	struct kt_blk *k;
	unsigned int i;
	int why;

	/* The table's own limit is off: the blocks' bound refuses. */
	k = kt_blk_setup(test, e, ARRAY_SIZE(e), 32, 64);
	k->lim.max_ports_per_sub = 0;
	for (i = 0; i < 64; i++) {
		s = kt_blk_add(k, TERN_L4_UDP, KT6(1, 1, 2000 + i), &r, &why);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	}
	KUNIT_EXPECT_EQ(test, k->log.adds, 2U);
	s = kt_blk_add(k, TERN_L4_UDP, KT6(1, 1, 3000), &r, &why);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, why, TERN_STAT_DROP_BLOCK_REFUSED);
	KUNIT_EXPECT_EQ(test, k->log.adds, 2U);
	KUNIT_EXPECT_EQ(test, tern_blocks_count(k->bl), 2U);
	/* Subscriber 2: the last block, then pool4 has none. */
	for (i = 0; i < 32; i++) {
		s = kt_blk_add(k, TERN_L4_UDP, KT6(2, 1, 2000 + i), &r, &why);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	}
	s = kt_blk_add(k, TERN_L4_UDP, KT6(2, 1, 3000), &r, &why);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EADDRINUSE);
	KUNIT_EXPECT_EQ(test, why, TERN_STAT_DROP_POOL4_FULL);
	KUNIT_EXPECT_EQ(test, k->log.adds, 3U);
	KUNIT_EXPECT_EQ(test, k->log.dels, 0U);
	KT_EXPECT_COUNT(test, k->t, 96, 96);
	kt_blk_teardown(k);
}

#define KT_GROW_SUBS	2100

/*
 * 2,100 subscribers with a block each: tern_blocks_grow() (the expiry
 * worker's) takes both hashes from 1,024 buckets to 4,096; every block
 * is found again where it moved, and every subscriber's record (a second
 * entry of each goes in its block: no new block); a flush returns them.
 */
static void blocks_grow(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 0), 26, UDP, 1024, 3071, 0),
	};
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 53);
	struct tern_session **s, *s2;
	unsigned int i, lost = 0;
	struct kt_blk *k;
	int why;

	s = kunit_kcalloc(test, KT_GROW_SUBS, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	k = kt_blk_setup(test, e, ARRAY_SIZE(e), 16, 0);
	for (i = 0; i < KT_GROW_SUBS; i++) {
		s[i] = kt_blk_add(k, TERN_L4_UDP, KT6(1 + i, 1, 4000), &r, &why);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_OR_NULL(s[i]),
				       "sub %u why %d", i, why);
	}
	KUNIT_EXPECT_EQ(test, tern_blocks_count(k->bl), KT_GROW_SUBS);
	KUNIT_EXPECT_EQ(test, k->bl->mask, 1023U);
	tern_blocks_grow(k->bl);
	KUNIT_EXPECT_EQ(test, k->bl->mask, 4095U);
	spin_lock_bh(&k->bl->lock);
	for (i = 0; i < KT_GROW_SUBS; i++) {
		const struct tern_bib *b = s[i]->bib;
		u16 port = ntohs(b->t4.port);

		lost += !tern_blk_find(k->bl, TERN_L4_UDP, b->t4.addr,
				       port - port % 16);
	}
	spin_unlock_bh(&k->bl->lock);
	KUNIT_EXPECT_EQ(test, lost, 0U);
	/* As many blocks as buckets: nothing to do. */
	tern_blocks_grow(k->bl);
	KUNIT_EXPECT_EQ(test, k->bl->mask, 4095U);
	for (i = 0; i < KT_GROW_SUBS; i++) {
		s2 = kt_blk_add(k, TERN_L4_UDP, KT6(1 + i, 2, 4001), &r, &why);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s2));
		KUNIT_EXPECT_EQ(test, s2->bib->t4.addr, s[i]->bib->t4.addr);
		KUNIT_EXPECT_EQ(test, ntohs(s2->bib->t4.port) / 16,
				ntohs(s[i]->bib->t4.port) / 16);
	}
	KUNIT_EXPECT_EQ(test, k->log.adds, KT_GROW_SUBS);
	KT_EXPECT_COUNT(test, k->t, 2 * KT_GROW_SUBS, 2 * KT_GROW_SUBS);
	tern_tables_flush(k->t, TERN_L4_N);
	KUNIT_EXPECT_EQ(test, k->log.dels, KT_GROW_SUBS);
	KUNIT_EXPECT_EQ(test, tern_blocks_count(k->bl), 0U);
	kt_blk_teardown(k);
}

/*
 * pool4 by mark: a subscriber's block of mark 1's address does not serve
 * a packet of mark 2, which gets a block of mark 2's address.
 */
static void blocks_mark(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 1), 32, UDP, 1024, 65535, 1),
		ENTRY(A4(203, 0, 113, 1), 32, UDP, 1024, 65535, 2),
	};
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 53);
	struct tern_session *s;
	struct kt_blk *k;
	int why;

	k = kt_blk_setup(test, e, ARRAY_SIZE(e), 256, 0);
	s = kt_blk_add_mark(k, TERN_L4_UDP, KT6(1, 1, 2000), &r, 1, &why);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_EQ(test, s->bib->t4.addr, A4(192, 0, 2, 1));
	s = kt_blk_add_mark(k, TERN_L4_UDP, KT6(1, 1, 2001), &r, 2, &why);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_EQ(test, s->bib->t4.addr, A4(203, 0, 113, 1));
	s = kt_blk_add_mark(k, TERN_L4_UDP, KT6(1, 1, 2002), &r, 1, &why);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_EQ(test, s->bib->t4.addr, A4(192, 0, 2, 1));
	KUNIT_EXPECT_EQ(test, k->log.adds, 2U);
	kt_blk_teardown(k);
}

/*
 * The search for a free block counts the addresses it visits: 32,768 of
 * them whose ports hold no aligned block of 1000 (64536-65535) and, last
 * of the run, one that does. A subscriber whose search starts more than
 * TERN_BLK_PROBES addresses before that one is refused (pool4 full), not
 * walked through the whole pool under the blocks' lock.
 */
static void blocks_probe_bound(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(10, 0, 0, 0), 17, UDP, 64536, 65535, 0),
		ENTRY(A4(10, 1, 0, 1), 32, UDP, 1000, 65535, 0),
	};
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 53);
	unsigned int sub, got = 0, refused = 0;
	struct tern_session *s;
	struct kt_blk *k;
	int why;

	k = kt_blk_setup(test, e, ARRAY_SIZE(e), 1000, 0);
	for (sub = 1; sub <= 16; sub++) {
		s = kt_blk_add(k, TERN_L4_UDP, KT6(sub, 1, 2000), &r, &why);
		if (IS_ERR(s)) {
			KUNIT_EXPECT_EQ(test, why, TERN_STAT_DROP_POOL4_FULL);
			refused++;
			continue;
		}
		KUNIT_EXPECT_EQ(test, s->bib->t4.addr, A4(10, 1, 0, 1));
		got++;
	}
	kunit_info(test, "%u subscribers got a block, %u refused\n", got,
		   refused);
	KUNIT_EXPECT_GT(test, refused, 0U);
	kt_blk_teardown(k);
}

struct kt_blk_count {
	struct tern_blk_pick bp;
	unsigned int calls;
};

static bool kt_blk_count_pick(void *arg, const struct tern_ta6 *t6,
			      unsigned int attempt, struct tern_ta4 *t4)
{
	struct kt_blk_count *c = arg;

	c->calls++;
	return tern_blk_pick4(&c->bp, t6, attempt, t4);
}

/*
 * One block of 1024 ports, full but one freed port: the next entry gets
 * that port, after TERN_PICK_PROBES candidates of its class and parity at
 * most and then the block's map, not a lookup of each port.
 */
static void blocks_last_port_bounded(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 1), 32, UDP, 1024, 2047, 0),
	};
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 53);
	struct kt_blk_count c;
	struct tern_session *s;
	struct kt_blk *k;
	u16 freed = 0;
	bool made;
	int i, why;

	k = kt_blk_setup(test, e, ARRAY_SIZE(e), 1024, 0);
	for (i = 0; i < 1024; i++) {
		s = kt_blk_add(k, TERN_L4_UDP, KT6(1, 1, 10000 + i), &r, &why);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
		if (i == 500)
			freed = ntohs(s->bib->t4.port);
	}
	KUNIT_EXPECT_EQ(test, tern_bib_del(k->t, TERN_L4_UDP,
					   KT6(1, 1, 10500), NULL), 0);
	c.calls = 0;
	local_bh_disable();
	rcu_read_lock();
	tern_blk_pick_init(&c.bp, k->bl, k->pool, &k->key, k->size, 0,
			   k->lim.sub_prefix_len, TERN_L4_UDP, 0);
	s = tern_sess_add6(k->t, TERN_L4_UDP, KT6(1, 1, 20000), &r, &k->lim,
			   kt_blk_count_pick, &c, 0, 60 * HZ, &made);
	tern_blk_pick_end(&c.bp);
	rcu_read_unlock();
	local_bh_enable();
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_EQ(test, ntohs(s->bib->t4.port), freed);
	KUNIT_EXPECT_LE(test, c.calls, TERN_PICK_PROBES + 1U);
	KUNIT_EXPECT_EQ(test, tern_blocks_count(k->bl), 1U);
	kt_blk_teardown(k);
}

/*
 * port-block-size turned off with a block still given: the other
 * subscribers' new entries (tern_pick4(), passing over that block) never
 * take its ports, nor are charged to it: it goes back with its own last
 * entry while theirs remain; then its ports are anyone's.
 */
static void blocks_off_drain(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 1), 32, UDP, 1024, 1279, 0),
	};
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 53);
	struct tern_ta6 a = kt_t6(1, 1, 5000);
	struct tern_blk_drain d;
	struct tern_pick pick;
	struct tern_session *s;
	unsigned int i, in_block = 0, made = 0;
	struct kt_blk *k;
	bool fresh;
	u16 first, port;
	int why;

	k = kt_blk_setup(test, e, ARRAY_SIZE(e), 64, 0);
	s = kt_blk_add(k, TERN_L4_UDP, &a, &r, &why);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	first = ntohs(s->bib->t4.port) / 64 * 64;
	pick = (struct tern_pick){ .pool = k->pool, .key = &k->key,
				   .l4 = TERN_L4_UDP };
	for (i = 0; i < 100; i++) {
		d = (struct tern_blk_drain){ k->bl, &pick };
		local_bh_disable();
		rcu_read_lock();
		s = tern_sess_add6(k->t, TERN_L4_UDP, KT6(2 + i, 1, 4000), &r,
				   &k->lim, tern_blk_drain_pick4, &d, 0,
				   60 * HZ, &fresh);
		port = IS_ERR(s) ? 0 : ntohs(s->bib->t4.port);
		rcu_read_unlock();
		local_bh_enable();
		if (!port)
			continue;
		made++;
		in_block += port >= first && port < first + 64;
	}
	KUNIT_EXPECT_GT(test, made, 90U);
	KUNIT_EXPECT_EQ(test, in_block, 0U);
	KUNIT_EXPECT_EQ(test, tern_bib_del(k->t, TERN_L4_UDP, &a, NULL), 0);
	KUNIT_EXPECT_EQ(test, k->log.dels, 1U);
	KUNIT_EXPECT_EQ(test, tern_blocks_count(k->bl), 0U);
	kt_blk_teardown(k);
}

static struct kunit_case tern_nat64_blocks_cases[] = {
	KUNIT_CASE(blocks_own),
	KUNIT_CASE(blocks_release_last),
	KUNIT_CASE(blocks_refused),
	KUNIT_CASE(blocks_mark),
	KUNIT_CASE(blocks_last_port_bounded),
	KUNIT_CASE(blocks_probe_bound),
	KUNIT_CASE(blocks_off_drain),
	KUNIT_CASE(blocks_grow),
	{}
};

static struct kunit_suite tern_nat64_blocks_suite = {
	.name = "tern_nat64_blocks",
	.suite_init = kt_table_suite_init,
	.test_cases = tern_nat64_blocks_cases,
};

kunit_test_suite(tern_nat64_blocks_suite);

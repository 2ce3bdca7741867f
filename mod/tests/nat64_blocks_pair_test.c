// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: port blocks keep paired pooling (RFC 6146 3.5.1.1) when pool4
 * changes: a subscriber's new block is on the address of its latest block
 * of the protocol while that address has a free block, wherever its
 * prefix hashes to in the new pool4; once the address is full, elsewhere.
 */

#include "kt_blocks.h"

#define KT_PAIR_SUBS	8

/*
 * Blocks of 32 of 192.0.2.1's ports 1024-1535 (16 blocks): 8 subscribers
 * get their first there. Then pool4 grows by 198.51.100.0/24 (257
 * addresses; a subscriber's prefix hashes to 192.0.2.1 one time in 257):
 * each subscriber's second block is on 192.0.2.1 too, filling it. A third
 * block, and a new subscriber's first, go elsewhere.
 */
static void blocks_pair_pool4_grows(struct kunit *test)
{
	static const struct tern_pool4_entry one[] = {
		ENTRY(A4(192, 0, 2, 1), 32, UDP, 1024, 1535, 0),
	};
	static const struct tern_pool4_entry more[] = {
		ENTRY(A4(192, 0, 2, 1), 32, UDP, 1024, 1535, 0),
		ENTRY(A4(198, 51, 100, 0), 24, UDP, 1024, 1535, 0),
	};
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 53);
	__be32 a = A4(192, 0, 2, 1);
	struct tern_session *s;
	unsigned int i, sub;
	struct kt_blk *k;
	int why;

	k = kt_blk_setup(test, one, ARRAY_SIZE(one), 32, 0);
	for (sub = 1; sub <= KT_PAIR_SUBS; sub++) {
		s = kt_blk_add(k, TERN_L4_UDP, KT6(sub, 1, 2000), &r, &why);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
		KUNIT_EXPECT_EQ(test, s->bib->t4.addr, a);
	}
	tern_pool4_free(k->pool);
	k->pool = tern_kt_pool(test, more, ARRAY_SIZE(more));
	/* 31 more entries fill each first block, the 33rd takes a second. */
	for (sub = 1; sub <= KT_PAIR_SUBS; sub++) {
		for (i = 1; i <= 32; i++) {
			s = kt_blk_add(k, TERN_L4_UDP, KT6(sub, 1 + i % 2,
							   2000 + i),
				       &r, &why);
			KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_OR_NULL(s),
					       "sub %u entry %u why %d", sub,
					       i, why);
			KUNIT_EXPECT_EQ_MSG(test, s->bib->t4.addr, a,
					    "sub %u entry %u: %pI4", sub, i,
					    &s->bib->t4.addr);
			KUNIT_EXPECT_TRUE(test,
					  kt_blk_owned(&k->log, TERN_L4_UDP,
						       KT6(sub, 1, 0),
						       &s->bib->t4));
		}
	}
	KUNIT_EXPECT_EQ(test, k->log.adds, 2U * KT_PAIR_SUBS);
	/* 192.0.2.1 has no free block left: a third one is elsewhere. */
	for (i = 33; i <= 65; i++) {
		s = kt_blk_add(k, TERN_L4_UDP, KT6(1, 1, 2000 + i), &r, &why);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_OR_NULL(s),
				       "entry %u why %d", i, why);
	}
	KUNIT_EXPECT_NE(test, s->bib->t4.addr, a);
	KUNIT_EXPECT_EQ(test, ntohl(s->bib->t4.addr) >> 8, 0xc6336400U >> 8);
	s = kt_blk_add(k, TERN_L4_UDP, KT6(KT_PAIR_SUBS + 1, 1, 2000), &r,
		       &why);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_EXPECT_NE(test, s->bib->t4.addr, a);
	KUNIT_EXPECT_EQ(test, k->log.adds, 2U * KT_PAIR_SUBS + 2);
	KT_EXPECT_COUNT(test, k->t, 33 * KT_PAIR_SUBS + 34,
			33 * KT_PAIR_SUBS + 34);
	kt_blk_teardown(k);
}

static struct kunit_case tern_nat64_blocks_pair_cases[] = {
	KUNIT_CASE(blocks_pair_pool4_grows),
	{}
};

static struct kunit_suite tern_nat64_blocks_pair_suite = {
	.name = "tern_nat64_blocks_pair",
	.suite_init = kt_table_suite_init,
	.test_cases = tern_nat64_blocks_pair_cases,
};

kunit_test_suite(tern_nat64_blocks_pair_suite);

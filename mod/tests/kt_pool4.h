/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the suites of pool4 and of what picks from it
 * (tern_nat64_pool4*, tern_nat64_det, tern_nat64_boxes, tern_nat64_blocks):
 * entries, pools built of them, pickers compared, IPv6 sources, a
 * deterministic configuration and its refusals.
 */
#ifndef _TERN_KT_POOL4_H
#define _TERN_KT_POOL4_H

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/string.h>
#include "nat64/det.h"
#include "nat64/pool4.h"

#define A4(a, b, c, d)	cpu_to_be32((u32)(a) << 24 | (b) << 16 | (c) << 8 | (d))

#define ENTRY(a, len, l4, min, max, m) \
	{ { (a), (len) }, TERN_L4_##l4, (min), (max), (m) }

/* A pool of @n entries (the test stops if one is refused). */
static inline struct tern_pool4 *tern_kt_pool(struct kunit *test,
					      const struct tern_pool4_entry *e,
					      unsigned int n)
{
	const struct tern_pool4_entry *c;
	struct tern_pool4 *p = NULL, *q;
	unsigned int i;

	for (i = 0; i < n; i++) {
		q = tern_pool4_add(p, &e[i], &c);
		if (IS_ERR_OR_NULL(q))
			tern_pool4_free(p);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR_OR_NULL(q), "entry %u: %ld",
				       i, PTR_ERR(q));
		tern_pool4_free(p);
		p = q;
	}
	return p;
}

/* Pickers @p and @q both pick, and the same, for @t6 at @attempt (in @t4). */
static inline void tern_kt_same_pick(struct kunit *test, struct tern_pick *p,
				     struct tern_pick *q,
				     const struct tern_ta6 *t6,
				     unsigned int attempt, struct tern_ta4 *t4)
{
	struct tern_ta4 u4;

	KUNIT_ASSERT_TRUE(test, tern_pick4(p, t6, attempt, t4));
	KUNIT_ASSERT_TRUE(test, tern_pick4(q, t6, attempt, &u4));
	KUNIT_ASSERT_EQ(test, t4->addr, u4.addr);
	KUNIT_ASSERT_EQ(test, t4->port, u4.port);
}

/* IPv6 source number @i: 2001:db8::/32 with @i spread over the address. */
static inline void tern_kt_src(struct tern_ta6 *t6, u32 i, u16 port)
{
	memset(t6, 0, sizeof(*t6));
	t6->addr.s6_addr32[0] = cpu_to_be32(0x20010db8);
	t6->addr.s6_addr32[2] = cpu_to_be32(i * 2654435761U);
	t6->addr.s6_addr32[3] = cpu_to_be32(i);
	t6->port = htons(port);
}

/* Subscriber @i of 2001:db8:100::/120 (/128 each), port @port. */
static inline void tern_kt_det_src(struct tern_ta6 *t6, u32 i, u16 port)
{
	memset(t6, 0, sizeof(*t6));
	t6->addr.s6_addr32[0] = cpu_to_be32(0x20010db8);
	t6->addr.s6_addr32[1] = cpu_to_be32(0x01000000);
	t6->addr.s6_addr32[3] = cpu_to_be32(i);
	t6->port = htons(port);
}

/* Deterministic mode over det-space 2001:db8:100::/@space_len (one box). */
static inline struct tern_config *tern_kt_det_cfg(struct kunit *test,
						  u8 space_len, u32 sub_len,
						  u32 block)
{
	struct tern_config *cfg = kunit_kzalloc(test, sizeof(*cfg),
						GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cfg);
	cfg->det_space_set = true;
	cfg->det_space.addr.s6_addr32[0] = cpu_to_be32(0x20010db8);
	cfg->det_space.addr.s6_addr32[1] = cpu_to_be32(0x01000000);
	cfg->det_space.len = space_len;
	cfg->sub_prefix_len = sub_len;
	cfg->det_block = block;
	return cfg;
}

/* tern_det_validate() refuses @cfg with pool4 @p (NULL: none), saying @want. */
static inline void tern_kt_det_refused(struct kunit *test,
				       const struct tern_config *cfg,
				       const struct tern_pool4 *p,
				       const char *want)
{
	char msg[80] = "";

	KUNIT_EXPECT_EQ(test, tern_det_validate(cfg, p, msg, sizeof(msg)),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, msg, want);
}

#endif /* _TERN_KT_POOL4_H */

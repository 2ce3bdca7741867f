// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: several boxes, one pool (box-count, box-index). The shares of
 * include/tern_share.h partition a run of addresses exactly (no overlap,
 * no gap, contiguous, sizes floor or ceil of N/n) and name their owner
 * back; tern_pick4() picks addresses of its box's share only (and has
 * none where tern_pick_serves() says so); in
 * deterministic mode every subscriber has one block on every box, blocks
 * of different boxes never share an (address, port), and the lookups
 * agree both ways per box; the configuration checks name their numbers.
 */

#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "nat64/det.h"
#include "kt_pool4.h"
#include "tern_share.h"

static const siphash_key_t tern_kt_box_key = { { 0x1122334455667788ULL,
						 0x99aabbccddeeff00ULL } };

/* --- the arithmetic */

static const u32 tern_kt_ns[] = { 1, 2, 3, 5, 7, 16, 100, 255, 256, 1000,
				  4097, 65536 };
static const u32 tern_kt_boxes[] = { 1, 2, 3, 4, 7, 16, 100, 1024 };

/*
 * For every N and n <= N: first(0) = 0, first(n) = N, each share ends
 * where the next begins (no gap, no overlap), non-empty, of floor(N/n)
 * or ceil(N/n) addresses, the smallest of them tern_share_min(); and
 * owner(j) is the box whose [first, first + size) holds j.
 */
static void share_partition(struct kunit *test)
{
	u32 a, b, k, j, n, boxes, first, size, small;

	for (a = 0; a < ARRAY_SIZE(tern_kt_ns); a++) {
		n = tern_kt_ns[a];
		for (b = 0; b < ARRAY_SIZE(tern_kt_boxes); b++) {
			boxes = tern_kt_boxes[b];
			if (boxes > n)
				continue;
			KUNIT_ASSERT_EQ(test, tern_share_first(n, boxes, 0), 0U);
			KUNIT_ASSERT_EQ(test, tern_share_first(n, boxes, boxes),
					n);
			small = U32_MAX;
			for (k = 0; k < boxes; k++) {
				first = tern_share_first(n, boxes, k);
				size = tern_share_size(n, boxes, k);
				KUNIT_ASSERT_EQ(test, first + size,
						tern_share_first(n, boxes,
								 k + 1));
				KUNIT_ASSERT_GE(test, size, n / boxes);
				KUNIT_ASSERT_LE(test, size,
						DIV_ROUND_UP(n, boxes));
				KUNIT_ASSERT_GT(test, size, 0U);
				small = min(small, size);
				/* Every j of small shares, the ends of others. */
				for (j = first; j < first + size;
				     j += size <= 64 ? 1 : size - 1)
					KUNIT_ASSERT_EQ(test,
							tern_share_owner(n, boxes, j),
							k);
			}
			KUNIT_ASSERT_EQ(test, tern_share_min(n, boxes), small);
			KUNIT_ASSERT_EQ(test, tern_share_size(n, boxes, boxes),
					0U);
		}
	}
	/* Fewer addresses than boxes: some share is empty. */
	KUNIT_EXPECT_EQ(test, tern_share_min(2, 3), 0U);
	KUNIT_EXPECT_EQ(test, tern_share_size(2, 3, 0), 0U);
	/* One box (or 0, a zeroed configuration): all of them. */
	KUNIT_EXPECT_EQ(test, tern_share_size(7, 1, 0), 7U);
	KUNIT_EXPECT_EQ(test, tern_share_size(7, 0, 0), 7U);
	KUNIT_EXPECT_EQ(test, tern_share_size(7, 0, 1), 0U);
}

/* A power-of-two pool by a power of two: aligned prefixes. */
static void share_prefixes(struct kunit *test)
{
	u32 k;

	for (k = 0; k < 4; k++) {
		KUNIT_EXPECT_EQ(test, tern_share_first(256, 4, k), 64 * k);
		KUNIT_EXPECT_EQ(test, tern_share_size(256, 4, k), 64U);
	}
	KUNIT_EXPECT_EQ(test, tern_share_first(65536, 1024, 1023), 65472U);
	KUNIT_EXPECT_EQ(test, tern_share_size(65536, 1024, 1023), 64U);
}

/* --- tern_pick4() over a share */

/*
 * A TCP run of 12 addresses in two entries (192.0.2.0/29, 198.51.100.4/30)
 * and one of 4 of another mark: each box's candidates, at every attempt,
 * lie in its share of the run of the packet's mark; with one box the
 * choice is the one without the fields (zeroed).
 */
static void pick_share(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 0), 29, TCP, 1024, 65535, 0),
		ENTRY(A4(198, 51, 100, 4), 30, TCP, 1024, 65535, 0),
		ENTRY(A4(203, 0, 113, 0), 30, TCP, 1024, 65535, 9),
	};
	/* The run of mark 0 in ascending order: 12 addresses. */
	static const __be32 run0[] = {
		A4(192, 0, 2, 0), A4(192, 0, 2, 1), A4(192, 0, 2, 2),
		A4(192, 0, 2, 3), A4(192, 0, 2, 4), A4(192, 0, 2, 5),
		A4(192, 0, 2, 6), A4(192, 0, 2, 7), A4(198, 51, 100, 4),
		A4(198, 51, 100, 5), A4(198, 51, 100, 6), A4(198, 51, 100, 7),
	};
	struct tern_pick pk = { NULL, &tern_kt_box_key, 0, TERN_L4_TCP };
	struct tern_pick one;
	u32 i, k, j, att, seen[3] = { 0 };
	struct tern_ta4 t4;
	struct tern_ta6 t6;

	pk.pool = tern_kt_pool(test, e, ARRAY_SIZE(e));
	pk.boxes = 3;
	for (k = 0; k < 3; k++) {
		pk.box = k;
		pk.mark = 0;
		for (i = 0; i < 200; i++) {
			tern_kt_src(&t6, i, 30000 + i);
			for (att = 0; att < TERN_PICK_PROBES; att += 13) {
				KUNIT_ASSERT_TRUE(test,
						  tern_pick4(&pk, &t6, att, &t4));
				for (j = 0; j < 12 && run0[j] != t4.addr; j++)
					;
				KUNIT_ASSERT_LT(test, j, 12U);
				/* Shares of 12 by 3: 0-3, 4-7, 8-11. */
				KUNIT_ASSERT_EQ(test, j / 4, k);
				seen[k] |= 1U << j;
			}
		}
		/* Mark 9, 4 addresses: box k has 203.0.113.k, box 2 .3 too. */
		pk.mark = 9;
		for (i = 0; i < 50; i++) {
			tern_kt_src(&t6, i, 30000 + i);
			KUNIT_ASSERT_TRUE(test, tern_pick4(&pk, &t6, 0, &t4));
			j = ntohl(t4.addr) - (ntohl(A4(203, 0, 113, 0)));
			KUNIT_ASSERT_EQ(test, j == 3 ? 2 : j, k);
		}
	}
	/* Every address of each share was used. */
	KUNIT_EXPECT_EQ(test, seen[0], 0x00fU);
	KUNIT_EXPECT_EQ(test, seen[1], 0x0f0U);
	KUNIT_EXPECT_EQ(test, seen[2], 0xf00U);
	/* Box 3 of 3 (never validated) picks nothing. */
	pk.box = 3;
	KUNIT_EXPECT_FALSE(test, tern_pick4(&pk, &t6, 0, &t4));
	/* One box: as without the fields. */
	one = (struct tern_pick){ pk.pool, &tern_kt_box_key, 0, TERN_L4_TCP };
	pk.boxes = 1;
	pk.box = 0;
	pk.mark = 0;
	for (i = 0; i < 100; i++) {
		tern_kt_src(&t6, i, 1000 + i);
		tern_kt_same_pick(test, &pk, &one, &t6, i % 40, &t4);
	}
	tern_pool4_free((struct tern_pool4 *)pk.pool);
}

/* --- deterministic mode over a share */

struct tern_kt_det_boxes {
	const char *name;
	u32 boxes;
	u32 len;		/* of the /N prefix at 192.0.2.0 */
	u16 pmin, pmax;
};

static const struct tern_kt_det_boxes tern_kt_det_boxes_cases[] = {
	{ "16 addrs, 3 boxes", 3, 28, 1024, 1279 },
	{ "16 addrs, 4 boxes", 4, 28, 2000, 2255 },
	{ "8 addrs, 8 boxes", 8, 29, 1024, 1535 },
	{ "32 addrs, 5 boxes", 5, 27, 1024, 1151 },
	{ "4 addrs, 1 box", 1, 30, 1024, 1087 },
};

static void tern_kt_det_boxes_desc(const struct tern_kt_det_boxes *c,
				   char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tern_kt_det_boxes, tern_kt_det_boxes_cases,
		  tern_kt_det_boxes_desc);

/*
 * 256 subscribers, a pool of 2^(32-len) addresses: on every box k each
 * subscriber gets a block (tern_det_prepare() accepts it) on an address
 * of k's share; no (address, port) belongs to two blocks of any boxes;
 * and back, with k's shape, every port of the block names the subscriber.
 */
static void det_blocks_per_box(struct kunit *test)
{
	const struct tern_kt_det_boxes *c = test->param_value;
	const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 0), c->len, UDP, c->pmin, c->pmax, 0),
	};
	struct tern_config *cfg = tern_kt_det_cfg(test, 120, 128, 0);
	struct tern_pool4 *p = tern_kt_pool(test, e, 1);
	u32 n = 1U << (32 - c->len), ports = c->pmax - c->pmin + 1;
	u32 k, i, a, port, back, first, size;
	struct tern_det_shape d;
	struct tern_det_pick dp;
	unsigned long *used;
	struct tern_ta6 t6;
	char msg[80];

	cfg->box_count = c->boxes;
	KUNIT_ASSERT_EQ(test, tern_det_validate(cfg, p, msg, sizeof(msg)), 0);
	used = kunit_kzalloc(test, BITS_TO_LONGS(n * ports) * sizeof(long),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, used);
	for (k = 0; k < c->boxes; k++) {
		cfg->box_index = k;
		first = tern_share_first(n, c->boxes, k);
		size = tern_share_size(n, c->boxes, k);
		KUNIT_ASSERT_TRUE(test, tern_det_shape_of(cfg, p, TERN_L4_UDP,
							  &d));
		KUNIT_ASSERT_EQ(test, d.n_addrs, size);
		for (i = 0; i < 256; i++) {
			tern_kt_det_src(&t6, i, 40000);
			KUNIT_ASSERT_EQ(test, tern_det_prepare(&dp, cfg, p,
							       TERN_L4_UDP,
							       &t6), 0);
			a = ntohl(dp.addr) - ntohl(A4(192, 0, 2, 0));
			KUNIT_ASSERT_GE(test, a, first);
			KUNIT_ASSERT_LT(test, a, first + size);
			KUNIT_ASSERT_EQ(test, dp.size, tern_det_block(&d));
			for (port = dp.first; port < dp.first + dp.size;
			     port++) {
				KUNIT_ASSERT_GE(test, port, (u32)c->pmin);
				KUNIT_ASSERT_LE(test, port, (u32)c->pmax);
				KUNIT_ASSERT_FALSE(test, __test_and_set_bit(
					a * ports + port - c->pmin, used));
				back = U32_MAX;
				KUNIT_ASSERT_TRUE(test, tern_det_unmap(&d,
						  a - first, port, &back));
				KUNIT_ASSERT_EQ(test, back, i);
			}
		}
	}
	tern_pool4_free(p);
}

/* --- the checks of the settings */

static void box_validate_msgs(struct kunit *test)
{
	static const struct tern_pool4_entry two[] = {
		ENTRY(A4(192, 0, 2, 0), 31, TCP, 1024, 65535, 0),
		ENTRY(A4(192, 0, 2, 8), 29, UDP, 1024, 65535, 5),
	};
	static const struct tern_pool4_entry nested[] = {
		ENTRY(A4(192, 0, 2, 0), 29, ICMP, 0, 99, 0),
		ENTRY(A4(192, 0, 2, 5), 32, ICMP, 200, 299, 0),
	};
	static const struct tern_pool4_entry sixteen[] = {
		ENTRY(A4(192, 0, 2, 0), 28, TCP, 1024, 65535, 0),
	};
	/* Routed by address: every run of an address must share it alike. */
	static const struct tern_pool4_entry part[] = {
		ENTRY(A4(192, 0, 2, 0), 28, TCP, 1024, 65535, 0),
		ENTRY(A4(192, 0, 2, 0), 29, UDP, 1024, 65535, 0),
	};
	static const struct tern_pool4_entry split[] = {
		ENTRY(A4(192, 0, 2, 0), 28, TCP, 1024, 65535, 0),
		ENTRY(A4(192, 0, 2, 0), 29, UDP, 1024, 65535, 0),
		ENTRY(A4(192, 0, 2, 8), 29, UDP, 1024, 65535, 0),
		ENTRY(A4(198, 51, 100, 0), 30, UDP, 1024, 65535, 3),
	};
	struct tern_config *cfg = tern_kt_det_cfg(test, 120, 128, 0);
	struct tern_pool4 *p;
	char msg[80];

	cfg->box_count = 3;
	cfg->det_space_set = false;
	cfg->box_index = 3;
	tern_kt_det_refused(test, cfg, NULL,
			    "box-index 3 is not below box-count 3");
	cfg->box_index = 2;
	KUNIT_EXPECT_EQ(test, tern_det_validate(cfg, NULL, msg, sizeof(msg)),
			0);
	/* 2 TCP addresses for 3 boxes; the 8 UDP ones of mark 5 would do. */
	p = tern_kt_pool(test, two, ARRAY_SIZE(two));
	tern_kt_det_refused(test, cfg, p,
			    "box-count 3 > 2 TCP pool4 addresses (mark 0): a box gets none");
	cfg->box_count = 2;
	tern_kt_det_refused(test, cfg, p,
			    "box-index 2 is not below box-count 2");
	cfg->box_index = 1;
	KUNIT_EXPECT_EQ(test, tern_det_validate(cfg, p, msg, sizeof(msg)), 0);
	tern_pool4_free(p);
	/* An address in two entries of a run could be in two shares. */
	p = tern_kt_pool(test, nested, ARRAY_SIZE(nested));
	tern_kt_det_refused(test, cfg, p,
			    "box-count: ICMP pool4 192.0.2.0/29 and 192.0.2.5/32 overlap");
	cfg->box_count = 1;
	cfg->box_index = 0;
	KUNIT_EXPECT_EQ(test, tern_det_validate(cfg, p, msg, sizeof(msg)), 0);
	tern_pool4_free(p);
	/*
	 * UDP has 8 of TCP's 16 addresses: 192.0.2.4 is box 0's by TCP's
	 * shares, box 1's by UDP's. The same 16 in two entries, and another
	 * run with none of them, are fine.
	 */
	cfg->box_count = 2;
	p = tern_kt_pool(test, part, ARRAY_SIZE(part));
	tern_kt_det_refused(test, cfg, p,
			    "box-count: TCP (mark 0) and UDP (mark 0) pool4 share some addresses only");
	tern_pool4_free(p);
	p = tern_kt_pool(test, split, ARRAY_SIZE(split));
	KUNIT_EXPECT_EQ(test, tern_det_validate(cfg, p, msg, sizeof(msg)), 0);
	tern_pool4_free(p);
	cfg->box_count = 1;
	/*
	 * Deterministic: 2^16 subscribers, blocks of 12 ports: 16 addresses
	 * x 5376 blocks hold them, the 5 of the smallest of 3 shares not.
	 */
	p = tern_kt_pool(test, sixteen, 1);
	cfg->det_space_set = true;
	cfg->det_space.len = 112;
	cfg->det_block = 12;
	KUNIT_EXPECT_EQ(test, tern_det_validate(cfg, p, msg, sizeof(msg)), 0);
	cfg->box_count = 3;
	tern_kt_det_refused(test, cfg, p,
			    "det: 65536 subscribers > TCP box: 5 addrs x 5376 blocks of 12");
	/* Blocks of 4: 5 addresses x 16128 blocks hold them. */
	cfg->det_block = 4;
	KUNIT_EXPECT_EQ(test, tern_det_validate(cfg, p, msg, sizeof(msg)), 0);
	tern_pool4_free(p);
}

/*
 * tern_pick_serves() (a refusal's counter: drop-no-pool4 where it is
 * false, drop-pool4-full where true) is true exactly when tern_pick4()
 * has a candidate: pool4 has entries of the protocol and mark and this
 * box's share of them is not empty.
 */
static void pick_serves(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 0), 30, TCP, 1024, 65535, 0),
		ENTRY(A4(198, 51, 100, 1), 32, UDP, 2000, 2001, 5),
	};
	static const struct {
		u8 l4;
		u32 mark, boxes, box;
		bool serves;
	} c[] = {
		{ TERN_L4_TCP, 0, 1, 0, true },
		{ TERN_L4_TCP, 5, 1, 0, false },
		{ TERN_L4_UDP, 0, 1, 0, false },
		{ TERN_L4_UDP, 5, 1, 0, true },
		{ TERN_L4_ICMP, 0, 1, 0, false },
		/* 4 TCP addresses by 3 boxes, 1 UDP address by 2. */
		{ TERN_L4_TCP, 0, 3, 2, true },
		{ TERN_L4_UDP, 5, 2, 0, false },
		{ TERN_L4_UDP, 5, 2, 1, true },
		{ TERN_L4_TCP, 0, 3, 3, false },
	};
	struct tern_pick pk = { NULL, &tern_kt_box_key, 0, TERN_L4_TCP };
	struct tern_pool4 *p;
	struct tern_ta4 t4;
	struct tern_ta6 t6;
	u32 i;

	tern_kt_src(&t6, 1, 40000);
	KUNIT_EXPECT_FALSE(test, tern_pick_serves(&pk));
	p = tern_kt_pool(test, e, ARRAY_SIZE(e));
	pk.pool = p;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		pk.l4 = c[i].l4;
		pk.mark = c[i].mark;
		pk.boxes = c[i].boxes;
		pk.box = c[i].box;
		KUNIT_EXPECT_EQ_MSG(test, tern_pick_serves(&pk), c[i].serves,
				    "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, tern_pick4(&pk, &t6, 0, &t4),
				    c[i].serves, "case %u", i);
	}
	tern_pool4_free(p);
}

static struct kunit_case tern_boxes_cases[] = {
	KUNIT_CASE(share_partition),
	KUNIT_CASE(share_prefixes),
	KUNIT_CASE(pick_share),
	KUNIT_CASE(pick_serves),
	KUNIT_CASE_PARAM(det_blocks_per_box, tern_kt_det_boxes_gen_params),
	KUNIT_CASE(box_validate_msgs),
	{}
};

static struct kunit_suite tern_boxes_suite = {
	.name = "tern_nat64_boxes",
	.test_cases = tern_boxes_cases,
};

kunit_test_suite(tern_boxes_suite);

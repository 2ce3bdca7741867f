// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: deterministic NAT64 (RFC 7422). The mapping of include/tern_det.h
 * is a bijection between the subscribers of the space and blocks that
 * never overlap, for several shapes (address counts that are not powers
 * of two, odd port ranges); the kernel's port choice stays in the block
 * and refuses once the block is used up; the configuration checks name
 * their numbers.
 */

#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "nat64/det.h"
#include "kt_pool4.h"

struct tern_kt_shape {
	const char *name;
	struct tern_det_shape d;
	u32 block;		/* the block size expected */
};

static const struct tern_kt_shape tern_kt_shapes[] = {
	{ "4 addrs, /40 to /56, derived", { 4, 1024, 65535, 0, 40, 56 }, 3 },
	{ "3 addrs, 1025-2047, B=5", { 3, 1025, 2047, 5, 120, 128 }, 5 },
	{ "7 addrs, 0-65535, derived", { 7, 0, 65535, 0, 52, 64 }, 111 },
	{ "5 addrs, 1000-1999, derived", { 5, 1000, 1999, 0, 24, 32 }, 19 },
	{ "1 addr, /128 space", { 1, 1024, 65535, 0, 128, 128 }, 64512 },
	{ "6 addrs, 1-65535, B=2", { 6, 1, 65535, 2, 48, 64 }, 2 },
};

static void tern_kt_shape_desc(const struct tern_kt_shape *s, char *desc)
{
	strscpy(desc, s->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tern_kt_shape, tern_kt_shapes, tern_kt_shape_desc);

/*
 * Every subscriber maps to a block inside the range that maps back to it
 * port by port (so no two blocks share a port), every (address, block)
 * is a subscriber's, and the prefix of an index gives the index back.
 */
static void det_bijection(struct kunit *test)
{
	const struct tern_kt_shape *s = test->param_value;
	const struct tern_det_shape *d = &s->d;
	static const u8 space[16] = { 0x20, 0x01, 0x0d, 0xb8, 0x01, 0x00,
				      0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				      0xff, 0xff, 0xff, 0xff };
	u32 b, k, n, i, j, a, first, back;
	unsigned long *seen;
	u8 pfx[16], sp[16];
	u64 subs;

	KUNIT_ASSERT_EQ(test, tern_det_check(d), TERN_DET_OK);
	b = tern_det_block(d);
	KUNIT_ASSERT_EQ(test, b, s->block);
	k = tern_det_blocks(d);
	n = d->n_addrs;
	subs = tern_det_subs(d);
	KUNIT_ASSERT_LE(test, subs, (u64)n * k);
	seen = kunit_kzalloc(test, BITS_TO_LONGS(n * k) * sizeof(long),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	/* The space's own bits, host bits clear. */
	tern_det_prefix(&(struct tern_det_shape){ .space_len = d->space_len,
						   .sub_len = d->space_len },
			space, 0, sp);
	for (i = 0; i < subs; i++) {
		tern_det_map(d, i, &a, &first);
		KUNIT_ASSERT_LT(test, a, n);
		KUNIT_ASSERT_GE(test, first, d->pmin);
		KUNIT_ASSERT_LE(test, first + b - 1, d->pmax);
		KUNIT_ASSERT_EQ(test, (first - d->pmin) % b, 0U);
		KUNIT_ASSERT_FALSE(test, __test_and_set_bit(
					 (first - d->pmin) / b * n + a, seen));
		for (j = first; j < first + b; j++) {
			back = U32_MAX;
			KUNIT_ASSERT_TRUE(test, tern_det_unmap(d, a, j, &back));
			KUNIT_ASSERT_EQ(test, back, i);
		}
		tern_det_prefix(d, sp, i, pfx);
		KUNIT_ASSERT_TRUE(test, tern_det_in_space(d, sp, pfx));
		KUNIT_ASSERT_EQ(test, tern_det_index(d, pfx), i);
	}
	/* And back: a port maps to a subscriber iff its block is one's. */
	for (a = 0; a < n; a++) {
		for (j = d->pmin; j <= d->pmax; j++) {
			u64 idx = (u64)((j - d->pmin) / b) * n + a;
			bool some = (j - d->pmin) / b < k && idx < subs;

			KUNIT_ASSERT_EQ(test, tern_det_unmap(d, a, j, &back),
					(int)some);
			if (some)
				KUNIT_ASSERT_EQ(test, (u64)back, idx);
		}
	}
}

/* Neighbouring subscribers spread over the addresses. */
static void det_spread(struct kunit *test)
{
	const struct tern_det_shape d = { 3, 1024, 65535, 0, 120, 128 };
	u32 a, first;

	tern_det_map(&d, 0, &a, &first);
	KUNIT_EXPECT_EQ(test, a, 0U);
	KUNIT_EXPECT_EQ(test, first, 1024U);
	tern_det_map(&d, 1, &a, &first);
	KUNIT_EXPECT_EQ(test, a, 1U);
	KUNIT_EXPECT_EQ(test, first, 1024U);
	tern_det_map(&d, 4, &a, &first);
	KUNIT_EXPECT_EQ(test, a, 1U);
	/* 256 subscribers, 86 blocks an address: 750 ports each. */
	KUNIT_EXPECT_EQ(test, tern_det_block(&d), 750U);
	KUNIT_EXPECT_EQ(test, first, 1024U + 750);
}

static void det_check_errors(struct kunit *test)
{
	struct tern_det_shape d = { 4, 1024, 65535, 0, 40, 56 };

	KUNIT_EXPECT_EQ(test, tern_det_check(&d), TERN_DET_OK);
	d.space_len = 57;
	KUNIT_EXPECT_EQ(test, tern_det_check(&d), TERN_DET_E_LEN);
	d.space_len = 23;
	KUNIT_EXPECT_EQ(test, tern_det_check(&d), TERN_DET_E_LEN);
	d.space_len = 24;
	KUNIT_EXPECT_EQ(test, tern_det_check(&d), TERN_DET_E_SHORT);
	d.space_len = 40;
	d.n_addrs = 0;
	KUNIT_EXPECT_EQ(test, tern_det_check(&d), TERN_DET_E_EMPTY);
	d.n_addrs = 4;
	d.block = 64513;
	KUNIT_EXPECT_EQ(test, tern_det_check(&d), TERN_DET_E_BLOCK);
	/* 4 x 15 blocks of 4096: 60 < 65536. */
	d.block = 4096;
	KUNIT_EXPECT_EQ(test, tern_det_check(&d), TERN_DET_E_SHORT);
	d.block = 3;
	KUNIT_EXPECT_EQ(test, tern_det_check(&d), TERN_DET_OK);
	d.block = 4;
	KUNIT_EXPECT_EQ(test, tern_det_check(&d), TERN_DET_E_SHORT);
}

/* --- the kernel side: a pool, a configuration */

/*
 * 5 addresses (a /30 and a /32 apart), 256 ports: 256 subscribers get a
 * block of 4 ports each. Every candidate is the subscriber's address (the
 * list in ascending order, index mod 5) and a port of its block; the
 * candidates cover the block, preferred parity first, then stop.
 */
static void det_pick_block(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(198, 51, 100, 7), 32, TCP, 1024, 1279, 0),
		ENTRY(A4(192, 0, 2, 0), 30, TCP, 1024, 1279, 0),
	};
	static const __be32 addrs[] = {
		A4(192, 0, 2, 0), A4(192, 0, 2, 1), A4(192, 0, 2, 2),
		A4(192, 0, 2, 3), A4(198, 51, 100, 7),
	};
	struct tern_config *cfg = tern_kt_det_cfg(test, 120, 128, 0);
	struct tern_pool4 *p = tern_kt_pool(test, e, ARRAY_SIZE(e));
	struct tern_det_pick dp;
	struct tern_ta6 t6;
	struct tern_ta4 t4;
	unsigned int att;
	u32 i, covered;

	for (i = 0; i < 256; i += 17) {
		u16 first = 1024 + (i / 5) * 4;

		tern_kt_det_src(&t6, i, 40000 + i);
		KUNIT_ASSERT_EQ(test, tern_det_prepare(&dp, cfg, p, TERN_L4_TCP,
						       &t6), 0);
		covered = 0;
		for (att = 0; tern_det_pick4(&dp, &t6, att, &t4); att++) {
			u16 port = ntohs(t4.port);

			KUNIT_ASSERT_EQ(test, t4.addr, addrs[i % 5]);
			KUNIT_ASSERT_GE(test, port, first);
			KUNIT_ASSERT_LE(test, port, first + 3);
			if (att < 2)
				KUNIT_EXPECT_EQ(test, port & 1, i & 1);
			covered |= 1U << (port - first);
		}
		/* 2 of its parity, then the 4: 6 candidates, all ports. */
		KUNIT_EXPECT_EQ(test, att, 6U);
		KUNIT_EXPECT_EQ(test, covered, 0xfU);
	}
	tern_pool4_free(p);
}

/*
 * pool4 of one address, TCP 1024-65535, and det-space /120 of /128
 * subscribers (*@cfg): 256 blocks of 252 ports.
 */
static struct tern_pool4 *det_one_address(struct kunit *test,
					  struct tern_config **cfg)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 0), 32, TCP, 1024, 65535, 0),
	};

	*cfg = tern_kt_det_cfg(test, 120, 128, 0);
	return tern_kt_pool(test, e, ARRAY_SIZE(e));
}

/*
 * One address, 256 subscribers: blocks of 252 ports, 126 of each parity.
 * At most half the candidates keep the IPv6 port's parity; the other
 * half are consecutive ports of the block, both parities (a parity used
 * up no longer refuses a flow while the block has ports of the other).
 */
static void det_pick_big_block(struct kunit *test)
{
	struct tern_config *cfg;
	struct tern_pool4 *p = det_one_address(test, &cfg);
	struct tern_det_pick dp;
	struct tern_ta6 t6;
	struct tern_ta4 t4;
	unsigned int att, other = 0;

	tern_kt_det_src(&t6, 7, 40000);
	KUNIT_ASSERT_EQ(test, tern_det_prepare(&dp, cfg, p, TERN_L4_TCP, &t6),
			0);
	KUNIT_ASSERT_EQ(test, dp.size, 252U);
	for (att = 0; tern_det_pick4(&dp, &t6, att, &t4); att++) {
		u16 port = ntohs(t4.port);

		KUNIT_ASSERT_GE(test, port, 1024 + 7 * 252);
		KUNIT_ASSERT_LT(test, port, 1024 + 8 * 252);
		if (att < TERN_PICK_PROBES / 2)
			KUNIT_EXPECT_EQ(test, port & 1, 0);
		else
			other += port & 1;
	}
	KUNIT_EXPECT_EQ(test, att, (unsigned int)TERN_PICK_PROBES);
	KUNIT_EXPECT_EQ(test, other, TERN_PICK_PROBES / 4U);
	tern_pool4_free(p);
}

/* Same configuration, same port (a standby box); another key, another. */
static void det_pick_key(struct kunit *test)
{
	static const struct tern_pool4_entry e[] = {
		ENTRY(A4(192, 0, 2, 0), 32, UDP, 1024, 65535, 0),
	};
	struct tern_config *cfg = tern_kt_det_cfg(test, 120, 128, 0);
	struct tern_pool4 *p = tern_kt_pool(test, e, ARRAY_SIZE(e));
	struct tern_det_pick dp, dq;
	struct tern_ta4 t4, u4;
	struct tern_ta6 t6;
	u32 i, differ = 0;

	for (i = 0; i < 64; i++) {
		tern_kt_det_src(&t6, 9, 1024 + i);
		cfg->det_port_key = 0;
		KUNIT_ASSERT_EQ(test, tern_det_prepare(&dp, cfg, p, TERN_L4_UDP,
						       &t6), 0);
		KUNIT_ASSERT_EQ(test, tern_det_prepare(&dq, cfg, p, TERN_L4_UDP,
						       &t6), 0);
		KUNIT_ASSERT_TRUE(test, tern_det_pick4(&dp, &t6, 0, &t4));
		KUNIT_ASSERT_TRUE(test, tern_det_pick4(&dq, &t6, 0, &u4));
		KUNIT_EXPECT_EQ(test, t4.port, u4.port);
		cfg->det_port_key = 12345;
		KUNIT_ASSERT_EQ(test, tern_det_prepare(&dq, cfg, p, TERN_L4_UDP,
						       &t6), 0);
		KUNIT_ASSERT_TRUE(test, tern_det_pick4(&dq, &t6, 0, &u4));
		differ += t4.port != u4.port;
	}
	KUNIT_EXPECT_GT(test, differ, 32U);
	tern_pool4_free(p);
}

/*
 * @n flows of subscriber 9 (one per address of det-space /120, block of
 * @span ports from @first) from IPv6 ports @p6, @p6 + @step, ...: each its
 * own first candidate, so no probing, and a standby box gives each the
 * same port in any order. TCP, UDP: of @p6's parity.
 */
static void det_near(struct kunit *test, u8 l4, u32 n, u16 p6, u16 step,
		     u32 first, u32 span)
{
	static const struct tern_pool4_entry tcp[] = {
		ENTRY(A4(192, 0, 2, 0), 32, TCP, 1024, 65535, 0),
	}, icmp[] = {
		ENTRY(A4(192, 0, 2, 0), 32, ICMP, 0, 65535, 0),
	};
	struct tern_config *cfg = tern_kt_det_cfg(test, 120, 128, 0);
	struct tern_pool4 *p = tern_kt_pool(test, l4 == TERN_L4_ICMP ? icmp : tcp,
					    1);
	unsigned long *seen = kunit_kzalloc(test, BITS_TO_LONGS(65536) *
					    sizeof(long), GFP_KERNEL);
	struct tern_det_pick dp;
	struct tern_ta6 t6;
	struct tern_ta4 t4;
	bool dup;
	u32 k;

	KUNIT_ASSERT_NOT_NULL(test, seen);
	cfg->det_port_key = 4242;
	for (k = 0; k < n; k++) {
		tern_kt_det_src(&t6, 9, p6 + k * step);
		KUNIT_ASSERT_EQ(test, tern_det_prepare(&dp, cfg, p, l4, &t6), 0);
		KUNIT_ASSERT_TRUE(test, tern_det_pick4(&dp, &t6, 0, &t4));
		if (l4 != TERN_L4_ICMP)
			KUNIT_EXPECT_EQ(test, ntohs(t4.port) & 1, p6 & 1);
		KUNIT_EXPECT_GE(test, ntohs(t4.port), first);
		KUNIT_EXPECT_LT(test, ntohs(t4.port), first + span);
		dup = __test_and_set_bit(ntohs(t4.port), seen);
		KUNIT_EXPECT_FALSE_MSG(test, dup, "port %u twice",
				       ntohs(t4.port));
	}
	tern_pool4_free(p);
}

/* A host's TCP ports 2 apart, as many as the block has of their parity. */
static void det_pick_near_ports(struct kunit *test)
{
	det_near(test, TERN_L4_TCP, 126, 40001, 2, 1024 + 9 * 252, 252);
}

/* ICMP identifiers 1 apart (ping sockets give them so), a block's worth. */
static void det_pick_near_ids(struct kunit *test)
{
	det_near(test, TERN_L4_ICMP, 256, 1000, 1, 9 * 256, 256);
}

static void det_prepare_refusals(struct kunit *test)
{
	struct tern_config *cfg;
	struct tern_pool4 *p = det_one_address(test, &cfg);
	struct tern_det_pick dp;
	struct tern_ta6 t6;

	tern_kt_det_src(&t6, 3, 5000);
	KUNIT_EXPECT_EQ(test, tern_det_prepare(&dp, cfg, p, TERN_L4_TCP, &t6),
			0);
	KUNIT_EXPECT_EQ(test, tern_det_prepare(&dp, cfg, p, TERN_L4_UDP, &t6),
			TERN_STAT_DROP_NO_POOL4);
	t6.addr.s6_addr[14] = 1;	/* 2001:db8:100::103: outside /120 */
	KUNIT_EXPECT_EQ(test, tern_det_prepare(&dp, cfg, p, TERN_L4_TCP, &t6),
			TERN_STAT_DROP_DET_OUTSIDE);
	tern_pool4_free(p);
}

static void det_validate_msgs(struct kunit *test)
{
	static const struct tern_pool4_entry one[] = {
		ENTRY(A4(192, 0, 2, 0), 30, TCP, 1024, 65535, 0),
	};
	static const struct tern_pool4_entry marked[] = {
		ENTRY(A4(192, 0, 2, 0), 30, TCP, 1024, 65535, 7),
	};
	static const struct tern_pool4_entry ranges[] = {
		ENTRY(A4(192, 0, 2, 0), 32, UDP, 1024, 65535, 0),
		ENTRY(A4(192, 0, 2, 1), 32, UDP, 2000, 3000, 0),
	};
	struct tern_config *cfg = tern_kt_det_cfg(test, 40, 56, 4096);
	struct tern_pool4 *p;
	char msg[80];

	KUNIT_EXPECT_EQ(test, tern_det_validate(cfg, NULL, msg, sizeof(msg)),
			0);
	p = tern_kt_pool(test, one, 1);
	tern_kt_det_refused(test, cfg, p,
			    "det: 65536 subscribers > TCP: 4 addrs x 15 blocks of 4096");
	cfg->det_block = 0;
	KUNIT_EXPECT_EQ(test, tern_det_validate(cfg, p, msg, sizeof(msg)), 0);
	cfg->det_block = 70000;
	tern_kt_det_refused(test, cfg, p,
			    "det-block-size 70000 is more than the 64512 TCP ports");
	tern_pool4_free(p);
	cfg->det_block = 0;
	p = tern_kt_pool(test, marked, 1);
	tern_kt_det_refused(test, cfg, p,
			    "deterministic mode: pool4 entries of mark 0 only (not 7)");
	tern_pool4_free(p);
	p = tern_kt_pool(test, ranges, 2);
	tern_kt_det_refused(test, cfg, p,
			    "deterministic mode: UDP pool4 ports 1024-65535 and 2000-3000 differ");
	tern_pool4_free(p);
	cfg->det_space.len = 20;
	tern_kt_det_refused(test, cfg, NULL,
			    "det-space /20, subscriber-prefix-len 56: need 0 to 32 bits");
	cfg->det_space_set = false;
	KUNIT_EXPECT_EQ(test, tern_det_validate(cfg, NULL, msg, sizeof(msg)),
			0);
}

static struct kunit_case tern_det_cases[] = {
	KUNIT_CASE_PARAM(det_bijection, tern_kt_shape_gen_params),
	KUNIT_CASE(det_spread),
	KUNIT_CASE(det_check_errors),
	KUNIT_CASE(det_pick_block),
	KUNIT_CASE(det_pick_big_block),
	KUNIT_CASE(det_pick_key),
	KUNIT_CASE(det_pick_near_ports),
	KUNIT_CASE(det_pick_near_ids),
	KUNIT_CASE(det_prepare_refusals),
	KUNIT_CASE(det_validate_msgs),
	{}
};

static struct kunit_suite tern_det_suite = {
	.name = "tern_nat64_det",
	.test_cases = tern_det_cases,
};

kunit_test_suite(tern_det_suite);

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_KT_BLOCKS_H
#define _TERN_KT_BLOCKS_H

/*
 * KUnit helpers of the port blocks' suites: the NAT64 tables with port
 * blocks (nat64/blocks.c), their events logged, new sessions made as the
 * packet path makes them.
 */

#include <kunit/test.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include "nat64/blocks.h"
#include "nat64/blocks_int.h"
#include "tern_genl.h"
#include "kt_nat64.h"
#include "kt_pool4.h"

#define KT_BLK_MAX	64

/* The blocks given and returned, as the events told them. */
struct kt_blk_log {
	struct tern_blk_info bi[KT_BLK_MAX];
	bool live[KT_BLK_MAX];
	unsigned int n, adds, dels;
};

static inline void kt_blk_ev(void *arg, const struct tern_blk_info *bi,
			     bool add)
{
	struct kt_blk_log *lg = arg;
	unsigned int i;

	if (add) {
		lg->adds++;
		if (lg->n < KT_BLK_MAX) {
			lg->bi[lg->n] = *bi;
			lg->live[lg->n++] = true;
		}
		return;
	}
	lg->dels++;
	for (i = 0; i < lg->n; i++)
		if (lg->live[i] && lg->bi[i].addr == bi->addr &&
		    lg->bi[i].first == bi->first && lg->bi[i].l4 == bi->l4)
			lg->live[i] = false;
}

static inline void kt_blk_bound(void *arg, const struct tern_bib *b,
				bool add)
{
	tern_blocks_bound(arg, b, add);
}

struct kt_blk {
	struct tern_tables *t;
	struct tern_blocks *bl;
	struct tern_pool4 *pool;
	struct tern_table_events ev;
	struct kt_blk_log log;
	siphash_key_t key;
	struct tern_limits lim;
	u32 size, max_ports;
};

/* On the heap: the log is too big for a stack frame. */
static inline struct kt_blk *kt_blk_setup(struct kunit *test,
					  const struct tern_pool4_entry *e,
					  unsigned int n, u32 size,
					  u32 max_ports)
{
	struct kt_blk *k = kunit_kzalloc(test, sizeof(*k), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, k);
	k->t = kt_tables(test, 0);
	k->bl = tern_blocks_alloc(kt_blk_ev, &k->log);
	KUNIT_ASSERT_NOT_NULL(test, k->bl);
	k->pool = tern_kt_pool(test, e, n);
	k->ev.bib_bound = kt_blk_bound;
	k->ev.arg = k->bl;
	tern_tables_set_events(k->t, &k->ev);
	k->key.key[0] = 1;
	k->key.key[1] = 2;
	k->lim.sub_prefix_len = 64;
	k->lim.max_ports_per_sub = max_ports;
	k->size = size;
	k->max_ports = max_ports;
	return k;
}

static inline void kt_blk_teardown(struct kt_blk *k)
{
	tern_tables_free(k->t);
	tern_blocks_free(k->bl);
	tern_pool4_free(k->pool);
}

/*
 * A new session as the packet path makes it for a packet of mark @mark;
 * *@why: the refusal's counter.
 */
static inline struct tern_session *
kt_blk_add_mark(struct kt_blk *k, u8 l4, const struct tern_ta6 *src,
		const struct tern_ta4 *remote, u32 mark, int *why)
{
	struct tern_blk_pick bp;
	struct tern_session *s;
	bool made;

	local_bh_disable();
	rcu_read_lock();
	tern_blk_pick_init(&bp, k->bl, k->pool, &k->key, k->size,
			   k->max_ports, k->lim.sub_prefix_len, l4, mark);
	s = tern_sess_add6(k->t, l4, src, remote, &k->lim, tern_blk_pick4,
			   &bp, 0, 60 * HZ, &made);
	tern_blk_pick_end(&bp);
	rcu_read_unlock();
	local_bh_enable();
	*why = bp.why;
	return s;
}

static inline struct tern_session *
kt_blk_add(struct kt_blk *k, u8 l4, const struct tern_ta6 *src,
	   const struct tern_ta4 *remote, int *why)
{
	return kt_blk_add_mark(k, l4, src, remote, 0, why);
}

/* Is @t4 of a live block of @t6's subscriber (/64)? */
static inline bool kt_blk_owned(const struct kt_blk_log *lg, u8 l4,
				const struct tern_ta6 *t6,
				const struct tern_ta4 *t4)
{
	u16 port = ntohs(t4->port);
	unsigned int i;

	for (i = 0; i < lg->n; i++) {
		const struct tern_blk_info *bi = &lg->bi[i];

		if (lg->live[i] && bi->l4 == l4 && bi->addr == t4->addr &&
		    port >= bi->first && port <= bi->last && bi->plen == 64 &&
		    ipv6_prefix_equal(&bi->prefix, &t6->addr, 64))
			return true;
	}
	return false;
}

#endif /* _TERN_KT_BLOCKS_H */

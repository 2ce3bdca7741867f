// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the session, BIB, peer and subscriber arrays follow max-sessions
 * (nat64/table_resize.c): resized up and down while threads look up
 * entries and peers (never a miss) and add and remove others (their peer
 * and subscriber records charged and freed); afterwards every entry and
 * record is in the chain of its hash in the new arrays, found from both
 * sides, and counted exactly; no lock is left held.
 */

#include <kunit/test.h>
#include <linux/kthread.h>
#include <linux/rculist_nulls.h>
#include <linux/sched.h>
#include "nat64/table_int.h"

#define KT_KNOWN	2000
#define KT_REMOTE	htonl(0xcb007101)	/* 203.0.113.1 */

/* 2001:db8::<host> port 1000 */
static struct tern_ta6 kt_r6(u32 host)
{
	struct tern_ta6 a = {
		.addr.s6_addr32 = { htonl(0x20010db8), 0, 0, htonl(host) },
		.port = htons(1000),
	};

	return a;
}

/* A pool4 address of its own a host: 10.<host>, port 2000 + attempt. */
static bool kt_r_pick(void *arg, const struct tern_ta6 *t6,
		      unsigned int attempt, struct tern_ta4 *t4)
{
	if (attempt >= 100)
		return false;
	t4->addr = htonl(0x0a000000 | ntohl(t6->addr.s6_addr32[3]));
	t4->port = htons(2000 + attempt);
	return true;
}

static const struct tern_ta4 kt_r_remote = {
	.addr = KT_REMOTE,
	.port = htons(80),
};

static struct tern_session *kt_r_add(struct tern_tables *t, u32 host)
{
	struct tern_ta6 a = kt_r6(host);
	/* Address-dependent filtering's peer records too. */
	struct tern_limits lim = { .track_peers = true };
	struct tern_session *s;
	bool made;

	local_bh_disable();
	rcu_read_lock();
	s = tern_sess_add6(t, TERN_L4_UDP, &a, &kt_r_remote, &lim, kt_r_pick,
			   NULL, 0, 600 * HZ, &made);
	rcu_read_unlock();
	local_bh_enable();
	return s;
}

/* Is host @host's session found from both sides, its BIB entry too? */
static bool kt_r_found(struct tern_tables *t, u32 host)
{
	struct tern_ta6 a = kt_r6(host);
	struct tern_ta4 t4 = {
		.addr = htonl(0x0a000000 | host),
		.port = htons(2000),
	};
	bool ok;

	rcu_read_lock();
	ok = tern_sess_find6(t, TERN_L4_UDP, &a, &kt_r_remote) &&
	     tern_sess_find4(t, TERN_L4_UDP, &t4, &kt_r_remote) &&
	     tern_sess_known4(t, TERN_L4_UDP, &t4, KT_REMOTE) &&
	     tern_bib_find6(t, TERN_L4_UDP, &a) &&
	     tern_bib_find4(t, TERN_L4_UDP, &t4);
	rcu_read_unlock();
	return ok;
}

struct kt_r_ctx {
	struct tern_tables *t;
	atomic_t misses;
	atomic_t lookups;
	atomic_t errors;
	atomic_t churned;
};

static int kt_r_reader(void *arg)
{
	struct kt_r_ctx *c = arg;
	u32 i = 0;

	while (!kthread_should_stop()) {
		if (!kt_r_found(c->t, 1 + i))
			atomic_inc(&c->misses);
		atomic_inc(&c->lookups);
		i = (i + 1) % KT_KNOWN;
		if (!(i % 64))
			cond_resched();
	}
	return 0;
}

/* Adds and removes sessions of other hosts, through every resize. */
static int kt_r_writer(void *arg)
{
	struct kt_r_ctx *c = arg;
	struct tern_session *s;
	u32 i = 0;

	while (!kthread_should_stop()) {
		s = kt_r_add(c->t, 100000 + i % 4096);
		if (IS_ERR_OR_NULL(s)) {
			atomic_inc(&c->errors);
		} else {
			rcu_read_lock();
			tern_sess_forget(c->t, s);
			rcu_read_unlock();
			atomic_inc(&c->churned);
		}
		i++;
		if (!(i % 16))
			cond_resched();
	}
	return 0;
}

/* Every entry is in the chain of its hash: counts them. */
static void kt_r_placed(struct kunit *test, struct tern_tables *t)
{
	struct hlist_nulls_node *n;
	struct tern_session *s;
	struct tern_peer *p;
	struct tern_bib *b;
	u32 h, n6 = 0, n4 = 0, nb6 = 0, nb4 = 0, np = 0, bad = 0;

	rcu_read_lock();
	for (h = 0; h <= t->sess_mask; h++) {
		hlist_nulls_for_each_entry_rcu(s, n, &t->sess6[h], n6) {
			b = s->bib;
			bad += (tern_tbl_hash_sess6(t, b->l4, &b->t6,
						    &s->remote) &
				t->sess_mask) != h;
			n6++;
		}
		bad += get_nulls_value(n) != h;
		hlist_nulls_for_each_entry_rcu(s, n, &t->sess4[h], n4) {
			b = s->bib;
			bad += (tern_tbl_hash_sess4(t, b->l4, &b->t4,
						    &s->remote) &
				t->sess_mask) != h;
			bad += tern_sess_lk4(s) != h % TERN_TBL_NLOCKS;
			n4++;
		}
		bad += get_nulls_value(n) != h;
	}
	for (h = 0; h <= t->bib_mask; h++) {
		hlist_nulls_for_each_entry_rcu(b, n, &t->bib6[h], n6) {
			bad += (tern_tbl_hash_bib6(t, b->l4, &b->t6) &
				t->bib_mask) != h;
			nb6++;
		}
		hlist_nulls_for_each_entry_rcu(b, n, &t->bib4[h], n4) {
			bad += (tern_tbl_hash_bib4(t, b->l4, &b->t4) &
				t->bib_mask) != h;
			nb4++;
		}
	}
	for (h = 0; h <= t->peer_mask; h++) {
		hlist_for_each_entry_rcu(p, &t->peers[h], node) {
			bad += (tern_tbl_hash_peer(t, p->l4, p->laddr,
						   p->lport, p->raddr) &
				t->peer_mask) != h;
			bad += p->sessions != 1;
			np++;
		}
	}
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, bad, 0U);
	KUNIT_EXPECT_EQ(test, np, (u32)KT_KNOWN);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->npeer), KT_KNOWN);
	KUNIT_EXPECT_EQ(test, n6, (u32)KT_KNOWN);
	KUNIT_EXPECT_EQ(test, n4, (u32)KT_KNOWN);
	KUNIT_EXPECT_EQ(test, nb6, (u32)KT_KNOWN);
	KUNIT_EXPECT_EQ(test, nb4, (u32)KT_KNOWN);
}

static void kt_r_unlocked(struct kunit *test, struct tern_tables *t)
{
	u32 i, held = 0;

	/* Each free: taken and given back at once. */
	local_bh_disable();
	for (i = 0; i < TERN_TBL_NLOCKS; i++) {
		if (spin_trylock(&t->locks[i]))
			spin_unlock(&t->locks[i]);
		else
			held++;
	}
	for (i = 0; i < TERN_TBL_PEER_NLOCKS; i++) {
		if (spin_trylock(&t->peer_locks[i]))
			spin_unlock(&t->peer_locks[i]);
		else
			held++;
		held += t->peer_moved[i];
	}
	for (i = 0; i < TERN_TBL_SUB_NLOCKS; i++) {
		if (spin_trylock(&t->sub_locks[i]))
			spin_unlock(&t->sub_locks[i]);
		else
			held++;
		held += t->sub_moved[i];
	}
	if (spin_trylock(&t->all_lock))
		spin_unlock(&t->all_lock);
	else
		held++;
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, held, 0U);
	KUNIT_EXPECT_NULL(test, t->peer_next);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(t->all));
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&t->resize_mutex));
	KUNIT_EXPECT_EQ(test, raw_read_seqcount(&t->seq) & 1, 0U);
}

/* The sizes and the hysteresis: grow at once, shrink at a quarter. */
static void table_resize_sizes(struct kunit *test)
{
	struct tern_tables *t = tern_tables_alloc(1024);

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, t->sess_mask + 1, 1024U);
	KUNIT_EXPECT_EQ(test, t->peer_mask + 1, 1024U);
	KUNIT_EXPECT_EQ(test, tern_tables_resize(t, 1000), 0);
	KUNIT_EXPECT_EQ(test, tern_tables_resize(t, 1025), 1);
	KUNIT_EXPECT_EQ(test, t->sess_mask + 1, 2048U);
	KUNIT_EXPECT_EQ(test, t->bib_mask + 1, 1024U);
	KUNIT_EXPECT_EQ(test, tern_tables_resize(t, 65536), 1);
	KUNIT_EXPECT_EQ(test, t->sess_mask + 1, 65536U);
	KUNIT_EXPECT_EQ(test, t->bib_mask + 1, 32768U);
	KUNIT_EXPECT_EQ(test, t->peer_mask + 1, 16384U);
	/* Half, then a bit over a quarter: kept. */
	KUNIT_EXPECT_EQ(test, tern_tables_resize(t, 32768), 0);
	KUNIT_EXPECT_EQ(test, tern_tables_resize(t, 16385), 0);
	KUNIT_EXPECT_EQ(test, t->sess_mask + 1, 65536U);
	KUNIT_EXPECT_EQ(test, tern_tables_resize(t, 16384), 1);
	KUNIT_EXPECT_EQ(test, t->sess_mask + 1, 16384U);
	KUNIT_EXPECT_PTR_EQ(test, t->sess6, tern_tbl_arr(t)->sess6);
	KUNIT_EXPECT_EQ(test, t->bib_mask, tern_tbl_arr(t)->bib_mask);
	KUNIT_EXPECT_EQ(test, t->peer_mask, tern_tbl_arr(t)->peer_mask);
	KUNIT_EXPECT_EQ(test, t->peer_mask + 1, 4096U);
	KUNIT_EXPECT_PTR_EQ(test, t->peers, tern_tbl_arr(t)->peers);
	kt_r_unlocked(test, t);
	tern_tables_free(t);
}

static void table_resize_live(struct kunit *test)
{
	static const u32 steps[] = { 4096, 65536, 16384, 1024, 65536, 1024 };
	struct kt_r_ctx c = { .t = tern_tables_alloc(1024) };
	struct task_struct *rd, *wr;
	struct tern_tables_count n;
	unsigned int i, round;
	u32 bytes;

	KUNIT_ASSERT_NOT_NULL(test, c.t);
	for (i = 1; i <= KT_KNOWN; i++)
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(kt_r_add(c.t, i)));
	rd = kthread_run(kt_r_reader, &c, "kt_resize_rd");
	KUNIT_ASSERT_FALSE(test, IS_ERR(rd));
	wr = kthread_run(kt_r_writer, &c, "kt_resize_wr");
	if (IS_ERR(wr)) {
		kthread_stop(rd);
		KUNIT_FAIL(test, "no writer thread");
		tern_tables_free(c.t);
		return;
	}
	for (round = 0; round < 4; round++) {
		for (i = 0; i < ARRAY_SIZE(steps); i++) {
			KUNIT_EXPECT_EQ(test, tern_tables_resize(c.t, steps[i]),
					1);
			KUNIT_EXPECT_EQ(test, c.t->sess_mask + 1, steps[i]);
			/* Both threads went on meanwhile. */
			cond_resched();
		}
	}
	kthread_stop(wr);
	kthread_stop(rd);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.misses), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&c.errors), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&c.lookups), 0);
	KUNIT_EXPECT_GT(test, atomic_read(&c.churned), 0);

	/* What the writer removed is counted out (freed after a period). */
	tern_tables_count(c.t, &n);
	KUNIT_EXPECT_EQ(test, n.sessions, (u64)KT_KNOWN);
	KUNIT_EXPECT_EQ(test, n.bib, (u64)KT_KNOWN);
	bytes = KT_KNOWN * (kmem_cache_size(tern_sess_cache) +
			    kmem_cache_size(tern_bib_cache) +
			    kmem_cache_size(tern_peer_cache));
	KUNIT_EXPECT_EQ(test, n.bytes, (u64)bytes);
	kt_r_placed(test, c.t);
	for (i = 1; i <= KT_KNOWN; i++)
		if (!kt_r_found(c.t, i))
			break;
	KUNIT_EXPECT_EQ(test, i, KT_KNOWN + 1U);
	kt_r_unlocked(test, c.t);
	tern_tables_free(c.t);
}

/* A session of host @host (a subscriber of its own) to 203.0.113.@peer. */
static struct tern_session *kt_r_add_sub(struct tern_tables *t, u32 host,
					 u8 peer)
{
	struct tern_ta6 a = kt_r6(host);
	struct tern_ta4 r = {
		.addr = htonl(0xcb007100 | peer),
		.port = htons(80),
	};
	struct tern_limits lim = {
		.max_sess_per_sub = 2,
		.sub_prefix_len = 128,
	};
	struct tern_session *s;
	bool made;

	local_bh_disable();
	rcu_read_lock();
	s = tern_sess_add6(t, TERN_L4_UDP, &a, &r, &lim, kt_r_pick, NULL, 0,
			   600 * HZ, &made);
	rcu_read_unlock();
	local_bh_enable();
	return s;
}

/*
 * Every subscriber record is in the chain of its hash, counting
 * @sessions sessions and one BIB entry: returns how many there are.
 */
static u32 kt_r_subs(struct kunit *test, struct tern_tables *t, u32 sessions)
{
	struct tern_sub *sub;
	u32 h, n = 0, bad = 0;

	for (h = 0; h <= t->sub_mask; h++) {
		hlist_for_each_entry(sub, &t->subs[h], node) {
			bad += (tern_tbl_hash_sub(t, &sub->prefix, sub->plen) &
				t->sub_mask) != h;
			bad += sub->sessions != sessions || sub->bibs != 1 ||
			       sub->plen != 128;
			n++;
		}
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
	return n;
}

/*
 * The subscriber records follow the size (a subscriber a session at worst:
 * chains of four when full), and each is found again after a move: its
 * limit still counts what it had.
 */
static void table_resize_subs(struct kunit *test)
{
	struct tern_tables *t = tern_tables_alloc(1024);
	struct tern_session *s;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, t->sub_mask + 1, 1024U);
	for (i = 1; i <= KT_KNOWN; i++)
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(kt_r_add_sub(t, i, 1)));
	KUNIT_EXPECT_EQ(test, kt_r_subs(test, t, 1), (u32)KT_KNOWN);

	KUNIT_EXPECT_EQ(test, tern_tables_resize(t, 65536), 1);
	KUNIT_EXPECT_EQ(test, t->sub_mask + 1, 16384U);
	KUNIT_EXPECT_PTR_EQ(test, t->subs, tern_tbl_arr(t)->subs);
	KUNIT_EXPECT_EQ(test, kt_r_subs(test, t, 1), (u32)KT_KNOWN);
	/* A second session each; a third is over the subscriber's limit. */
	for (i = 1; i <= KT_KNOWN; i++)
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(kt_r_add_sub(t, i, 2)));
	s = kt_r_add_sub(t, 7, 3);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(s), -EDQUOT);
	KUNIT_EXPECT_EQ(test, kt_r_subs(test, t, 2), (u32)KT_KNOWN);

	KUNIT_EXPECT_EQ(test, tern_tables_resize(t, 1024), 1);
	KUNIT_EXPECT_EQ(test, t->sub_mask + 1, 1024U);
	KUNIT_EXPECT_EQ(test, kt_r_subs(test, t, 2), (u32)KT_KNOWN);
	s = kt_r_add_sub(t, KT_KNOWN, 3);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(s), -EDQUOT);
	kt_r_unlocked(test, t);
	/* Flushed: every record went with its entries. */
	tern_tables_flush(t, TERN_L4_N);
	KUNIT_EXPECT_EQ(test, kt_r_subs(test, t, 0), 0U);
	tern_tables_free(t);
}

static struct kunit_case tern_nat64_table_resize_cases[] = {
	KUNIT_CASE(table_resize_sizes),
	KUNIT_CASE(table_resize_live),
	KUNIT_CASE(table_resize_subs),
	{}
};

/* The suites run when the module loads, maybe before its init. */
static int kt_table_resize_suite_init(struct kunit_suite *suite)
{
	return tern_tables_init();
}

static struct kunit_suite tern_nat64_table_resize_suite = {
	.name = "tern_nat64_table_resize",
	.suite_init = kt_table_resize_suite_init,
	.test_cases = tern_nat64_table_resize_cases,
};

kunit_test_suite(tern_nat64_table_resize_suite);

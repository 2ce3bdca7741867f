// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the NAT64 tables walked (dumps), and used by packet-path threads
 * and a maintenance thread at once; a packet that found a BIB entry which
 * went before it added its session.
 */

#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <linux/slab.h>
#include "nat64/table_int.h"
#include "kt_nat64.h"

/* Walks */

#define KT_WALK_N	300

struct kt_walk {
	unsigned long *seen;
	unsigned int dup, calls, stop_every;
};

static int kt_walk_one(struct kt_walk *w, u16 port)
{
	if (++w->calls % w->stop_every == 0)
		return 1;	/* not seen: it comes again next time */
	if (port >= KT_WALK_N || __test_and_set_bit(port, w->seen))
		w->dup++;
	return 0;
}

static int kt_walk_bib(const struct tern_bib *b, void *arg)
{
	return kt_walk_one(arg, ntohs(b->t6.port));
}

static int kt_walk_sess(const struct tern_session *s, void *arg)
{
	return kt_walk_one(arg, ntohs(s->bib->t6.port));
}

/*
 * Walks the UDP BIB entries (@sess false) or sessions of @t to the end,
 * from the start, stopped every @stop_every entries: each of the KT_WALK_N
 * seen once.
 */
static void kt_walk_all(struct kunit *test, struct tern_tables *t,
			struct kt_walk *w, bool sess, unsigned int stop_every)
{
	struct tern_walk_pos pos;
	int ret = 0, rounds;

	bitmap_zero(w->seen, KT_WALK_N);
	memset(&pos, 0, sizeof(pos));
	w->calls = 0;
	w->stop_every = stop_every;
	for (rounds = 0; rounds < 1000; rounds++) {
		rcu_read_lock();
		ret = sess ? tern_sess_walk(t, TERN_L4_UDP, &pos, kt_walk_sess, w) :
			     tern_bib_walk(t, TERN_L4_UDP, &pos, kt_walk_bib, w);
		rcu_read_unlock();
		if (!ret)
			break;
	}
	KUNIT_EXPECT_EQ(test, w->dup, 0U);
	KUNIT_EXPECT_EQ(test, bitmap_weight(w->seen, KT_WALK_N), (unsigned int)KT_WALK_N);
	KUNIT_EXPECT_EQ(test, ret, 0);
}

static void table_walk(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 0);
	struct kt_picker p = { .base = 2000, .max = 1000 };
	struct tern_limits lim = {};
	struct kt_walk w = {};
	struct tern_session *s;
	int i;

	w.seen = kunit_kzalloc(test, BITS_TO_LONGS(KT_WALK_N) * sizeof(long),
			       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w.seen);
	for (i = 0; i < KT_WALK_N; i++) {
		s = kt_add6(t, TERN_L4_UDP, KT6(1, 1, i),
			    KT4(KT_REMOTE(1), 80), &lim, &p);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	}
	/* Something of another protocol, not to be seen. */
	s = kt_add6(t, TERN_L4_TCP, KT6(1, 1, 5), KT4(KT_REMOTE(1), 80),
		    &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));

	kt_walk_all(test, t, &w, false, 7);
	kt_walk_all(test, t, &w, true, 4);
	tern_tables_free(t);
}

/* Concurrency: packet-path threads and a maintenance thread at once. */

#define KT_WORKERS	3

struct kt_conc {
	struct tern_tables *t;
	atomic_t bad;
	atomic_long_t adds, fails;
	struct tern_walk_pos pos;
};

static bool kt_pick_rand(void *arg, const struct tern_ta6 *t6,
			 unsigned int attempt, struct tern_ta4 *t4)
{
	if (attempt >= 16)
		return false;
	t4->addr = KT_POOL4;
	t4->port = htons(1024 + get_random_u32() % 512);
	return true;
}

static void kt_conc_one(struct kt_conc *c, const struct tern_limits *lim)
{
	u32 r = get_random_u32();
	struct tern_ta6 src = kt_t6(1, r % 4, (r >> 8) % 256);
	struct tern_ta4 rem = kt_t4(KT_REMOTE((r >> 16) % 8), 80);
	u8 l4 = (r >> 24) % 2;
	struct tern_session *s, *f;
	struct tern_bib *b;
	bool made;

	local_bh_disable();
	rcu_read_lock();
	s = tern_sess_add6(c->t, l4, &src, &rem, lim, kt_pick_rand, NULL, 0,
			   HZ / 10 + r % HZ, &made);
	if (IS_ERR(s)) {
		atomic_long_inc(&c->fails);
		switch (PTR_ERR(s)) {
		case -ENOSPC:
		case -EDQUOT:
		case -EUSERS:
		case -EADDRINUSE:
		case -EAGAIN:
			break;
		default:
			atomic_inc(&c->bad);
		}
		goto out;
	}
	atomic_long_inc(&c->adds);
	b = s->bib;
	if (b->l4 != l4 || memcmp(&b->t6, &src, sizeof(src)))
		atomic_inc(&c->bad);
	f = tern_sess_find6(c->t, l4, &src, &rem);
	if (f && (f->bib->l4 != l4 || memcmp(&f->remote, &rem, sizeof(rem)) ||
		  memcmp(&f->bib->t6, &src, sizeof(src))))
		atomic_inc(&c->bad);
	/*
	 * Found by its IPv4 key: that key (another thread may have removed
	 * @b meanwhile and given its IPv4 transport address to another host).
	 */
	f = tern_sess_find4(c->t, l4, &b->t4, &rem);
	if (f && (f->bib->l4 != l4 ||
		  memcmp(&f->bib->t4, &b->t4, sizeof(b->t4)) ||
		  memcmp(&f->remote, &rem, sizeof(rem))))
		atomic_inc(&c->bad);
	tern_sess_refresh(s, HZ / 2);
	if (r % 16 == 1)
		tern_sess_set_state(c->t, s, READ_ONCE(s->state),
				    tern_sess_expired(s, (u32)jiffies), 2,
				    HZ / 20);
	if (r % 64 == 2) {
		WRITE_ONCE(s->expires, (u32)jiffies - 1);
		tern_tbl_gc_note(c->t, (u32)jiffies - 1);
	}
	if (r % 32 == 3) {
		b = tern_bib_find4(c->t, TERN_L4_UDP, KT4(KT_POOL4, 99));
		if (b && IS_ERR(tern_sess_add4(c->t, b, &rem, lim, 0, HZ,
					       &made)))
			atomic_long_inc(&c->fails);
	}
out:
	rcu_read_unlock();
	local_bh_enable();
}

static int kt_conc_worker(void *arg)
{
	struct tern_limits lim = { .max_sessions = 1500,
				   .max_sess_per_sub = 400,
				   .max_ports_per_sub = 200,
				   .sub_prefix_len = 128 };
	struct kt_conc *c = arg;
	unsigned int i = 0;

	while (!kthread_should_stop()) {
		kt_conc_one(c, &lim);
		if (!(++i % 32))
			cond_resched();
	}
	return 0;
}

static int kt_count_bib(const struct tern_bib *b, void *arg)
{
	(*(unsigned int *)arg)++;
	return 0;
}

static int kt_stop_sess(const struct tern_session *s, void *arg)
{
	return ++(*(unsigned int *)arg) % 50 == 0;
}

static int kt_conc_maint(void *arg)
{
	struct tern_ta6 st = kt_t6(1, 7, 7);
	struct kt_conc *c = arg;
	unsigned int i = 0, n;
	int ret;

	while (!kthread_should_stop()) {
		tern_tables_gc(c->t, NULL);
		switch (++i % 8) {
		case 0:
			tern_tables_flush(c->t, get_random_u32() % 3);
			break;
		case 1:
			tern_bib_add_static(c->t, TERN_L4_UDP, &st,
					    KT4(KT_POOL4, 99));
			break;
		case 2:
			if (get_random_u32() % 4 == 0)
				tern_bib_del(c->t, TERN_L4_UDP, NULL,
					     KT4(KT_POOL4, 99));
			break;
		case 3:
			tern_bib_del(c->t, get_random_u32() % 2,
				     KT6(1, get_random_u32() % 4,
					 get_random_u32() % 256), NULL);
			break;
		case 4:
			n = 0;
			rcu_read_lock();
			ret = tern_sess_walk(c->t, TERN_L4_N, &c->pos,
					     kt_stop_sess, &n);
			rcu_read_unlock();
			if (!ret)
				memset(&c->pos, 0, sizeof(c->pos));
			break;
		}
		usleep_range(500, 1000);
	}
	return 0;
}

static void table_concurrency(struct kunit *test)
{
	struct task_struct *tasks[KT_WORKERS + 1];
	struct tern_walk_pos pos = {};
	struct kt_conc *c;
	unsigned int n = 0;
	int i;
	u64 nb, ns;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->t = kt_tables(test, 1024);
	for (i = 0; i <= KT_WORKERS; i++) {
		tasks[i] = kthread_run(i ? kt_conc_worker : kt_conc_maint, c,
				       "kt_table%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(tasks[i]));
	}
	msleep(3000);
	for (i = 0; i <= KT_WORKERS; i++)
		kthread_stop(tasks[i]);
	kunit_info(test, "%ld sessions made, %ld refused\n",
		   atomic_long_read(&c->adds), atomic_long_read(&c->fails));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->bad), 0);
	KUNIT_EXPECT_GT(test, atomic_long_read(&c->adds), 0L);

	/* The counts are exact. */
	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, tern_bib_walk(c->t, TERN_L4_N, &pos,
					    kt_count_bib, &n), 0);
	rcu_read_unlock();
	kt_count(c->t, &nb, &ns);
	KUNIT_EXPECT_EQ(test, nb, (u64)n);
	KUNIT_EXPECT_LE(test, ns, 1500ULL);
	tern_tables_flush(c->t, TERN_L4_N);
	kt_count(c->t, &nb, &ns);
	KUNIT_EXPECT_LE(test, nb, 1ULL);
	KUNIT_EXPECT_EQ(test, ns, 0ULL);
	tern_bib_del(c->t, TERN_L4_UDP, NULL, KT4(KT_POOL4, 99));
	KT_EXPECT_COUNT(test, c->t, 0, 0);
	tern_tables_free(c->t);
}

/*
 * A packet from IPv4 found entry b1 under RCU; b1 went (its last session
 * ended) and a new entry b2 took b1's IPv6 side, with a session to the
 * same peer. The packet's session is refused (b1 is gone), not b2's: that
 * one answers to another IPv4 address.
 */
static void table_add4_entry_gone(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 0);
	struct kt_picker p1 = { .base = 2000, .max = 1 };
	struct kt_picker p2 = { .base = 3000, .max = 1 };
	struct tern_limits lim = {};
	struct tern_ta6 a = kt_t6(1, 1, 1000);
	struct tern_ta4 r = kt_t4(KT_REMOTE(1), 80);
	struct tern_session *s1, *s2, *s;
	struct tern_bib *b1;
	bool made;

	s1 = kt_add6(t, TERN_L4_UDP, &a, &r, &lim, &p1);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s1));
	local_bh_disable();
	rcu_read_lock();
	b1 = tern_bib_find4(t, TERN_L4_UDP, KT4(KT_POOL4, 2000));
	KUNIT_EXPECT_PTR_EQ(test, b1, s1->bib);
	tern_sess_forget(t, s1);
	KUNIT_EXPECT_NULL(test, tern_bib_find6(t, TERN_L4_UDP, &a));
	s2 = tern_sess_add6(t, TERN_L4_UDP, &a, &r, &lim, kt_pick, &p2, 0,
			    60 * HZ, &made);
	KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(s2));
	s = ERR_PTR(-EINVAL);
	if (b1 && !IS_ERR_OR_NULL(s2)) {
		KUNIT_EXPECT_EQ(test, s2->bib->t4.port, htons(3000));
		s = tern_sess_add4(t, b1, &r, &lim, 0, 60 * HZ, &made);
	}
	rcu_read_unlock();
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -ENOENT);
	KT_EXPECT_COUNT(test, t, 1, 1);
	tern_tables_free(t);
}

static struct kunit_case tern_nat64_table_walk_cases[] = {
	KUNIT_CASE(table_walk),
	KUNIT_CASE(table_concurrency),
	KUNIT_CASE(table_add4_entry_gone),
	{}
};

static struct kunit_suite tern_nat64_table_walk_suite = {
	.name = "tern_nat64_table_walk",
	.suite_init = kt_table_suite_init,
	.test_cases = tern_nat64_table_walk_cases,
};

kunit_test_suite(tern_nat64_table_walk_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the session table's hash by the IPv4 side, which no peer can
 * pile into one chain, and the peer records of address-dependent filtering
 * (nat64/table_peer.c): made and counted with the sessions that know the
 * peer, gone with the last of them (expiry, flush, bib remove, refusal),
 * none for sessions made while filtering was off.
 */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/rculist_nulls.h>
#include "kt_nat64.h"
#include "nat64/table_int.h"

/* The longest chain of a session array. */
static unsigned int kt_longest(struct tern_tables *t, bool by4)
{
	struct hlist_nulls_node *n;
	unsigned int len, max = 0;
	struct tern_session *s;
	u32 h;

	rcu_read_lock();
	for (h = 0; h <= t->sess_mask; h++) {
		len = 0;
		if (by4)
			hlist_nulls_for_each_entry_rcu(s, n, &t->sess4[h], n4)
				len++;
		else
			hlist_nulls_for_each_entry_rcu(s, n, &t->sess6[h], n6)
				len++;
		max = max(max, len);
	}
	rcu_read_unlock();
	return max;
}

/* Sessions the record of (@l4, @local, @raddr) counts; -1: no record. */
static int kt_peer(struct tern_tables *t, u8 l4, const struct tern_ta4 *local,
		   __be32 raddr)
{
	u32 h = tern_tbl_hash_peer(t, l4, local->addr, local->port, raddr);
	struct tern_peer *p;
	int n = -1;

	rcu_read_lock();
	hlist_for_each_entry_rcu(p, &t->peers[h & t->peer_mask], node)
		if (p->l4 == l4 && p->laddr == local->addr &&
		    p->lport == local->port && p->raddr == raddr)
			n = p->sessions;
	rcu_read_unlock();
	return n;
}

static bool kt_known(struct tern_tables *t, u8 l4,
		     const struct tern_ta4 *local, __be32 raddr)
{
	bool known;

	rcu_read_lock();
	known = tern_sess_known4(t, l4, local, raddr);
	rcu_read_unlock();
	return known;
}

static void kt_expire(struct tern_tables *t, struct tern_session *s)
{
	WRITE_ONCE(s->expires, (u32)jiffies - 1);
	tern_tbl_gc_note(t, READ_ONCE(s->expires));
}

#define KT_N	4096

/*
 * One IPv4 peer opens KT_N sessions to a static BIB entry from as many
 * ports; one IPv6 host sends from one port to KT_N ports of the peer. By
 * (BIB entry, peer address) each was one chain of KT_N; by the whole key,
 * 2 * KT_N sessions in 32768 buckets have chains of 8 at most (more than
 * 8 in a bucket: about 1 in 10^7 with a random key).
 */
static void table_peer_chains(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 32768);
	struct kt_picker p = { .base = 3000, .max = 10 };
	struct tern_ta4 ls = kt_t4(KT_POOL4, 9), r;
	struct tern_ta6 a = kt_t6(1, 1, 1000);
	struct tern_limits lim = {};
	struct tern_session *s;
	int i;

	KUNIT_ASSERT_EQ(test, tern_bib_add_static(t, TERN_L4_UDP,
						  KT6(9, 9, 9), &ls), 0);
	for (i = 0; i < KT_N; i++) {
		r = kt_t4(KT_REMOTE(1), 1 + i);
		s = kt_add4(t, TERN_L4_UDP, &ls, &r, &lim);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
		r.port = htons(20000 + i);
		s = kt_add6(t, TERN_L4_UDP, &a, &r, &lim, &p);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	}
	KT_EXPECT_COUNT(test, t, 2, 2 * KT_N);
	KUNIT_EXPECT_EQ(test, p.calls, 1U);
	KUNIT_EXPECT_LE(test, kt_longest(t, true), 8U);
	KUNIT_EXPECT_LE(test, kt_longest(t, false), 8U);
	/* Each found again from the IPv4 side, and only its own. */
	rcu_read_lock();
	for (i = 0; i < KT_N; i++) {
		r = kt_t4(KT_REMOTE(1), 1 + i);
		s = tern_sess_find4(t, TERN_L4_UDP, &ls, &r);
		KUNIT_EXPECT_TRUE(test, s && s->remote.port == r.port &&
				  s->bib->t4.port == ls.port);
	}
	r = kt_t4(KT_REMOTE(2), 1);
	KUNIT_EXPECT_NULL(test, tern_sess_find4(t, TERN_L4_UDP, &ls, &r));
	rcu_read_unlock();
	/* Filtering was off: no record. */
	KUNIT_EXPECT_EQ(test, atomic_read(&t->npeer), 0);
	tern_tables_free(t);
}

/*
 * With filtering on, a record counts the sessions of (BIB entry, peer
 * address), from either side, and goes with the last of them: by expiry,
 * flush, bib remove, or a refused session's undo.
 */
static void table_peer_records(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 4096);
	struct kt_picker p = { .base = 2000, .max = 10 };
	struct tern_limits lim = { .track_peers = true };
	struct tern_ta6 a = kt_t6(1, 1, 1000);
	struct tern_ta4 l = kt_t4(KT_POOL4, 2000), ls = kt_t4(KT_POOL4, 9);
	struct tern_session *s1, *s2, *s3, *s;
	struct tern_tables_count c;
	int i;

	s1 = kt_add6(t, TERN_L4_UDP, &a, KT4(KT_REMOTE(1), 80), &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s1));
	KUNIT_ASSERT_EQ(test, s1->bib->t4.port, l.port);
	KUNIT_EXPECT_TRUE(test, tern_sess_tracked(s1));
	KUNIT_EXPECT_EQ(test, kt_peer(t, TERN_L4_UDP, &l, KT_REMOTE(1)), 1);
	KUNIT_EXPECT_TRUE(test, kt_known(t, TERN_L4_UDP, &l, KT_REMOTE(1)));
	KUNIT_EXPECT_FALSE(test, kt_known(t, TERN_L4_UDP, &l, KT_REMOTE(2)));
	KUNIT_EXPECT_FALSE(test, kt_known(t, TERN_L4_TCP, &l, KT_REMOTE(1)));
	KUNIT_EXPECT_FALSE(test, kt_known(t, TERN_L4_UDP, KT4(KT_POOL4, 2001),
					  KT_REMOTE(1)));
	/* The same peer from another port (from outside), another peer. */
	s2 = kt_add4(t, TERN_L4_UDP, &l, KT4(KT_REMOTE(1), 81), &lim);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s2));
	s3 = kt_add6(t, TERN_L4_UDP, &a, KT4(KT_REMOTE(2), 80), &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s3));
	KUNIT_EXPECT_EQ(test, kt_peer(t, TERN_L4_UDP, &l, KT_REMOTE(1)), 2);
	KUNIT_EXPECT_EQ(test, kt_peer(t, TERN_L4_UDP, &l, KT_REMOTE(2)), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->npeer), 2);
	KUNIT_EXPECT_EQ(test, kmem_cache_size(tern_peer_cache), 48U);
	tern_tables_count(t, &c);
	KUNIT_EXPECT_EQ(test, c.bytes,
			1 * kmem_cache_size(tern_bib_cache) +
			3 * kmem_cache_size(tern_sess_cache) +
			2 * kmem_cache_size(tern_peer_cache));

	/* Expiry: the peer stays known while one of its sessions lives. */
	kt_expire(t, s1);
	kt_gc_all(t);
	KT_EXPECT_COUNT(test, t, 1, 2);
	KUNIT_EXPECT_EQ(test, kt_peer(t, TERN_L4_UDP, &l, KT_REMOTE(1)), 1);
	KUNIT_EXPECT_TRUE(test, kt_known(t, TERN_L4_UDP, &l, KT_REMOTE(1)));
	/* Expired, not yet swept: still counted (the sweep removes it). */
	kt_expire(t, s2);
	KUNIT_EXPECT_TRUE(test, kt_known(t, TERN_L4_UDP, &l, KT_REMOTE(1)));
	kt_gc_all(t);
	KUNIT_EXPECT_EQ(test, kt_peer(t, TERN_L4_UDP, &l, KT_REMOTE(1)), -1);
	KUNIT_EXPECT_FALSE(test, kt_known(t, TERN_L4_UDP, &l, KT_REMOTE(1)));
	KUNIT_EXPECT_EQ(test, kt_peer(t, TERN_L4_UDP, &l, KT_REMOTE(2)), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->npeer), 1);

	/* Flush. */
	tern_tables_flush(t, TERN_L4_N);
	KT_EXPECT_COUNT(test, t, 0, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->npeer), 0);
	KUNIT_EXPECT_FALSE(test, kt_known(t, TERN_L4_UDP, &l, KT_REMOTE(2)));

	/* bib remove: sessions of a static entry from three ports. */
	KUNIT_ASSERT_EQ(test, tern_bib_add_static(t, TERN_L4_TCP,
						  KT6(9, 9, 9), &ls), 0);
	for (i = 0; i < 3; i++) {
		s = kt_add4(t, TERN_L4_TCP, &ls, KT4(KT_REMOTE(3), 1 + i),
			    &lim);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	}
	KUNIT_EXPECT_EQ(test, kt_peer(t, TERN_L4_TCP, &ls, KT_REMOTE(3)), 3);
	KUNIT_EXPECT_EQ(test, tern_bib_del(t, TERN_L4_TCP, NULL, &ls), 0);
	KT_EXPECT_COUNT(test, t, 0, 0);
	KUNIT_EXPECT_EQ(test, kt_peer(t, TERN_L4_TCP, &ls, KT_REMOTE(3)), -1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->npeer), 0);

	/* A session the subscriber's limit refuses leaves no record. */
	lim.max_sess_per_sub = 1;
	s1 = kt_add6(t, TERN_L4_UDP, &a, KT4(KT_REMOTE(1), 80), &lim, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s1));
	l = s1->bib->t4;
	s = kt_add4(t, TERN_L4_UDP, &l, KT4(KT_REMOTE(4), 80), &lim);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EDQUOT);
	KUNIT_EXPECT_EQ(test, kt_peer(t, TERN_L4_UDP, &l, KT_REMOTE(4)), -1);
	s = kt_add4(t, TERN_L4_UDP, &l, KT4(KT_REMOTE(1), 81), &lim);
	KUNIT_EXPECT_EQ(test, PTR_ERR(s), -EDQUOT);
	KUNIT_EXPECT_EQ(test, kt_peer(t, TERN_L4_UDP, &l, KT_REMOTE(1)), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->npeer), 1);
	tern_tables_free(t);
}

/*
 * Sessions made while filtering was off have no record and are not
 * uncharged (the peer is unknown: fail closed); a session made later with
 * it on makes the peer known, and only its own removal forgets it.
 */
static void table_peer_untracked(struct kunit *test)
{
	struct tern_tables *t = kt_tables(test, 4096);
	struct kt_picker p = { .base = 2000, .max = 10 };
	struct tern_limits off = {}, on = { .track_peers = true };
	struct tern_ta6 a = kt_t6(1, 1, 1000);
	struct tern_session *s[4], *st;
	struct tern_tables_count c;
	struct tern_ta4 l;
	int i;

	for (i = 0; i < 4; i++) {
		s[i] = kt_add6(t, TERN_L4_UDP, &a, KT4(KT_REMOTE(1), 80 + i),
			       &off, &p);
		KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s[i]));
		KUNIT_EXPECT_FALSE(test, tern_sess_tracked(s[i]));
	}
	l = s[0]->bib->t4;
	KUNIT_EXPECT_EQ(test, atomic_read(&t->npeer), 0);
	KUNIT_EXPECT_FALSE(test, kt_known(t, TERN_L4_UDP, &l, KT_REMOTE(1)));
	tern_tables_count(t, &c);
	KUNIT_EXPECT_EQ(test, c.bytes, kmem_cache_size(tern_bib_cache) +
			4 * kmem_cache_size(tern_sess_cache));

	/* Found again, an old session stays untracked. */
	KUNIT_EXPECT_PTR_EQ(test, kt_add6(t, TERN_L4_UDP, &a,
					  KT4(KT_REMOTE(1), 80), &on, &p),
			    s[0]);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->npeer), 0);

	st = kt_add6(t, TERN_L4_UDP, &a, KT4(KT_REMOTE(1), 90), &on, &p);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(st));
	KUNIT_EXPECT_TRUE(test, tern_sess_tracked(st));
	KUNIT_EXPECT_EQ(test, kt_peer(t, TERN_L4_UDP, &l, KT_REMOTE(1)), 1);
	KUNIT_EXPECT_TRUE(test, kt_known(t, TERN_L4_UDP, &l, KT_REMOTE(1)));
	/* The untracked ones go: the record stays, exact. */
	for (i = 0; i < 4; i++)
		kt_expire(t, s[i]);
	kt_gc_all(t);
	KT_EXPECT_COUNT(test, t, 1, 1);
	KUNIT_EXPECT_EQ(test, kt_peer(t, TERN_L4_UDP, &l, KT_REMOTE(1)), 1);
	kt_expire(t, st);
	kt_gc_all(t);
	KT_EXPECT_COUNT(test, t, 0, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->npeer), 0);
	KUNIT_EXPECT_FALSE(test, kt_known(t, TERN_L4_UDP, &l, KT_REMOTE(1)));
	tern_tables_free(t);
}

static struct kunit_case tern_nat64_table_peer_cases[] = {
	KUNIT_CASE(table_peer_chains),
	KUNIT_CASE(table_peer_records),
	KUNIT_CASE(table_peer_untracked),
	{}
};

static struct kunit_suite tern_nat64_table_peer_suite = {
	.name = "tern_nat64_table_peer",
	.suite_init = kt_table_suite_init,
	.test_cases = tern_nat64_table_peer_cases,
};

kunit_test_suite(tern_nat64_table_peer_suite);

// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the store of IPv4 SYNs waiting for a simultaneous open (RFC 6146
 * 3.5.2.2): stored, replaced by a retransmission (same turn, same time),
 * forgotten, taken when expired oldest first; the bounds in count and in
 * bytes; a large SYN kept as much as an ICMP error quotes; the table that
 * grows; replacements and forgetting while the expiry runs; the work
 * due when the oldest SYN left is, whatever a SYN stored meanwhile asked.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/tcp.h>
#include <net/ip.h>
#include "nat64/synstore.h"
#include "kt_nat64.h"
#include "kt_util.h"

#define KT_LONG		(1000UL * HZ)	/* never expires during a case */
#define KT_SMALL	40		/* a SYN without options */

/* The SYN from 203.0.113.1:@rport to 192.0.2.1:@lport, @len bytes. */
static struct sk_buff *kt_syn(u16 lport, u16 rport, u32 seq, unsigned int len,
			      unsigned int linear)
{
	u8 *p = kzalloc(len, GFP_KERNEL);
	struct sk_buff *skb;
	struct tcphdr *th;
	unsigned int i;

	if (!p)
		return NULL;
	tern_kt_ip4(p, len, IPPROTO_TCP, KT_REMOTE(1), KT_POOL4, 64, 1, 0);
	th = (struct tcphdr *)(p + sizeof(struct iphdr));
	th->source = htons(rport);
	th->dest = htons(lport);
	th->seq = htonl(seq);
	th->doff = 5;
	th->syn = 1;
	for (i = KT_SMALL; i < len; i++)
		p[i] = i * 7;
	skb = tern_kt_skb(p, len, false, linear);
	kfree(p);
	return skb;
}

/*
 * Stores the SYN of pair (@lport, @rport); frees it if refused. -EFAULT:
 * no memory for the test's packet.
 */
static int kt_store(struct tern_synstore *ss, u32 max, u16 lport, u16 rport,
		    u32 seq, unsigned int len)
{
	struct sk_buff *skb = kt_syn(lport, rport, seq, len, len);
	int ret;

	if (!skb)
		return -EFAULT;
	ret = tern_syn_store(ss, max, KT4(KT_POOL4, lport),
			     KT4(KT_REMOTE(1), rport), skb);
	if (ret)
		kfree_skb(skb);
	return ret;
}

static void kt_forget(struct tern_synstore *ss, u16 lport, u16 rport)
{
	tern_syn_forget(ss, KT4(KT_POOL4, lport), KT4(KT_REMOTE(1), rport));
}

static u32 kt_seq(const struct tern_syn *e)
{
	const struct tcphdr *th = (const void *)(e->data + sizeof(struct iphdr));

	return ntohl(th->seq);
}

static size_t kt_nodes(const struct list_head *l)
{
	const struct list_head *pos;
	size_t n = 0;

	list_for_each(pos, l)
		n++;
	return n;
}

static void kt_free_list(struct list_head *l)
{
	struct tern_syn *e, *tmp;

	list_for_each_entry_safe(e, tmp, l, fifo)
		kfree(e);
	INIT_LIST_HEAD(l);
}

static int kt_syn_init(struct kunit *test)
{
	struct tern_synstore *ss = kunit_kzalloc(test, sizeof(*ss), GFP_KERNEL);

	if (!ss)
		return -ENOMEM;
	tern_syn_init(ss, &init_net);
	ss->lifetime = KT_LONG;
	test->priv = ss;
	return 0;
}

static void kt_syn_exit(struct kunit *test)
{
	struct tern_synstore *ss = test->priv;

	tern_syn_free(ss);
	KUNIT_EXPECT_EQ(test, tern_syn_count(ss), 0U);
	KUNIT_EXPECT_EQ(test, ss->bytes, (size_t)0);
}

/*
 * A, B, C stored 1000 s apart in their lifetimes; B retransmitted keeps
 * its turn and time; C forgotten and stored again goes last.
 */
static void syn_order(struct kunit *test)
{
	struct tern_synstore *ss = test->priv;
	unsigned long now;
	struct tern_syn *e;
	LIST_HEAD(out);

	KUNIT_EXPECT_EQ(test, kt_store(ss, 64, 1001, 2001, 1, KT_SMALL), 0);
	ss->lifetime = 2 * KT_LONG;
	KUNIT_EXPECT_EQ(test, kt_store(ss, 64, 1002, 2002, 2, KT_SMALL), 0);
	ss->lifetime = 3 * KT_LONG;
	KUNIT_EXPECT_EQ(test, kt_store(ss, 64, 1003, 2003, 3, KT_SMALL), 0);
	KUNIT_EXPECT_EQ(test, tern_syn_count(ss), 3U);
	KUNIT_EXPECT_EQ(test, ss->bytes, 3 * tern_syn_size(KT_SMALL));

	ss->lifetime = 5 * KT_LONG;
	KUNIT_EXPECT_EQ(test, kt_store(ss, 64, 1002, 2002, 22, KT_SMALL), 0);
	KUNIT_EXPECT_EQ(test, tern_syn_count(ss), 3U);
	/* Another pair of a stored port or address is not forgotten. */
	kt_forget(ss, 1003, 2009);
	kt_forget(ss, 1009, 2003);
	KUNIT_EXPECT_EQ(test, tern_syn_count(ss), 3U);
	kt_forget(ss, 1003, 2003);
	KUNIT_EXPECT_EQ(test, tern_syn_count(ss), 2U);
	KUNIT_EXPECT_EQ(test, ss->bytes, 2 * tern_syn_size(KT_SMALL));
	KUNIT_EXPECT_EQ(test, kt_store(ss, 64, 1003, 2003, 33, KT_SMALL), 0);

	/* At 2.5 KT_LONG: A (1) and B (2, not 5: its time kept) expired. */
	now = jiffies + 5 * KT_LONG / 2;
	KUNIT_EXPECT_GT(test, tern_syn_take(ss, now, false, &out), 0UL);
	KUNIT_EXPECT_EQ(test, kt_nodes(&out), (size_t)2);
	e = list_first_entry(&out, struct tern_syn, fifo);
	KUNIT_EXPECT_EQ(test, ntohs(e->local.port), 1001);
	KUNIT_EXPECT_EQ(test, ntohs(e->remote.port), 2001);
	KUNIT_EXPECT_EQ(test, e->remote.addr, KT_REMOTE(1));
	KUNIT_EXPECT_EQ(test, kt_seq(e), 1U);
	e = list_next_entry(e, fifo);
	KUNIT_EXPECT_EQ(test, ntohs(e->local.port), 1002);
	KUNIT_EXPECT_EQ(test, kt_seq(e), 22U);
	KUNIT_EXPECT_EQ(test, e->len, KT_SMALL);
	KUNIT_EXPECT_EQ(test, e->ifindex, init_net.loopback_dev->ifindex);
	kt_free_list(&out);
	KUNIT_EXPECT_EQ(test, tern_syn_count(ss), 1U);
	KUNIT_EXPECT_EQ(test, ss->bytes, tern_syn_size(KT_SMALL));

	/* Taken, it is no longer there to forget. */
	KUNIT_EXPECT_EQ(test, tern_syn_take(ss, now, true, &out), 0UL);
	KUNIT_EXPECT_EQ(test, kt_nodes(&out), (size_t)1);
	e = list_first_entry(&out, struct tern_syn, fifo);
	KUNIT_EXPECT_EQ(test, kt_seq(e), 33U);
	kt_free_list(&out);
	kt_forget(ss, 1003, 2003);
	KUNIT_EXPECT_EQ(test, tern_syn_count(ss), 0U);
	KUNIT_EXPECT_EQ(test, ss->bytes, (size_t)0);
}

/*
 * max entries: a new pair refused, a retransmission too (its first copy
 * stays, in its place); below max a retransmission replaces its copy.
 */
static void syn_full(struct kunit *test)
{
	struct tern_synstore *ss = test->priv;
	struct tern_syn *e;
	LIST_HEAD(out);

	KUNIT_EXPECT_EQ(test, kt_store(ss, 2, 1001, 2001, 1, KT_SMALL), 0);
	KUNIT_EXPECT_EQ(test, kt_store(ss, 3, 1001, 2001, 11, KT_SMALL), 0);
	KUNIT_EXPECT_EQ(test, kt_store(ss, 2, 1002, 2002, 2, KT_SMALL), 0);
	KUNIT_EXPECT_EQ(test, kt_store(ss, 2, 1003, 2003, 3, KT_SMALL),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, kt_store(ss, 2, 1001, 2001, 111, KT_SMALL),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, tern_syn_count(ss), 2U);
	tern_syn_take(ss, jiffies, true, &out);
	e = list_first_entry(&out, struct tern_syn, fifo);
	KUNIT_EXPECT_EQ(test, kt_seq(e), 11U);
	KUNIT_EXPECT_EQ(test, kt_seq(list_next_entry(e, fifo)), 2U);
	kt_free_list(&out);
	/* max-stored-syns 0: nothing. */
	KUNIT_EXPECT_EQ(test, kt_store(ss, 0, 1001, 2001, 1, KT_SMALL),
			-ENOSPC);
}

/*
 * Expired together, SYNs are taken TERN_SYN_BATCH at a time, oldest first
 * (the lock is held with BHs off): the rest at the next tick.
 */
static void syn_batch(struct kunit *test)
{
	struct tern_synstore *ss = test->priv;
	const u32 n = TERN_SYN_BATCH + 44;
	unsigned long now = jiffies + 2 * KT_LONG;
	struct tern_syn *e;
	LIST_HEAD(out);
	u32 i;

	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, kt_store(ss, n, 1000 + i, 2000, i,
					       KT_SMALL), 0);
	cancel_delayed_work_sync(&ss->expiry);
	KUNIT_EXPECT_EQ(test, tern_syn_take(ss, now, false, &out), 1UL);
	KUNIT_EXPECT_EQ(test, kt_nodes(&out), (size_t)TERN_SYN_BATCH);
	e = list_first_entry(&out, struct tern_syn, fifo);
	KUNIT_EXPECT_EQ(test, kt_seq(e), 0U);
	e = list_last_entry(&out, struct tern_syn, fifo);
	KUNIT_EXPECT_EQ(test, kt_seq(e), (u32)TERN_SYN_BATCH - 1);
	kt_free_list(&out);
	KUNIT_EXPECT_EQ(test, tern_syn_count(ss), 44U);
	KUNIT_EXPECT_EQ(test, tern_syn_take(ss, now, false, &out), 0UL);
	KUNIT_EXPECT_EQ(test, kt_nodes(&out), (size_t)44);
	e = list_first_entry(&out, struct tern_syn, fifo);
	KUNIT_EXPECT_EQ(test, kt_seq(e), (u32)TERN_SYN_BATCH);
	kt_free_list(&out);
}

/*
 * TERN_SYN_BYTES_PER bytes per max: a SYN of 1064 bytes (kept as 548, in
 * a 1024-byte object) does not fit in 3's, fits in 5's beside a small one
 * but not twice, nor in place of the small one; the small one stays.
 */
static void syn_bytes(struct kunit *test)
{
	struct tern_synstore *ss = test->priv;
	size_t big = tern_syn_size(TERN_SYN_QUOTE);
	size_t small = tern_syn_size(KT_SMALL);
	struct tern_syn *e;
	LIST_HEAD(out);

	KUNIT_ASSERT_GT(test, big, (size_t)3 * TERN_SYN_BYTES_PER);
	KUNIT_ASSERT_LE(test, big + small, (size_t)5 * TERN_SYN_BYTES_PER);
	KUNIT_ASSERT_GT(test, 2 * big, (size_t)5 * TERN_SYN_BYTES_PER);

	KUNIT_EXPECT_EQ(test, kt_store(ss, 3, 1001, 2001, 1, 1064), -ENOSPC);
	KUNIT_EXPECT_EQ(test, tern_syn_count(ss), 0U);
	KUNIT_EXPECT_EQ(test, ss->bytes, (size_t)0);
	KUNIT_EXPECT_EQ(test, kt_store(ss, 3, 1002, 2002, 2, KT_SMALL), 0);
	KUNIT_EXPECT_EQ(test, ss->bytes, small);

	KUNIT_EXPECT_EQ(test, kt_store(ss, 5, 1001, 2001, 1, 1064), 0);
	KUNIT_EXPECT_EQ(test, ss->bytes, big + small);
	KUNIT_EXPECT_EQ(test, kt_store(ss, 5, 1003, 2003, 3, 1064), -ENOSPC);
	KUNIT_EXPECT_EQ(test, kt_store(ss, 5, 1002, 2002, 22, 1064), -ENOSPC);
	KUNIT_EXPECT_EQ(test, tern_syn_count(ss), 2U);
	KUNIT_EXPECT_EQ(test, ss->bytes, big + small);

	tern_syn_take(ss, jiffies, true, &out);
	e = list_first_entry(&out, struct tern_syn, fifo);
	KUNIT_EXPECT_EQ(test, kt_seq(e), 2U);
	KUNIT_EXPECT_EQ(test, e->len, KT_SMALL);
	e = list_next_entry(e, fifo);
	KUNIT_EXPECT_EQ(test, kt_seq(e), 1U);
	KUNIT_EXPECT_EQ(test, e->len, TERN_SYN_QUOTE);
	kt_free_list(&out);
}

/*
 * A reassembled 64000-byte SYN in pages: kept as its first 548 bytes,
 * total length as it came; the packet itself is not kept.
 */
static void syn_big(struct kunit *test)
{
	struct tern_synstore *ss = test->priv;
	struct sk_buff *skb = kt_syn(1001, 2001, 7, 64000, 128);
	u8 *want = kunit_kzalloc(test, TERN_SYN_QUOTE, GFP_KERNEL);
	struct tern_syn *e;
	LIST_HEAD(out);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_NOT_NULL(test, want);
	KUNIT_ASSERT_EQ(test, skb_copy_bits(skb, 0, want, TERN_SYN_QUOTE), 0);
	KUNIT_EXPECT_GT(test, skb_shinfo(skb)->nr_frags, 10);
	skb_get(skb);
	KUNIT_EXPECT_EQ(test, tern_syn_store(ss, 64, KT4(KT_POOL4, 1001),
					     KT4(KT_REMOTE(1), 2001), skb), 0);
	/* The store's reference was given back. */
	KUNIT_EXPECT_EQ(test, refcount_read(&skb->users), 1U);
	kfree_skb(skb);
	KUNIT_EXPECT_EQ(test, ss->bytes, tern_syn_size(TERN_SYN_QUOTE));

	tern_syn_take(ss, jiffies, true, &out);
	KUNIT_ASSERT_EQ(test, kt_nodes(&out), (size_t)1);
	e = list_first_entry(&out, struct tern_syn, fifo);
	KUNIT_EXPECT_EQ(test, e->len, 548);
	KUNIT_EXPECT_EQ(test, tern_kt_memdiff(e->data, want, TERN_SYN_QUOTE), -1);
	KUNIT_EXPECT_EQ(test, ntohs(((struct iphdr *)e->data)->tot_len), 64000);
	kt_free_list(&out);
}

/* More entries than buckets: a table twice their number, all found. */
static void syn_grow(struct kunit *test)
{
	struct tern_synstore *ss = test->priv;
	unsigned int i;

	for (i = 0; i < 17; i++)
		KUNIT_ASSERT_EQ(test, kt_store(ss, 1000, 1000 + i, 2000,
					       i, KT_SMALL), 0);
	flush_work(&ss->grow);
	KUNIT_EXPECT_EQ(test, ss->nbuckets, 64U);
	for (; i < 65; i++)
		KUNIT_ASSERT_EQ(test, kt_store(ss, 1000, 1000 + i, 2000,
					       i, KT_SMALL), 0);
	flush_work(&ss->grow);
	KUNIT_EXPECT_EQ(test, ss->nbuckets, 256U);
	/* Replaced in the new table, not added. */
	KUNIT_EXPECT_EQ(test, kt_store(ss, 1000, 1000, 2000, 99, KT_SMALL),
			0);
	KUNIT_EXPECT_EQ(test, tern_syn_count(ss), 65U);
	while (i--) {
		kt_forget(ss, 1000 + i, 2000);
		KUNIT_EXPECT_EQ(test, tern_syn_count(ss), i);
	}
	KUNIT_EXPECT_EQ(test, ss->bytes, (size_t)0);
}

struct kt_race {
	struct tern_synstore *ss;
	unsigned int stored;
};

/* Retransmissions and simultaneous opens of 4 pairs, against the expiry. */
static void kt_race_round(struct kt_race *r, unsigned int i)
{
	if (!kt_store(r->ss, 4, 1000 + i % 4, 2000, i, KT_SMALL))
		r->stored++;
	if (i % 3 == 0)
		kt_forget(r->ss, 1000 + (i + 1) % 4, 2000);
	if (i % 8 == 0)
		usleep_range(20, 50);
	else
		cond_resched();
}

static int kt_race_thread(void *arg)
{
	struct kt_race *r = arg;
	unsigned int i = 0;

	while (!kthread_should_stop())
		kt_race_round(r, i++);
	return 0;
}

/*
 * Every SYN expires at once (lifetime 0): the work item takes and answers
 * them (through lo) while two threads replace and forget the same pairs.
 * KASAN and lockdep watch; the accounting must come out exact.
 */
static void syn_race(struct kunit *test)
{
	struct tern_synstore *ss = test->priv;
	struct kt_race a = { ss }, b = { ss };
	struct task_struct *t;
	size_t bytes, listed;
	unsigned int i;
	u32 n;

	ss->lifetime = 0;
	t = kthread_run(kt_race_thread, &b, "kt_syn_race");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	for (i = 0; i < 4000; i++)
		kt_race_round(&a, i);
	kthread_stop(t);
	KUNIT_EXPECT_GT(test, a.stored, 0U);
	KUNIT_EXPECT_GT(test, b.stored, 0U);
	spin_lock_bh(&ss->lock);
	n = ss->n;
	bytes = ss->bytes;
	listed = kt_nodes(&ss->fifo);
	spin_unlock_bh(&ss->lock);
	KUNIT_EXPECT_LE(test, n, 4U);
	KUNIT_EXPECT_EQ(test, bytes, n * tern_syn_size(KT_SMALL));
	KUNIT_EXPECT_EQ(test, listed, (size_t)n);
}

/*
 * The work ran (it is no longer pending) and, before it took the store's
 * lock, B was stored: B queued it a whole lifetime on. The work takes
 * nothing (A is not due) and must come again when A is due, not B.
 */
static void syn_rearm(struct kunit *test)
{
	struct tern_synstore *ss = test->priv;
	unsigned long a_due, b_due, due;
	struct tern_syn *e;
	LIST_HEAD(out);

	KUNIT_ASSERT_EQ(test, kt_store(ss, 4, 1000, 2000, 1, KT_SMALL), 0);
	cancel_delayed_work(&ss->expiry);
	msleep(20);
	KUNIT_ASSERT_EQ(test, kt_store(ss, 4, 1001, 2000, 2, KT_SMALL), 0);
	spin_lock_bh(&ss->lock);
	e = list_first_entry(&ss->fifo, struct tern_syn, fifo);
	a_due = e->expires;
	b_due = list_next_entry(e, fifo)->expires;
	spin_unlock_bh(&ss->lock);
	KUNIT_ASSERT_TRUE(test, time_before(a_due, b_due));
	KUNIT_EXPECT_EQ(test, tern_syn_take(ss, jiffies, false, &out) > 0,
			true);
	due = READ_ONCE(ss->expiry.timer.expires);
	KUNIT_EXPECT_TRUE(test, delayed_work_pending(&ss->expiry));
	/* A's expiry and one tick (a tick may pass before the timer is set). */
	KUNIT_EXPECT_TRUE(test, time_after_eq(due, a_due + 1));
	KUNIT_EXPECT_TRUE(test, time_before_eq(due, a_due + 2));
	KUNIT_EXPECT_TRUE(test, list_empty(&out));
	kt_free_list(&out);
}

static struct kunit_case tern_nat64_synstore_cases[] = {
	KUNIT_CASE(syn_order),
	KUNIT_CASE(syn_full),
	KUNIT_CASE(syn_batch),
	KUNIT_CASE(syn_bytes),
	KUNIT_CASE(syn_big),
	KUNIT_CASE(syn_grow),
	KUNIT_CASE(syn_race),
	KUNIT_CASE(syn_rearm),
	{}
};

static struct kunit_suite tern_nat64_synstore_suite = {
	.name = "tern_nat64_synstore",
	.init = kt_syn_init,
	.exit = kt_syn_exit,
	.test_cases = tern_nat64_synstore_cases,
};

kunit_test_suite(tern_nat64_synstore_suite);

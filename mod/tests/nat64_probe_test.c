// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the expiry of TCP sessions through the tables' worker slice
 * (tern_tables_gc(), the hook of nat64/table_gc.c) with the callbacks of
 * nat64/probe.c, as a NAT64 instance sets them: ESTABLISHED moves to TRANS
 * for tcp-trans-timeout and its IPv6 end gets one probe, checked byte for
 * byte where it leaves (the capture of kt_util.c in init_net); every
 * other state is removed, without probe. The clock is faked: a session's
 * expiry is moved into the past, then the sweep runs.
 */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/ipv6.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include "nat64/nat64.h"
#include "nat64/probe.h"
#include "nat64/tcp.h"
#include "nat64/table_int.h"
#include "kt_util.h"

#define KT_PORT6	45000
#define KT_RPORT	80
#define KT_POOL4	TERN_KT_R4(1)		/* 198.51.100.1 */
#define KT_REMOTE	TERN_KT_H4(9)		/* 203.0.113.9 */

struct kt_probe {
	struct tern_kt_inst ki;
	struct tern_nat64 n;		/* tables and callbacks only */
};

static bool kt_probe_pick(void *arg, const struct tern_ta6 *t6,
			  unsigned int attempt, struct tern_ta4 *t4)
{
	t4->addr = KT_POOL4;
	t4->port = htons(2000 + ntohs(t6->port) % 1000 + attempt);
	return attempt < 8;
}

static int kt_probe_init(struct kunit *test)
{
	struct kt_probe *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_EQ(test, tern_tables_init(), 0);
	KUNIT_ASSERT_EQ(test, tern_kt_inst_init(&f->ki), 0);
	f->n.tables = tern_tables_alloc(1024);
	KUNIT_ASSERT_NOT_NULL(test, f->n.tables);
	f->n.net = &init_net;
	f->n.events.tcp_expire = tern_probe_tcp_expire;
	f->n.events.tcp_kept = tern_probe_tcp_kept;
	f->n.events.arg = &f->ki.inst;
	tern_tables_set_events(f->n.tables, &f->n.events);
	f->ki.inst.nat64 = &f->n;
	tern_kt_capture_reset();
	test->priv = f;
	return 0;
}

static void kt_probe_exit(struct kunit *test)
{
	struct kt_probe *f = test->priv;

	if (!f)
		return;
	tern_tables_free(f->n.tables);
	tern_kt_inst_fini(&f->ki);
	tern_kt_capture_reset();
}

/* The IPv6 host (2001:db8:64::192.0.2.5) port @port6. */
static struct tern_ta6 kt_t6(u16 port6)
{
	struct tern_ta6 t6 = { .port = htons(port6) };

	tern_kt_map6(TERN_KT_H6(5), &t6.addr);
	return t6;
}

static const struct tern_ta4 kt_remote = {
	.addr = KT_REMOTE,
	.port = htons(KT_RPORT),
};

/* A TCP session of [IPv6 host]:@port6 with 203.0.113.9:80 in @state. */
static struct tern_session *kt_sess(struct kunit *test, u16 port6, u8 state)
{
	struct kt_probe *f = test->priv;
	struct tern_ta6 t6 = kt_t6(port6);
	struct tern_limits lim = { 0 };
	struct tern_session *s;
	bool made;

	local_bh_disable();
	rcu_read_lock();
	s = tern_sess_add6(f->n.tables, TERN_L4_TCP, &t6, &kt_remote, &lim,
			   kt_probe_pick, NULL, state, 7440 * HZ, &made);
	rcu_read_unlock();
	local_bh_enable();
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_ASSERT_EQ(test, s->state, state);
	return s;
}

/* The session of @port6 as a lookup sees it (NULL: none, or expired). */
static struct tern_session *kt_find(struct kunit *test, u16 port6)
{
	struct kt_probe *f = test->priv;
	struct tern_ta6 t6 = kt_t6(port6);
	struct tern_session *s;

	rcu_read_lock();
	s = tern_sess_find6(f->n.tables, TERN_L4_TCP, &t6, &kt_remote);
	rcu_read_unlock();
	return s;
}

/*
 * Slices of the worker (tern_tables_gc()) until every bucket was swept. A
 * slice goes on from where the last one stopped (a slice is cut short
 * after its time) and covers one bucket at least; it returns false when
 * it reached the last bucket. So the sweep under way ends first, then a
 * whole one from bucket 0: at most twice as many slices as buckets
 * (KT_BUCKETS, those of tern_tables_alloc(1024)).
 */
#define KT_BUCKETS	1024

static void kt_sweep(struct tern_tables *t)
{
	unsigned int i, ends = 0;

	for (i = 0; i < 2 * KT_BUCKETS && ends < 2; i++) {
		if (!tern_tables_gc(t, NULL))
			ends++;
		cond_resched();
	}
}

static u64 kt_nsess(struct tern_tables *t)
{
	struct tern_tables_count c;

	tern_tables_count(t, &c);
	return c.sessions;
}

/*
 * The lifetime of @s ran out: slices until the worker has dealt with it
 * (removed it, or changed its state), every bucket swept at most (as
 * kt_sweep()). Returns whether it was removed (then @s must not be
 * touched any more).
 */
static bool kt_expire_and_sweep(struct tern_tables *t, struct tern_session *s)
{
	u64 n = kt_nsess(t);
	u8 state = READ_ONCE(s->state);
	unsigned int i, ends = 0;

	WRITE_ONCE(s->expires, (u32)jiffies - 1);
	tern_tbl_gc_note(t, READ_ONCE(s->expires));
	for (i = 0; i < 2 * KT_BUCKETS && ends < 2; i++) {
		if (!tern_tables_gc(t, NULL))
			ends++;
		if (kt_nsess(t) != n)
			return true;
		if (READ_ONCE(s->state) != state)
			break;
		cond_resched();
	}
	return false;
}

static u64 kt_stat(struct kt_probe *f, enum tern_stat id, u64 *total)
{
	u64 cnt[TERN_STAT_MAX + 1];

	*total = tern_kt_stats_total(&f->ki, cnt);
	return cnt[id];
}

/* The probe RFC 6146 3.5.2.2 describes, as Tern sends it. */
static void kt_want_probe(u8 *p, u16 port6)
{
	struct tern_ta6 t6 = kt_t6(port6);
	struct in6_addr src;
	u8 *th = p + 40;

	tern_kt_map6(KT_REMOTE, &src);
	memset(p, 0, 60);
	tern_kt_ip6(p, 20, IPPROTO_TCP, &src, &t6.addr, 64);
	p[0] = 0x60;			/* Traffic Class 0, flow label 0 */
	p[1] = 0;
	th[0] = KT_RPORT >> 8;
	th[1] = KT_RPORT & 0xff;
	th[2] = port6 >> 8;
	th[3] = port6 & 0xff;
	/* Sequence and acknowledgment numbers 0. */
	th[12] = 5 << 4;		/* data offset: no option */
	th[13] = 0x10;			/* ACK only */
	tern_kt_l4csum6(th, 20, IPPROTO_TCP, &src, &t6.addr);
}

static void probe_established_to_trans(struct kunit *test)
{
	struct kt_probe *f = test->priv;
	struct tern_session *s = kt_sess(test, KT_PORT6, TERN_TCP_ESTABLISHED);
	unsigned long trans = f->ki.cfg->tcp_trans_timeout * HZ;
	struct tern_kt_pkt *p;
	u32 before, after;
	u8 want[60];
	u64 total;

	KUNIT_ASSERT_EQ(test, f->ki.cfg->tcp_trans_timeout, 240U);
	before = (u32)jiffies;
	KUNIT_ASSERT_FALSE(test, kt_expire_and_sweep(f->n.tables, s));
	after = (u32)jiffies;

	/* Kept: the same session, TRANS, tcp-trans-timeout from the sweep. */
	KUNIT_ASSERT_PTR_EQ(test, kt_find(test, KT_PORT6), s);
	KUNIT_EXPECT_EQ(test, READ_ONCE(s->state), TERN_TCP_TRANS);
	KUNIT_EXPECT_GE(test, (s32)(READ_ONCE(s->expires) - (before + trans)), 0);
	KUNIT_EXPECT_LE(test, (s32)(READ_ONCE(s->expires) - (after + trans)), 0);

	/* One probe, out of tern-kt0, counted. */
	KUNIT_ASSERT_EQ(test, tern_kt_ncaptured(), 1U);
	p = tern_kt_captured(0);
	KUNIT_EXPECT_EQ(test, p->family, NFPROTO_IPV6);
	KUNIT_ASSERT_EQ(test, p->len, 60U);
	kt_want_probe(want, KT_PORT6);
	TERN_KT_EXPECT_BYTES(test, p->data, want, 60, "probe");
	KUNIT_EXPECT_EQ(test, tern_kt_l4check6(p->data + 40, 20, IPPROTO_TCP,
					       (struct in6_addr *)(p->data + 8),
					       (struct in6_addr *)(p->data + 24)),
			0);
	KUNIT_EXPECT_EQ(test, kt_stat(f, TERN_STAT_TCP_PROBES, &total), 1ULL);
	KUNIT_EXPECT_EQ(test, total, 1ULL);

	/* One probe per expiry: another sweep sends none. */
	kt_sweep(f->n.tables);
	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 1U);
	KUNIT_EXPECT_EQ(test, READ_ONCE(s->state), TERN_TCP_TRANS);

	/* TRANS runs out: removed, no probe. */
	KUNIT_EXPECT_TRUE(test, kt_expire_and_sweep(f->n.tables, s));
	KUNIT_EXPECT_PTR_EQ(test, kt_find(test, KT_PORT6), NULL);
	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 1U);
	KUNIT_EXPECT_EQ(test, kt_stat(f, TERN_STAT_TCP_PROBES, &total), 1ULL);
}

/* Every state but ESTABLISHED goes when its lifetime is over. */
static void probe_other_states_removed(struct kunit *test)
{
	static const u8 states[] = {
		TERN_TCP_V4_INIT, TERN_TCP_V6_INIT, TERN_TCP_V4_FIN_RCV,
		TERN_TCP_V6_FIN_RCV, TERN_TCP_V4_FIN_V6_FIN_RCV, TERN_TCP_TRANS,
		TERN_TCP_V6_REBUILT,
	};
	struct kt_probe *f = test->priv;
	struct tern_session *s;
	unsigned int i;
	u64 total;

	for (i = 0; i < ARRAY_SIZE(states); i++) {
		s = kt_sess(test, KT_PORT6 + i, states[i]);
		KUNIT_EXPECT_TRUE_MSG(test, kt_expire_and_sweep(f->n.tables, s),
				      "%s", tern_tcp_state_name(states[i]));
		KUNIT_EXPECT_PTR_EQ(test, kt_find(test, KT_PORT6 + i), NULL);
	}
	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 0U);
	KUNIT_EXPECT_EQ(test, kt_stat(f, TERN_STAT_TCP_PROBES, &total), 0ULL);
	KUNIT_EXPECT_EQ(test, total, 0ULL);
}

/* A session still in use is left alone. */
static void probe_live_untouched(struct kunit *test)
{
	struct kt_probe *f = test->priv;
	struct tern_session *s = kt_sess(test, KT_PORT6, TERN_TCP_ESTABLISHED);
	u32 exp = READ_ONCE(s->expires);

	kt_sweep(f->n.tables);
	KUNIT_EXPECT_PTR_EQ(test, kt_find(test, KT_PORT6), s);
	KUNIT_EXPECT_EQ(test, READ_ONCE(s->state), TERN_TCP_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, READ_ONCE(s->expires), exp);
	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 0U);
}

/*
 * No probe when it cannot be sent (no pool6, or the IPv6 end is this
 * host: fd00:7e57::1 of tern-kt0): the session is in TRANS all the same.
 */
static void probe_unsendable_still_trans(struct kunit *test)
{
	struct kt_probe *f = test->priv;
	struct tern_session *s;
	struct tern_ta6 local = { .port = htons(KT_PORT6) };
	struct tern_limits lim = { 0 };
	bool made;
	u64 total;

	f->ki.cfg->pool6_set = false;
	s = kt_sess(test, KT_PORT6, TERN_TCP_ESTABLISHED);
	KUNIT_ASSERT_FALSE(test, kt_expire_and_sweep(f->n.tables, s));
	KUNIT_EXPECT_PTR_EQ(test, kt_find(test, KT_PORT6), s);
	KUNIT_EXPECT_EQ(test, READ_ONCE(s->state), TERN_TCP_TRANS);
	f->ki.cfg->pool6_set = true;

	local.addr = tern_kt_a6(test, "fd00:7e57::1");
	local_bh_disable();
	rcu_read_lock();
	s = tern_sess_add6(f->n.tables, TERN_L4_TCP, &local, &kt_remote, &lim,
			   kt_probe_pick, NULL, TERN_TCP_ESTABLISHED, 7440 * HZ,
			   &made);
	rcu_read_unlock();
	local_bh_enable();
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_ASSERT_FALSE(test, kt_expire_and_sweep(f->n.tables, s));
	KUNIT_EXPECT_EQ(test, READ_ONCE(s->state), TERN_TCP_TRANS);

	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 0U);
	KUNIT_EXPECT_EQ(test, kt_stat(f, TERN_STAT_TCP_PROBES, &total), 0ULL);
	KUNIT_EXPECT_EQ(test, total, 0ULL);
}

/* ->tcp_kept() sends nothing for a session gone or moved on meanwhile. */
static void probe_kept_rechecks(struct kunit *test)
{
	struct kt_probe *f = test->priv;
	struct tern_session *s = kt_sess(test, KT_PORT6, TERN_TCP_ESTABLISHED);

	/* Not TRANS (a packet made it ESTABLISHED again). */
	rcu_read_lock();
	tern_probe_tcp_kept(&f->ki.inst, s);
	rcu_read_unlock();
	/* Expired: gone for lookups, whatever its state. */
	WRITE_ONCE(s->state, TERN_TCP_TRANS);
	WRITE_ONCE(s->expires, (u32)jiffies - 1);
	rcu_read_lock();
	tern_probe_tcp_kept(&f->ki.inst, s);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 0U);
	/* Live and in TRANS: sent. */
	WRITE_ONCE(s->expires, (u32)jiffies + 60 * HZ);
	rcu_read_lock();
	tern_probe_tcp_kept(&f->ki.inst, s);
	rcu_read_unlock();
	KUNIT_EXPECT_EQ(test, tern_kt_ncaptured(), 1U);
}

/* The builder alone: every byte, another pair of addresses. */
static void probe_build_bytes(struct kunit *test)
{
	struct in6_addr src = tern_kt_a6(test, "64:ff9b::cb00:7101");
	struct in6_addr dst = tern_kt_a6(test, "2001:db8::1");
	static const u8 tcp[20] = {
		0x01, 0xbb, 0x30, 0x39,		/* 443 -> 12345 */
		0, 0, 0, 0, 0, 0, 0, 0,		/* seq 0, ack 0 */
		0x50, 0x10, 0, 0,		/* doff 5, ACK, window 0 */
		0, 0, 0, 0,			/* checksum (below), urgent 0 */
	};
	struct sk_buff *skb;
	u8 want[60];

	tern_kt_ip6(want, 20, IPPROTO_TCP, &src, &dst, 64);
	want[0] = 0x60;			/* Traffic Class 0, flow label 0 */
	want[1] = 0;
	memcpy(want + 40, tcp, sizeof(tcp));
	tern_kt_l4csum6(want + 40, 20, IPPROTO_TCP, &src, &dst);
	skb = tern_probe_build(&src, htons(443), &dst, htons(12345), 64);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, skb->len, 60U);
	KUNIT_EXPECT_EQ(test, skb_network_offset(skb), 0);
	KUNIT_EXPECT_EQ(test, skb_transport_offset(skb), 40);
	KUNIT_EXPECT_EQ(test, ntohs(skb->protocol), ETH_P_IPV6);
	TERN_KT_EXPECT_BYTES(test, skb->data, want, 60, "probe");
	KUNIT_EXPECT_EQ(test, tern_kt_l4check6(skb->data + 40, 20, IPPROTO_TCP,
					       &src, &dst), 0);
	kfree_skb(skb);
}

static struct kunit_case tern_nat64_probe_cases[] = {
	KUNIT_CASE(probe_established_to_trans),
	KUNIT_CASE(probe_other_states_removed),
	KUNIT_CASE(probe_live_untouched),
	KUNIT_CASE(probe_unsendable_still_trans),
	KUNIT_CASE(probe_kept_rechecks),
	KUNIT_CASE(probe_build_bytes),
	{}
};

static struct kunit_suite tern_nat64_probe_suite = {
	.name = "tern_nat64_probe",
	.suite_init = tern_kt_net_suite_init,
	.suite_exit = tern_kt_net_suite_exit,
	.init = kt_probe_init,
	.exit = kt_probe_exit,
	.test_cases = tern_nat64_probe_cases,
};

kunit_test_suite(tern_nat64_probe_suite);

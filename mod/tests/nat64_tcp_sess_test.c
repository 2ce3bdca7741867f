// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: TCP segments through sessions of the tables
 * (tern_tcp_sess_step(), nat64/tcp_sess.c), with the expiry callback of
 * nat64/probe.c as an instance sets it:
 * - state changes are atomic: two kernel threads on two CPUs send a FIN
 *   from each side through the same sessions at the same time, round
 *   after round; every session ends in V4 FIN + V6 FIN RCV with lifetime
 *   TCP_TRANS (a lost FIN left it in one FIN state, for TCP_EST);
 * - a refresh racing a state change does not keep its longer lifetime;
 * - expiry as lookups see it is the worker's rule: an established session
 *   whose lifetime ran out, not yet swept, is found, and a segment steps
 *   it from TRANS (ESTABLISHED again on data); sessions the worker
 *   removes are not found.
 * The clock is faked: an expiry is moved into the past.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include "nat64/probe.h"
#include "nat64/table.h"
#include "nat64/tcp.h"
#include "nat64/tcp_sess.h"
#include "kt_nat64.h"
#include "kt_util.h"

#define V6	true
#define V4	false

struct kt_sess {
	struct tern_kt_inst ki;
	struct tern_table_events ev;
	struct tern_tables *t;
};

static int kt_sess_init(struct kunit *test)
{
	struct kt_sess *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_EQ(test, tern_tables_init(), 0);
	KUNIT_ASSERT_EQ(test, tern_kt_inst_init(&f->ki), 0);
	f->t = tern_tables_alloc(1024);
	KUNIT_ASSERT_NOT_NULL(test, f->t);
	f->ev.tcp_expire = tern_probe_tcp_expire;
	f->ev.arg = &f->ki.inst;
	tern_tables_set_events(f->t, &f->ev);
	test->priv = f;
	return 0;
}

static void kt_sess_exit(struct kunit *test)
{
	struct kt_sess *f = test->priv;

	if (!f)
		return;
	tern_tables_free(f->t);
	tern_kt_inst_fini(&f->ki);
}

/* Each IPv6 port its own pool4 port: the same. */
static bool kt_same_port(void *arg, const struct tern_ta6 *t6,
			 unsigned int attempt, struct tern_ta4 *t4)
{
	t4->addr = KT_POOL4;
	t4->port = t6->port;
	return !attempt;
}

static const struct tern_ta4 kt_remote = {
	.addr = KT_REMOTE(9),
	.port = htons(80),
};

/* A TCP session of 2001:db8:0:1::1 port @port with 203.0.113.9:80. */
static struct tern_session *kt_tcp(struct kunit *test, u16 port, u8 state)
{
	struct kt_sess *f = test->priv;
	struct tern_limits lim = { .track_peers = true };
	struct tern_session *s;
	bool made;

	local_bh_disable();
	rcu_read_lock();
	s = tern_sess_add6(f->t, TERN_L4_TCP, KT6(1, 1, port), &kt_remote,
			   &lim, kt_same_port, NULL, state, 7440 * HZ, &made);
	rcu_read_unlock();
	local_bh_enable();
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s));
	KUNIT_ASSERT_EQ(test, s->state, state);
	return s;
}

/* A segment through @s, as the packet path sends it. */
static bool kt_step(struct kt_sess *f, struct tern_session *s, bool from6,
		    u8 flags)
{
	bool ok;

	local_bh_disable();
	rcu_read_lock();
	ok = tern_tcp_sess_step(f->t, f->ki.cfg, s, from6, flags);
	rcu_read_unlock();
	local_bh_enable();
	return ok;
}

/* Jiffies @s has left (negative: expired). */
static long kt_left(const struct tern_session *s)
{
	return (s32)(READ_ONCE(s->expires) - (u32)jiffies);
}

#define kt_est(f)	tern_tcp_timeout((f)->ki.cfg, TERN_TCPT_EST)
#define kt_trans(f)	tern_tcp_timeout((f)->ki.cfg, TERN_TCPT_TRANS)

/* Races: two threads, one per CPU, through the same sessions. */
#define KT_RACE_SESS	64
#define KT_RACE_ROUNDS	2000

struct kt_race {
	struct kt_sess *f;
	struct tern_session *s[KT_RACE_SESS];
	u8 start;			/* the state of a round's start */
	bool stale;			/* start with a minute left */
	u8 want;			/* every session's state at its end */
	struct {
		bool from6;
		u8 flags;
	} op[2];			/* thread i sends op[i] */
	atomic_t arrived, gen;
	atomic_t wrong_state, wrong_life;
	u8 seen;			/* a wrong state, for the message */
	struct completion done[2];
};

struct kt_racer {
	struct kt_race *r;
	int id;
};

/*
 * Both threads wait for each other. The wait lets the scheduler in: both
 * CPUs run a racer, and on a kernel without preemption a pure spin would
 * keep RCU's grace-period kthread off its CPU while the other vCPU is
 * descheduled by the host (an RCU stall report under emulation).
 */
static void kt_race_barrier(struct kt_race *r)
{
	int gen = atomic_read(&r->gen);

	if (atomic_inc_return(&r->arrived) == 2) {
		atomic_set(&r->arrived, 0);
		/* The reset before the release of the waiter. */
		smp_mb__before_atomic();
		atomic_inc(&r->gen);
		return;
	}
	while (atomic_read_acquire(&r->gen) == gen) {
		cpu_relax();
		cond_resched();
	}
}

/* Between rounds, by thread 0 alone: checks, then sets up the next. */
static void kt_race_check_reset(struct kt_race *r, bool check)
{
	struct tern_session *s;
	unsigned int i;

	for (i = 0; i < KT_RACE_SESS; i++) {
		s = r->s[i];
		if (check && READ_ONCE(s->state) != r->want) {
			atomic_inc(&r->wrong_state);
			r->seen = READ_ONCE(s->state);
		}
		/* V4 FIN + V6 FIN RCV lives TCP_TRANS, not more. */
		if (check && kt_left(s) > (long)kt_trans(r->f))
			atomic_inc(&r->wrong_life);
		WRITE_ONCE(s->state, r->start);
		WRITE_ONCE(s->expires, (u32)jiffies +
			   (r->stale ? 60 * HZ : kt_est(r->f)));
	}
}

static int kt_race_thread(void *arg)
{
	struct kt_racer *me = arg;
	struct kt_race *r = me->r;
	unsigned int round, i;

	for (round = 0; round < KT_RACE_ROUNDS; round++) {
		kt_race_barrier(r);
		for (i = 0; i < KT_RACE_SESS; i++)
			kt_step(r->f, r->s[i], r->op[me->id].from6,
				r->op[me->id].flags);
		kt_race_barrier(r);
		if (!me->id)
			kt_race_check_reset(r, true);
	}
	complete(&r->done[me->id]);
	return 0;
}

static void kt_race_run(struct kunit *test, struct kt_race *r)
{
	struct kt_racer racer[2];
	struct task_struct *task[2];
	unsigned int i;
	int cpu[2];

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs (VM_CPUS=2)");
	cpu[0] = cpumask_first(cpu_online_mask);
	cpu[1] = cpumask_next(cpu[0], cpu_online_mask);
	r->f = test->priv;
	for (i = 0; i < KT_RACE_SESS; i++)
		r->s[i] = kt_tcp(test, 1000 + i, r->start);
	kt_race_check_reset(r, false);
	atomic_set(&r->arrived, 0);
	atomic_set(&r->gen, 0);
	atomic_set(&r->wrong_state, 0);
	atomic_set(&r->wrong_life, 0);
	for (i = 0; i < 2; i++) {
		init_completion(&r->done[i]);
		racer[i].r = r;
		racer[i].id = i;
		task[i] = kthread_create(kt_race_thread, &racer[i],
					 "tern-kt-race%u", i);
		if (IS_ERR(task[i]) && i)
			kthread_stop(task[0]);
		KUNIT_ASSERT_FALSE(test, IS_ERR(task[i]));
		kthread_bind(task[i], cpu[i]);
	}
	wake_up_process(task[0]);
	wake_up_process(task[1]);
	wait_for_completion(&r->done[0]);
	wait_for_completion(&r->done[1]);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&r->wrong_state), 0,
			    "sessions left in %s of %u",
			    tern_tcp_state_name(r->seen),
			    KT_RACE_SESS * KT_RACE_ROUNDS);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&r->wrong_life), 0,
			    "sessions with more than TCP_TRANS left");
}

/*
 * A simultaneous close: the IPv6 FIN and the IPv4 FIN of each ESTABLISHED
 * session at the same time on two CPUs. Whichever comes second steps from
 * the first's V6 (V4) FIN RCV: V4 FIN + V6 FIN RCV, lifetime TCP_TRANS.
 */
static void tcp_sess_simultaneous_fins(struct kunit *test)
{
	struct kt_race *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->start = TERN_TCP_ESTABLISHED;
	r->want = TERN_TCP_V4_FIN_V6_FIN_RCV;
	r->op[0].from6 = V6;
	r->op[0].flags = TERN_TCPF_FIN;
	r->op[1].from6 = V4;
	r->op[1].flags = TERN_TCPF_FIN;
	kt_race_run(test, r);
}

/*
 * V4 FIN RCV, the IPv6 FIN against data from the IPv4 side whose refresh
 * (TCP_EST; due: a minute left) may land after the FIN gave TCP_TRANS:
 * the session ends in V4 FIN + V6 FIN RCV with TCP_TRANS at most.
 */
static void tcp_sess_refresh_vs_fin(struct kunit *test)
{
	struct kt_race *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->start = TERN_TCP_V4_FIN_RCV;
	r->stale = true;
	r->want = TERN_TCP_V4_FIN_V6_FIN_RCV;
	r->op[0].from6 = V4;
	r->op[0].flags = 0;
	r->op[1].from6 = V6;
	r->op[1].flags = TERN_TCPF_FIN;
	kt_race_run(test, r);
}

/* Lookups from both sides, under RCU. */
static bool kt_found(struct kt_sess *f, struct tern_session *s, u16 port)
{
	struct tern_ta4 local = kt_t4(KT_POOL4, port);
	bool ok;

	rcu_read_lock();
	ok = tern_sess_find6(f->t, TERN_L4_TCP, KT6(1, 1, port),
			     &kt_remote) == s &&
	     tern_sess_find4(f->t, TERN_L4_TCP, &local, &kt_remote) == s &&
	     tern_sess_known4(f->t, TERN_L4_TCP, &local, kt_remote.addr);
	rcu_read_unlock();
	return ok;
}

/*
 * RFC 6146 3.5.2.2: an ESTABLISHED session whose lifetime ran out moves
 * to TRANS and is kept. A segment that comes before the worker's sweep
 * finds it all the same and steps it from TRANS: data (from either side)
 * makes it ESTABLISHED again with TCP_EST; a RST leaves it in TRANS, for
 * TCP_TRANS. Nothing is removed.
 */
static void tcp_sess_expired_established(struct kunit *test)
{
	struct kt_sess *f = test->priv;
	struct tern_session *s = kt_tcp(test, 2000, TERN_TCP_ESTABLISHED);
	struct tern_session *s2 = kt_tcp(test, 2001, TERN_TCP_ESTABLISHED);
	struct tern_tables_count c;

	/* Data from the IPv6 side, then (expired again) from the IPv4 one. */
	WRITE_ONCE(s->expires, (u32)jiffies - 1);
	KUNIT_EXPECT_TRUE(test, kt_found(f, s, 2000));
	KUNIT_EXPECT_TRUE(test, kt_step(f, s, V6, 0));
	KUNIT_EXPECT_STREQ(test, tern_tcp_state_name(s->state), "ESTABLISHED");
	KUNIT_EXPECT_GT(test, kt_left(s), (long)kt_trans(f));
	KUNIT_EXPECT_LE(test, kt_left(s), (long)kt_est(f));

	WRITE_ONCE(s->expires, (u32)jiffies - HZ);
	KUNIT_EXPECT_TRUE(test, kt_found(f, s, 2000));
	KUNIT_EXPECT_TRUE(test, kt_step(f, s, V4, 0));
	KUNIT_EXPECT_STREQ(test, tern_tcp_state_name(s->state), "ESTABLISHED");
	KUNIT_EXPECT_GT(test, kt_left(s), (long)kt_trans(f));
	KUNIT_EXPECT_TRUE(test, kt_found(f, s, 2000));

	/* A RST: TRANS (the lifetime the expiry gives), found still. */
	WRITE_ONCE(s2->expires, (u32)jiffies - 1);
	KUNIT_EXPECT_TRUE(test, kt_step(f, s2, V4, TERN_TCPF_RST));
	KUNIT_EXPECT_STREQ(test, tern_tcp_state_name(s2->state), "TRANS");
	KUNIT_EXPECT_GT(test, kt_left(s2), 0L);
	KUNIT_EXPECT_LE(test, kt_left(s2), (long)kt_trans(f));
	KUNIT_EXPECT_TRUE(test, kt_found(f, s2, 2001));
	/* Then data from the IPv6 side: ESTABLISHED. */
	KUNIT_EXPECT_TRUE(test, kt_step(f, s2, V6, 0));
	KUNIT_EXPECT_STREQ(test, tern_tcp_state_name(s2->state),
			   "ESTABLISHED");

	tern_tables_count(f->t, &c);
	KUNIT_EXPECT_EQ(test, c.sessions, 2ULL);
}

/*
 * The other states: the worker removes them when their lifetime ran out,
 * so lookups do not find them, and a segment that found one just before
 * is dropped, a SYN too (its retransmission takes the path of a new
 * flow); nothing changes.
 */
static void tcp_sess_expired_gone(struct kunit *test)
{
	static const u8 gone[] = {
		TERN_TCP_V4_INIT, TERN_TCP_V6_INIT, TERN_TCP_V4_FIN_RCV,
		TERN_TCP_V6_FIN_RCV, TERN_TCP_V4_FIN_V6_FIN_RCV, TERN_TCP_TRANS,
		TERN_TCP_V6_REBUILT,
	};
	struct kt_sess *f = test->priv;
	struct tern_session *s;
	struct tern_ta4 local;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(gone); i++) {
		s = kt_tcp(test, 3000 + i, gone[i]);
		local = kt_t4(KT_POOL4, 3000 + i);
		WRITE_ONCE(s->expires, (u32)jiffies - 1);
		rcu_read_lock();
		KUNIT_EXPECT_NULL_MSG(test, tern_sess_find6(f->t, TERN_L4_TCP,
							    KT6(1, 1, 3000 + i),
							    &kt_remote),
				      "%s", tern_tcp_state_name(gone[i]));
		KUNIT_EXPECT_NULL(test, tern_sess_find4(f->t, TERN_L4_TCP,
							&local, &kt_remote));
		rcu_read_unlock();
		KUNIT_EXPECT_FALSE(test, kt_step(f, s, V6, 0));
		KUNIT_EXPECT_FALSE(test, kt_step(f, s, V4, TERN_TCPF_FIN));
		KUNIT_EXPECT_FALSE(test, kt_step(f, s, V6, TERN_TCPF_SYN));
		KUNIT_EXPECT_EQ(test, s->state, gone[i]);
		KUNIT_EXPECT_LT(test, kt_left(s), 0L);
	}
}

/* Without an expiry callback, every expired session is gone. */
static void tcp_sess_expired_no_callback(struct kunit *test)
{
	struct kt_sess *f = test->priv;
	struct tern_session *s = kt_tcp(test, 4000, TERN_TCP_ESTABLISHED);

	tern_tables_set_events(f->t, NULL);
	WRITE_ONCE(s->expires, (u32)jiffies - 1);
	KUNIT_EXPECT_FALSE(test, kt_found(f, s, 4000));
	KUNIT_EXPECT_FALSE(test, kt_step(f, s, V6, 0));
}

/*
 * tern_tcp_entry_timer(): what a refresh that raced a state change writes
 * back. Every step into a state from another gives the same lifetime,
 * and the expiry into TRANS gives TRANS's.
 */
static void tcp_sess_entry_timer(struct kunit *test)
{
	static const u8 flags[] = {
		TERN_TCPF_SYN, TERN_TCPF_FIN, TERN_TCPF_RST, 0,
	};
	struct tern_tcp_step st;
	unsigned int from, i, six;

	for (from = 0; from < __TERN_TCP_STATE_MAX; from++)
		for (six = 0; six < 2; six++)
			for (i = 0; i < ARRAY_SIZE(flags); i++) {
				st = tern_tcp_next(from, six, flags[i]);
				if (!st.ok || st.state == from)
					continue;
				KUNIT_EXPECT_EQ_MSG(test, st.timer,
						    tern_tcp_entry_timer(st.state),
						    "%s to %s",
						    tern_tcp_state_name(from),
						    tern_tcp_state_name(st.state));
			}
	st = tern_tcp_expire(TERN_TCP_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, st.timer, tern_tcp_entry_timer(st.state));
	KUNIT_EXPECT_EQ(test, tern_tcp_entry_timer(TERN_TCP_V4_FIN_V6_FIN_RCV),
			(u8)TERN_TCPT_TRANS);
	KUNIT_EXPECT_EQ(test, tern_tcp_entry_timer(TERN_TCP_V4_FIN_RCV),
			(u8)TERN_TCPT_KEEP);
}

/*
 * tcp-rst-during-fin-rcv through a session: the RST after a FIN shortens
 * the lifetime to TCP_TRANS (the state stays); data after it gives TCP_EST
 * again, the other side's FIN closes. Off, the RST leaves TCP_EST.
 */
static void tcp_sess_rst_during_fin_rcv(struct kunit *test)
{
	struct kt_sess *f = test->priv;
	struct tern_session *s = kt_tcp(test, 2100, TERN_TCP_V4_FIN_RCV);
	struct tern_session *off = kt_tcp(test, 2101, TERN_TCP_V6_FIN_RCV);

	KUNIT_EXPECT_TRUE(test, kt_step(f, off, V4, TERN_TCPF_RST));
	KUNIT_EXPECT_EQ(test, off->state, TERN_TCP_V6_FIN_RCV);
	KUNIT_EXPECT_GT(test, kt_left(off), (long)kt_trans(f));

	f->ki.cfg->tcp_rst_fin_rcv = true;
	KUNIT_EXPECT_TRUE(test, kt_step(f, s, V6, TERN_TCPF_RST));
	KUNIT_EXPECT_EQ(test, s->state, TERN_TCP_V4_FIN_RCV);
	KUNIT_EXPECT_LE(test, kt_left(s), (long)kt_trans(f));
	KUNIT_EXPECT_GT(test, kt_left(s), (long)kt_trans(f) - HZ);
	KUNIT_EXPECT_TRUE(test, kt_step(f, s, V4, 0));
	KUNIT_EXPECT_GT(test, kt_left(s), (long)kt_trans(f));
	KUNIT_EXPECT_TRUE(test, kt_step(f, s, V6, TERN_TCPF_FIN));
	KUNIT_EXPECT_EQ(test, s->state, TERN_TCP_V4_FIN_V6_FIN_RCV);
	KUNIT_EXPECT_LE(test, kt_left(s), (long)kt_trans(f));
}

static struct kunit_case tern_nat64_tcp_sess_cases[] = {
	KUNIT_CASE(tcp_sess_simultaneous_fins),
	KUNIT_CASE(tcp_sess_refresh_vs_fin),
	KUNIT_CASE(tcp_sess_expired_established),
	KUNIT_CASE(tcp_sess_expired_gone),
	KUNIT_CASE(tcp_sess_expired_no_callback),
	KUNIT_CASE(tcp_sess_entry_timer),
	KUNIT_CASE(tcp_sess_rst_during_fin_rcv),
	{}
};

static struct kunit_suite tern_nat64_tcp_sess_suite = {
	.name = "tern_nat64_tcp_sess",
	.suite_init = kt_table_suite_init,
	.init = kt_sess_init,
	.exit = kt_sess_exit,
	.test_cases = tern_nat64_tcp_sess_cases,
};

kunit_test_suite(tern_nat64_tcp_sess_suite);

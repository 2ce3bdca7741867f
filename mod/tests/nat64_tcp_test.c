// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the TCP state machine of NAT64 sessions (RFC 6146 3.5.2.2), row
 * by row (every state with every packet: a SYN, a FIN, a RST or another
 * segment, from either side), then whole connections as their packets
 * cross the translator, the lifetimes and the flags of a header.
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/tcp.h>
#include <net/tcp.h>
#include "core/instance.h"
#include "nat64/tcp.h"

#define V6	true
#define V4	false
#define SYN	TERN_TCPF_SYN
#define FIN	TERN_TCPF_FIN
#define RST	TERN_TCPF_RST
#define ANY	0		/* no SYN, FIN or RST: an ACK, data */

struct tcp_row {
	u8 state;
	bool from6;
	u8 flags;
	u8 next;
	u8 timer;
	bool ok;
};

/* @s moves to @n with lifetime @t; a packet that may not open: dropped. */
#define GO(s, six, f, n, t) \
	{ TERN_TCP_##s, six, f, TERN_TCP_##n, TERN_TCPT_##t, true }
#define DROP(s, six, f) \
	{ TERN_TCP_##s, six, f, TERN_TCP_##s, TERN_TCPT_KEEP, false }

/*
 * RFC 6146 3.5.2.2, state by state. "TCP_TRANS" and "TCP_EST" are the
 * transitory and established connection idle-timeouts, TCP_INCOMING_SYN
 * 6 seconds; "V6 SYN" is a SYN that came in from the IPv6 side, and so on.
 */
static const struct tcp_row tcp_rows[] = {
	/* CLOSED: a V6 SYN makes the session, state V6 INIT, TCP_TRANS. */
	GO(CLOSED, V6, SYN, V6_INIT, TRANS),
	/* CLOSED: a V4 SYN: state V4 INIT, lifetime TCP_INCOMING_SYN. */
	GO(CLOSED, V4, SYN, V4_INIT, SYN),
	/* CLOSED: a packet other than a SYN opens no session. */
	DROP(CLOSED, V6, FIN),
	DROP(CLOSED, V6, RST),
	DROP(CLOSED, V6, ANY),
	DROP(CLOSED, V4, FIN),
	DROP(CLOSED, V4, RST),
	DROP(CLOSED, V4, ANY),
	/* Tern: a SYN with FIN or RST is a FIN or a RST, and opens nothing. */
	DROP(CLOSED, V6, SYN | FIN),
	DROP(CLOSED, V6, SYN | RST),
	DROP(CLOSED, V4, SYN | FIN),
	DROP(CLOSED, V4, SYN | RST),

	/* V4 INIT: a V6 SYN moves it to ESTABLISHED, lifetime TCP_EST. */
	GO(V4_INIT, V6, SYN, ESTABLISHED, EST),
	/* V4 INIT: other packets pass, state and lifetime unchanged. */
	GO(V4_INIT, V6, FIN, V4_INIT, KEEP),
	GO(V4_INIT, V6, RST, V4_INIT, KEEP),
	GO(V4_INIT, V6, ANY, V4_INIT, KEEP),
	/* V4 INIT: a V4 SYN again does not extend TCP_INCOMING_SYN. */
	GO(V4_INIT, V4, SYN, V4_INIT, KEEP),
	GO(V4_INIT, V4, FIN, V4_INIT, KEEP),
	GO(V4_INIT, V4, RST, V4_INIT, KEEP),
	GO(V4_INIT, V4, ANY, V4_INIT, KEEP),

	/* V6 INIT: a V6 SYN again sets the lifetime to TCP_TRANS again. */
	GO(V6_INIT, V6, SYN, V6_INIT, TRANS),
	/* V6 INIT: other packets pass, state and lifetime unchanged. */
	GO(V6_INIT, V6, FIN, V6_INIT, KEEP),
	GO(V6_INIT, V6, RST, V6_INIT, KEEP),
	GO(V6_INIT, V6, ANY, V6_INIT, KEEP),
	/* V6 INIT: a V4 SYN (with or without ACK): ESTABLISHED, TCP_EST. */
	GO(V6_INIT, V4, SYN, ESTABLISHED, EST),
	GO(V6_INIT, V4, FIN, V6_INIT, KEEP),
	GO(V6_INIT, V4, RST, V6_INIT, KEEP),
	GO(V6_INIT, V4, ANY, V6_INIT, KEEP),

	/* ESTABLISHED: a V6 FIN: V6 FIN RCV (the lifetime is not set). */
	GO(ESTABLISHED, V6, FIN, V6_FIN_RCV, KEEP),
	/* ESTABLISHED: a V4 FIN: V4 FIN RCV (the lifetime is not set). */
	GO(ESTABLISHED, V4, FIN, V4_FIN_RCV, KEEP),
	/* ESTABLISHED: a V6 or V4 RST: TRANS, lifetime TCP_TRANS. */
	GO(ESTABLISHED, V6, RST, TRANS, TRANS),
	GO(ESTABLISHED, V4, RST, TRANS, TRANS),
	GO(ESTABLISHED, V6, RST | FIN, TRANS, TRANS),
	/* ESTABLISHED: any other packet: lifetime TCP_EST, unchanged. */
	GO(ESTABLISHED, V6, ANY, ESTABLISHED, EST),
	GO(ESTABLISHED, V4, ANY, ESTABLISHED, EST),
	GO(ESTABLISHED, V6, SYN, ESTABLISHED, EST),
	GO(ESTABLISHED, V4, SYN, ESTABLISHED, EST),
	GO(ESTABLISHED, V4, SYN | FIN, V4_FIN_RCV, KEEP),

	/* V4 FIN RCV: a V6 FIN: V4 FIN + V6 FIN RCV, lifetime TCP_TRANS. */
	GO(V4_FIN_RCV, V6, FIN, V4_FIN_V6_FIN_RCV, TRANS),
	/* V4 FIN RCV: any other packet: lifetime TCP_EST, unchanged. */
	GO(V4_FIN_RCV, V6, SYN, V4_FIN_RCV, EST),
	GO(V4_FIN_RCV, V6, RST, V4_FIN_RCV, EST),
	GO(V4_FIN_RCV, V6, ANY, V4_FIN_RCV, EST),
	GO(V4_FIN_RCV, V4, SYN, V4_FIN_RCV, EST),
	GO(V4_FIN_RCV, V4, FIN, V4_FIN_RCV, EST),
	GO(V4_FIN_RCV, V4, RST, V4_FIN_RCV, EST),
	GO(V4_FIN_RCV, V4, ANY, V4_FIN_RCV, EST),

	/* V6 FIN RCV: a V4 FIN: V4 FIN + V6 FIN RCV, lifetime TCP_TRANS. */
	GO(V6_FIN_RCV, V4, FIN, V4_FIN_V6_FIN_RCV, TRANS),
	/* V6 FIN RCV: any other packet: lifetime TCP_EST, unchanged. */
	GO(V6_FIN_RCV, V6, SYN, V6_FIN_RCV, EST),
	GO(V6_FIN_RCV, V6, FIN, V6_FIN_RCV, EST),
	GO(V6_FIN_RCV, V6, RST, V6_FIN_RCV, EST),
	GO(V6_FIN_RCV, V6, ANY, V6_FIN_RCV, EST),
	GO(V6_FIN_RCV, V4, SYN, V6_FIN_RCV, EST),
	GO(V6_FIN_RCV, V4, RST, V6_FIN_RCV, EST),
	GO(V6_FIN_RCV, V4, ANY, V6_FIN_RCV, EST),

	/* V4 FIN + V6 FIN RCV: all packets pass, the lifetime is not set. */
	GO(V4_FIN_V6_FIN_RCV, V6, SYN, V4_FIN_V6_FIN_RCV, KEEP),
	GO(V4_FIN_V6_FIN_RCV, V6, FIN, V4_FIN_V6_FIN_RCV, KEEP),
	GO(V4_FIN_V6_FIN_RCV, V6, RST, V4_FIN_V6_FIN_RCV, KEEP),
	GO(V4_FIN_V6_FIN_RCV, V6, ANY, V4_FIN_V6_FIN_RCV, KEEP),
	GO(V4_FIN_V6_FIN_RCV, V4, SYN, V4_FIN_V6_FIN_RCV, KEEP),
	GO(V4_FIN_V6_FIN_RCV, V4, FIN, V4_FIN_V6_FIN_RCV, KEEP),
	GO(V4_FIN_V6_FIN_RCV, V4, RST, V4_FIN_V6_FIN_RCV, KEEP),
	GO(V4_FIN_V6_FIN_RCV, V4, ANY, V4_FIN_V6_FIN_RCV, KEEP),

	/* TRANS: a packet other than a RST: ESTABLISHED, lifetime TCP_EST. */
	GO(TRANS, V6, SYN, ESTABLISHED, EST),
	GO(TRANS, V6, FIN, ESTABLISHED, EST),
	GO(TRANS, V6, ANY, ESTABLISHED, EST),
	GO(TRANS, V4, SYN, ESTABLISHED, EST),
	GO(TRANS, V4, FIN, ESTABLISHED, EST),
	GO(TRANS, V4, ANY, ESTABLISHED, EST),
	/* TRANS: a RST passes, state and lifetime unchanged. */
	GO(TRANS, V6, RST, TRANS, KEEP),
	GO(TRANS, V4, RST, TRANS, KEEP),
	GO(TRANS, V4, RST | SYN, TRANS, KEEP),

	/*
	 * Tern: V6 REBUILT (deterministic mode's failover). IPv6 segments
	 * pass and leave the lifetime (TCP_TRANS from the rebuild): a stray
	 * ACK does not get TCP_EST. A V6 SYN is a new handshake: V6 INIT.
	 */
	GO(V6_REBUILT, V6, SYN, V6_INIT, TRANS),
	GO(V6_REBUILT, V6, FIN, V6_REBUILT, KEEP),
	GO(V6_REBUILT, V6, RST, V6_REBUILT, KEEP),
	GO(V6_REBUILT, V6, ANY, V6_REBUILT, KEEP),
	/* V6 REBUILT: the IPv4 side answers: as from ESTABLISHED. */
	GO(V6_REBUILT, V4, SYN, ESTABLISHED, EST),
	GO(V6_REBUILT, V4, FIN, V4_FIN_RCV, KEEP),
	GO(V6_REBUILT, V4, RST, TRANS, TRANS),
	GO(V6_REBUILT, V4, ANY, ESTABLISHED, EST),
};

static const char *tcp_flags_name(u8 flags)
{
	static const char * const names[8] = {
		"ACK", "SYN", "FIN", "SYN+FIN", "RST", "SYN+RST", "FIN+RST",
		"SYN+FIN+RST",
	};

	return names[flags & 7];
}

static void tcp_row_desc(const struct tcp_row *r, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s + V%c %s",
		 tern_tcp_state_name(r->state), r->from6 ? '6' : '4',
		 tcp_flags_name(r->flags));
}

KUNIT_ARRAY_PARAM(tcp_rows, tcp_rows, tcp_row_desc);

static void tcp_rfc6146_row(struct kunit *test)
{
	const struct tcp_row *r = test->param_value;
	struct tern_tcp_step s = tern_tcp_next(r->state, r->from6, r->flags);

	KUNIT_EXPECT_EQ_MSG(test, s.ok, r->ok, "ok");
	KUNIT_EXPECT_STREQ_MSG(test, tern_tcp_state_name(s.state),
			       tern_tcp_state_name(r->next), "next state");
	KUNIT_EXPECT_EQ_MSG(test, s.timer, r->timer, "lifetime");
}

/* The table above has every state with every kind of packet, both ways. */
static void tcp_rows_complete(struct kunit *test)
{
	static const u8 kinds[] = { SYN, FIN, RST, ANY };
	unsigned int st, k, i, side;

	for (st = 0; st < __TERN_TCP_STATE_MAX; st++) {
		for (side = 0; side < 2; side++) {
			for (k = 0; k < ARRAY_SIZE(kinds); k++) {
				unsigned int n = 0;

				for (i = 0; i < ARRAY_SIZE(tcp_rows); i++)
					n += tcp_rows[i].state == st &&
					     tcp_rows[i].from6 == !side &&
					     tcp_rows[i].flags == kinds[k];
				KUNIT_EXPECT_EQ_MSG(test, n, 1, "%s + V%c %s",
						    tern_tcp_state_name(st),
						    side ? '4' : '6',
						    tcp_flags_name(kinds[k]));
			}
		}
	}
}

/* One packet of a connection: its side, its TCP flags, what it leads to. */
struct tcp_pkt {
	bool from6;
	u8 th_flags;		/* TCPHDR_* */
	u8 state;
	u8 timer;
};

#define PKT(six, f, s, t)	{ six, f, TERN_TCP_##s, TERN_TCPT_##t }

/* Runs @n packets through a session from CLOSED; all must pass. */
static void tcp_run(struct kunit *test, const struct tcp_pkt *p,
		    unsigned int n)
{
	u8 state = TERN_TCP_CLOSED;
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct tcphdr th = {};
		struct tern_tcp_step s;

		tcp_flag_byte(&th) = p[i].th_flags;
		s = tern_tcp_next(state, p[i].from6, tern_tcp_flags(&th));
		KUNIT_EXPECT_TRUE_MSG(test, s.ok, "packet %u", i);
		KUNIT_EXPECT_STREQ_MSG(test, tern_tcp_state_name(s.state),
				       tern_tcp_state_name(p[i].state),
				       "packet %u", i);
		KUNIT_EXPECT_EQ_MSG(test, s.timer, p[i].timer, "packet %u", i);
		state = s.state;
	}
}

#define TCP_RUN(test, pkts)	tcp_run(test, pkts, ARRAY_SIZE(pkts))

/* Opened from IPv6, closed by IPv6 first, then IPv4. */
static void tcp_open6_close6_first(struct kunit *test)
{
	static const struct tcp_pkt pkts[] = {
		PKT(V6, TCPHDR_SYN, V6_INIT, TRANS),
		PKT(V6, TCPHDR_SYN, V6_INIT, TRANS),	/* retransmitted */
		PKT(V4, TCPHDR_SYN | TCPHDR_ACK, ESTABLISHED, EST),
		PKT(V6, TCPHDR_ACK, ESTABLISHED, EST),
		PKT(V6, TCPHDR_ACK | TCPHDR_PSH, ESTABLISHED, EST),
		PKT(V4, TCPHDR_ACK, ESTABLISHED, EST),
		PKT(V6, TCPHDR_FIN | TCPHDR_ACK, V6_FIN_RCV, KEEP),
		PKT(V4, TCPHDR_ACK, V6_FIN_RCV, EST),
		PKT(V4, TCPHDR_ACK | TCPHDR_PSH, V6_FIN_RCV, EST),
		PKT(V4, TCPHDR_FIN | TCPHDR_ACK, V4_FIN_V6_FIN_RCV, TRANS),
		PKT(V6, TCPHDR_ACK, V4_FIN_V6_FIN_RCV, KEEP),
	};

	TCP_RUN(test, pkts);
}

/* Opened from IPv6, closed by IPv4 first (the usual server close). */
static void tcp_open6_close4_first(struct kunit *test)
{
	static const struct tcp_pkt pkts[] = {
		PKT(V6, TCPHDR_SYN, V6_INIT, TRANS),
		PKT(V4, TCPHDR_SYN | TCPHDR_ACK, ESTABLISHED, EST),
		PKT(V6, TCPHDR_ACK, ESTABLISHED, EST),
		PKT(V4, TCPHDR_FIN | TCPHDR_ACK, V4_FIN_RCV, KEEP),
		PKT(V6, TCPHDR_ACK, V4_FIN_RCV, EST),
		PKT(V4, TCPHDR_FIN | TCPHDR_ACK, V4_FIN_RCV, EST), /* again */
		PKT(V6, TCPHDR_FIN | TCPHDR_ACK, V4_FIN_V6_FIN_RCV, TRANS),
		PKT(V4, TCPHDR_ACK, V4_FIN_V6_FIN_RCV, KEEP),
	};

	TCP_RUN(test, pkts);
}

/* A RST: TRANS; a packet other than a RST brings it back. */
static void tcp_rst(struct kunit *test)
{
	static const struct tcp_pkt pkts[] = {
		PKT(V6, TCPHDR_SYN, V6_INIT, TRANS),
		PKT(V4, TCPHDR_SYN | TCPHDR_ACK, ESTABLISHED, EST),
		PKT(V6, TCPHDR_ACK, ESTABLISHED, EST),
		PKT(V4, TCPHDR_RST, TRANS, TRANS),
		PKT(V4, TCPHDR_RST | TCPHDR_ACK, TRANS, KEEP),
		PKT(V6, TCPHDR_ACK, ESTABLISHED, EST),	/* still alive */
		PKT(V6, TCPHDR_RST, TRANS, TRANS),
	};

	TCP_RUN(test, pkts);
	/* The lifetime runs out in TRANS: the session goes. */
	KUNIT_EXPECT_FALSE(test, tern_tcp_expire(TERN_TCP_TRANS).ok);
}

/* Simultaneous open, the IPv4 SYN first (3.5.2.2, V4 INIT). */
static void tcp_simultaneous_open(struct kunit *test)
{
	static const struct tcp_pkt pkts[] = {
		PKT(V4, TCPHDR_SYN, V4_INIT, SYN),
		PKT(V4, TCPHDR_SYN, V4_INIT, KEEP),	/* retransmitted */
		PKT(V6, TCPHDR_SYN, ESTABLISHED, EST),
		PKT(V4, TCPHDR_SYN | TCPHDR_ACK, ESTABLISHED, EST),
		PKT(V6, TCPHDR_SYN | TCPHDR_ACK, ESTABLISHED, EST),
		PKT(V6, TCPHDR_ACK, ESTABLISHED, EST),
	};

	TCP_RUN(test, pkts);
}

/* Lifetimes that run out (3.5.2.2, "If the lifetime expires"). */
static void tcp_expiry(struct kunit *test)
{
	struct tern_tcp_step s;
	u8 st;

	/* ESTABLISHED: probed (SHOULD), TRANS for TCP_TRANS. */
	s = tern_tcp_expire(TERN_TCP_ESTABLISHED);
	KUNIT_EXPECT_TRUE(test, s.ok);
	KUNIT_EXPECT_EQ(test, s.state, TERN_TCP_TRANS);
	KUNIT_EXPECT_EQ(test, s.timer, TERN_TCPT_TRANS);
	/* The probe's answer (an ACK from either side) revives it. */
	s = tern_tcp_next(s.state, V6, ANY);
	KUNIT_EXPECT_EQ(test, s.state, TERN_TCP_ESTABLISHED);
	KUNIT_EXPECT_EQ(test, s.timer, TERN_TCPT_EST);
	/* Every other state: the session is deleted, CLOSED. */
	for (st = 0; st < __TERN_TCP_STATE_MAX; st++) {
		if (st == TERN_TCP_ESTABLISHED)
			continue;
		s = tern_tcp_expire(st);
		KUNIT_EXPECT_FALSE_MSG(test, s.ok, "%s",
				       tern_tcp_state_name(st));
		KUNIT_EXPECT_EQ(test, s.state, TERN_TCP_CLOSED);
		KUNIT_EXPECT_EQ(test, s.timer, TERN_TCPT_KEEP);
	}
}

static void tcp_timeouts(struct kunit *test)
{
	struct tern_config cfg = {};

	/* The defaults: the least RFC 6146 allows, 2 h 4 min and 4 min. */
	tern_config_defaults(&cfg);
	KUNIT_EXPECT_EQ(test, tern_tcp_timeout(&cfg, TERN_TCPT_EST),
			7440UL * HZ);
	KUNIT_EXPECT_EQ(test, tern_tcp_timeout(&cfg, TERN_TCPT_TRANS),
			240UL * HZ);
	cfg.tcp_est_timeout = 86400 * 7;
	cfg.tcp_trans_timeout = 300;
	KUNIT_EXPECT_EQ(test, tern_tcp_timeout(&cfg, TERN_TCPT_EST),
			86400UL * 7 * HZ);
	KUNIT_EXPECT_EQ(test, tern_tcp_timeout(&cfg, TERN_TCPT_TRANS),
			300UL * HZ);
	/* TCP_INCOMING_SYN: 6 seconds whatever the settings. */
	KUNIT_EXPECT_EQ(test, tern_tcp_timeout(&cfg, TERN_TCPT_SYN), 6UL * HZ);
	KUNIT_EXPECT_EQ(test, tern_tcp_timeout(&cfg, TERN_TCPT_KEEP), 0UL);
	KUNIT_EXPECT_EQ(test, tern_tcp_timeout(&cfg, 200), 0UL);
}

/* The flags of a header: SYN, FIN and RST, whatever else is set. */
static void tcp_header_flags(struct kunit *test)
{
	unsigned int b;

	for (b = 0; b < 256; b++) {
		struct tcphdr th = {};
		u8 want = 0;

		tcp_flag_byte(&th) = b;
		th.doff = 5;
		if (b & TCPHDR_SYN)
			want |= SYN;
		if (b & TCPHDR_FIN)
			want |= FIN;
		if (b & TCPHDR_RST)
			want |= RST;
		KUNIT_EXPECT_EQ_MSG(test, tern_tcp_flags(&th), want,
				    "flag byte 0x%02x", b);
	}
}

/* A state out of range (a corrupt session) is not trusted. */
static void tcp_bad_state(struct kunit *test)
{
	unsigned int st, f;

	for (st = __TERN_TCP_STATE_MAX; st < 256; st++) {
		for (f = 0; f < 16; f++) {
			struct tern_tcp_step s = tern_tcp_next(st, f & 1, f >> 1);

			KUNIT_EXPECT_FALSE(test, s.ok);
			KUNIT_EXPECT_EQ(test, s.state, st);
			KUNIT_EXPECT_EQ(test, s.timer, TERN_TCPT_KEEP);
		}
		KUNIT_EXPECT_FALSE(test, tern_tcp_expire(st).ok);
	}
	KUNIT_EXPECT_STREQ(test, tern_tcp_state_name(__TERN_TCP_STATE_MAX), "?");
}

/*
 * tcp-rst-during-fin-rcv: on, a RST from either side in V4 FIN RCV or V6
 * FIN RCV keeps the state and gives TCP_TRANS, shortening; every other
 * step is the table's. Off, every step is the table's.
 */
static void tcp_rst_during_fin_rcv(struct kunit *test)
{
	struct tern_config cfg = {};
	unsigned int st, f, on, changed = 0;

	for (on = 0; on < 2; on++) {
		cfg.tcp_rst_fin_rcv = on;
		for (st = 0; st < __TERN_TCP_STATE_MAX; st++) {
			for (f = 0; f < 16; f++) {
				bool six = f & 1;
				u8 flags = f >> 1;
				struct tern_tcp_step s, t;

				s = tern_tcp_next_cfg(&cfg, st, six, flags);
				t = tern_tcp_next(st, six, flags);
				if (on && (flags & RST) &&
				    (st == TERN_TCP_V4_FIN_RCV ||
				     st == TERN_TCP_V6_FIN_RCV)) {
					t.state = st;
					t.timer = TERN_TCPT_TRANS;
					t.ok = true;
					t.shorten = true;
					changed++;
				}
				KUNIT_EXPECT_EQ_MSG(test, s.state, t.state,
						    "%s, from %s, flags %u, option %u",
						    tern_tcp_state_name(st),
						    six ? "IPv6" : "IPv4",
						    flags, on);
				KUNIT_EXPECT_EQ_MSG(test, s.timer, t.timer,
						    "%s, flags %u, option %u",
						    tern_tcp_state_name(st),
						    flags, on);
				KUNIT_EXPECT_EQ(test, s.ok, t.ok);
				KUNIT_EXPECT_EQ(test, s.shorten, t.shorten);
			}
		}
	}
	/* 2 states, 2 sides, 4 flag sets with RST. */
	KUNIT_EXPECT_EQ(test, changed, 16);
}

static struct kunit_case tern_nat64_tcp_cases[] = {
	KUNIT_CASE_PARAM(tcp_rfc6146_row, tcp_rows_gen_params),
	KUNIT_CASE(tcp_rows_complete),
	KUNIT_CASE(tcp_open6_close6_first),
	KUNIT_CASE(tcp_open6_close4_first),
	KUNIT_CASE(tcp_rst),
	KUNIT_CASE(tcp_simultaneous_open),
	KUNIT_CASE(tcp_expiry),
	KUNIT_CASE(tcp_timeouts),
	KUNIT_CASE(tcp_header_flags),
	KUNIT_CASE(tcp_bad_state),
	KUNIT_CASE(tcp_rst_during_fin_rcv),
	{}
};

static struct kunit_suite tern_nat64_tcp_suite = {
	.name = "tern_nat64_tcp",
	.test_cases = tern_nat64_tcp_cases,
};

kunit_test_suite(tern_nat64_tcp_suite);

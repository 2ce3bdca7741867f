// SPDX-License-Identifier: GPL-2.0
/*
 * The TCP state machine of NAT64 sessions, RFC 6146 3.5.2.2, as one table:
 * a row per (state, packet). A packet is an event of one side (IPv6 or
 * IPv4) and one kind: RST, else FIN, else SYN, else any other segment.
 */

#include <linux/build_bug.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/tcp.h>
#include "tern_genl.h"
#include "core/instance.h"
#include "nat64/tcp.h"

/* Events: the packet's side, then its kind. */
enum tern_tcp_event {
	TERN_TCPE_V6_SYN,
	TERN_TCPE_V6_FIN,
	TERN_TCPE_V6_RST,
	TERN_TCPE_V6_OTHER,
	TERN_TCPE_V4_SYN,
	TERN_TCPE_V4_FIN,
	TERN_TCPE_V4_RST,
	TERN_TCPE_V4_OTHER,
	TERN_TCPE_N
};

/* The IPv4 event of a kind is its IPv6 event plus this. */
#define TERN_TCPE_V4	(TERN_TCPE_V4_SYN - TERN_TCPE_V6_SYN)

#define GO(s, t)	{ .state = TERN_TCP_##s, .timer = TERN_TCPT_##t, .ok = true }
#define NO		{ .state = TERN_TCP_CLOSED, .timer = TERN_TCPT_KEEP, .ok = false }

/*
 * Lifetimes: TCP_TRANS is tcp-trans-timeout, TCP_EST tcp-est-timeout,
 * TCP_INCOMING_SYN 6 s. "Lifetime set to at least X" is X here.
 */
static const struct tern_tcp_step tern_tcp_table[__TERN_TCP_STATE_MAX][TERN_TCPE_N] = {
	/* No session: only a SYN opens one. */
	[TERN_TCP_CLOSED] = {
		/* IPv6 SYN: session made, V6 INIT, lifetime TCP_TRANS. */
		[TERN_TCPE_V6_SYN]	= GO(V6_INIT, TRANS),
		[TERN_TCPE_V6_FIN]	= NO,
		[TERN_TCPE_V6_RST]	= NO,
		[TERN_TCPE_V6_OTHER]	= NO,
		/* IPv4 SYN: V4 INIT, lifetime TCP_INCOMING_SYN. */
		[TERN_TCPE_V4_SYN]	= GO(V4_INIT, SYN),
		[TERN_TCPE_V4_FIN]	= NO,
		[TERN_TCPE_V4_RST]	= NO,
		[TERN_TCPE_V4_OTHER]	= NO,
	},
	/* An IPv4 SYN went through; waiting for the IPv6 SYN. */
	[TERN_TCP_V4_INIT] = {
		/* IPv6 SYN: ESTABLISHED, lifetime TCP_EST. */
		[TERN_TCPE_V6_SYN]	= GO(ESTABLISHED, EST),
		/* Anything else: translated, state and lifetime unchanged. */
		[TERN_TCPE_V6_FIN]	= GO(V4_INIT, KEEP),
		[TERN_TCPE_V6_RST]	= GO(V4_INIT, KEEP),
		[TERN_TCPE_V6_OTHER]	= GO(V4_INIT, KEEP),
		[TERN_TCPE_V4_SYN]	= GO(V4_INIT, KEEP),
		[TERN_TCPE_V4_FIN]	= GO(V4_INIT, KEEP),
		[TERN_TCPE_V4_RST]	= GO(V4_INIT, KEEP),
		[TERN_TCPE_V4_OTHER]	= GO(V4_INIT, KEEP),
	},
	/* An IPv6 SYN went through; waiting for the IPv4 SYN. */
	[TERN_TCP_V6_INIT] = {
		/* IPv6 SYN again: lifetime TCP_TRANS again, still V6 INIT. */
		[TERN_TCPE_V6_SYN]	= GO(V6_INIT, TRANS),
		/* Other packets: translated, state and lifetime unchanged. */
		[TERN_TCPE_V6_FIN]	= GO(V6_INIT, KEEP),
		[TERN_TCPE_V6_RST]	= GO(V6_INIT, KEEP),
		[TERN_TCPE_V6_OTHER]	= GO(V6_INIT, KEEP),
		/* IPv4 SYN (with or without ACK): ESTABLISHED, TCP_EST. */
		[TERN_TCPE_V4_SYN]	= GO(ESTABLISHED, EST),
		[TERN_TCPE_V4_FIN]	= GO(V6_INIT, KEEP),
		[TERN_TCPE_V4_RST]	= GO(V6_INIT, KEEP),
		[TERN_TCPE_V4_OTHER]	= GO(V6_INIT, KEEP),
	},
	[TERN_TCP_ESTABLISHED] = {
		/* Other than FIN or RST: lifetime TCP_EST, ESTABLISHED. */
		[TERN_TCPE_V6_SYN]	= GO(ESTABLISHED, EST),
		/* A FIN: V6 (V4) FIN RCV; the lifetime is not touched. */
		[TERN_TCPE_V6_FIN]	= GO(V6_FIN_RCV, KEEP),
		/* A RST from either side: TRANS, lifetime TCP_TRANS. */
		[TERN_TCPE_V6_RST]	= GO(TRANS, TRANS),
		[TERN_TCPE_V6_OTHER]	= GO(ESTABLISHED, EST),
		[TERN_TCPE_V4_SYN]	= GO(ESTABLISHED, EST),
		[TERN_TCPE_V4_FIN]	= GO(V4_FIN_RCV, KEEP),
		[TERN_TCPE_V4_RST]	= GO(TRANS, TRANS),
		[TERN_TCPE_V4_OTHER]	= GO(ESTABLISHED, EST),
	},
	/* The IPv4 side closed; data still flows from the IPv6 side. */
	[TERN_TCP_V4_FIN_RCV] = {
		/* Any packet but the IPv6 FIN: lifetime TCP_EST, unchanged. */
		[TERN_TCPE_V6_SYN]	= GO(V4_FIN_RCV, EST),
		/* The IPv6 FIN: V4 FIN + V6 FIN RCV, lifetime TCP_TRANS. */
		[TERN_TCPE_V6_FIN]	= GO(V4_FIN_V6_FIN_RCV, TRANS),
		[TERN_TCPE_V6_RST]	= GO(V4_FIN_RCV, EST),
		[TERN_TCPE_V6_OTHER]	= GO(V4_FIN_RCV, EST),
		[TERN_TCPE_V4_SYN]	= GO(V4_FIN_RCV, EST),
		[TERN_TCPE_V4_FIN]	= GO(V4_FIN_RCV, EST),
		[TERN_TCPE_V4_RST]	= GO(V4_FIN_RCV, EST),
		[TERN_TCPE_V4_OTHER]	= GO(V4_FIN_RCV, EST),
	},
	/* The IPv6 side closed; data still flows from the IPv4 side. */
	[TERN_TCP_V6_FIN_RCV] = {
		/* Any packet but the IPv4 FIN: lifetime TCP_EST, unchanged. */
		[TERN_TCPE_V6_SYN]	= GO(V6_FIN_RCV, EST),
		[TERN_TCPE_V6_FIN]	= GO(V6_FIN_RCV, EST),
		[TERN_TCPE_V6_RST]	= GO(V6_FIN_RCV, EST),
		[TERN_TCPE_V6_OTHER]	= GO(V6_FIN_RCV, EST),
		[TERN_TCPE_V4_SYN]	= GO(V6_FIN_RCV, EST),
		/* The IPv4 FIN: V4 FIN + V6 FIN RCV, lifetime TCP_TRANS. */
		[TERN_TCPE_V4_FIN]	= GO(V4_FIN_V6_FIN_RCV, TRANS),
		[TERN_TCPE_V4_RST]	= GO(V6_FIN_RCV, EST),
		[TERN_TCPE_V4_OTHER]	= GO(V6_FIN_RCV, EST),
	},
	/* Both sides closed: packets pass, only the lifetime ends it. */
	[TERN_TCP_V4_FIN_V6_FIN_RCV] = {
		[TERN_TCPE_V6_SYN]	= GO(V4_FIN_V6_FIN_RCV, KEEP),
		[TERN_TCPE_V6_FIN]	= GO(V4_FIN_V6_FIN_RCV, KEEP),
		[TERN_TCPE_V6_RST]	= GO(V4_FIN_V6_FIN_RCV, KEEP),
		[TERN_TCPE_V6_OTHER]	= GO(V4_FIN_V6_FIN_RCV, KEEP),
		[TERN_TCPE_V4_SYN]	= GO(V4_FIN_V6_FIN_RCV, KEEP),
		[TERN_TCPE_V4_FIN]	= GO(V4_FIN_V6_FIN_RCV, KEEP),
		[TERN_TCPE_V4_RST]	= GO(V4_FIN_V6_FIN_RCV, KEEP),
		[TERN_TCPE_V4_OTHER]	= GO(V4_FIN_V6_FIN_RCV, KEEP),
	},
	/* After a RST or an idle ESTABLISHED: alive again on any non-RST. */
	[TERN_TCP_TRANS] = {
		/* Not a RST: ESTABLISHED, lifetime TCP_EST. */
		[TERN_TCPE_V6_SYN]	= GO(ESTABLISHED, EST),
		[TERN_TCPE_V6_FIN]	= GO(ESTABLISHED, EST),
		/* A RST: translated, state and lifetime unchanged. */
		[TERN_TCPE_V6_RST]	= GO(TRANS, KEEP),
		[TERN_TCPE_V6_OTHER]	= GO(ESTABLISHED, EST),
		[TERN_TCPE_V4_SYN]	= GO(ESTABLISHED, EST),
		[TERN_TCPE_V4_FIN]	= GO(ESTABLISHED, EST),
		[TERN_TCPE_V4_RST]	= GO(TRANS, KEEP),
		[TERN_TCPE_V4_OTHER]	= GO(ESTABLISHED, EST),
	},
	/*
	 * Tern, not RFC 6146: made (lifetime TCP_TRANS) by an IPv6 segment
	 * other than a SYN of a flow another box had (deterministic mode,
	 * tcp-nosyn-with-bib; nat64/mode.c). The IPv6 side alone proves
	 * nothing: its segments pass and leave the lifetime; the IPv4 side
	 * answering shows the connection alive: ESTABLISHED.
	 */
	[TERN_TCP_V6_REBUILT] = {
		/* A new handshake on the same addresses: as from CLOSED. */
		[TERN_TCPE_V6_SYN]	= GO(V6_INIT, TRANS),
		[TERN_TCPE_V6_FIN]	= GO(V6_REBUILT, KEEP),
		[TERN_TCPE_V6_RST]	= GO(V6_REBUILT, KEEP),
		[TERN_TCPE_V6_OTHER]	= GO(V6_REBUILT, KEEP),
		/* An answer: as in ESTABLISHED (a SYN: the SYN+ACK). */
		[TERN_TCPE_V4_SYN]	= GO(ESTABLISHED, EST),
		[TERN_TCPE_V4_FIN]	= GO(V4_FIN_RCV, KEEP),
		[TERN_TCPE_V4_RST]	= GO(TRANS, TRANS),
		[TERN_TCPE_V4_OTHER]	= GO(ESTABLISHED, EST),
	},
};

static unsigned int tern_tcp_event(bool from6, u8 flags)
{
	unsigned int e;

	if (flags & TERN_TCPF_RST)
		e = TERN_TCPE_V6_RST;
	else if (flags & TERN_TCPF_FIN)
		e = TERN_TCPE_V6_FIN;
	else if (flags & TERN_TCPF_SYN)
		e = TERN_TCPE_V6_SYN;
	else
		e = TERN_TCPE_V6_OTHER;
	return from6 ? e : e + TERN_TCPE_V4;
}

struct tern_tcp_step tern_tcp_next(u8 state, bool from6, u8 flags)
{
	struct tern_tcp_step step = { .state = state,
				      .timer = TERN_TCPT_KEEP };

	BUILD_BUG_ON(TERN_TCPE_V4_OTHER - TERN_TCPE_V6_OTHER != TERN_TCPE_V4);
	BUILD_BUG_ON(__TERN_TCP_STATE_MAX > U8_MAX);
	if (state >= __TERN_TCP_STATE_MAX)
		return step;
	step = tern_tcp_table[state][tern_tcp_event(from6, flags)];
	if (!step.ok)
		step.state = state;
	return step;
}

struct tern_tcp_step tern_tcp_next_cfg(const struct tern_config *cfg,
				       u8 state, bool from6, u8 flags)
{
	struct tern_tcp_step step = { .state = state,
				      .timer = TERN_TCPT_TRANS, .ok = true,
				      .shorten = true };

	/*
	 * A RST after a FIN: RFC 6146 keeps the session (and its port) for
	 * TCP_EST, 2 h 4 min by default.
	 */
	if ((flags & TERN_TCPF_RST) && cfg->tcp_rst_fin_rcv &&
	    (state == TERN_TCP_V4_FIN_RCV || state == TERN_TCP_V6_FIN_RCV))
		return step;
	return tern_tcp_next(state, from6, flags);
}

struct tern_tcp_step tern_tcp_expire(u8 state)
{
	struct tern_tcp_step step = { .state = TERN_TCP_CLOSED,
				      .timer = TERN_TCPT_KEEP };

	/* An idle ESTABLISHED session is probed and lives TCP_TRANS more. */
	if (state == TERN_TCP_ESTABLISHED) {
		step.state = TERN_TCP_TRANS;
		step.timer = TERN_TCPT_TRANS;
		step.ok = true;
	}
	return step;
}

u8 tern_tcp_entry_timer(u8 state)
{
	unsigned int from, e;

	for (from = 0; from < __TERN_TCP_STATE_MAX; from++) {
		if (from == state)
			continue;
		for (e = 0; e < TERN_TCPE_N; e++)
			if (tern_tcp_table[from][e].ok &&
			    tern_tcp_table[from][e].state == state)
				return tern_tcp_table[from][e].timer;
	}
	return TERN_TCPT_KEEP;
}

u8 tern_tcp_flags(const struct tcphdr *th)
{
	return (th->syn ? TERN_TCPF_SYN : 0) | (th->fin ? TERN_TCPF_FIN : 0) |
	       (th->rst ? TERN_TCPF_RST : 0);
}

/* The settings are bounded by netlink (a week at most): no overflow. */
unsigned long tern_tcp_timeout(const struct tern_config *cfg, u8 timer)
{
	switch (timer) {
	case TERN_TCPT_EST:
		return (unsigned long)cfg->tcp_est_timeout * HZ;
	case TERN_TCPT_TRANS:
		return (unsigned long)cfg->tcp_trans_timeout * HZ;
	case TERN_TCPT_SYN:
		return (unsigned long)TERN_TCP_INCOMING_SYN * HZ;
	}
	return 0;
}

const char *tern_tcp_state_name(u8 state)
{
	static const char * const names[__TERN_TCP_STATE_MAX] = {
		[TERN_TCP_CLOSED] = "CLOSED",
		[TERN_TCP_V4_INIT] = "V4 INIT",
		[TERN_TCP_V6_INIT] = "V6 INIT",
		[TERN_TCP_ESTABLISHED] = "ESTABLISHED",
		[TERN_TCP_V4_FIN_RCV] = "V4 FIN RCV",
		[TERN_TCP_V6_FIN_RCV] = "V6 FIN RCV",
		[TERN_TCP_V4_FIN_V6_FIN_RCV] = "V4 FIN + V6 FIN RCV",
		[TERN_TCP_TRANS] = "TRANS",
		[TERN_TCP_V6_REBUILT] = "V6 REBUILT",
	};

	return state < ARRAY_SIZE(names) && names[state] ? names[state] : "?";
}

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_TCP_H
#define _TERN_NAT64_TCP_H

/*
 * The TCP state machine of a NAT64 session (RFC 6146 3.5.2): which state a
 * packet moves a session to, and which lifetime it gives the session. A
 * pure function over a table (nat64/tcp.c) and the instance's settings:
 * no session, no lock, no I/O.
 * The caller owns the session: it looks it up, creates it when the step
 * out of CLOSED allows, stores the new state and the expiry
 * (tern_tcp_timeout()) as one step (nat64/tcp_sess.c), and deletes it
 * when it expires.
 */

#include <linux/bits.h>
#include <linux/types.h>

struct tcphdr;
struct tern_config;

/* What a packet carries, for the state machine (tern_tcp_flags()). */
#define TERN_TCPF_SYN	BIT(0)
#define TERN_TCPF_FIN	BIT(1)
#define TERN_TCPF_RST	BIT(2)

/* The lifetime a step gives the session (tern_tcp_timeout()). */
enum tern_tcp_timer {
	TERN_TCPT_KEEP,		/* the expiry does not change */
	TERN_TCPT_EST,		/* tcp-est-timeout: established */
	TERN_TCPT_TRANS,	/* tcp-trans-timeout: transitory */
	TERN_TCPT_SYN,		/* TCP_INCOMING_SYN: an IPv4 SYN waiting */
};

/* TCP_INCOMING_SYN of RFC 6146 3.5.2.2, in seconds (not configurable). */
#define TERN_TCP_INCOMING_SYN	6

struct tern_tcp_step {
	u8 state;		/* enum tern_tcp_state, after the packet */
	u8 timer;		/* enum tern_tcp_timer */
	/*
	 * false (only from CLOSED: a packet other than a SYN): the packet
	 * opens no session; nothing changes (@state is the state given,
	 * @timer TERN_TCPT_KEEP). The caller drops it; 3.5.2.2 lets it
	 * through without a session only when the TCP BIB has an entry for
	 * it and the filtering policy allows.
	 */
	bool ok;
	/*
	 * The lifetime @timer gives is set even if it is shorter than the
	 * one left (otherwise a step that keeps the state only lengthens it).
	 */
	bool shorten;
};

/*
 * The step of a session in @state (enum tern_tcp_state; TERN_TCP_CLOSED:
 * no session yet) for a packet that came in from the IPv6 side (@from6)
 * or the IPv4 side, with @flags (TERN_TCPF_*). RST outranks FIN, FIN
 * outranks SYN: a segment with both SYN and FIN is a FIN.
 *
 * From CLOSED, ok means the packet may open a session: V6 INIT for an
 * IPv6 SYN, V4 INIT for an IPv4 SYN. Whether it may be made (pool4, the
 * BIB, limits, filtering; 3.5.2.2 stores an IPv4 SYN without a BIB entry
 * instead) is the caller's decision.
 */
struct tern_tcp_step tern_tcp_next(u8 state, bool from6, u8 flags);

/*
 * tern_tcp_next() for a session of an instance with @cfg. With
 * tcp-rst-during-fin-rcv (off by default), a RST from either side in V4
 * FIN RCV or V6 FIN RCV gives the session TCP_TRANS (@shorten), where
 * RFC 6146 gives TCP_EST; the state stays, so that a later packet is
 * stepped as RFC 6146 says (another segment: TCP_EST again; the other
 * side's FIN: V4 FIN + V6 FIN RCV).
 */
struct tern_tcp_step tern_tcp_next_cfg(const struct tern_config *cfg,
				       u8 state, bool from6, u8 flags);

/*
 * The step of a session in @state whose lifetime ran out: ok with state
 * TRANS and TERN_TCPT_TRANS for ESTABLISHED (the session lives on and
 * the caller SHOULD send the probe of 3.5.2.2 to an endpoint); otherwise
 * not ok, state CLOSED: the session is deleted (from V4 INIT, the caller
 * first sends the stored IPv4 SYN back in an ICMP Port Unreachable).
 */
struct tern_tcp_step tern_tcp_expire(u8 state);

/*
 * The lifetime a session gets when a packet moves it into @state from
 * another state (TERN_TCPT_KEEP: it keeps the one it had; the expiry step
 * into TRANS gives TRANS's). The same whatever the state and packet it
 * comes from (a KUnit case checks the table for it).
 */
u8 tern_tcp_entry_timer(u8 state);

/* TERN_TCPF_* of a TCP header. */
u8 tern_tcp_flags(const struct tcphdr *th);

/* Jiffies of @timer under @cfg; 0 for TERN_TCPT_KEEP (leave it as is). */
unsigned long tern_tcp_timeout(const struct tern_config *cfg, u8 timer);

/* The name of @state, for logs and test messages ("V4 FIN RCV", ...). */
const char *tern_tcp_state_name(u8 state);

#endif /* _TERN_NAT64_TCP_H */

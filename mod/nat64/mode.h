/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_MODE_H
#define _TERN_NAT64_MODE_H

/*
 * The NAT64 mode's helpers shared by its IPv6 side (nat64/mode.c) and
 * its IPv4 side (nat64/mode4.c). The ops the driver calls are declared
 * in xlat/mode.h.
 */

#include <linux/types.h>
#include "xlat/mode.h"

struct sk_buff;
struct tern_config;
struct tern_session;

/* TERN_TCPF_* of a TCP header's flags byte (its 14th). */
u8 tern_tcp_flags_of(u8 b);

/* How long a session of @l4 lives idle (TCP: by its state machine). */
unsigned long tern_nat64_timeout(const struct tern_config *cfg, u8 l4);

/* The ICMP error RFC 6146 names for a refusal (sent by the driver). */
void tern_nat64_error(struct tern_xlat *x, u8 type, u8 code);

/* A refusal of the tables, as the counter of its cause. */
int tern_nat64_add_err(long err);

/*
 * Did the new session @s join a dynamic BIB entry whose address pool4 has
 * lost? Then it is undone (true): the flush of such entries after a pool4
 * removal may have passed its bucket already (nl/pool4.c).
 */
bool tern_nat64_pool4_lost(struct tern_xlat *x, struct tern_session *s);

/*
 * A TCP segment through session @s (from the IPv6 side if @from6): the
 * state machine of RFC 6146 3.5.2.2 moves it on (nat64/tcp_sess.c).
 * Returns 0 or why the segment is dropped.
 */
int tern_nat64_tcp(struct tern_xlat *x, struct tern_session *s, bool from6);

/*
 * RFC 6146 3.5.2.2, CLOSED: a TCP segment other than a SYN opens no
 * session. With tcp-nosyn-with-bib, the caller translates it through the
 * BIB entry of its flow if there is one, and the state stays CLOSED.
 */
bool tern_nat64_nosyn_bib(const struct tern_xlat *x, int l4, bool from6);

/* An IPv4 SYN kept for a simultaneous open (the mode's ->keep4()). */
int tern_nat64_keep4(struct tern_xlat *x, struct sk_buff *skb);

#endif /* _TERN_NAT64_MODE_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_TCP_SESS_H
#define _TERN_NAT64_TCP_SESS_H

/*
 * A TCP segment through a NAT64 session: the step of RFC 6146 3.5.2.2
 * (nat64/tcp.c) made on the session in the tables (nat64/table.h).
 */

#include <linux/types.h>

struct tern_config;
struct tern_session;
struct tern_tables;

/*
 * A segment with @flags (TERN_TCPF_*) from the IPv6 side (@from6) or the
 * IPv4 side through session @s of @t, as a lookup found it; lifetimes from
 * @cfg. A state change is atomic: it is made from the state actually
 * there, so two segments on two CPUs (a FIN from each side) each step
 * from the other's result. A session whose lifetime ran out steps from
 * the state the expiry rule gives it (TRANS from ESTABLISHED), as if the
 * worker had run first. Without a state change, at most a store of the
 * expiry (no lock, no atomic). Returns false if the segment is dropped:
 * the session's lifetime ran out and the rule removes it (it expired
 * since the lookup). Under rcu_read_lock(), BHs off.
 */
bool tern_tcp_sess_step(struct tern_tables *t, const struct tern_config *cfg,
			struct tern_session *s, bool from6, u8 flags);

#endif /* _TERN_NAT64_TCP_SESS_H */

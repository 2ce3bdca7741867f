/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_PROBE_H
#define _TERN_NAT64_PROBE_H

/*
 * An established TCP session whose lifetime ran out (RFC 6146 3.5.2.2):
 * it moves to TRANS for tcp-trans-timeout and its IPv6 end gets a probe,
 * a TCP segment without data, sequence and acknowledgment numbers 0, only
 * ACK set, from the IPv4 peer (its pool6 address and port). An end host
 * answers such an out-of-window ACK with an ACK, which comes back through
 * the session and makes it ESTABLISHED again; a host that is gone does
 * not, and the session is removed when TRANS runs out.
 *
 * The expiry worker of the tables calls these through struct
 * tern_table_events (@arg: the instance); at most one probe per expiry.
 */

#include <linux/in6.h>
#include <linux/skbuff.h>
#include "nat64/table.h"

struct net;

/* ->tcp_expire(): ESTABLISHED is kept in TRANS, every other state goes. */
bool tern_probe_tcp_expire(void *arg, u8 *state, unsigned long *timeout);
/*
 * ->tcp_kept(): sends the probe of @s, if it is still in the tables and
 * in TRANS, out of the instance's namespace; counted in tcp-probes.
 */
void tern_probe_tcp_kept(void *arg, const struct tern_session *s);

/*
 * The probe (an IPv6 packet, hop limit @hlim, with its TCP checksum) from
 * @saddr port @sport to @daddr port @dport; NULL without memory.
 */
struct sk_buff *tern_probe_build(const struct in6_addr *saddr, __be16 sport,
				 const struct in6_addr *daddr, __be16 dport,
				 u8 hlim);
/*
 * Routes @skb (from tern_probe_build()) in @net and sends it as a
 * forwarded packet (POST_ROUTING); consumes it. -EHOSTUNREACH without a
 * route, or with one to this host.
 */
int tern_probe_send(struct net *net, struct sk_buff *skb);

#endif /* _TERN_NAT64_PROBE_H */

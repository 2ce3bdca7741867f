// SPDX-License-Identifier: GPL-2.0
/*
 * The NAT64 mode (RFC 6146): what the driver asks of it for each packet.
 * The IPv4 peer is the address pool6 embeds (RFC 6052); the IPv6 host gets
 * a transport address of pool4, bound in the BIB. A packet of a known
 * session costs two lookups under RCU and at most one store (its expiry);
 * only the first packet of a flow locks buckets and allocates. Here: the
 * helpers of both sides (nat64/mode.h), the IPv6 side and the ops; the
 * IPv4 side is in nat64/mode4.c.
 */

#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <net/ipv6.h>
#include "core/stats.h"
#include "nat64/blocks.h"
#include "nat64/det.h"
#include "nat64/nat64.h"
#include "nat64/mode.h"
#include "nat64/mode_err.h"
#include "nat64/pool4.h"
#include "nat64/tcp.h"
#include "nat64/tcp_sess.h"
#include "siit/mapping.h"
#include "xlat/mode.h"

/* TERN_TCPF_* of a TCP header's flags byte (its 14th). */
u8 tern_tcp_flags_of(u8 b)
{
	return (b & 0x02 ? TERN_TCPF_SYN : 0) | (b & 0x01 ? TERN_TCPF_FIN : 0) |
	       (b & 0x04 ? TERN_TCPF_RST : 0);
}

/* How long a session of @l4 lives idle (TCP: by its state machine). */
unsigned long tern_nat64_timeout(const struct tern_config *cfg, u8 l4)
{
	return (l4 == TERN_L4_UDP ? cfg->udp_timeout : cfg->icmp_timeout) *
	       (unsigned long)HZ;
}

/* The ICMP error RFC 6146 names for a refusal (sent by the driver). */
void tern_nat64_error(struct tern_xlat *x, u8 type, u8 code)
{
	x->err = true;
	x->err_type = type;
	x->err_code = code;
}

bool tern_nat64_pool4_lost(struct tern_xlat *x, struct tern_session *s)
{
	if (likely(tern_pool4_holds(x->cfg->pool4, s->bib)))
		return false;
	tern_sess_forget(x->inst->nat64->tables, s);
	return true;
}

/* A refusal of the tables, as the counter of its cause. */
int tern_nat64_add_err(long err)
{
	switch (err) {
	case -ENOSPC:
		return TERN_STAT_DROP_MAX_SESSIONS;
	case -EDQUOT:
		return TERN_STAT_DROP_SUB_SESSIONS;
	case -EUSERS:
		return TERN_STAT_DROP_SUB_PORTS;
	case -EADDRINUSE:
		return TERN_STAT_DROP_POOL4_FULL;
	case -EMLINK:
		return TERN_STAT_DROP_BIB_SESS4;
	case -ENOENT:	/* the BIB entry went meanwhile */
		return TERN_STAT_DROP_NO_SESSION;
	case -EAGAIN:
		return TERN_STAT_DROP_CONTENDED;
	}
	return TERN_STAT_DROP_NOMEM;
}

/*
 * A TCP segment through session @s (from the IPv6 side if @from6): the
 * state machine of RFC 6146 3.5.2.2 moves it on (nat64/tcp_sess.c).
 * Returns 0 or why the segment is dropped.
 */
int tern_nat64_tcp(struct tern_xlat *x, struct tern_session *s, bool from6)
{
	if (!tern_tcp_sess_step(x->inst->nat64->tables, x->cfg, s, from6,
				tern_tcp_flags_of(x->id.tcp_flags)))
		return TERN_STAT_DROP_TCP_NOSYN;
	return 0;
}

/*
 * RFC 6146 3.5.2.2, CLOSED: a TCP segment other than a SYN opens no
 * session. With tcp-nosyn-with-bib, the caller translates it through the
 * BIB entry of its flow if there is one, and the state stays CLOSED.
 */
bool tern_nat64_nosyn_bib(const struct tern_xlat *x, int l4, bool from6)
{
	return l4 == TERN_L4_TCP && x->cfg->tcp_nosyn_bib &&
	       !tern_tcp_next(TERN_TCP_CLOSED, from6,
			      tern_tcp_flags_of(x->id.tcp_flags)).ok;
}

int tern_nat64_dest6(struct tern_xlat *x, const struct in6_addr *daddr)
{
	const struct tern_config *cfg = x->cfg;

	if (!cfg->pool6_set ||
	    !tern_rfc6052_6to4(&cfg->pool6, daddr, &x->a4[1]))
		return TERN_STAT_PASS_NO_MAPPING;
	x->dvia = TERN_VIA_POOL6;
	return 0;
}

/*
 * Deterministic mode with tcp-nosyn-with-bib: a TCP segment from IPv6
 * that is not a SYN and has no session and no BIB entry is of a flow
 * another box with the same configuration had (failover): its session is
 * rebuilt, on the BIB entry the deterministic pick gives (the port the
 * other box picked, barring a collision), in V6 REBUILT with lifetime
 * TCP_TRANS (nat64/tcp.c: ESTABLISHED once the IPv4 side answers).
 */
static bool tern_nat64_rebuilds(const struct tern_config *cfg)
{
	return cfg->det_space_set && cfg->tcp_nosyn_bib;
}

/* A new session from the IPv6 side (RFC 6146 3.5.1.1, 3.5.2.2, 3.5.3). */
static struct tern_session *tern_nat64_new6(struct tern_xlat *x, u8 l4,
					    const struct tern_ta6 *src,
					    const struct tern_ta4 *remote,
					    int *why)
{
	struct tern_instance *inst = x->inst;
	const struct tern_pool4 *pool = x->cfg->pool4;
	struct tern_pick pick = {
		.pool = pool,
		.key = &inst->nat64->port_key,
		.mark = x->mark,
		.l4 = l4,
		.boxes = x->cfg->box_count,
		.box = x->cfg->box_index,
		/* As the tables charge subscribers (tern_nat64_limits()). */
		.tables = inst->nat64->tables,
		.sub_plen = min_t(u8, x->cfg->sub_prefix_len, 128),
	};
	struct tern_det_pick det;
	struct tern_blk_pick blk = {};
	struct tern_blk_drain drain;
	struct tern_limits lim;
	struct tern_session *s;
	struct tern_tcp_step st = { 0 };
	unsigned long timeout;
	tern_pick4_fn fn = tern_pick4;
	void *arg = &pick;
	bool rebuilt = false, made;

	if (l4 == TERN_L4_TCP) {
		st = tern_tcp_next(TERN_TCP_CLOSED, true,
				   tern_tcp_flags_of(x->id.tcp_flags));
		if (!st.ok && tern_nat64_rebuilds(x->cfg)) {
			st.state = TERN_TCP_V6_REBUILT;
			st.timer = TERN_TCPT_TRANS;
			rebuilt = true;
		} else if (!st.ok) {
			*why = TERN_STAT_DROP_TCP_NOSYN;
			return NULL;
		}
		timeout = tern_tcp_timeout(x->cfg, st.timer);
	} else {
		timeout = tern_nat64_timeout(x->cfg, l4);
	}
	if (!pool) {
		*why = TERN_STAT_DROP_NO_POOL4;
		tern_nat64_error(x, ICMPV6_DEST_UNREACH, ICMPV6_ADDR_UNREACH);
		return NULL;
	}
	/* Deterministic mode (RFC 7422): the subscriber's block only. */
	if (x->cfg->det_space_set) {
		*why = tern_det_prepare(&det, x->cfg, pool, l4, src);
		if (*why) {
			tern_nat64_error(x, ICMPV6_DEST_UNREACH,
					 ICMPV6_ADDR_UNREACH);
			return NULL;
		}
		fn = tern_det_pick4;
		arg = &det;
	} else if (x->cfg->port_block) {
		/* Port blocks: ports of the subscriber's blocks only. */
		tern_blk_pick_init(&blk, inst->nat64->blocks, pool,
				   &inst->nat64->port_key, x->cfg->port_block,
				   x->cfg->max_ports_per_sub,
				   x->cfg->sub_prefix_len, l4, x->mark);
		fn = tern_blk_pick4;
		arg = &blk;
	} else if (tern_blocks_count(inst->nat64->blocks)) {
		/* Blocks off, some still given: none of their ports. */
		drain = (struct tern_blk_drain){ inst->nat64->blocks, &pick };
		fn = tern_blk_drain_pick4;
		arg = &drain;
	}
	tern_nat64_limits(inst, x->cfg, &lim);
	s = tern_sess_add6(inst->nat64->tables, l4, src, remote, &lim,
			   fn, arg, st.state, timeout, &made);
	if (fn == tern_blk_pick4)
		tern_blk_pick_end(&blk);
	if (IS_ERR(s)) {
		*why = tern_nat64_add_err(PTR_ERR(s));
		if (PTR_ERR(s) == -EADDRINUSE && fn == tern_blk_pick4 &&
		    blk.why)
			*why = blk.why;
		/* No port found: pool4 full, or none for @l4 and the mark. */
		if (*why == TERN_STAT_DROP_POOL4_FULL && x->cfg->det_space_set)
			*why = TERN_STAT_DROP_DET_FULL;
		else if (*why == TERN_STAT_DROP_POOL4_FULL &&
			 !tern_pick_serves(&pick))
			*why = TERN_STAT_DROP_NO_POOL4;
		tern_nat64_error(x, ICMPV6_DEST_UNREACH, ICMPV6_ADDR_UNREACH);
		return NULL;
	}
	/* pool4 lost the address: the next packet makes a new entry. */
	if (unlikely(tern_nat64_pool4_lost(x, s))) {
		*why = tern_pick_serves(&pick) ? TERN_STAT_DROP_POOL4_FULL :
						 TERN_STAT_DROP_NO_POOL4;
		return NULL;
	}
	if (rebuilt && made)
		tern_stats_inc(inst->stats, TERN_STAT_TCP_REBUILT);
	/*
	 * Another CPU's session, or an expired one made live again (it
	 * lives its new lifetime), is not this packet's to take back.
	 */
	x->fresh = made ? s : NULL;
	return s;
}

int tern_nat64_source6(struct tern_xlat *x,
			      const struct in6_addr *saddr)
{
	struct tern_tables *t = x->inst->nat64->tables;
	struct tern_ta6 src = { .addr = *saddr, .port = x->id.port[0] };
	struct tern_ta4 remote = { .addr = x->a4[1], .port = x->id.port[1] };
	struct tern_bib *b = NULL;
	struct tern_session *s;
	__be32 embedded;
	int l4, why = 0;

	/*
	 * RFC 6146 3.5: a source inside Pref64::/n is silently discarded,
	 * an ICMP error's too (hairpinning would loop it).
	 */
	if (tern_rfc6052_6to4(&x->cfg->pool6, saddr, &embedded)) {
		x->silent = true;
		return TERN_STAT_DROP_SRC_UNTRANSLATABLE;
	}
	/*
	 * An ICMP error (no identifiers): its source is the IPv6 host of the
	 * session it is about, or a router (RFC 6791 then).
	 */
	l4 = tern_l4_of(x->p.proto);
	if (!x->id.valid || l4 < 0) {
		if (!x->q.valid || !ipv6_addr_equal(saddr, &x->q.host6))
			return TERN_STAT_DROP_SRC_UNTRANSLATABLE;
		x->a4[0] = x->q.host4;
		return 0;
	}
	if (tern_addr4_never_translated(x->a4[1]) ||
	    tern_map_wkp_refuses(x->cfg, TERN_VIA_POOL6, x->a4[1]))
		return TERN_STAT_DROP_SPECIAL4;
	if (l4 == TERN_L4_ICMP)
		remote.port = 0;
	s = tern_sess_find6(t, l4, &src, &remote);
	if (!s && tern_nat64_nosyn_bib(x, l4, true))
		b = tern_bib_find6(t, l4, &src);
	if (s) {
		tern_sess_seen(s, true);
		if (l4 == TERN_L4_TCP)
			why = tern_nat64_tcp(x, s, true);
		else
			tern_sess_refresh(s, tern_nat64_timeout(x->cfg, l4));
	} else if (!b) {
		s = tern_nat64_new6(x, l4, &src, &remote, &why);
		/* A simultaneous open: the IPv4 SYN waiting is not answered. */
		if (s && l4 == TERN_L4_TCP)
			smp_mb(); /* the session before the count: keep4() */
		if (s && l4 == TERN_L4_TCP &&
		    tern_syn_count(&x->inst->nat64->syns))
			tern_syn_forget(&x->inst->nat64->syns, &s->bib->t4,
					&remote);
	}
	if (why)
		return why;
	if (s)
		b = s->bib;
	x->a4[0] = b->t4.addr;
	x->svia = TERN_VIA_POOL6;
	x->nat = true;
	x->nport[0] = b->t4.port;
	x->nport[1] = l4 == TERN_L4_ICMP ? b->t4.port : x->id.port[1];
	return 0;
}

static bool tern_nat64_error_dest_ok6(const struct tern_xlat *x)
{
	return !tern_addr4_never_translated(x->a4[1]);
}

/*
 * Hairpinning (RFC 6146 3.8): an IPv6 host sends to the IPv4 transport
 * address pool4 gave another one (or itself). The packet is translated to
 * IPv4 and back: its source becomes the pool6 address of the sender's
 * IPv4 transport address, its destination the IPv6 host the BIB names.
 */
bool tern_nat64_hairpins(const struct tern_xlat *x,
				const struct in6_addr *daddr6)
{
	return tern_pool4_has_addr(x->cfg->pool4, x->a4[1]);
}

/* The second pass decides anew, on the IPv4 packet. */
static void tern_nat64_hairpin_prepare(struct tern_xlat *x,
				       const struct iphdr *iph,
				       const struct iphdr *inner)
{
	x->nat = false;
	x->q.valid = false;
	x->dlocal = false;
}

/*
 * A packet to an address of this host that pool4 holds is the mode's when
 * its destination transport address is (RFC 6146 3.5: pool4's transport
 * addresses are the NAT64's, state or no state) or is bound by a BIB
 * entry (a static one may lie outside pool4's ranges); the host keeps the
 * rest: its other ports, other protocols, what carries no identifier.
 */
static bool tern_nat64_local4(const struct tern_xlat *x, __be32 daddr)
{
	struct tern_ta4 local = { .addr = daddr, .port = x->id.port[1] };
	int l4 = tern_l4_of(x->p.proto);

	if (!x->id.valid || l4 < 0)
		return false;
	return tern_pool4_contains(x->cfg->pool4, l4, daddr,
				   ntohs(local.port)) ||
	       tern_bib_find4(x->inst->nat64->tables, l4, &local);
}

/* The session made for a packet that is dropped after all goes again. */
static void tern_nat64_unwind(struct tern_xlat *x)
{
	tern_sess_forget(x->inst->nat64->tables, x->fresh);
}

const struct tern_mode_ops tern_nat64_mode = {
	.name = "nat64",
	.local4 = tern_nat64_local4,
	.dest6 = tern_nat64_dest6,
	.source6 = tern_nat64_source6,
	.error_dest_ok6 = tern_nat64_error_dest_ok6,
	.hairpins = tern_nat64_hairpins,
	.hairpin_prepare = tern_nat64_hairpin_prepare,
	.dest4 = tern_nat64_dest4,
	.source4 = tern_nat64_source4,
	.keep4 = tern_nat64_keep4,
	.unwind = tern_nat64_unwind,
	.quote4 = tern_nat64_quote4,
	.quote6 = tern_nat64_quote6,
	.inner6 = tern_nat64_inner6,
	.inner4 = tern_nat64_inner4,
};

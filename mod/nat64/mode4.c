// SPDX-License-Identifier: GPL-2.0
/*
 * The NAT64 mode (RFC 6146), the IPv4 side: what the driver asks of it
 * for a packet from IPv4. A packet of a known session costs two lookups
 * under RCU; a new session from IPv4 needs a BIB entry (or is a SYN kept
 * for a simultaneous open). The IPv6 side and the helpers both share are
 * in nat64/mode.c.
 */

#include <linux/icmp.h>
#include <linux/ip.h>
#include "nat64/mode.h"
#include "nat64/mode_err.h"
#include "nat64/nat64.h"
#include "nat64/pool4.h"
#include "nat64/tcp.h"
#include "siit/mapping.h"
#include "xlat/mode.h"

/* Only what pool4 holds is the mode's. */
int tern_nat64_dest4(struct tern_xlat *x, __be32 daddr)
{
	if (!tern_pool4_has_addr(x->cfg->pool4, daddr))
		return TERN_STAT_PASS_NO_MAPPING;
	x->dvia = TERN_VIA_POOL6;
	return 0;
}

/*
 * Address-dependent filtering (RFC 4787) of a packet from @raddr to BIB
 * entry @b: 0 if it may pass (a session of @b knows the address). UDP and
 * ICMP are answered with Communication Administratively Prohibited (RFC
 * 6146 3.5.1, 3.5.3); TCP is handled as if there were no BIB entry (3.5.2.2:
 * silently discarded), a policy drop (icmp-on-drop).
 */
static int tern_nat64_adf(struct tern_xlat *x, u8 l4,
			  const struct tern_bib *b, __be32 raddr)
{
	if (!x->cfg->adf ||
	    tern_sess_known4(x->inst->nat64->tables, l4, &b->t4, raddr))
		return 0;
	if (l4 != TERN_L4_TCP)
		tern_nat64_error(x, ICMP_DEST_UNREACH, ICMP_PKT_FILTERED);
	return TERN_STAT_DROP_FILTERED;
}

/*
 * A new session from the IPv4 side, on BIB entry @b: endpoint-independent
 * filtering (RFC 4787), or with address-dependent filtering only for a
 * peer address one of its sessions knows (any port); a TCP
 * SYN opens it (V4 INIT) unless drop-externally-initiated-tcp.
 */
static struct tern_session *tern_nat64_new4(struct tern_xlat *x, u8 l4,
					    struct tern_bib *b,
					    const struct tern_ta4 *remote,
					    int *why)
{
	struct tern_instance *inst = x->inst;
	struct tern_tcp_step st = { 0 };
	struct tern_limits lim;
	struct tern_session *s;
	unsigned long timeout;
	bool made;

	/* TCP: the policy first (RFC 6146 3.5.2.2), then the filter. */
	if (l4 == TERN_L4_TCP) {
		st = tern_tcp_next(TERN_TCP_CLOSED, false,
				   tern_tcp_flags_of(x->id.tcp_flags));
		if (!st.ok) {
			*why = TERN_STAT_DROP_TCP_NOSYN;
			return NULL;
		}
		if (x->cfg->drop_ext_tcp) {
			*why = TERN_STAT_DROP_EXT_TCP;
			return NULL;
		}
		timeout = tern_tcp_timeout(x->cfg, st.timer);
	} else {
		timeout = tern_nat64_timeout(x->cfg, l4);
	}
	*why = tern_nat64_adf(x, l4, b, remote->addr);
	if (*why)
		return NULL;
	tern_nat64_limits(inst, x->cfg, &lim);
	s = tern_sess_add4(inst->nat64->tables, b, remote, &lim, st.state,
			   timeout, &made);
	if (IS_ERR(s)) {
		*why = tern_nat64_add_err(PTR_ERR(s));
		return NULL;
	}
	/* pool4 lost the address: as if there were no BIB entry. */
	if (unlikely(tern_nat64_pool4_lost(x, s))) {
		*why = TERN_STAT_DROP_NO_SESSION;
		return NULL;
	}
	x->fresh = made ? s : NULL;
	return s;
}

/*
 * RFC 6146 3.5.2.2: an IPv4 SYN to no BIB entry (@b NULL), or with
 * address-dependent filtering to one no session of which knows the peer
 * @raddr (handled as if there were no BIB entry), waits for a
 * simultaneous open from the IPv6 side (->keep4()), unless
 * drop-externally-initiated-tcp drops it.
 */
static bool tern_nat64_may_store(const struct tern_xlat *x,
				 const struct tern_bib *b, __be32 raddr)
{
	struct tern_tcp_step st;

	if (x->cfg->drop_ext_tcp)
		return false;
	st = tern_tcp_next(TERN_TCP_CLOSED, false,
			   tern_tcp_flags_of(x->id.tcp_flags));
	if (!st.ok)
		return false;
	return !b || (x->cfg->adf &&
		      !tern_sess_known4(x->inst->nat64->tables, TERN_L4_TCP,
					&b->t4, raddr));
}

int tern_nat64_keep4(struct tern_xlat *x, struct sk_buff *skb)
{
	const struct iphdr *iph = ip_hdr(skb);
	struct tern_ta4 local = { .addr = iph->daddr, .port = x->id.port[1] };
	struct tern_ta4 remote = { .addr = iph->saddr, .port = x->id.port[0] };
	int ret;

	ret = tern_syn_store(&x->inst->nat64->syns, x->cfg->max_stored_syns,
			     &local, &remote, skb);
	/*
	 * An IPv6 SYN may have made the session since this one missed it,
	 * and found no SYN stored (tern_nat64_source6()): with a barrier on
	 * each side, one of the two sees the other, and the SYN goes
	 * unanswered as in any simultaneous open.
	 */
	smp_mb();
	if (!ret && tern_sess_find4(x->inst->nat64->tables, TERN_L4_TCP,
				    &local, &remote))
		tern_syn_forget(&x->inst->nat64->syns, &local, &remote);
	if (ret == -ENOSPC)
		return TERN_STAT_DROP_SYN_STORE_FULL;
	return ret ? TERN_STAT_DROP_NOMEM : TERN_STAT_SYN_STORED;
}

int tern_nat64_source4(struct tern_xlat *x, __be32 saddr,
			      __be32 daddr)
{
	struct tern_tables *t = x->inst->nat64->tables;
	struct tern_ta4 local = { .addr = daddr, .port = x->id.port[1] };
	struct tern_ta4 remote = { .addr = saddr, .port = x->id.port[0] };
	struct tern_session *s;
	struct tern_bib *b = NULL;
	int l4, why = 0;

	l4 = tern_l4_of(x->p.proto);
	/*
	 * An ICMP error: from any IPv4 address pool6 may stand for, it
	 * embeds it; the Well-Known Prefix never stands for a non-global
	 * one (RFC 6052 3.1, strict-wkp): the error then gets an RFC 6791
	 * source, as in SIIT.
	 */
	if (x->q.valid) {
		if (tern_map_wkp_refuses(x->cfg, TERN_VIA_POOL6, saddr))
			return TERN_STAT_DROP_SPECIAL4;
		tern_rfc6052_4to6(&x->cfg->pool6, saddr, &x->a6[0]);
		return 0;
	}
	if (!x->id.valid || l4 < 0)
		return TERN_STAT_DROP_NO_SESSION;
	if (l4 == TERN_L4_ICMP)
		remote.port = 0;
	s = tern_sess_find4(t, l4, &local, &remote);
	if (s) {
		tern_sess_seen(s, false);
		if (l4 == TERN_L4_TCP)
			why = tern_nat64_tcp(x, s, false);
		else
			tern_sess_refresh(s, tern_nat64_timeout(x->cfg, l4));
	} else {
		/*
		 * No session: none is made, and no SYN kept, for a peer the
		 * IPv6 side could not name (RFC 6052 3.1: with strict-wkp the
		 * Well-Known Prefix never stands for a non-global address;
		 * tern_nat64_source6() refuses it as a destination). Found
		 * sessions are not checked: the established path stays as
		 * cheap, and their IPv6 side's packets are refused.
		 */
		if (tern_map_wkp_refuses(x->cfg, TERN_VIA_POOL6, saddr))
			return TERN_STAT_DROP_SPECIAL4;
		b = tern_bib_find4(t, l4, &local);
		if (l4 == TERN_L4_TCP && tern_nat64_may_store(x, b, saddr))
			return TERN_STAT_SYN_STORED;
		/* RFC 6146 3.5.1: UDP to no BIB entry: Host Unreachable. */
		if (!b && l4 == TERN_L4_UDP)
			tern_nat64_error(x, ICMP_DEST_UNREACH,
					 ICMP_HOST_UNREACH);
		if (!b)
			return TERN_STAT_DROP_NO_SESSION;
		if (tern_nat64_nosyn_bib(x, l4, false))
			why = tern_nat64_adf(x, l4, b, remote.addr);
		else
			s = tern_nat64_new4(x, l4, b, &remote, &why);
	}
	if (why)
		return why;
	if (s)
		b = s->bib;
	tern_rfc6052_4to6(&x->cfg->pool6, saddr, &x->a6[0]);
	x->a6[1] = b->t6.addr;
	x->svia = TERN_VIA_POOL6;
	x->nat = true;
	x->nport[0] = l4 == TERN_L4_ICMP ? b->t6.port : x->id.port[0];
	x->nport[1] = b->t6.port;
	return 0;
}

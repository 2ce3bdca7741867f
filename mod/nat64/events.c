// SPDX-License-Identifier: GPL-2.0
/*
 * NAT64 events: BIB entries and sessions made and removed, multicast on
 * the group "events" of the family (include/tern_genl.h), for operators
 * who must log what address and port a subscriber had when. The tables
 * tell them through their callback (struct tern_table_events); this file
 * only builds and sends messages, so that it calls nothing above it.
 *
 * Best effort: nothing is built unless someone listens and the instance's
 * log-bib or log-sessions asks for it; allocation never waits (GFP_ATOMIC)
 * and an event that cannot be sent is counted in events-dropped, never
 * retried: translation does not slow down for a slow listener.
 */

#include <linux/in.h>
#include <linux/timekeeping.h>
#include <net/genetlink.h>
#include "core/instance.h"
#include "nat64/events.h"
#include "nl/netlink.h"

/* The TERN_BIB_PROTO / TERN_SESSION_PROTO value of a table index. */
static u8 tern_ev_proto(u8 l4)
{
	switch (l4) {
	case TERN_L4_TCP:
		return IPPROTO_TCP;
	case TERN_L4_UDP:
		return IPPROTO_UDP;
	default:
		return IPPROTO_ICMP;
	}
}

/*
 * Under RCU: the family is registered (tern_genl_exit() waits for this
 * section to end before the group can be another's) and someone in
 * @inst's namespace listens.
 */
static bool tern_ev_listened(const struct tern_instance *inst)
{
	return READ_ONCE(tern_genl_live) &&
	       genl_has_listeners(&tern_genl_family, inst->net,
				  TERN_MCGRP_EVENTS);
}

/* Under RCU: events of this kind are wanted (listened, log-* on). */
static bool tern_ev_wanted(const struct tern_instance *inst, bool sess)
{
	const struct tern_config *cfg;

	if (!tern_ev_listened(inst))
		return false;
	cfg = tern_instance_config(inst);
	return sess ? READ_ONCE(cfg->log_sessions) : READ_ONCE(cfg->log_bib);
}

/* The attributes of a BIB entry (TERN_A_BIB). */
static int tern_ev_put_bib(struct sk_buff *skb, const void *obj)
{
	const struct tern_bib *b = obj;

	if (nla_put_u8(skb, TERN_BIB_PROTO, tern_ev_proto(b->l4)) ||
	    nla_put_in6_addr(skb, TERN_BIB_ADDR6, &b->t6.addr) ||
	    nla_put_u16(skb, TERN_BIB_PORT6, ntohs(b->t6.port)) ||
	    nla_put_in_addr(skb, TERN_BIB_ADDR4, b->t4.addr) ||
	    nla_put_u16(skb, TERN_BIB_PORT4, ntohs(b->t4.port)) ||
	    (b->is_static && nla_put_flag(skb, TERN_BIB_STATIC)))
		return -EMSGSIZE;
	return 0;
}

/* The attributes of a session (TERN_A_SESSION); no expiry. */
static int tern_ev_put_sess(struct sk_buff *skb, const void *obj)
{
	const struct tern_session *s = obj;
	const struct tern_bib *b = s->bib;

	if (nla_put_u8(skb, TERN_SESSION_PROTO, tern_ev_proto(b->l4)) ||
	    nla_put_in6_addr(skb, TERN_SESSION_ADDR6, &b->t6.addr) ||
	    nla_put_u16(skb, TERN_SESSION_PORT6, ntohs(b->t6.port)) ||
	    nla_put_in_addr(skb, TERN_SESSION_ADDR4, b->t4.addr) ||
	    nla_put_u16(skb, TERN_SESSION_PORT4, ntohs(b->t4.port)) ||
	    nla_put_in_addr(skb, TERN_SESSION_REMOTE4, s->remote.addr) ||
	    nla_put_u16(skb, TERN_SESSION_RPORT4, ntohs(s->remote.port)))
		return -EMSGSIZE;
	if (b->l4 == TERN_L4_TCP &&
	    nla_put_u8(skb, TERN_SESSION_STATE, READ_ONCE(s->state)))
		return -EMSGSIZE;
	return 0;
}

/* The most an event takes (genlmsg_new() adds the headers). */
static size_t tern_ev_size(void)
{
	return nla_total_size(TERN_INSTANCE_NAMSIZ) +	/* INSTANCE */
	       nla_total_size(1) +			/* EVENT */
	       nla_total_size_64bit(8) +		/* TIME */
	       nla_total_size(0) +			/* BIB or SESSION */
	       nla_total_size(1) +			/* PROTO */
	       nla_total_size(16) +			/* ADDR6 */
	       nla_total_size(4) * 2 +			/* ADDR4, REMOTE4 */
	       nla_total_size(2) * 3 +			/* PORT6, PORT4, RPORT4 */
	       nla_total_size(1);			/* STATE or STATIC */
}

static int tern_ev_put_block(struct sk_buff *skb, const void *obj)
{
	const struct tern_blk_info *bi = obj;

	return nla_put_u8(skb, TERN_BLOCK_PROTO, tern_ev_proto(bi->l4)) ||
	       nla_put_in6_addr(skb, TERN_BLOCK_PREFIX6, &bi->prefix) ||
	       nla_put_u8(skb, TERN_BLOCK_PLEN, bi->plen) ||
	       nla_put_in_addr(skb, TERN_BLOCK_ADDR4, bi->addr) ||
	       nla_put_u16(skb, TERN_BLOCK_PORT_MIN, bi->first) ||
	       nla_put_u16(skb, TERN_BLOCK_PORT_MAX, bi->last);
}

/*
 * Builds and multicasts one event: @obj in a nest of type @type, filled
 * by @put.
 */
static void tern_ev_send(struct tern_instance *inst, u8 event, int type,
			 int (*put)(struct sk_buff *skb, const void *obj),
			 const void *obj)
{
	struct nlattr *nest;
	struct sk_buff *skb;
	void *hdr;
	int ret;

	skb = genlmsg_new(tern_ev_size(), GFP_ATOMIC | __GFP_NOWARN);
	if (!skb)
		goto dropped;
	hdr = genlmsg_put(skb, 0, 0, &tern_genl_family, 0, TERN_CMD_EVENT);
	if (!hdr)
		goto free;
	if (nla_put_string(skb, TERN_A_INSTANCE, inst->name) ||
	    nla_put_u8(skb, TERN_A_EVENT, event) ||
	    nla_put_u64_64bit(skb, TERN_A_TIME, ktime_get_real_ns(),
			      TERN_A_PAD))
		goto free;
	nest = nla_nest_start(skb, type);
	if (!nest || put(skb, obj))
		goto free;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	/*
	 * -ESRCH: no listener took it (every one's buffer full, or the last
	 * one just left); -ENOBUFS: one that set NETLINK_BROADCAST_ERROR
	 * (tern monitor does) missed it. A listener without that option
	 * missing it while another got it is not seen here; it gets ENOBUFS.
	 */
	ret = genlmsg_multicast_netns(&tern_genl_family, inst->net, skb, 0,
				      TERN_MCGRP_EVENTS, GFP_ATOMIC);
	if (ret)
		goto dropped;
	return;
free:
	nlmsg_free(skb);
dropped:
	tern_stats_inc(inst->stats, TERN_STAT_EVENTS_DROPPED);
}

void tern_nat64_ev_bib(void *arg, const struct tern_bib *b, bool add)
{
	struct tern_instance *inst = arg;

	rcu_read_lock();
	if (tern_ev_wanted(inst, false))
		tern_ev_send(inst, add ? TERN_EV_BIB_ADD : TERN_EV_BIB_DEL,
			     TERN_A_BIB, tern_ev_put_bib, b);
	rcu_read_unlock();
}

void tern_nat64_ev_sess(void *arg, const struct tern_session *s, bool add)
{
	struct tern_instance *inst = arg;

	rcu_read_lock();
	if (tern_ev_wanted(inst, true))
		tern_ev_send(inst, add ? TERN_EV_SESSION_ADD :
			     TERN_EV_SESSION_DEL, TERN_A_SESSION, tern_ev_put_sess,
			     s);
	rcu_read_unlock();
}

/*
 * A port block given or returned: sent whenever someone listens (no log-*
 * setting: they are the log port-block-size is set for).
 */
void tern_nat64_ev_block(struct tern_instance *inst,
			 const struct tern_blk_info *bi, bool add)
{
	rcu_read_lock();
	if (tern_ev_listened(inst))
		tern_ev_send(inst, add ? TERN_EV_BLOCK_ADD : TERN_EV_BLOCK_DEL,
			     TERN_A_BLOCK, tern_ev_put_block, bi);
	rcu_read_unlock();
}

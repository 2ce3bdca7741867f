// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink commands of the sessions of a NAT64 instance (RFC 6146 3.1):
 * every session listed (a dump), the dynamic state flushed.
 */

#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <net/genetlink.h>
#include "core/instance.h"
#include "nat64/nat64.h"
#include "nat64/table.h"
#include "nl/common.h"
#include "nl/nat64.h"
#include "nl/netlink.h"

/* Milliseconds until @s expires; 0 if it has. */
static u32 tern_sess_expires_ms(const struct tern_session *s)
{
	s32 left = (s32)(READ_ONCE(s->expires) - (u32)jiffies);

	return left > 0 ? jiffies_to_msecs(left) : 0;
}

static int tern_nla_put_session(struct sk_buff *skb, const void *obj)
{
	const struct tern_session *s = obj;
	const struct tern_bib *b = s->bib;
	struct nlattr *nest = nla_nest_start(skb, TERN_A_SESSION);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, TERN_SESSION_PROTO, tern_nl_proto(b->l4)) ||
	    nla_put_in6_addr(skb, TERN_SESSION_ADDR6, &b->t6.addr) ||
	    nla_put_u16(skb, TERN_SESSION_PORT6, ntohs(b->t6.port)) ||
	    nla_put_in_addr(skb, TERN_SESSION_ADDR4, b->t4.addr) ||
	    nla_put_u16(skb, TERN_SESSION_PORT4, ntohs(b->t4.port)) ||
	    nla_put_in_addr(skb, TERN_SESSION_REMOTE4, s->remote.addr) ||
	    nla_put_u16(skb, TERN_SESSION_RPORT4, ntohs(s->remote.port)) ||
	    (b->l4 == TERN_L4_TCP &&
	     nla_put_u8(skb, TERN_SESSION_STATE, READ_ONCE(s->state))) ||
	    nla_put_u32(skb, TERN_SESSION_EXPIRES, tern_sess_expires_ms(s))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * One message per session the filter lets through; non-zero when the skb
 * is full or the stretch's budget spent.
 */
static int tern_sess_dump_one(const struct tern_session *s, void *arg)
{
	return tern_nl_walk_emit(arg, s->bib, tern_nla_put_session, s);
}

static int tern_sess_dump_walk(struct tern_tables *t, u8 l4,
			       struct tern_walk_pos *pos,
			       struct tern_nl_walk *w)
{
	return tern_sess_walk(t, l4, pos, tern_sess_dump_one, w);
}

int tern_nl_session_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	return tern_nl_nat64_dump(skb, cb, TERN_CMD_SESSION_GET,
				  tern_sess_dump_walk);
}

int tern_nl_session_flush(struct sk_buff *skb, struct genl_info *info)
{
	struct tern_net *tn = tern_net(genl_info_net(info));
	struct nlattr *proto = info->attrs[TERN_A_PROTO];
	struct tern_instance *inst;

	mutex_lock(&tn->lock);
	inst = tern_nl_nat64(tn, info->attrs, info->extack);
	if (!IS_ERR(inst))
		tern_tables_flush(tern_nat64_tables(inst),
				  proto ? tern_nl_l4(nla_get_u8(proto)) :
					  TERN_L4_N);
	mutex_unlock(&tn->lock);
	return PTR_ERR_OR_ZERO(inst);
}

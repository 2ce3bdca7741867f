// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink commands of pool4 (NAT64 instances): add, remove, flush, list.
 * Same scheme as denylist4: a new table built under the namespace lock
 * and published with RCU (all or nothing); the list is a dump, flagged
 * inconsistent if a table changes between its parts.
 */

#include <linux/kernel.h>
#include <linux/in.h>
#include <linux/netdevice.h>
#include <net/genetlink.h>
#include "core/instance.h"
#include "nat64/nat64.h"
#include "nat64/det.h"
#include "nat64/pool4.h"
#include "siit/prefix.h"
#include "nl/common.h"
#include "nl/netlink.h"

const struct nla_policy tern_pool4_policy[TERN_POOL4_MAX + 1] = {
	[TERN_POOL4_PREFIX] = NLA_POLICY_NESTED(tern_prefix4_policy),
	/* TCP, UDP or ICMP: the handler says which are. */
	[TERN_POOL4_PROTO] = NLA_POLICY_RANGE(NLA_U8, IPPROTO_ICMP, IPPROTO_UDP),
	[TERN_POOL4_PORT_MIN] = { .type = NLA_U16 },
	[TERN_POOL4_PORT_MAX] = { .type = NLA_U16 },
	[TERN_POOL4_MARK] = { .type = NLA_U32 },
};

static const u8 tern_l4_proto[TERN_L4_N] = {
	[TERN_L4_TCP] = IPPROTO_TCP,
	[TERN_L4_UDP] = IPPROTO_UDP,
	[TERN_L4_ICMP] = IPPROTO_ICMP,
};

static const char *const tern_l4_name[TERN_L4_N] = {
	[TERN_L4_TCP] = "TCP",
	[TERN_L4_UDP] = "UDP",
	[TERN_L4_ICMP] = "ICMP",
};

static int tern_pool4_check(struct tern_instance *inst,
			    struct netlink_ext_ack *extack)
{
	if (inst->type == TERN_TYPE_NAT64)
		return 0;
	NL_SET_ERR_MSG(extack, "pool4 is for NAT64 instances");
	return -EINVAL;
}

/*
 * Reads TERN_A_POOL4 into @e. An add has default ports; a removal names
 * both ports (*@ports set) or none (every range of the prefix).
 */
static int tern_nl_get_pool4(struct genl_info *info, bool add,
			     struct tern_pool4_entry *e, bool *ports)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[TERN_POOL4_MAX + 1];
	u8 proto, l4;
	int ret;

	if (tern_nl_missing(info, TERN_A_POOL4,
			    "missing the pool4 entry (TERN_A_POOL4)"))
		return -EINVAL;
	ret = nla_parse_nested(tb, TERN_POOL4_MAX, info->attrs[TERN_A_POOL4],
			       tern_pool4_policy, extack);
	if (ret)
		return ret;
	if (!tb[TERN_POOL4_PREFIX]) {
		NL_SET_ERR_MSG(extack,
			       "missing the IPv4 prefix of the entry (TERN_POOL4_PREFIX)");
		return -EINVAL;
	}
	if (!tb[TERN_POOL4_PROTO]) {
		NL_SET_ERR_MSG(extack,
			       "missing the protocol of the entry (TERN_POOL4_PROTO)");
		return -EINVAL;
	}
	memset(e, 0, sizeof(*e));
	ret = tern_nla_get_prefix4(tb[TERN_POOL4_PREFIX], &e->prefix, extack);
	if (ret)
		return ret;
	proto = nla_get_u8(tb[TERN_POOL4_PROTO]);
	for (l4 = 0; l4 < TERN_L4_N && tern_l4_proto[l4] != proto; l4++)
		;
	if (l4 == TERN_L4_N) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TERN_POOL4_PROTO],
				    "the protocol must be TCP (6), UDP (17) or ICMP (1)");
		return -EINVAL;
	}
	e->l4 = l4;
	if (tb[TERN_POOL4_MARK])
		e->mark = nla_get_u32(tb[TERN_POOL4_MARK]);
	*ports = tb[TERN_POOL4_PORT_MIN] || tb[TERN_POOL4_PORT_MAX];
	if (!add && *ports &&
	    (!tb[TERN_POOL4_PORT_MIN] || !tb[TERN_POOL4_PORT_MAX])) {
		NL_SET_ERR_MSG(extack,
			       "a removal names both ports of the range, or none (all ranges)");
		return -EINVAL;
	}
	e->pmin = l4 == TERN_L4_ICMP ? 0 : 1024;
	e->pmax = 65535;
	if (tb[TERN_POOL4_PORT_MIN])
		e->pmin = nla_get_u16(tb[TERN_POOL4_PORT_MIN]);
	if (tb[TERN_POOL4_PORT_MAX])
		e->pmax = nla_get_u16(tb[TERN_POOL4_PORT_MAX]);
	return 0;
}

/* Replaces the pool4 of @inst with @p (NULL: empty): tern_nl_table. */
static int tern_pool4_publish(struct tern_net *tn, struct tern_instance *inst,
			      void *p)
{
	struct tern_config *cfg = tern_instance_config_dup(inst);
	struct tern_pool4 *old;

	if (!cfg) {
		tern_pool4_free(p);
		return -ENOMEM;
	}
	old = rcu_replace_pointer(inst->pool4, p, lockdep_is_held(&tn->lock));
	tern_instance_set_config(inst, cfg);
	tern_pool4_free_rcu(old);
	tn->tables_gen++;
	return 0;
}

static void tern_pool4_errmsg(struct tern_net *tn, struct netlink_ext_ack *extack,
			      int err, const struct tern_pool4_entry *e,
			      const struct tern_pool4_entry *c)
{
	switch (err) {
	case -ENOENT:
		NL_SET_ERR_MSG(extack,
			       "no pool4 entry has this prefix, protocol, mark (and ports)");
		break;
	case -ENOSPC:
		NL_SET_ERR_MSG(extack, "pool4 is full (4096 entries)");
		break;
	case -E2BIG:
		NL_SET_ERR_MSG(extack,
			       "pool4 would hold more than 65536 addresses");
		break;
	case -EEXIST:
		if (tern_prefix4_equal(&c->prefix, &e->prefix) &&
		    c->pmin == e->pmin && c->pmax == e->pmax) {
			NL_SET_ERR_MSG(extack, "this entry is already in pool4");
			break;
		}
		tern_extack_fmt(tn, extack,
				"overlaps pool4 entry %s %pI4/%u %u-%u mark %u",
				tern_l4_name[c->l4], &c->prefix.addr,
				c->prefix.len, c->pmin, c->pmax, c->mark);
		break;
	}
}

/*
 * After pool4 lost entries (under tn->lock): the BIB entries made from
 * them go with their sessions, so that an address taken out of pool4 is
 * no longer used, even by flows that keep it busy. Static entries stay.
 * First the packets that read the old pool4 finish: one could still make
 * an entry from such an address.
 */
static void tern_pool4_prune(struct tern_net *tn, struct tern_instance *inst)
{
	struct tern_tables *t = tern_nat64_tables(inst);

	if (!t)
		return;
	synchronize_net();
	tern_tables_flush_if(t, tern_pool4_lost,
			     tern_protected(tn, inst->pool4));
}

static int tern_nl_pool4_change(struct genl_info *info, bool add)
{
	struct tern_net *tn = tern_net(genl_info_net(info));
	const struct tern_pool4_entry *c = NULL;
	struct tern_pool4_clash clash;
	char msg[TERN_EXTACK_LEN];
	struct tern_pool4 *p, *old;
	struct tern_instance *inst;
	struct tern_pool4_entry e;
	bool ports;
	int ret;

	ret = tern_nl_get_pool4(info, add, &e, &ports);
	if (ret)
		return ret;

	mutex_lock(&tn->lock);
	inst = tern_nl_instance(tn, info->attrs, info->extack);
	if (IS_ERR(inst)) {
		ret = PTR_ERR(inst);
		goto out;
	}
	ret = tern_pool4_check(inst, info->extack);
	if (ret)
		goto out;
	if (add) {
		ret = tern_pool4_validate(inst->net, &e, &clash, info->extack);
		if (ret == -EADDRINUSE)
			tern_extack_fmt(tn, info->extack,
					"ports %u-%u of local %pI4 are in net.ipv4.ip_local_port_range",
					clash.pmin, clash.pmax, &clash.addr);
		if (ret)
			goto out;
	}
	old = tern_protected(tn, inst->pool4);
	p = add ? tern_pool4_add(old, &e, &c) : tern_pool4_del(old, &e, ports);
	ret = PTR_ERR_OR_ZERO(p);
	if (!ret && tern_det_validate(rcu_dereference_protected(inst->cfg,
								true),
				      p, msg, sizeof(msg))) {
		tern_extack_fmt(tn, info->extack, "%s", msg);
		tern_pool4_free(p);
		ret = -EINVAL;
	} else if (ret) {
		tern_pool4_errmsg(tn, info->extack, ret, &e, c);
	} else {
		ret = tern_pool4_publish(tn, inst, p);
		if (!ret && !add)
			tern_pool4_prune(tn, inst);
	}
out:
	mutex_unlock(&tn->lock);
	return ret;
}

int tern_nl_pool4_add(struct sk_buff *skb, struct genl_info *info)
{
	return tern_nl_pool4_change(info, true);
}

int tern_nl_pool4_del(struct sk_buff *skb, struct genl_info *info)
{
	return tern_nl_pool4_change(info, false);
}

static int tern_pool4_put(struct sk_buff *skb, struct tern_net *tn,
			  struct tern_instance *inst, u32 i)
{
	const struct tern_pool4_entry *e;
	struct nlattr *nest;

	e = tern_pool4_entry(tern_protected(tn, inst->pool4), i);
	if (!e)
		return 1;
	nest = nla_nest_start(skb, TERN_A_POOL4);
	if (!nest)
		return -EMSGSIZE;
	if (tern_nla_put_prefix4(skb, TERN_POOL4_PREFIX, &e->prefix) ||
	    nla_put_u8(skb, TERN_POOL4_PROTO, tern_l4_proto[e->l4]) ||
	    nla_put_u16(skb, TERN_POOL4_PORT_MIN, e->pmin) ||
	    nla_put_u16(skb, TERN_POOL4_PORT_MAX, e->pmax) ||
	    nla_put_u32(skb, TERN_POOL4_MARK, e->mark)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static const struct tern_nl_table tern_pool4_nl = {
	.get_cmd = TERN_CMD_POOL4_GET,
	.check = tern_pool4_check,
	.publish = tern_pool4_publish,
	.put = tern_pool4_put,
};

int tern_nl_pool4_flush(struct sk_buff *skb, struct genl_info *info)
{
	struct tern_net *tn = tern_net(genl_info_net(info));
	struct tern_instance *inst;
	int ret;

	ret = tern_nl_table_flush(info, &tern_pool4_nl);
	if (ret)
		return ret;
	mutex_lock(&tn->lock);
	inst = tern_nl_instance(tn, info->attrs, info->extack);
	if (!IS_ERR(inst))
		tern_pool4_prune(tn, inst);
	mutex_unlock(&tn->lock);
	return 0;
}

int tern_nl_pool4_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	return tern_nl_table_dump(skb, cb, &tern_pool4_nl);
}

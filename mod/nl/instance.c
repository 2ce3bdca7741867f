// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink commands of instances: add (with its settings), remove, list
 * (a dump, flagged inconsistent if the list changes between its parts):
 * the instances, then the names iptables rules use without an instance.
 */

#include <linux/string.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include "core/instance.h"
#include "fw/xt.h"
#include "nat64/det.h"
#include "nl/common.h"
#include "nl/globals.h"
#include "nl/netlink.h"

int tern_nl_instance_add(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct tern_net *tn = tern_net(net);
	char msg[TERN_EXTACK_LEN];
	struct tern_config cfg;
	const char *name;
	u8 type, framework = TERN_FW_NETFILTER;
	int ret;

	if (tern_nl_missing(info, TERN_A_INSTANCE,
			    "missing the instance name (TERN_A_INSTANCE)") ||
	    tern_nl_missing(info, TERN_A_TYPE,
			    "missing the instance type (TERN_A_TYPE)"))
		return -EINVAL;
	name = nla_data(info->attrs[TERN_A_INSTANCE]);
	if (!name[0] || strlen(name) >= TERN_INSTANCE_NAMSIZ) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[TERN_A_INSTANCE],
				    "an instance name has 1 to 15 characters");
		return -EINVAL;
	}
	if (!tern_instance_name_chars_ok(name)) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[TERN_A_INSTANCE],
				    "an instance name has printable characters, no blanks or quotes");
		return -EINVAL;
	}
	type = nla_get_u8(info->attrs[TERN_A_TYPE]);
	if (info->attrs[TERN_A_FRAMEWORK])
		framework = nla_get_u8(info->attrs[TERN_A_FRAMEWORK]);

	tern_config_defaults(&cfg);
	if (info->attrs[TERN_A_POOL6]) {
		ret = tern_nla_get_pool6(info->attrs[TERN_A_POOL6], &cfg.pool6,
					 info->extack);
		if (ret)
			return ret;
		cfg.pool6_set = true;
	}
	if (info->attrs[TERN_A_GLOBALS]) {
		ret = tern_globals_apply(&cfg, info->attrs[TERN_A_GLOBALS],
					 info->extack);
		if (ret)
			return ret;
	}
	/* NAT64: the IPv4 peers are the addresses pool6 embeds. */
	if (type == TERN_TYPE_NAT64 && !cfg.pool6_set) {
		NL_SET_ERR_MSG(info->extack, "a NAT64 instance needs pool6");
		return -EINVAL;
	}

	mutex_lock(&tn->lock);
	if (tn->count >= TERN_MAX_INSTANCES) {
		NL_SET_ERR_MSG(info->extack,
			       "this namespace has 4096 instances, the most it holds");
		mutex_unlock(&tn->lock);
		return -E2BIG;
	}
	if (type == TERN_TYPE_NAT64 &&
	    tern_det_validate(&cfg, NULL, msg, sizeof(msg))) {
		tern_extack_fmt(tn, info->extack, "%s", msg);
		mutex_unlock(&tn->lock);
		return -EINVAL;
	}
	ret = tern_instance_add(net, name, type, framework, &cfg, info->extack);
	mutex_unlock(&tn->lock);
	return ret;
}

int tern_nl_instance_del(struct sk_buff *skb, struct genl_info *info)
{
	struct tern_net *tn = tern_net(genl_info_net(info));
	struct tern_instance *inst;

	if (tern_nl_missing(info, TERN_A_INSTANCE,
			    "missing the instance name (TERN_A_INSTANCE)"))
		return -EINVAL;
	mutex_lock(&tn->lock);
	inst = tern_instance_find(tn, tern_name_attr(info), info->extack);
	if (!IS_ERR(inst))
		tern_instance_del(inst);
	mutex_unlock(&tn->lock);
	return PTR_ERR_OR_ZERO(inst);
}

/* STATUS: @enabled (-1: not an instance) and the rules naming it. */
static int tern_status_put(struct sk_buff *skb, int enabled,
			   const struct tern_xt_status *st)
{
	struct nlattr *nest = nla_nest_start(skb, TERN_A_STATUS);

	if (!nest ||
	    (enabled >= 0 && nla_put_u8(skb, TERN_STATUS_ENABLED, enabled)) ||
	    nla_put_u32(skb, TERN_STATUS_RULES, st->rules) ||
	    nla_put_u64_64bit(skb, TERN_STATUS_MISSED, st->missed,
			      TERN_STATUS_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int tern_instance_fill(struct sk_buff *skb, struct tern_instance *inst,
			      u32 portid, u32 seq, int flags, u8 cmd,
			      struct netlink_callback *cb)
{
	struct tern_xt_status st = { };
	const struct tern_config *cfg;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &tern_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);
	cfg = rcu_dereference_protected(inst->cfg, true);
	tern_xt_status(inst->net, inst->name, &st);
	if (nla_put_string(skb, TERN_A_INSTANCE, inst->name) ||
	    nla_put_u8(skb, TERN_A_TYPE, inst->type) ||
	    nla_put_u8(skb, TERN_A_FRAMEWORK, inst->framework) ||
	    (cfg->pool6_set &&
	     tern_nla_put_prefix6(skb, TERN_A_POOL6, &cfg->pool6)) ||
	    tern_status_put(skb, cfg->enabled, &st)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* A name iptables rules use without an instance: INSTANCE, STATUS. */
static int tern_unbound_fill(struct sk_buff *skb,
			     const struct tern_xt_status *st,
			     struct netlink_callback *cb)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &tern_genl_family, NLM_F_MULTI,
			  TERN_CMD_INSTANCE_GET);
	if (!hdr)
		return -EMSGSIZE;
	genl_dump_check_consistent(cb, hdr);
	if (nla_put_string(skb, TERN_A_INSTANCE, st->name) ||
	    tern_status_put(skb, -1, st)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* cb->args[0]: instances sent; cb->args[1]: rule slots looked at. */
int tern_nl_instance_dump(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct tern_net *tn = tern_net(net);
	struct tern_instance *inst;
	struct tern_xt_status st;
	long idx = 0, start = cb->args[0];
	unsigned long slot = cb->args[1];

	mutex_lock(&tn->lock);
	cb->seq = tn->gen + tern_xt_gen(net);
	list_for_each_entry(inst, &tn->instances, list) {
		if (idx++ < start)
			continue;
		if (tern_instance_fill(skb, inst, NETLINK_CB(cb->skb).portid,
				       cb->nlh->nlmsg_seq, NLM_F_MULTI,
				       TERN_CMD_INSTANCE_GET, cb)) {
			idx--;
			goto out;
		}
	}
	for (; !tern_xt_slot_at(net, slot, &st); slot++) {
		if (!IS_ERR(tern_instance_find(tn, st.name, NULL)))
			continue;
		if (tern_unbound_fill(skb, &st, cb))
			break;
	}
out:
	mutex_unlock(&tn->lock);
	cb->args[0] = idx;
	cb->args[1] = slot;
	return skb->len;
}

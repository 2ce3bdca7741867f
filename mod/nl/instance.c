// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink commands of instances: add (with its settings), remove, list
 * (a dump, flagged inconsistent if the list changes between its parts).
 */

#include <linux/string.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include "core/instance.h"
#include "nl/common.h"
#include "nl/globals.h"
#include "nl/netlink.h"

int tern_nl_instance_add(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct tern_net *tn = tern_net(net);
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
	type = nla_get_u8(info->attrs[TERN_A_TYPE]);
	if (info->attrs[TERN_A_FRAMEWORK])
		framework = nla_get_u8(info->attrs[TERN_A_FRAMEWORK]);
	if (framework == TERN_FW_IPTABLES) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[TERN_A_FRAMEWORK],
				    "iptables instances are not supported yet");
		return -EOPNOTSUPP;
	}

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

static int tern_instance_fill(struct sk_buff *skb, struct tern_instance *inst,
			      u32 portid, u32 seq, int flags, u8 cmd,
			      struct netlink_callback *cb)
{
	const struct tern_config *cfg;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &tern_genl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);
	cfg = rcu_dereference_protected(inst->cfg, true);
	if (nla_put_string(skb, TERN_A_INSTANCE, inst->name) ||
	    nla_put_u8(skb, TERN_A_TYPE, inst->type) ||
	    nla_put_u8(skb, TERN_A_FRAMEWORK, inst->framework) ||
	    (cfg->pool6_set &&
	     tern_nla_put_prefix6(skb, TERN_A_POOL6, &cfg->pool6))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

int tern_nl_instance_dump(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	struct tern_net *tn = tern_net(sock_net(skb->sk));
	struct tern_instance *inst;
	long idx = 0, start = cb->args[0];

	mutex_lock(&tn->lock);
	cb->seq = tn->gen;
	list_for_each_entry(inst, &tn->instances, list) {
		if (idx++ < start)
			continue;
		if (tern_instance_fill(skb, inst, NETLINK_CB(cb->skb).portid,
				       cb->nlh->nlmsg_seq, NLM_F_MULTI,
				       TERN_CMD_INSTANCE_GET, cb)) {
			idx--;
			break;
		}
	}
	mutex_unlock(&tn->lock);
	cb->args[0] = idx;
	return skb->len;
}

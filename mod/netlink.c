// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "tern": the configuration interface. Every
 * operation runs in the requesting socket's namespace, needs CAP_NET_ADMIN
 * over it, validates all its attributes before changing anything and says
 * why it refuses in an extack message.
 */

#include <linux/string.h>
#include <net/genetlink.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include "globals.h"
#include "instance.h"
#include "netlink.h"

const struct nla_policy tern_prefix6_policy[TERN_PREFIX_MAX + 1] = {
	[TERN_PREFIX_ADDR] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[TERN_PREFIX_LEN] = NLA_POLICY_MAX(NLA_U8, 128),
};

const struct nla_policy tern_prefix4_policy[TERN_PREFIX_MAX + 1] = {
	[TERN_PREFIX_ADDR] = NLA_POLICY_EXACT_LEN(sizeof(__be32)),
	[TERN_PREFIX_LEN] = NLA_POLICY_MAX(NLA_U8, 32),
};

/*
 * One policy per command: a request carries only what its command reads
 * (anything else is refused, with the kernel's message naming it). The
 * instance name's length is checked by the handlers, to say why a name is
 * refused.
 */
static const struct nla_policy tern_instance_add_policy[TERN_A_GLOBALS + 1] = {
	[TERN_A_INSTANCE] = { .type = NLA_NUL_STRING },
	[TERN_A_TYPE] = NLA_POLICY_RANGE(NLA_U8, TERN_TYPE_SIIT, TERN_TYPE_NAT64),
	[TERN_A_FRAMEWORK] = NLA_POLICY_RANGE(NLA_U8, TERN_FW_NETFILTER,
					      TERN_FW_IPTABLES),
	[TERN_A_POOL6] = NLA_POLICY_NESTED(tern_prefix6_policy),
	[TERN_A_GLOBALS] = NLA_POLICY_NESTED(tern_globals_policy),
};

/* Commands about one instance (by default the only one) and nothing else. */
static const struct nla_policy tern_instance_policy[TERN_A_INSTANCE + 1] = {
	[TERN_A_INSTANCE] = { .type = NLA_NUL_STRING },
};

/* The instance list is always whole. */
static const struct nla_policy tern_list_policy[TERN_A_INSTANCE + 1] = {
	[TERN_A_INSTANCE] = {
		.type = NLA_REJECT,
		.reject_message = "the instance list takes no instance name",
	},
};

static const struct nla_policy tern_global_set_policy[TERN_A_GLOBALS + 1] = {
	[TERN_A_INSTANCE] = { .type = NLA_NUL_STRING },
	[TERN_A_GLOBALS] = NLA_POLICY_NESTED(tern_globals_policy),
};

static const struct nla_policy tern_eam_req_policy[TERN_A_EAM + 1] = {
	[TERN_A_INSTANCE] = { .type = NLA_NUL_STRING },
	[TERN_A_EAM] = NLA_POLICY_NESTED(tern_eam_policy),
};

static const struct nla_policy tern_deny4_req_policy[TERN_A_PREFIX4 + 1] = {
	[TERN_A_INSTANCE] = { .type = NLA_NUL_STRING },
	[TERN_A_PREFIX4] = NLA_POLICY_NESTED(tern_prefix4_policy),
};

static const struct nla_policy tern_query_req_policy[TERN_A_ADDR + 1] = {
	[TERN_A_INSTANCE] = { .type = NLA_NUL_STRING },
	/* 4 or 16 bytes: checked by the handler, to say why. */
	[TERN_A_ADDR] = { .type = NLA_BINARY, .len = sizeof(struct in6_addr) },
};

/*
 * Reads a prefix nest into @addr (@alen bytes) and @len. Returns 1 for an
 * empty nest (an optional prefix unset), 0 for a prefix, or an error.
 */
int tern_nla_get_prefix(const struct nlattr *nla, void *addr, int alen,
			u8 *len, bool may_be_empty, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[TERN_PREFIX_MAX + 1];
	int ret;

	ret = nla_parse_nested(tb, TERN_PREFIX_MAX, nla,
			       alen == 4 ? tern_prefix4_policy :
					   tern_prefix6_policy, extack);
	if (ret)
		return ret;
	if (may_be_empty && !tb[TERN_PREFIX_ADDR] && !tb[TERN_PREFIX_LEN])
		return 1;
	if (!tb[TERN_PREFIX_ADDR] || !tb[TERN_PREFIX_LEN]) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "a prefix needs both an address and a length");
		return -EINVAL;
	}
	nla_memcpy(addr, tb[TERN_PREFIX_ADDR], alen);
	*len = nla_get_u8(tb[TERN_PREFIX_LEN]);
	return 0;
}

int tern_nla_put_prefix6(struct sk_buff *skb, int type,
			 const struct tern_prefix6 *p)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_in6_addr(skb, TERN_PREFIX_ADDR, &p->addr) ||
	    nla_put_u8(skb, TERN_PREFIX_LEN, p->len)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

int tern_nla_put_prefix4(struct sk_buff *skb, int type,
			 const struct tern_prefix4 *p)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_in_addr(skb, TERN_PREFIX_ADDR, p->addr) ||
	    nla_put_u8(skb, TERN_PREFIX_LEN, p->len)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static const char *tern_name_attr(struct genl_info *info)
{
	return info->attrs[TERN_A_INSTANCE] ?
	       nla_data(info->attrs[TERN_A_INSTANCE]) : NULL;
}

static int tern_nl_instance_add(struct sk_buff *skb, struct genl_info *info)
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
	if (type == TERN_TYPE_NAT64) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[TERN_A_TYPE],
				    "NAT64 instances are not supported yet");
		return -EOPNOTSUPP;
	}
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

	mutex_lock(&tn->lock);
	ret = tern_instance_add(net, name, type, framework, &cfg, info->extack);
	mutex_unlock(&tn->lock);
	return ret;
}

static int tern_nl_instance_del(struct sk_buff *skb, struct genl_info *info)
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

static int tern_nl_instance_dump(struct sk_buff *skb,
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

/* Replies with one message built by @fill for the instance named (or not). */
static int tern_nl_reply(struct genl_info *info, u8 cmd,
			 int (*fill)(struct sk_buff *, struct tern_instance *))
{
	struct tern_net *tn = tern_net(genl_info_net(info));
	struct tern_instance *inst;
	struct sk_buff *msg;
	void *hdr;
	int ret;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &tern_genl_family, 0, cmd);
	if (!hdr) {
		ret = -EMSGSIZE;
		goto err;
	}
	mutex_lock(&tn->lock);
	inst = tern_instance_find(tn, tern_name_attr(info), info->extack);
	if (IS_ERR(inst))
		ret = PTR_ERR(inst);
	else if (nla_put_string(msg, TERN_A_INSTANCE, inst->name))
		ret = -EMSGSIZE;
	else
		ret = fill(msg, inst);
	mutex_unlock(&tn->lock);
	if (ret)
		goto err;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err:
	nlmsg_free(msg);
	return ret;
}

static int tern_fill_globals(struct sk_buff *msg, struct tern_instance *inst)
{
	return tern_globals_put(msg, rcu_dereference_protected(inst->cfg, true));
}

static int tern_nl_global_get(struct sk_buff *skb, struct genl_info *info)
{
	return tern_nl_reply(info, TERN_CMD_GLOBAL_GET, tern_fill_globals);
}

static int tern_nl_global_set(struct sk_buff *skb, struct genl_info *info)
{
	struct tern_net *tn = tern_net(genl_info_net(info));
	struct tern_instance *inst;
	struct tern_config *cfg;
	int ret;

	if (tern_nl_missing(info, TERN_A_GLOBALS,
			    "missing the settings (TERN_A_GLOBALS)"))
		return -EINVAL;
	cfg = kmalloc(sizeof(*cfg), GFP_KERNEL_ACCOUNT);
	if (!cfg)
		return -ENOMEM;
	mutex_lock(&tn->lock);
	inst = tern_instance_find(tn, tern_name_attr(info), info->extack);
	if (IS_ERR(inst)) {
		ret = PTR_ERR(inst);
		goto out;
	}
	*cfg = *rcu_dereference_protected(inst->cfg, true);
	ret = tern_globals_apply(cfg, info->attrs[TERN_A_GLOBALS], info->extack);
	if (!ret) {
		tern_instance_set_config(inst, cfg);
		cfg = NULL;
	}
out:
	mutex_unlock(&tn->lock);
	kfree(cfg);
	return ret;
}

static int tern_fill_stats(struct sk_buff *msg, struct tern_instance *inst)
{
	u64 *cnt;
	struct nlattr *nest;
	int i, ret = 0;

	cnt = kmalloc_array(TERN_STAT_MAX + 1, sizeof(*cnt), GFP_KERNEL);
	if (!cnt)
		return -ENOMEM;
	tern_stats_sum(inst->stats, cnt);
	nest = nla_nest_start(msg, TERN_A_STATS);
	if (!nest) {
		ret = -EMSGSIZE;
		goto out;
	}
	for (i = TERN_STAT_PAD + 1; i <= TERN_STAT_MAX; i++) {
		if (nla_put_u64_64bit(msg, i, cnt[i], TERN_STAT_PAD)) {
			nla_nest_cancel(msg, nest);
			ret = -EMSGSIZE;
			goto out;
		}
	}
	nla_nest_end(msg, nest);
out:
	kfree(cnt);
	return ret;
}

static int tern_nl_stats_get(struct sk_buff *skb, struct genl_info *info)
{
	return tern_nl_reply(info, TERN_CMD_STATS_GET, tern_fill_stats);
}

/* Each command with its policy; maxattr follows from the policy's size. */
#define TERN_OP_POLICY(p) .policy = (p), .maxattr = ARRAY_SIZE(p) - 1

static const struct genl_ops tern_genl_ops[] = {
	{
		.cmd = TERN_CMD_INSTANCE_ADD,
		.doit = tern_nl_instance_add,
		TERN_OP_POLICY(tern_instance_add_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_INSTANCE_DEL,
		.doit = tern_nl_instance_del,
		TERN_OP_POLICY(tern_instance_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_INSTANCE_GET,
		.dumpit = tern_nl_instance_dump,
		TERN_OP_POLICY(tern_list_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_GLOBAL_GET,
		.doit = tern_nl_global_get,
		TERN_OP_POLICY(tern_instance_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_GLOBAL_SET,
		.doit = tern_nl_global_set,
		TERN_OP_POLICY(tern_global_set_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_STATS_GET,
		.doit = tern_nl_stats_get,
		TERN_OP_POLICY(tern_instance_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	/* nl_tables.c */
	{
		.cmd = TERN_CMD_EAMT_ADD,
		.doit = tern_nl_eamt_add,
		TERN_OP_POLICY(tern_eam_req_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_EAMT_DEL,
		.doit = tern_nl_eamt_del,
		TERN_OP_POLICY(tern_eam_req_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_EAMT_GET,
		.dumpit = tern_nl_eamt_dump,
		TERN_OP_POLICY(tern_instance_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_EAMT_FLUSH,
		.doit = tern_nl_eamt_flush,
		TERN_OP_POLICY(tern_instance_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_DENY4_ADD,
		.doit = tern_nl_deny4_add,
		TERN_OP_POLICY(tern_deny4_req_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_DENY4_DEL,
		.doit = tern_nl_deny4_del,
		TERN_OP_POLICY(tern_deny4_req_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_DENY4_GET,
		.dumpit = tern_nl_deny4_dump,
		TERN_OP_POLICY(tern_instance_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_DENY4_FLUSH,
		.doit = tern_nl_deny4_flush,
		TERN_OP_POLICY(tern_instance_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_ADDR_QUERY,
		.doit = tern_nl_addr_query,
		TERN_OP_POLICY(tern_query_req_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
};

struct genl_family tern_genl_family __ro_after_init = {
	.name = TERN_GENL_NAME,
	.version = TERN_GENL_VERSION,
	.netnsok = true,
	.module = THIS_MODULE,
	.ops = tern_genl_ops,
	.n_ops = ARRAY_SIZE(tern_genl_ops),
};

int __init tern_genl_init(void)
{
	int ret = tern_globals_init();

	if (ret)
		return ret;
	return genl_register_family(&tern_genl_family);
}

void tern_genl_exit(void)
{
	genl_unregister_family(&tern_genl_family);
}

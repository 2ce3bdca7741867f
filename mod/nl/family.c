// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "tern": the configuration interface. Every
 * operation runs in the requesting socket's namespace, needs CAP_NET_ADMIN
 * over it, validates all its attributes before changing anything and says
 * why it refuses in an extack message.
 */

#include <net/genetlink.h>
#include <net/ipv6.h>
#include "nl/common.h"
#include "nl/globals.h"
#include "nl/nat64.h"
#include "nl/netlink.h"

/*
 * One policy per command: a request carries only what its command reads
 * (anything else is refused, with the kernel's message naming it). The
 * instance name's length is checked by the handlers, to say why a name is
 * refused.
 */
const struct nla_policy tern_instance_add_policy[TERN_A_GLOBALS + 1] = {
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

static const struct nla_policy tern_pool4_req_policy[TERN_A_POOL4 + 1] = {
	[TERN_A_INSTANCE] = { .type = NLA_NUL_STRING },
	[TERN_A_POOL4] = NLA_POLICY_NESTED(tern_pool4_policy),
};

static const struct nla_policy tern_query_req_policy[TERN_A_ADDR + 1] = {
	[TERN_A_INSTANCE] = { .type = NLA_NUL_STRING },
	/* 4 or 16 bytes: checked by the handler, to say why. */
	[TERN_A_ADDR] = { .type = NLA_BINARY, .len = sizeof(struct in6_addr) },
};

/* NAT64 instances only: BIB entries and sessions (nl/bib.c, nl/session.c). */
static const struct nla_policy tern_bib_req_policy[TERN_A_BIB + 1] = {
	[TERN_A_INSTANCE] = { .type = NLA_NUL_STRING },
	[TERN_A_BIB] = NLA_POLICY_NESTED(tern_bib_policy),
};

/* Flushes of sessions: one protocol or all. */
static const struct nla_policy tern_nat64_proto_policy[TERN_A_PROTO + 1] = {
	[TERN_A_INSTANCE] = { .type = NLA_NUL_STRING },
	[TERN_A_PROTO] = NLA_POLICY_VALIDATE_FN(NLA_BINARY, tern_nla_validate_proto, 1),
};

/* Dumps of BIB entries or sessions: one protocol or all, and a filter. */
static const struct nla_policy tern_nat64_dump_policy[TERN_A_FILTER + 1] = {
	[TERN_A_INSTANCE] = { .type = NLA_NUL_STRING },
	[TERN_A_PROTO] = NLA_POLICY_VALIDATE_FN(NLA_BINARY, tern_nla_validate_proto, 1),
	[TERN_A_FILTER] = NLA_POLICY_NESTED(tern_filter_policy),
};

/* The version carries nothing; anyone may ask (it tells nothing private). */
static const struct nla_policy tern_version_policy[TERN_A_INSTANCE + 1] = {
	[TERN_A_INSTANCE] = {
		.type = NLA_REJECT,
		.reject_message = "the version takes no instance name",
	},
};

static int tern_nl_version(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &tern_genl_family, 0,
				TERN_CMD_VERSION);
	if (!hdr || nla_put_string(msg, TERN_A_VERSION, TERN_VERSION) ||
	    nla_put_u32(msg, TERN_A_API_VERSION, TERN_GENL_API_VERSION)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/*
 * The whole configuration (nl/config.c): instances, each followed by its
 * entries, as many as the message holds.
 */
static const struct nla_policy tern_config_policy[TERN_A_CONFIG + 1] = {
	[TERN_A_CONFIG] = NLA_POLICY_NESTED(tern_instance_add_policy),
	[TERN_A_EAM] = NLA_POLICY_NESTED(tern_eam_policy),
	[TERN_A_PREFIX4] = NLA_POLICY_NESTED(tern_prefix4_policy),
	[TERN_A_POOL4] = NLA_POLICY_NESTED(tern_pool4_policy),
	[TERN_A_BIB] = NLA_POLICY_NESTED(tern_bib_policy),
};

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
	/* nl/bib.c, nl/session.c */
	{
		.cmd = TERN_CMD_BIB_ADD,
		.doit = tern_nl_bib_add,
		TERN_OP_POLICY(tern_bib_req_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_BIB_DEL,
		.doit = tern_nl_bib_del,
		TERN_OP_POLICY(tern_bib_req_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_BIB_GET,
		.dumpit = tern_nl_bib_dump,
		TERN_OP_POLICY(tern_nat64_dump_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_SESSION_GET,
		.dumpit = tern_nl_session_dump,
		TERN_OP_POLICY(tern_nat64_dump_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_SESSION_FLUSH,
		.doit = tern_nl_session_flush,
		TERN_OP_POLICY(tern_nat64_proto_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_POOL4_ADD,
		.doit = tern_nl_pool4_add,
		TERN_OP_POLICY(tern_pool4_req_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_POOL4_DEL,
		.doit = tern_nl_pool4_del,
		TERN_OP_POLICY(tern_pool4_req_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_POOL4_GET,
		.dumpit = tern_nl_pool4_dump,
		TERN_OP_POLICY(tern_instance_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_POOL4_FLUSH,
		.doit = tern_nl_pool4_flush,
		TERN_OP_POLICY(tern_instance_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = TERN_CMD_VERSION,
		.doit = tern_nl_version,
		TERN_OP_POLICY(tern_version_policy),
	},
	{
		.cmd = TERN_CMD_CONFIG_APPLY,
		.doit = tern_nl_config_apply,
		TERN_OP_POLICY(tern_config_policy),
		.flags = GENL_UNS_ADMIN_PERM,
	},
};

/* Events tell where subscribers' flows went: only for administrators. */
static const struct genl_multicast_group tern_genl_mcgrps[] = {
	[TERN_MCGRP_EVENTS] = {
		.name = TERN_GENL_MCGRP_EVENTS,
#ifdef GENL_MCAST_CAP_NET_ADMIN
		.flags = GENL_MCAST_CAP_NET_ADMIN,
#endif
	},
};

struct genl_family tern_genl_family __ro_after_init = {
	.name = TERN_GENL_NAME,
	.version = TERN_GENL_API_VERSION,
	.netnsok = true,
	.module = THIS_MODULE,
	.ops = tern_genl_ops,
	.n_ops = ARRAY_SIZE(tern_genl_ops),
	.mcgrps = tern_genl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(tern_genl_mcgrps),
};

bool tern_genl_live;

int __init tern_genl_init(void)
{
	int ret = tern_globals_init();

	if (ret)
		return ret;
#ifndef GENL_MCAST_CAP_NET_ADMIN
	/* Older than 6.7 and its stable backports: any user may listen. */
	pr_notice("tern: this kernel lets any user join the events group (no GENL_MCAST_CAP_NET_ADMIN)\n");
#endif
	ret = genl_register_family(&tern_genl_family);
	if (!ret)
		WRITE_ONCE(tern_genl_live, true);
	return ret;
}

void tern_genl_exit(void)
{
	/*
	 * The instances outlive the family at unload (their packets and
	 * workers send events until the namespaces' exits): no event may go
	 * to the group number once it is free for another family to take.
	 */
	WRITE_ONCE(tern_genl_live, false);
	synchronize_rcu();
	genl_unregister_family(&tern_genl_family);
}

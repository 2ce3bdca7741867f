// SPDX-License-Identifier: GPL-2.0
/*
 * What the command files of the netlink family share: the prefix and EAM
 * policies, prefix attributes both ways, formatted extack messages, the
 * instance a request names, replies about one instance, table flushes and
 * dumps.
 */

#include <linux/kernel.h>
#include <net/genetlink.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include "core/compat.h"
#include "core/instance.h"
#include "siit/eamt.h"
#include "nl/common.h"
#include "nl/netlink.h"

const struct nla_policy tern_prefix6_policy[TERN_PREFIX_MAX + 1] = {
	[TERN_PREFIX_ADDR] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[TERN_PREFIX_LEN] = NLA_POLICY_MAX(NLA_U8, 128),
};

const struct nla_policy tern_prefix4_policy[TERN_PREFIX_MAX + 1] = {
	[TERN_PREFIX_ADDR] = NLA_POLICY_EXACT_LEN(sizeof(__be32)),
	[TERN_PREFIX_LEN] = NLA_POLICY_MAX(NLA_U8, 32),
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

/* A prefix nest of @addr (@alen bytes) and @len: 0 or -EMSGSIZE. */
int tern_nla_put_prefix(struct sk_buff *skb, int type, const void *addr,
			int alen, u8 len)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put(skb, TERN_PREFIX_ADDR, alen, addr) ||
	    nla_put_u8(skb, TERN_PREFIX_LEN, len)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

int tern_nla_put_prefix6(struct sk_buff *skb, int type,
			 const struct tern_prefix6 *p)
{
	return tern_nla_put_prefix(skb, type, &p->addr, sizeof(p->addr), p->len);
}

int tern_nla_put_prefix4(struct sk_buff *skb, int type,
			 const struct tern_prefix4 *p)
{
	return tern_nla_put_prefix(skb, type, &p->addr, sizeof(p->addr), p->len);
}

const char *tern_name_attr(struct genl_info *info)
{
	return info->attrs[TERN_A_INSTANCE] ?
	       nla_data(info->attrs[TERN_A_INSTANCE]) : NULL;
}

/*
 * Replies with one message for the instance named (or not): its name, then
 * what @fill adds about it.
 */
int tern_nl_reply(struct genl_info *info, u8 cmd,
		  int (*fill)(struct sk_buff *msg, struct tern_instance *inst,
			      struct genl_info *info))
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
		ret = fill(msg, inst, info);
	mutex_unlock(&tn->lock);
	if (ret)
		goto err;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err:
	nlmsg_free(msg);
	return ret;
}

/*
 * An extack message naming an entry (at most TERN_EXTACK_LEN - 1 bytes).
 * Kernels before 6.3 have no buffer in the extack, and the ack is built
 * after the handler returns: there the text lives in the namespace, in
 * slots reused round-robin under its lock, so a message is overwritten
 * only after eight later ones.
 */
__printf(3, 4) void tern_extack_fmt(struct tern_net *tn,
					   struct netlink_ext_ack *extack,
					   const char *fmt, ...)
{
	va_list ap;
#ifdef NL_SET_ERR_MSG_FMT
	char buf[TERN_EXTACK_LEN];
#else
	char *buf;

	lockdep_assert_held(&tn->lock);
	buf = tn->msg[tn->msg_next++ % ARRAY_SIZE(tn->msg)];
#endif
	if (!extack)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, TERN_EXTACK_LEN, fmt, ap);
	va_end(ap);
#ifdef NL_SET_ERR_MSG_FMT
	NL_SET_ERR_MSG_FMT(extack, "%s", buf);
#else
	extack->_msg = buf;
#endif
}

/* The instance a request names, or the only one. Under tn->lock. */
struct tern_instance *tern_nl_instance(struct tern_net *tn,
					      struct nlattr **attrs,
					      struct netlink_ext_ack *extack)
{
	const char *name = attrs[TERN_A_INSTANCE] ?
			   nla_data(attrs[TERN_A_INSTANCE]) : NULL;

	return tern_instance_find(tn, name, extack);
}

int tern_nla_get_prefix4(const struct nlattr *nla,
				struct tern_prefix4 *p,
				struct netlink_ext_ack *extack)
{
	return tern_nla_get_prefix(nla, &p->addr, sizeof(p->addr), &p->len,
				   false, extack);
}

int tern_nla_get_prefix6(const struct nlattr *nla,
				struct tern_prefix6 *p,
				struct netlink_ext_ack *extack)
{
	return tern_nla_get_prefix(nla, &p->addr, sizeof(p->addr), &p->len,
				   false, extack);
}

int tern_nl_siit_only(struct tern_instance *inst,
		      struct netlink_ext_ack *extack)
{
	if (inst->type == TERN_TYPE_SIIT)
		return 0;
	NL_SET_ERR_MSG(extack, "the EAMT and denylist4 are for SIIT instances (NAT64 maps by pool6 and pool4)");
	return -EINVAL;
}

/* Empties a table of the request's instance, under the lock. */
int tern_nl_table_flush(struct genl_info *info, const struct tern_nl_table *tbl)
{
	struct tern_net *tn = tern_net(genl_info_net(info));
	struct tern_instance *inst;
	int ret;

	mutex_lock(&tn->lock);
	inst = tern_nl_instance(tn, info->attrs, info->extack);
	ret = PTR_ERR_OR_ZERO(inst);
	if (!ret && tbl->check)
		ret = tbl->check(inst, info->extack);
	if (!ret)
		ret = tbl->publish(tn, inst, NULL);
	mutex_unlock(&tn->lock);
	return ret;
}

/* One message per entry of a table, from cb->args[0] on. */
int tern_nl_table_dump(struct sk_buff *skb, struct netlink_callback *cb,
		       const struct tern_nl_table *tbl)
{
	struct tern_net *tn = tern_net(sock_net(skb->sk));
	struct tern_instance *inst;
	u32 i = cb->args[0];
	void *hdr;
	int ret;

	mutex_lock(&tn->lock);
	inst = tern_nl_instance(tn, tern_dump_attrs(cb), cb->extack);
	if (IS_ERR(inst)) {
		ret = PTR_ERR(inst);
		goto out;
	}
	if (tbl->check) {
		ret = tbl->check(inst, cb->extack);
		if (ret)
			goto out;
	}
	/* Both counters only grow: their sum changes with either. */
	cb->seq = tn->gen + tn->tables_gen;
	for (;; i++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &tern_genl_family,
				  NLM_F_MULTI, tbl->get_cmd);
		if (!hdr)
			break;
		genl_dump_check_consistent(cb, hdr);
		ret = tbl->put(skb, tn, inst, i);
		if (ret) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = i;
	ret = skb->len;
out:
	mutex_unlock(&tn->lock);
	return ret;
}

const struct nla_policy tern_eam_policy[TERN_EAM_MAX + 1] = {
	[TERN_EAM_PREFIX6] = NLA_POLICY_NESTED(tern_prefix6_policy),
	[TERN_EAM_PREFIX4] = NLA_POLICY_NESTED(tern_prefix4_policy),
	[TERN_EAM_FORCE] = { .type = NLA_FLAG },
};

int tern_nla_put_eam(struct sk_buff *skb, int type,
		     const struct tern_eam *e, bool overlaps)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (!nest)
		return -EMSGSIZE;
	if (tern_nla_put_prefix6(skb, TERN_EAM_PREFIX6, &e->p6) ||
	    tern_nla_put_prefix4(skb, TERN_EAM_PREFIX4, &e->p4) ||
	    (overlaps && nla_put_flag(skb, TERN_EAM_FORCE))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink commands of the address tables: the EAMT, denylist4 and address
 * queries. Changes build a new table under the namespace lock and publish
 * it with RCU (all or nothing); GET commands are dumps, one message per
 * entry, flagged inconsistent if a table changes between their parts.
 */

#include <linux/kernel.h>
#include <linux/inetdevice.h>
#include <net/addrconf.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include "compat.h"
#include "denylist4.h"
#include "eamt.h"
#include "instance.h"
#include "mapping.h"
#include "netlink.h"
#include "prefix.h"

const struct nla_policy tern_eam_policy[TERN_EAM_MAX + 1] = {
	[TERN_EAM_PREFIX6] = NLA_POLICY_NESTED(tern_prefix6_policy),
	[TERN_EAM_PREFIX4] = NLA_POLICY_NESTED(tern_prefix4_policy),
};

/*
 * An extack message naming an entry (at most TERN_EXTACK_LEN - 1 bytes).
 * Kernels before 6.3 have no buffer in the extack, and the ack is built
 * after the handler returns: there the text lives in the namespace, in
 * slots reused round-robin under its lock, so a message is overwritten
 * only after eight later ones.
 */
static __printf(3, 4) void tern_extack_fmt(struct tern_net *tn,
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
static struct tern_instance *tern_nl_instance(struct tern_net *tn,
					      struct nlattr **attrs,
					      struct netlink_ext_ack *extack)
{
	const char *name = attrs[TERN_A_INSTANCE] ?
			   nla_data(attrs[TERN_A_INSTANCE]) : NULL;

	return tern_instance_find(tn, name, extack);
}

static int tern_nla_get_prefix4(const struct nlattr *nla,
				struct tern_prefix4 *p,
				struct netlink_ext_ack *extack)
{
	return tern_nla_get_prefix(nla, &p->addr, sizeof(p->addr), &p->len,
				   false, extack);
}

static int tern_nla_get_prefix6(const struct nlattr *nla,
				struct tern_prefix6 *p,
				struct netlink_ext_ack *extack)
{
	return tern_nla_get_prefix(nla, &p->addr, sizeof(p->addr), &p->len,
				   false, extack);
}

/* A TERN_A_EAM nest: either prefix may be absent (*@has6, *@has4). */
static int tern_nla_get_eam(const struct nlattr *nla, struct tern_eam *e,
			    bool *has6, bool *has4,
			    struct netlink_ext_ack *extack)
{
	struct nlattr *tb[TERN_EAM_MAX + 1];
	int ret;

	memset(e, 0, sizeof(*e));
	ret = nla_parse_nested(tb, TERN_EAM_MAX, nla, tern_eam_policy, extack);
	if (ret)
		return ret;
	*has6 = tb[TERN_EAM_PREFIX6];
	*has4 = tb[TERN_EAM_PREFIX4];
	if (*has6) {
		ret = tern_nla_get_prefix6(tb[TERN_EAM_PREFIX6], &e->p6, extack);
		if (ret)
			return ret;
	}
	if (*has4)
		ret = tern_nla_get_prefix4(tb[TERN_EAM_PREFIX4], &e->p4, extack);
	return ret;
}

static int tern_nla_put_eam(struct sk_buff *skb, int type,
			    const struct tern_eam *e)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (!nest)
		return -EMSGSIZE;
	if (tern_nla_put_prefix6(skb, TERN_EAM_PREFIX6, &e->p6) ||
	    tern_nla_put_prefix4(skb, TERN_EAM_PREFIX4, &e->p4)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

#define tern_protected(tn, p) rcu_dereference_protected(p, lockdep_is_held(&(tn)->lock))

/* The EAMT */

static void tern_eamt_publish(struct tern_net *tn, struct tern_instance *inst,
			      struct tern_eamt *t)
{
	tern_eamt_free_rcu(rcu_replace_pointer(inst->eamt, t,
					       lockdep_is_held(&tn->lock)));
	tn->tables_gen++;
}

static void tern_eamt_refusal(struct tern_net *tn, int err,
			      const struct tern_eam *e,
			      const struct tern_eam *c, bool c4,
			      struct netlink_ext_ack *extack)
{
	if (err == -ENOSPC) {
		NL_SET_ERR_MSG(extack, "the EAMT is full (65536 entries)");
	} else if (err == -EEXIST && tern_prefix6_equal(&c->p6, &e->p6) &&
		   tern_prefix4_equal(&c->p4, &e->p4)) {
		NL_SET_ERR_MSG(extack, "this EAMT entry already exists");
	} else if (err == -EEXIST) {
		tern_extack_fmt(tn, extack,
				"the %s prefix overlaps EAMT entry %pI6c/%u %pI4/%u",
				c4 ? "IPv4" : "IPv6", &c->p6.addr, c->p6.len,
				&c->p4.addr, c->p4.len);
	}
}

int tern_nl_eamt_add(struct sk_buff *skb, struct genl_info *info)
{
	struct tern_net *tn = tern_net(genl_info_net(info));
	struct nlattr *attr = info->attrs[TERN_A_EAM];
	const struct tern_eam *conflict;
	struct tern_instance *inst;
	struct tern_eamt *t;
	struct tern_eam e;
	bool has6, has4, c4;
	int ret;

	if (tern_nl_missing(info, TERN_A_EAM,
			    "missing the EAMT entry (TERN_A_EAM)"))
		return -EINVAL;
	ret = tern_nla_get_eam(attr, &e, &has6, &has4, info->extack);
	if (ret)
		return ret;
	if (!has6 || !has4) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "an EAMT entry needs an IPv6 and an IPv4 prefix");
		return -EINVAL;
	}
	ret = tern_eam_validate(&e, info->extack);
	if (ret) {
		NL_SET_BAD_ATTR(info->extack, attr);
		return ret;
	}

	mutex_lock(&tn->lock);
	inst = tern_nl_instance(tn, info->attrs, info->extack);
	if (IS_ERR(inst)) {
		ret = PTR_ERR(inst);
		goto out;
	}
	t = tern_eamt_add(tern_protected(tn, inst->eamt), &e, &conflict, &c4);
	if (IS_ERR(t)) {
		ret = PTR_ERR(t);
		tern_eamt_refusal(tn, ret, &e, conflict, c4, info->extack);
		goto out;
	}
	tern_eamt_publish(tn, inst, t);
out:
	mutex_unlock(&tn->lock);
	return ret;
}

int tern_nl_eamt_del(struct sk_buff *skb, struct genl_info *info)
{
	struct tern_net *tn = tern_net(genl_info_net(info));
	struct nlattr *attr = info->attrs[TERN_A_EAM];
	struct tern_instance *inst;
	struct tern_eamt *t;
	struct tern_eam e;
	bool has6, has4;
	int ret;

	if (tern_nl_missing(info, TERN_A_EAM,
			    "missing the EAMT entry (TERN_A_EAM)"))
		return -EINVAL;
	ret = tern_nla_get_eam(attr, &e, &has6, &has4, info->extack);
	if (ret)
		return ret;
	if (!has6 && !has4) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "name the EAMT entry by its IPv6 or IPv4 prefix");
		return -EINVAL;
	}

	mutex_lock(&tn->lock);
	inst = tern_nl_instance(tn, info->attrs, info->extack);
	if (IS_ERR(inst)) {
		ret = PTR_ERR(inst);
		goto out;
	}
	t = tern_eamt_del(tern_protected(tn, inst->eamt), has6 ? &e.p6 : NULL,
			  has4 ? &e.p4 : NULL, info->extack);
	if (IS_ERR(t)) {
		ret = PTR_ERR(t);
		goto out;
	}
	tern_eamt_publish(tn, inst, t);
out:
	mutex_unlock(&tn->lock);
	return ret;
}

/* Empties a table of the request's instance with @clear, under the lock. */
static int tern_nl_table_flush(struct genl_info *info,
			       void (*clear)(struct tern_net *tn,
					     struct tern_instance *inst))
{
	struct tern_net *tn = tern_net(genl_info_net(info));
	struct tern_instance *inst;

	mutex_lock(&tn->lock);
	inst = tern_nl_instance(tn, info->attrs, info->extack);
	if (!IS_ERR(inst))
		clear(tn, inst);
	mutex_unlock(&tn->lock);
	return PTR_ERR_OR_ZERO(inst);
}

static void tern_eamt_clear(struct tern_net *tn, struct tern_instance *inst)
{
	tern_eamt_publish(tn, inst, NULL);
}

int tern_nl_eamt_flush(struct sk_buff *skb, struct genl_info *info)
{
	return tern_nl_table_flush(info, tern_eamt_clear);
}

/*
 * One message per entry from cb->args[0] on. @put adds entry @i and
 * returns 1 past the end, 0 when added, or -EMSGSIZE.
 */
static int tern_nl_table_dump(struct sk_buff *skb, struct netlink_callback *cb,
			      u8 cmd,
			      int (*put)(struct sk_buff *skb,
					 struct tern_instance *inst, u32 i))
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
	/* Both counters only grow: their sum changes with either. */
	cb->seq = tn->gen + tn->tables_gen;
	for (;; i++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &tern_genl_family,
				  NLM_F_MULTI, cmd);
		if (!hdr)
			break;
		genl_dump_check_consistent(cb, hdr);
		ret = put(skb, inst, i);
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

static int tern_eamt_put(struct sk_buff *skb, struct tern_instance *inst,
			 u32 i)
{
	struct tern_net *tn = tern_net(inst->net);
	const struct tern_eam *e;

	e = tern_eamt_entry(tern_protected(tn, inst->eamt), i);
	if (!e)
		return 1;
	return tern_nla_put_eam(skb, TERN_A_EAM, e);
}

int tern_nl_eamt_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	return tern_nl_table_dump(skb, cb, TERN_CMD_EAMT_GET, tern_eamt_put);
}

/* denylist4 */

static void tern_deny4_publish(struct tern_net *tn, struct tern_instance *inst,
			       struct tern_deny4 *d)
{
	tern_deny4_free_rcu(rcu_replace_pointer(inst->deny4, d,
						lockdep_is_held(&tn->lock)));
	tn->tables_gen++;
}

static int tern_nl_deny4_change(struct genl_info *info, bool add)
{
	struct tern_net *tn = tern_net(genl_info_net(info));
	struct nlattr *attr = info->attrs[TERN_A_PREFIX4];
	const struct tern_prefix4 *c;
	struct tern_instance *inst;
	struct tern_prefix4 p;
	struct tern_deny4 *d, *old;
	int ret;

	if (tern_nl_missing(info, TERN_A_PREFIX4,
			    "missing the IPv4 prefix (TERN_A_PREFIX4)"))
		return -EINVAL;
	ret = tern_nla_get_prefix4(attr, &p, info->extack);
	if (ret)
		return ret;
	if (!tern_prefix_host_bits_clear(&p.addr, 32, p.len)) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "the prefix has bits set after its length");
		return -EINVAL;
	}

	mutex_lock(&tn->lock);
	inst = tern_nl_instance(tn, info->attrs, info->extack);
	if (IS_ERR(inst)) {
		ret = PTR_ERR(inst);
		goto out;
	}
	old = tern_protected(tn, inst->deny4);
	d = add ? tern_deny4_add(old, &p, &c) : tern_deny4_del(old, &p);
	ret = PTR_ERR_OR_ZERO(d);
	if (ret == -ENOENT)
		NL_SET_ERR_MSG(info->extack, "this prefix is not in denylist4");
	else if (ret == -ENOSPC)
		NL_SET_ERR_MSG(info->extack, "denylist4 is full (65536 prefixes)");
	else if (ret == -EEXIST && tern_prefix4_equal(c, &p))
		NL_SET_ERR_MSG(info->extack, "this prefix is already in denylist4");
	else if (ret == -EEXIST)
		tern_extack_fmt(tn, info->extack,
				"the prefix overlaps denylist4 entry %pI4/%u",
				&c->addr, c->len);
	if (!ret)
		tern_deny4_publish(tn, inst, d);
out:
	mutex_unlock(&tn->lock);
	return ret;
}

int tern_nl_deny4_add(struct sk_buff *skb, struct genl_info *info)
{
	return tern_nl_deny4_change(info, true);
}

int tern_nl_deny4_del(struct sk_buff *skb, struct genl_info *info)
{
	return tern_nl_deny4_change(info, false);
}

static void tern_deny4_clear(struct tern_net *tn, struct tern_instance *inst)
{
	tern_deny4_publish(tn, inst, NULL);
}

int tern_nl_deny4_flush(struct sk_buff *skb, struct genl_info *info)
{
	return tern_nl_table_flush(info, tern_deny4_clear);
}

static int tern_deny4_put(struct sk_buff *skb, struct tern_instance *inst,
			  u32 i)
{
	struct tern_net *tn = tern_net(inst->net);
	const struct tern_prefix4 *p;

	p = tern_deny4_entry(tern_protected(tn, inst->deny4), i);
	if (!p)
		return 1;
	return tern_nla_put_prefix4(skb, TERN_A_PREFIX4, p);
}

int tern_nl_deny4_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	return tern_nl_table_dump(skb, cb, TERN_CMD_DENY4_GET, tern_deny4_put);
}

/* Address queries */

static int tern_query_put(struct sk_buff *msg, int alen,
			  const struct tern_map_answer *ans,
			  const struct tern_prefix6 *pool6, bool local)
{
	struct nlattr *nest = nla_nest_start(msg, TERN_A_QUERY);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(msg, TERN_Q_VIA, ans->via) ||
	    (local && nla_put_flag(msg, TERN_Q_LOCAL)))
		goto err;
	if (ans->via == TERN_VIA_NONE) {
		if (nla_put_u8(msg, TERN_Q_WHY, ans->why))
			goto err;
	} else if (nla_put(msg, TERN_Q_ADDR, alen == 4 ? 16 : 4, &ans->out)) {
		goto err;
	}
	if (ans->via == TERN_VIA_EAMT &&
	    tern_nla_put_eam(msg, TERN_Q_EAM, &ans->eam))
		goto err;
	if (ans->via == TERN_VIA_POOL6 &&
	    tern_nla_put_prefix6(msg, TERN_Q_POOL6, pool6))
		goto err;
	nla_nest_end(msg, nest);
	return 0;
err:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

int tern_nl_addr_query(struct sk_buff *skb, struct genl_info *info)
{
	struct tern_net *tn = tern_net(genl_info_net(info));
	struct nlattr *attr = info->attrs[TERN_A_ADDR];
	const struct tern_config *cfg;
	struct tern_instance *inst;
	struct tern_map_answer ans;
	struct tern_prefix6 pool6;
	struct sk_buff *msg;
	void *hdr;
	int alen, ret;
	bool local;

	if (tern_nl_missing(info, TERN_A_ADDR,
			    "missing the address (TERN_A_ADDR)"))
		return -EINVAL;
	alen = nla_len(attr);
	if (alen != 4 && alen != 16) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "an address has 4 (IPv4) or 16 (IPv6) bytes");
		return -EINVAL;
	}
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &tern_genl_family, 0,
				TERN_CMD_ADDR_QUERY);
	if (!hdr) {
		ret = -EMSGSIZE;
		goto err;
	}

	mutex_lock(&tn->lock);
	inst = tern_nl_instance(tn, info->attrs, info->extack);
	if (IS_ERR(inst)) {
		mutex_unlock(&tn->lock);
		ret = PTR_ERR(inst);
		goto err;
	}
	rcu_read_lock();
	cfg = tern_instance_config(inst);
	/* The packet path lets packets to the host's own addresses pass. */
	if (alen == 16) {
		tern_map_explain6(inst, cfg, nla_data(attr), &ans);
		local = ipv6_chk_addr(inst->net, nla_data(attr), NULL, 0);
	} else {
		tern_map_explain4(inst, cfg, nla_get_in_addr(attr), &ans);
		local = __ip_dev_find(inst->net, nla_get_in_addr(attr), false);
	}
	pool6 = cfg->pool6;
	rcu_read_unlock();
	ret = nla_put_string(msg, TERN_A_INSTANCE, inst->name) ? -EMSGSIZE :
	      tern_query_put(msg, alen, &ans, &pool6, local);
	mutex_unlock(&tn->lock);
	if (ret)
		goto err;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err:
	nlmsg_free(msg);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink commands of the EAMT (RFC 7757): add, remove, flush, list.
 * Changes build a new table under the namespace lock and publish it with
 * RCU (all or nothing); GET commands are dumps, one message per entry,
 * flagged inconsistent if a table changes between their parts.
 */

#include <linux/kernel.h>
#include <linux/inetdevice.h>
#include <net/addrconf.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include "core/compat.h"
#include "core/instance.h"
#include "siit/denylist4.h"
#include "siit/eamt.h"
#include "siit/mapping.h"
#include "siit/prefix.h"
#include "nl/common.h"
#include "nl/netlink.h"

/*
 * The request's TERN_A_EAM nest, which it must have: either prefix may be
 * absent (*@has6, *@has4).
 */
static int tern_nl_get_eam(struct genl_info *info, struct tern_eam *e,
			   bool *has6, bool *has4, bool *force)
{
	struct nlattr *tb[TERN_EAM_MAX + 1];
	int ret;

	if (tern_nl_missing(info, TERN_A_EAM,
			    "missing the EAMT entry (TERN_A_EAM)"))
		return -EINVAL;
	memset(e, 0, sizeof(*e));
	ret = nla_parse_nested(tb, TERN_EAM_MAX, info->attrs[TERN_A_EAM],
			       tern_eam_policy, info->extack);
	if (ret)
		return ret;
	*has6 = tb[TERN_EAM_PREFIX6];
	*has4 = tb[TERN_EAM_PREFIX4];
	*force = tb[TERN_EAM_FORCE];
	if (*has6) {
		ret = tern_nla_get_prefix6(tb[TERN_EAM_PREFIX6], &e->p6,
					   info->extack);
		if (ret)
			return ret;
	}
	if (*has4)
		ret = tern_nla_get_prefix4(tb[TERN_EAM_PREFIX4], &e->p4,
					   info->extack);
	return ret;
}

/* Replaces the EAMT of @inst with @t (NULL: empty): struct tern_nl_table. */
static int tern_eamt_publish(struct tern_net *tn, struct tern_instance *inst,
			     void *t)
{
	struct tern_config *cfg = tern_instance_config_dup(inst);
	struct tern_eamt *old;

	if (!cfg) {
		tern_eamt_free(t);
		return -ENOMEM;
	}
	old = rcu_replace_pointer(inst->eamt, t, lockdep_is_held(&tn->lock));
	tern_instance_set_config(inst, cfg);
	tern_eamt_free_rcu(old);
	tn->tables_gen++;
	return 0;
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
	} else if (err == -EEXIST && (c4 ? tern_prefix4_equal(&c->p4, &e->p4) :
				      tern_prefix6_equal(&c->p6, &e->p6))) {
		tern_extack_fmt(tn, extack,
				"the %s prefix is taken by EAMT entry %pI6c/%u %pI4/%u",
				c4 ? "IPv4" : "IPv6", &c->p6.addr, c->p6.len,
				&c->p4.addr, c->p4.len);
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
	bool has6, has4, c4, force;
	int ret;

	ret = tern_nl_get_eam(info, &e, &has6, &has4, &force);
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
	ret = PTR_ERR_OR_ZERO(inst) ?: tern_nl_siit_only(inst, info->extack);
	if (ret)
		goto out;
	t = tern_eamt_add(tern_protected(tn, inst->eamt), &e, force, &conflict,
			  &c4);
	if (IS_ERR(t)) {
		ret = PTR_ERR(t);
		tern_eamt_refusal(tn, ret, &e, conflict, c4, info->extack);
		goto out;
	}
	ret = tern_eamt_publish(tn, inst, t);
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
	bool has6, has4, force;
	int ret;

	ret = tern_nl_get_eam(info, &e, &has6, &has4, &force);
	if (ret)
		return ret;
	if (!has6 && !has4) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "name the EAMT entry by its IPv6 or IPv4 prefix");
		return -EINVAL;
	}
	if (force) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "force is for adding an EAMT entry");
		return -EINVAL;
	}

	mutex_lock(&tn->lock);
	inst = tern_nl_instance(tn, info->attrs, info->extack);
	ret = PTR_ERR_OR_ZERO(inst) ?: tern_nl_siit_only(inst, info->extack);
	if (ret)
		goto out;
	t = tern_eamt_del(tern_protected(tn, inst->eamt), has6 ? &e.p6 : NULL,
			  has4 ? &e.p4 : NULL, info->extack);
	if (IS_ERR(t)) {
		ret = PTR_ERR(t);
		goto out;
	}
	ret = tern_eamt_publish(tn, inst, t);
out:
	mutex_unlock(&tn->lock);
	return ret;
}

static int tern_eamt_put(struct sk_buff *skb, struct tern_net *tn,
			 struct tern_instance *inst, u32 i)
{
	const struct tern_eamt *t = tern_protected(tn, inst->eamt);
	const struct tern_eam *e = tern_eamt_entry(t, i);

	return e ? tern_nla_put_eam(skb, TERN_A_EAM, e,
				    tern_eamt_overlaps(t, i)) : 1;
}

static const struct tern_nl_table tern_eamt_nl = {
	.get_cmd = TERN_CMD_EAMT_GET,
	.check = tern_nl_siit_only,
	.publish = tern_eamt_publish,
	.put = tern_eamt_put,
};

int tern_nl_eamt_flush(struct sk_buff *skb, struct genl_info *info)
{
	return tern_nl_table_flush(info, &tern_eamt_nl);
}

int tern_nl_eamt_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	return tern_nl_table_dump(skb, cb, &tern_eamt_nl);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink commands of denylist4: add, remove, flush, list.
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

/* denylist4 */

/* Replaces the denylist4 of @inst with @d (NULL: empty): tern_nl_table. */
static int tern_deny4_publish(struct tern_net *tn, struct tern_instance *inst,
			      void *d)
{
	struct tern_config *cfg = tern_instance_config_dup(inst);
	struct tern_deny4 *old;

	if (!cfg) {
		tern_deny4_free(d);
		return -ENOMEM;
	}
	old = rcu_replace_pointer(inst->deny4, d, lockdep_is_held(&tn->lock));
	tern_instance_set_config(inst, cfg);
	tern_deny4_free_rcu(old);
	tn->tables_gen++;
	return 0;
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
	ret = PTR_ERR_OR_ZERO(inst) ?: tern_nl_siit_only(inst, info->extack);
	if (ret)
		goto out;
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
		ret = tern_deny4_publish(tn, inst, d);
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

static int tern_deny4_put(struct sk_buff *skb, struct tern_net *tn,
			  struct tern_instance *inst, u32 i)
{
	const struct tern_prefix4 *p;

	p = tern_deny4_entry(tern_protected(tn, inst->deny4), i);
	return p ? tern_nla_put_prefix4(skb, TERN_A_PREFIX4, p) : 1;
}

static const struct tern_nl_table tern_deny4_nl = {
	.get_cmd = TERN_CMD_DENY4_GET,
	.check = tern_nl_siit_only,
	.publish = tern_deny4_publish,
	.put = tern_deny4_put,
};

int tern_nl_deny4_flush(struct sk_buff *skb, struct genl_info *info)
{
	return tern_nl_table_flush(info, &tern_deny4_nl);
}

int tern_nl_deny4_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	return tern_nl_table_dump(skb, cb, &tern_deny4_nl);
}

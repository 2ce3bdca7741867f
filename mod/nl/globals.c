// SPDX-License-Identifier: GPL-2.0
/*
 * The global settings of an instance over netlink, all derived from the
 * one table include/tern_globals.h: the policy of the TERN_A_GLOBALS nest
 * (built once at load), the defaults, the apply (all or nothing) and the
 * dump. Adding a setting needs no code here unless it brings a new kind.
 */

#include <linux/stddef.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include "nl/globals.h"
#include "core/instance.h"
#include "nat64/det.h"
#include "nat64/nat64.h"
#include "nl/common.h"
#include "nl/netlink.h"

#define TERN_GLOBALS_DEFINE
#define TERN_CFG(field) offsetof(struct tern_config, field)
#include "tern_globals.h"

/*
 * Not const: filled by tern_globals_init() from the table (6.1's
 * nla_policy also points to mutable range structures).
 */
struct nla_policy tern_globals_policy[TERN_G_MAX + 1] __ro_after_init;
static struct netlink_range_validation
	tern_globals_range[TERN_G_MAX + 1] __ro_after_init;

/* The first RFC 1191 plateaus are the default mtu-plateaus. */
static const u16 tern_rfc1191_plateaus[] = {
	65535, 32000, 17914, 8166, 4352, 2002, 1492, 1006, 508, 296, 68
};

#define tern_for_each_global(g) for ((g) = tern_globals; (g)->key; (g)++)

static void *tern_cfg_field(struct tern_config *cfg, unsigned int off)
{
	return (u8 *)cfg + off;
}

static const void *tern_cfg_cfield(const struct tern_config *cfg,
				   unsigned int off)
{
	return (const u8 *)cfg + off;
}

/* The policy entry of an integer setting: its bounds, nothing more. */
static void tern_policy_int(struct nla_policy *p,
			    const struct tern_global_meta *g, u8 type,
			    u32 type_max)
{
	p->type = type;
	if (!g->min && g->max >= type_max)
		return;
	if (type == NLA_U8) {
		p->validation_type = g->min ? NLA_VALIDATE_RANGE :
					      NLA_VALIDATE_MAX;
		p->min = g->min;
		p->max = g->max;
		return;
	}
	/* s16 bounds cannot hold a u32's: a range of its own. */
	tern_globals_range[g->attr].min = g->min;
	tern_globals_range[g->attr].max = g->max;
	p->validation_type = NLA_VALIDATE_RANGE_PTR;
	p->range = &tern_globals_range[g->attr];
}

int __init tern_globals_init(void)
{
	const struct tern_global_meta *g;

	tern_for_each_global(g) {
		struct nla_policy *p = &tern_globals_policy[g->attr];

		if (WARN_ON(!g->attr || g->attr > TERN_G_MAX || p->type))
			return -EINVAL;
		switch (g->kind) {
		case TERN_KIND_BOOL:
			p->type = NLA_U8;
			p->validation_type = NLA_VALIDATE_MAX;
			p->max = 1;
			break;
		case TERN_KIND_U8:
		case TERN_KIND_HAIRPIN:
			tern_policy_int(p, g, NLA_U8, U8_MAX);
			break;
		case TERN_KIND_U32:
			tern_policy_int(p, g, NLA_U32, U32_MAX);
			break;
		case TERN_KIND_PREFIX6:
		case TERN_KIND_PREFIX6_OPT:
			p->type = NLA_NESTED;
			p->nested_policy = tern_prefix6_policy;
			p->len = TERN_PREFIX_MAX;
			break;
		case TERN_KIND_PREFIX4_OPT:
			p->type = NLA_NESTED;
			p->nested_policy = tern_prefix4_policy;
			p->len = TERN_PREFIX_MAX;
			break;
		case TERN_KIND_PLATEAUS:
			p->type = NLA_BINARY;
			p->len = TERN_PLATEAUS_MAX * sizeof(u16);
			break;
		default:
			WARN_ON(1);
			return -EINVAL;
		}
	}
	return 0;
}

void tern_config_defaults(struct tern_config *cfg)
{
	const struct tern_global_meta *g;

	memset(cfg, 0, sizeof(*cfg));
	tern_for_each_global(g) {
		void *v = tern_cfg_field(cfg, g->off);

		switch (g->kind) {
		case TERN_KIND_BOOL:
			*(bool *)v = g->def;
			break;
		case TERN_KIND_U8:
		case TERN_KIND_HAIRPIN:
			*(u8 *)v = g->def;
			break;
		case TERN_KIND_U32:
			*(u32 *)v = g->def;
			break;
		case TERN_KIND_PLATEAUS:
			memcpy(v, tern_rfc1191_plateaus,
			       sizeof(tern_rfc1191_plateaus));
			*(u8 *)tern_cfg_field(cfg, g->aux) =
				ARRAY_SIZE(tern_rfc1191_plateaus);
			break;
		default:	/* prefixes: unset */
			break;
		}
	}
}

/* pool6: a prefix RFC 6052 allows. */
int tern_nla_get_pool6(const struct nlattr *nla, struct tern_prefix6 *p,
		       struct netlink_ext_ack *extack)
{
	int ret;

	ret = tern_nla_get_prefix(nla, &p->addr, sizeof(p->addr), &p->len,
				  false, extack);
	if (ret)
		return ret;
	ret = tern_prefix6_validate_rfc6052(p, extack);
	if (ret)
		NL_SET_BAD_ATTR(extack, nla);
	return ret;
}

/* An RFC 6791 pool: any prefix without host bits; empty nest: unset. */
static int tern_nla_get_pool6791(const struct nlattr *nla, void *addr,
				 int alen, u8 *len, bool *set,
				 struct netlink_ext_ack *extack)
{
	u8 tmp[16];
	int ret;

	ret = tern_nla_get_prefix(nla, tmp, alen, len, true, extack);
	if (ret < 0)
		return ret;
	if (ret == 1) {
		*set = false;
		memset(addr, 0, alen);
		*len = 0;
		return 0;
	}
	if (!tern_prefix_host_bits_clear(tmp, alen * 8, *len)) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "the prefix has bits set after its length");
		return -EINVAL;
	}
	memcpy(addr, tmp, alen);
	*set = true;
	return 0;
}

/* MTU plateaus: sorted descending, duplicates dropped. */
static int tern_nla_get_plateaus(const struct nlattr *nla, u16 *out, u8 *count,
				 struct netlink_ext_ack *extack)
{
	u16 v[TERN_PLATEAUS_MAX];
	int n = nla_len(nla) / sizeof(u16), i, j, k;

	if (!n || nla_len(nla) % sizeof(u16)) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "mtu-plateaus needs 1 to 64 16-bit values");
		return -EINVAL;
	}
	memcpy(v, nla_data(nla), n * sizeof(u16));
	for (i = 0; i < n; i++) {
		if (v[i] < 68) {
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "an MTU plateau is at least 68 (RFC 791)");
			return -EINVAL;
		}
	}
	/* Insertion sort, descending; n is small. */
	for (i = 1; i < n; i++) {
		u16 x = v[i];

		for (j = i; j > 0 && v[j - 1] < x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	for (i = 0, k = 0; i < n; i++)
		if (!k || v[i] != v[k - 1])
			v[k++] = v[i];
	memcpy(out, v, k * sizeof(u16));
	*count = k;
	return 0;
}

static int tern_global_get(struct tern_config *cfg,
			   const struct tern_global_meta *g,
			   const struct nlattr *a, struct netlink_ext_ack *extack)
{
	void *v = tern_cfg_field(cfg, g->off);
	bool *set = tern_cfg_field(cfg, g->aux);
	struct tern_prefix4 *p4 = v;
	struct tern_prefix6 *p6 = v;
	int ret;

	switch (g->kind) {
	case TERN_KIND_BOOL:
		*(bool *)v = nla_get_u8(a);
		return 0;
	case TERN_KIND_U8:
	case TERN_KIND_HAIRPIN:
		*(u8 *)v = nla_get_u8(a);
		return 0;
	case TERN_KIND_U32:
		*(u32 *)v = nla_get_u32(a);
		return 0;
	case TERN_KIND_PREFIX6:
		/* An empty nest: none (the caller checks the mode allows it). */
		if (!nla_len(a)) {
			memset(p6, 0, sizeof(*p6));
			*set = false;
			return 0;
		}
		ret = tern_nla_get_pool6(a, v, extack);
		if (!ret)
			*set = true;
		return ret;
	case TERN_KIND_PREFIX4_OPT:
		return tern_nla_get_pool6791(a, &p4->addr, sizeof(p4->addr),
					     &p4->len, set, extack);
	case TERN_KIND_PREFIX6_OPT:
		return tern_nla_get_pool6791(a, &p6->addr, sizeof(p6->addr),
					     &p6->len, set, extack);
	case TERN_KIND_PLATEAUS:
		return tern_nla_get_plateaus(a, v, tern_cfg_field(cfg, g->aux),
					     extack);
	}
	return -EINVAL;
}

int tern_globals_apply(struct tern_config *cfg, const struct nlattr *nla,
		       struct netlink_ext_ack *extack)
{
	const struct tern_global_meta *g;
	struct nlattr *tb[TERN_G_MAX + 1];
	struct tern_config new = *cfg;
	int ret;

	ret = nla_parse_nested(tb, TERN_G_MAX, nla, tern_globals_policy, extack);
	if (ret)
		return ret;
	tern_for_each_global(g) {
		if (!tb[g->attr])
			continue;
		ret = tern_global_get(&new, g, tb[g->attr], extack);
		if (ret)
			return ret;
	}
	*cfg = new;
	return 0;
}

/* An empty nest: an optional prefix unset. */
static int tern_nla_put_empty(struct sk_buff *skb, int type)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (!nest)
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int tern_global_put(struct sk_buff *skb, const struct tern_config *cfg,
			   const struct tern_global_meta *g)
{
	const void *v = tern_cfg_cfield(cfg, g->off);
	const bool *set = tern_cfg_cfield(cfg, g->aux);

	switch (g->kind) {
	case TERN_KIND_BOOL:
		return nla_put_u8(skb, g->attr, *(const bool *)v);
	case TERN_KIND_U8:
	case TERN_KIND_HAIRPIN:
		return nla_put_u8(skb, g->attr, *(const u8 *)v);
	case TERN_KIND_U32:
		return nla_put_u32(skb, g->attr, *(const u32 *)v);
	case TERN_KIND_PREFIX6:
		return *set ? tern_nla_put_prefix6(skb, g->attr, v) : 0;
	case TERN_KIND_PREFIX4_OPT:
		return *set ? tern_nla_put_prefix4(skb, g->attr, v) :
			      tern_nla_put_empty(skb, g->attr);
	case TERN_KIND_PREFIX6_OPT:
		return *set ? tern_nla_put_prefix6(skb, g->attr, v) :
			      tern_nla_put_empty(skb, g->attr);
	case TERN_KIND_PLATEAUS:
		return nla_put(skb, g->attr,
			       *(const u8 *)tern_cfg_cfield(cfg, g->aux) *
			       sizeof(u16), v);
	}
	return -EINVAL;
}

int tern_globals_put(struct sk_buff *skb, const struct tern_config *cfg)
{
	struct nlattr *nest = nla_nest_start(skb, TERN_A_GLOBALS);
	const struct tern_global_meta *g;

	if (!nest)
		return -EMSGSIZE;
	tern_for_each_global(g) {
		if (tern_global_put(skb, cfg, g)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* The commands */

static int tern_fill_globals(struct sk_buff *msg, struct tern_instance *inst,
			     struct genl_info *info)
{
	return tern_globals_put(msg, rcu_dereference_protected(inst->cfg, true));
}

int tern_nl_global_get(struct sk_buff *skb, struct genl_info *info)
{
	return tern_nl_reply(info, TERN_CMD_GLOBAL_GET, tern_fill_globals);
}

int tern_nl_global_set(struct sk_buff *skb, struct genl_info *info)
{
	struct tern_net *tn = tern_net(genl_info_net(info));
	struct tern_instance *inst;
	char msg[TERN_EXTACK_LEN];
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
	/* NAT64: the IPv4 peers are the addresses pool6 embeds. */
	if (!ret && inst->type == TERN_TYPE_NAT64 && !cfg->pool6_set) {
		NL_SET_ERR_MSG(info->extack, "a NAT64 instance needs pool6");
		ret = -EINVAL;
	}
	if (!ret && inst->type == TERN_TYPE_NAT64 &&
	    tern_det_validate(cfg, rcu_dereference_protected(inst->pool4, true),
			      msg, sizeof(msg))) {
		tern_extack_fmt(tn, info->extack, "%s", msg);
		ret = -EINVAL;
	}
	if (!ret) {
		tern_instance_set_config(inst, cfg);
		cfg = NULL;
		if (inst->type == TERN_TYPE_NAT64)
			tern_nat64_config_changed(inst);
	}
out:
	mutex_unlock(&tn->lock);
	kfree(cfg);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink commands of the BIB of a NAT64 instance (RFC 6146 3.1): static
 * entries added and removed, every entry listed (a dump).
 */

#include <linux/kernel.h>
#include <net/genetlink.h>
#include "core/instance.h"
#include "nat64/nat64.h"
#include "nat64/pool4.h"
#include "nat64/table.h"
#include "nl/common.h"
#include "nl/nat64.h"
#include "nl/netlink.h"

/* A BIB entry of a request: its protocol and either side or both. */
struct tern_nl_bib {
	u8 l4;
	bool has6, has4;
	struct tern_ta6 t6;
	struct tern_ta4 t4;
};

/* The request's TERN_A_BIB nest, which it must have, into @e. */
static int tern_nl_get_bib(struct genl_info *info, struct tern_nl_bib *e)
{
	struct nlattr *attr = info->attrs[TERN_A_BIB];
	struct nlattr *tb[TERN_BIB_MAX + 1];
	int ret;

	if (tern_nl_missing(info, TERN_A_BIB,
			    "missing the BIB entry (TERN_A_BIB)"))
		return -EINVAL;
	memset(e, 0, sizeof(*e));
	ret = nla_parse_nested(tb, TERN_BIB_MAX, attr, tern_bib_policy,
			       info->extack);
	if (ret)
		return ret;
	if (!tb[TERN_BIB_PROTO]) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "a BIB entry needs a protocol (TERN_BIB_PROTO)");
		return -EINVAL;
	}
	e->l4 = tern_nl_l4(nla_get_u8(tb[TERN_BIB_PROTO]));
	e->has6 = tb[TERN_BIB_ADDR6] || tb[TERN_BIB_PORT6];
	e->has4 = tb[TERN_BIB_ADDR4] || tb[TERN_BIB_PORT4];
	if (e->has6 && (!tb[TERN_BIB_ADDR6] || !tb[TERN_BIB_PORT6])) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "an IPv6 transport address needs an address and a port");
		return -EINVAL;
	}
	if (e->has4 && (!tb[TERN_BIB_ADDR4] || !tb[TERN_BIB_PORT4])) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "an IPv4 transport address needs an address and a port");
		return -EINVAL;
	}
	if (e->has6) {
		nla_memcpy(&e->t6.addr, tb[TERN_BIB_ADDR6], sizeof(e->t6.addr));
		e->t6.port = htons(nla_get_u16(tb[TERN_BIB_PORT6]));
	}
	if (e->has4) {
		nla_memcpy(&e->t4.addr, tb[TERN_BIB_ADDR4], sizeof(e->t4.addr));
		e->t4.port = htons(nla_get_u16(tb[TERN_BIB_PORT4]));
	}
	return 0;
}

int tern_nl_bib_add(struct sk_buff *skb, struct genl_info *info)
{
	struct tern_net *tn = tern_net(genl_info_net(info));
	struct nlattr *attr = info->attrs[TERN_A_BIB];
	struct tern_instance *inst;
	struct tern_nl_bib e;
	int ret;

	ret = tern_nl_get_bib(info, &e);
	if (ret)
		return ret;
	if (!e.has6 || !e.has4) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "a static BIB entry needs an IPv6 and an IPv4 transport address");
		return -EINVAL;
	}

	mutex_lock(&tn->lock);
	inst = tern_nl_nat64(tn, info->attrs, info->extack);
	if (IS_ERR(inst)) {
		ret = PTR_ERR(inst);
		goto out;
	}
	/* Packets would leave with it: it must be the instance's to give. */
	if (!tern_pool4_contains(tern_protected(tn, inst->pool4), e.l4,
				 e.t4.addr, ntohs(e.t4.port))) {
		tern_extack_fmt(tn, info->extack,
				"%pI4#%u is not in pool4 (for this protocol)",
				&e.t4.addr, ntohs(e.t4.port));
		NL_SET_BAD_ATTR(info->extack, attr);
		ret = -EINVAL;
		goto out;
	}
	ret = tern_bib_add_static_max(tern_nat64_tables(inst), e.l4, &e.t6,
				      &e.t4,
				      tern_protected(tn, inst->cfg)->max_static_bib);
	if (ret == -EEXIST)
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "the IPv6 or IPv4 transport address is already in the BIB");
	else if (ret == -ENOSPC)
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "too many static BIB entries (max-static-bib-entries)");
out:
	mutex_unlock(&tn->lock);
	return ret;
}

/* With both sides, are they one entry's? */
static bool tern_nl_bib_pair(struct tern_tables *t, const struct tern_nl_bib *e)
{
	const struct tern_bib *b;
	bool same;

	rcu_read_lock();
	b = tern_bib_find6(t, e->l4, &e->t6);
	same = b && b->t4.addr == e->t4.addr && b->t4.port == e->t4.port;
	rcu_read_unlock();
	return same;
}

int tern_nl_bib_del(struct sk_buff *skb, struct genl_info *info)
{
	struct tern_net *tn = tern_net(genl_info_net(info));
	struct nlattr *attr = info->attrs[TERN_A_BIB];
	struct tern_instance *inst;
	struct tern_tables *t;
	struct tern_nl_bib e;
	int ret;

	ret = tern_nl_get_bib(info, &e);
	if (ret)
		return ret;
	if (!e.has6 && !e.has4) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "name the BIB entry by its IPv6 or IPv4 transport address");
		return -EINVAL;
	}

	mutex_lock(&tn->lock);
	inst = tern_nl_nat64(tn, info->attrs, info->extack);
	if (IS_ERR(inst)) {
		ret = PTR_ERR(inst);
		goto out;
	}
	t = tern_nat64_tables(inst);
	if (e.has6 && e.has4 && !tern_nl_bib_pair(t, &e)) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "no BIB entry has both these transport addresses");
		ret = -ENOENT;
		goto out;
	}
	/* Both sides again: the entry may have changed since the check. */
	ret = tern_bib_del(t, e.l4, e.has6 ? &e.t6 : NULL,
			   e.has4 ? &e.t4 : NULL);
	if (ret == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "no such BIB entry");
out:
	mutex_unlock(&tn->lock);
	return ret;
}

static int tern_nla_put_bib(struct sk_buff *skb, const void *obj)
{
	const struct tern_bib *b = obj;
	struct nlattr *nest = nla_nest_start(skb, TERN_A_BIB);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(skb, TERN_BIB_PROTO, tern_nl_proto(b->l4)) ||
	    nla_put_in6_addr(skb, TERN_BIB_ADDR6, &b->t6.addr) ||
	    nla_put_u16(skb, TERN_BIB_PORT6, ntohs(b->t6.port)) ||
	    nla_put_in_addr(skb, TERN_BIB_ADDR4, b->t4.addr) ||
	    nla_put_u16(skb, TERN_BIB_PORT4, ntohs(b->t4.port)) ||
	    (b->is_static && nla_put_flag(skb, TERN_BIB_STATIC)) ||
	    nla_put_u32(skb, TERN_BIB_SESSIONS,
			refcount_read(&b->ref) - b->is_static)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * One message per entry the filter lets through; non-zero when the skb is
 * full or the stretch's budget spent.
 */
static int tern_bib_dump_one(const struct tern_bib *b, void *arg)
{
	return tern_nl_walk_emit(arg, b, tern_nla_put_bib, b);
}

static int tern_bib_dump_walk(struct tern_tables *t, u8 l4,
			      struct tern_walk_pos *pos, struct tern_nl_walk *w)
{
	return tern_bib_walk(t, l4, pos, tern_bib_dump_one, w);
}

int tern_nl_bib_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	return tern_nl_nat64_dump(skb, cb, TERN_CMD_BIB_GET, tern_bib_dump_walk);
}

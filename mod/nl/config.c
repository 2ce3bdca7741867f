// SPDX-License-Identifier: GPL-2.0
/*
 * TERN_CMD_CONFIG_APPLY, reading: the request is a sequence of top-level
 * attributes, TERN_A_CONFIG (an instance) then its entries. Everything is
 * read and validated here, without the lock; an error names its attribute
 * (the extack's offset) so that the CLI can name the entry of its file.
 */

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include "core/instance.h"
#include "nat64/pool4.h"
#include "siit/eamt.h"
#include "siit/prefix.h"
#include "nl/common.h"
#include "nl/config.h"
#include "nl/globals.h"
#include "nl/nat64.h"

static struct tern_cfg_list *tern_cfg_list_of(struct tern_cfg_inst *ci,
					      int type, size_t *size)
{
	switch (type) {
	case TERN_A_EAM:
		*size = sizeof(struct tern_eam);
		return &ci->eam;
	case TERN_A_PREFIX4:
		*size = sizeof(struct tern_prefix4);
		return &ci->deny;
	case TERN_A_POOL4:
		*size = sizeof(struct tern_pool4_entry);
		return &ci->pool4;
	case TERN_A_BIB:
		*size = sizeof(struct tern_cfg_bib);
		return &ci->bib;
	}
	return NULL;
}

static int tern_cfg_inst_read(struct tern_cfg_inst *ci,
			      const struct nlattr *nla,
			      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[TERN_A_GLOBALS + 1];
	int ret;

	ci->nla = nla;
	ret = nla_parse_nested(tb, TERN_A_GLOBALS, nla,
			       tern_instance_add_policy, extack);
	if (ret)
		return ret;
	if (!tb[TERN_A_INSTANCE] || !tb[TERN_A_TYPE]) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "an instance needs a name and a type");
		return -EINVAL;
	}
	ci->name = nla_data(tb[TERN_A_INSTANCE]);
	if (!ci->name[0] || strlen(ci->name) >= TERN_INSTANCE_NAMSIZ) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TERN_A_INSTANCE],
				    "an instance name has 1 to 15 characters");
		return -EINVAL;
	}
	if (!tern_instance_name_chars_ok(ci->name)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TERN_A_INSTANCE],
				    "an instance name has printable characters, no blanks or quotes");
		return -EINVAL;
	}
	ci->type = nla_get_u8(tb[TERN_A_TYPE]);
	ci->framework = tb[TERN_A_FRAMEWORK] ?
			nla_get_u8(tb[TERN_A_FRAMEWORK]) : TERN_FW_NETFILTER;
	ci->cfg = kmalloc(sizeof(*ci->cfg), GFP_KERNEL_ACCOUNT);
	if (!ci->cfg)
		return -ENOMEM;
	tern_config_defaults(ci->cfg);
	if (tb[TERN_A_POOL6]) {
		ret = tern_nla_get_pool6(tb[TERN_A_POOL6], &ci->cfg->pool6,
					 extack);
		if (ret)
			return ret;
		ci->cfg->pool6_set = true;
	}
	if (tb[TERN_A_GLOBALS]) {
		ret = tern_globals_apply(ci->cfg, tb[TERN_A_GLOBALS], extack);
		if (ret)
			return ret;
	}
	if (ci->type == TERN_TYPE_NAT64 && !ci->cfg->pool6_set) {
		NL_SET_ERR_MSG(extack, "a NAT64 instance needs pool6");
		return -EINVAL;
	}
	return 0;
}

static int tern_cfg_eam_read(const struct nlattr *nla, struct tern_eam *e,
			     struct netlink_ext_ack *extack)
{
	struct nlattr *tb[TERN_EAM_MAX + 1];
	int ret;

	ret = nla_parse_nested(tb, TERN_EAM_MAX, nla, tern_eam_policy, extack);
	if (ret)
		return ret;
	if (!tb[TERN_EAM_PREFIX6] || !tb[TERN_EAM_PREFIX4]) {
		NL_SET_ERR_MSG(extack,
			       "an EAMT entry needs an IPv6 and an IPv4 prefix");
		return -EINVAL;
	}
	ret = tern_nla_get_prefix6(tb[TERN_EAM_PREFIX6], &e->p6, extack);
	if (!ret)
		ret = tern_nla_get_prefix4(tb[TERN_EAM_PREFIX4], &e->p4, extack);
	return ret ?: tern_eam_validate(e, extack);
}

static int tern_cfg_deny_read(const struct nlattr *nla, struct tern_prefix4 *p,
			      struct netlink_ext_ack *extack)
{
	int ret = tern_nla_get_prefix4(nla, p, extack);

	if (!ret && !tern_prefix_host_bits_clear(&p->addr, 32, p->len)) {
		NL_SET_ERR_MSG(extack, "the prefix has bits set after its length");
		ret = -EINVAL;
	}
	return ret;
}

static int tern_cfg_pool4_read(struct net *net, const struct nlattr *nla,
			       struct tern_pool4_entry *e,
			       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[TERN_POOL4_MAX + 1];
	struct tern_pool4_clash clash;
	u8 proto;
	int ret;

	ret = nla_parse_nested(tb, TERN_POOL4_MAX, nla, tern_pool4_policy,
			       extack);
	if (ret)
		return ret;
	if (!tb[TERN_POOL4_PREFIX] || !tb[TERN_POOL4_PROTO]) {
		NL_SET_ERR_MSG(extack, "a pool4 entry needs a prefix and a protocol");
		return -EINVAL;
	}
	ret = tern_nla_get_prefix4(tb[TERN_POOL4_PREFIX], &e->prefix, extack);
	if (ret)
		return ret;
	proto = nla_get_u8(tb[TERN_POOL4_PROTO]);
	if (proto != IPPROTO_TCP && proto != IPPROTO_UDP &&
	    proto != IPPROTO_ICMP) {
		NL_SET_ERR_MSG(extack, "the protocol must be TCP, UDP or ICMP");
		return -EINVAL;
	}
	e->l4 = tern_nl_l4(proto);
	e->mark = tb[TERN_POOL4_MARK] ? nla_get_u32(tb[TERN_POOL4_MARK]) : 0;
	e->pmin = e->l4 == TERN_L4_ICMP ? 0 : 1024;
	e->pmax = 65535;
	if (tb[TERN_POOL4_PORT_MIN])
		e->pmin = nla_get_u16(tb[TERN_POOL4_PORT_MIN]);
	if (tb[TERN_POOL4_PORT_MAX])
		e->pmax = nla_get_u16(tb[TERN_POOL4_PORT_MAX]);
	ret = tern_pool4_validate(net, e, &clash, extack);
	if (ret == -EADDRINUSE)
		tern_cfg_fmt(net, extack,
				"ports %u-%u of local %pI4 are in net.ipv4.ip_local_port_range",
				clash.pmin, clash.pmax, &clash.addr);
	return ret;
}

static int tern_cfg_bib_read(const struct nlattr *nla, struct tern_cfg_bib *b,
			     struct netlink_ext_ack *extack)
{
	struct nlattr *tb[TERN_BIB_MAX + 1];
	int ret;

	ret = nla_parse_nested(tb, TERN_BIB_MAX, nla, tern_bib_policy, extack);
	if (ret)
		return ret;
	if (!tb[TERN_BIB_PROTO] || !tb[TERN_BIB_ADDR6] || !tb[TERN_BIB_PORT6] ||
	    !tb[TERN_BIB_ADDR4] || !tb[TERN_BIB_PORT4]) {
		NL_SET_ERR_MSG(extack,
			       "a static BIB entry needs a protocol, an IPv6 and an IPv4 transport address");
		return -EINVAL;
	}
	b->l4 = tern_nl_l4(nla_get_u8(tb[TERN_BIB_PROTO]));
	nla_memcpy(&b->t6.addr, tb[TERN_BIB_ADDR6], sizeof(b->t6.addr));
	b->t6.port = htons(nla_get_u16(tb[TERN_BIB_PORT6]));
	nla_memcpy(&b->t4.addr, tb[TERN_BIB_ADDR4], sizeof(b->t4.addr));
	b->t4.port = htons(nla_get_u16(tb[TERN_BIB_PORT4]));
	return 0;
}

static int tern_cfg_entry_read(struct net *net, struct tern_cfg_inst *ci,
			       const struct nlattr *nla,
			       struct netlink_ext_ack *extack)
{
	struct tern_cfg_list *l;
	size_t size;
	void *v;

	l = tern_cfg_list_of(ci, nla_type(nla), &size);
	v = l->v + l->n * size;
	l->nla[l->n++] = nla;
	switch (nla_type(nla)) {
	case TERN_A_EAM:
		if (ci->type != TERN_TYPE_SIIT)
			goto siit;
		return tern_cfg_eam_read(nla, v, extack);
	case TERN_A_PREFIX4:
		if (ci->type != TERN_TYPE_SIIT)
			goto siit;
		return tern_cfg_deny_read(nla, v, extack);
	case TERN_A_POOL4:
		if (ci->type != TERN_TYPE_NAT64)
			break;
		return tern_cfg_pool4_read(net, nla, v, extack);
	case TERN_A_BIB:
		if (ci->type != TERN_TYPE_NAT64)
			break;
		return tern_cfg_bib_read(nla, v, extack);
	}
	NL_SET_ERR_MSG(extack, "pool4 and static BIB entries are for NAT64 instances");
	return -EINVAL;
siit:
	NL_SET_ERR_MSG(extack, "the EAMT and denylist4 are for SIIT instances (NAT64 maps by pool6 and pool4)");
	return -EINVAL;
}

/* Room for the entries of each list, counted in a first pass. */
static int tern_cfg_alloc(struct tern_cfg *c, const struct nlattr *head,
			  int len, struct netlink_ext_ack *extack)
{
	const struct nlattr *nla;
	struct tern_cfg_list *l;
	struct tern_cfg_inst *ci = NULL;
	int rem, i, t;
	size_t size;

	nla_for_each_attr(nla, head, len, rem) {
		if (nla_type(nla) != TERN_A_CONFIG)
			continue;
		if (c->n++ == TERN_MAX_INSTANCES) {
			c->n = 0;
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "more instances than a namespace holds (4096)");
			return -E2BIG;
		}
	}
	/* Sizes a request chooses: past INT_MAX bytes, -ENOMEM, no warning. */
	c->v = kvcalloc(c->n, sizeof(*c->v), GFP_KERNEL | __GFP_NOWARN);
	if (c->n && !c->v) {
		c->n = 0;	/* nothing for tern_cfg_free() to walk */
		goto nomem;
	}
	i = 0;
	nla_for_each_attr(nla, head, len, rem) {
		if (nla_type(nla) == TERN_A_CONFIG) {
			ci = &c->v[i++];
			continue;
		}
		if (!ci) {
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "an entry before any instance (TERN_A_CONFIG)");
			return -EINVAL;
		}
		tern_cfg_list_of(ci, nla_type(nla), &size)->n++;
	}
	for (i = 0; i < c->n; i++) {
		for (t = TERN_A_EAM; t <= TERN_A_BIB; t++) {
			l = tern_cfg_list_of(&c->v[i], t, &size);
			if (!l || !l->n)
				continue;
			l->v = kvmalloc_array(l->n, size, GFP_KERNEL |
					      __GFP_ZERO | __GFP_NOWARN);
			l->nla = kvmalloc_array(l->n, sizeof(*l->nla),
						GFP_KERNEL | __GFP_NOWARN);
			if (!l->v || !l->nla)
				goto nomem;
			l->n = 0;
		}
	}
	return 0;
nomem:
	NL_SET_ERR_MSG(extack, "the request has more entries than memory allows");
	return -ENOMEM;
}

int tern_cfg_read(struct genl_info *info, struct tern_cfg *c)
{
	const struct nlattr *head = nlmsg_attrdata(info->nlhdr, GENL_HDRLEN);
	int len = nlmsg_attrlen(info->nlhdr, GENL_HDRLEN);
	struct netlink_ext_ack *extack = info->extack;
	struct net *net = genl_info_net(info);
	struct tern_cfg_inst *ci = NULL;
	const struct nlattr *nla;
	int rem, i = 0, ret;

	memset(c, 0, sizeof(*c));
	ret = tern_cfg_alloc(c, head, len, extack);
	nla_for_each_attr(nla, head, len, rem) {
		if (ret)
			break;
		if (nla_type(nla) != TERN_A_CONFIG) {
			ret = tern_cfg_entry_read(net, ci, nla, extack);
		} else {
			ci = &c->v[i++];
			ret = tern_cfg_inst_read(ci, nla, extack);
		}
		if (ret)
			tern_cfg_err(extack, nla, ret);
	}
	if (!ret)
		ret = tern_cfg_check(net, c, extack);
	if (!ret)
		ret = tern_cfg_build(net, c, extack);
	if (ret)
		tern_cfg_free(c);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * TERN_CMD_CONFIG_APPLY, building: the tables of every instance of the
 * request made off to the side (GFP_KERNEL, no lock), and the checks that
 * need no running state: instance names, frameworks, overlaps, static BIB
 * entries within pool4 and distinct.
 */

#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include "core/instance.h"
#include "nat64/det.h"
#include "nat64/pool4.h"
#include "siit/denylist4.h"
#include "siit/eamt.h"
#include "siit/prefix.h"
#include "nl/common.h"
#include "nl/config.h"

static const char *const tern_cfg_l4_name[TERN_L4_N] = {
	[TERN_L4_TCP] = "TCP",
	[TERN_L4_UDP] = "UDP",
	[TERN_L4_ICMP] = "ICMP",
};

int tern_cfg_err(struct netlink_ext_ack *extack, const struct nlattr *nla,
		 int ret)
{
	if (extack && !extack->bad_attr)
		extack->bad_attr = nla;
	return ret;
}

int tern_cfg_check(struct net *net, struct tern_cfg *c,
		   struct netlink_ext_ack *extack)
{
	u32 i, j, netfilter = 0;

	for (i = 0; i < c->n; i++) {
		for (j = 0; j < i; j++) {
			if (!strcmp(c->v[i].name, c->v[j].name)) {
				NL_SET_ERR_MSG_ATTR(extack, c->v[i].nla,
						    "another instance has this name");
				return -EINVAL;
			}
		}
		if (c->v[i].framework == TERN_FW_NETFILTER && netfilter++) {
			NL_SET_ERR_MSG_ATTR(extack, c->v[i].nla,
					    "at most one netfilter instance per namespace");
			return -EINVAL;
		}
	}
	return 0;
}

static int tern_cfg_eamt(struct net *net, struct tern_cfg_inst *ci,
			 struct netlink_ext_ack *extack)
{
	const struct tern_eam *v = ci->eam.v, *o;
	unsigned long *force = NULL;
	struct tern_eamt *t;
	u32 bad, other, i;
	bool same;

	for (i = 0; i < ci->eam.n; i++) {
		if (!nla_find_nested(ci->eam.nla[i], TERN_EAM_FORCE))
			continue;
		if (!force)
			force = bitmap_zalloc(ci->eam.n, GFP_KERNEL);
		if (!force)
			return -ENOMEM;
		__set_bit(i, force);
	}
	t = tern_eamt_build(v, ci->eam.n, force, &bad, &other);
	bitmap_free(force);
	if (!IS_ERR(t)) {
		ci->eamt = t;
		return 0;
	}
	if (PTR_ERR(t) == -ENOSPC) {
		NL_SET_ERR_MSG_ATTR(extack, ci->eam.nla[TERN_EAMT_MAX],
				    "the EAMT is full (65536 entries)");
	} else if (PTR_ERR(t) == -EEXIST) {
		o = &v[other];
		same = tern_prefix4_equal(&o->p4, &v[bad].p4) ||
		       tern_prefix6_equal(&o->p6, &v[bad].p6);
		tern_cfg_fmt(net, extack,
				"%s EAMT entry %pI6c/%u %pI4/%u",
				same ? "same prefix as" : "overlaps",
				&o->p6.addr, o->p6.len, &o->p4.addr, o->p4.len);
		NL_SET_BAD_ATTR(extack, ci->eam.nla[bad]);
	}
	return PTR_ERR(t);
}

static int tern_cfg_deny4(struct net *net, struct tern_cfg_inst *ci,
			  struct netlink_ext_ack *extack)
{
	const struct tern_prefix4 *v = ci->deny.v;
	struct tern_deny4 *d;
	u32 bad, other;

	d = tern_deny4_build(v, ci->deny.n, &bad, &other);
	if (!IS_ERR(d)) {
		ci->deny4 = d;
		return 0;
	}
	if (PTR_ERR(d) == -ENOSPC) {
		NL_SET_ERR_MSG_ATTR(extack, ci->deny.nla[TERN_DENY4_MAX],
				    "denylist4 is full (65536 prefixes)");
	} else if (PTR_ERR(d) == -EEXIST) {
		tern_cfg_fmt(net, extack,
				"overlaps denylist4 entry %pI4/%u",
				&v[other].addr, v[other].len);
		NL_SET_BAD_ATTR(extack, ci->deny.nla[bad]);
	}
	return PTR_ERR(d);
}

/* pool4 has 4096 entries at most: one at a time, as `pool4 add` does. */
static int tern_cfg_pool4(struct net *net, struct tern_cfg_inst *ci,
			  struct netlink_ext_ack *extack)
{
	const struct tern_pool4_entry *v = ci->pool4.v, *c;
	struct tern_pool4 *p = NULL, *np;
	char msg[TERN_EXTACK_LEN];
	u32 i;

	for (i = 0; i < ci->pool4.n; i++) {
		np = tern_pool4_add(p, &v[i], &c);
		if (IS_ERR(np))
			break;
		tern_pool4_free(p);
		p = np;
	}
	if (i == ci->pool4.n) {
		ci->pool4t = p;
		if (ci->type == TERN_TYPE_NAT64 &&
		    tern_det_validate(ci->cfg, p, msg, sizeof(msg))) {
			tern_cfg_fmt(net, extack, "%s", msg);
			return -EINVAL;
		}
		return 0;
	}
	/* The clash @c points into @p: it is named before @p is freed. */
	NL_SET_BAD_ATTR(extack, ci->pool4.nla[i]);
	switch (PTR_ERR(np)) {
	case -ENOSPC:
		NL_SET_ERR_MSG(extack, "pool4 is full (4096 entries)");
		break;
	case -E2BIG:
		NL_SET_ERR_MSG(extack, "pool4 would hold more than 65536 addresses");
		break;
	case -EEXIST:
		tern_cfg_fmt(net, extack,
				"overlaps pool4 entry %s %pI4/%u %u-%u mark %u",
				tern_cfg_l4_name[c->l4], &c->prefix.addr,
				c->prefix.len, c->pmin, c->pmax, c->mark);
		break;
	}
	tern_pool4_free(p);
	return PTR_ERR(np);
}

static int tern_cfg_bib_cmp6(const void *a, const void *b, const void *priv)
{
	const struct tern_cfg_bib *v = priv, *x = &v[*(const u32 *)a],
				  *y = &v[*(const u32 *)b];

	if (x->l4 != y->l4)
		return x->l4 < y->l4 ? -1 : 1;
	return memcmp(&x->t6.addr, &y->t6.addr, sizeof(x->t6.addr)) ?:
	       (int)ntohs(x->t6.port) - (int)ntohs(y->t6.port);
}

static int tern_cfg_bib_cmp4(const void *a, const void *b, const void *priv)
{
	const struct tern_cfg_bib *v = priv, *x = &v[*(const u32 *)a],
				  *y = &v[*(const u32 *)b];

	if (x->l4 != y->l4)
		return x->l4 < y->l4 ? -1 : 1;
	return memcmp(&x->t4.addr, &y->t4.addr, sizeof(x->t4.addr)) ?:
	       (int)ntohs(x->t4.port) - (int)ntohs(y->t4.port);
}

/* Sorts @idx (@n) by @cmp; the later of two equal entries, or -1. */
static int tern_cfg_bib_dup(const struct tern_cfg_bib *v, u32 *idx, u32 n,
			    cmp_r_func_t cmp)
{
	u32 i;

	for (i = 0; i < n; i++)
		idx[i] = i;
	sort_r(idx, n, sizeof(*idx), cmp, NULL, v);
	for (i = 1; i < n; i++)
		if (!cmp(&idx[i - 1], &idx[i], v))
			return max(idx[i - 1], idx[i]);
	return -1;
}

/* Static BIB entries: within the new pool4, bounded, and distinct. */
static int tern_cfg_bib(struct net *net, struct tern_cfg_inst *ci,
			struct netlink_ext_ack *extack)
{
	const struct tern_cfg_bib *v = ci->bib.v;
	u32 i, n = ci->bib.n, *by4;
	int dup;

	if (n > ci->cfg->max_static_bib) {
		NL_SET_ERR_MSG_ATTR(extack, ci->bib.nla[ci->cfg->max_static_bib],
				    "too many static BIB entries (max-static-bib-entries)");
		return -ENOSPC;
	}
	for (i = 0; i < n; i++) {
		if (tern_pool4_contains(ci->pool4t, v[i].l4, v[i].t4.addr,
					ntohs(v[i].t4.port)))
			continue;
		tern_cfg_fmt(net, extack,
				"%pI4#%u is not in pool4 (for this protocol)",
				&v[i].t4.addr, ntohs(v[i].t4.port));
		NL_SET_BAD_ATTR(extack, ci->bib.nla[i]);
		return -EINVAL;
	}
	ci->bib_by6 = kvmalloc_array(n, sizeof(u32), GFP_KERNEL);
	by4 = kvmalloc_array(n, sizeof(u32), GFP_KERNEL);
	if (n && (!ci->bib_by6 || !by4)) {
		kvfree(by4);
		return -ENOMEM;
	}
	dup = tern_cfg_bib_dup(v, ci->bib_by6, n, tern_cfg_bib_cmp6);
	if (dup >= 0) {
		NL_SET_ERR_MSG_ATTR(extack, ci->bib.nla[dup],
				    "another static BIB entry has this IPv6 transport address");
	} else {
		dup = tern_cfg_bib_dup(v, by4, n, tern_cfg_bib_cmp4);
		if (dup >= 0)
			NL_SET_ERR_MSG_ATTR(extack, ci->bib.nla[dup],
					    "another static BIB entry has this IPv4 transport address");
	}
	kvfree(by4);
	return dup >= 0 ? -EEXIST : 0;
}

int tern_cfg_bib_find6(const struct tern_cfg_inst *ci, u8 l4,
		       const struct tern_ta6 *t6)
{
	const struct tern_cfg_bib *v = ci->bib.v;
	int lo = 0, hi = (int)ci->bib.n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		const struct tern_cfg_bib *m = &v[ci->bib_by6[mid]];
		int d = m->l4 != l4 ? (m->l4 < l4 ? -1 : 1) :
			memcmp(&m->t6.addr, &t6->addr, sizeof(t6->addr)) ?:
			(int)ntohs(m->t6.port) - (int)ntohs(t6->port);

		if (!d)
			return ci->bib_by6[mid];
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

int tern_cfg_build(struct net *net, struct tern_cfg *c,
		   struct netlink_ext_ack *extack)
{
	struct tern_cfg_inst *ci;
	int ret = 0;
	u32 i;

	for (i = 0; i < c->n && !ret; i++) {
		ci = &c->v[i];
		ret = tern_cfg_eamt(net, ci, extack) ?:
		      tern_cfg_deny4(net, ci, extack) ?:
		      tern_cfg_pool4(net, ci, extack) ?:
		      tern_cfg_bib(net, ci, extack);
		if (ret)
			tern_cfg_err(extack, ci->nla, ret);
	}
	return ret;
}

static void tern_cfg_list_free(struct tern_cfg_list *l)
{
	kvfree(l->v);
	kvfree(l->nla);
}

void tern_cfg_free(struct tern_cfg *c)
{
	struct tern_cfg_inst *ci;
	u32 i;

	for (i = 0; i < c->n; i++) {
		ci = &c->v[i];
		tern_cfg_list_free(&ci->eam);
		tern_cfg_list_free(&ci->deny);
		tern_cfg_list_free(&ci->pool4);
		tern_cfg_list_free(&ci->bib);
		kvfree(ci->bib_by6);
		kfree(ci->cfg);
		tern_eamt_free(ci->eamt);
		tern_deny4_free(ci->deny4);
		tern_pool4_free(ci->pool4t);
	}
	kvfree(c->v);
	memset(c, 0, sizeof(*c));
}

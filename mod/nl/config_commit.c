// SPDX-License-Identifier: GPL-2.0
/*
 * TERN_CMD_CONFIG_APPLY, commit: under the namespace's lock, the request
 * (read and built by nl/config.c) is checked against the running state,
 * then swapped in. Only memory can fail past the checks: creating an
 * instance (done first where it can be undone), and static BIB entries,
 * which live in the NAT64 tables beside the dynamic state (added last;
 * see docs/config.md for what an apply that fails there leaves).
 */

#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include "core/instance.h"
#include "nat64/nat64.h"
#include "nat64/pool4.h"
#include "siit/denylist4.h"
#include "siit/eamt.h"
#include "nl/common.h"
#include "nl/config.h"
#include "nl/netlink.h"

/* The instances of the request that exist already, same type and framework. */
static void tern_cfg_match(struct tern_net *tn, struct tern_cfg *c)
{
	struct tern_instance *inst;
	u32 i;

	for (i = 0; i < c->n; i++) {
		list_for_each_entry(inst, &tn->instances, list) {
			if (strcmp(inst->name, c->v[i].name))
				continue;
			if (inst->type == c->v[i].type &&
			    inst->framework == c->v[i].framework)
				c->v[i].inst = inst;
			else
				c->v[i].replaced = inst;
		}
	}
}

static bool tern_cfg_same_bib(const struct tern_cfg_bib *e,
			      const struct tern_bib *b)
{
	return b->is_static && b->l4 == e->l4 && b->t4.addr == e->t4.addr &&
	       b->t4.port == e->t4.port &&
	       ipv6_addr_equal(&b->t6.addr, &e->t6.addr) &&
	       b->t6.port == e->t6.port;
}

/*
 * A static entry of the request may take the place of a static one the
 * request drops, not that of a dynamic one (as `bib add`).
 */
static int tern_cfg_bib_state(struct tern_cfg_inst *ci,
			      struct netlink_ext_ack *extack)
{
	struct tern_tables *t = tern_nat64_tables(ci->inst);
	const struct tern_cfg_bib *v = ci->bib.v;
	const struct tern_bib *b6, *b4;
	bool dyn6, dyn4;
	u32 i;

	for (i = 0; i < ci->bib.n; i++) {
		rcu_read_lock();
		b6 = tern_bib_find6(t, v[i].l4, &v[i].t6);
		b4 = tern_bib_find4(t, v[i].l4, &v[i].t4);
		dyn6 = b6 && !b6->is_static;
		dyn4 = b4 && !b4->is_static;
		rcu_read_unlock();
		if (dyn6 || dyn4) {
			if (dyn6)
				NL_SET_ERR_MSG_ATTR(extack, ci->bib.nla[i],
						    "a dynamic BIB entry has this IPv6 transport address");
			else
				NL_SET_ERR_MSG_ATTR(extack, ci->bib.nla[i],
						    "a dynamic BIB entry has this IPv4 transport address");
			return -EEXIST;
		}
	}
	return 0;
}

/* The static entries of a kept instance that the request drops. */
struct tern_cfg_gone {
	const struct tern_cfg_inst *ci;
	struct tern_cfg_bib *v;
	u32 n, cap;
};

static int tern_cfg_gone_one(const struct tern_bib *b, void *arg)
{
	struct tern_cfg_gone *g = arg;
	const struct tern_cfg_bib *v = g->ci->bib.v;
	int i;

	if (!b->is_static)
		return 0;
	i = tern_cfg_bib_find6(g->ci, b->l4, &b->t6);
	if (i >= 0 && tern_cfg_same_bib(&v[i], b))
		return 0;
	if (g->n < g->cap) {
		g->v[g->n].l4 = b->l4;
		g->v[g->n].t6 = b->t6;
		g->v[g->n].t4 = b->t4;
	}
	g->n++;
	return 0;
}

static void tern_cfg_gone_walk(struct tern_tables *t, struct tern_cfg_gone *g)
{
	struct tern_walk_pos pos;
	u8 l4;

	g->n = 0;
	rcu_read_lock();
	for (l4 = 0; l4 < TERN_L4_N; l4++) {
		memset(&pos, 0, sizeof(pos));
		tern_bib_walk(t, l4, &pos, tern_cfg_gone_one, g);
	}
	rcu_read_unlock();
}

/*
 * Static entries only change under the lock: the second walk finds what
 * the first counted.
 */
static int tern_cfg_gone(struct tern_cfg_inst *ci, struct tern_cfg_gone *g)
{
	struct tern_tables *t = tern_nat64_tables(ci->inst);

	memset(g, 0, sizeof(*g));
	g->ci = ci;
	if (!t)
		return 0;
	tern_cfg_gone_walk(t, g);
	if (!g->n)
		return 0;
	g->v = kvmalloc_array(g->n, sizeof(*g->v), GFP_KERNEL);
	if (!g->v)
		return -ENOMEM;
	g->cap = g->n;
	tern_cfg_gone_walk(t, g);
	g->n = min(g->n, g->cap);
	return 0;
}

/* A new netfilter instance waits for the one it replaces to go. */
static bool tern_cfg_fw_busy(struct tern_net *tn, const struct tern_cfg_inst *ci)
{
	struct tern_instance *inst;

	list_for_each_entry(inst, &tn->instances, list)
		if (inst->framework == TERN_FW_NETFILTER &&
		    ci->framework == TERN_FW_NETFILTER)
			return true;
	return false;
}

/* Created disabled: its tables and settings come with the others. */
static int tern_cfg_create(struct tern_net *tn, struct net *net,
			   struct tern_cfg_inst *ci,
			   struct netlink_ext_ack *extack)
{
	struct tern_config tmp = *ci->cfg;
	int ret;

	tmp.enabled = false;
	ret = tern_instance_add(net, ci->name, ci->type, ci->framework, &tmp,
				extack);
	if (ret)
		return tern_cfg_err(extack, ci->nla, ret);
	ci->inst = tern_instance_find(tn, ci->name, NULL);
	return 0;
}

/*
 * The tables and settings of @ci reach packets as one: the configuration
 * names its tables (tern_instance_set_config()), and the old tables are
 * freed after the copy that named them was replaced.
 */
static void tern_cfg_publish(struct tern_net *tn, struct tern_cfg_inst *ci)
{
	struct tern_instance *inst = ci->inst;
	struct tern_eamt *eamt;
	struct tern_deny4 *deny4;
	struct tern_pool4 *pool4;

#define TERN_HELD lockdep_is_held(&tn->lock)
	eamt = rcu_replace_pointer(inst->eamt, ci->eamt, TERN_HELD);
	deny4 = rcu_replace_pointer(inst->deny4, ci->deny4, TERN_HELD);
	pool4 = rcu_replace_pointer(inst->pool4, ci->pool4t, TERN_HELD);
#undef TERN_HELD
	tn->tables_gen++;
	tern_instance_set_config(inst, ci->cfg);
	tern_eamt_free_rcu(eamt);
	tern_deny4_free_rcu(deny4);
	tern_pool4_free_rcu(pool4);
	if (inst->nat64)
		tern_nat64_config_changed(inst);
	ci->eamt = NULL;
	ci->deny4 = NULL;
	ci->pool4t = NULL;
	ci->cfg = NULL;
}

/* The static BIB entries the request drops. */
static void tern_cfg_bib_drop(struct tern_cfg_inst *ci,
			      const struct tern_cfg_gone *g)
{
	struct tern_tables *t = tern_nat64_tables(ci->inst);
	u32 i;

	for (i = 0; i < g->n; i++)
		tern_bib_del(t, g->v[i].l4, &g->v[i].t6, NULL);
}

/*
 * The static BIB entries missing: each added if it can be (a packet may
 * have taken its address since the check, or memory run out); the first
 * refusal is told (@ret: one told before, kept).
 */
static int tern_cfg_bib_add(struct tern_cfg_inst *ci, int ret,
			    struct netlink_ext_ack *extack)
{
	struct tern_tables *t = tern_nat64_tables(ci->inst);
	const struct tern_cfg_bib *v = ci->bib.v;
	const struct tern_bib *b;
	bool kept;
	int err;
	u32 i;

	for (i = 0; i < ci->bib.n; i++) {
		rcu_read_lock();
		b = tern_bib_find6(t, v[i].l4, &v[i].t6);
		kept = b && tern_cfg_same_bib(&v[i], b);
		rcu_read_unlock();
		if (kept)
			continue;
		err = tern_bib_add_static_max(t, v[i].l4, &v[i].t6, &v[i].t4,
					      U32_MAX);
		if (err && !ret) {
			NL_SET_ERR_MSG_ATTR(extack, ci->bib.nla[i],
					    "static BIB entry not added (taken meanwhile or no memory): the rest is applied");
			ret = err;
		}
	}
	return ret;
}

/* Removes the instances this request created: nothing else changed yet. */
static void tern_cfg_uncreate(struct tern_cfg *c)
{
	LIST_HEAD(gone);
	u32 i;

	for (i = 0; i < c->n; i++) {
		if (!c->v[i].created)
			continue;
		tern_instance_unlist(c->v[i].inst, &gone);
		c->v[i].inst = NULL;
		c->v[i].created = false;
	}
	tern_instances_del(&gone);
}

static int tern_cfg_locked(struct tern_net *tn, struct net *net,
			   struct tern_cfg *c, struct tern_cfg_gone *gone,
			   struct netlink_ext_ack *extack)
{
	struct tern_instance *inst, *tmp;
	struct tern_cfg_inst *ci;
	LIST_HEAD(gone_list);
	u32 i;
	int ret;

	tern_cfg_match(tn, c);
	for (i = 0; i < c->n; i++) {
		ci = &c->v[i];
		if (!ci->inst || ci->type != TERN_TYPE_NAT64)
			continue;
		ret = tern_cfg_bib_state(ci, extack) ?:
		      tern_cfg_gone(ci, &gone[i]);
		if (ret)
			return tern_cfg_err(extack, ci->nla, ret);
	}
	/* New instances first where they can be undone: nothing changed yet. */
	for (i = 0; i < c->n; i++) {
		ci = &c->v[i];
		if (ci->inst || ci->replaced || tern_cfg_fw_busy(tn, ci))
			continue;
		ret = tern_cfg_create(tn, net, ci, extack);
		if (ret) {
			tern_cfg_uncreate(c);
			return ret;
		}
		ci->created = true;
	}
	list_for_each_entry_safe(inst, tmp, &tn->instances, list) {
		for (i = 0; i < c->n && c->v[i].inst != inst; i++)
			;
		if (i == c->n)
			tern_instance_unlist(inst, &gone_list);
	}
	tern_instances_del(&gone_list);
	for (i = 0; i < c->n; i++) {
		ci = &c->v[i];
		if (ci->inst)
			continue;
		ret = tern_cfg_create(tn, net, ci, extack);
		if (ret) {
			/* Those the file drops are gone: the rest is as it was. */
			tern_cfg_uncreate(c);
			return ret;
		}
		ci->created = true;
	}
	for (i = 0; i < c->n; i++)
		tern_cfg_publish(tn, &c->v[i]);
	/*
	 * The dynamic BIB entries of addresses pool4 lost go with their
	 * sessions, once the packets that read the old pool4 are done (one
	 * could still make an entry from such an address).
	 */
	synchronize_net();
	for (i = 0; i < c->n; i++) {
		inst = c->v[i].inst;
		if (inst->nat64)
			tern_tables_flush_if(tern_nat64_tables(inst),
					     tern_pool4_lost,
					     tern_protected(tn, inst->pool4));
	}
	/* Every instance's dropped entries go before any entry comes. */
	for (i = 0; i < c->n; i++)
		if (c->v[i].type == TERN_TYPE_NAT64)
			tern_cfg_bib_drop(&c->v[i], &gone[i]);
	ret = 0;
	for (i = 0; i < c->n; i++)
		if (c->v[i].type == TERN_TYPE_NAT64)
			ret = tern_cfg_bib_add(&c->v[i], ret, extack);
	return ret;
}

int tern_cfg_commit(struct tern_net *tn, struct net *net, struct tern_cfg *c,
		    struct netlink_ext_ack *extack)
{
	struct tern_cfg_gone *gone;
	int ret;
	u32 i;

	gone = kvcalloc(max(c->n, 1U), sizeof(*gone), GFP_KERNEL);
	if (!gone)
		return -ENOMEM;
	mutex_lock(&tn->lock);
	ret = tern_cfg_locked(tn, net, c, gone, extack);
	mutex_unlock(&tn->lock);
	for (i = 0; i < c->n; i++)
		kvfree(gone[i].v);
	kvfree(gone);
	return ret;
}

int tern_nl_config_apply(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct tern_cfg c;
	int ret;

	ret = tern_cfg_read(info, &c);
	if (ret)
		return ret;
	ret = tern_cfg_commit(tern_net(net), net, &c, info->extack);
	tern_cfg_free(&c);
	return ret;
}

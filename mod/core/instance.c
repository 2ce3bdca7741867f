// SPDX-License-Identifier: GPL-2.0
/*
 * Instances: named translators living in a network namespace. They are
 * created and removed over netlink and vanish with their namespace.
 */

#include <linux/ipv6.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include "fw/hook.h"
#include "fw/xt.h"
#include "core/instance.h"
#include "core/modes.h"
#include "core/route_cache.h"

static unsigned int tern_net_id __read_mostly;

struct tern_net *tern_net(struct net *net)
{
	return net_generic(net, tern_net_id);
}

/*
 * Finds @name, or the only instance of the namespace if @name is NULL.
 * Caller holds tn->lock.
 */
struct tern_instance *tern_instance_find(struct tern_net *tn, const char *name,
					 struct netlink_ext_ack *extack)
{
	struct tern_instance *inst, *found = NULL;

	lockdep_assert_held(&tn->lock);
	list_for_each_entry(inst, &tn->instances, list) {
		if (name) {
			if (!strcmp(inst->name, name))
				return inst;
			continue;
		}
		if (found) {
			NL_SET_ERR_MSG(extack,
				       "several instances exist in this namespace: name one");
			return ERR_PTR(-EINVAL);
		}
		found = inst;
	}
	if (found)
		return found;
	if (name)
		NL_SET_ERR_MSG(extack, "no instance by that name in this namespace");
	else
		NL_SET_ERR_MSG(extack, "no instance in this namespace");
	return ERR_PTR(-ESRCH);
}

/*
 * Where packets come from: the netfilter hooks, or the slot of the
 * instance's name that iptables rules use (fw/xt.c). No hooks for an
 * iptables instance.
 */
static int tern_instance_attach(struct tern_instance *inst,
				struct netlink_ext_ack *extack)
{
	int ret;

	if (inst->framework == TERN_FW_IPTABLES)
		return tern_xt_bind(inst);
	ret = tern_hook_register(inst);
	if (ret) {
		NL_SET_ERR_MSG(extack, "could not register the netfilter hooks");
		/*
		 * A failed registration may have installed and removed one of
		 * the hooks: packets may still be running in it.
		 */
		synchronize_net();
	}
	return ret;
}

/* Packets stop coming; some may still be inside until a grace period. */
static void tern_instance_detach(struct tern_instance *inst)
{
	if (inst->framework == TERN_FW_IPTABLES)
		tern_xt_unbind(inst);
	else
		tern_hook_unregister(inst);
}

int tern_instance_add(struct net *net, const char *name, u8 type, u8 framework,
		      const struct tern_config *cfg,
		      struct netlink_ext_ack *extack)
{
	struct tern_net *tn = tern_net(net);
	const struct tern_life_ops *mode;
	struct tern_instance *inst, *it;
	struct tern_config *c;
	int ret;

	lockdep_assert_held(&tn->lock);
	/* Booted with ipv6.disable=1: no IPv6 routing to translate to. */
	if (!ipv6_mod_enabled()) {
		NL_SET_ERR_MSG(extack,
			       "IPv6 is disabled on this host (ipv6.disable=1)");
		return -EAFNOSUPPORT;
	}
	mode = tern_mode_life(type);
	if (!mode) {
		NL_SET_ERR_MSG(extack, "no such instance type");
		return -EINVAL;
	}
	list_for_each_entry(it, &tn->instances, list) {
		if (!strcmp(it->name, name)) {
			NL_SET_ERR_MSG(extack,
				       "an instance by that name already exists in this namespace");
			return -EEXIST;
		}
		if (framework == TERN_FW_NETFILTER &&
		    it->framework == TERN_FW_NETFILTER) {
			NL_SET_ERR_MSG(extack,
				       "this namespace already has a netfilter instance (at most one per namespace)");
			return -EEXIST;
		}
	}

	inst = kzalloc(sizeof(*inst), GFP_KERNEL_ACCOUNT);
	if (!inst)
		return -ENOMEM;
	c = kmemdup(cfg, sizeof(*cfg), GFP_KERNEL_ACCOUNT);
	if (!c) {
		ret = -ENOMEM;
		goto err_inst;
	}
	inst->stats = tern_stats_alloc();
	inst->host = tern_host_cache_alloc();
	inst->routes = tern_route_cache_alloc();
	if (!inst->stats || !inst->host || !inst->routes) {
		ret = -ENOMEM;
		goto err_stats;
	}
	inst->net = net;
	strscpy(inst->name, name, sizeof(inst->name));
	inst->type = type;
	inst->framework = framework;
	/* No table yet (a caller's copy may name another instance's). */
	c->eamt = NULL;
	c->deny4 = NULL;
	c->pool4 = NULL;
	RCU_INIT_POINTER(inst->cfg, c);
	if (mode->create) {
		ret = mode->create(inst, extack);
		/* What it made before it failed is the modes' to free. */
		if (ret)
			goto err_mode;
	}

	ret = tern_instance_attach(inst, extack);
	if (ret)
		goto err_mode;
	list_add_tail(&inst->list, &tn->instances);
	tn->count++;
	tn->gen++;
	return 0;

err_mode:
	tern_modes_release(inst);
err_stats:
	tern_stats_free(inst->stats);
	tern_host_cache_free(inst->host);
	tern_route_cache_free(inst->routes);
	kfree(c);
err_inst:
	kfree(inst);
	return ret;
}

/*
 * Frees what the packet path can reach. Only after a grace period that
 * started once the hooks were gone (nf_unregister_net_hooks() does not wait
 * for the packets already inside them) or the slot forgot the instance.
 */
static void tern_instance_free(struct tern_instance *inst)
{
	tern_modes_release(inst);
	kfree(rcu_dereference_protected(inst->cfg, true));
	tern_stats_free(inst->stats);
	tern_host_cache_free(inst->host);
	tern_route_cache_free(inst->routes);
	kfree(inst);
}

void tern_instance_unlist(struct tern_instance *inst, struct list_head *gone)
{
	struct tern_net *tn = tern_net(inst->net);

	lockdep_assert_held(&tn->lock);
	list_move_tail(&inst->list, gone);
	tn->count--;
	tn->gen++;
}

void tern_instances_del(struct list_head *gone)
{
	struct tern_instance *inst, *tmp;

	if (list_empty(gone))
		return;
	list_for_each_entry(inst, gone, list)
		tern_instance_detach(inst);
	/* Packets in flight in the hooks or rules are done after this. */
	synchronize_net();
	list_for_each_entry_safe(inst, tmp, gone, list)
		tern_instance_free(inst);
}

void tern_instance_del(struct tern_instance *inst)
{
	LIST_HEAD(gone);

	tern_instance_unlist(inst, &gone);
	tern_instances_del(&gone);
}

void tern_instance_set_config(struct tern_instance *inst,
			      struct tern_config *cfg)
{
	struct tern_config *old;

	lockdep_assert_held(&tern_net(inst->net)->lock);
	cfg->eamt = rcu_dereference_protected(inst->eamt, true);
	cfg->deny4 = rcu_dereference_protected(inst->deny4, true);
	cfg->pool4 = rcu_dereference_protected(inst->pool4, true);
	old = rcu_replace_pointer(inst->cfg, cfg, true);
	kfree_rcu(old, rcu);
}

struct tern_config *tern_instance_config_dup(struct tern_instance *inst)
{
	lockdep_assert_held(&tern_net(inst->net)->lock);
	return kmemdup(rcu_dereference_protected(inst->cfg, true),
		       sizeof(struct tern_config), GFP_KERNEL_ACCOUNT);
}

static int __net_init tern_net_init(struct net *net)
{
	struct tern_net *tn = tern_net(net);

	mutex_init(&tn->lock);
	INIT_LIST_HEAD(&tn->instances);
	INIT_LIST_HEAD(&tn->dying);
	tn->gen = 1;
	return 0;
}

/*
 * A namespace going: its instances stop taking packets here, and are freed
 * in tern_net_exit(). The kernel waits for a grace period between the two
 * (cleanup_net(), and the same at module unload): one for every namespace
 * of the batch, not one for each (containers die by the hundred).
 */
static void __net_exit tern_net_pre_exit(struct net *net)
{
	struct tern_net *tn = tern_net(net);
	struct tern_instance *inst;

	mutex_lock(&tn->lock);
	list_splice_init(&tn->instances, &tn->dying);
	tn->count = 0;
	tn->gen++;
	list_for_each_entry(inst, &tn->dying, list)
		tern_instance_detach(inst);
	mutex_unlock(&tn->lock);
}

static void __net_exit tern_net_exit(struct net *net)
{
	struct tern_net *tn = tern_net(net);
	struct tern_instance *inst, *tmp;

	list_for_each_entry_safe(inst, tmp, &tn->dying, list)
		tern_instance_free(inst);
}

static struct pernet_operations tern_net_ops = {
	.init = tern_net_init,
	.pre_exit = tern_net_pre_exit,
	.exit = tern_net_exit,
	.id = &tern_net_id,
	.size = sizeof(struct tern_net),
};

int tern_instance_init(void)
{
	return register_pernet_subsys(&tern_net_ops);
}

void tern_instance_exit(void)
{
	unregister_pernet_subsys(&tern_net_ops);
	/* Configurations freed with kfree_rcu() must be gone before unload. */
	rcu_barrier();
}

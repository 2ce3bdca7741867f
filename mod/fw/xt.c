// SPDX-License-Identifier: GPL-2.0
/*
 * iptables mode: the xtables target TERN (`-j TERN --instance NAME`, in
 * the raw or mangle table's PREROUTING chain, IPv4 and IPv6, legacy or
 * nft_compat) hands a packet to the iptables-mode instance NAME.
 *
 * Rules and instances meet in a slot: one per name and namespace, made by
 * the first rule or iptables instance of that name and freed when the
 * last of them is gone (counted under the namespace's slot mutex). A rule
 * keeps a pointer to its slot in its target info (past the target's
 * usersize: userspace never sees it); the slot has an RCU pointer to the
 * instance, set when an iptables instance of that name is created and
 * cleared when it is removed, before the grace period that precedes its
 * freeing (tern_instance_del()). The packet path reads that one pointer:
 * no lookup, no lock. A rule whose slot has no instance (none by that
 * name, or a netfilter-mode one) lets the packet go on to the next rule
 * and counts it in the slot.
 */

#include <linux/mutex.h>
#include <linux/netfilter/x_tables.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include "xt_TERN.h"
#include "fw/xt.h"
#include "core/instance.h"
#include "xlat/xlat.h"

struct tern_xt_slot {
	struct list_head list;		/* in tern_xt_net.slots */
	struct tern_instance __rcu *inst; /* the iptables instance, or NULL */
	unsigned int rules;		/* target entries using the slot */
	u64 __percpu *missed;		/* packets passed without instance */
	struct rcu_head rcu;
	char name[TERN_INSTANCE_NAMSIZ];
};

/* Per namespace; the lock nests inside tern_net.lock. */
struct tern_xt_net {
	struct mutex lock;
	struct list_head slots;
	unsigned int gen;		/* bumped when a slot comes or goes */
};

static unsigned int tern_xt_net_id __read_mostly;

static struct tern_xt_net *tern_xt_net(struct net *net)
{
	return net_generic(net, tern_xt_net_id);
}

static struct tern_xt_slot *tern_xt_find(struct tern_xt_net *xn,
					 const char *name)
{
	struct tern_xt_slot *slot;

	lockdep_assert_held(&xn->lock);
	list_for_each_entry(slot, &xn->slots, list)
		if (!strcmp(slot->name, name))
			return slot;
	return NULL;
}

/* The slot of @name, made if there is none; NULL: out of memory. */
static struct tern_xt_slot *tern_xt_get(struct tern_xt_net *xn,
					const char *name)
{
	struct tern_xt_slot *slot = tern_xt_find(xn, name);

	if (slot)
		return slot;
	slot = kzalloc(sizeof(*slot), GFP_KERNEL_ACCOUNT);
	if (!slot)
		return NULL;
	slot->missed = alloc_percpu_gfp(u64, GFP_KERNEL_ACCOUNT);
	if (!slot->missed) {
		kfree(slot);
		return NULL;
	}
	strscpy(slot->name, name, sizeof(slot->name));
	list_add_tail(&slot->list, &xn->slots);
	xn->gen++;
	return slot;
}

static void tern_xt_free_rcu(struct rcu_head *head)
{
	struct tern_xt_slot *slot = container_of(head, struct tern_xt_slot,
						 rcu);

	free_percpu(slot->missed);
	kfree(slot);
}

/*
 * Frees @slot if no rule and no instance use it. xtables destroys a rule
 * once no packet can be in it, and an instance leaves its slot before a
 * grace period: the RCU delay is belt and braces.
 */
static void tern_xt_put(struct tern_xt_net *xn, struct tern_xt_slot *slot)
{
	lockdep_assert_held(&xn->lock);
	if (slot->rules || rcu_access_pointer(slot->inst))
		return;
	list_del(&slot->list);
	xn->gen++;
	call_rcu(&slot->rcu, tern_xt_free_rcu);
}

int tern_xt_bind(struct tern_instance *inst)
{
	struct tern_xt_net *xn = tern_xt_net(inst->net);
	struct tern_xt_slot *slot;

	mutex_lock(&xn->lock);
	slot = tern_xt_get(xn, inst->name);
	if (slot)
		rcu_assign_pointer(slot->inst, inst);
	mutex_unlock(&xn->lock);
	inst->xt_slot = slot;
	return slot ? 0 : -ENOMEM;
}

/* The caller waits for a grace period before it frees @inst. */
void tern_xt_unbind(struct tern_instance *inst)
{
	struct tern_xt_net *xn = tern_xt_net(inst->net);
	struct tern_xt_slot *slot = inst->xt_slot;

	if (!slot)
		return;
	mutex_lock(&xn->lock);
	RCU_INIT_POINTER(slot->inst, NULL);
	tern_xt_put(xn, slot);
	mutex_unlock(&xn->lock);
	inst->xt_slot = NULL;
}

static void tern_xt_fill(const struct tern_xt_slot *slot,
			 struct tern_xt_status *st)
{
	int cpu;

	strscpy(st->name, slot->name, sizeof(st->name));
	st->rules = slot->rules;
	st->missed = 0;
	for_each_possible_cpu(cpu)
		st->missed += READ_ONCE(*per_cpu_ptr(slot->missed, cpu));
}

/* The rules naming @name; false if there are none and no instance. */
bool tern_xt_status(struct net *net, const char *name,
		    struct tern_xt_status *st)
{
	struct tern_xt_net *xn = tern_xt_net(net);
	struct tern_xt_slot *slot;

	mutex_lock(&xn->lock);
	slot = tern_xt_find(xn, name);
	if (slot)
		tern_xt_fill(slot, st);
	mutex_unlock(&xn->lock);
	return slot;
}

/* Slot number @idx of the namespace (dumps); -ENOENT past the last. */
int tern_xt_slot_at(struct net *net, unsigned long idx,
		    struct tern_xt_status *st)
{
	struct tern_xt_net *xn = tern_xt_net(net);
	struct tern_xt_slot *slot;
	int ret = -ENOENT;

	mutex_lock(&xn->lock);
	list_for_each_entry(slot, &xn->slots, list) {
		if (idx--)
			continue;
		tern_xt_fill(slot, st);
		ret = 0;
		break;
	}
	mutex_unlock(&xn->lock);
	return ret;
}

unsigned int tern_xt_gen(struct net *net)
{
	return READ_ONCE(tern_xt_net(net)->gen);
}

/*
 * The packet path keeps per-CPU state and needs BHs off: ip_tables turns
 * them off, nft_compat after an NFQUEUE verdict does not (as fw/hook.c).
 */
static unsigned int tern_xt_verdict(unsigned int verdict)
{
	return verdict == NF_ACCEPT ? XT_CONTINUE : verdict;
}

static struct tern_instance *tern_xt_inst(const struct xt_action_param *par)
{
	const struct xt_tern_tginfo *info = par->targinfo;
	struct tern_xt_slot *slot = info->slot;
	struct tern_instance *inst = rcu_dereference(slot->inst);

	if (unlikely(!inst))
		this_cpu_inc(*slot->missed);
	return inst;
}

static unsigned int tern_xt_tg6(struct sk_buff *skb,
				const struct xt_action_param *par)
{
	struct tern_instance *inst = tern_xt_inst(par);

	if (unlikely(!inst))
		return XT_CONTINUE;
	return tern_xt_verdict(tern_xlat_6to4_any(inst, skb));
}

static unsigned int tern_xt_tg4(struct sk_buff *skb,
				const struct xt_action_param *par)
{
	struct tern_instance *inst = tern_xt_inst(par);

	if (unlikely(!inst))
		return XT_CONTINUE;
	return tern_xt_verdict(tern_xlat_4to6_any(inst, skb));
}

static int tern_xt_check(const struct xt_tgchk_param *par)
{
	struct xt_tern_tginfo *info = par->targinfo;
	struct tern_xt_net *xn = tern_xt_net(par->net);
	size_t len = strnlen(info->instance, sizeof(info->instance));
	struct tern_xt_slot *slot;

	if (!len || len == sizeof(info->instance)) {
		pr_info_ratelimited("TERN: an instance name has 1 to %d characters\n",
				    TERN_INSTANCE_NAMSIZ - 1);
		return -EINVAL;
	}
	if (!tern_instance_name_chars_ok(info->instance)) {
		pr_info_ratelimited("TERN: an instance name has printable characters, no blanks or quotes\n");
		return -EINVAL;
	}
	/* Not nat: its chains see only the first packet of a connection. */
	if (strcmp(par->table, "raw") && strcmp(par->table, "mangle")) {
		pr_info_ratelimited("TERN: only in the raw and mangle tables, not %s\n",
				    par->table);
		return -EINVAL;
	}
	mutex_lock(&xn->lock);
	slot = tern_xt_get(xn, info->instance);
	if (slot)
		slot->rules++;
	mutex_unlock(&xn->lock);
	if (!slot)
		return -ENOMEM;
	info->slot = slot;
	return 0;
}

static void tern_xt_destroy(const struct xt_tgdtor_param *par)
{
	struct xt_tern_tginfo *info = par->targinfo;
	struct tern_xt_net *xn = tern_xt_net(par->net);

	mutex_lock(&xn->lock);
	info->slot->rules--;
	tern_xt_put(xn, info->slot);
	mutex_unlock(&xn->lock);
}

/*
 * PRE_ROUTING only: the translator is a router that decides before the
 * routing decision. In FORWARD the TTL or Hop Limit is already
 * decremented (a translated packet would lose two); in LOCAL_OUT a packet
 * has a socket and no input device, which the packet path does not
 * expect.
 */
#define TERN_XT_TARGET(fam, fn)						\
	{								\
		.name = "TERN",						\
		.revision = 0,						\
		.family = (fam),					\
		.target = (fn),						\
		.targetsize = sizeof(struct xt_tern_tginfo),		\
		.usersize = offsetof(struct xt_tern_tginfo, slot),	\
		.checkentry = tern_xt_check,				\
		.destroy = tern_xt_destroy,				\
		.hooks = 1 << NF_INET_PRE_ROUTING,			\
		.me = THIS_MODULE,					\
	}

static struct xt_target tern_xt_targets[] __read_mostly = {
	TERN_XT_TARGET(NFPROTO_IPV4, tern_xt_tg4),
	TERN_XT_TARGET(NFPROTO_IPV6, tern_xt_tg6),
};

static int __net_init tern_xt_net_init(struct net *net)
{
	struct tern_xt_net *xn = tern_xt_net(net);

	mutex_init(&xn->lock);
	INIT_LIST_HEAD(&xn->slots);
	return 0;
}

/*
 * Nothing to free: the namespace's instances left their slots before
 * (their exit runs first), and its rules, destroyed by ip_tables or
 * nf_tables, may still hold slots until then (the generic data outlives
 * every exit method).
 */
static struct pernet_operations tern_xt_net_ops = {
	.init = tern_xt_net_init,
	.id = &tern_xt_net_id,
	.size = sizeof(struct tern_xt_net),
};

int tern_xt_init(void)
{
	return register_pernet_subsys(&tern_xt_net_ops);
}

int tern_xt_register(void)
{
	return xt_register_targets(tern_xt_targets,
				   ARRAY_SIZE(tern_xt_targets));
}

void tern_xt_unregister(void)
{
	xt_unregister_targets(tern_xt_targets, ARRAY_SIZE(tern_xt_targets));
}

void tern_xt_exit(void)
{
	unregister_pernet_subsys(&tern_xt_net_ops);
	/* Slots freed with call_rcu() must be gone before unload. */
	rcu_barrier();
}

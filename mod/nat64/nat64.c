// SPDX-License-Identifier: GPL-2.0
/*
 * A NAT64 instance's state: its tables, created with it and freed after
 * it; IPv4 and IPv6 defragmentation in its namespace (fragments are
 * translated with their session, so they arrive whole); the worker that
 * expires sessions in bounded runs (an established TCP one is probed and
 * kept in TRANS instead: nat64/probe.c). The IPv4 SYNs stored for a
 * simultaneous open have their own (nat64/synstore.c).
 */

#include <linux/mm.h>
#include <linux/slab.h>
#include <net/netfilter/ipv4/nf_defrag_ipv4.h>
#include <net/netfilter/ipv6/nf_defrag_ipv6.h>
#include "core/modes.h"
#include "nat64/events.h"
#include "nat64/nat64.h"
#include "nat64/pool4.h"
#include "nat64/probe.h"

/*
 * Expiry: a run of the collector, the next when the tables say. Unbound:
 * not on the CPU that translates just because it ran there first.
 */
static void tern_nat64_gc(struct work_struct *work)
{
	struct tern_nat64 *n = container_of(to_delayed_work(work),
					    struct tern_nat64, gc);
	unsigned long next;

	tern_tables_gc(n->tables, &next);
	tern_blocks_grow(n->blocks);
	queue_delayed_work(system_unbound_wq, &n->gc, next);
}

/*
 * max-sessions 0: what 1/32 of the RAM holds at 128 bytes a session (the
 * documented upper bound of a UDP session with its BIB entry).
 */
static u32 tern_nat64_auto_max(void)
{
	u64 bytes = (u64)totalram_pages() << PAGE_SHIFT;

	return clamp_t(u64, bytes / 32 / 128, 1024, 1U << 26);
}

void tern_nat64_limits(const struct tern_instance *inst,
		       const struct tern_config *cfg, struct tern_limits *lim)
{
	lim->max_sessions = cfg->max_sessions ?:
			    inst->nat64->auto_max_sessions;
	lim->max_sess_per_sub = cfg->max_sess_per_sub;
	lim->max_ports_per_sub = cfg->max_ports_per_sub;
	lim->sub_prefix_len = cfg->sub_prefix_len;
	lim->max_bib_sess4 = cfg->max_bib_sess4;
	lim->track_peers = cfg->adf;
}

/* Early drop (nat64/table_evict.c), counted. */
static void tern_nat64_evicted(void *arg, bool expired)
{
	struct tern_instance *inst = arg;

	tern_stats_inc(inst->stats, expired ? TERN_STAT_EVICT_EXPIRED :
					      TERN_STAT_EVICT_UNCONFIRMED);
}

/* Port blocks given and returned: counted, told as events. */
static void tern_nat64_block(void *arg, const struct tern_blk_info *bi,
			     bool add)
{
	struct tern_instance *inst = arg;

	tern_stats_inc(inst->stats, add ? TERN_STAT_BLOCK_ALLOC :
					  TERN_STAT_BLOCK_RELEASE);
	tern_nat64_ev_block(inst, bi, add);
}

static void tern_nat64_bib_bound(void *arg, const struct tern_bib *b,
				 bool add)
{
	struct tern_instance *inst = arg;

	tern_blocks_bound(inst->nat64->blocks, b, add);
}

int tern_nat64_create(struct tern_instance *inst,
		      struct netlink_ext_ack *extack)
{
	const struct tern_config *cfg = rcu_dereference_protected(inst->cfg,
								  true);
	struct tern_nat64 *n;
	int ret;

	n = kzalloc(sizeof(*n), GFP_KERNEL_ACCOUNT);
	if (!n)
		return -ENOMEM;
	n->net = inst->net;
	n->auto_max_sessions = tern_nat64_auto_max();
	get_random_bytes(&n->port_key, sizeof(n->port_key));
	tern_syn_init(&n->syns, inst->net);
	n->blocks = tern_blocks_alloc(tern_nat64_block, inst);
	n->tables = tern_tables_alloc(cfg->max_sessions ?:
				      n->auto_max_sessions);
	if (!n->tables || !n->blocks) {
		ret = -ENOMEM;
		goto err_tables;
	}
	ret = nf_defrag_ipv4_enable(inst->net);
	if (ret) {
		NL_SET_ERR_MSG(extack, "could not enable IPv4 defragmentation");
		goto err_tables;
	}
	n->defrag4 = true;
	ret = nf_defrag_ipv6_enable(inst->net);
	if (ret) {
		NL_SET_ERR_MSG(extack, "could not enable IPv6 defragmentation");
		goto err_defrag;
	}
	n->defrag6 = true;
	n->events.bib = tern_nat64_ev_bib;
	n->events.sess = tern_nat64_ev_sess;
	n->events.tcp_expire = tern_probe_tcp_expire;
	n->events.tcp_kept = tern_probe_tcp_kept;
	n->events.evicted = tern_nat64_evicted;
	n->events.bib_bound = tern_nat64_bib_bound;
	n->events.arg = inst;
	tern_tables_set_events(n->tables, &n->events);
	INIT_DELAYED_WORK(&n->gc, tern_nat64_gc);
	inst->nat64 = n;
	queue_delayed_work(system_unbound_wq, &n->gc, HZ / 2);
	return 0;

err_defrag:
	nf_defrag_ipv4_disable(inst->net);
err_tables:
	tern_tables_free(n->tables);
	tern_blocks_free(n->blocks);
	kfree(n);
	return ret;
}

void tern_nat64_config_changed(struct tern_instance *inst)
{
	const struct tern_config *cfg = rcu_dereference_protected(inst->cfg,
								  true);
	struct tern_nat64 *n = inst->nat64;

	if (!n)
		return;
	/* On failure the tables keep their arrays: longer chains, no harm. */
	if (tern_tables_resize(n->tables, cfg->max_sessions ?:
				      n->auto_max_sessions) < 0)
		pr_warn_ratelimited("tern: could not resize the NAT64 tables to max-sessions\n");
}

void tern_nat64_destroy(struct tern_instance *inst)
{
	struct tern_nat64 *n = inst->nat64;

	if (!n)
		return;
	cancel_delayed_work_sync(&n->gc);
	tern_syn_free(&n->syns);
	if (n->defrag6)
		nf_defrag_ipv6_disable(n->net);
	if (n->defrag4)
		nf_defrag_ipv4_disable(n->net);
	tern_tables_free(n->tables);
	tern_blocks_free(n->blocks);
	kfree(n);
	inst->nat64 = NULL;
}

/* The NAT64 parts of any instance: its state, pool4. */
static void tern_nat64_release(struct tern_instance *inst)
{
	tern_nat64_destroy(inst);
	tern_pool4_free_rcu(rcu_dereference_protected(inst->pool4, true));
}

static const struct tern_life_ops tern_nat64_life = {
	.create = tern_nat64_create,
	.release = tern_nat64_release,
};

int tern_nat64_init(void)
{
	int ret = tern_tables_init();

	if (ret)
		return ret;
	ret = tern_mode_register(TERN_TYPE_NAT64, &tern_nat64_life);
	if (ret)
		tern_tables_exit();
	return ret;
}

void tern_nat64_exit(void)
{
	tern_mode_unregister(TERN_TYPE_NAT64);
	tern_tables_exit();
}

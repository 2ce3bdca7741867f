// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink command of the counters: one u64 per counter of an instance,
 * summed over the CPUs.
 */

#include <linux/slab.h>
#include <net/genetlink.h>
#include "core/instance.h"
#include "nat64/nat64.h"
#include "nat64/table.h"
#include "nl/common.h"
#include "nl/netlink.h"

/* The sizes of the NAT64 tables of @inst, under tn->lock. */
static int tern_fill_tables(struct sk_buff *msg, struct tern_instance *inst)
{
	struct tern_net *tn = tern_net(inst->net);
	const struct tern_config *cfg;
	struct tern_tables *t = tern_nat64_tables(inst);
	struct tern_tables_count c = { 0 };
	struct tern_limits lim = { 0 };
	struct nlattr *nest;
	u64 syns = 0;

	if (t) {
		tern_tables_count(t, &c);
		syns = tern_syn_count(&inst->nat64->syns);
	}
	cfg = tern_protected(tn, inst->cfg);
	/* The limit in force: max-sessions 0 means the one derived from RAM. */
	if (inst->nat64)
		tern_nat64_limits(inst, cfg, &lim);
	nest = nla_nest_start(msg, TERN_A_TABLES);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(msg, TERN_TABLES_BIB, c.bib, TERN_TABLES_PAD) ||
	    nla_put_u64_64bit(msg, TERN_TABLES_SESSIONS, c.sessions,
			      TERN_TABLES_PAD) ||
	    nla_put_u64_64bit(msg, TERN_TABLES_BYTES, c.bytes,
			      TERN_TABLES_PAD) ||
	    nla_put_u64_64bit(msg, TERN_TABLES_MAX_SESSIONS, lim.max_sessions,
			      TERN_TABLES_PAD) ||
	    nla_put_u64_64bit(msg, TERN_TABLES_STORED_SYNS, syns,
			      TERN_TABLES_PAD) ||
	    nla_put_u64_64bit(msg, TERN_TABLES_BUCKET_BYTES, c.bucket_bytes,
			      TERN_TABLES_PAD)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int tern_fill_stats(struct sk_buff *msg, struct tern_instance *inst,
			   struct genl_info *info)
{
	u64 *cnt;
	struct nlattr *nest;
	int i, ret = 0;

	cnt = kmalloc_array(TERN_STAT_MAX + 1, sizeof(*cnt), GFP_KERNEL);
	if (!cnt)
		return -ENOMEM;
	tern_stats_sum(inst->stats, cnt);
	nest = nla_nest_start(msg, TERN_A_STATS);
	if (!nest) {
		ret = -EMSGSIZE;
		goto out;
	}
	for (i = TERN_STAT_PAD + 1; i <= TERN_STAT_MAX; i++) {
		if (nla_put_u64_64bit(msg, i, cnt[i], TERN_STAT_PAD)) {
			nla_nest_cancel(msg, nest);
			ret = -EMSGSIZE;
			goto out;
		}
	}
	nla_nest_end(msg, nest);
	if (inst->type == TERN_TYPE_NAT64)
		ret = tern_fill_tables(msg, inst);
out:
	kfree(cnt);
	return ret;
}

int tern_nl_stats_get(struct sk_buff *skb, struct genl_info *info)
{
	return tern_nl_reply(info, TERN_CMD_STATS_GET, tern_fill_stats);
}

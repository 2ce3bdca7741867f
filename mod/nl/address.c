// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink command of address queries: how an address is translated, by
 * which EAM or pool6, or why not.
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

/* Address queries */

static int tern_query_put(struct sk_buff *msg, int alen,
			  const struct tern_map_answer *ans,
			  const struct tern_prefix6 *pool6, bool local)
{
	struct nlattr *nest = nla_nest_start(msg, TERN_A_QUERY);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u8(msg, TERN_Q_VIA, ans->via) ||
	    (local && nla_put_flag(msg, TERN_Q_LOCAL)))
		goto err;
	if (ans->via == TERN_VIA_NONE) {
		if (nla_put_u8(msg, TERN_Q_WHY, ans->why))
			goto err;
	} else if (nla_put(msg, TERN_Q_ADDR, alen == 4 ? 16 : 4, &ans->out)) {
		goto err;
	}
	if (ans->via == TERN_VIA_EAMT &&
	    tern_nla_put_eam(msg, TERN_Q_EAM, &ans->eam, false))
		goto err;
	if (ans->via == TERN_VIA_POOL6 &&
	    tern_nla_put_prefix6(msg, TERN_Q_POOL6, pool6))
		goto err;
	nla_nest_end(msg, nest);
	return 0;
err:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

/* The answer about the request's address (4 or 16 bytes, checked). */
static int tern_query_fill(struct sk_buff *msg, struct tern_instance *inst,
			   struct genl_info *info)
{
	struct nlattr *attr = info->attrs[TERN_A_ADDR];
	int alen = nla_len(attr);
	const struct tern_config *cfg;
	struct tern_map_answer ans;
	struct tern_prefix6 pool6;
	bool local;

	rcu_read_lock();
	cfg = tern_instance_config(inst);
	/* The packet path lets packets to the host's own addresses pass. */
	if (alen == 16) {
		tern_map_explain6(cfg, nla_data(attr), &ans);
		local = ipv6_chk_addr(inst->net, nla_data(attr), NULL, 0);
	} else {
		tern_map_explain4(cfg, nla_get_in_addr(attr), &ans);
		local = __ip_dev_find(inst->net, nla_get_in_addr(attr), false);
	}
	pool6 = cfg->pool6;
	rcu_read_unlock();
	return tern_query_put(msg, alen, &ans, &pool6, local);
}

int tern_nl_addr_query(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[TERN_A_ADDR];

	if (tern_nl_missing(info, TERN_A_ADDR,
			    "missing the address (TERN_A_ADDR)"))
		return -EINVAL;
	if (nla_len(attr) != 4 && nla_len(attr) != 16) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "an address has 4 (IPv4) or 16 (IPv6) bytes");
		return -EINVAL;
	}
	return tern_nl_reply(info, TERN_CMD_ADDR_QUERY, tern_query_fill);
}

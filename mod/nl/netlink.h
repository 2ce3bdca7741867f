/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic netlink family "tern" (nl/family.c) and its commands, one
 * file per object.
 */
#ifndef _TERN_NETLINK_H
#define _TERN_NETLINK_H

#include <net/genetlink.h>

int tern_genl_init(void);
void tern_genl_exit(void);

extern struct genl_family tern_genl_family;
/* The family is registered: events may be sent (under RCU). */
extern bool tern_genl_live;

/* The family's multicast groups, by index (tern_genl_mcgrps[]). */
enum tern_mcgrp {
	TERN_MCGRP_EVENTS,	/* TERN_GENL_MCGRP_EVENTS (nat64/events.c) */
};

/* nl/instance.c */
int tern_nl_instance_add(struct sk_buff *skb, struct genl_info *info);
int tern_nl_instance_del(struct sk_buff *skb, struct genl_info *info);
int tern_nl_instance_dump(struct sk_buff *skb, struct netlink_callback *cb);
/* nl/globals.c */
int tern_nl_global_get(struct sk_buff *skb, struct genl_info *info);
int tern_nl_global_set(struct sk_buff *skb, struct genl_info *info);
/* nl/stats.c */
int tern_nl_stats_get(struct sk_buff *skb, struct genl_info *info);
/* nl/eamt.c */
int tern_nl_eamt_add(struct sk_buff *skb, struct genl_info *info);
int tern_nl_eamt_del(struct sk_buff *skb, struct genl_info *info);
int tern_nl_eamt_dump(struct sk_buff *skb, struct netlink_callback *cb);
int tern_nl_eamt_flush(struct sk_buff *skb, struct genl_info *info);
/* nl/denylist4.c */
int tern_nl_deny4_add(struct sk_buff *skb, struct genl_info *info);
int tern_nl_deny4_del(struct sk_buff *skb, struct genl_info *info);
int tern_nl_deny4_dump(struct sk_buff *skb, struct netlink_callback *cb);
int tern_nl_deny4_flush(struct sk_buff *skb, struct genl_info *info);
/* nl/pool4.c */
int tern_nl_pool4_add(struct sk_buff *skb, struct genl_info *info);
int tern_nl_pool4_del(struct sk_buff *skb, struct genl_info *info);
int tern_nl_pool4_dump(struct sk_buff *skb, struct netlink_callback *cb);
int tern_nl_pool4_flush(struct sk_buff *skb, struct genl_info *info);
/* nl/address.c */
int tern_nl_addr_query(struct sk_buff *skb, struct genl_info *info);
/* nl/bib.c */
int tern_nl_bib_add(struct sk_buff *skb, struct genl_info *info);
int tern_nl_bib_del(struct sk_buff *skb, struct genl_info *info);
int tern_nl_bib_dump(struct sk_buff *skb, struct netlink_callback *cb);
/* nl/session.c */
int tern_nl_session_dump(struct sk_buff *skb, struct netlink_callback *cb);
int tern_nl_session_flush(struct sk_buff *skb, struct genl_info *info);
/* nl/config_commit.c */
int tern_nl_config_apply(struct sk_buff *skb, struct genl_info *info);

#endif /* _TERN_NETLINK_H */

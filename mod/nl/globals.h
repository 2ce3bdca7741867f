/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_GLOBALS_NL_H
#define _TERN_GLOBALS_NL_H

#include <net/netlink.h>
#include "core/addr.h"
#include "tern_genl.h"

struct tern_config;

/* The policy of the TERN_A_GLOBALS nest, built by tern_globals_init(). */
extern struct nla_policy tern_globals_policy[TERN_G_MAX + 1];

int tern_globals_init(void);
/* Applies a TERN_A_GLOBALS nest to @cfg; leaves it untouched on error. */
int tern_globals_apply(struct tern_config *cfg, const struct nlattr *nla,
		       struct netlink_ext_ack *extack);
/* Puts every setting of @cfg in a TERN_A_GLOBALS nest. */
int tern_globals_put(struct sk_buff *skb, const struct tern_config *cfg);
/* A pool6 nest: a prefix RFC 6052 allows. */
int tern_nla_get_pool6(const struct nlattr *nla, struct tern_prefix6 *p,
		       struct netlink_ext_ack *extack);

#endif /* _TERN_GLOBALS_NL_H */

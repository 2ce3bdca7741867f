/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NETLINK_H
#define _TERN_NETLINK_H

#include <net/genetlink.h>
#include "addr.h"
#include "tern_genl.h"

int tern_genl_init(void);
void tern_genl_exit(void);

/* Shared by the command files (netlink.c, nl_tables.c). */
extern struct genl_family tern_genl_family;
extern const struct nla_policy tern_prefix6_policy[TERN_PREFIX_MAX + 1];
extern const struct nla_policy tern_prefix4_policy[TERN_PREFIX_MAX + 1];
extern const struct nla_policy tern_eam_policy[TERN_EAM_MAX + 1];

/*
 * A required attribute of a request. Missing, the request is refused with
 * its type (GENL_REQ_ATTR_CHECK) and @msg, a string literal saying which.
 */
static inline bool tern_nl_missing(struct genl_info *info, int attr,
				   const char *msg)
{
	if (!GENL_REQ_ATTR_CHECK(info, attr))
		return false;
	if (info->extack)
		info->extack->_msg = msg;
	return true;
}

/*
 * Reads a prefix nest into @addr (@alen bytes) and @len. Returns 1 for an
 * empty nest (an optional prefix unset), 0 for a prefix, or an error.
 */
int tern_nla_get_prefix(const struct nlattr *nla, void *addr, int alen,
			u8 *len, bool may_be_empty, struct netlink_ext_ack *extack);
int tern_nla_put_prefix6(struct sk_buff *skb, int type,
			 const struct tern_prefix6 *p);
int tern_nla_put_prefix4(struct sk_buff *skb, int type,
			 const struct tern_prefix4 *p);

/* nl_tables.c: EAMT, denylist4 and address queries. */
int tern_nl_eamt_add(struct sk_buff *skb, struct genl_info *info);
int tern_nl_eamt_del(struct sk_buff *skb, struct genl_info *info);
int tern_nl_eamt_dump(struct sk_buff *skb, struct netlink_callback *cb);
int tern_nl_eamt_flush(struct sk_buff *skb, struct genl_info *info);
int tern_nl_deny4_add(struct sk_buff *skb, struct genl_info *info);
int tern_nl_deny4_del(struct sk_buff *skb, struct genl_info *info);
int tern_nl_deny4_dump(struct sk_buff *skb, struct netlink_callback *cb);
int tern_nl_deny4_flush(struct sk_buff *skb, struct genl_info *info);
int tern_nl_addr_query(struct sk_buff *skb, struct genl_info *info);

#endif /* _TERN_NETLINK_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* What the netlink command files share (nl/common.c). */
#ifndef _TERN_NL_COMMON_H
#define _TERN_NL_COMMON_H

#include <net/genetlink.h>
#include "core/addr.h"
#include "tern_genl.h"

struct tern_net;
struct tern_instance;

/* A table of an instance, read under the namespace's lock. */
#define tern_protected(tn, p) rcu_dereference_protected(p, lockdep_is_held(&(tn)->lock))

extern const struct nla_policy tern_prefix6_policy[TERN_PREFIX_MAX + 1];
extern const struct nla_policy tern_prefix4_policy[TERN_PREFIX_MAX + 1];
extern const struct nla_policy tern_eam_policy[TERN_EAM_MAX + 1];
/* nl/family.c: an instance as TERN_CMD_INSTANCE_ADD and CONFIG take it */
extern const struct nla_policy tern_instance_add_policy[TERN_A_GLOBALS + 1];
/* nl/pool4.c */
extern const struct nla_policy tern_pool4_policy[TERN_POOL4_MAX + 1];

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
int tern_nla_get_prefix4(const struct nlattr *nla, struct tern_prefix4 *p,
			 struct netlink_ext_ack *extack);
int tern_nla_get_prefix6(const struct nlattr *nla, struct tern_prefix6 *p,
			 struct netlink_ext_ack *extack);
int tern_nla_put_prefix(struct sk_buff *skb, int type, const void *addr,
			int alen, u8 len);
int tern_nla_put_prefix6(struct sk_buff *skb, int type,
			 const struct tern_prefix6 *p);
int tern_nla_put_prefix4(struct sk_buff *skb, int type,
			 const struct tern_prefix4 *p);

struct tern_eam;
/* An EAMT entry's nest; @overlaps: with TERN_EAM_FORCE. */
int tern_nla_put_eam(struct sk_buff *skb, int type, const struct tern_eam *e,
		     bool overlaps);

/* An extack message naming an entry (see nl/common.c). */
__printf(3, 4) void tern_extack_fmt(struct tern_net *tn,
				    struct netlink_ext_ack *extack,
				    const char *fmt, ...);

/* The name in TERN_A_INSTANCE, or NULL. */
const char *tern_name_attr(struct genl_info *info);
/* The instance a request names, or the only one. Under tn->lock. */
struct tern_instance *tern_nl_instance(struct tern_net *tn,
				       struct nlattr **attrs,
				       struct netlink_ext_ack *extack);

/*
 * Replies with one message for the instance named (or not): its name, then
 * what @fill adds about it (0 or an error), under tn->lock.
 */
int tern_nl_reply(struct genl_info *info, u8 cmd,
		  int (*fill)(struct sk_buff *msg, struct tern_instance *inst,
			      struct genl_info *info));

/* A table of an instance (EAMT, denylist4, pool4) as its flush and dump see it. */
struct tern_nl_table {
	u8 get_cmd;	/* the command of the dump's messages */
	/* Optional: refuses an instance the table is not for (0 or error). */
	int (*check)(struct tern_instance *inst, struct netlink_ext_ack *extack);
	/*
	 * Replaces the table of @inst with @t (NULL: empty), or frees @t and
	 * returns -ENOMEM, changing nothing. Under tn->lock.
	 */
	int (*publish)(struct tern_net *tn, struct tern_instance *inst,
		       void *t);
	/*
	 * Adds entry @i of the table of @inst to @skb. Returns 1 past the
	 * end, 0 when added, or -EMSGSIZE. Under tn->lock.
	 */
	int (*put)(struct sk_buff *skb, struct tern_net *tn,
		   struct tern_instance *inst, u32 i);
};

/* Empties a table of the request's instance, under the lock. */
int tern_nl_table_flush(struct genl_info *info, const struct tern_nl_table *tbl);

/*
 * The check of the EAMT and denylist4 (struct tern_nl_table, and their
 * add and remove): a NAT64 instance reads neither, so it takes neither.
 */
int tern_nl_siit_only(struct tern_instance *inst,
		      struct netlink_ext_ack *extack);

/* One message per entry of a table, from cb->args[0] on. */
int tern_nl_table_dump(struct sk_buff *skb, struct netlink_callback *cb,
		       const struct tern_nl_table *tbl);

#endif /* _TERN_NL_COMMON_H */

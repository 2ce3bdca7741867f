/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the netlink commands of the NAT64 tables share (nl/bib.c,
 * nl/session.c): protocols, the request's NAT64 instance, resumable dumps.
 */
#ifndef _TERN_NL_NAT64_H
#define _TERN_NL_NAT64_H

#include <linux/in.h>
#include <net/genetlink.h>
#include "nat64/table.h"
#include "tern_genl.h"

struct tern_net;
struct tern_instance;

/* The table index of a TERN_A_PROTO value (checked by the policies). */
static inline u8 tern_nl_l4(u8 proto)
{
	switch (proto) {
	case IPPROTO_TCP:
		return TERN_L4_TCP;
	case IPPROTO_UDP:
		return TERN_L4_UDP;
	default:
		return TERN_L4_ICMP;
	}
}

/* The TERN_A_PROTO value of a table index. */
static inline u8 tern_nl_proto(u8 l4)
{
	static const u8 protos[TERN_L4_N] = {
		[TERN_L4_TCP] = IPPROTO_TCP,
		[TERN_L4_UDP] = IPPROTO_UDP,
		[TERN_L4_ICMP] = IPPROTO_ICMP,
	};

	return l4 < TERN_L4_N ? protos[l4] : 0;
}

/*
 * Policy check of a protocol attribute: one byte, TCP, UDP or ICMP. The
 * policies declare it NLA_BINARY of one byte (a u8 on the wire): a
 * validation function on an integer attribute makes 6.12 warn when it
 * describes the policy in an error reply.
 */
int tern_nla_validate_proto(const struct nlattr *attr,
			    struct netlink_ext_ack *extack);

extern const struct nla_policy tern_bib_policy[TERN_BIB_MAX + 1];

/*
 * The NAT64 instance a request names (or the only instance), under
 * tn->lock; an ERR_PTR() with a message for any other instance.
 */
struct tern_instance *tern_nl_nat64(struct tern_net *tn, struct nlattr **attrs,
				    struct netlink_ext_ack *extack);

/* The policy of TERN_A_FILTER (nested, enum tern_filter_attr). */
extern const struct nla_policy tern_filter_policy[TERN_FILTER_MAX + 1];

/* What a dump's TERN_A_FILTER asks for (struct tern_nl_walk). */
struct tern_nl_filter {
	bool has4, has_port4, has6, has_sub, only_static;
	u8 plen6;
	__be32 addr4;
	__be16 port4;
	struct in6_addr prefix6;
	struct in6_addr sub;
};

/*
 * A dump of BIB entries or sessions: one message per entry, protocol by
 * protocol (TCP, UDP, ICMP, or the one of TERN_A_PROTO), under
 * rcu_read_lock() only. Each part fills the skb and leaves its cursor in
 * cb->args: [0] the protocol's rank, [1] and [2] the struct tern_walk_pos.
 * @walk is tern_bib_walk() or tern_sess_walk() with its visitor: it
 * returns non-zero when the skb is full (-EMSGSIZE) or when the walk has
 * looked at @budget entries (-EAGAIN, tern_nl_walk_emit()): a filtered
 * dump that finds nothing for long drops the read lock, reschedules and
 * goes on from there.
 */
struct tern_nl_walk {
	struct sk_buff *skb;
	struct netlink_callback *cb;
	u8 cmd;
	u32 budget;
	struct tern_nl_filter filter;
};

int tern_nl_nat64_dump(struct sk_buff *skb, struct netlink_callback *cb,
		       u8 cmd,
		       int (*walk)(struct tern_tables *t, u8 l4,
				   struct tern_walk_pos *pos,
				   struct tern_nl_walk *w));

/*
 * One entry of a walk, @obj of BIB entry @b (the entry or one of its
 * sessions): its message, filled by @put(skb, @obj), if the filter lets
 * @b through. 0 to go on; -EMSGSIZE when the skb is full, -EAGAIN when
 * the stretch's budget is spent (the entry is seen again next time).
 */
int tern_nl_walk_emit(struct tern_nl_walk *w, const struct tern_bib *b,
		      int (*put)(struct sk_buff *skb, const void *obj),
		      const void *obj);

#endif /* _TERN_NL_NAT64_H */

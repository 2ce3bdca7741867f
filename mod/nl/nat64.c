// SPDX-License-Identifier: GPL-2.0
/*
 * What the netlink commands of the NAT64 tables share: the protocol
 * attribute, the request's NAT64 instance, and resumable dumps of BIB
 * entries and sessions that hold no lock between their parts and only
 * rcu_read_lock() while they walk.
 */

#include <linux/kernel.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include "core/compat.h"
#include "core/instance.h"
#include "nat64/nat64.h"
#include "nl/common.h"
#include "nl/nat64.h"
#include "nl/netlink.h"

int tern_nla_validate_proto(const struct nlattr *attr,
			    struct netlink_ext_ack *extack)
{
	if (nla_len(attr) != 1) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "the protocol is one byte");
		return -EINVAL;
	}
	switch (nla_get_u8(attr)) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
	case IPPROTO_ICMP:
		return 0;
	}
	NL_SET_ERR_MSG_ATTR(extack, attr,
			    "the protocol must be TCP (6), UDP (17) or ICMP (1)");
	return -EINVAL;
}

const struct nla_policy tern_bib_policy[TERN_BIB_MAX + 1] = {
	[TERN_BIB_PROTO] = NLA_POLICY_VALIDATE_FN(NLA_BINARY,
						  tern_nla_validate_proto, 1),
	[TERN_BIB_ADDR6] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[TERN_BIB_PORT6] = { .type = NLA_U16 },
	[TERN_BIB_ADDR4] = NLA_POLICY_EXACT_LEN(sizeof(__be32)),
	[TERN_BIB_PORT4] = { .type = NLA_U16 },
	[TERN_BIB_STATIC] = {
		.type = NLA_REJECT,
		.reject_message = "STATIC is only in the replies of BIB dumps",
	},
	[TERN_BIB_SESSIONS] = {
		.type = NLA_REJECT,
		.reject_message = "SESSIONS is only in the replies of BIB dumps",
	},
};

struct tern_instance *tern_nl_nat64(struct tern_net *tn, struct nlattr **attrs,
				    struct netlink_ext_ack *extack)
{
	struct tern_instance *inst = tern_nl_instance(tn, attrs, extack);

	if (IS_ERR(inst))
		return inst;
	if (inst->type != TERN_TYPE_NAT64) {
		NL_SET_ERR_MSG(extack,
			       "BIB entries and sessions are NAT64 objects: this instance is not a NAT64");
		return ERR_PTR(-EOPNOTSUPP);
	}
	if (!tern_nat64_tables(inst)) {
		NL_SET_ERR_MSG(extack, "this NAT64 instance has no tables");
		return ERR_PTR(-ENODEV);
	}
	return inst;
}

void *tern_nl_walk_msg(struct tern_nl_walk *w)
{
	void *hdr;

	hdr = genlmsg_put(w->skb, NETLINK_CB(w->cb->skb).portid,
			  w->cb->nlh->nlmsg_seq, &tern_genl_family,
			  NLM_F_MULTI, w->cmd);
	if (hdr)
		genl_dump_check_consistent(w->cb, hdr);
	return hdr;
}

int tern_nl_nat64_dump(struct sk_buff *skb, struct netlink_callback *cb,
		       u8 cmd,
		       int (*walk)(struct tern_tables *t, u8 l4,
				   struct tern_walk_pos *pos,
				   struct tern_nl_walk *w))
{
	struct tern_net *tn = tern_net(sock_net(skb->sk));
	struct nlattr **attrs = tern_dump_attrs(cb);
	struct tern_nl_walk w = { .skb = skb, .cb = cb, .cmd = cmd };
	u8 l4, first = TERN_L4_TCP, last = TERN_L4_N - 1;
	struct tern_instance *inst;
	struct tern_walk_pos pos;
	struct tern_tables *t;
	int ret = 0;

	if (attrs[TERN_A_PROTO])
		first = last = tern_nl_l4(nla_get_u8(attrs[TERN_A_PROTO]));

	mutex_lock(&tn->lock);
	inst = tern_nl_nat64(tn, attrs, cb->extack);
	if (IS_ERR(inst)) {
		mutex_unlock(&tn->lock);
		return PTR_ERR(inst);
	}
	/*
	 * An instance replaced, or its tables changed, between two parts
	 * flags the dump (NLM_F_DUMP_INTR): the walk resumes by position, so
	 * an entry may be missed or repeated.
	 */
	cb->seq = (tn->gen + tern_tables_changes(tern_nat64_tables(inst))) ?: 1;
	/*
	 * The instance is freed a grace period after it leaves the list
	 * (under the lock): it and its tables outlive this read section.
	 */
	rcu_read_lock();
	mutex_unlock(&tn->lock);

	t = tern_nat64_tables(inst);
	for (l4 = first + cb->args[0]; l4 <= last; l4++) {
		pos.bucket = cb->args[1];
		pos.skip = cb->args[2];
		ret = walk(t, l4, &pos, &w);
		cb->args[1] = pos.bucket;
		cb->args[2] = pos.skip;
		if (ret)
			break;
		cb->args[0]++;
		cb->args[1] = 0;
		cb->args[2] = 0;
	}
	rcu_read_unlock();

	/* Full before its first entry: that entry can never be sent. */
	if (ret && !skb->len)
		return -EMSGSIZE;
	return skb->len;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * What the netlink commands of the NAT64 tables share: the protocol
 * attribute, the request's NAT64 instance, and resumable dumps of BIB
 * entries and sessions that hold no lock between their parts and only
 * rcu_read_lock() while they walk.
 */

#include <linux/jhash.h>
#include <linux/kernel.h>
#include <linux/sched/signal.h>
#include <net/genetlink.h>
#include <net/ipv6.h>
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

const struct nla_policy tern_filter_policy[TERN_FILTER_MAX + 1] = {
	[TERN_FILTER_ADDR4] = NLA_POLICY_EXACT_LEN(sizeof(__be32)),
	[TERN_FILTER_PORT4] = { .type = NLA_U16 },
	[TERN_FILTER_PREFIX6] = NLA_POLICY_NESTED(tern_prefix6_policy),
	[TERN_FILTER_SUBSCRIBER] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[TERN_FILTER_STATIC] = { .type = NLA_FLAG },
};

/* The dump's filter (@attr may be NULL: everything) into @f. */
static int tern_nl_filter_get(const struct nlattr *attr,
			      struct tern_nl_filter *f,
			      struct netlink_ext_ack *extack)
{
	struct nlattr *tb[TERN_FILTER_MAX + 1];
	struct in6_addr masked;
	int ret;

	memset(f, 0, sizeof(*f));
	if (!attr)
		return 0;
	ret = nla_parse_nested(tb, TERN_FILTER_MAX, attr, tern_filter_policy,
			       extack);
	if (ret)
		return ret;
	if (tb[TERN_FILTER_PORT4] && !tb[TERN_FILTER_ADDR4]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TERN_FILTER_PORT4],
				    "a port filter needs its IPv4 address (TERN_FILTER_ADDR4)");
		return -EINVAL;
	}
	if (tb[TERN_FILTER_ADDR4]) {
		f->has4 = true;
		nla_memcpy(&f->addr4, tb[TERN_FILTER_ADDR4], sizeof(f->addr4));
	}
	if (tb[TERN_FILTER_PORT4]) {
		f->has_port4 = true;
		f->port4 = htons(nla_get_u16(tb[TERN_FILTER_PORT4]));
	}
	if (tb[TERN_FILTER_PREFIX6]) {
		ret = tern_nla_get_prefix(tb[TERN_FILTER_PREFIX6], &f->prefix6,
					  sizeof(f->prefix6), &f->plen6, false,
					  extack);
		if (ret)
			return ret;
		ipv6_addr_prefix(&masked, &f->prefix6, f->plen6);
		if (!ipv6_addr_equal(&masked, &f->prefix6)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[TERN_FILTER_PREFIX6],
					    "the IPv6 prefix has bits set past its length");
			return -EINVAL;
		}
		f->has6 = true;
	}
	if (tb[TERN_FILTER_SUBSCRIBER]) {
		f->has_sub = true;
		nla_memcpy(&f->sub, tb[TERN_FILTER_SUBSCRIBER], sizeof(f->sub));
	}
	f->only_static = nla_get_flag(tb[TERN_FILTER_STATIC]);
	return 0;
}

static bool tern_nl_filter_match(const struct tern_nl_filter *f,
				 const struct tern_bib *b)
{
	if (f->has4 && b->t4.addr != f->addr4)
		return false;
	if (f->has_port4 && b->t4.port != f->port4)
		return false;
	if (f->has6 && !ipv6_prefix_equal(&b->t6.addr, &f->prefix6, f->plen6))
		return false;
	if (f->only_static && !b->is_static)
		return false;
	return !f->has_sub || tern_bib_in_sub(b, &f->sub);
}

/*
 * Entries a dump looks at under one rcu_read_lock(): a filter that matches
 * few of a big table does not keep the read section for the whole walk.
 */
#define TERN_NL_DUMP_BUDGET	4096

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

int tern_nl_walk_emit(struct tern_nl_walk *w, const struct tern_bib *b,
		      int (*put)(struct sk_buff *skb, const void *obj),
		      const void *obj)
{
	void *hdr;

	if (!w->budget)
		return -EAGAIN;
	w->budget--;
	if (!tern_nl_filter_match(&w->filter, b))
		return 0;
	hdr = genlmsg_put(w->skb, NETLINK_CB(w->cb->skb).portid,
			  w->cb->nlh->nlmsg_seq, &tern_genl_family,
			  NLM_F_MULTI, w->cmd);
	if (!hdr)
		return -EMSGSIZE;
	genl_dump_check_consistent(w->cb, hdr);
	if (put(w->skb, obj)) {
		genlmsg_cancel(w->skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(w->skb, hdr);
	return 0;
}

/*
 * One stretch of a dump part: the request's instance looked up under the
 * lock, then its tables walked under rcu_read_lock() from the cursor in
 * cb->args until the skb is full, the budget spent, or the end.
 */
static int tern_nl_nat64_stretch(struct tern_net *tn, struct nlattr **attrs,
				 struct tern_nl_walk *w, u8 first, u8 last,
				 int (*walk)(struct tern_tables *t, u8 l4,
					     struct tern_walk_pos *pos,
					     struct tern_nl_walk *w))
{
	struct netlink_callback *cb = w->cb;
	struct tern_instance *inst;
	struct tern_walk_pos pos;
	struct tern_tables *t;
	bool only_static;
	int ret = 0;
	u8 l4;

	mutex_lock(&tn->lock);
	inst = tern_nl_nat64(tn, attrs, cb->extack);
	if (IS_ERR(inst)) {
		mutex_unlock(&tn->lock);
		return PTR_ERR(inst);
	}
	/*
	 * An instance replaced, or its tables changed, between two parts
	 * flags the dump (NLM_F_DUMP_INTR): the walk resumes by position, so
	 * an entry may be missed or repeated. A BIB dump of static entries
	 * counts only those in its position: only their changes matter.
	 * Hashed, not added: an instance replaced (the generation up by 2)
	 * whose new tables had 2 changes fewer would give the same sum.
	 */
	t = tern_nat64_tables(inst);
	only_static = w->filter.only_static && w->cmd == TERN_CMD_BIB_GET;
	cb->seq = jhash_2words(tn->gen,
			       only_static ? tern_tables_static_changes(t) :
					     tern_tables_changes(t), 0) ?: 1;
	/*
	 * The instance is freed a grace period after it leaves the list
	 * (under the lock): it and its tables outlive this read section.
	 */
	rcu_read_lock();
	mutex_unlock(&tn->lock);

	w->budget = TERN_NL_DUMP_BUDGET;
	for (l4 = first + cb->args[0]; l4 <= last; l4++) {
		pos.bucket = cb->args[1];
		pos.skip = cb->args[2];
		pos.only_static = only_static;
		ret = walk(t, l4, &pos, w);
		cb->args[1] = pos.bucket;
		cb->args[2] = pos.skip;
		if (ret)
			break;
		cb->args[0]++;
		cb->args[1] = 0;
		cb->args[2] = 0;
	}
	rcu_read_unlock();
	return ret;
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
	u8 first = TERN_L4_TCP, last = TERN_L4_N - 1;
	int ret;

	if (attrs[TERN_A_PROTO])
		first = last = tern_nl_l4(nla_get_u8(attrs[TERN_A_PROTO]));
	/* Checked by the first part, before any entry: its error ends it. */
	ret = tern_nl_filter_get(attrs[TERN_A_FILTER], &w.filter, cb->extack);
	if (ret)
		return ret;

	/* A part ends with an entry at least, or with the walk. */
	for (;;) {
		ret = tern_nl_nat64_stretch(tn, attrs, &w, first, last, walk);
		if (ret != -EAGAIN || skb->len)
			break;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	if (ret && ret != -EAGAIN && ret != -EMSGSIZE)
		return ret;
	/* Full before its first entry: that entry can never be sent. */
	if (ret == -EMSGSIZE && !skb->len)
		return -EMSGSIZE;
	return skb->len;
}

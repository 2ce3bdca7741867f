// SPDX-License-Identifier: GPL-2.0
/*
 * Netfilter mode: PRE_ROUTING hooks for both families in the instance's
 * namespace. Priority: after conntrack and destination NAT, like a router
 * that looks at packets just before its routing decision.
 */

#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include "fw/hook.h"
#include "core/inst.h"
#include "xlat/xlat.h"

#define TERN_HOOK_PRIORITY (NF_IP_PRI_NAT_DST + 25)

/* BHs off if the caller left them on (tern_xlat_6to4_any()). */
static unsigned int tern_hook_ipv6(void *priv, struct sk_buff *skb,
				   const struct nf_hook_state *state)
{
	return tern_xlat_6to4_any(priv, skb);
}

static unsigned int tern_hook_ipv4(void *priv, struct sk_buff *skb,
				   const struct nf_hook_state *state)
{
	return tern_xlat_4to6_any(priv, skb);
}

int tern_hook_register(struct tern_instance *inst)
{
	inst->hook_ops[0] = (struct nf_hook_ops) {
		.hook = tern_hook_ipv6,
		.pf = NFPROTO_IPV6,
		.hooknum = NF_INET_PRE_ROUTING,
		.priority = TERN_HOOK_PRIORITY,
		.priv = inst,
	};
	inst->hook_ops[1] = (struct nf_hook_ops) {
		.hook = tern_hook_ipv4,
		.pf = NFPROTO_IPV4,
		.hooknum = NF_INET_PRE_ROUTING,
		.priority = TERN_HOOK_PRIORITY,
		.priv = inst,
	};
	return nf_register_net_hooks(inst->net, inst->hook_ops,
				     ARRAY_SIZE(inst->hook_ops));
}

void tern_hook_unregister(struct tern_instance *inst)
{
	nf_unregister_net_hooks(inst->net, inst->hook_ops,
				ARRAY_SIZE(inst->hook_ops));
}

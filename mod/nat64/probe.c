// SPDX-License-Identifier: GPL-2.0
/*
 * The expiry of an established TCP session (RFC 6146 3.5.2.2): TRANS and
 * a probe to its IPv6 end; see nat64/probe.h.
 */

#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/tcp.h>
#include <net/dst.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include "core/addr.h"
#include "nat64/nat64.h"
#include "nat64/probe.h"
#include "nat64/tcp.h"
#include "xlat/route.h"

bool tern_probe_tcp_expire(void *arg, u8 *state, unsigned long *timeout)
{
	struct tern_instance *inst = arg;
	struct tern_tcp_step st = tern_tcp_expire(*state);

	if (!st.ok)
		return false;
	*state = st.state;
	*timeout = tern_tcp_timeout(tern_instance_config(inst), st.timer);
	return true;
}

struct sk_buff *tern_probe_build(const struct in6_addr *saddr, __be16 sport,
				 const struct in6_addr *daddr, __be16 dport,
				 u8 hlim)
{
	struct sk_buff *skb;
	struct ipv6hdr *ip6;
	struct tcphdr *th;

	skb = alloc_skb(LL_MAX_HEADER + sizeof(*ip6) + sizeof(*th),
			GFP_ATOMIC | __GFP_NOWARN);
	if (!skb)
		return NULL;
	skb_reserve(skb, LL_MAX_HEADER);
	skb_reset_network_header(skb);
	ip6 = skb_put_zero(skb, sizeof(*ip6));
	ip6_flow_hdr(ip6, 0, 0);
	ip6->payload_len = htons(sizeof(*th));
	ip6->nexthdr = IPPROTO_TCP;
	ip6->hop_limit = hlim;
	ip6->saddr = *saddr;
	ip6->daddr = *daddr;
	skb_set_transport_header(skb, sizeof(*ip6));
	/* No data, sequence and acknowledgment numbers 0, window 0. */
	th = skb_put_zero(skb, sizeof(*th));
	th->source = sport;
	th->dest = dport;
	th->doff = sizeof(*th) / 4;
	th->ack = 1;
	th->check = csum_ipv6_magic(saddr, daddr, sizeof(*th), IPPROTO_TCP,
				    csum_partial(th, sizeof(*th), 0));
	skb->protocol = htons(ETH_P_IPV6);
	skb->ip_summed = CHECKSUM_NONE;
	return skb;
}

int tern_probe_send(struct net *net, struct sk_buff *skb)
{
	const struct ipv6hdr *ip6 = ipv6_hdr(skb);
	struct dst_entry *dst;
	int ret = 0;

	/* As on the packet path: routed and sent with BHs off. */
	local_bh_disable();
	dst = tern_route6(net, skb, &ip6->saddr, &ip6->daddr, IPPROTO_TCP);
	if (!dst || tern_dst_local(dst)) {
		dst_release(dst);
		kfree_skb(skb);
		ret = -EHOSTUNREACH;
	} else {
		tern_output(net, skb, dst);
	}
	local_bh_enable();
	return ret;
}

void tern_probe_tcp_kept(void *arg, const struct tern_session *s)
{
	struct tern_instance *inst = arg;
	const struct tern_bib *b = s->bib;
	const struct tern_config *cfg;
	struct sk_buff *skb;
	struct in6_addr src;

	/* The namespace going (its instance goes with it): no probe. */
	if (!check_net(inst->net))
		return;
	/* Never for a session removed or moved on since it was kept. */
	if (tern_sess_find6(inst->nat64->tables, TERN_L4_TCP, &b->t6,
			    &s->remote) != s ||
	    READ_ONCE(s->state) != TERN_TCP_TRANS)
		return;
	cfg = tern_instance_config(inst);
	if (!cfg->pool6_set)
		return;
	tern_rfc6052_4to6(&cfg->pool6, s->remote.addr, &src);
	skb = tern_probe_build(&src, s->remote.port, &b->t6.addr, b->t6.port,
			       IPV6_DEFAULT_HOPLIMIT);
	if (skb && !tern_probe_send(inst->net, skb))
		tern_stats_inc(inst->stats, TERN_STAT_TCP_PROBES);
}

// SPDX-License-Identifier: GPL-2.0
/* KUnit helpers: fake instance, addresses, packet builders, output capture. */

#include <linux/icmp.h>
#include <linux/inet.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/slab.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include "core/route_cache.h"
#include "xlat/ipid.h"
#include "xlat/xlat.h"
#include "kt_util.h"

static const struct tern_prefix6 tern_kt_pool6 = {
	.addr = TERN_KT_POOL6,
	.len = 96,
};

int tern_kt_net_suite_init(struct kunit_suite *suite)
{
	tern_ipid_init();
	return tern_kt_capture_register();
}

void tern_kt_net_suite_exit(struct kunit_suite *suite)
{
	tern_kt_capture_unregister();
}

int tern_kt_inst_init(struct tern_kt_inst *ki)
{
	memset(ki, 0, sizeof(*ki));
	ki->inst.net = &init_net;
	strscpy(ki->inst.name, "kunit", sizeof(ki->inst.name));
	ki->inst.stats = tern_stats_alloc();
	ki->inst.host = tern_host_cache_alloc();
	ki->inst.routes = tern_route_cache_alloc();
	ki->cfg = kzalloc(sizeof(*ki->cfg), GFP_KERNEL);
	if (!ki->inst.stats || !ki->inst.host || !ki->inst.routes ||
	    !ki->cfg) {
		tern_kt_inst_fini(ki);
		return -ENOMEM;
	}
	tern_config_defaults(ki->cfg);
	ki->cfg->pool6_set = true;
	ki->cfg->pool6 = tern_kt_pool6;
	rcu_assign_pointer(ki->inst.cfg, ki->cfg);
	return 0;
}

void tern_kt_inst_fini(struct tern_kt_inst *ki)
{
	RCU_INIT_POINTER(ki->inst.cfg, NULL);
	synchronize_rcu();
	kfree(ki->cfg);
	ki->cfg = NULL;
	if (ki->inst.stats)
		tern_stats_free(ki->inst.stats);
	ki->inst.stats = NULL;
	tern_host_cache_free(ki->inst.host);
	ki->inst.host = NULL;
	tern_route_cache_free(ki->inst.routes);
	ki->inst.routes = NULL;
}

u64 tern_kt_stats_total(struct tern_kt_inst *ki, u64 *out)
{
	u64 cnt[TERN_STAT_MAX + 1];
	u64 sum = 0;
	int i;

	tern_stats_sum(ki->inst.stats, cnt);
	for (i = 0; i <= TERN_STAT_MAX; i++)
		sum += cnt[i];
	if (out)
		memcpy(out, cnt, sizeof(cnt));
	return sum;
}

struct in6_addr tern_kt_a6(struct kunit *test, const char *s)
{
	struct in6_addr a;

	KUNIT_ASSERT_EQ(test, in6_pton(s, -1, a.s6_addr, -1, NULL), 1);
	return a;
}

__be32 tern_kt_a4(struct kunit *test, const char *s)
{
	__be32 a;

	KUNIT_ASSERT_EQ(test, in4_pton(s, -1, (u8 *)&a, -1, NULL), 1);
	return a;
}

void tern_kt_map6(__be32 a4, struct in6_addr *a6)
{
	*a6 = tern_kt_pool6.addr;
	a6->s6_addr32[3] = a4;
}

struct sk_buff *tern_kt_skb(const void *data, unsigned int len, bool v6,
			    unsigned int linear)
{
	unsigned int lin = min(len, linear), off;
	struct sk_buff *skb;

	skb = alloc_skb(128 + lin, GFP_KERNEL);
	if (!skb)
		return NULL;
	skb_reserve(skb, 128);
	skb_put_data(skb, data, lin);
	for (off = lin; off < len; ) {
		unsigned int n = min_t(unsigned int, len - off, PAGE_SIZE);
		struct page *page;

		if (skb_shinfo(skb)->nr_frags >= MAX_SKB_FRAGS)
			goto err;
		page = alloc_page(GFP_KERNEL);
		if (!page)
			goto err;
		memcpy(page_address(page), (const u8 *)data + off, n);
		skb_add_rx_frag(skb, skb_shinfo(skb)->nr_frags, page, 0, n,
				PAGE_SIZE);
		off += n;
	}
	skb_reset_network_header(skb);
	skb_reset_mac_header(skb);
	skb->protocol = htons(v6 ? ETH_P_IPV6 : ETH_P_IP);
	skb->dev = init_net.loopback_dev;
	skb->pkt_type = PACKET_HOST;
	skb->ip_summed = CHECKSUM_NONE;
	return skb;
err:
	kfree_skb(skb);
	return NULL;
}

/* As the PRE_ROUTING hook runs it: BH off, RCU read side. */
unsigned int tern_kt_run(struct tern_kt_inst *ki, struct sk_buff *skb)
{
	bool v6 = skb->protocol == htons(ETH_P_IPV6);
	unsigned int verdict;

	local_bh_disable();
	rcu_read_lock();
	verdict = v6 ? tern_xlat_6to4(&ki->inst, skb) :
		       tern_xlat_4to6(&ki->inst, skb);
	rcu_read_unlock();
	local_bh_enable();
	if (verdict != NF_STOLEN)
		kfree_skb(skb);
	return verdict;
}

static DEFINE_SPINLOCK(tern_kt_lock);
static struct tern_kt_pkt *tern_kt_cap[TERN_KT_CAPTURE_MAX];
static unsigned int tern_kt_ncap;
static atomic_long_t tern_kt_seen;

static unsigned int tern_kt_hook(void *priv, struct sk_buff *skb,
				 const struct nf_hook_state *state)
{
	struct tern_kt_pkt *p;

	if (!state->out || strcmp(state->out->name, TERN_KT_DEV))
		return NF_ACCEPT;
	atomic_long_inc(&tern_kt_seen);
	p = kmalloc(sizeof(*p) + skb->len, GFP_ATOMIC);
	if (p) {
		p->family = state->pf;
		p->dst_lent = skb_dst_is_noref(skb);
		p->len = skb->len;
		if (skb_copy_bits(skb, 0, p->data, skb->len)) {
			kfree(p);
			p = NULL;
		}
	}
	spin_lock_bh(&tern_kt_lock);
	if (p && tern_kt_ncap < TERN_KT_CAPTURE_MAX) {
		tern_kt_cap[tern_kt_ncap++] = p;
		p = NULL;
	}
	spin_unlock_bh(&tern_kt_lock);
	kfree(p);
	consume_skb(skb);
	return NF_STOLEN;
}

static struct nf_hook_ops tern_kt_ops[] = {
	{
		.hook = tern_kt_hook,
		.pf = NFPROTO_IPV4,
		.hooknum = NF_INET_POST_ROUTING,
		.priority = NF_IP_PRI_LAST,
	},
	{
		.hook = tern_kt_hook,
		.pf = NFPROTO_IPV6,
		.hooknum = NF_INET_POST_ROUTING,
		.priority = NF_IP6_PRI_LAST,
	},
};

int tern_kt_capture_register(void)
{
	struct net_device *dev = dev_get_by_name(&init_net, TERN_KT_DEV);

	if (!dev) {
		pr_err("tern kunit: no %s in init_net (test/kunit-net.sh not run?)\n",
		       TERN_KT_DEV);
		return -ENODEV;
	}
	dev_put(dev);
	return nf_register_net_hooks(&init_net, tern_kt_ops,
				     ARRAY_SIZE(tern_kt_ops));
}

void tern_kt_capture_unregister(void)
{
	nf_unregister_net_hooks(&init_net, tern_kt_ops, ARRAY_SIZE(tern_kt_ops));
	tern_kt_capture_reset();
}

void tern_kt_capture_reset(void)
{
	unsigned int i, n;

	spin_lock_bh(&tern_kt_lock);
	n = tern_kt_ncap;
	tern_kt_ncap = 0;
	spin_unlock_bh(&tern_kt_lock);
	for (i = 0; i < n; i++) {
		kfree(tern_kt_cap[i]);
		tern_kt_cap[i] = NULL;
	}
}

struct tern_kt_pkt *tern_kt_captured(unsigned int i)
{
	struct tern_kt_pkt *p = NULL;

	spin_lock_bh(&tern_kt_lock);
	if (i < tern_kt_ncap)
		p = tern_kt_cap[i];
	spin_unlock_bh(&tern_kt_lock);
	return p;
}

unsigned int tern_kt_ncaptured(void)
{
	unsigned int n;

	spin_lock_bh(&tern_kt_lock);
	n = tern_kt_ncap;
	spin_unlock_bh(&tern_kt_lock);
	return n;
}

unsigned long tern_kt_nseen(void)
{
	return atomic_long_read(&tern_kt_seen);
}

void tern_kt_ip4(u8 *p, unsigned int tot_len, u8 proto, __be32 s, __be32 d,
		 u8 ttl, u16 id, u16 frag_off)
{
	struct iphdr *iph = (struct iphdr *)p;

	memset(iph, 0, sizeof(*iph));
	iph->version = 4;
	iph->ihl = 5;
	iph->tos = 0x28;
	iph->tot_len = htons(tot_len);
	iph->id = htons(id);
	iph->frag_off = htons(frag_off);
	iph->ttl = ttl;
	iph->protocol = proto;
	iph->saddr = s;
	iph->daddr = d;
	ip_send_check(iph);
}

void tern_kt_ip6(u8 *p, unsigned int payload_len, u8 nexthdr,
		 const struct in6_addr *s, const struct in6_addr *d, u8 hlim)
{
	struct ipv6hdr *ip6 = (struct ipv6hdr *)p;

	ip6_flow_hdr(ip6, 0x28, 0);
	ip6->payload_len = htons(payload_len);
	ip6->nexthdr = nexthdr;
	ip6->hop_limit = hlim;
	ip6->saddr = *s;
	ip6->daddr = *d;
}

static __sum16 *tern_kt_csum_field(u8 *l4, unsigned int len, u8 proto)
{
	unsigned int off;

	switch (proto) {
	case IPPROTO_TCP:
		off = 16;
		break;
	case IPPROTO_UDP:
		off = 6;
		break;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		off = 2;
		break;
	default:
		return NULL;
	}
	return off + 2 <= len ? (__sum16 *)(l4 + off) : NULL;
}

void tern_kt_l4csum4(u8 *l4, unsigned int len, u8 proto, __be32 s, __be32 d)
{
	__sum16 *f = tern_kt_csum_field(l4, len, proto);

	if (!f)
		return;
	*f = 0;
	if (proto == IPPROTO_ICMP) {
		*f = ip_compute_csum(l4, len);
		return;
	}
	*f = csum_tcpudp_magic(s, d, len, proto, csum_partial(l4, len, 0));
	if (proto == IPPROTO_UDP && !*f)
		*f = CSUM_MANGLED_0;
}

void tern_kt_l4csum6(u8 *l4, unsigned int len, u8 proto,
		     const struct in6_addr *s, const struct in6_addr *d)
{
	__sum16 *f = tern_kt_csum_field(l4, len, proto);

	if (!f)
		return;
	*f = 0;
	*f = csum_ipv6_magic(s, d, len, proto, csum_partial(l4, len, 0));
	if (proto == IPPROTO_UDP && !*f)
		*f = CSUM_MANGLED_0;
}

int tern_kt_l4check4(const u8 *l4, unsigned int len, u8 proto, __be32 s,
		     __be32 d)
{
	if (proto == IPPROTO_ICMP)
		return ip_compute_csum(l4, len) ? -1 : 0;
	return csum_tcpudp_magic(s, d, len, proto, csum_partial(l4, len, 0)) ?
	       -1 : 0;
}

int tern_kt_l4check6(const u8 *l4, unsigned int len, u8 proto,
		     const struct in6_addr *s, const struct in6_addr *d)
{
	return csum_ipv6_magic(s, d, len, proto, csum_partial(l4, len, 0)) ?
	       -1 : 0;
}

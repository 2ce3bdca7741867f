// SPDX-License-Identifier: GPL-2.0
/*
 * EAM hairpinning (RFC 7757 section 4.2, appendix B).
 *
 * An IPv6 node may reach another IPv6 node that has an EAM through the
 * pool6 form of its IPv4 address (a DNS64-synthesized AAAA, say). Translated
 * to IPv4, such a packet is addressed to an IPv4 address this translator
 * owns: it must come back to IPv6 here (hairpin) instead of going out.
 *
 * off:       never; the IPv4 packet follows its route.
 * simple:    every packet whose IPv4 destination an EAMT entry covers is
 *            translated back with the ordinary IPv4 -> IPv6 mapping (EAMT
 *            first for both addresses).
 * intrinsic: only packets whose destination was mapped by pool6 and lands
 *            in the EAMT; their IPv4 source is mapped back by pool6, not
 *            by the EAMT, so the destination answers to a pool6 address
 *            and the reply comes back through the translator too (the
 *            path is symmetric, as RFC 7757 4.2 requires).
 *
 * The second pass is tern_xlat_4to6() on the translated packet, so the U-turn
 * costs one hop: the TTL the first pass took is given back before it.
 */

#include <linux/ip.h>
#include <linux/netfilter.h>
#include <linux/percpu.h>
#include <net/dst.h>
#include <net/ip.h>
#include "siit/hairpin.h"
#include "siit/mapping.h"
#include "xlat/route.h"
#include "xlat/xlat.h"

/* The intrinsic hairpin this CPU is translating back, if any. */
static DEFINE_PER_CPU(const struct tern_instance *, tern_hairpin_inst);
static DEFINE_PER_CPU(__be32, tern_hairpin_src4);

bool tern_hairpin_src_by_pool6(const struct tern_instance *inst, __be32 a4)
{
	return this_cpu_read(tern_hairpin_inst) == inst &&
	       this_cpu_read(tern_hairpin_src4) == a4;
}

bool tern_hairpins(const struct tern_instance *inst,
		   const struct tern_config *cfg, __be32 daddr4,
		   const struct in6_addr *daddr6)
{
	__be32 tmp;

	if (cfg->eam_hairpin == TERN_HAIRPIN_OFF ||
	    !tern_map_eamt_covers4(inst, daddr4))
		return false;
	if (cfg->eam_hairpin == TERN_HAIRPIN_SIMPLE)
		return true;
	return tern_map_6to4(inst, cfg, daddr6, &tmp) == TERN_VIA_POOL6;
}

static void tern_ttl_add(struct iphdr *iph, int delta)
{
	iph->ttl += delta;
	ip_send_check(iph);
}

unsigned int tern_hairpin_output(struct tern_instance *inst,
				 const struct tern_config *cfg,
				 struct sk_buff *skb, struct dst_entry *dst)
{
	struct iphdr *iph = ip_hdr(skb);
	bool intrinsic = cfg->eam_hairpin == TERN_HAIRPIN_INTRINSIC;
	unsigned int verdict;

	tern_ttl_add(iph, 1);
	/*
	 * As if routed back to us: with an IPv4 route toward the destination,
	 * ICMP errors of the second pass have a route to go by (none are sent
	 * without one).
	 */
	skb_dst_drop(skb);
	if (dst)
		skb_dst_set(skb, dst);

	local_bh_disable();
	/*
	 * Source equal to destination (a node reaching itself): mapping both
	 * by pool6 would loop; both go back by the EAMT.
	 */
	if (intrinsic && iph->saddr != iph->daddr) {
		this_cpu_write(tern_hairpin_src4, iph->saddr);
		this_cpu_write(tern_hairpin_inst, inst);
	}
	verdict = tern_xlat_4to6(inst, skb);
	this_cpu_write(tern_hairpin_inst, NULL);
	local_bh_enable();

	if (verdict == NF_ACCEPT) {
		/* Not for IPv6 after all (e.g. addressed to this host). */
		iph = ip_hdr(skb);
		tern_ttl_add(iph, -1);
		dst = skb_dst(skb) ? dst_clone(skb_dst(skb)) :
		      tern_route4(inst->net, skb, iph->saddr, iph->daddr,
				  iph->tos, iph->protocol);
		if (!dst)
			return tern_drop(inst, TERN_STAT_DROP_NO_ROUTE);
		tern_output(inst->net, skb, dst);
		return tern_stolen(inst, TERN_STAT_XLAT_64);
	}
	tern_stats_inc(inst->stats, TERN_STAT_XLAT_HAIRPIN);
	return verdict;
}

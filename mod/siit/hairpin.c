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
 *
 * ICMPv6 errors hairpin by the same rule (their outer destination decides).
 * In intrinsic mode the quoted packet's destination goes back by pool6 as
 * well: the packet in error went from the error's destination to that
 * address, which its sender wrote in pool6 form, so the error quotes the
 * packet as it was sent (RFC 7757 4.2: the path is symmetric).
 */

#include <linux/icmp.h>
#include <linux/ip.h>
#include <linux/netfilter.h>
#include <linux/percpu.h>
#include <net/dst.h>
#include <net/ip.h>
#include "siit/hairpin.h"
#include "siit/mapping.h"
#include "xlat/route.h"
#include "xlat/xlat.h"

/*
 * The intrinsic hairpin this CPU is translating back, if any, and the
 * IPv4 addresses pool6 maps back instead of the EAMT: the packet's
 * source, and for an ICMP error also its quoted packet's destination.
 */
struct tern_hairpin_note {
	const struct tern_instance *inst;
	__be32 by_pool6[2];
	unsigned int n;
};

static DEFINE_PER_CPU(struct tern_hairpin_note, tern_hairpin_note);

bool tern_hairpin_src_by_pool6(const struct tern_instance *inst, __be32 a4)
{
	const struct tern_hairpin_note *note = this_cpu_ptr(&tern_hairpin_note);
	unsigned int i;

	if (note->inst != inst)
		return false;
	for (i = 0; i < note->n; i++)
		if (note->by_pool6[i] == a4)
			return true;
	return false;
}

/*
 * Notes @a4 for pool6 unless it is also @other (a node reaching itself:
 * both addresses by pool6 would loop, both go back by the EAMT).
 */
static void tern_hairpin_note_add(struct tern_hairpin_note *note, __be32 a4,
				  __be32 other)
{
	if (a4 != other && note->n < ARRAY_SIZE(note->by_pool6))
		note->by_pool6[note->n++] = a4;
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

/*
 * Translates the IPv4 packet @skb back to IPv6 (tern_xlat_4to6()) with the
 * TTL the 6->4 pass took given back; @inner is the packet quoted by an
 * ICMPv4 error (NULL for another packet), whose destination is the other
 * end of the path, mapped back like the source of a normal packet.
 */
static unsigned int tern_hairpin_back(struct tern_instance *inst,
				      const struct tern_config *cfg,
				      struct sk_buff *skb,
				      struct dst_entry *dst,
				      const struct iphdr *inner)
{
	struct iphdr *iph = ip_hdr(skb);
	struct tern_hairpin_note *note;
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
	note = this_cpu_ptr(&tern_hairpin_note);
	note->n = 0;
	if (cfg->eam_hairpin == TERN_HAIRPIN_INTRINSIC) {
		tern_hairpin_note_add(note, iph->saddr, iph->daddr);
		if (inner)
			tern_hairpin_note_add(note, inner->daddr,
					      inner->saddr);
		note->inst = inst;
	}
	verdict = tern_xlat_4to6(inst, skb);
	note->inst = NULL;
	local_bh_enable();
	return verdict;
}

unsigned int tern_hairpin_output(struct tern_instance *inst,
				 const struct tern_config *cfg,
				 struct sk_buff *skb, struct dst_entry *dst)
{
	struct iphdr *iph;
	unsigned int verdict;

	verdict = tern_hairpin_back(inst, cfg, skb, dst, NULL);
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

unsigned int tern_hairpin_error(struct tern_instance *inst,
				const struct tern_config *cfg,
				struct sk_buff *skb, struct dst_entry *dst)
{
	const struct iphdr *inner = NULL;
	unsigned int off = sizeof(struct iphdr) + sizeof(struct icmphdr);
	unsigned int verdict;

	/* Built by tern_icmp_err_6to4(): linear, a 20-byte IPv4 header. */
	if (skb->len >= off + sizeof(*inner))
		inner = (const struct iphdr *)(skb->data + off);
	verdict = tern_hairpin_back(inst, cfg, skb, dst, inner);
	/*
	 * Passed: its destination is this host after all. A translated
	 * error never goes there (the second pass counted why).
	 */
	if (verdict == NF_ACCEPT) {
		kfree_skb(skb);
		return tern_stolen(inst, TERN_STAT_DROP_ERR_DEST);
	}
	tern_stats_inc(inst->stats, TERN_STAT_XLAT_HAIRPIN);
	if (verdict == NF_DROP)
		kfree_skb(skb);
	return NF_STOLEN;
}

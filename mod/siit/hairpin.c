// SPDX-License-Identifier: GPL-2.0
/*
 * EAM hairpinning (RFC 7757 section 4.2, appendix B): the SIIT decision.
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
 * The driver (xlat/xlat.c) runs the 4->6 pass on the translated packet,
 * so the U-turn costs one hop. The addresses that go back by pool6 travel
 * in the packet's struct tern_xlat (by_pool6), read by the mapping.
 *
 * ICMPv6 errors hairpin by the same rule (their outer destination decides).
 * In intrinsic mode the quoted packet's destination goes back by pool6 as
 * well: the packet in error went from the error's destination to that
 * address, which its sender wrote in pool6 form, so the error quotes the
 * packet as it was sent (RFC 7757 4.2: the path is symmetric).
 */

#include <linux/ip.h>
#include "siit/hairpin.h"
#include "siit/mapping.h"

bool tern_siit_hairpins(const struct tern_xlat *x,
			const struct in6_addr *daddr6)
{
	__be32 tmp;

	if (x->cfg->eam_hairpin == TERN_HAIRPIN_OFF ||
	    !tern_map_eamt_covers4(x->cfg, x->a4[1]))
		return false;
	if (x->cfg->eam_hairpin == TERN_HAIRPIN_SIMPLE)
		return true;
	return tern_map_6to4(x->cfg, daddr6, &tmp) == TERN_VIA_POOL6;
}

/*
 * Notes @a4 for pool6 unless it is also @other (a node reaching itself:
 * both addresses by pool6 would loop, both go back by the EAMT).
 */
static void tern_by_pool6_add(struct tern_xlat *x, __be32 a4, __be32 other)
{
	if (a4 != other && x->n_by_pool6 < ARRAY_SIZE(x->by_pool6))
		x->by_pool6[x->n_by_pool6++] = a4;
}

void tern_siit_hairpin_prepare(struct tern_xlat *x, const struct iphdr *iph,
			       const struct iphdr *inner)
{
	x->n_by_pool6 = 0;
	if (x->cfg->eam_hairpin != TERN_HAIRPIN_INTRINSIC)
		return;
	tern_by_pool6_add(x, iph->saddr, iph->daddr);
	if (inner)
		tern_by_pool6_add(x, inner->daddr, inner->saddr);
}

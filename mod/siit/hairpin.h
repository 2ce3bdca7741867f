/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_HAIRPIN_H
#define _TERN_HAIRPIN_H

#include "xlat/mode.h"

/*
 * Does the IPv4 packet of 6->4 translation to x->a4[1], whose IPv6
 * destination was @daddr6, hairpin (eam-hairpin-mode, RFC 7757 4.2)?
 */
bool tern_siit_hairpins(const struct tern_xlat *x,
			const struct in6_addr *daddr6);

/*
 * Before the driver translates the hairpinned IPv4 packet @iph back: in
 * intrinsic mode, the addresses the 4->6 pass maps back by pool6 (its
 * source; for an ICMP error also the destination of the quoted @inner).
 */
void tern_siit_hairpin_prepare(struct tern_xlat *x, const struct iphdr *iph,
			       const struct iphdr *inner);

#endif /* _TERN_HAIRPIN_H */

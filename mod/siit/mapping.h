/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_MAPPING_H
#define _TERN_MAPPING_H

#include "siit/eamt.h"
#include "core/instance.h"

/*
 * Address translation policy of SIIT (RFC 7915 with RFC 7757): the EAMT
 * first, then pool6 (RFC 6052) unless denylist4 forbids the IPv4 address.
 * Callers hold rcu_read_lock(). Return an enum tern_map_via; TERN_VIA_NONE
 * leaves the output untouched.
 */
int tern_map_6to4(const struct tern_config *cfg, const struct in6_addr *a6,
		  __be32 *a4);
int tern_map_4to6(const struct tern_config *cfg, __be32 a4,
		  struct in6_addr *a6);
/*
 * The same, except that the IPv4 addresses in @by_pool6 (@n of them) skip
 * the EAMT: the second pass of an intrinsic hairpin (siit/hairpin.c).
 */
int tern_map_4to6_by(const struct tern_config *cfg, __be32 a4,
		     struct in6_addr *a6, const __be32 *by_pool6,
		     unsigned int n);

/*
 * RFC 6052 3.1: with the Well-Known Prefix and strict-wkp, an IPv4 address
 * that pool6 maps (@via) must be global. The one statement of the rule.
 */
static inline bool tern_map_wkp_refuses(const struct tern_config *cfg,
					int via, __be32 a4)
{
	return via == TERN_VIA_POOL6 && tern_cfg_wkp_strict(cfg) &&
	       tern_addr4_is_nonglobal(a4);
}

/* Does an EAMT entry cover IPv4 address @a4? */
bool tern_map_eamt_covers4(const struct tern_config *cfg, __be32 a4);

/*
 * What the packet path does with an address, for TERN_CMD_ADDR_QUERY:
 * the mapping above plus the checks that refuse the result (RFC 6890
 * never-translated IPv4 addresses; non-global ones with the Well-Known
 * Prefix and strict-wkp).
 */
struct tern_map_answer {
	u8 via;			/* enum tern_map_via */
	u8 why;			/* enum tern_query_why, when via is NONE */
	struct tern_eam eam;	/* the entry, when via is EAMT */
	union {
		__be32 a4;
		struct in6_addr a6;
	} out;			/* the translated address, when via != NONE */
};

void tern_map_explain6(const struct tern_config *cfg, const struct in6_addr *a6,
		       struct tern_map_answer *ans);
void tern_map_explain4(const struct tern_config *cfg, __be32 a4,
		       struct tern_map_answer *ans);

#endif /* _TERN_MAPPING_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Address mapping of SIIT: which IPv4 address an IPv6 address becomes and
 * back.
 */

#include "mapping.h"

int tern_map_6to4(const struct tern_instance *inst,
		  const struct tern_config *cfg, const struct in6_addr *a6,
		  __be32 *a4)
{
	if (cfg->pool6_set && tern_rfc6052_6to4(&cfg->pool6, a6, a4))
		return TERN_VIA_POOL6;
	return TERN_VIA_NONE;
}

int tern_map_4to6(const struct tern_instance *inst,
		  const struct tern_config *cfg, __be32 a4,
		  struct in6_addr *a6)
{
	if (!cfg->pool6_set)
		return TERN_VIA_NONE;
	tern_rfc6052_4to6(&cfg->pool6, a4, a6);
	return TERN_VIA_POOL6;
}

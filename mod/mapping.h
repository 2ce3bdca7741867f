/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_MAPPING_H
#define _TERN_MAPPING_H

#include "instance.h"

/*
 * Address translation policy of SIIT (RFC 7915 with RFC 7757): the EAMT
 * first, then pool6 (RFC 6052) unless denylist4 forbids the IPv4 address.
 * Callers hold rcu_read_lock(). Return an enum tern_map_via; TERN_VIA_NONE
 * leaves the output untouched.
 */
int tern_map_6to4(const struct tern_instance *inst,
		  const struct tern_config *cfg, const struct in6_addr *a6,
		  __be32 *a4);
int tern_map_4to6(const struct tern_instance *inst,
		  const struct tern_config *cfg, __be32 a4,
		  struct in6_addr *a6);

#endif /* _TERN_MAPPING_H */

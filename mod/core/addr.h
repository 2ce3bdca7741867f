/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_ADDR_H
#define _TERN_ADDR_H

#include <linux/in6.h>
#include <linux/types.h>

struct netlink_ext_ack;

struct tern_prefix6 {
	struct in6_addr addr;
	u8 len;
};

struct tern_prefix4 {
	__be32 addr;
	u8 len;
};

bool tern_prefix_host_bits_clear(const void *addr, unsigned int bits,
				 unsigned int len);
int tern_prefix6_validate_rfc6052(const struct tern_prefix6 *p,
				  struct netlink_ext_ack *extack);
bool tern_prefix6_is_wkp(const struct tern_prefix6 *p);

bool tern_rfc6052_6to4(const struct tern_prefix6 *p,
		       const struct in6_addr *a6, __be32 *a4);
void tern_rfc6052_4to6(const struct tern_prefix6 *p, __be32 a4,
		       struct in6_addr *a6);

bool tern_addr4_never_translated(__be32 a);
bool tern_addr4_is_nonglobal(__be32 a);

#endif /* _TERN_ADDR_H */

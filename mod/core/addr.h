/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_ADDR_H
#define _TERN_ADDR_H

#include <linux/in6.h>
#include <linux/types.h>
#include <asm/byteorder.h>

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
/* Is @p the Well-Known Prefix 64:ff9b::/96 (RFC 6052)? */
static inline bool tern_prefix6_is_wkp(const struct tern_prefix6 *p)
{
	return p->len == 96 &&
	       p->addr.s6_addr32[0] == htonl(0x0064ff9b) &&
	       !p->addr.s6_addr32[1] && !p->addr.s6_addr32[2];
}

bool tern_rfc6052_6to4(const struct tern_prefix6 *p,
		       const struct in6_addr *a6, __be32 *a4);
void tern_rfc6052_4to6(const struct tern_prefix6 *p, __be32 a4,
		       struct in6_addr *a6);

/*
 * Addresses that never denote a unicast host reachable through us: "this
 * network" (0/8), loopback (127/8), link local (169.254/16), multicast
 * (224/4), reserved and limited broadcast (240/4). Every packet asks.
 */
static inline bool tern_addr4_never_translated(__be32 a)
{
	u32 h = ntohl(a);

	return (h >> 24) == 0 || (h >> 24) == 127 || (h >> 16) == 0xa9fe ||
	       (h >> 24) >= 224;
}
bool tern_addr4_is_nonglobal(__be32 a);

#endif /* _TERN_ADDR_H */

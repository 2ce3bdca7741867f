/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Prefix arithmetic shared by the tables (EAMT, denylist4): containment,
 * overlap and ordering of IPv4 and IPv6 prefixes.
 */
#ifndef _TERN_PREFIX_H
#define _TERN_PREFIX_H

#include <linux/string.h>
#include <net/ipv6.h>
#include "core/addr.h"

/* The host (suffix) bits of an IPv4 prefix of length @len, host order. */
static inline u32 tern_hostmask4(u8 len)
{
	return len >= 32 ? 0 : ~0U >> len;
}

static inline bool tern_prefix4_contains(const struct tern_prefix4 *p,
					 __be32 a)
{
	return ((ntohl(a) ^ ntohl(p->addr)) & ~tern_hostmask4(p->len)) == 0;
}

/* Two prefixes overlap when one contains the other's first address. */
static inline bool tern_prefix4_overlap(const struct tern_prefix4 *a,
					const struct tern_prefix4 *b)
{
	return tern_prefix4_contains(a, b->addr) ||
	       tern_prefix4_contains(b, a->addr);
}

static inline bool tern_prefix4_equal(const struct tern_prefix4 *a,
				      const struct tern_prefix4 *b)
{
	return a->addr == b->addr && a->len == b->len;
}

static inline bool tern_prefix6_contains(const struct tern_prefix6 *p,
					 const struct in6_addr *a)
{
	return ipv6_prefix_equal(&p->addr, a, p->len);
}

static inline bool tern_prefix6_overlap(const struct tern_prefix6 *a,
					const struct tern_prefix6 *b)
{
	return tern_prefix6_contains(a, &b->addr) ||
	       tern_prefix6_contains(b, &a->addr);
}

static inline bool tern_prefix6_equal(const struct tern_prefix6 *a,
				      const struct tern_prefix6 *b)
{
	return a->len == b->len && ipv6_addr_equal(&a->addr, &b->addr);
}

/* Numeric order of IPv6 addresses (network byte order compares as bytes). */
static inline int tern_addr6_cmp(const struct in6_addr *a,
				 const struct in6_addr *b)
{
	return memcmp(a, b, sizeof(*a));
}

#endif /* _TERN_PREFIX_H */

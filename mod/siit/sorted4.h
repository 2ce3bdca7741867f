/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Arrays of records sorted by the start of their IPv4 prefix (denylist4,
 * the EAMT's IPv4 side): the search; the order of a bulk load of disjoint
 * prefixes (denylist4).
 */
#ifndef _TERN_SORTED4_H
#define _TERN_SORTED4_H

#include <linux/types.h>
#include "core/addr.h"

/*
 * @n records of @stride bytes, @p4 the first one's IPv4 prefix (the
 * others' stand at the same place in theirs).
 */
struct tern_sorted4 {
	const void *p4;
	size_t stride;
	u32 n;
};

static inline const struct tern_prefix4 *
tern_sorted4_at(const struct tern_sorted4 *v, u32 i)
{
	return (const void *)((const u8 *)v->p4 + (size_t)i * v->stride);
}

/* Position of the last record whose prefix starts at or before @a, or -1. */
static inline int tern_sorted4_floor(const struct tern_sorted4 *v, __be32 a)
{
	int lo = 0, hi = (int)v->n - 1, found = -1;
	u32 h = ntohl(a);

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (ntohl(tern_sorted4_at(v, mid)->addr) <= h) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return found;
}

u32 *tern_sorted4_order(const struct tern_sorted4 *v, u32 *bad, u32 *other);

#endif /* _TERN_SORTED4_H */

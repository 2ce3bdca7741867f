// SPDX-License-Identifier: GPL-2.0
/*
 * The order of a bulk load of records by their IPv4 prefix
 * (siit/sorted4.h), the prefixes disjoint (denylist4).
 */

#include <linux/err.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "siit/prefix.h"
#include "siit/sorted4.h"

static int tern_sorted4_cmp(const void *a, const void *b, const void *priv)
{
	u32 x = ntohl(tern_sorted4_at(priv, *(const u32 *)a)->addr);
	u32 y = ntohl(tern_sorted4_at(priv, *(const u32 *)b)->addr);

	return x < y ? -1 : x > y;
}

/*
 * The positions of @v's records (@v->n > 0) by the start of their prefix,
 * in an array to kvfree(). Sorted by start, disjoint prefixes only need
 * each one checked against the next: a prefix containing a later one
 * contains the one right after it too. Two overlap: -EEXIST, *@bad the
 * later of them in @v, *@other the earlier.
 */
u32 *tern_sorted4_order(const struct tern_sorted4 *v, u32 *bad, u32 *other)
{
	u32 *idx, i;

	idx = kvmalloc_array(v->n, sizeof(*idx), GFP_KERNEL);
	if (!idx)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < v->n; i++)
		idx[i] = i;
	sort_r(idx, v->n, sizeof(*idx), tern_sorted4_cmp, NULL, v);
	for (i = 1; i < v->n; i++) {
		if (tern_prefix4_overlap(tern_sorted4_at(v, idx[i - 1]),
					 tern_sorted4_at(v, idx[i]))) {
			*bad = max(idx[i - 1], idx[i]);
			*other = min(idx[i - 1], idx[i]);
			kvfree(idx);
			return ERR_PTR(-EEXIST);
		}
	}
	return idx;
}

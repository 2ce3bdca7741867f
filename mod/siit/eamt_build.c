// SPDX-License-Identifier: GPL-2.0
/*
 * An EAMT built at once from a list of entries (a configuration file),
 * O(n log n): both orders sorted, then every nested pair checked against
 * the entries' force marks.
 */

#include <linux/bitops.h>
#include <linux/err.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "siit/eamt_int.h"

static int tern_eam_cmp4(const void *a, const void *b, const void *priv)
{
	const struct tern_eam *v = priv;

	return tern_p4_cmp(&v[*(const u32 *)a].p4, &v[*(const u32 *)b].p4);
}

static int tern_eam_cmp6(const void *a, const void *b, const void *priv)
{
	const struct tern_eam *v = priv;

	return tern_p6_cmp(&v[*(const u32 *)a].p6, &v[*(const u32 *)b].p6);
}

/*
 * A pair of entries of @t whose prefixes of one family are equal (next to
 * each other in the order), or nest and neither is forced (an entry and
 * its containers, up the forest): entry indexes in *@x and *@y.
 */
static bool tern_eamt_bad_pair(const struct tern_eamt *t, const u32 *idx,
			       const unsigned long *force, u32 *x, u32 *y)
{
	s32 i, c;

	for (i = 0; i < (s32)t->n; i++) {
		*x = i;
		if (i && tern_prefix4_equal(&t->e[i - 1].p4, &t->e[i].p4)) {
			*y = i - 1;
			return true;
		}
		if (i && tern_prefix6_equal(&tern_by6(t, i - 1)->p6,
					    &tern_by6(t, i)->p6)) {
			*x = t->by6[i];
			*y = t->by6[i - 1];
			return true;
		}
		for (c = t->up4[i]; c >= 0; c = t->up4[c]) {
			*y = c;
			if (!(force && (test_bit(idx[i], force) ||
					test_bit(idx[c], force))))
				return true;
		}
		*x = t->by6[i];
		for (c = t->up6[i]; c >= 0; c = t->up6[c]) {
			*y = t->by6[c];
			if (!(force && (test_bit(idx[*x], force) ||
					test_bit(idx[*y], force))))
				return true;
		}
	}
	return false;
}

struct tern_eamt *tern_eamt_build(const struct tern_eam *v, u32 n,
				  const unsigned long *force, u32 *bad,
				  u32 *other)
{
	struct tern_eamt *t;
	u32 *idx, i, x, y;

	if (!n)
		return NULL;
	if (n > TERN_EAMT_MAX)
		return ERR_PTR(-ENOSPC);
	idx = kvmalloc_array(n, sizeof(*idx), GFP_KERNEL);
	t = tern_eamt_alloc(n);
	if (!idx || !t) {
		kvfree(idx);
		tern_eamt_free(t);
		return ERR_PTR(-ENOMEM);
	}
	for (i = 0; i < n; i++)
		idx[i] = i;
	sort_r(idx, n, sizeof(*idx), tern_eam_cmp4, NULL, v);
	for (i = 0; i < n; i++) {
		t->e[i] = v[idx[i]];
		t->by6[i] = i;
	}
	sort_r(t->by6, n, sizeof(u32), tern_eam_cmp6, NULL, t->e);
	tern_eamt_index(t);
	if (tern_eamt_bad_pair(t, idx, force, &x, &y)) {
		*bad = max(idx[x], idx[y]);
		*other = min(idx[x], idx[y]);
		tern_eamt_free(t);
		t = ERR_PTR(-EEXIST);
	}
	kvfree(idx);
	return t;
}

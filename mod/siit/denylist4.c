// SPDX-License-Identifier: GPL-2.0
/*
 * denylist4: IPv4 prefixes that pool6 (RFC 6052) never translates, in
 * either direction. Same scheme as the EAMT: immutable snapshots published
 * with RCU, disjoint prefixes sorted by address, one binary search per
 * lookup (O(log n)), O(n) per change.
 */

#include <linux/overflow.h>
#include <linux/slab.h>
#include "siit/denylist4.h"
#include "siit/prefix.h"
#include "siit/sorted4.h"

struct tern_deny4 {
	struct rcu_head rcu;
	u32 n;
	struct tern_prefix4 p[];	/* by address, disjoint */
};

static struct tern_deny4 *tern_deny4_alloc(u32 n)
{
	struct tern_deny4 *d = kvmalloc(struct_size(d, p, n), GFP_KERNEL_ACCOUNT);

	if (d)
		d->n = n;
	return d;
}

void tern_deny4_free(struct tern_deny4 *d)
{
	kvfree(d);
}

void tern_deny4_free_rcu(struct tern_deny4 *d)
{
	if (d)
		kvfree_rcu(d, rcu);
}

u32 tern_deny4_count(const struct tern_deny4 *d)
{
	return d ? d->n : 0;
}

const struct tern_prefix4 *tern_deny4_entry(const struct tern_deny4 *d, u32 i)
{
	return d && i < d->n ? &d->p[i] : NULL;
}

/* Position of the last prefix starting at or before @a, or -1. */
static int tern_deny4_floor(const struct tern_deny4 *d, __be32 a)
{
	const struct tern_sorted4 v = { d->p, sizeof(d->p[0]), d->n };

	return tern_sorted4_floor(&v, a);
}

bool tern_deny4_contains(const struct tern_deny4 *d, __be32 a)
{
	int i;

	if (!d)
		return false;
	i = tern_deny4_floor(d, a);
	return i >= 0 && tern_prefix4_contains(&d->p[i], a);
}

struct tern_deny4 *tern_deny4_add(const struct tern_deny4 *old,
				  const struct tern_prefix4 *p,
				  const struct tern_prefix4 **conflict)
{
	u32 n = tern_deny4_count(old), pos = 0;
	struct tern_deny4 *d;
	int f, i;

	*conflict = NULL;
	if (old) {
		f = tern_deny4_floor(old, p->addr);
		/* Disjoint prefixes: only these two can overlap @p. */
		for (i = f; i <= f + 1; i++) {
			if (i >= 0 && i < (int)n &&
			    tern_prefix4_overlap(&old->p[i], p)) {
				*conflict = &old->p[i];
				return ERR_PTR(-EEXIST);
			}
		}
		pos = f + 1;
	}
	if (n >= TERN_DENY4_MAX)
		return ERR_PTR(-ENOSPC);
	d = tern_deny4_alloc(n + 1);
	if (!d)
		return ERR_PTR(-ENOMEM);
	if (old) {
		memcpy(d->p, old->p, pos * sizeof(*p));
		memcpy(&d->p[pos + 1], &old->p[pos], (n - pos) * sizeof(*p));
	}
	d->p[pos] = *p;
	return d;
}

struct tern_deny4 *tern_deny4_del(const struct tern_deny4 *old,
				  const struct tern_prefix4 *p)
{
	struct tern_deny4 *d;
	int i;

	i = old ? tern_deny4_floor(old, p->addr) : -1;
	if (i < 0 || !tern_prefix4_equal(&old->p[i], p))
		return ERR_PTR(-ENOENT);
	if (old->n == 1)
		return NULL;
	d = tern_deny4_alloc(old->n - 1);
	if (!d)
		return ERR_PTR(-ENOMEM);
	memcpy(d->p, old->p, i * sizeof(*p));
	memcpy(&d->p[i], &old->p[i + 1], (old->n - i - 1) * sizeof(*p));
	return d;
}

/* Sorted at once, each prefix checked against the next (siit/sorted4.c). */
struct tern_deny4 *tern_deny4_build(const struct tern_prefix4 *v, u32 n,
				    u32 *bad, u32 *other)
{
	const struct tern_sorted4 sv = { v, sizeof(*v), n };
	struct tern_deny4 *d;
	u32 *idx, i;

	if (!n)
		return NULL;
	if (n > TERN_DENY4_MAX)
		return ERR_PTR(-ENOSPC);
	idx = tern_sorted4_order(&sv, bad, other);
	if (IS_ERR(idx))
		return ERR_CAST(idx);
	d = tern_deny4_alloc(n);
	if (d) {
		for (i = 0; i < n; i++)
			d->p[i] = v[idx[i]];
	}
	kvfree(idx);
	return d ?: ERR_PTR(-ENOMEM);
}

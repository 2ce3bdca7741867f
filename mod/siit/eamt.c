// SPDX-License-Identifier: GPL-2.0
/*
 * The Explicit Address Mapping Table of RFC 7757.
 *
 * A table is an immutable snapshot: every change builds a new one (O(n))
 * and the instance publishes it with RCU, so the packet path looks entries
 * up without a lock. Entries are kept sorted by IPv4 prefix (start, then
 * length), and by6 indexes them by IPv6 prefix the same way. Prefixes
 * either nest or are disjoint; an entry may lie inside another only when
 * it was added with force (as Jool's --force), and then the longest
 * prefix wins (RFC 7757 3.2). Each entry knows the nearest entry whose
 * prefix contains its own (up4, up6: the nesting forest, at most 33 and
 * 129 deep). A family whose prefixes come in a few lengths
 * (TERN_EAMT_HLENS) is looked up in a hash index (siit/eamt_hash.c),
 * built with each snapshot: one hash a length, longest first. Else, and
 * for the changes, one binary search for the last prefix starting at or
 * before the address, O(log n), then up its containing entries until one
 * covers the address: the smallest entry covering an address contains
 * that last one, when they differ, so it is the first on that walk.
 */

#include <linux/netlink.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include "siit/eamt.h"
#include "siit/eamt_hash.h"
#include "siit/eamt_int.h"
#include "siit/prefix.h"
#include "siit/sorted4.h"

struct tern_eamt *tern_eamt_alloc(u32 n)
{
	size_t words = size_add(3 * (size_t)n,
				size_mul(2, tern_eamt_hash_slots(n)));
	struct tern_eamt *t;

	t = kvmalloc(size_add(size_add(struct_size(t, e, n),
				       array_size(words, sizeof(u32))), n),
		     GFP_KERNEL_ACCOUNT);
	if (!t)
		return NULL;
	t->n = n;
	t->by6 = (u32 *)&t->e[n];
	t->up4 = (s32 *)t->by6 + n;
	t->up6 = t->up4 + n;
	t->ovl = (u8 *)(t->up6 + n + 2 * tern_eamt_hash_slots(n));
	return t;
}

/*
 * The nesting forest: in prefix order, an entry's nearest container is
 * the entry before it or one of that one's containers.
 */
static void tern_eamt_nest(struct tern_eamt *t)
{
	s32 i, c;

	memset(t->ovl, 0, t->n);
	for (i = 0; i < (s32)t->n; i++) {
		const struct tern_prefix4 *p = &t->e[i].p4;

		for (c = i - 1; c >= 0; c = t->up4[c])
			if (t->e[c].p4.len <= p->len &&
			    tern_prefix4_contains(&t->e[c].p4, p->addr))
				break;
		t->up4[i] = c;
		if (c >= 0)
			t->ovl[i] = t->ovl[c] = 1;
	}
	for (i = 0; i < (s32)t->n; i++) {
		const struct tern_prefix6 *p = &tern_by6(t, i)->p6;

		for (c = i - 1; c >= 0; c = t->up6[c])
			if (tern_by6(t, c)->p6.len <= p->len &&
			    tern_prefix6_contains(&tern_by6(t, c)->p6,
						  &p->addr))
				break;
		t->up6[i] = c;
		if (c >= 0)
			t->ovl[t->by6[i]] = t->ovl[t->by6[c]] = 1;
	}
}

/* The nesting and hash indexes of a table whose entries are in place. */
struct tern_eamt *tern_eamt_index(struct tern_eamt *t)
{
	u32 *slots = (u32 *)t->up6 + t->n;

	tern_eamt_nest(t);
	tern_eamt_hash_build(&t->h4, slots, t->e, t->n, false);
	tern_eamt_hash_build(&t->h6, slots + tern_eamt_hash_slots(t->n),
			     t->e, t->n, true);
	return t;
}

bool tern_eamt_hashed(const struct tern_eamt *t, bool v6)
{
	return t && (v6 ? t->h6.nlen : t->h4.nlen);
}

void tern_eamt_free(struct tern_eamt *t)
{
	kvfree(t);
}

void tern_eamt_free_rcu(struct tern_eamt *t)
{
	if (t)
		kvfree_rcu(t, rcu);
}

u32 tern_eamt_count(const struct tern_eamt *t)
{
	return t ? t->n : 0;
}

const struct tern_eam *tern_eamt_entry(const struct tern_eamt *t, u32 i)
{
	return t && i < t->n ? &t->e[i] : NULL;
}

bool tern_eamt_overlaps(const struct tern_eamt *t, u32 i)
{
	return t && i < t->n && t->ovl[i];
}

/* Position of the last entry whose IPv4 prefix starts at or before @a. */
static int tern_floor4(const struct tern_eamt *t, __be32 a)
{
	const struct tern_sorted4 v = { &t->e[0].p4, sizeof(t->e[0]), t->n };

	return tern_sorted4_floor(&v, a);
}

/* The same in by6, for IPv6 prefixes. */
static int tern_floor6(const struct tern_eamt *t, const struct in6_addr *a)
{
	int lo = 0, hi = (int)t->n - 1, found = -1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (tern_addr6_cmp(&tern_by6(t, mid)->p6.addr, a) <= 0) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return found;
}

/* Position of the first entry not before @p, in each order. */
static u32 tern_lower4(const struct tern_eamt *t, const struct tern_prefix4 *p)
{
	u32 lo = 0, hi = t->n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (tern_p4_cmp(&t->e[mid].p4, p) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static u32 tern_lower6(const struct tern_eamt *t, const struct tern_prefix6 *p)
{
	u32 lo = 0, hi = t->n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (tern_p6_cmp(&tern_by6(t, mid)->p6, p) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The longest match by the binary search: an entry index, or -1. */
static int tern_match4(const struct tern_eamt *t, __be32 a)
{
	int i = tern_floor4(t, a);

	while (i >= 0 && !tern_prefix4_contains(&t->e[i].p4, a))
		i = t->up4[i];
	return i;
}

/* The same, a by6 position. */
static int tern_match6(const struct tern_eamt *t, const struct in6_addr *a)
{
	int i = tern_floor6(t, a);

	while (i >= 0 && !tern_prefix6_contains(&tern_by6(t, i)->p6, a))
		i = t->up6[i];
	return i;
}

const struct tern_eam *tern_eamt_find4(const struct tern_eamt *t, __be32 a)
{
	int i;

	if (!t)
		return NULL;
	if (t->h4.nlen)
		return tern_eamt_hash_find4(&t->h4, t->e, a);
	i = tern_match4(t, a);
	return i >= 0 ? &t->e[i] : NULL;
}

const struct tern_eam *tern_eamt_find6(const struct tern_eamt *t,
				       const struct in6_addr *a)
{
	int i;

	if (!t)
		return NULL;
	if (t->h6.nlen)
		return tern_eamt_hash_find6(&t->h6, t->e, a);
	i = tern_match6(t, a);
	return i >= 0 ? tern_by6(t, i) : NULL;
}

/*
 * The entry of @t that @e overlaps in one family, if any: the one covering
 * its start, or the next one in the order (at @next) if it starts inside.
 */
static const struct tern_eam *tern_overlap4(const struct tern_eamt *t,
					    const struct tern_prefix4 *p,
					    u32 next)
{
	int m = tern_match4(t, p->addr);

	if (m >= 0)
		return &t->e[m];
	if (next < t->n && tern_prefix4_contains(p, t->e[next].p4.addr))
		return &t->e[next];
	return NULL;
}

static const struct tern_eam *tern_overlap6(const struct tern_eamt *t,
					    const struct tern_prefix6 *p,
					    u32 next)
{
	int m = tern_match6(t, &p->addr);

	if (m >= 0)
		return tern_by6(t, m);
	if (next < t->n &&
	    tern_prefix6_contains(p, &tern_by6(t, next)->p6.addr))
		return tern_by6(t, next);
	return NULL;
}

/*
 * Where @e goes in each order (*@pos4, *@pos6), unless an entry has one
 * of its prefixes, or (without @force) overlaps it.
 */
static int tern_eamt_conflict(const struct tern_eamt *t,
			      const struct tern_eam *e, bool force,
			      u32 *pos4, u32 *pos6,
			      const struct tern_eam **conflict, bool *conflict4)
{
	u32 i4 = tern_lower4(t, &e->p4), i6 = tern_lower6(t, &e->p6);

	*pos4 = i4;
	*pos6 = i6;
	*conflict = NULL;
	if (i4 < t->n && tern_prefix4_equal(&t->e[i4].p4, &e->p4))
		*conflict = &t->e[i4];
	else if (!force)
		*conflict = tern_overlap4(t, &e->p4, i4);
	*conflict4 = *conflict;
	if (*conflict)
		return -EEXIST;
	if (i6 < t->n && tern_prefix6_equal(&tern_by6(t, i6)->p6, &e->p6))
		*conflict = tern_by6(t, i6);
	else if (!force)
		*conflict = tern_overlap6(t, &e->p6, i6);
	return *conflict ? -EEXIST : 0;
}

struct tern_eamt *tern_eamt_add(const struct tern_eamt *old,
				const struct tern_eam *e, bool force,
				const struct tern_eam **conflict,
				bool *conflict4)
{
	u32 n = tern_eamt_count(old), i, j, pos4 = 0, pos6 = 0;
	struct tern_eamt *t;
	int ret;

	*conflict = NULL;
	*conflict4 = false;
	if (old) {
		ret = tern_eamt_conflict(old, e, force, &pos4, &pos6, conflict,
					 conflict4);
		if (ret)
			return ERR_PTR(ret);
	}
	if (n >= TERN_EAMT_MAX)
		return ERR_PTR(-ENOSPC);
	t = tern_eamt_alloc(n + 1);
	if (!t)
		return ERR_PTR(-ENOMEM);
	if (old)
		memcpy(t->e, old->e, pos4 * sizeof(*e));
	t->e[pos4] = *e;
	if (old)
		memcpy(&t->e[pos4 + 1], &old->e[pos4], (n - pos4) * sizeof(*e));
	for (i = 0, j = 0; i < n + 1; i++) {
		u32 k;

		if (i == pos6) {
			t->by6[i] = pos4;
			continue;
		}
		k = old->by6[j++];
		t->by6[i] = k >= pos4 ? k + 1 : k;
	}
	return tern_eamt_index(t);
}

struct tern_eamt *tern_eamt_del(const struct tern_eamt *old,
				const struct tern_prefix6 *p6,
				const struct tern_prefix4 *p4,
				struct netlink_ext_ack *extack)
{
	struct tern_eamt *t;
	u32 i, j, victim;
	u32 i4 = 0, i6 = 0;

	if (p4) {
		i4 = old ? tern_lower4(old, p4) : 0;
		if (!old || i4 >= old->n ||
		    !tern_prefix4_equal(&old->e[i4].p4, p4)) {
			NL_SET_ERR_MSG(extack, "no EAMT entry has this IPv4 prefix");
			return ERR_PTR(-ENOENT);
		}
	}
	if (p6) {
		i6 = old ? tern_lower6(old, p6) : 0;
		if (!old || i6 >= old->n ||
		    !tern_prefix6_equal(&tern_by6(old, i6)->p6, p6)) {
			NL_SET_ERR_MSG(extack, "no EAMT entry has this IPv6 prefix");
			return ERR_PTR(-ENOENT);
		}
		i6 = old->by6[i6];
	}
	if (p4 && p6 && i4 != i6) {
		NL_SET_ERR_MSG(extack,
			       "the IPv6 and IPv4 prefixes belong to different EAMT entries");
		return ERR_PTR(-ENOENT);
	}
	if (!p4 && !p6) {
		NL_SET_ERR_MSG(extack, "name the entry by its IPv6 or IPv4 prefix");
		return ERR_PTR(-EINVAL);
	}
	victim = p4 ? i4 : i6;
	if (old->n == 1)
		return NULL;
	t = tern_eamt_alloc(old->n - 1);
	if (!t)
		return ERR_PTR(-ENOMEM);
	memcpy(t->e, old->e, victim * sizeof(t->e[0]));
	memcpy(&t->e[victim], &old->e[victim + 1],
	       (old->n - victim - 1) * sizeof(t->e[0]));
	for (i = 0, j = 0; i < old->n; i++) {
		u32 k = old->by6[i];

		if (k == victim)
			continue;
		t->by6[j++] = k > victim ? k - 1 : k;
	}
	return tern_eamt_index(t);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The Explicit Address Mapping Table of RFC 7757.
 *
 * A table is an immutable snapshot: every change builds a new one (O(n))
 * and the instance publishes it with RCU, so the packet path looks entries
 * up without a lock. Prefixes never overlap (additions that would are
 * refused) in either family, so at most one entry covers an address and
 * the longest-prefix match is that entry. A family whose prefixes come in
 * a few lengths (TERN_EAMT_HLENS) is looked up in a hash index
 * (siit/eamt_hash.c), built with each snapshot: one hash a length. Else,
 * and for the changes, one binary search for the last prefix starting at
 * or before the address, O(log n), in the entries sorted by IPv4 prefix,
 * or in an index sorted by IPv6 prefix.
 */

#include <linux/netlink.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "siit/eamt.h"
#include "siit/eamt_hash.h"
#include "siit/prefix.h"
#include "siit/sorted4.h"

struct tern_eamt {
	struct rcu_head rcu;
	u32 n;
	u32 *by6;		/* indexes into e[], by IPv6 prefix */
	struct tern_eamt_hash h4, h6;
	/* By IPv4 prefix; then by6's storage, then h4's slots, h6's. */
	struct tern_eam e[];
};

static struct tern_eamt *tern_eamt_alloc(u32 n)
{
	size_t words = size_add(n, size_mul(2, tern_eamt_hash_slots(n)));
	struct tern_eamt *t;

	t = kvmalloc(size_add(struct_size(t, e, n),
			      array_size(words, sizeof(u32))),
		     GFP_KERNEL_ACCOUNT);
	if (!t)
		return NULL;
	t->n = n;
	t->by6 = (u32 *)&t->e[n];
	return t;
}

/* The hash indexes of a table whose entries are in place. */
static struct tern_eamt *tern_eamt_index(struct tern_eamt *t)
{
	u32 *slots = t->by6 + t->n;

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

static const struct tern_eam *tern_by6(const struct tern_eamt *t, u32 i)
{
	return &t->e[t->by6[i]];
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

const struct tern_eam *tern_eamt_find4(const struct tern_eamt *t, __be32 a)
{
	int i;

	if (!t)
		return NULL;
	if (t->h4.nlen)
		return tern_eamt_hash_find4(&t->h4, t->e, a);
	i = tern_floor4(t, a);
	if (i < 0 || !tern_prefix4_contains(&t->e[i].p4, a))
		return NULL;
	return &t->e[i];
}

const struct tern_eam *tern_eamt_find6(const struct tern_eamt *t,
				       const struct in6_addr *a)
{
	const struct tern_eam *e;
	int i;

	if (!t)
		return NULL;
	if (t->h6.nlen)
		return tern_eamt_hash_find6(&t->h6, t->e, a);
	i = tern_floor6(t, a);
	if (i < 0)
		return NULL;
	e = tern_by6(t, i);
	return tern_prefix6_contains(&e->p6, a) ? e : NULL;
}

/*
 * @n (at most 32) bits of @a from bit @off on (0 = the most significant),
 * as the low bits of the result; or @v written there. They lie in the
 * 64-bit window of the 32-bit word holding bit @off and the next one.
 */
static u32 tern_bits6_get(const struct in6_addr *a, unsigned int off,
			  unsigned int n)
{
	unsigned int w = off / 32, shift = off % 32;
	u64 v;

	if (!n)
		return 0;
	v = (u64)ntohl(a->s6_addr32[w]) << 32;
	if (w < 3)
		v |= ntohl(a->s6_addr32[w + 1]);
	return (u32)((v << shift) >> (64 - n));
}

static void tern_bits6_set(struct in6_addr *a, unsigned int off,
			   unsigned int n, u32 bits)
{
	unsigned int w = off / 32, shift = off % 32;
	u64 v, mask;

	if (!n)
		return;
	mask = (~0ULL >> (64 - n)) << (64 - shift - n);
	v = (u64)ntohl(a->s6_addr32[w]) << 32;
	if (w < 3)
		v |= ntohl(a->s6_addr32[w + 1]);
	v = (v & ~mask) | (((u64)bits << (64 - shift - n)) & mask);
	a->s6_addr32[w] = htonl(v >> 32);
	if (w < 3)
		a->s6_addr32[w + 1] = htonl((u32)v);
}

/*
 * RFC 7757 3.3/3.4: the prefix of the other family, then the suffix bits
 * of the address. The IPv4 suffix (32 - IPv4 length bits) sits right
 * after the IPv6 prefix; when the IPv6 suffix is longer, its remaining
 * bits are zero 4 -> 6 and ignored 6 -> 4.
 */
void tern_eam_6to4(const struct tern_eam *e, const struct in6_addr *a6,
		   __be32 *a4)
{
	u32 host = tern_bits6_get(a6, e->p6.len, 32 - e->p4.len);

	*a4 = htonl(ntohl(e->p4.addr) | host);
}

void tern_eam_4to6(const struct tern_eam *e, __be32 a4, struct in6_addr *a6)
{
	*a6 = e->p6.addr;
	tern_bits6_set(a6, e->p6.len, 32 - e->p4.len,
		       ntohl(a4) & tern_hostmask4(e->p4.len));
}

int tern_eam_validate(const struct tern_eam *e, struct netlink_ext_ack *extack)
{
	/*
	 * RFC 7757 3.2: the suffix is copied bit for bit, so the IPv6 one
	 * must hold every bit of the IPv4 one; a shorter one would map
	 * several IPv4 addresses to one IPv6 address.
	 */
	if (e->p4.len > 32 || e->p6.len > 128 ||
	    128 - e->p6.len < 32 - e->p4.len) {
		NL_SET_ERR_MSG(extack,
			       "the IPv6 suffix must be at least as long as the IPv4 suffix: IPv6 length <= 96 + IPv4 length (RFC 7757)");
		return -EINVAL;
	}
	if (!tern_prefix_host_bits_clear(&e->p6.addr, 128, e->p6.len)) {
		NL_SET_ERR_MSG(extack,
			       "the IPv6 prefix has bits set after its length");
		return -EINVAL;
	}
	if (!tern_prefix_host_bits_clear(&e->p4.addr, 32, e->p4.len)) {
		NL_SET_ERR_MSG(extack,
			       "the IPv4 prefix has bits set after its length");
		return -EINVAL;
	}
	return 0;
}

/*
 * The prefixes in a table are disjoint, so a new one overlaps an entry iff
 * the entry at its floor contains its start or the next entry starts
 * inside it.
 */
static int tern_eamt_conflict(const struct tern_eamt *t,
			      const struct tern_eam *e, int *pos4, int *pos6,
			      const struct tern_eam **conflict, bool *conflict4)
{
	int f4 = tern_floor4(t, e->p4.addr);
	int f6 = tern_floor6(t, &e->p6.addr);
	int i;

	for (i = f4; i <= f4 + 1; i++) {
		if (i >= 0 && i < (int)t->n &&
		    tern_prefix4_overlap(&t->e[i].p4, &e->p4)) {
			*conflict = &t->e[i];
			*conflict4 = true;
			return -EEXIST;
		}
	}
	for (i = f6; i <= f6 + 1; i++) {
		if (i >= 0 && i < (int)t->n &&
		    tern_prefix6_overlap(&tern_by6(t, i)->p6, &e->p6)) {
			*conflict = tern_by6(t, i);
			*conflict4 = false;
			return -EEXIST;
		}
	}
	*pos4 = f4 + 1;
	*pos6 = f6 + 1;
	return 0;
}

struct tern_eamt *tern_eamt_add(const struct tern_eamt *old,
				const struct tern_eam *e,
				const struct tern_eam **conflict,
				bool *conflict4)
{
	u32 n = tern_eamt_count(old), i, j;
	int pos4 = 0, pos6 = 0, ret;
	struct tern_eamt *t;

	*conflict = NULL;
	*conflict4 = false;
	if (old) {
		ret = tern_eamt_conflict(old, e, &pos4, &pos6, conflict,
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
	int i4 = -1, i6 = -1;
	struct tern_eamt *t;
	u32 i, j, victim;

	if (p4) {
		i4 = old ? tern_floor4(old, p4->addr) : -1;
		if (i4 < 0 || !tern_prefix4_equal(&old->e[i4].p4, p4)) {
			NL_SET_ERR_MSG(extack, "no EAMT entry has this IPv4 prefix");
			return ERR_PTR(-ENOENT);
		}
	}
	if (p6) {
		i6 = old ? tern_floor6(old, &p6->addr) : -1;
		if (i6 < 0 || !tern_prefix6_equal(&tern_by6(old, i6)->p6, p6)) {
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

static int tern_eam_cmp6(const void *a, const void *b, const void *priv)
{
	const struct tern_eam *v = priv;

	return tern_addr6_cmp(&v[*(const u32 *)a].p6.addr,
			      &v[*(const u32 *)b].p6.addr);
}

/*
 * As tern_sorted4_order() (siit/sorted4.c) on each side: the IPv4 prefixes
 * in the order of @v's, the IPv6 ones by6.
 */
struct tern_eamt *tern_eamt_build(const struct tern_eam *v, u32 n, u32 *bad,
				  u32 *other)
{
	const struct tern_sorted4 sv = { &v[0].p4, sizeof(*v), n };
	struct tern_eamt *t;
	u32 *idx, i, *pos;
	int ret = -EEXIST;

	if (!n)
		return NULL;
	if (n > TERN_EAMT_MAX)
		return ERR_PTR(-ENOSPC);
	idx = tern_sorted4_order(&sv, bad, other);
	if (IS_ERR(idx))
		return ERR_CAST(idx);
	t = tern_eamt_alloc(n);
	if (!t) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		t->e[i] = v[idx[i]];
		t->by6[i] = i;
	}
	sort_r(t->by6, n, sizeof(u32), tern_eam_cmp6, NULL, t->e);
	for (i = 1; i < n; i++) {
		pos = &t->by6[i - 1];
		if (tern_prefix6_overlap(&t->e[pos[0]].p6, &t->e[pos[1]].p6)) {
			*bad = max(idx[pos[0]], idx[pos[1]]);
			*other = min(idx[pos[0]], idx[pos[1]]);
			goto out;
		}
	}
	ret = 0;
out:
	kvfree(idx);
	if (!ret)
		return tern_eamt_index(t);
	tern_eamt_free(t);
	return ERR_PTR(ret);
}

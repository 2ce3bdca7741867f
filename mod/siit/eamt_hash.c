// SPDX-License-Identifier: GPL-2.0
/*
 * The EAMT's hash index (siit/eamt_hash.h).
 *
 * The prefixes of a family never overlap, so at most one entry covers an
 * address: the one whose prefix equals the address cut to that entry's
 * length. With a few lengths in the table, the lookup cuts the address to
 * each (longest first) and looks the result up in one open-addressing
 * table of every entry, keyed by prefix and length: a hash and a probe or
 * two a length, where the binary search takes one step per doubling of
 * the table (14 at 10,000 entries, with a 128-bit compare in each).
 *
 * The table is built once per snapshot and never changes (linear probing
 * without deletions: an entry sits at most maxprobe slots past its home,
 * with no empty slot between), so no probe sequence is longer than the
 * longest the build made, whatever address a packet carries. The seed is
 * drawn at each build: the table's layout cannot be known from outside.
 */

#include <linux/bitmap.h>
#include <linux/jhash.h>
#include <linux/log2.h>
#include <linux/random.h>
#include "siit/eamt_hash.h"
#include "siit/prefix.h"

static u32 tern_eamt_h4(__be32 key, u8 len, u32 seed)
{
	return jhash_1word((__force u32)key, seed + len);
}

static u32 tern_eamt_h6(const struct in6_addr *key, u8 len, u32 seed)
{
	return jhash2((__force const u32 *)key->s6_addr32, 4, seed + len);
}

u32 tern_eamt_hash_slots(u32 n)
{
	return roundup_pow_of_two(max(2 * n, 2U));
}

static u8 tern_eamt_len(const struct tern_eam *e, bool v6)
{
	return v6 ? e->p6.len : e->p4.len;
}

void tern_eamt_hash_build(struct tern_eamt_hash *h, u32 *slot,
			  const struct tern_eam *e, u32 n, bool v6)
{
	DECLARE_BITMAP(seen, 129);
	u32 i, j, d;
	int len;

	memset(h, 0, sizeof(*h));
	bitmap_zero(seen, 129);
	for (i = 0; i < n; i++)
		__set_bit(tern_eamt_len(&e[i], v6), seen);
	if (!n || bitmap_weight(seen, 129) > TERN_EAMT_HLENS)
		return;
	h->slot = slot;
	h->mask = tern_eamt_hash_slots(n) - 1;
	h->seed = get_random_u32();
	memset(slot, 0, (h->mask + 1) * sizeof(*slot));
	for (i = 0; i < n; i++) {
		u8 l = tern_eamt_len(&e[i], v6);

		j = v6 ? tern_eamt_h6(&e[i].p6.addr, l, h->seed) :
			 tern_eamt_h4(e[i].p4.addr, l, h->seed);
		for (d = 0; slot[j & h->mask]; d++)
			j++;
		slot[j & h->mask] = i + 1;
		h->maxprobe = max(h->maxprobe, d);
	}
	for (len = 128; len >= 0; len--)
		if (test_bit(len, seen))
			h->len[h->nlen++] = len;
}

const struct tern_eam *tern_eamt_hash_find4(const struct tern_eamt_hash *h,
					    const struct tern_eam *e,
					    __be32 a)
{
	unsigned int l;
	u32 i, p, s;

	for (l = 0; l < h->nlen; l++) {
		u8 len = h->len[l];
		__be32 key = a & htonl(~tern_hostmask4(len));

		i = tern_eamt_h4(key, len, h->seed);
		for (p = 0; p <= h->maxprobe; p++, i++) {
			s = h->slot[i & h->mask];
			if (!s)
				break;
			if (e[s - 1].p4.addr == key && e[s - 1].p4.len == len)
				return &e[s - 1];
		}
	}
	return NULL;
}

const struct tern_eam *tern_eamt_hash_find6(const struct tern_eamt_hash *h,
					    const struct tern_eam *e,
					    const struct in6_addr *a)
{
	struct in6_addr key;
	unsigned int l;
	u32 i, p, s;

	for (l = 0; l < h->nlen; l++) {
		u8 len = h->len[l];

		ipv6_addr_prefix(&key, a, len);
		i = tern_eamt_h6(&key, len, h->seed);
		for (p = 0; p <= h->maxprobe; p++, i++) {
			s = h->slot[i & h->mask];
			if (!s)
				break;
			if (e[s - 1].p6.len == len &&
			    ipv6_addr_equal(&e[s - 1].p6.addr, &key))
				return &e[s - 1];
		}
	}
	return NULL;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The EAMT's hash index (siit/eamt_hash.h).
 *
 * An entry covers an address when its prefix equals the address cut to
 * that entry's length. With a few lengths in the table, the lookup cuts
 * the address to each, longest first (entries may nest: the first found
 * is the longest match), and looks the result up in one open-addressing
 * table of every entry, keyed by prefix and length: a hash and a probe or
 * two a length, where the binary search takes one step per doubling of
 * the table (14 at 10,000 entries, with a 128-bit compare in each).
 *
 * The table is built once per snapshot and never changes (linear probing
 * without deletions: an entry sits at most maxprobe slots past its home,
 * with no empty slot between), so no probe sequence is longer than the
 * longest the build made, whatever address a packet carries; a build
 * whose longest is past TERN_EAMT_MAXPROBE is not used. The hash is a
 * chain of multiplications and shifts (a few instructions: every packet
 * through an EAMT asks up to three times), seeded at each build.
 */

#include <linux/bitmap.h>
#include <linux/log2.h>
#include <linux/random.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include "siit/eamt_hash.h"
#include "siit/prefix.h"

/*
 * Every bit of @x reaches the low bits the mask keeps (the finaliser of
 * murmur3): a product alone carries a key's bits only upwards, and the
 * byte that differs between consecutive hosts is a __be32's highest.
 */
static u32 tern_eamt_mix(u32 x)
{
	x ^= x >> 16;
	x *= 0x85ebca6b;
	x ^= x >> 13;
	x *= 0xc2b2ae35;
	return x ^ (x >> 16);
}

static u32 tern_eamt_h4(__be32 key, u8 len, u32 seed)
{
	return tern_eamt_mix(((__force u32)key ^ seed ^ len) * 0x9e3779b1);
}

static u32 tern_eamt_h6(const struct in6_addr *key, u8 len, u32 seed)
{
	u32 x = ((__force u32)key->s6_addr32[0] ^ seed) * 0x9e3779b1;

	x = ((__force u32)key->s6_addr32[1] ^ x) * 0x85ebca77;
	x = ((__force u32)key->s6_addr32[2] ^ x) * 0xc2b2ae3d;
	x = ((__force u32)key->s6_addr32[3] ^ x ^ len) * 0x27d4eb2f;
	return tern_eamt_mix(x);
}

u32 tern_eamt_hash_slots(u32 n)
{
	return roundup_pow_of_two(max(2 * n, 2U));
}

static u8 tern_eamt_len(const struct tern_eam *e, bool v6)
{
	return v6 ? e->p6.len : e->p4.len;
}

/* Fills the slots; false when a probe sequence is too long. */
static bool tern_eamt_hash_fill(struct tern_eamt_hash *h,
				const struct tern_eam *e, u32 n, bool v6)
{
	u32 i, j, d;

	memset(h->slot, 0, (h->mask + 1) * sizeof(*h->slot));
	for (i = 0; i < n; i++) {
		u8 l = tern_eamt_len(&e[i], v6);

		j = v6 ? tern_eamt_h6(&e[i].p6.addr, l, h->seed) :
			 tern_eamt_h4(e[i].p4.addr, l, h->seed);
		for (d = 0; h->slot[j & h->mask]; d++)
			j++;
		if (d > TERN_EAMT_MAXPROBE)
			return false;
		h->slot[j & h->mask] = i + 1;
		h->maxprobe = max(h->maxprobe, d);
	}
	return true;
}

void tern_eamt_hash_build(struct tern_eamt_hash *h, u32 *slot,
			  const struct tern_eam *e, u32 n, bool v6)
{
	DECLARE_BITMAP(seen, 129);
	unsigned int nlen = 0;
	struct in6_addr ones;
	u32 i;
	int len;

	memset(&ones, 0xff, sizeof(ones));
	memset(h, 0, sizeof(*h));
	bitmap_zero(seen, 129);
	for (i = 0; i < n; i++)
		__set_bit(tern_eamt_len(&e[i], v6), seen);
	if (!n || bitmap_weight(seen, 129) > TERN_EAMT_HLENS)
		return;
	h->slot = slot;
	h->mask = tern_eamt_hash_slots(n) - 1;
	h->seed = get_random_u32();
	if (!tern_eamt_hash_fill(h, e, n, v6))
		return;
	for (len = 128; len >= 0; len--) {
		if (!test_bit(len, seen))
			continue;
		h->len[nlen] = len;
		if (v6)
			ipv6_addr_prefix(&h->cut6[nlen], &ones, len);
		else
			h->cut4[nlen] = htonl(~tern_hostmask4(len));
		nlen++;
	}
	h->nlen = nlen;
}

const struct tern_eam *tern_eamt_hash_find4(const struct tern_eamt_hash *h,
					    const struct tern_eam *e,
					    __be32 a)
{
	unsigned int l;
	u32 i, p, s;

	for (l = 0; l < h->nlen; l++) {
		__be32 key = a & h->cut4[l];
		u8 len = h->len[l];

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

		key.s6_addr32[0] = a->s6_addr32[0] & h->cut6[l].s6_addr32[0];
		key.s6_addr32[1] = a->s6_addr32[1] & h->cut6[l].s6_addr32[1];
		key.s6_addr32[2] = a->s6_addr32[2] & h->cut6[l].s6_addr32[2];
		key.s6_addr32[3] = a->s6_addr32[3] & h->cut6[l].s6_addr32[3];
		i = tern_eamt_h6(&key, len, h->seed);
		for (p = 0; p <= h->maxprobe; p++, i++) {
			s = h->slot[i & h->mask];
			if (!s)
				break;
			if (ipv6_addr_equal(&e[s - 1].p6.addr, &key) &&
			    e[s - 1].p6.len == len)
				return &e[s - 1];
		}
	}
	return NULL;
}

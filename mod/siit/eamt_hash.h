/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The EAMT's hash index: the entries of one family by (prefix, length),
 * for tables whose prefixes of that family come in a few lengths (most do:
 * /32 <-> /128 hosts, or a subnet size or two).
 */
#ifndef _TERN_EAMT_HASH_H
#define _TERN_EAMT_HASH_H

#include <linux/in6.h>
#include <linux/types.h>
#include "siit/eamt.h"

/* Distinct prefix lengths a family may have and still be indexed. */
#define TERN_EAMT_HLENS	4
/*
 * A build whose longest probe sequence is longer leaves the family to the
 * binary search (a table whose keys the hash does not spread; with any
 * other, linear probing at most half full stays far below).
 */
#define TERN_EAMT_MAXPROBE	64

struct tern_eamt_hash {
	u32 *slot;	/* per slot, the entry's index + 1; 0: empty */
	u32 mask;	/* slots - 1 */
	u32 seed;
	u32 maxprobe;	/* the farthest an entry sits from its home slot */
	u8 nlen;	/* 0: not indexed (the binary search answers) */
	u8 len[TERN_EAMT_HLENS];	/* the lengths, longest first */
	union {		/* the netmask of each */
		__be32 cut4[TERN_EAMT_HLENS];
		struct in6_addr cut6[TERN_EAMT_HLENS];
	};
};

/* Slots an index of @n entries takes (a power of two, at least 2 @n). */
u32 tern_eamt_hash_slots(u32 n);

/*
 * Indexes the IPv4 (@v6 false) or IPv6 prefixes of @e[0..@n) in @slot
 * (tern_eamt_hash_slots(@n) of them), unless they have more than
 * TERN_EAMT_HLENS lengths or the hash does not spread them (then h->nlen
 * is 0).
 */
void tern_eamt_hash_build(struct tern_eamt_hash *h, u32 *slot,
			  const struct tern_eam *e, u32 n, bool v6);

/*
 * The entry of @e covering @a, or NULL; h->nlen must not be 0. One hash a
 * length, each probe sequence no longer than the longest the build made.
 */
const struct tern_eam *tern_eamt_hash_find4(const struct tern_eamt_hash *h,
					    const struct tern_eam *e,
					    __be32 a);
const struct tern_eam *tern_eamt_hash_find6(const struct tern_eamt_hash *h,
					    const struct tern_eam *e,
					    const struct in6_addr *a);

#endif /* _TERN_EAMT_HASH_H */

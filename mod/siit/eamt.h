/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_EAMT_H
#define _TERN_EAMT_H

#include <linux/rcupdate.h>
#include "core/addr.h"

struct netlink_ext_ack;

/* An Explicit Address Mapping (RFC 7757): IPv6 suffix at least as long. */
struct tern_eam {
	struct tern_prefix6 p6;
	struct tern_prefix4 p4;
};

/* Most entries of an instance's EAMT. */
#define TERN_EAMT_MAX	(1U << 16)

/*
 * An EAM table: an immutable snapshot, replaced as a whole on every change
 * and freed after an RCU grace period. NULL is the empty table.
 */
struct tern_eamt;

int tern_eam_validate(const struct tern_eam *e, struct netlink_ext_ack *extack);

/*
 * Lookups (under rcu_read_lock() or the namespace lock): the entry with the
 * longest prefix covering the address, or NULL.
 */
const struct tern_eam *tern_eamt_find6(const struct tern_eamt *t,
				       const struct in6_addr *a);
const struct tern_eam *tern_eamt_find4(const struct tern_eamt *t, __be32 a);

/* Translation through entry @e, which covers the address (suffix kept). */
void tern_eam_6to4(const struct tern_eam *e, const struct in6_addr *a6,
		   __be32 *a4);
void tern_eam_4to6(const struct tern_eam *e, __be32 a4, struct in6_addr *a6);

/*
 * Changes build a new table from @old (which stays valid) and return it
 * (NULL when empty) or an ERR_PTR():
 * add: -EEXIST when an entry has one of the prefixes, or (unless @force)
 * a prefix overlaps an entry's (*@conflict points to it, in @old;
 * *@conflict4 says whether it is about the IPv4 prefix, else the IPv6
 * one), -ENOSPC when @old is full, -ENOMEM.
 * del: entry whose prefixes equal the given ones (either may be NULL, not
 * both); -ENOENT with an extack message when there is none.
 */
struct tern_eamt *tern_eamt_add(const struct tern_eamt *old,
				const struct tern_eam *e, bool force,
				const struct tern_eam **conflict,
				bool *conflict4);
struct tern_eamt *tern_eamt_del(const struct tern_eamt *old,
				const struct tern_prefix6 *p6,
				const struct tern_prefix4 *p4,
				struct netlink_ext_ack *extack);

/*
 * A table of the @n entries of @v (each validated), in any order, built at
 * once (O(n log n)): NULL when @n is 0, or an ERR_PTR: -EEXIST when two
 * have an equal prefix, or overlap and neither has its bit in @force
 * (NULL: none has) (*@bad: the later one's index in @v, *@other: the
 * earlier one's), -ENOSPC past TERN_EAMT_MAX entries, -ENOMEM.
 */
struct tern_eamt *tern_eamt_build(const struct tern_eam *v, u32 n,
				  const unsigned long *force, u32 *bad,
				  u32 *other);

/* Whether a family's lookups take the hash index (siit/eamt_hash.h). */
bool tern_eamt_hashed(const struct tern_eamt *t, bool v6);

/*
 * Entries in IPv4 prefix order, for dumps; whether an entry's prefixes
 * overlap another's (a nested entry, or one with entries inside).
 */
u32 tern_eamt_count(const struct tern_eamt *t);
const struct tern_eam *tern_eamt_entry(const struct tern_eamt *t, u32 i);
bool tern_eamt_overlaps(const struct tern_eamt *t, u32 i);

void tern_eamt_free(struct tern_eamt *t);
void tern_eamt_free_rcu(struct tern_eamt *t);

#endif /* _TERN_EAMT_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_DENYLIST4_H
#define _TERN_DENYLIST4_H

#include <linux/rcupdate.h>
#include "core/addr.h"

/* Most prefixes of an instance's denylist4. */
#define TERN_DENY4_MAX	(1U << 16)

/*
 * IPv4 prefixes pool6 must not translate (the EAMT is not affected): an
 * immutable snapshot replaced on every change, like the EAMT. NULL is the
 * empty list.
 */
struct tern_deny4;

/* Under rcu_read_lock() or the namespace lock. */
bool tern_deny4_contains(const struct tern_deny4 *d, __be32 a);

/*
 * Changes return a new list (NULL when empty) or an ERR_PTR(): add:
 * -EEXIST when @p overlaps a listed prefix (*@conflict, in @old), -ENOSPC,
 * -ENOMEM; del: -ENOENT when @p is not listed.
 */
struct tern_deny4 *tern_deny4_add(const struct tern_deny4 *old,
				  const struct tern_prefix4 *p,
				  const struct tern_prefix4 **conflict);
struct tern_deny4 *tern_deny4_del(const struct tern_deny4 *old,
				  const struct tern_prefix4 *p);

/*
 * A list of the @n prefixes of @v (host bits clear), in any order, built
 * at once: NULL when @n is 0, or an ERR_PTR: -EEXIST when two overlap
 * (*@bad: the later one's index in @v, *@other: the earlier one's),
 * -ENOSPC past TERN_DENY4_MAX prefixes, -ENOMEM.
 */
struct tern_deny4 *tern_deny4_build(const struct tern_prefix4 *v, u32 n,
				    u32 *bad, u32 *other);

/* Prefixes in address order, for dumps. */
u32 tern_deny4_count(const struct tern_deny4 *d);
const struct tern_prefix4 *tern_deny4_entry(const struct tern_deny4 *d, u32 i);

void tern_deny4_free(struct tern_deny4 *d);
void tern_deny4_free_rcu(struct tern_deny4 *d);

#endif /* _TERN_DENYLIST4_H */

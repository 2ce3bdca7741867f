/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The EAMT's layout, shared by its changes (siit/eamt.c) and its bulk
 * build (siit/eamt_build.c); the rest of the module sees siit/eamt.h.
 */
#ifndef _TERN_EAMT_INT_H
#define _TERN_EAMT_INT_H

#include "siit/eamt.h"
#include "siit/eamt_hash.h"
#include "siit/prefix.h"

struct tern_eamt {
	struct rcu_head rcu;
	u32 n;
	u32 *by6;		/* indexes into e[], by IPv6 prefix */
	s32 *up4;		/* per entry: the nearest containing one, or -1 */
	s32 *up6;		/* per by6 position: the same, a by6 position */
	u8 *ovl;		/* per entry: its prefixes overlap another's */
	struct tern_eamt_hash h4, h6;
	/*
	 * By IPv4 prefix; then by6's storage, up4's, up6's, h4's slots,
	 * h6's, ovl's.
	 */
	struct tern_eam e[];
};

/* Room for @n entries and their indexes (kvfree()), or NULL. */
struct tern_eamt *tern_eamt_alloc(u32 n);
/* The nesting and hash indexes of a table whose entries are in place. */
struct tern_eamt *tern_eamt_index(struct tern_eamt *t);

/* The order of the entries: start, then length. */
static inline int tern_p4_cmp(const struct tern_prefix4 *a,
			      const struct tern_prefix4 *b)
{
	u32 x = ntohl(a->addr), y = ntohl(b->addr);

	if (x != y)
		return x < y ? -1 : 1;
	return (int)a->len - (int)b->len;
}

static inline int tern_p6_cmp(const struct tern_prefix6 *a,
			      const struct tern_prefix6 *b)
{
	return tern_addr6_cmp(&a->addr, &b->addr) ?:
	       (int)a->len - (int)b->len;
}

static inline const struct tern_eam *tern_by6(const struct tern_eamt *t,
					     u32 i)
{
	return &t->e[t->by6[i]];
}

#endif /* _TERN_EAMT_INT_H */

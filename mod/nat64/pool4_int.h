/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_POOL4_INT_H
#define _TERN_NAT64_POOL4_INT_H

/*
 * Inside a pool4 snapshot: shared by its builder (nat64/pool4.c) and the
 * port selection that reads it (nat64/ports.c). Nobody else looks in.
 */

#include <linux/rcupdate.h>
#include <linux/types.h>
#include "nat64/pool4.h"

struct tern_pool4 {
	struct rcu_head rcu;
	u32 n;
	u64 lens;		/* bit L: an entry is L bits long */
	u32 lo, hi;		/* host order: the lowest, highest address */
	u32 *by_pick;		/* indexes into e[], by (l4, mark, address) */
	u32 *cum;		/* cum[i]: addresses of by_pick[0..i), n + 1 */
	struct tern_pool4_entry e[];	/* by address; then by_pick, cum */
};

#endif /* _TERN_NAT64_POOL4_INT_H */

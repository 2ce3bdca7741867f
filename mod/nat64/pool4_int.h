/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_POOL4_INT_H
#define _TERN_NAT64_POOL4_INT_H

/*
 * Inside a pool4 snapshot: shared by its builder (nat64/pool4.c) and the
 * port selection that reads it (nat64/ports.c, and nat64/det.c for the
 * deterministic mode, nat64/blocks_pick.c for port blocks). Nobody else looks in.
 */

#include <linux/rcupdate.h>
#include <linux/types.h>
#include "nat64/pool4.h"

struct tern_pool4 {
	struct rcu_head rcu;
	u32 n;
	u64 lens;		/* bit L: an entry is L bits long */
	u32 lo, hi;		/* host order: the lowest, highest address */
	bool dense;		/* every address of [lo, hi] is in an entry */
	u32 *by_pick;		/* indexes into e[], by (l4, mark, address) */
	u32 *cum;		/* cum[i]: addresses of by_pick[0..i), n + 1 */
	struct tern_pool4_entry e[];	/* by address; then by_pick, cum */
};

/* The entries of @l4 and @mark: by_pick[*lo .. *hi). */
void tern_pick_run(const struct tern_pool4 *p, u8 l4, u32 mark, u32 *lo,
		   u32 *hi);
/* The position in by_pick[lo..hi) of the entry holding address @slot. */
u32 tern_pick_entry(const struct tern_pool4 *p, u32 lo, u32 hi, u32 slot);
/*
 * The slot (from by_pick[lo]'s first address) of address @a in
 * by_pick[lo..hi), of an entry holding it whose ports include the class
 * (0-1023, 1024-65535) of @p6 if one does, else of any entry holding it
 * (entries of one run nest only with other ports); false if none does.
 */
bool tern_pick_slot_of(const struct tern_pool4 *p, u32 lo, u32 hi,
		       __be32 a, u16 p6, u32 *slot);
/* Candidate @attempt from offset @h among @n: sequential from @h. */
u32 tern_pick_nth(u64 h, unsigned int attempt, u32 n);
/*
 * Candidate @attempt from offset @h among the ports of [@min, @max] of
 * the class (0-1023, 1024-65535) of @p6 if the range has some, and of
 * these the ones of its parity if there are some; how many they are.
 */
u16 tern_pick_port(u16 min, u16 max, u16 p6, u64 h, unsigned int attempt);
u32 tern_pick_port_count(u16 min, u16 max, u16 p6);
/*
 * The hash behind a port's offset: siphash under @key of (@t6's address
 * and port, the IPv4 address @a4, the protocol @l4), for tern_pick4() and
 * deterministic mode alike.
 */
u64 tern_pick_hash(const siphash_key_t *key, const struct tern_ta6 *t6,
		   __be32 a4, u8 l4);

#endif /* _TERN_NAT64_POOL4_INT_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_POOL4_H
#define _TERN_NAT64_POOL4_H

/*
 * pool4 (RFC 6146 3.5.1.1): the IPv4 transport addresses a NAT64
 * instance may give its IPv6 hosts, per protocol (ICMP: identifiers),
 * selected by packet mark. An immutable snapshot replaced on every change
 * under the namespace lock and freed after a grace period, like the EAMT;
 * NULL is the empty pool.
 */

#include <linux/rcupdate.h>
#include <linux/siphash.h>
#include "core/addr.h"
#include "nat64/table.h"

struct net;
struct netlink_ext_ack;

struct tern_pool4_entry {
	struct tern_prefix4 prefix;
	u8 l4;			/* enum tern_l4 */
	u16 pmin, pmax;		/* host order, inclusive */
	u32 mark;
};

/*
 * Most entries of an instance's pool4, and most distinct IPv4 addresses
 * they cover (one /16: every prefix is 16 to 32 bits long).
 */
#define TERN_POOL4_ENTRIES_MAX	(1U << 12)
#define TERN_POOL4_ADDRS_MAX	(1U << 16)

struct tern_pool4;

/* Ports of @e the host uses for its own connections (see below). */
struct tern_pool4_clash {
	__be32 addr;		/* an address of the host in the prefix */
	u16 pmin, pmax;		/* the ports of ip_local_port_range in @e */
};

/*
 * Validation before add (process context, @net the instance's): bounds
 * and host bits (-EINVAL with an extack message), and for TCP and UDP no
 * overlap of the namespace's ip_local_port_range on an address of this
 * host: -EADDRINUSE with the overlap in *@clash, for the caller to name
 * (no extack message: formatting one needs the namespace's buffers).
 */
int tern_pool4_validate(struct net *net, const struct tern_pool4_entry *e,
			struct tern_pool4_clash *clash,
			struct netlink_ext_ack *extack);

/*
 * Changes return a new pool (NULL when empty) or an ERR_PTR(): add:
 * -EEXIST when @e overlaps an entry of the same protocol and mark: their
 * prefixes and their port ranges overlap (*@conflict, in @old); -ENOSPC
 * past TERN_POOL4_ENTRIES_MAX entries, -E2BIG past TERN_POOL4_ADDRS_MAX
 * addresses, -ENOMEM. del: removes every entry with @e's prefix, protocol
 * and mark, whatever their ports or, with @ports, the one with @e's ports
 * too; -ENOENT when there is none.
 */
struct tern_pool4 *tern_pool4_add(const struct tern_pool4 *old,
				  const struct tern_pool4_entry *e,
				  const struct tern_pool4_entry **conflict);
struct tern_pool4 *tern_pool4_del(const struct tern_pool4 *old,
				  const struct tern_pool4_entry *e, bool ports);

/* Under rcu_read_lock(): is @a#@port (host order) in the pool for @l4? */
bool tern_pool4_contains(const struct tern_pool4 *p, u8 l4, __be32 a,
			 u16 port);
/* Is @b static, or is its IPv4 transport address in @p? */
bool tern_pool4_holds(const struct tern_pool4 *p, const struct tern_bib *b);
/*
 * Is @b a dynamic BIB entry whose IPv4 transport address @pool (a struct
 * tern_pool4) no longer holds? As tern_tables_flush_if() takes it.
 */
bool tern_pool4_lost(const struct tern_bib *b, void *pool);
/* Under rcu_read_lock(): is @a an address of the pool (any protocol)? */
bool tern_pool4_has_addr(const struct tern_pool4 *p, __be32 a);

/* Entries in order, for dumps. */
u32 tern_pool4_count(const struct tern_pool4 *p);
const struct tern_pool4_entry *tern_pool4_entry(const struct tern_pool4 *p,
						 u32 i);

void tern_pool4_free(struct tern_pool4 *p);
void tern_pool4_free_rcu(struct tern_pool4 *p);

/*
 * Port selection (RFC 6056 Algorithm 3 with a per-instance siphash key),
 * run only when a BIB entry is created: the tern_pick4_fn of
 * tern_sess_add6() with a struct tern_pick as its argument. Paired address
 * pooling (RFC 6146 3.5.1.1, RFC 6888 REQ-2): every BIB entry of one IPv6
 * address (with @tables, of one subscriber) gets the same IPv4 address
 * while it has room; the port keeps
 * the class (0-1023, 1024-65535) of the IPv6 one where the pool allows
 * (RFC 4787 REQ-3), and its parity (REQ-4) in the first half of an
 * address's candidates, the other parity in the second. At most
 * TERN_PICK_PROBES candidates.
 *
 * A pure function of its arguments (no state, lock, allocation or random
 * number): the address is the hash of the IPv6 address alone (keyed) among
 * the addresses of the entries of @l4 and @mark, the next one after each
 * TERN_PICK_ADDR_PROBES attempts; the port goes up one per attempt from
 * an offset hashed (keyed) from the IPv6 address and port and the IPv4
 * address (the IPv6 port in it, so that the bindings of one host do not
 * all probe from the same offset). False at once when no entry has @l4
 * and @mark.
 *
 * Several boxes, one pool: of the addresses of @l4 and @mark, only the
 * share of box @box of @boxes (include/tern_share.h; @boxes 0 or 1: all
 * of them); false at once when the share is empty.
 *
 * With @tables, the subscriber's address first: the address of the last
 * dynamic BIB entry of the IPv6 address's subscriber (its prefix of
 * @sub_plen bits, tern_sub_addr4(), asked at attempt 0) while it is one
 * of the share, in place of the hash's; so that a pool4 change does not
 * move hosts with entries to another address (paired pooling holds
 * across it), and a subscriber's hosts share an address while it has
 * room. Without @tables, a pure function as above.
 */
struct tern_pick {
	const struct tern_pool4 *pool;
	const siphash_key_t *key;
	u32 mark;
	u8 l4;
	u8 sub_plen;		/* subscriber-prefix-len */
	u32 boxes, box;		/* box-count, box-index */
	struct tern_tables *tables;
	/* With @tables: set at attempt 0, for the attempts after it. */
	__be32 hint;
	u32 base;		/* the first slot, of the share */
};

#define TERN_PICK_PROBES	128
#define TERN_PICK_ADDR_PROBES	32

bool tern_pick4(void *arg, const struct tern_ta6 *t6, unsigned int attempt,
		struct tern_ta4 *t4);
bool tern_pick_serves(const struct tern_pick *pk);

#endif /* _TERN_NAT64_POOL4_H */

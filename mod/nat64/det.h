/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_DET_H
#define _TERN_NAT64_DET_H

/*
 * Deterministic NAT64 (RFC 7422): with det-space set, a subscriber's BIB
 * entries take their IPv4 address and ports from the block the
 * configuration alone gives it (include/tern_det.h has the mapping), so
 * that no per-session log is needed to answer who used an IPv4
 * transport address. docs/design.md has the choices.
 */

#include <linux/siphash.h>
#include <linux/types.h>
#include "core/instance.h"
#include "nat64/table.h"
#include "tern_det.h"

struct tern_pool4;

/*
 * The shape of protocol @l4 (enum tern_l4) under @cfg and @p: this box's
 * share (box-index of box-count, include/tern_share.h) of the addresses
 * of its pool4 entries of mark 0. False when it has none.
 */
bool tern_det_shape_of(const struct tern_config *cfg,
		       const struct tern_pool4 *p, u8 l4,
		       struct tern_det_shape *d);

/*
 * Do @cfg and pool4 @p (NULL: empty) fit each other? box-index below
 * box-count and, with several boxes, a share of at least one address for
 * each in every run (protocol, mark) of pool4, no address twice in one;
 * with det-space set, deterministic mode maps every subscriber of the
 * space on every box (the smallest share). 0, or -EINVAL with the
 * reason, numbers named, in @msg (for an extack).
 */
int tern_det_validate(const struct tern_config *cfg,
		      const struct tern_pool4 *p, char *msg, size_t size);

/* The block of one subscriber, prepared once per new BIB entry. */
struct tern_det_pick {
	u64 h;			/* the offset of the flow's candidates */
	__be32 addr;
	u32 first, size;	/* the block: first .. first + size - 1 */
	u32 probes;		/* candidates before giving up */
	u32 pref;		/* of the port's class and parity (TCP, UDP) */
};

/*
 * Under rcu_read_lock(): the block of @t6's subscriber for @l4. 0, or
 * the counter of the refusal: TERN_STAT_DROP_DET_OUTSIDE (not in
 * det-space), TERN_STAT_DROP_NO_POOL4, TERN_STAT_DROP_DET_FULL (the
 * settings and pool4 do not fit each other: a change half seen).
 */
int tern_det_prepare(struct tern_det_pick *dp, const struct tern_config *cfg,
		     const struct tern_pool4 *p, u8 l4,
		     const struct tern_ta6 *t6);

/*
 * The tern_pick4_fn of deterministic mode (@arg a struct tern_det_pick):
 * the subscriber's address, a port of its block only. The port is a pure
 * function of the IPv6 address and port, the protocol, the block and
 * det-port-key (no random boot-time key: a standby box with the same
 * configuration picks the same one): from an offset hashed from the
 * subscriber's address, plus the IPv6 port (flows of near IPv6 ports get
 * distinct ports), going up on collisions: first among the ports of the
 * IPv6 port's class and parity, then among all of the block, at most
 * TERN_PICK_PROBES candidates.
 */
bool tern_det_pick4(void *arg, const struct tern_ta6 *t6, unsigned int attempt,
		    struct tern_ta4 *t4);

#endif /* _TERN_NAT64_DET_H */

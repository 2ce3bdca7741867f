/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_SYNSTORE_H
#define _TERN_NAT64_SYNSTORE_H

/*
 * IPv4 SYNs kept for a simultaneous open (RFC 6146 3.5.2.2): a SYN to a
 * pool4 transport address without BIB entry waits TCP_INCOMING_SYN (6 s).
 * If an IPv6 SYN makes the session of that transport address and that
 * peer meanwhile, the stored SYN is discarded (the peer's retransmission
 * then goes through the session); otherwise the peer hears ICMP Port
 * Unreachable about it when the time is up.
 *
 * Only for SYNs without BIB entry, at most max-stored-syns: a list under
 * one spinlock, in arrival order (so expiry order). Established flows
 * never touch it: the IPv6 side checks a count (READ_ONCE) first. A work
 * item of its own answers them when their time is up: it runs only while
 * SYNs are stored, for the oldest.
 */

#include <linux/list.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include "nat64/table.h"

struct tern_synstore {
	spinlock_t lock;
	struct list_head list;		/* oldest first */
	u32 n;				/* entries; READ_ONCE outside the lock */
	struct delayed_work expiry;	/* tern_syn_expire(), for the oldest */
	struct net *net;		/* where the SYNs came in */
};

/* For SYNs that come in namespace @net. */
void tern_syn_init(struct tern_synstore *ss, struct net *net);
/*
 * Keeps @skb, the SYN from @remote to @local: 0 (@skb is the store's now),
 * -ENOSPC with @max entries already (@skb is still the caller's). A SYN
 * of a pair already stored replaces the older one (a retransmission; the
 * time it waits does not start again).
 */
int tern_syn_store(struct tern_synstore *ss, u32 max,
		   const struct tern_ta4 *local, const struct tern_ta4 *remote,
		   struct sk_buff *skb);
/* Discards the SYN from @remote to @local, if stored (BHs off or on). */
void tern_syn_forget(struct tern_synstore *ss, const struct tern_ta4 *local,
		     const struct tern_ta4 *remote);
/*
 * Frees every SYN, unanswered (the instance goes: no SYN can be stored
 * any more). Waits for the work item.
 */
void tern_syn_free(struct tern_synstore *ss);

static inline u32 tern_syn_count(const struct tern_synstore *ss)
{
	return READ_ONCE(ss->n);
}

#endif /* _TERN_NAT64_SYNSTORE_H */

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
 * Only for SYNs without BIB entry, at most max-stored-syns of them and
 * TERN_SYN_BYTES_PER bytes per max-stored-syns; past the count a SYN is
 * refused before any copy or lock (a retransmission too: the copy of its
 * first SYN stays). What is kept is a copy of
 * what the ICMP error quotes (the packet's first TERN_SYN_QUOTE bytes),
 * never the packet: nothing of it is shared with another CPU, and an entry
 * holds no route, device, socket or conntrack reference.
 *
 * Entries are in a hash table (keyed siphash of both transport addresses,
 * a key of its own per store) and, in arrival order (so expiry order), in
 * a list; both under one spinlock, for a constant time each: a lookup, a
 * link or an unlink. The table grows (a work item) when there are more
 * entries than buckets. Established flows never touch it: the IPv6 side
 * checks a count (READ_ONCE) first. A work item of its own answers the
 * SYNs when their time is up: it runs only while SYNs are stored, for the
 * oldest.
 */

#include <linux/icmp.h>
#include <linux/ip.h>
#include <linux/list.h>
#include <linux/siphash.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include "nat64/table.h"

/*
 * The most an ICMPv4 error quotes of a packet: 576 bytes in all (RFC 1812
 * 4.3.2.3), less its own IPv4 and ICMP headers, as the kernel's
 * icmp_send() quotes (less still with IP options or a smaller MTU).
 */
#define TERN_SYN_QUOTE	(576 - sizeof(struct iphdr) - sizeof(struct icmphdr))
/* Bytes of entries (their kmalloc() objects) per max-stored-syns. */
#define TERN_SYN_BYTES_PER	256
/* The most the expiry takes (and answers) at a time; the rest a tick on. */
#define TERN_SYN_BATCH		256
/* Buckets: the first table (in the store), the largest (one per SYN). */
#define TERN_SYN_BUCKETS0	16
#define TERN_SYN_BUCKETS_MAX	65536

struct tern_syn {
	struct hlist_node hnode;	/* in its bucket */
	struct list_head fifo;		/* in ->fifo, by arrival */
	struct tern_ta4 local, remote;
	unsigned long expires;		/* jiffies */
	u32 hash;
	/* What the answer needs of the packet (it came in on @ifindex). */
	u32 mark;
	int ifindex;
	u16 len;
	u8 pkt_type;
	u8 data[];			/* its first @len bytes, from L3 */
};

struct tern_synstore {
	spinlock_t lock;
	struct hlist_head *buckets;	/* @nbuckets, a power of two */
	u32 nbuckets;
	u32 n;				/* entries; READ_ONCE outside the lock */
	size_t bytes;			/* tern_syn_size() of the entries */
	struct list_head fifo;		/* oldest first */
	siphash_key_t key;
	unsigned long lifetime;		/* TCP_INCOMING_SYN, in jiffies */
	struct delayed_work expiry;	/* tern_syn_expire(), for the oldest */
	struct work_struct grow;	/* a larger table */
	struct net *net;		/* where the SYNs came in */
	struct hlist_head first[TERN_SYN_BUCKETS0];
};

/* For SYNs that come in namespace @net. */
void tern_syn_init(struct tern_synstore *ss, struct net *net);
/*
 * Keeps what the answer to @skb, the SYN from @remote to @local, needs: 0
 * (@skb consumed), -ENOSPC with @max entries or their bytes already,
 * -ENOMEM (@skb is still the caller's then). A SYN of a pair already
 * stored replaces the older one (a retransmission; the time it waits does
 * not start again).
 */
int tern_syn_store(struct tern_synstore *ss, u32 max,
		   const struct tern_ta4 *local, const struct tern_ta4 *remote,
		   struct sk_buff *skb);
/* Discards the SYN from @remote to @local, if stored (BHs off or on). */
void tern_syn_forget(struct tern_synstore *ss, const struct tern_ta4 *local,
		     const struct tern_ta4 *remote);
/*
 * The expiry's first step (and the tests'): takes the entries expired at
 * @now (at most TERN_SYN_BATCH; all, expired or not, if @all), oldest
 * first, off the store into @out, the caller's to kfree(). Returns in how
 * many jiffies the oldest one left expires (1 if it has: the batch was
 * full), 0 if none is left (else the work item is queued for then).
 */
unsigned long tern_syn_take(struct tern_synstore *ss, unsigned long now,
			    bool all, struct list_head *out);
/*
 * Frees every SYN, unanswered (the instance goes: no SYN can be stored
 * any more). Waits for the work items.
 */
void tern_syn_free(struct tern_synstore *ss);

/* Bytes an entry of @len bytes of packet takes: its kmalloc() object. */
static inline size_t tern_syn_size(unsigned int len)
{
	return kmalloc_size_roundup(sizeof(struct tern_syn) + len);
}

static inline u32 tern_syn_count(const struct tern_synstore *ss)
{
	return READ_ONCE(ss->n);
}

#endif /* _TERN_NAT64_SYNSTORE_H */

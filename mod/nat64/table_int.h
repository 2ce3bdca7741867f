/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_TABLE_INT_H
#define _TERN_NAT64_TABLE_INT_H

/*
 * Inside the NAT64 tables (nat64/table*.c); nothing else includes this.
 *
 * Locking. t->locks[] stripes the four hash arrays: the chain of bucket b
 * of any array (BIB by 6, BIB by 4, session by 6, session by 4) is
 * protected by t->locks[b % TERN_TBL_NLOCKS]. A writer takes every lock of
 * the chains it changes, in ascending index, each once (struct
 * tern_lockset), BHs off; the i-th lock taken is lockdep subclass i.
 * Changing a session or a BIB entry (linking, unlinking, its refcount)
 * takes the locks of the four chains it is or goes in: session by 6,
 * session by 4, BIB by 6, BIB by 4. So under them a BIB entry with
 * ref > 0 is linked, and a BIB entry is unlinked in the same critical
 * section that drops its last reference.
 *
 * Subscribers (struct tern_sub) are only touched under their own lock,
 * t->sub_locks[b % TERN_TBL_SUB_NLOCKS], always taken last (inside the
 * bucket locks) or alone (a batch's uncharges); a resize moves them as it
 * moves peers (below). A BIB entry holds its subscriber's record alive
 * (bibs); it finds it again from its IPv6 address and the prefix length it
 * was charged with (b->sub_plen: the setting may change meanwhile).
 *
 * Peers (struct tern_peer, nat64/table_peer.c) likewise: changed only under
 * t->peer_locks[b % TERN_TBL_PEER_NLOCKS], taken last (inside the bucket
 * locks, never with a subscriber's lock) or alone (a batch's uncharges),
 * read under RCU. A resize moves them lock by lock: a writer holding a
 * peer lock finds its records in the arrays t->peer_moved says. A session made
 * while peers were tracked (TERN_SESS_PEER in its lk4) holds the record of
 * (its BIB entry's t4, its peer's address) alive.
 *
 * Resizing (nat64/table_resize.c). Every array has a power of two of at
 * least TERN_TBL_NLOCKS buckets, so an entry's lock index (its hash modulo
 * TERN_TBL_NLOCKS) does not depend on the array's size: a session's lk4
 * stays, and a BIB entry's two, not kept, are found again from its hashes.
 * The resizer holds t->resize_mutex (a flush and tern_bib_del() hold it
 * too: their cursors are of one size; the expiry worker and walks read
 * the arrays once under RCU), takes t->all_lock, sets t->all and waits for
 * every bucket lock to be free once; a writer that then takes its first
 * bucket lock sees t->all and waits for t->all_lock (as conntrack's
 * nf_conntrack_lock()). Locks are taken in ascending order, so a writer
 * holding a first lock taken before is done before the resizer passes it.
 * Lookups take no lock: they read t->arr (the arrays and masks, one
 * pointer) and, on a miss only, look again if t->seq moved or was odd.
 *
 * Freeing (nat64/table_free.c). An unlinked session or BIB entry goes on
 * t->gone_sess or t->gone_bib (lock-free, any context); t->reap takes
 * both lists, waits for a grace period, frees what it took.
 */

#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>
#include <linux/siphash.h>
#include <linux/workqueue.h>
#include <linux/spinlock.h>
#include <net/ipv6.h>
#include "nat64/table.h"
#include "nat64/table_fn.h"

#define TERN_TBL_NLOCKS		1024
#define TERN_TBL_SUB_NLOCKS	256
#define TERN_TBL_PEER_NLOCKS	256
/*
 * In a session's lk4, above the lock index: the session counts in its
 * peer's record (made while address-dependent filtering was on).
 */
#define TERN_SESS_PEER		0x8000
static_assert(TERN_TBL_NLOCKS <= TERN_SESS_ASSURED);
static_assert(((TERN_SESS_PEER | TERN_SESS_FROM4 | TERN_SESS_ASSURED) &
	       (TERN_TBL_NLOCKS - 1)) == 0);
static_assert((TERN_SESS_PEER & (TERN_SESS_FROM4 | TERN_SESS_ASSURED)) == 0 &&
	      (TERN_SESS_FROM4 & TERN_SESS_ASSURED) == 0);
#define TERN_TBL_MAX_LOCKS	4
/*
 * Most buckets of a session array: the index is the low 24 bits of a
 * hash at most, so its top byte, kept in the session (tag6), tells most
 * entries of a chain apart without reading their BIB entry.
 */
#define TERN_TBL_SESS_BUCKETS	(1U << 24)
static_assert(TERN_TBL_SESS_BUCKETS <= 1U << 24);

/* The IPv6 prefix of a subscriber, and what it has. */
struct tern_sub {
	struct hlist_node node;
	struct in6_addr prefix;
	u8 plen;
	__be32 addr4[TERN_L4_N];	/* of its last dynamic BIB entries */
	u32 sessions;
	u32 bibs;
};

/*
 * The IPv4 peer addresses a BIB entry's sessions know (address-dependent
 * filtering, tern_sess_known4()): one record a (l4, BIB entry's t4, peer
 * address), counting the tracked sessions; it goes with the last of them.
 */
struct tern_peer {
	struct hlist_node node;
	struct rcu_head rcu;
	__be32 laddr;			/* the BIB entry's t4 */
	__be32 raddr;			/* the peer */
	__be16 lport;
	u8 l4;
	u32 sessions;			/* WRITE_ONCE under its lock */
};

/*
 * What lookups read of the hash arrays: one pointer, one consistent set
 * (and, for writers only, the subscribers': they follow the size too).
 */
struct tern_tbl_arrays {
	u32 bib_mask, sess_mask, peer_mask, sub_mask;
	struct hlist_nulls_head *bib6, *bib4, *sess6, *sess4;
	struct hlist_head *peers;	/* RCU */
	struct hlist_head *subs;
};

struct tern_tables {
	siphash_key_t key;
	/*
	 * The writers' view (under a bucket lock or t->resize_mutex); lookups
	 * read t->arr, one of t->arrs, the same arrays.
	 */
	u32 bib_mask;			/* buckets - 1, BIB arrays */
	u32 sess_mask;			/* buckets - 1, session arrays */
	u32 sub_mask;
	u32 peer_mask;
	struct hlist_nulls_head *bib6, *bib4, *sess6, *sess4;
	struct hlist_head *subs;
	struct hlist_head *peers;	/* RCU */
	struct tern_tbl_arrays __rcu *arr;
	/*
	 * While a resize moves the peer (subscriber) records: the new arrays,
	 * and which lock's records moved there (under that peer (sub) lock).
	 */
	struct tern_tbl_arrays *peer_next;
	bool peer_moved[TERN_TBL_PEER_NLOCKS];
	bool sub_moved[TERN_TBL_SUB_NLOCKS];
	struct tern_tbl_arrays arrs[2];
	seqcount_spinlock_t seq;	/* odd while entries move */
	spinlock_t all_lock;
	bool all;			/* a resizer holds every bucket */
	struct mutex resize_mutex;
	atomic_t nbib;
	atomic_t nsess;
	/* Links and unlinks so far: a dump in parts that saw it move says so. */
	atomic_t changes;
	/* Of static entries, and resizes: the same for a walk of those only. */
	atomic_t static_changes;
	atomic_t npeer;
	atomic_t nstatic;		/* static BIB entries */
	/* BIB entries whose own session went (struct tern_bib_pair). */
	atomic_t pair_idle;
	atomic_t ngone;			/* on gone_sess, gone_bib (a pair: 1) */
	u32 gc_cursor;			/* next session-by-6 bucket to scan */
	u32 evict_next;			/* where early drop looks next */
	u64 gc_cost_ns;			/* CPU of the sweep under way */
	/*
	 * No session expires before min(gc_low, gc_note) (jiffies), when
	 * gc_low_set: gc_low from the last whole sweep, gc_note lowered by
	 * every expiry set since that could be earlier (tern_tbl_gc_note()).
	 * The worker's: gc_low, gc_low_set, and the sweep under way's
	 * earliest expiry seen (gc_sweep_low) and t->seq at its start
	 * (gc_sweep_seq: a resize moves sessions).
	 */
	u32 gc_note;			/* cmpxchg() */
	u32 gc_low;
	u32 gc_sweep_low;
	unsigned int gc_sweep_seq;
	bool gc_low_set;
	const struct tern_table_events *ev;	/* READ_ONCE; may be NULL */
	struct llist_head gone_sess;	/* unlinked, to free (gone) */
	struct llist_head gone_bib;
	struct work_struct reap;	/* tern_tbl_reap_work() */
	spinlock_t locks[TERN_TBL_NLOCKS];
	spinlock_t sub_locks[TERN_TBL_SUB_NLOCKS];
	spinlock_t peer_locks[TERN_TBL_PEER_NLOCKS];
};

/*
 * Uncharges of one subscriber not yet taken from its record (a flush
 * gathers them: nat64/table_flush.c). Its record stays meanwhile: it
 * counts them still.
 */
struct tern_sub_pending {
	struct in6_addr prefix;
	u8 plen;
	u32 sessions;
	u32 bibs;
};

/* Uncharges of one peer record not yet taken from it, as above. */
struct tern_peer_pending {
	__be32 laddr, raddr;
	__be16 lport;
	u8 l4;
	u32 sessions;
};

/*
 * What was unlinked and not yet counted or handed to the reaper: one
 * atomic, one list operation and one subscriber lock a batch, not one each
 * an entry (tern_tbl_batch_end()). A flush fills one per run; a single
 * unlink is a batch of one. The lists are chained by @gone.
 */
struct tern_tbl_batch {
	struct llist_node *sess, *sess_last;
	struct llist_node *bib, *bib_last;
	int nsess, nbib;
	int ngone;			/* entries on sess and bib */
	int idle;			/* change of t->pair_idle */
	struct tern_sub_pending sub;
	struct tern_peer_pending peer;
};

struct tern_lockset {
	u16 idx[TERN_TBL_MAX_LOCKS];
	unsigned int n;
};

/* A bound of the expiry worker for a time a whole sweep cannot reach. */
#define TERN_GC_FAR		(1U << 30)

/*
 * A session's expiry was set to @exp, which may be earlier than every
 * other: the expiry worker's bound follows (nat64/table_gc.c). Called
 * where an expiry is set other than by a refresh (which only pushes it
 * later): a new session, one made current again, a TCP state change, one
 * the worker keeps. Lock-free; a store only when @exp is the earliest.
 */
static inline void tern_tbl_gc_note(struct tern_tables *t, u32 exp)
{
	u32 old = READ_ONCE(t->gc_note);

	while ((s32)(exp - old) < 0) {
		u32 seen = cmpxchg(&t->gc_note, old, exp);

		if (seen == old)
			break;
		old = seen;
	}
}

/*
 * A BIB entry made for a session from IPv6 (most are: one flow, one entry)
 * is allocated with it, its session right after it: a packet of the flow
 * finds both in one stretch of memory, not two. The session is the
 * entry's first; when it goes, its room stays unused until the entry goes
 * (its reference keeps the entry until then: both are freed as the
 * entry's, after a grace period that began once both were unlinked).
 */
struct tern_bib_pair {
	struct tern_bib b;
	struct tern_session s;
};

/* Is @s the session allocated with its BIB entry? */
static inline bool tern_sess_paired(const struct tern_session *s)
{
	return s->bib->paired &&
	       s == &container_of(s->bib, struct tern_bib_pair, b)->s;
}

extern struct kmem_cache *tern_bib_cache;
extern struct kmem_cache *tern_sess_cache;
extern struct kmem_cache *tern_peer_cache;
extern struct kmem_cache *tern_pair_cache;

static inline u32 tern_tbl_hash_bib6(const struct tern_tables *t, u8 l4,
				     const struct tern_ta6 *t6)
{
	u64 a[2];

	memcpy(a, &t6->addr, sizeof(a));	/* t6 may be 2-byte aligned */
	return (u32)siphash_3u64(a[0], a[1],
				 (u64)l4 << 16 | (__force u16)t6->port, &t->key);
}

static inline u32 tern_tbl_hash_bib4(const struct tern_tables *t, u8 l4,
				     const struct tern_ta4 *t4)
{
	return (u32)siphash_2u32((__force u32)t4->addr,
				 (u32)l4 << 16 | (__force u16)t4->port,
				 &t->key);
}

static inline u32 tern_tbl_hash_sess6(const struct tern_tables *t, u8 l4,
				      const struct tern_ta6 *t6,
				      const struct tern_ta4 *r)
{
	u64 a[2];

	memcpy(a, &t6->addr, sizeof(a));	/* t6 may be 2-byte aligned */
	return (u32)siphash_4u64(a[0], a[1],
				 (u64)(__force u32)r->addr << 32 |
				 (u32)(__force u16)r->port << 16 |
				 (__force u16)t6->port, l4, &t->key);
}

/*
 * The whole key, the peer's port too (as conntrack): no chain is made of
 * one BIB entry's sessions with one peer, whose ports the peer chooses.
 */
static inline u32 tern_tbl_hash_sess4(const struct tern_tables *t, u8 l4,
				      const struct tern_ta4 *t4,
				      const struct tern_ta4 *r)
{
	return (u32)siphash_2u64((u64)(__force u32)t4->addr << 32 |
				 (__force u32)r->addr,
				 (u64)(__force u16)t4->port << 32 |
				 (u32)(__force u16)r->port << 16 | l4,
				 &t->key);
}

/*
 * The hash of the peer record of (@l4, @laddr:@lport, @raddr); its bucket
 * is the hash & peer_mask, its lock the hash % TERN_TBL_PEER_NLOCKS (the
 * same in every size of the array).
 */
static inline u32 tern_tbl_hash_peer(const struct tern_tables *t, u8 l4,
				     __be32 laddr, __be16 lport, __be32 raddr)
{
	return (u32)siphash_3u32((__force u32)laddr, (__force u32)raddr,
				 (u32)(__force u16)lport << 16 | l4,
				 &t->key);
}

/* The hash of subscriber @p/@plen: as the peer's, its lock in every size. */
static inline u32 tern_tbl_hash_sub(const struct tern_tables *t,
				    const struct in6_addr *p, u8 plen)
{
	const u64 *a = (const u64 *)p;

	return (u32)siphash_3u64(a[0], a[1], plen, &t->key);
}

/*
 * The arrays, under RCU (a lookup, a walk), a bucket lock or
 * t->resize_mutex: read once, the arrays and masks agree.
 */
static inline struct tern_tbl_arrays *
tern_tbl_arr(const struct tern_tables *t)
{
	return rcu_dereference_raw(t->arr);
}

/* Lock-free lookups: look again on a miss if a resize moved entries. */
static inline unsigned int tern_tbl_seq_begin(const struct tern_tables *t)
{
	return raw_read_seqcount(&t->seq);
}

static inline bool tern_tbl_seq_retry(const struct tern_tables *t,
				      unsigned int seq)
{
	if (likely(!(seq & 1)))
		return read_seqcount_retry(&t->seq, seq);
	cpu_relax();
	return true;
}

/*
 * The lock index of a session's n4 chain, whether its peer counts it,
 * whether it was opened from IPv4, whether it is assured (tern_sess_seen()
 * may set that bit any time: READ_ONCE).
 */
static inline u16 tern_sess_lk4(const struct tern_session *s)
{
	return READ_ONCE(s->lk4) & (TERN_TBL_NLOCKS - 1);
}

static inline bool tern_sess_tracked(const struct tern_session *s)
{
	return READ_ONCE(s->lk4) & TERN_SESS_PEER;
}

static inline bool tern_sess_from4(const struct tern_session *s)
{
	return READ_ONCE(s->lk4) & TERN_SESS_FROM4;
}

static inline bool tern_sess_assured(const struct tern_session *s)
{
	return READ_ONCE(s->lk4) & TERN_SESS_ASSURED;
}

/* A BIB entry's subscriber prefix length (struct tern_bib). */
static inline u8 tern_bib_sub_plen(const struct tern_bib *b)
{
	return b->sub_plen;
}

static inline void tern_bib_set_sub_plen(struct tern_bib *b, u8 plen)
{
	b->sub_plen = plen;
}

static inline bool tern_tbl_ta6_eq(const struct tern_ta6 *a,
				   const struct tern_ta6 *b)
{
	return a->port == b->port && ipv6_addr_equal(&a->addr, &b->addr);
}

static inline bool tern_tbl_ta4_eq(const struct tern_ta4 *a,
				   const struct tern_ta4 *b)
{
	return a->addr == b->addr && a->port == b->port;
}

/* Tells the events callback (nat64/table.h), if any: no lock held. */
static inline void tern_tbl_ev_bib(struct tern_tables *t,
				   const struct tern_bib *b, bool add)
{
	const struct tern_table_events *ev = READ_ONCE(t->ev);

	if (ev && ev->bib)
		ev->bib(ev->arg, b, add);
}

static inline void tern_tbl_ev_sess(struct tern_tables *t,
				    const struct tern_session *s, bool add)
{
	const struct tern_table_events *ev = READ_ONCE(t->ev);

	if (ev && ev->sess)
		ev->sess(ev->arg, s, add);
}

/* Under the bucket locks of @b (struct tern_table_events). */
static inline void tern_tbl_ev_bound(struct tern_tables *t,
				     const struct tern_bib *b, bool add)
{
	const struct tern_table_events *ev = READ_ONCE(t->ev);

	if (ev && ev->bib_bound)
		ev->bib_bound(ev->arg, b, add);
}

static inline void tern_tbl_ev_evicted(struct tern_tables *t, bool expired)
{
	const struct tern_table_events *ev = READ_ONCE(t->ev);

	if (ev && ev->evicted)
		ev->evicted(ev->arg, expired);
}

#endif /* _TERN_NAT64_TABLE_INT_H */

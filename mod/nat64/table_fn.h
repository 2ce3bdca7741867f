/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_TABLE_FN_H
#define _TERN_NAT64_TABLE_FN_H

/*
 * Inside the NAT64 tables: the functions their files (nat64/table*.c)
 * share, beside the structures and inline helpers of nat64/table_int.h,
 * which includes this; nothing else does.
 */

#include <linux/spinlock.h>
#include <linux/types.h>
#include "nat64/table.h"

struct tern_lockset;
struct tern_peer_pending;
struct tern_sub_pending;
struct tern_tbl_arrays;
struct tern_tbl_batch;
struct work_struct;

/*
 * The hashes of a session's two chains and of its BIB entry's two: the
 * bucket is the hash under the array's mask, taken under the locks (a
 * resize may change the mask before), the lock index its low bits.
 */
struct tern_tbl_where {
	u32 s6, s4, b6, b4;
	bool sess;			/* s6, s4 set */
	u8 tag6;			/* of the session by 6 */
};

static inline u8 tern_tbl_tag(u32 hash)
{
	return hash >> 24;
}

/* @remote NULL: a BIB entry's chains only (w->sess false). */
void tern_tbl_where(const struct tern_tables *t, u8 l4,
		    const struct tern_ta6 *t6, const struct tern_ta4 *t4,
		    const struct tern_ta4 *remote, struct tern_tbl_where *w);
/*
 * The locks of a linked session in chain @h6 of t->sess6: from the lock
 * index the session keeps and its BIB entry's hashes. Good for
 * tern_tbl_lock() only (@w's session indices are not buckets).
 */
void tern_tbl_where_sess(const struct tern_tables *t,
			 const struct tern_session *s, u32 h6,
			 struct tern_tbl_where *w);
void tern_tbl_where_bib(const struct tern_tables *t, const struct tern_bib *b,
			struct tern_tbl_where *w);
/* Takes the locks of @w's chains (a BIB entry's only if !w->sess). */
void tern_tbl_lock(struct tern_tables *t, struct tern_lockset *ls,
		   const struct tern_tbl_where *w);
void tern_tbl_unlock(struct tern_tables *t, const struct tern_lockset *ls);
/* The same, BHs already off. */
void __tern_tbl_lock(struct tern_tables *t, struct tern_lockset *ls,
		     const struct tern_tbl_where *w);
void __tern_tbl_unlock(struct tern_tables *t, const struct tern_lockset *ls);
/*
 * Under the locks of @s's four chains: unlinks @s if still linked (returns
 * false if someone did first), its BIB entry too if that was its last
 * session (*@bib_gone true then), into @bt: tern_tbl_batch_end() counts
 * them and hands them to the reaper, which frees them after a grace period.
 */
bool tern_tbl_sess_unlink(struct tern_tables *t, struct tern_session *s,
			  bool *bib_gone, struct tern_tbl_batch *bt);
/* Counts and hands over what @bt holds, and empties it; BHs off. */
void tern_tbl_batch_end(struct tern_tables *t, struct tern_tbl_batch *bt);
/*
 * Takes the locks and calls tern_tbl_sess_unlink() (if expired, maybe);
 * tells the events callback after unlocking.
 */
bool tern_tbl_sess_remove(struct tern_tables *t, struct tern_session *s,
			  u32 h6, bool if_expired);
/*
 * Under the locks: the session of a key whose hash by 6 is @h (@tag:
 * tern_tbl_tag() of it), expired or not.
 */
struct tern_session *tern_tbl_sess6(struct tern_tables *t, u32 h, u8 tag,
				    u8 l4, const struct tern_ta6 *t6,
				    const struct tern_ta4 *r);
/*
 * As tern_sess_find6() (@t6 set) or tern_sess_find4(), and *@gone: one of
 * the key is there expired (an add would make it current again).
 */
struct tern_session *tern_tbl_sess_lookup(struct tern_tables *t, u8 l4,
					  const struct tern_ta6 *t6,
					  const struct tern_ta4 *t4,
					  const struct tern_ta4 *remote,
					  bool *gone);
/*
 * A place for a new session (counted in t->nsess: tern_tbl_done() gives
 * it back), under rcu_read_lock(), no lock held. Below max-sessions:
 * tern_tbl_reserve() returns 0 (taken), -ENOSPC (entries to free at
 * their bound) or 1: the table is full, and only tern_tbl_make_room()
 * may take a place, once the new session is known to be possible (its
 * port picked): the place of a session that has expired or is not
 * assured, removed from a bounded sample of the chains of t->sess6
 * (early drop, nat64/table_evict.c), unless the new session's own limits
 * would refuse it (it takes no one's place then): opened from IPv4 on
 * the entry @b (@src NULL), or from IPv6 by @src, on @b or a new entry
 * (@b NULL). Returns 0 or the refusal: -ENOSPC (another CPU may take the
 * place first), -EMLINK, -EDQUOT, -EUSERS (as tern_sess_add6() and
 * tern_sess_add4()). An expired session made current again needs no
 * place (nat64/table_add.c).
 */
int tern_tbl_reserve(struct tern_tables *t, const struct tern_limits *lim);
int tern_tbl_make_room(struct tern_tables *t, const struct tern_limits *lim,
		       const struct tern_bib *b, const struct tern_ta6 *src);
/* Entries to free allowed past max-sessions and a quarter (reserve). */
#define TERN_TBL_GONE_SLACK	1024
/* Takes bucket lock @l first of a writer's (BHs off): see Resizing. */
void tern_tbl_lock_first(struct tern_tables *t, spinlock_t *l);
/* The masks of @a's arrays (session, BIB, peer) for @max_sessions. */
void tern_tbl_sizes(u32 max_sessions, struct tern_tbl_arrays *a);
/* Fills @a (its masks set) with new empty arrays: 0 or -ENOMEM. */
int tern_tbl_arrays_alloc(struct tern_tbl_arrays *a);
/* The writers' copies of @a's arrays and masks in @t (not t->arr). */
void tern_tbl_arrays_set(struct tern_tables *t,
			 const struct tern_tbl_arrays *a);
void tern_tbl_arrays_free(struct tern_tbl_arrays *a);

/* Unlinks @b (no session left), under its locks; the caller set ref. */
void tern_tbl_bib_unlink(struct tern_tables *t, struct tern_bib *b);

/* Freeing: the worker of t->reap; the last of it when the tables go. */
void tern_tbl_reap_work(struct work_struct *work);
void tern_tbl_reap_all(struct tern_tables *t);

/* Subscribers (nat64/table_sub.c), under the bucket locks of the entry. */

/*
 * Charges the new BIB entry @b (t6, sub_plen set) and @sessions sessions
 * to its subscriber, made if needed; @lim NULL: no limit (static
 * entries). 0, -EUSERS, -EDQUOT or -ENOMEM.
 */
int tern_sub_charge_new(struct tern_tables *t, const struct tern_bib *b,
			const struct tern_limits *lim, u32 sessions);
/*
 * Whether the subscriber of @addr (@plen) is at its limits for one more
 * session, on a new BIB entry if @new_bib: -EUSERS, -EDQUOT or 0. Takes
 * its lock alone and changes nothing (a hint: the charge decides).
 */
int tern_sub_refuses(struct tern_tables *t, const struct in6_addr *addr,
		     u8 plen, const struct tern_limits *lim, bool new_bib);
/* One more session on @b (linked, ref held): 0 or -EDQUOT. */
int tern_sub_charge(struct tern_tables *t, const struct tern_bib *b,
		    const struct tern_limits *lim);
/*
 * Gathers in @pd an uncharge of @sessions and @bibs from @b's subscriber
 * (settling what @pd held first if that was another subscriber's).
 */
void tern_sub_defer(struct tern_tables *t, struct tern_sub_pending *pd,
		    const struct tern_bib *b, u32 sessions, u32 bibs);
/* Takes what @pd gathered; BHs off, no bucket lock needed. */
void tern_sub_settle(struct tern_tables *t, struct tern_sub_pending *pd);
/* Peers (nat64/table_peer.c), under the bucket locks of the session. */

/*
 * One more tracked session of (@l4, @t4, @raddr), its record made if
 * needed: 0 or -ENOMEM.
 */
int tern_peer_charge(struct tern_tables *t, u8 l4, const struct tern_ta4 *t4,
		     __be32 raddr);
/* Gathers in @pd the uncharge of @s (tracked; settling @pd first if need). */
void tern_peer_defer(struct tern_tables *t, struct tern_peer_pending *pd,
		     const struct tern_session *s);
/* Takes what @pd gathered; BHs off, no bucket lock needed. */
void tern_peer_settle(struct tern_tables *t, struct tern_peer_pending *pd);
/* Undoes one tern_peer_charge(); BHs off. */
void tern_peer_uncharge(struct tern_tables *t, u8 l4,
			const struct tern_ta4 *t4, __be32 raddr);
/* The tables are going: frees the records left (none, unless a bug). */
void tern_peers_free(struct tern_tables *t);

/*
 * The collector's pause after a sweep that cost @cost_ns of CPU, in
 * jiffies (nat64/table_gc.c).
 */
unsigned long tern_tables_gc_pause(u64 cost_ns);
/*
 * tern_tables_flush() in @parts parts, all but the first by workers of
 * system_unbound_wq (tern_tables_flush() picks a part per CPU on a big
 * table); may sleep.
 */
void tern_tables_flush_in(struct tern_tables *t, u8 l4, unsigned int parts);

#endif /* _TERN_NAT64_TABLE_FN_H */

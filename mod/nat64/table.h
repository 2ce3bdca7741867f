/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_NAT64_TABLE_H
#define _TERN_NAT64_TABLE_H

/*
 * The NAT64 state of one instance (RFC 6146 3.1): BIB entries (an IPv6
 * transport address bound to an IPv4 one) and sessions (a BIB entry and
 * the IPv4 peer), for TCP, UDP and ICMP queries, each found from either
 * side. Modelled on nf_conntrack_core.c:
 * - siphash-keyed hash tables with a random key per instance;
 * - lookups under RCU only: no lock, no atomic, no allocation;
 * - writers under striped bucket locks (never a lock over a table);
 * - no timer per entry: a session stores when it expires, a refresh is
 *   one WRITE_ONCE, a worker removes expired entries in bounded slices
 *   and a lookup treats an expired session as the worker will: gone, or
 *   for a TCP session the tcp_expire callback keeps, alive
 *   (tern_sess_tcp_expire());
 * - bounded: at max-sessions a new session takes the place of one that
 *   has expired or never saw traffic both ways (early drop), else it is
 *   refused; the per-subscriber and per-entry limits refuse new state.
 */

#include <linux/build_bug.h>
#include <linux/in6.h>
#include <linux/jiffies.h>
#include <linux/list_nulls.h>
#include <linux/llist.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/stddef.h>
#include <linux/types.h>

/*
 * Transport addresses; ports in network order (ICMP: the identifier).
 * Packed, 18 and 6 bytes: a BIB entry holds one of each in 24 (its 64
 * bytes fill a slab page with no waste). Within an entry or a session
 * both stand 8-byte aligned; elsewhere their address may be only 2-byte
 * aligned (the hashes read them with get_unaligned()).
 */
struct tern_ta6 {
	struct in6_addr addr;
	__be16 port;
} __packed __aligned(2);

struct tern_ta4 {
	__be32 addr;
	__be16 port;
} __packed __aligned(2);

/* Table index of a protocol. */
enum tern_l4 {
	TERN_L4_TCP,
	TERN_L4_UDP,
	TERN_L4_ICMP,
	TERN_L4_N
};

/*
 * Once both nodes of an entry are unlinked, RCU readers still follow their
 * next but nothing reads n4.pprev again (n6.pprev, NULL, says "unlinked"):
 * @gone, on n4.pprev, chains the entry on its table's list of entries to
 * free after a grace period (nat64/table_free.c). No rcu_head: 120 bytes
 * for a UDP session with a BIB entry of its own.
 */
struct tern_bib {
	struct hlist_nulls_node n6;	/* by (l4, t6) */
	union {
		struct hlist_nulls_node n4;	/* by (l4, t4) */
		struct {			/* unlinked */
			struct hlist_nulls_node *n4_next;
			struct llist_node gone;
		};
	};
	struct tern_ta6 t6;
	struct tern_ta4 t4;
	u16 sess4;			/* its sessions opened from IPv4 */
	/*
	 * One byte: l4 is set before the entry is linked and never changes;
	 * is_static changes under its chains' locks (a store of the byte
	 * whose l4 bits stay as they are: lock-free readers of l4 see them
	 * either way).
	 */
	u8 l4 : 2;			/* enum tern_l4 */
	u8 is_static : 1;
	u8 paired : 1;			/* a tern_bib_pair's (table_int.h) */
	/*
	 * The prefix length its subscriber was charged with (the setting
	 * may change meanwhile): set before it is linked, never changed.
	 * Its chains' lock indices are not kept: they are its hashes
	 * modulo TERN_TBL_NLOCKS (tern_tbl_where_bib()).
	 */
	u8 sub_plen;
	refcount_t ref;			/* its sessions, +1 if static */
};

struct tern_session {
	struct hlist_nulls_node n6;	/* by (l4, bib->t6, remote) */
	union {
		struct hlist_nulls_node n4;	/* by (l4, bib->t4, remote) */
		struct {			/* unlinked, as tern_bib */
			struct hlist_nulls_node *n4_next;
			struct llist_node gone;
		};
	};
	struct tern_bib *bib;
	struct tern_ta4 remote;		/* the IPv4 peer (ICMP: port 0) */
	u8 state;			/* enum tern_tcp_state; 0 otherwise */
	u8 tag6;			/* top byte of its hash by 6 */
	/* Its n4 chain's lock, TERN_SESS_*; READ_ONCE once linked. */
	u16 lk4;
	u32 expires;			/* jiffies; READ_ONCE/WRITE_ONCE */
};

/*
 * In a session's lk4, above its lock index (nat64/table_int.h): it was
 * opened by a packet from the IPv4 side (set before it is linked), and a
 * packet came the other way since (set once, by tern_sess_seen()).
 */
#define TERN_SESS_FROM4		0x4000
#define TERN_SESS_ASSURED	0x2000

/* The overlay above, and the sizes: 120 bytes of slab a UDP session. */
static_assert(offsetof(struct tern_bib, gone) ==
	      offsetof(struct tern_bib, n4.pprev));
static_assert(offsetof(struct tern_session, gone) ==
	      offsetof(struct tern_session, n4.pprev));
static_assert(offsetof(struct tern_bib, n4_next) ==
	      offsetof(struct tern_bib, n4.next));
static_assert(offsetof(struct tern_session, n4_next) ==
	      offsetof(struct tern_session, n4.next));
static_assert(sizeof(struct tern_bib) <= 64);
static_assert(TERN_L4_N <= 4);
static_assert(sizeof(struct tern_session) <= 56);

struct tern_tables;
struct tern_sub;

/* Module init and exit: the slab caches of the entries. */
int tern_tables_init(void);
void tern_tables_exit(void);

/* Limits in force (from the instance's settings); 0: no limit. */
struct tern_limits {
	u32 max_sessions;
	u32 max_sess_per_sub;
	u32 max_ports_per_sub;		/* BIB entries of one subscriber */
	u8 sub_prefix_len;		/* IPv6 prefix length of a subscriber */
	/* Sessions opened from IPv4 on one BIB entry; 0: 65535. */
	u32 max_bib_sess4;
	/*
	 * Address-dependent filtering is on: new sessions count in their
	 * peer's record (tern_sess_known4()).
	 */
	bool track_peers;
};

struct tern_tables *tern_tables_alloc(u32 max_sessions);
/*
 * The session and BIB arrays follow a new @max_sessions (0: the default):
 * grown as soon as the size tern_tables_alloc() would pick is larger,
 * shrunk only when it is a quarter or less (nat64/table_resize.c). Process
 * context; lookups go on meanwhile, writers wait. 1: resized, 0: not
 * needed, -ENOMEM.
 */
int tern_tables_resize(struct tern_tables *t, u32 max_sessions);
/*
 * Removes and frees everything; the caller waited for packets in flight.
 * No event (struct tern_table_events) for what it removes.
 */
void tern_tables_free(struct tern_tables *t);

/*
 * Who is told of BIB entries and sessions made and removed (events of the
 * instance, nat64/events.c): a callback, so that the tables call nothing
 * above them. Called after the bucket locks are released, under
 * rcu_read_lock() (the entry is valid until rcu_read_unlock()), from the
 * packet path (BHs off), the expiry worker and netlink commands: must not
 * sleep. A BIB entry made with a session is told before it, a session
 * removed before the BIB entry that went with it. Made: tern_sess_add6(),
 * tern_sess_add4(), tern_bib_add_static(); removed: expiry, flush,
 * tern_bib_del().
 */
struct tern_table_events {
	void (*bib)(void *arg, const struct tern_bib *b, bool add);
	void (*sess)(void *arg, const struct tern_session *s, bool add);
	/*
	 * Optional: what the expiry worker does with a TCP session whose
	 * lifetime ran out (RFC 6146 3.5.2.2; nat64/probe.c). tcp_expire()
	 * gets its state, without lock: false, it is removed; true, it lives
	 * on in *@state for *@timeout jiffies more (both stored under the
	 * session's bucket locks if it is still linked and expired, else
	 * nothing changes) and tcp_kept() is told after the locks are
	 * released, under rcu_read_lock() (it may send the probe). Process
	 * context; neither may sleep.
	 */
	bool (*tcp_expire)(void *arg, u8 *state, unsigned long *timeout);
	void (*tcp_kept)(void *arg, const struct tern_session *s);
	/*
	 * Optional: a session was removed to make room at max-sessions,
	 * because it had @expired, else because it had not seen traffic
	 * both ways (after the sess() callback of its removal).
	 */
	void (*evicted)(void *arg, bool expired);
	/*
	 * Optional: a dynamic BIB entry made by tern_sess_add6() was linked
	 * (@add), or a BIB entry unlinked, told under its bucket locks (BHs
	 * off; it may only take a lock of its own, and must not sleep):
	 * port blocks (nat64/blocks.c) count their entries exactly.
	 */
	void (*bib_bound)(void *arg, const struct tern_bib *b, bool add);
	void *arg;
};

/* Sets (or with NULL clears) the callbacks; @ev outlives the tables. */
void tern_tables_set_events(struct tern_tables *t,
			    const struct tern_table_events *ev);

/*
 * Expiry, one rule for lookups, the packet path and the worker: a session
 * whose lifetime ran out is gone, unless it is a TCP session and the
 * tcp_expire callback keeps it (RFC 6146 3.5.2.2: ESTABLISHED lives on in
 * TRANS). tern_sess_tcp_expire() applies the callback to @state: true if
 * a session in it is kept, in *@state for *@timeout jiffies more; false
 * (also without callback) if it is removed. Under rcu_read_lock().
 */
static inline bool tern_sess_expired(const struct tern_session *s, u32 now)
{
	return (s32)(now - READ_ONCE(s->expires)) > 0;
}

bool tern_sess_tcp_expire(struct tern_tables *t, u8 *state,
			  unsigned long *timeout);

/*
 * The rule above: has @s expired and is it to be removed
 * (not a TCP session the tcp_expire callback keeps)?
 */
static inline bool tern_tbl_sess_gone(struct tern_tables *t,
				      const struct tern_session *s, u32 now)
{
	unsigned long timeout;
	u8 state;

	if (!tern_sess_expired(s, now))
		return false;
	if (s->bib->l4 != TERN_L4_TCP)
		return true;
	state = READ_ONCE(s->state);
	return !tern_sess_tcp_expire(t, &state, &timeout);
}

/*
 * Lookups, under rcu_read_lock(). An expired session is not found, but
 * for one the rule above keeps: that one is found as it is (the caller
 * steps it from the state the rule gives: tern_sess_set_state()). The
 * result is valid until rcu_read_unlock().
 */
struct tern_session *tern_sess_find6(struct tern_tables *t, u8 l4,
				     const struct tern_ta6 *src,
				     const struct tern_ta4 *remote);
struct tern_session *tern_sess_find4(struct tern_tables *t, u8 l4,
				     const struct tern_ta4 *local,
				     const struct tern_ta4 *remote);
/*
 * Address-dependent filtering (RFC 4787): has the BIB entry of @local a
 * session with IPv4 peer @raddr (any port), made while peers were tracked
 * (struct tern_limits) and not yet removed (an expired one counts until
 * the sweep removes it)? Under rcu_read_lock(); takes no lock.
 */
bool tern_sess_known4(struct tern_tables *t, u8 l4,
		      const struct tern_ta4 *local, __be32 raddr);
struct tern_bib *tern_bib_find6(struct tern_tables *t, u8 l4,
				const struct tern_ta6 *t6);
struct tern_bib *tern_bib_find4(struct tern_tables *t, u8 l4,
				const struct tern_ta4 *t4);

/* Marks @s used @timeout jiffies from now: true if it stored (one store). */
static inline bool tern_sess_refresh(struct tern_session *s,
				     unsigned long timeout)
{
	u32 exp = (u32)(jiffies + timeout);

	/* Not a store per packet: the cache line stays clean within 1/8 s. */
	if ((s32)(exp - READ_ONCE(s->expires)) <= (s32)(HZ / 8))
		return false;
	WRITE_ONCE(s->expires, exp);
	return true;
}

/*
 * A packet of @s came from the IPv6 side if @from6, else from IPv4: the
 * first in the direction opposite to the one that opened it marks it
 * assured, never evicted while it lives. One load a packet after that.
 */
static inline void tern_sess_seen(struct tern_session *s, bool from6)
{
	u16 v = READ_ONCE(s->lk4);

	if (unlikely(!(v & TERN_SESS_ASSURED)) &&
	    !!(v & TERN_SESS_FROM4) == from6)
		WRITE_ONCE(s->lk4, v | TERN_SESS_ASSURED);
}

/*
 * Chooses the IPv4 transport address of a new BIB entry for @t6: fills
 * in @t4 with a candidate. Called again (@attempt counting up from 0)
 * while the candidate is taken; returns false when it gives up.
 */
typedef bool (*tern_pick4_fn)(void *arg, const struct tern_ta6 *t6,
			      unsigned int attempt, struct tern_ta4 *t4);

/*
 * A new session from the IPv6 side (RFC 6146 3.5.1.1, 3.5.2.1): for the
 * packet from @src to @remote, with the BIB entry of @src, made with
 * @pick if there is none. Called under rcu_read_lock() with BHs off;
 * allocates with GFP_ATOMIC. Returns the session (valid until
 * rcu_read_unlock(); *@made: this call put it in), one there was (another
 * CPU's), or an ERR_PTR: -ENOSPC (max-sessions, no session to evict:
 * nat64/table_evict.c), -EDQUOT (sessions per subscriber), -EUSERS
 * (ports per subscriber), -EADDRINUSE (@pick gave up), -ENOMEM, -EAGAIN
 * (lost several races in a row with CPUs changing the same entries;
 * rare). An expired session not yet removed is made live again.
 * The limits of a subscriber (@lim->sub_prefix_len) are counted from the
 * subscriber of the BIB entry (static entries: their own /128).
 */
struct tern_session *tern_sess_add6(struct tern_tables *t, u8 l4,
				    const struct tern_ta6 *src,
				    const struct tern_ta4 *remote,
				    const struct tern_limits *lim,
				    tern_pick4_fn pick, void *arg, u8 state,
				    unsigned long timeout, bool *made);
/*
 * A new session from the IPv4 side, on the existing BIB entry @bib (found
 * with tern_bib_find4()): RFC 6146 3.5.2.2 (V4 INIT), static BIB entries.
 * Same rules and errors as tern_sess_add6() but -EADDRINUSE and -EAGAIN;
 * -ENOENT if @bib went meanwhile (its last session was removed), -EMLINK
 * if it has @lim->max_bib_sess4 sessions opened from IPv4.
 */
struct tern_session *tern_sess_add4(struct tern_tables *t,
				    struct tern_bib *bib,
				    const struct tern_ta4 *remote,
				    const struct tern_limits *lim, u8 state,
				    unsigned long timeout, bool *made);

/*
 * Removes @s (found or made under the rcu_read_lock() held), and its BIB
 * entry if that was its last session: the state made for a packet that is
 * dropped after all. Nothing if someone removed it first.
 */
void tern_sess_forget(struct tern_tables *t, struct tern_session *s);

/*
 * Changes the TCP state of @s from @old to @state, and its expiry unless
 * @timeout is 0, as one step: under its bucket lock, and only if its
 * state is still @old and its lifetime still ran out (@expired) or not,
 * as when the caller read them. Returns false, changing nothing,
 * otherwise: the caller reads the state again and computes its step anew
 * (a compare-and-exchange). Under rcu_read_lock().
 */
bool tern_sess_set_state(struct tern_tables *t, struct tern_session *s,
			 u8 old, bool expired, u8 state, unsigned long timeout);

/*
 * Static BIB entries (process context, RTNL not needed): -EEXIST if either
 * transport address is in use by another entry of the protocol, -ENOSPC
 * if the tables have @max static entries already. The entry and its
 * subscriber's record, if new, are charged to the caller's memory cgroup.
 */
int tern_bib_add_static_max(struct tern_tables *t, u8 l4,
			    const struct tern_ta6 *t6,
			    const struct tern_ta4 *t4, u32 max);

/* The same without bound (tests). */
int tern_bib_add_static(struct tern_tables *t, u8 l4,
			const struct tern_ta6 *t6, const struct tern_ta4 *t4);
/*
 * Removes the entry (static or dynamic) of @t6 or @t4 (either may be
 * NULL; both: they must match) and its sessions; -ENOENT. Scans the
 * whole session table.
 */
int tern_bib_del(struct tern_tables *t, u8 l4, const struct tern_ta6 *t6,
		 const struct tern_ta4 *t4);

/*
 * Removes every session and dynamic BIB entry of @l4 (TERN_L4_N: all),
 * with a worker per CPU on a big table; may sleep.
 */
void tern_tables_flush(struct tern_tables *t, u8 l4);
/*
 * Removes the sessions whose BIB entry @match (called under
 * rcu_read_lock(), must not sleep) says yes to, and the dynamic BIB
 * entries left without session; may sleep.
 */
void tern_tables_flush_if(struct tern_tables *t,
			  bool (*match)(const struct tern_bib *b, void *arg),
			  void *arg);

/*
 * Dumps, under rcu_read_lock(), resumable: @pos (zeroed by the caller
 * before the first call) says where the walk stopped. @fn returns
 * non-zero to stop (the entry it was given is visited again next time).
 * Returns @fn's non-zero value, or 0 at the end of the table.
 */
struct tern_walk_pos {
	u32 bucket;
	u32 skip;
	bool only_static;	/* BIB: @skip counts static entries only */
};

/*
 * Links and unlinks so far (wrapping); those of static entries, and
 * resizes: a dump whose value moved between two parts may miss or repeat.
 */
u32 tern_tables_changes(const struct tern_tables *t);
u32 tern_tables_static_changes(const struct tern_tables *t);

int tern_bib_walk(struct tern_tables *t, u8 l4, struct tern_walk_pos *pos,
		  int (*fn)(const struct tern_bib *b, void *arg), void *arg);
int tern_sess_walk(struct tern_tables *t, u8 l4, struct tern_walk_pos *pos,
		   int (*fn)(const struct tern_session *s, void *arg),
		   void *arg);

/*
 * Subscribers (nat64/table_sub.c): is @addr in the subscriber of @b, the
 * prefix its per-subscriber limits count? The IPv4 address the last
 * dynamic @l4 entry of @addr's subscriber (@plen bits) got, 0 if none:
 * for the port selection (nat64/ports.c), under its lock, BHs off.
 */
bool tern_bib_in_sub(const struct tern_bib *b, const struct in6_addr *addr);
__be32 tern_sub_addr4(struct tern_tables *t, u8 l4, const struct in6_addr *addr,
		      u8 plen);

/* Counts (exact), slab bytes in use, bytes of the hash arrays. */
struct tern_tables_count {
	u64 bib, sessions, bytes, bucket_bytes;
};

void tern_tables_count(struct tern_tables *t, struct tern_tables_count *c);

/*
 * Expiry (nat64/table_gc.c): removes the expired sessions of a run of the
 * sweep (a bucket at least, 2 ms at most) and BIB entries left without
 * session; no sweep starts before the earliest expiry known. Returns
 * true if the sweep has more to do, and in @next (if not NULL) the
 * jiffies to the next run: 1 within a sweep, a pause after it. Called by
 * the instance's worker (nat64/nat64.c).
 */
bool tern_tables_gc(struct tern_tables *t, unsigned long *next);

#endif /* _TERN_NAT64_TABLE_H */

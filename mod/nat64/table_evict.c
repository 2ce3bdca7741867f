// SPDX-License-Identifier: GPL-2.0
/*
 * NAT64 tables: a place for a new session (tern_tbl_reserve(): under
 * max-sessions, entries waiting to be freed counted too), and early drop
 * (tern_tbl_make_room()).
 * At max-sessions a new session takes the place of one that has expired
 * (the sweep had not reached it yet; not a TCP session the sweep keeps,
 * RFC 6146 3.5.2.2) or that never saw a packet in the direction opposite
 * to the one that opened it (not assured: tern_sess_seen()), as
 * conntrack's early_drop() does. An assured session is never evicted for
 * a new one, which is never assured.
 *
 * The candidate is the first such session in a bounded sample of the
 * chains of t->sess6: at most TERN_EVICT_SESSIONS sessions, in about as
 * many chains as hold that many sessions at max-sessions, never more than
 * TERN_EVICT_CHAINS (4096 heads are 32 KB read in order). At max-sessions
 * a table holds about a session a chain, or more, unless max-sessions was
 * lowered far below what the table was sized for; then the sample is
 * thinner, and each attempt starts where the last one stopped
 * (t->evict_next), so that attempts in a row visit every chain. The
 * sender chooses neither where a sample starts nor what it holds.
 *
 * A new session its own limits would refuse (sessions opened from IPv4
 * on its BIB entry, its subscriber's sessions and ports) evicts nothing:
 * a flow over its limits does not take others' places.
 *
 * A session being assured by a packet on another CPU while it is evicted
 * is evicted anyway (conntrack has the same window): its next packet
 * makes a new session, from the IPv6 side, or finds none from IPv4.
 */

#include <linux/rculist.h>
#include <linux/rculist_nulls.h>
#include "nat64/table_int.h"

#define TERN_EVICT_SESSIONS	16
#define TERN_EVICT_CHAINS	4096

/* How many chains to read: about TERN_EVICT_SESSIONS sessions' worth. */
static u32 tern_evict_chains(u32 sess_mask, u32 max_sessions)
{
	u64 n = (u64)(sess_mask + 1) * TERN_EVICT_SESSIONS /
		max(max_sessions, 1U);

	n = clamp_t(u64, n, 8, TERN_EVICT_CHAINS);
	return min_t(u64, n, (u64)sess_mask + 1);
}

static bool tern_tbl_evict(struct tern_tables *t, u32 max_sessions)
{
	/* One set of arrays, read once (a resize may publish another). */
	const struct tern_tbl_arrays *a = tern_tbl_arr(t);
	u32 chains = tern_evict_chains(a->sess_mask, max_sessions);
	u32 h6 = READ_ONCE(t->evict_next) & a->sess_mask;
	u32 now = (u32)jiffies, seen = 0, i;
	struct hlist_nulls_node *n;
	struct tern_session *s;
	bool expired;

	for (i = 0; i < chains && seen < TERN_EVICT_SESSIONS; i++) {
		/* A sample: no restart if a move ends the walk elsewhere. */
		hlist_nulls_for_each_entry_rcu(s, n, &a->sess6[h6], n6) {
			if (++seen > TERN_EVICT_SESSIONS)
				break;
			/*
			 * Expired by the rule of lookups: a TCP session the
			 * sweep will keep (TRANS and a probe) is not.
			 */
			expired = tern_tbl_sess_gone(t, s, now);
			if (!expired && tern_sess_assured(s))
				continue;
			/* Expired: still so under the locks, or kept. */
			if (tern_tbl_sess_remove(t, s, h6, expired)) {
				/* Its chain may hold more: from there next. */
				WRITE_ONCE(t->evict_next, h6);
				tern_tbl_ev_evicted(t, expired);
				return true;
			}
		}
		h6 = (h6 + 1) & a->sess_mask;
	}
	WRITE_ONCE(t->evict_next, h6);
	return false;
}

static bool tern_tbl_take(struct tern_tables *t, u32 max)
{
	if (atomic_inc_return(&t->nsess) > max && max) {
		atomic_dec(&t->nsess);
		return false;
	}
	return true;
}

/*
 * Unlinked entries wait for a grace period before they are freed
 * (nat64/table_free.c). With a limit, they and the sessions linked stay
 * below max-sessions and a quarter, plus TERN_TBL_GONE_SLACK: past that a
 * new session is refused (not evicted for) until the worker has freed
 * some, so memory stays bounded however long grace periods are (a reader
 * held up, the worker starved) while sessions churn.
 */
static bool tern_tbl_gone_full(const struct tern_tables *t, u32 limit)
{
	return limit && (u64)max(atomic_read(&t->nsess), 0) +
			max(atomic_read(&t->ngone), 0) >=
			(u64)limit + limit / 4 + TERN_TBL_GONE_SLACK;
}

/*
 * At max-sessions, before a session is evicted for a new one: would the
 * new one's own limits refuse it? Then it takes no one's place. Read
 * without the table's locks (the subscriber's taken alone), so a hint:
 * the limits are checked again where the session goes in
 * (nat64/table_add.c), another CPU may reach them after the eviction.
 */
static int tern_tbl_refuses(struct tern_tables *t,
			    const struct tern_limits *lim,
			    const struct tern_bib *b,
			    const struct tern_ta6 *src)
{
	if (!src && READ_ONCE(b->sess4) >= (lim->max_bib_sess4 ?: U16_MAX))
		return -EMLINK;
	if (b)
		return tern_sub_refuses(t, &b->t6.addr, tern_bib_sub_plen(b),
					lim, false);
	return tern_sub_refuses(t, &src->addr,
				min_t(u8, lim->sub_prefix_len, 128), lim, true);
}

int tern_tbl_reserve(struct tern_tables *t, const struct tern_limits *lim)
{
	if (tern_tbl_gone_full(t, lim->max_sessions))
		return -ENOSPC;
	return tern_tbl_take(t, lim->max_sessions) ? 0 : 1;
}

int tern_tbl_make_room(struct tern_tables *t, const struct tern_limits *lim,
		       const struct tern_bib *b, const struct tern_ta6 *src)
{
	int ret;

	if (tern_tbl_take(t, lim->max_sessions))
		return 0;
	ret = tern_tbl_refuses(t, lim, b, src);
	if (ret)
		return ret;
	return tern_tbl_evict(t, lim->max_sessions) &&
	       tern_tbl_take(t, lim->max_sessions) ? 0 : -ENOSPC;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * NAT64 tables: new sessions and BIB entries, static ones too
 * (nat64/table_int.h has the locking; nat64/table_evict.c the place of a
 * new session, nat64/table_sub.c the subscriber accounting,
 * nat64/table_free.c the unlinking).
 */

#include <linux/err.h>
#include <linux/rculist.h>
#include <linux/rculist_nulls.h>
#include <linux/slab.h>
#include "nat64/table_int.h"

/* After this many lost races, tern_sess_add*() gives up (-EAGAIN). */
#define TERN_TBL_RETRIES	8

/* Inserts */

static void tern_tbl_link_sess(struct tern_tables *t, struct tern_session *s,
			       const struct tern_tbl_where *w, bool tracked)
{
	s->lk4 = (s->lk4 & TERN_SESS_FROM4) | w->s4 % TERN_TBL_NLOCKS |
		 (tracked ? TERN_SESS_PEER : 0);
	s->tag6 = w->tag6;
	tern_tbl_gc_note(t, s->expires);
	hlist_nulls_add_head_rcu(&s->n6, &t->sess6[w->s6 & t->sess_mask]);
	hlist_nulls_add_head_rcu(&s->n4, &t->sess4[w->s4 & t->sess_mask]);
	atomic_inc(&t->changes);
}

static void tern_tbl_link_bib(struct tern_tables *t, struct tern_bib *b,
			      const struct tern_tbl_where *w)
{
	hlist_nulls_add_head_rcu(&b->n6, &t->bib6[w->b6 & t->bib_mask]);
	hlist_nulls_add_head_rcu(&b->n4, &t->bib4[w->b4 & t->bib_mask]);
	atomic_inc(&t->nbib);
	atomic_inc(&t->changes);
}

/*
 * Under the locks: charges a new session with peer @raddr on @b to its
 * subscriber (@b new: with @b) and, if @lim tracks them, to its peer.
 */
static int tern_tbl_charge(struct tern_tables *t, const struct tern_bib *b,
			   __be32 raddr, const struct tern_limits *lim,
			   bool new_bib)
{
	int ret = 0;

	if (lim->track_peers)
		ret = tern_peer_charge(t, b->l4, &b->t4, raddr);
	if (ret)
		return ret;
	ret = new_bib ? tern_sub_charge_new(t, b, lim, 1) :
			tern_sub_charge(t, b, lim);
	if (ret && lim->track_peers)
		tern_peer_uncharge(t, b->l4, &b->t4, raddr);
	return ret;
}

/*
 * Takes the locks of @s on the BIB entry @b (@b's addresses, @s's remote)
 * and returns the session of @s's key if there is one, made current again
 * if it had expired and is gone by the rule of lookups (the worker had not
 * removed it yet): @s's state and lifetime, not assured (as a new one,
 * until tern_sess_seen() sees a packet the way opposite to its opener).
 * It keeps the side that opened it first (b->sess4 counts by that), also
 * when @s opens it from the other side. A session opened from IPv4 came
 * to @b's IPv4 side: one of another entry with the same IPv6 side (@b
 * went meanwhile, a new entry took its IPv6 side) is not its own:
 * ERR_PTR(-EAGAIN), left as it is.
 */
static struct tern_session *tern_tbl_lock_existing(struct tern_tables *t,
						   const struct tern_bib *b,
						   const struct tern_session *s,
						   struct tern_tbl_where *w,
						   struct tern_lockset *ls)
{
	struct tern_session *old;

	tern_tbl_where(t, b->l4, &b->t6, &b->t4, &s->remote, w);
	tern_tbl_lock(t, ls, w);
	old = tern_tbl_sess6(t, w->s6, w->tag6, b->l4, &b->t6, &s->remote);
	if (old && old->bib != b && (s->lk4 & TERN_SESS_FROM4))
		return ERR_PTR(-EAGAIN);
	if (old && tern_tbl_sess_gone(t, old, (u32)jiffies)) {
		u16 v = READ_ONCE(old->lk4);

		/*
		 * A tern_sess_seen() of a packet that found it before it
		 * expired may set the mark again: as before this, no worse.
		 */
		if (v & TERN_SESS_ASSURED)
			WRITE_ONCE(old->lk4, v & ~TERN_SESS_ASSURED);
		WRITE_ONCE(old->state, s->state);
		WRITE_ONCE(old->expires, s->expires);
		tern_tbl_gc_note(t, s->expires);
	}
	return old;
}

/* Under the locks: may @s, opened from IPv4, go on @b? */
static bool tern_tbl_room4(const struct tern_bib *b,
			   const struct tern_session *s,
			   const struct tern_limits *lim)
{
	return !(s->lk4 & TERN_SESS_FROM4) ||
	       b->sess4 < (lim->max_bib_sess4 ?: U16_MAX);
}

/*
 * Adds @s on the BIB entry @b (found under RCU). Returns 0 (@s added), 1
 * (*@old is the session that was there) or an error; -EAGAIN: @b is going,
 * -EMLINK: @b has its most sessions opened from IPv4, -ENOBUFS: none was
 * there and @s has no place (!@held: it was to make an expired one
 * current again, which needs none).
 */
static int tern_tbl_attach(struct tern_tables *t, struct tern_bib *b,
			   struct tern_session *s,
			   const struct tern_limits *lim, bool held,
			   struct tern_session **old)
{
	struct tern_tbl_where w;
	struct tern_lockset ls;
	int ret = 0;

	*old = tern_tbl_lock_existing(t, b, s, &w, &ls);
	if (IS_ERR(*old)) {
		ret = PTR_ERR(*old);
		*old = NULL;
	} else if (*old) {
		ret = 1;
	} else if (!held) {
		ret = -ENOBUFS;
	} else if (!refcount_inc_not_zero(&b->ref)) {
		ret = -EAGAIN;
	} else if (!tern_tbl_room4(b, s, lim)) {
		refcount_dec(&b->ref);
		ret = -EMLINK;
	} else {
		ret = tern_tbl_charge(t, b, s->remote.addr, lim, false);
		if (ret) {
			refcount_dec(&b->ref);
		} else {
			if (s->lk4 & TERN_SESS_FROM4)
				b->sess4++;
			s->bib = b;
			tern_tbl_link_sess(t, s, &w, lim->track_peers);
		}
	}
	tern_tbl_unlock(t, &ls);
	return ret;
}

/*
 * Adds the new BIB entry @nb (its addresses filled in) with @s. Returns
 * as tern_tbl_attach(); -EAGAIN: the IPv6 side has an entry now,
 * -EADDRNOTAVAIL: the IPv4 side is taken.
 */
static int tern_tbl_insert(struct tern_tables *t, struct tern_bib *nb,
			   struct tern_session *s,
			   const struct tern_limits *lim,
			   struct tern_session **old)
{
	struct tern_tbl_where w;
	struct tern_lockset ls;
	int ret = 0;

	*old = tern_tbl_lock_existing(t, nb, s, &w, &ls);
	if (*old)
		ret = 1;
	else if (tern_bib_find6(t, nb->l4, &nb->t6))
		ret = -EAGAIN;
	else if (tern_bib_find4(t, nb->l4, &nb->t4))
		ret = -EADDRNOTAVAIL;
	else
		ret = tern_tbl_charge(t, nb, s->remote.addr, lim, true);
	if (!ret) {
		nb->is_static = false;
		nb->sess4 = 0;
		refcount_set(&nb->ref, 1);
		tern_tbl_link_bib(t, nb, &w);
		tern_tbl_ev_bound(t, nb, true);
		s->bib = nb;
		tern_tbl_link_sess(t, s, &w, lim->track_peers);
	}
	tern_tbl_unlock(t, &ls);
	return ret;
}

static void tern_sess_init(struct tern_session *s,
			   const struct tern_ta4 *remote, u8 state,
			   unsigned long timeout, bool from4)
{
	s->lk4 = from4 ? TERN_SESS_FROM4 : 0;
	s->bib = NULL;
	s->remote = *remote;
	s->state = state;
	s->expires = (u32)(jiffies + timeout);
}

static struct tern_session *tern_sess_new(const struct tern_ta4 *remote,
					  u8 state, unsigned long timeout,
					  bool from4)
{
	struct tern_session *s;

	s = kmem_cache_alloc(tern_sess_cache, GFP_ATOMIC | __GFP_NOWARN);
	if (s)
		tern_sess_init(s, remote, state, timeout, from4);
	return s;
}

/*
 * Ends an add: @ret 0 (@s went in), 1 (@old did) or an error. Gives back
 * the place taken (@held) for a session that did not go in, frees what
 * was allocated and did not: the session @spare, the pair @np.
 */
static struct tern_session *tern_tbl_done(struct tern_tables *t, int ret,
					  bool held, struct tern_session *s,
					  struct tern_session *old,
					  struct tern_session *spare,
					  struct tern_bib_pair *np)
{
	if (np)
		kmem_cache_free(tern_pair_cache, np);
	if (spare)
		kmem_cache_free(tern_sess_cache, spare);
	if (!ret)
		return s;
	if (held)
		atomic_dec(&t->nsess);
	return ret == 1 ? old : ERR_PTR(ret);
}

struct tern_session *tern_sess_add6(struct tern_tables *t, u8 l4,
				    const struct tern_ta6 *src,
				    const struct tern_ta4 *remote,
				    const struct tern_limits *lim,
				    tern_pick4_fn pick, void *arg,
				    u8 state, unsigned long timeout,
				    bool *made)
{
	unsigned int attempt = 0, races = 0;
	struct tern_session *s, *old = NULL, *spare = NULL;
	struct tern_bib_pair *np = NULL;
	struct tern_bib *b, *nb = NULL;
	bool revives, held;
	int ret;

	*made = false;
	s = tern_tbl_sess_lookup(t, l4, src, NULL, remote, &revives);
	if (s)
		return s;
	ret = tern_tbl_reserve(t, lim);
	if (ret < 0)
		return ERR_PTR(ret);
	held = !ret;
	/*
	 * A session of its own on an entry there is (@spare), one with a
	 * new entry (@np) otherwise; both when the entry came or went
	 * meanwhile. A full table makes room only there, for a session
	 * that can be (a new entry's port found), and for none that makes
	 * an expired one current again.
	 */
	for (;;) {
		b = tern_bib_find6(t, l4, src);
		if (b) {
			if (!spare)
				spare = tern_sess_new(remote, state, timeout,
						      false);
			if (!spare) {
				ret = -ENOMEM;
				break;
			}
			if (!held && !revives) {
				ret = tern_tbl_make_room(t, lim, b, src);
				if (ret)
					break;
				held = true;
			}
			ret = tern_tbl_attach(t, b, spare, lim, held, &old);
			if (!ret) {
				s = spare;
				spare = NULL;
				break;
			}
			if (ret == -ENOBUFS) {
				revives = false;
				continue;
			}
			if (ret != -EAGAIN || ++races > TERN_TBL_RETRIES)
				break;
			continue;
		}
		if (!np) {
			np = kmem_cache_alloc(tern_pair_cache,
					      GFP_ATOMIC | __GFP_NOWARN);
			if (!np) {
				ret = -ENOMEM;
				break;
			}
			nb = &np->b;
			nb->l4 = l4;
			nb->paired = true;
			nb->t6 = *src;
			tern_bib_set_sub_plen(nb, min_t(u8,
							lim->sub_prefix_len,
							128));
			tern_sess_init(&np->s, remote, state, timeout, false);
		}
		/* Probe under RCU; only the insert takes locks. */
		do {
			if (!pick(arg, src, attempt++, &nb->t4))
				return tern_tbl_done(t, -EADDRINUSE, held,
						     NULL, old, spare, np);
		} while (tern_bib_find4(t, l4, &nb->t4));
		ret = held ? 0 : tern_tbl_make_room(t, lim, NULL, src);
		if (ret)
			break;
		held = true;
		ret = tern_tbl_insert(t, nb, &np->s, lim, &old);
		if (!ret) {
			s = &np->s;
			np = NULL;
			tern_tbl_ev_bib(t, s->bib, true);
			break;
		}
		if (ret == -EADDRNOTAVAIL)
			continue;
		if (ret != -EAGAIN || ++races > TERN_TBL_RETRIES)
			break;
	}
	if (!ret)
		tern_tbl_ev_sess(t, s, true);
	*made = !ret;
	return tern_tbl_done(t, ret, held, ret ? NULL : s, old, spare, np);
}

struct tern_session *tern_sess_add4(struct tern_tables *t,
				    struct tern_bib *bib,
				    const struct tern_ta4 *remote,
				    const struct tern_limits *lim,
				    u8 state, unsigned long timeout,
				    bool *made)
{
	struct tern_session *s, *old = NULL;
	bool revives, held;
	int ret;

	*made = false;
	s = tern_tbl_sess_lookup(t, bib->l4, NULL, &bib->t4, remote, &revives);
	if (s)
		return s;
	ret = tern_tbl_reserve(t, lim);
	if (ret < 0)
		return ERR_PTR(ret);
	held = !ret;
	s = tern_sess_new(remote, state, timeout, true);
	if (!s)
		return tern_tbl_done(t, -ENOMEM, held, NULL, old, NULL, NULL);
	do {
		if (!held && !revives) {
			ret = tern_tbl_make_room(t, lim, bib, NULL);
			if (ret)
				return tern_tbl_done(t, ret, false, NULL, old,
						     s, NULL);
			held = true;
		}
		revives = false;
		ret = tern_tbl_attach(t, bib, s, lim, held, &old);
	} while (ret == -ENOBUFS);
	if (!ret)
		tern_tbl_ev_sess(t, s, true);
	*made = !ret;
	return tern_tbl_done(t, ret == -EAGAIN ? -ENOENT : ret, held, s, old,
			     ret ? s : NULL, NULL);
}

/*
 * Static entries are counted in t->nstatic from here to tern_bib_del(),
 * which makes them dynamic: a place is taken before anything else, so
 * that concurrent adds never pass @max.
 */
int tern_bib_add_static_max(struct tern_tables *t, u8 l4,
			    const struct tern_ta6 *t6,
			    const struct tern_ta4 *t4, u32 max)
{
	struct tern_tbl_where w;
	struct tern_lockset ls;
	struct tern_bib *b;
	int ret = 0;

	if (atomic_inc_return(&t->nstatic) > max) {
		atomic_dec(&t->nstatic);
		return -ENOSPC;
	}
	b = kmem_cache_alloc(tern_bib_cache, GFP_KERNEL_ACCOUNT);
	if (!b) {
		atomic_dec(&t->nstatic);
		return -ENOMEM;
	}
	b->t6 = *t6;
	b->t4 = *t4;
	b->l4 = l4;
	b->is_static = true;
	b->paired = false;
	b->sess4 = 0;
	tern_bib_set_sub_plen(b, 128);
	refcount_set(&b->ref, 1);
	tern_tbl_where_bib(t, b, &w);
	/*
	 * Under RCU from before it is linked: a tern_bib_del() may free it
	 * as soon as the locks are released; the event still reads it.
	 */
	rcu_read_lock();
	tern_tbl_lock(t, &ls, &w);
	if (tern_bib_find6(t, l4, t6) || tern_bib_find4(t, l4, t4))
		ret = -EEXIST;
	else
		ret = tern_sub_charge_new(t, b, NULL, 0);
	if (!ret) {
		tern_tbl_link_bib(t, b, &w);
		atomic_inc(&t->static_changes);
	}
	tern_tbl_unlock(t, &ls);
	if (!ret)
		tern_tbl_ev_bib(t, b, true);
	rcu_read_unlock();
	if (ret) {
		kmem_cache_free(tern_bib_cache, b);
		atomic_dec(&t->nstatic);
	}
	return ret;
}

int tern_bib_add_static(struct tern_tables *t, u8 l4,
			const struct tern_ta6 *t6, const struct tern_ta4 *t4)
{
	return tern_bib_add_static_max(t, l4, t6, t4, U32_MAX);
}

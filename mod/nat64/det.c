// SPDX-License-Identifier: GPL-2.0
/*
 * Deterministic NAT64 (RFC 7422) over a pool4 snapshot: a subscriber's
 * address and port block from include/tern_det.h, the port inside the
 * block as RFC 6056 asks, with a key from the configuration; with
 * several boxes, over this box's share of pool4 (include/tern_share.h).
 * The checks of the settings against pool4, box-count's too.
 */

#include <linux/kernel.h>
#include "nat64/det.h"
#include "nat64/pool4.h"
#include "nat64/pool4_int.h"
#include "siit/prefix.h"
#include "tern_share.h"

static const char *const tern_det_l4_name[TERN_L4_N] = {
	[TERN_L4_TCP] = "TCP", [TERN_L4_UDP] = "UDP", [TERN_L4_ICMP] = "ICMP",
};

/* The shape's lengths and block size, from the settings alone. */
static void tern_det_shape_cfg(const struct tern_config *cfg,
			       struct tern_det_shape *d)
{
	memset(d, 0, sizeof(*d));
	d->space_len = cfg->det_space.len;
	d->sub_len = min_t(u32, cfg->sub_prefix_len, 128);
	d->block = cfg->det_block;
}

/* The entries of @l4 and mark 0: by_pick[*lo .. *hi). */
static bool tern_det_run(const struct tern_pool4 *p, u8 l4, u32 *lo, u32 *hi)
{
	if (!p)
		return false;
	tern_pick_run(p, l4, 0, lo, hi);
	return *lo < *hi;
}

/*
 * The shape of @l4 over this box's share of the run by_pick[*lo .. *hi):
 * its addresses from the run's *@base-th on (include/tern_share.h).
 */
static bool tern_det_share(const struct tern_config *cfg,
			   const struct tern_pool4 *p, u8 l4,
			   struct tern_det_shape *d, u32 *lo, u32 *hi,
			   u32 *base)
{
	const struct tern_pool4_entry *e;
	u32 total;

	tern_det_shape_cfg(cfg, d);
	if (!tern_det_run(p, l4, lo, hi))
		return false;
	e = &p->e[p->by_pick[*lo]];
	total = p->cum[*hi] - p->cum[*lo];
	*base = tern_share_first(total, cfg->box_count, cfg->box_index);
	d->n_addrs = tern_share_size(total, cfg->box_count, cfg->box_index);
	d->pmin = e->pmin;
	d->pmax = e->pmax;
	return true;
}

bool tern_det_shape_of(const struct tern_config *cfg,
		       const struct tern_pool4 *p, u8 l4,
		       struct tern_det_shape *d)
{
	u32 lo, hi, base;

	return tern_det_share(cfg, p, l4, d, &lo, &hi, &base);
}

/*
 * The addresses of run [@i, @end) of @p from position *@i on, adjacent
 * entries joined: the next interval [*@s, *@t]; false past the run.
 */
static bool tern_box_span(const struct tern_pool4 *p, u32 *i, u32 end,
			  u32 *s, u32 *t)
{
	const struct tern_pool4_entry *e;

	if (*i >= end)
		return false;
	e = &p->e[p->by_pick[(*i)++]];
	*s = ntohl(e->prefix.addr);
	*t = *s + tern_hostmask4(e->prefix.len);
	while (*i < end && *t != U32_MAX) {
		e = &p->e[p->by_pick[*i]];
		if (ntohl(e->prefix.addr) != *t + 1)
			break;
		*t += tern_hostmask4(e->prefix.len) + 1;
		(*i)++;
	}
	return true;
}

/*
 * Do runs [@a, @ae) and [@b, @be) share some addresses but not all? Then
 * an address would have a share in each, maybe of two boxes.
 */
static bool tern_box_runs_differ(const struct tern_pool4 *p, u32 a, u32 ae,
				 u32 b, u32 be)
{
	bool ha, hb, common = false, same = true;
	u32 as = 0, at = 0, bs = 0, bt = 0;

	ha = tern_box_span(p, &a, ae, &as, &at);
	hb = tern_box_span(p, &b, be, &bs, &bt);
	while (ha || hb) {
		bool both = ha && hb && as == bs && at == bt;
		bool next_a, next_b;

		/* Overlapping, not the same: some addresses of both only. */
		if (!both && ha && hb && as <= bt && bs <= at)
			return true;
		common |= both;
		same &= both;
		/* Past an interval of both, or the lower one of one run. */
		next_a = ha && (both || !hb || as < bs);
		next_b = hb && (both || !ha || bs < as);
		if (next_a)
			ha = tern_box_span(p, &a, ae, &as, &at);
		if (next_b)
			hb = tern_box_span(p, &b, be, &bs, &bt);
	}
	return common && !same;
}

/*
 * Several boxes, one pool: box-index below box-count; with more than one
 * box, every run of pool4 (protocol, mark) has an address for each box
 * and no address twice (two entries of one address could fall in two
 * boxes' shares, and IPv4 returns are routed by address); two runs share
 * all their addresses or none (an address of both would have a share in
 * each, maybe of two boxes).
 */
static int tern_box_runs_check(const struct tern_pool4 *p, char *msg,
			       size_t size)
{
	const struct tern_pool4_entry *e, *f;
	u32 lo, hi, lo2, hi2;

	for (lo = 0; lo < tern_pool4_count(p); lo = hi) {
		e = &p->e[p->by_pick[lo]];
		tern_pick_run(p, e->l4, e->mark, &lo, &hi);
		for (lo2 = hi; lo2 < tern_pool4_count(p); lo2 = hi2) {
			f = &p->e[p->by_pick[lo2]];
			tern_pick_run(p, f->l4, f->mark, &lo2, &hi2);
			if (!tern_box_runs_differ(p, lo, hi, lo2, hi2))
				continue;
			snprintf(msg, size,
				 "box-count: %s (mark %u) and %s (mark %u) pool4 share some addresses only",
				 tern_det_l4_name[e->l4], e->mark,
				 tern_det_l4_name[f->l4], f->mark);
			return -EINVAL;
		}
	}
	return 0;
}

static int tern_box_validate(const struct tern_config *cfg,
			     const struct tern_pool4 *p, char *msg,
			     size_t size)
{
	u32 boxes = max_t(u32, cfg->box_count, 1), lo, hi, i, end;
	const struct tern_pool4_entry *e, *f;

	if (cfg->box_index >= boxes) {
		snprintf(msg, size, "box-index %u is not below box-count %u",
			 cfg->box_index, boxes);
		return -EINVAL;
	}
	if (boxes == 1)
		return 0;
	/* Port blocks come from all of pool4: not split by box (yet). */
	if (cfg->port_block) {
		snprintf(msg, size,
			 "box-count %u and port-block-size %u: one or the other",
			 boxes, cfg->port_block);
		return -EINVAL;
	}
	for (lo = 0; lo < tern_pool4_count(p); lo = hi) {
		e = &p->e[p->by_pick[lo]];
		tern_pick_run(p, e->l4, e->mark, &lo, &hi);
		if (p->cum[hi] - p->cum[lo] < boxes) {
			snprintf(msg, size,
				 "box-count %u > %u %s pool4 addresses (mark %u): a box gets none",
				 boxes, p->cum[hi] - p->cum[lo],
				 tern_det_l4_name[e->l4], e->mark);
			return -EINVAL;
		}
		end = ntohl(e->prefix.addr) + tern_hostmask4(e->prefix.len);
		for (i = lo + 1; i < hi; i++) {
			f = &p->e[p->by_pick[i]];
			if (ntohl(f->prefix.addr) > end) {
				end = ntohl(f->prefix.addr) +
				      tern_hostmask4(f->prefix.len);
				e = f;
				continue;
			}
			snprintf(msg, size,
				 "box-count: %s pool4 %pI4/%u and %pI4/%u overlap",
				 tern_det_l4_name[e->l4], &e->prefix.addr,
				 e->prefix.len, &f->prefix.addr, f->prefix.len);
			return -EINVAL;
		}
	}
	return tern_box_runs_check(p, msg, size);
}

int tern_det_validate(const struct tern_config *cfg,
		      const struct tern_pool4 *p, char *msg, size_t size)
{
	struct tern_det_shape d;
	u32 i, lo, hi, l4, base;
	int ret;

	ret = tern_box_validate(cfg, p, msg, size);
	if (ret || !cfg->det_space_set)
		return ret;
	if (cfg->port_block) {
		snprintf(msg, size,
			 "det-space and port-block-size %u: one or the other",
			 cfg->port_block);
		return -EINVAL;
	}
	tern_det_shape_cfg(cfg, &d);
	d.n_addrs = 1;
	d.pmax = 65535;
	if (tern_det_check(&d) == TERN_DET_E_LEN) {
		snprintf(msg, size,
			 "det-space /%u, subscriber-prefix-len %u: need 0 to 32 bits",
			 d.space_len, d.sub_len);
		return -EINVAL;
	}
	for (i = 0; i < tern_pool4_count(p); i++) {
		if (p->e[i].mark) {
			snprintf(msg, size,
				 "deterministic mode: pool4 entries of mark 0 only (not %u)",
				 p->e[i].mark);
			return -EINVAL;
		}
	}
	for (l4 = 0; l4 < TERN_L4_N; l4++) {
		const struct tern_pool4_entry *e, *f;

		if (!tern_det_run(p, l4, &lo, &hi))
			continue;
		e = &p->e[p->by_pick[lo]];
		for (i = lo + 1; i < hi; i++) {
			f = &p->e[p->by_pick[i]];
			if (f->pmin == e->pmin && f->pmax == e->pmax)
				continue;
			snprintf(msg, size,
				 "deterministic mode: %s pool4 ports %u-%u and %u-%u differ",
				 tern_det_l4_name[l4], e->pmin, e->pmax,
				 f->pmin, f->pmax);
			return -EINVAL;
		}
		/* Every box holds every subscriber: the smallest share does. */
		tern_det_share(cfg, p, l4, &d, &lo, &hi, &base);
		d.n_addrs = tern_share_min(p->cum[hi] - p->cum[lo],
					   cfg->box_count);
		switch (tern_det_check(&d)) {
		case TERN_DET_OK:
			continue;
		case TERN_DET_E_BLOCK:
			snprintf(msg, size,
				 "det-block-size %u is more than the %u %s ports",
				 d.block, tern_det_ports(&d),
				 tern_det_l4_name[l4]);
			return -EINVAL;
		default:
			snprintf(msg, size,
				 "det: %llu subscribers > %s%s: %u addrs x %u blocks of %u",
				 tern_det_subs(&d), tern_det_l4_name[l4],
				 cfg->box_count > 1 ? " box" : "",
				 d.n_addrs, tern_det_blocks(&d),
				 tern_det_block(&d));
			return -EINVAL;
		}
	}
	return 0;
}

int tern_det_prepare(struct tern_det_pick *dp, const struct tern_config *cfg,
		     const struct tern_pool4 *p, u8 l4,
		     const struct tern_ta6 *t6)
{
	const struct tern_pool4_entry *e;
	struct tern_ta6 sub = { };
	struct tern_det_shape d;
	siphash_key_t key;
	u32 lo, hi, base, k, slot, first;

	if (!tern_det_share(cfg, p, l4, &d, &lo, &hi, &base))
		return TERN_STAT_DROP_NO_POOL4;
	if (!tern_det_in_space(&d, cfg->det_space.addr.s6_addr,
			       t6->addr.s6_addr))
		return TERN_STAT_DROP_DET_OUTSIDE;
	if (tern_det_check(&d) != TERN_DET_OK)
		return TERN_STAT_DROP_DET_FULL;
	tern_det_map(&d, tern_det_index(&d, t6->addr.s6_addr), &slot, &first);
	/* The slot-th address of this box's share. */
	slot += base;
	k = tern_pick_entry(p, lo, hi, slot);
	e = &p->e[p->by_pick[k]];
	dp->addr = htonl(ntohl(e->prefix.addr) + (p->cum[lo] + slot -
						   p->cum[k]));
	dp->first = first;
	dp->size = tern_det_block(&d);
	/*
	 * Half the candidates at most keep the IPv6 port's parity: the rest
	 * are any port of the block (a big block's preferred ones would take
	 * them all, and a parity used up would refuse the flow).
	 */
	dp->pref = l4 == TERN_L4_ICMP ? 0 :
		   min_t(u32, tern_pick_port_count(first, first + dp->size - 1,
						   ntohs(t6->port)),
			 TERN_PICK_PROBES / 2);
	dp->probes = min_t(u32, dp->pref + dp->size, TERN_PICK_PROBES);
	/*
	 * The offset: a hash of the IPv6 address (not of its port),
	 * keyed with det-port-key, any fixed value besides: every box has
	 * the same. The IPv6 port is added to it (halved where the
	 * candidates keep its parity; an ICMP identifier whole), so two
	 * flows whose IPv6 ports are near each other, as a host gives them,
	 * get two ports, whichever came first: a standby box that rebuilds
	 * them in another order gives each the port the failed box gave it.
	 */
	key.key[0] = (u64)cfg->det_port_key << 32 | 0x7465726e;
	key.key[1] = 0x6465742d706f7274ULL;
	sub.addr = t6->addr;
	dp->h = (tern_pick_hash(&key, &sub, dp->addr, l4) >> 16) +
		(ntohs(t6->port) >> (l4 == TERN_L4_ICMP ? 0 : 1));
	return 0;
}

bool tern_det_pick4(void *arg, const struct tern_ta6 *t6, unsigned int attempt,
		    struct tern_ta4 *t4)
{
	const struct tern_det_pick *dp = arg;
	u32 last = dp->first + dp->size - 1;

	if (attempt >= dp->probes)
		return false;
	t4->addr = dp->addr;
	if (attempt < dp->pref)
		t4->port = htons(tern_pick_port(dp->first, last,
						ntohs(t6->port), dp->h,
						attempt));
	else
		t4->port = htons(dp->first +
				 tern_pick_nth(dp->h, attempt - dp->pref,
					       dp->size));
	return true;
}

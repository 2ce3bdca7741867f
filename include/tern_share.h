/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Several boxes, one pool: n translators (box-count) load the same
 * configuration and differ by their box-index k; each uses only its
 * share of pool4, so that they share no state and IPv4 returns are routed
 * to the box by address. The one definition of a share: tern.ko (port
 * choice, deterministic mode, validation) and the tern CLI (tern det
 * lookup) include this. Pure integer arithmetic, 32 bits, no state.
 *
 * For a run of N addresses A[0..N) (one protocol and mark of pool4, in
 * ascending order), box k of n owns
 *
 *   A[first(k) .. first(k+1)),  first(k) = floor(N * k / n)
 *
 * contiguous (a power-of-two pool split by a power-of-two n gives each
 * box a prefix), sizes floor(N/n) or ceil(N/n), a partition of A. With
 * n = 1 box 0 owns all of A. n of 0 counts as 1.
 */
#ifndef _TERN_SHARE_H
#define _TERN_SHARE_H

#include <linux/types.h>

/* Bounds of box-count (box-index is 0 .. box-count - 1). */
#define TERN_BOXES_MAX	1024

/*
 * first(@box) of @n_addrs among @boxes, @box in 0 .. @boxes (first of
 * @boxes is @n_addrs). Written as q*k + floor(r*k / n), N = q*n + r, so
 * that no product passes 32 bits (r*k < 2^20).
 */
static inline __u32 tern_share_first(__u32 n_addrs, __u32 boxes, __u32 box)
{
	if (boxes <= 1)
		return box ? n_addrs : 0;
	return n_addrs / boxes * box + n_addrs % boxes * box / boxes;
}

/* How many addresses box @box owns (0 for a @box past the last). */
static inline __u32 tern_share_size(__u32 n_addrs, __u32 boxes, __u32 box)
{
	if (box >= (boxes ? boxes : 1))
		return 0;
	return tern_share_first(n_addrs, boxes, box + 1) -
	       tern_share_first(n_addrs, boxes, box);
}

/* The smallest share: floor(N / n) (0: some box has no address). */
static inline __u32 tern_share_min(__u32 n_addrs, __u32 boxes)
{
	return boxes <= 1 ? n_addrs : n_addrs / boxes;
}

/* The box whose share holds A[@j], @j < @n_addrs: last k, first(k) <= j. */
static inline __u32 tern_share_owner(__u32 n_addrs, __u32 boxes, __u32 j)
{
	__u32 lo = 0, hi = boxes <= 1 ? 1 : boxes, mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (tern_share_first(n_addrs, boxes, mid) <= j)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

#endif /* _TERN_SHARE_H */

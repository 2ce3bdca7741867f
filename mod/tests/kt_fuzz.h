/* SPDX-License-Identifier: GPL-2.0 */
/* The random packet generator of tern_fuzz (kt_fuzz.c). */
#ifndef _TERN_KT_FUZZ_H
#define _TERN_KT_FUZZ_H

#include <linux/prandom.h>
#include "kt_util.h"

/* A run of tern_fuzz: the generator's state, the instance, the tallies. */
struct tern_kt_fuzz {
	struct rnd_state rs;
	struct tern_kt_inst ki;
	u8 *buf;
	unsigned long packets, bad_count, bad_out;
	u64 per_stat[TERN_STAT_MAX + 1];
};

static inline u32 tern_kt_rnd(struct tern_kt_fuzz *f, u32 n)
{
	return n ? prandom_u32_state(&f->rs) % n : 0;
}

static inline bool tern_kt_chance(struct tern_kt_fuzz *f, u32 percent)
{
	return tern_kt_rnd(f, 100) < percent;
}

/*
 * A random packet in @p (at most @room bytes); its length. @depth 0: an
 * outer packet, which passes the checks of ip_rcv / ipv6_rcv.
 */
unsigned int tern_kt_gen4(struct tern_kt_fuzz *f, u8 *p, unsigned int room,
			  int depth);
unsigned int tern_kt_gen6(struct tern_kt_fuzz *f, u8 *p, unsigned int room,
			  int depth);

#endif /* _TERN_KT_FUZZ_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TERN_STATS_H
#define _TERN_STATS_H

#include <linux/percpu.h>
#include <linux/types.h>
#include "tern_genl.h"

/* One slot per enum tern_stat, per CPU; bumped without atomics. */
struct tern_stats {
	u64 cnt[TERN_STAT_MAX + 1];
};

struct tern_stats __percpu *tern_stats_alloc(void);
void tern_stats_free(struct tern_stats __percpu *stats);
void tern_stats_sum(const struct tern_stats __percpu *stats,
		    u64 out[TERN_STAT_MAX + 1]);

static inline void tern_stats_inc(struct tern_stats __percpu *stats,
				  enum tern_stat id)
{
	this_cpu_inc(stats->cnt[id]);
}

#endif /* _TERN_STATS_H */

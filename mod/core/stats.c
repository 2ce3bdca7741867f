// SPDX-License-Identifier: GPL-2.0
/* Per-CPU counters of packet outcomes. */

#include <linux/string.h>
#include "core/stats.h"

struct tern_stats __percpu *tern_stats_alloc(void)
{
	return alloc_percpu_gfp(struct tern_stats, GFP_KERNEL_ACCOUNT);
}

void tern_stats_free(struct tern_stats __percpu *stats)
{
	free_percpu(stats);
}

void tern_stats_sum(const struct tern_stats __percpu *stats,
		    u64 out[TERN_STAT_MAX + 1])
{
	int cpu, i;

	memset(out, 0, sizeof(u64) * (TERN_STAT_MAX + 1));
	for_each_possible_cpu(cpu) {
		const struct tern_stats *s = per_cpu_ptr(stats, cpu);

		for (i = 0; i <= TERN_STAT_MAX; i++)
			out[i] += READ_ONCE(s->cnt[i]);
	}
}

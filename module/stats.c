// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - per-CPU counters: allocation, summing and reset.
 */
#include <linux/cpumask.h>
#include <linux/string.h>

#include "stats.h"

int seg6x_stats_init_gfp(struct seg6x_stats *st, gfp_t gfp)
{
	int cpu;

	st->pcpu = alloc_percpu_gfp(struct seg6x_pcpu_stats, gfp);
	if (!st->pcpu)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(st->pcpu, cpu)->syncp);
	memset(st->base, 0, sizeof(st->base));
	return 0;
}

void seg6x_stats_free(struct seg6x_stats *st)
{
	free_percpu(st->pcpu);
	st->pcpu = NULL;
}

static void seg6x_stats_sum(struct seg6x_stats *st, u64 *out)
{
	int cpu, i;

	memset(out, 0, sizeof(u64) * (SEG6X_STAT_MAX + 1));
	for_each_possible_cpu(cpu) {
		const struct seg6x_pcpu_stats *p = per_cpu_ptr(st->pcpu, cpu);
		u64 v[SEG6X_STAT_MAX + 1];
		unsigned int start;

		do {
			start = u64_stats_fetch_begin(&p->syncp);
			for (i = 0; i <= SEG6X_STAT_MAX; i++)
				v[i] = seg6x_cnt_read(&p->cnt[i]);
		} while (u64_stats_fetch_retry(&p->syncp, start));

		for (i = 0; i <= SEG6X_STAT_MAX; i++)
			out[i] += v[i];
	}
}

/* Callers serialise read and reset (the genl mutex). */
void seg6x_stats_read(struct seg6x_stats *st, u64 *out)
{
	int i;

	seg6x_stats_sum(st, out);
	for (i = 0; i <= SEG6X_STAT_MAX; i++)
		out[i] -= st->base[i];
}

void seg6x_stats_reset(struct seg6x_stats *st)
{
	seg6x_stats_sum(st, st->base);
}

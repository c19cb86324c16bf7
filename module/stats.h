/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - per-namespace, per-CPU packet counters.
 *
 * Counters are only ever incremented on the CPU that owns them, so the
 * fast path takes no lock and touches no shared cache line. "reset" does
 * not write other CPUs' counters (that would race with increments): it
 * records a baseline that later reads subtract.
 */
#ifndef _SEG6X_STATS_H
#define _SEG6X_STATS_H

#include <linux/gfp.h>
#include <linux/seg6x.h>

#include "pcpu_cnt.h"

struct seg6x_pcpu_stats {
	struct seg6x_cnt cnt[SEG6X_STAT_MAX + 1];
	struct u64_stats_sync syncp;	/* 32-bit only (pcpu_cnt.h) */
};

struct seg6x_stats {
	struct seg6x_pcpu_stats __percpu *pcpu;
	u64 base[SEG6X_STAT_MAX + 1];	/* snapshot at the last reset */
};

/* GFP_ATOMIC allocates from softirq (the first drop on an interface). */
int seg6x_stats_init_gfp(struct seg6x_stats *st, gfp_t gfp);
void seg6x_stats_free(struct seg6x_stats *st);
void seg6x_stats_read(struct seg6x_stats *st, u64 *out);
void seg6x_stats_reset(struct seg6x_stats *st);

static inline int seg6x_stats_init(struct seg6x_stats *st)
{
	return seg6x_stats_init_gfp(st, GFP_KERNEL);
}

/* Safe from any context (pcpu_cnt.h). */
static inline void seg6x_stats_inc(struct seg6x_stats *st, enum seg6x_stat i)
{
	seg6x_cnt_add(st->pcpu, cnt[i], 1);
}

#endif /* _SEG6X_STATS_H */

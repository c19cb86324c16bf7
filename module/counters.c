// SPDX-License-Identifier: GPL-2.0
/*
 * counters.c - per-object packet counters (counters.h).
 */
#include <linux/seg6x.h>

#include "counters.h"

struct seg6x_counters __percpu *seg6x_counters_alloc(gfp_t gfp)
{
	struct seg6x_counters __percpu *pcpu;
	int cpu;

	pcpu = alloc_percpu_gfp(struct seg6x_counters, gfp | __GFP_ZERO);
	if (!pcpu)
		return NULL;
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(pcpu, cpu)->syncp);
	return pcpu;
}

int seg6x_counters_put(struct sk_buff *msg, int attr,
		       struct seg6x_counters __percpu *pcpu)
{
	u64 pk = 0, by = 0, er = 0;
	struct nlattr *nest;
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct seg6x_counters *c = per_cpu_ptr(pcpu, cpu);
		unsigned int start;
		u64 p, b, e;

		do {
			start = u64_stats_fetch_begin(&c->syncp);
			p = seg6x_cnt_read(&c->packets);
			b = seg6x_cnt_read(&c->bytes);
			e = seg6x_cnt_read(&c->errors);
		} while (u64_stats_fetch_retry(&c->syncp, start));
		pk += p;
		by += b;
		er += e;
	}
	nest = nla_nest_start(msg, attr);
	if (!nest ||
	    nla_put_u64_64bit(msg, SEG6X_SID_CNT_PACKETS, pk, SEG6X_SID_CNT_PAD) ||
	    nla_put_u64_64bit(msg, SEG6X_SID_CNT_BYTES, by, SEG6X_SID_CNT_PAD) ||
	    nla_put_u64_64bit(msg, SEG6X_SID_CNT_ERRORS, er, SEG6X_SID_CNT_PAD))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

size_t seg6x_counters_size(void)
{
	return nla_total_size(0) + 3 * nla_total_size_64bit(sizeof(u64));
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters.h - per-object packet counters (a SID's, a route's): per-CPU,
 * so the packet path never shares a cache line; summed when read.
 */
#ifndef _SEG6X_COUNTERS_H
#define _SEG6X_COUNTERS_H

#include <linux/percpu.h>
#include <linux/u64_stats_sync.h>
#include <net/netlink.h>

struct seg6x_counters {
	u64_stats_t packets;
	u64_stats_t bytes;
	u64_stats_t errors;
	struct u64_stats_sync syncp;
};

struct seg6x_counters __percpu *seg6x_counters_alloc(gfp_t gfp);

/* Packet path: one packet of @len bytes, processed or (@error) dropped. */
static inline void seg6x_counters_add(struct seg6x_counters __percpu *pcpu,
				      unsigned int len, bool error)
{
	struct seg6x_counters *c;
	unsigned long flags;

	c = get_cpu_ptr(pcpu);
	flags = u64_stats_update_begin_irqsave(&c->syncp);
	if (error) {
		u64_stats_inc(&c->errors);
	} else {
		u64_stats_inc(&c->packets);
		u64_stats_add(&c->bytes, len);
	}
	u64_stats_update_end_irqrestore(&c->syncp, flags);
	put_cpu_ptr(pcpu);
}

/*
 * The sums, as a nest @attr of SEG6X_SID_CNT_* attributes (the layout
 * of SEG6X_SID_COUNTERS and SEG6X_IPTUN_COUNTERS).
 */
int seg6x_counters_put(struct sk_buff *msg, int attr,
		       struct seg6x_counters __percpu *pcpu);
/* What seg6x_counters_put() adds to a message, at most. */
size_t seg6x_counters_size(void);

#endif /* _SEG6X_COUNTERS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters.h - per-object packet counters (a SID's, a route's): per-CPU,
 * so the packet path never shares a cache line; summed when read.
 */
#ifndef _SEG6X_COUNTERS_H
#define _SEG6X_COUNTERS_H

#include <net/netlink.h>

#include "pcpu_cnt.h"

struct seg6x_counters {
	struct seg6x_cnt packets;
	struct seg6x_cnt bytes;
	struct seg6x_cnt errors;
	struct u64_stats_sync syncp;	/* 32-bit only (pcpu_cnt.h) */
};

struct seg6x_counters __percpu *seg6x_counters_alloc(gfp_t gfp);

/* Packet path: one packet of @len bytes, processed or (@error) dropped. */
static inline void seg6x_counters_add(struct seg6x_counters __percpu *pcpu,
				      unsigned int len, bool error)
{
	if (error) {
		seg6x_cnt_add(pcpu, errors, 1);
	} else {
		seg6x_cnt_add(pcpu, packets, 1);
		seg6x_cnt_add(pcpu, bytes, len);
	}
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

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pcpu_cnt.h - a 64-bit per-CPU counter that only its own CPU writes.
 *
 * On 64-bit a counter is a plain u64: this_cpu_add() bumps it with one
 * instruction that preemption and migration cannot split (no
 * get_cpu_ptr()/put_cpu_ptr() pair per update), and a reader on another
 * CPU never sees it torn. A 32-bit counter takes two words, so there the
 * update runs under u64_stats' seqcount (the structure's @syncp, which
 * readers retry on) with preemption and interrupts off.
 */
#ifndef _SEG6X_PCPU_CNT_H
#define _SEG6X_PCPU_CNT_H

#include <linux/percpu.h>
#include <linux/u64_stats_sync.h>

/* SEG6X_CNT_SEQ builds the 32-bit form on 64-bit too (compile testing). */
#if BITS_PER_LONG == 32
#define SEG6X_CNT_SEQ
#endif

#ifndef SEG6X_CNT_SEQ
struct seg6x_cnt {
	u64 v;
};

/* @pcpu: a __percpu pointer to a structure with a counter @member. */
#define seg6x_cnt_add(pcpu, member, n)	this_cpu_add((pcpu)->member.v, (n))

static inline u64 seg6x_cnt_read(const struct seg6x_cnt *c)
{
	return READ_ONCE(c->v);
}
#else
struct seg6x_cnt {
	u64_stats_t v;
};

#define seg6x_cnt_add(pcpu, member, n)					\
do {									\
	typeof(pcpu) __pcpu = (pcpu);					\
	typeof(*__pcpu) *__c = get_cpu_ptr(__pcpu);			\
	unsigned long __flags;						\
									\
	__flags = u64_stats_update_begin_irqsave(&__c->syncp);		\
	u64_stats_add(&__c->member.v, (n));				\
	u64_stats_update_end_irqrestore(&__c->syncp, __flags);		\
	put_cpu_ptr(__pcpu);						\
} while (0)

static inline u64 seg6x_cnt_read(const struct seg6x_cnt *c)
{
	return u64_stats_read(&c->v);
}
#endif

#endif /* _SEG6X_PCPU_CNT_H */

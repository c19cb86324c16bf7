/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ifdrops.h - drops counted per interface as well as per namespace.
 *
 * Every drop reason (SEG6X_STAT_DROP_*; DROP_DISABLED, a packet handed
 * back to the stack, only per namespace) is counted in the namespace's
 * counters and in those of the interface the packet was on: the one it
 * arrived on in the PRE_ROUTING hook and on forwarded encapsulations,
 * the route's device for locally sent ones, when the stack has set it.
 * An interface's counters are allocated at its first drop, so a router
 * with many interfaces and no drops spends nothing on them.
 */
#ifndef _SEG6X_IFDROPS_H
#define _SEG6X_IFDROPS_H

#include <linux/netdevice.h>
#include <net/netlink.h>

#include "pernet.h"

/* A packet counted under @why, on @dev (NULL: the namespace's only). */
void seg6x_drop_count(struct seg6x_net *sn, const struct net_device *dev,
		      enum seg6x_stat why);

/*
 * The interface's drop counters as a SEG6X_A_STATS nest (zeros if it
 * never dropped). Callers hold the genl mutex (against reset).
 */
int seg6x_ifdrops_put(struct sk_buff *msg, struct seg6x_net *sn,
		      int ifindex);
/* Every interface's counters start again from zero. genl mutex. */
void seg6x_ifdrops_reset(struct seg6x_net *sn);

int seg6x_ifdrops_register(void);
void seg6x_ifdrops_unregister(void);

#endif /* _SEG6X_IFDROPS_H */

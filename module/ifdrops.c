// SPDX-License-Identifier: GPL-2.0
/*
 * ifdrops.c - per-interface drop counters.
 *
 * Each namespace keeps an xarray from ifindex to the interface's
 * counters, laid out as the namespace's own (struct seg6x_stats, per
 * CPU). Lookups are lock-free under RCU. The first drop on an interface
 * allocates its counters with GFP_ATOMIC, in softirq or process context
 * (hence the _bh xarray locking); of two CPUs racing to do so, the first
 * to store wins and the other frees its copy. A failed allocation only
 * loses the interface's count: the namespace's is kept first.
 *
 * The netdevice notifier erases an interface's entry when it goes (or
 * leaves the namespace) and frees it after a grace period, so a reused
 * ifindex starts from zero. A drop racing with the unregistration may
 * store a fresh entry just after the erase: it lives until the namespace
 * goes, harmless.
 */
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "ifdrops.h"

struct seg6x_ifdrops {
	struct seg6x_stats stats;
	struct rcu_head rcu;
};

/*
 * The counters kept per interface: every reason seg6x drops a packet for.
 * Not DROP_DISABLED: those packets are handed back to the stack (the
 * in-tree seg6's, on a node that runs both), and counting them here
 * would cost each of them a lookup.
 */
static bool seg6x_stat_is_drop(unsigned int i)
{
	return (i > SEG6X_STAT_DROP_DISABLED && i <= SEG6X_STAT_DROP_NOMEM) ||
	       i == SEG6X_STAT_DROP_SID;
}

static void seg6x_ifdrops_free_rcu(struct rcu_head *head)
{
	struct seg6x_ifdrops *d = container_of(head, struct seg6x_ifdrops, rcu);

	seg6x_stats_free(&d->stats);	/* free_percpu(): any context */
	kfree(d);
}

/* Called under RCU; returns the entry stored for @ifindex, or NULL. */
static struct seg6x_ifdrops *seg6x_ifdrops_new(struct seg6x_net *sn,
					       int ifindex)
{
	struct seg6x_ifdrops *d, *old;

	d = kzalloc(sizeof(*d), GFP_ATOMIC);
	if (!d)
		return NULL;
	if (seg6x_stats_init_gfp(&d->stats, GFP_ATOMIC)) {
		kfree(d);
		return NULL;
	}
	old = xa_cmpxchg_bh(&sn->ifdrops, ifindex, NULL, d, GFP_ATOMIC);
	if (!old)
		return d;
	seg6x_stats_free(&d->stats);
	kfree(d);
	return xa_is_err(old) ? NULL : old;
}

void seg6x_drop_count(struct seg6x_net *sn, const struct net_device *dev,
		      enum seg6x_stat why)
{
	struct seg6x_ifdrops *d;

	seg6x_stats_inc(&sn->stats, why);
	if (!seg6x_stat_is_drop(why) || !dev || dev->ifindex <= 0 ||
	    READ_ONCE(dev->reg_state) != NETREG_REGISTERED)
		return;

	rcu_read_lock();
	d = xa_load(&sn->ifdrops, dev->ifindex);
	if (!d)
		d = seg6x_ifdrops_new(sn, dev->ifindex);
	if (d)
		seg6x_stats_inc(&d->stats, why);
	rcu_read_unlock();
}

int seg6x_ifdrops_put(struct sk_buff *msg, struct seg6x_net *sn, int ifindex)
{
	u64 val[SEG6X_STAT_MAX + 1] = {};
	struct seg6x_ifdrops *d;
	struct nlattr *nest;
	unsigned int i;

	rcu_read_lock();
	d = xa_load(&sn->ifdrops, ifindex);
	if (d)
		seg6x_stats_read(&d->stats, val);
	rcu_read_unlock();

	nest = nla_nest_start(msg, SEG6X_A_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i <= SEG6X_STAT_MAX; i++) {
		if (seg6x_stat_is_drop(i) &&
		    nla_put_u64_64bit(msg, i, val[i], SEG6X_STAT_PAD)) {
			nla_nest_cancel(msg, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(msg, nest);
	return 0;
}

void seg6x_ifdrops_reset(struct seg6x_net *sn)
{
	struct seg6x_ifdrops *d;
	unsigned long ifindex;

	/* RCU keeps an entry erased meanwhile alive until we are done. */
	rcu_read_lock();
	xa_for_each(&sn->ifdrops, ifindex, d)
		seg6x_stats_reset(&d->stats);
	rcu_read_unlock();
}

static int __net_init seg6x_ifdrops_net_init(struct net *net)
{
	xa_init_flags(&seg6x_pernet(net)->ifdrops, XA_FLAGS_LOCK_BH);
	return 0;
}

static void __net_exit seg6x_ifdrops_net_exit(struct net *net)
{
	struct xarray *xa = &seg6x_pernet(net)->ifdrops;
	struct seg6x_ifdrops *d;
	unsigned long ifindex;

	xa_for_each(xa, ifindex, d)
		call_rcu(&d->rcu, seg6x_ifdrops_free_rcu);
	xa_destroy(xa);
}

static struct pernet_operations seg6x_ifdrops_net_ops = {
	.init = seg6x_ifdrops_net_init,
	.exit = seg6x_ifdrops_net_exit,
};

static int seg6x_ifdrops_netdev_event(struct notifier_block *nb,
				      unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct seg6x_ifdrops *d;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	d = xa_erase_bh(&seg6x_pernet(dev_net(dev))->ifdrops, dev->ifindex);
	if (d)
		call_rcu(&d->rcu, seg6x_ifdrops_free_rcu);
	return NOTIFY_DONE;
}

static struct notifier_block seg6x_ifdrops_netdev_nb = {
	.notifier_call = seg6x_ifdrops_netdev_event,
};

int seg6x_ifdrops_register(void)
{
	return seg6x_subsys_register(&seg6x_ifdrops_net_ops,
				     &seg6x_ifdrops_netdev_nb);
}

void seg6x_ifdrops_unregister(void)
{
	seg6x_subsys_unregister(&seg6x_ifdrops_net_ops,
				&seg6x_ifdrops_netdev_nb);
	rcu_barrier();	/* the frees queued above run before the module goes */
}

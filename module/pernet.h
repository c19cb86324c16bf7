/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pernet.h - seg6x's state in each network namespace.
 */
#ifndef _SEG6X_PERNET_H
#define _SEG6X_PERNET_H

#include <linux/in6.h>
#include <linux/mutex.h>
#include <linux/netfilter.h>
#include <linux/rcupdate.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "stats.h"

struct seg6x_sid_table;

struct seg6x_tunsrc {
	struct in6_addr addr;
	struct rcu_head rcu;
};

struct seg6x_hmac_key;

struct seg6x_net {
	/* Tunnel source; :: means "pick one on the outgoing interface".
	 * Readers: RCU (LWT fast path). Writers: the genl mutex.
	 */
	struct seg6x_tunsrc __rcu *tunsrc;

	/* Policy for interfaces without their own setting. Plain ints
	 * read with READ_ONCE() on the fast path.
	 */
	int def_enabled;
	int def_require_hmac;

	/* ifindex -> packed explicit per-interface policy (policy.c). */
	struct xarray ifpolicy;

	/* ifindex -> the interface's drop counters (ifdrops.c). */
	struct xarray ifdrops;

	/* key id -> struct seg6x_hmac_key * (hmac.c). RCU readers. */
	struct xarray hmac_keys;
	/* The key set last, found without the xarray walk (hmac.c). */
	struct seg6x_hmac_key __rcu *hmac_recent;

	struct seg6x_stats stats;

	/* Local SID table (sid_table.c), allocated with the first SID.
	 * nsids is read first on the fast path: a namespace without SIDs
	 * goes no further. Writers hold RTNL.
	 */
	struct seg6x_sid_table __rcu *sids;
	unsigned int nsids;

	/* The PRE_ROUTING hook, registered at first use with this state as
	 * its priv (seg6x_input_use()): the hook needs no lookup to find it.
	 */
	struct nf_hook_ops input_ops;

	/* Hooks registered (seg6x_input_use(), seg6x_sock_sign_use()). */
	bool input_on;
	bool sock_sign_on;
};

extern unsigned int seg6x_net_id;

static inline struct seg6x_net *seg6x_pernet(const struct net *net)
{
	return net_generic(net, seg6x_net_id);
}

/*
 * The same from inside an RCU read-side section, which the receive path
 * holds: net_generic() without a read section of its own, which would
 * cost a packet more than the lookup itself.
 */
static inline struct seg6x_net *seg6x_pernet_rcu(const struct net *net)
{
	return rcu_dereference(net->gen)->ptr[seg6x_net_id];
}

int seg6x_pernet_register(void);

void seg6x_pernet_unregister(void);

/*
 * A subsystem's per-namespace state and the netdevice notifier that
 * forgets its per-interface entries, registered together (in that order,
 * and undone in the reverse one).
 */
int seg6x_subsys_register(struct pernet_operations *ops,
			  struct notifier_block *netdev_nb);
void seg6x_subsys_unregister(struct pernet_operations *ops,
			     struct notifier_block *netdev_nb);

/*
 * Tunnel source, for the packet path: lwtunnel_input()/lwtunnel_output()
 * and nf_hook() call seg6x with rcu_read_lock() held, so a read section
 * of its own (two calls on a preemptible-RCU kernel) would be pure cost.
 */
static inline void seg6x_tunsrc_get_rcu(struct seg6x_net *sn,
					struct in6_addr *out)
{
	*out = rcu_dereference(sn->tunsrc)->addr;
}

/* The same from anywhere (netlink requests). */
static inline void seg6x_tunsrc_get(struct seg6x_net *sn,
				    struct in6_addr *out)
{
	rcu_read_lock();
	seg6x_tunsrc_get_rcu(sn, out);
	rcu_read_unlock();
}

int seg6x_tunsrc_set(struct seg6x_net *sn, const struct in6_addr *addr);

#endif /* _SEG6X_PERNET_H */

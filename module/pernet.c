// SPDX-License-Identifier: GPL-2.0
/*
 * pernet.c - per-network-namespace state: creation, teardown, tunnel source.
 */
#include <linux/slab.h>

#include "pernet.h"
#include "params.h"

unsigned int seg6x_net_id __read_mostly;

/* Caller holds the genl mutex (the only writer). */
int seg6x_tunsrc_set(struct seg6x_net *sn, const struct in6_addr *addr)
{
	struct seg6x_tunsrc *new, *old;

	new = kzalloc(sizeof(*new), GFP_KERNEL_ACCOUNT);
	if (!new)
		return -ENOMEM;
	new->addr = *addr;

	old = rcu_replace_pointer(sn->tunsrc, new, true);
	kfree_rcu(old, rcu);
	return 0;
}

static int __net_init seg6x_net_init(struct net *net)
{
	struct seg6x_net *sn = seg6x_pernet(net);
	struct seg6x_tunsrc *ts;
	int err;

	ts = kzalloc(sizeof(*ts), GFP_KERNEL_ACCOUNT);
	if (!ts)
		return -ENOMEM;
	RCU_INIT_POINTER(sn->tunsrc, ts);

	/* Every new namespace starts from the module parameters. */
	sn->def_enabled = seg6x_param_enabled;
	sn->def_require_hmac = seg6x_param_require_hmac;

	err = seg6x_stats_init(&sn->stats);
	if (err)
		goto err_tunsrc;
	return 0;

err_tunsrc:
	kfree(rcu_dereference_protected(sn->tunsrc, true));
	return err;
}

/*
 * Registered first, so this runs last: after every subsystem's own exit
 * (hmac.c, policy.c, sid_table.c), each after the hooks' pre_exit
 * unhooked the namespace and an RCU grace period passed.
 */
static void __net_exit seg6x_net_exit(struct net *net)
{
	struct seg6x_net *sn = seg6x_pernet(net);

	seg6x_stats_free(&sn->stats);
	kfree(rcu_dereference_protected(sn->tunsrc, true));
}

static struct pernet_operations seg6x_net_ops = {
	.init = seg6x_net_init,
	.exit = seg6x_net_exit,
	.id = &seg6x_net_id,
	.size = sizeof(struct seg6x_net),
};

int seg6x_pernet_register(void)
{
	return register_pernet_subsys(&seg6x_net_ops);
}

void seg6x_pernet_unregister(void)
{
	unregister_pernet_subsys(&seg6x_net_ops);
}

int seg6x_subsys_register(struct pernet_operations *ops,
			  struct notifier_block *netdev_nb)
{
	int err;

	err = register_pernet_subsys(ops);
	if (err)
		return err;
	err = register_netdevice_notifier(netdev_nb);
	if (err)
		unregister_pernet_subsys(ops);
	return err;
}

void seg6x_subsys_unregister(struct pernet_operations *ops,
			     struct notifier_block *netdev_nb)
{
	unregister_netdevice_notifier(netdev_nb);
	unregister_pernet_subsys(ops);
}

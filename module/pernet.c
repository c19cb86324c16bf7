// SPDX-License-Identifier: GPL-2.0
/*
 * pernet.c - per-network-namespace state: creation, teardown, tunnel source.
 */
#include <linux/slab.h>
#include <net/netfilter/ipv6/nf_defrag_ipv6.h>

#include "pernet.h"
#include "params.h"
#include "input.h"
#include "output.h"
#include "hmac.h"
#include "policy.h"

unsigned int seg6x_net_id __read_mostly;

void seg6x_tunsrc_get(struct seg6x_net *sn, struct in6_addr *out)
{
	const struct seg6x_tunsrc *ts;

	rcu_read_lock();
	ts = rcu_dereference(sn->tunsrc);
	*out = ts->addr;
	rcu_read_unlock();
}

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

/*
 * Netfilter hooks are registered on first use, not with the namespace:
 * a namespace where seg6x is loaded but not used runs none of its code
 * per packet. Callers hold the genl mutex (or run from namespace init,
 * before userspace can reach it); hooks stay until the namespace or the
 * module goes away.
 */
int seg6x_net_use_input(struct net *net)
{
	struct seg6x_net *sn = seg6x_pernet(net);
	int err;

	if (sn->input_on)
		return 0;
	/* Reassemble before the endpoint sees packets (defrag runs at
	 * -400, seg6x at -350), with or without conntrack: a fragmented
	 * payload behind an SRH can only be decapsulated whole.
	 */
	err = nf_defrag_ipv6_enable(net);
	if (err)
		return err;
	err = seg6x_input_net_init(net);
	if (err) {
		nf_defrag_ipv6_disable(net);
		return err;
	}
	sn->input_on = true;
	return 0;
}

int seg6x_net_use_output(struct net *net)
{
	struct seg6x_net *sn = seg6x_pernet(net);
	int err;

	if (sn->output_on)
		return 0;
	err = seg6x_output_net_init(net);
	if (!err)
		sn->output_on = true;
	return err;
}

static void seg6x_net_hooks_off(struct net *net)
{
	struct seg6x_net *sn = seg6x_pernet(net);

	if (sn->output_on)
		seg6x_output_net_exit(net);
	if (sn->input_on) {
		seg6x_input_net_exit(net);
		nf_defrag_ipv6_disable(net);
	}
	sn->input_on = false;
	sn->output_on = false;
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
	xa_init(&sn->ifpolicy);
	xa_init(&sn->hmac_keys);

	err = seg6x_stats_init(&sn->stats);
	if (err)
		goto err_tunsrc;

	/* Last: from here on packets reach our state. */
	if (sn->def_enabled) {
		err = seg6x_net_use_input(net);
		if (err)
			goto err_stats;
	}
	return 0;

err_stats:
	seg6x_stats_free(&sn->stats);
err_tunsrc:
	kfree(rcu_dereference_protected(sn->tunsrc, true));
	return err;
}

/*
 * nf_unregister_net_hooks() does not wait for hooks running on other
 * CPUs. Unhooking here, in pre_exit, lets the namespace core's RCU grace
 * period between pre_exit and exit do that wait (for netns dismantle and
 * for module unload alike), before exit frees what the hooks use.
 */
static void __net_exit seg6x_net_pre_exit(struct net *net)
{
	seg6x_net_hooks_off(net);
}

/*
 * Runs after pre_exit and a grace period, and after the namespace's
 * devices are gone (device ops exit first), so no packet can reach our
 * hooks or LWT states any more.
 */
static void __net_exit seg6x_net_exit(struct net *net)
{
	struct seg6x_net *sn = seg6x_pernet(net);

	seg6x_hmac_net_exit(sn);
	seg6x_policy_net_exit(sn);
	seg6x_stats_free(&sn->stats);
	kfree(rcu_dereference_protected(sn->tunsrc, true));
}

static struct pernet_operations seg6x_net_ops = {
	.init = seg6x_net_init,
	.pre_exit = seg6x_net_pre_exit,
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

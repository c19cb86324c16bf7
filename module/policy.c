// SPDX-License-Identifier: GPL-2.0
/*
 * policy.c - per-interface policy.
 *
 * Explicit settings live in an xarray indexed by ifindex, as small packed
 * values (no allocation per entry, lock-free lookups under RCU). A field
 * left unset follows the namespace default, so changing "default" later
 * affects every interface that has no setting of its own. A netdevice
 * notifier drops the entry when the interface goes away, so a reused
 * ifindex never inherits a stale setting.
 */
#include <linux/rtnetlink.h>

#include "policy.h"

/*
 * Packed value: bits 0-1 enabled (0 unset, else value + 1),
 * bits 2-3 require_hmac (0 unset, else value + 2).
 */
#define PK_EN_MASK	0x3UL
#define PK_HMAC_SHIFT	2
#define PK_HMAC_MASK	(0x3UL << PK_HMAC_SHIFT)

void seg6x_policy_get(struct seg6x_net *sn, int ifindex,
		      struct seg6x_policy *out)
{
	unsigned long v = 0;
	void *entry;

	out->enabled = READ_ONCE(sn->def_enabled);
	out->require_hmac = READ_ONCE(sn->def_require_hmac);
	out->explicit_enabled = false;
	out->explicit_hmac = false;

	if (ifindex > 0) {
		entry = xa_load(&sn->ifpolicy, ifindex);
		if (entry)
			v = xa_to_value(entry);
	}
	if (v & PK_EN_MASK) {
		out->enabled = (v & PK_EN_MASK) - 1;
		out->explicit_enabled = true;
	}
	if (v & PK_HMAC_MASK) {
		out->require_hmac = (int)((v & PK_HMAC_MASK) >> PK_HMAC_SHIFT) - 2;
		out->explicit_hmac = true;
	}
}

int seg6x_policy_set(struct seg6x_net *sn, int ifindex, int enabled,
		     int require_hmac)
{
	unsigned long v = 0;
	void *entry;

	ASSERT_RTNL();

	if (ifindex == 0) {
		if (enabled != SEG6X_POLICY_KEEP)
			WRITE_ONCE(sn->def_enabled, enabled);
		if (require_hmac != SEG6X_POLICY_KEEP)
			WRITE_ONCE(sn->def_require_hmac, require_hmac);
		return 0;
	}

	entry = xa_load(&sn->ifpolicy, ifindex);
	if (entry)
		v = xa_to_value(entry);
	if (enabled != SEG6X_POLICY_KEEP)
		v = (v & ~PK_EN_MASK) | (unsigned long)(enabled + 1);
	if (require_hmac != SEG6X_POLICY_KEEP)
		v = (v & ~PK_HMAC_MASK) |
		    ((unsigned long)(require_hmac + 2) << PK_HMAC_SHIFT);

	return xa_err(xa_store(&sn->ifpolicy, ifindex, xa_mk_value(v),
			       GFP_KERNEL));
}

static int __net_init seg6x_policy_net_init(struct net *net)
{
	xa_init(&seg6x_pernet(net)->ifpolicy);
	return 0;
}

static void __net_exit seg6x_policy_net_exit(struct net *net)
{
	xa_destroy(&seg6x_pernet(net)->ifpolicy);
}

static struct pernet_operations seg6x_policy_net_ops = {
	.init = seg6x_policy_net_init,
	.exit = seg6x_policy_net_exit,
};

static int seg6x_netdev_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	/* Also covers a device leaving the namespace (it re-registers
	 * in the new one and starts from that namespace's default).
	 */
	if (event == NETDEV_UNREGISTER)
		xa_erase(&seg6x_pernet(dev_net(dev))->ifpolicy, dev->ifindex);
	return NOTIFY_DONE;
}

static struct notifier_block seg6x_netdev_nb = {
	.notifier_call = seg6x_netdev_event,
};

int seg6x_policy_register(void)
{
	return seg6x_subsys_register(&seg6x_policy_net_ops, &seg6x_netdev_nb);
}

void seg6x_policy_unregister(void)
{
	seg6x_subsys_unregister(&seg6x_policy_net_ops, &seg6x_netdev_nb);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - seg6x module init and exit: wiring only.
 *
 * Order matters: per-namespace state first (pernet.c's, which allocates
 * the namespace's struct seg6x_net, then each subsystem's own pernet ops,
 * with the netdevice notifiers that keep them in step with devices),
 * then what uses it (the hooks' pernet ops, whose pre_exit unhooks
 * before the state is freed), the LWT ops, and last the genl family, so
 * that userspace reaches the module only once everything is ready. Exit
 * undoes it in reverse.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <net/genetlink.h>

#include "genl.h"
#include "hmac.h"
#include "ifdrops.h"
#include "input.h"
#include "lwt.h"
#include "sock_sign.h"
#include "params.h"
#include "pernet.h"
#include "policy.h"
#include "sid.h"

static int __init seg6x_init(void)
{
	int err;

	err = seg6x_pernet_register();
	if (err)
		goto err_out;
	err = seg6x_ifdrops_register();
	if (err)
		goto err_pernet;
	err = seg6x_hmac_register();
	if (err)
		goto err_ifdrops;
	err = seg6x_policy_register();
	if (err)
		goto err_hmac;
	err = seg6x_sid_register();
	if (err)
		goto err_policy;
	err = seg6x_input_register();
	if (err)
		goto err_sid;
	err = seg6x_sock_sign_register();
	if (err)
		goto err_input;
	err = seg6x_lwt_register(seg6x_param_lwt_type);
	if (err)
		goto err_sock_sign;
	err = seg6x_genl_register();
	if (err)
		goto err_lwt;

	pr_info("seg6x %s loaded (LWT encap type %d)\n", SEG6X_VERSION,
		seg6x_lwt_slot());
	return 0;

err_lwt:
	seg6x_lwt_unregister();
err_sock_sign:
	seg6x_sock_sign_unregister();
err_input:
	seg6x_input_unregister();
err_sid:
	seg6x_sid_unregister();
err_policy:
	seg6x_policy_unregister();
err_hmac:
	seg6x_hmac_unregister();
err_ifdrops:
	seg6x_ifdrops_unregister();
err_pernet:
	seg6x_pernet_unregister();
err_out:
	return err;
}

/*
 * The hooks go before the netdevice notifiers: unregistering a notifier
 * replays NETDEV_UNREGISTER for every device, which erases each
 * interface's policy (and marks SIDs dead). With the hooks still in,
 * packets would meanwhile meet the namespace default, e.g. unsigned SR
 * packets pass an interface that requires an HMAC.
 */
static void __exit seg6x_exit(void)
{
	seg6x_genl_unregister();
	seg6x_lwt_unregister();
	seg6x_sock_sign_unregister();
	seg6x_input_unregister();
	seg6x_sid_unregister();
	seg6x_policy_unregister();
	seg6x_hmac_unregister();
	seg6x_ifdrops_unregister();
	seg6x_pernet_unregister();
}

module_init(seg6x_init);
module_exit(seg6x_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("IPv6 Segment Routing (SRv6) for stock kernels");
MODULE_VERSION(SEG6X_VERSION);
MODULE_AUTHOR("The seg6x developers");
/* The first SEG6X request (seg6ctl) loads the module. */
MODULE_ALIAS_GENL_FAMILY(SEG6X_GENL_NAME);

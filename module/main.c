// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - seg6x module init/exit and parameters. Wiring only.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <net/genetlink.h>
#include <net/lwtunnel.h>

#include "genl.h"
#include "hmac.h"
#include "lwt.h"
#include "params.h"
#include "pernet.h"
#include "policy.h"

int seg6x_param_enabled;
int seg6x_param_require_hmac;
int seg6x_param_allow_inline = 1;
int seg6x_param_lwt_type;

/*
 * Parameters are validated, never clamped: a bad value fails modprobe with
 * a log line naming the parameter and its range.
 */
static int seg6x_param_set_range(const char *val,
				 const struct kernel_param *kp,
				 int min, int max)
{
	int v, err;

	err = kstrtoint(val, 0, &v);
	if (err || v < min || v > max) {
		pr_err("invalid value '%s' for parameter %s (allowed: %d..%d)\n",
		       val, kp->name, min, max);
		return -EINVAL;
	}
	*(int *)kp->arg = v;
	return 0;
}

#define SEG6X_PARAM_OPS(name, min, max)					\
static int seg6x_param_set_##name(const char *val,			\
				  const struct kernel_param *kp)	\
{									\
	return seg6x_param_set_range(val, kp, min, max);		\
}									\
static const struct kernel_param_ops seg6x_param_ops_##name = {		\
	.set = seg6x_param_set_##name,					\
	.get = param_get_int,						\
}

SEG6X_PARAM_OPS(bool01, 0, 1);
SEG6X_PARAM_OPS(hmac, -1, 1);
SEG6X_PARAM_OPS(lwt, 0, LWTUNNEL_ENCAP_MAX);

module_param_cb(seg6_enabled, &seg6x_param_ops_bool01, &seg6x_param_enabled,
		0444);
MODULE_PARM_DESC(seg6_enabled,
		 "Default for interfaces without their own setting: accept (1) or leave alone (0) SR packets addressed to this node (default 0)");
module_param_cb(seg6_require_hmac, &seg6x_param_ops_hmac,
		&seg6x_param_require_hmac, 0444);
MODULE_PARM_DESC(seg6_require_hmac,
		 "Default HMAC policy: -1 ignore, 0 verify when present, 1 require (default 0)");
module_param_cb(allow_inline, &seg6x_param_ops_bool01,
		&seg6x_param_allow_inline, 0444);
MODULE_PARM_DESC(allow_inline,
		 "Allow inline (SRH insertion) routes (default 1)");
module_param_cb(lwt_type, &seg6x_param_ops_lwt, &seg6x_param_lwt_type, 0444);
MODULE_PARM_DESC(lwt_type,
		 "Lightweight-tunnel encap slot to claim: 0 = first free one (default 0)");

static int __init seg6x_init(void)
{
	int err;

	err = seg6x_hmac_init();
	if (err)
		goto err_out;
	err = seg6x_pernet_register();
	if (err)
		goto err_hmac;
	err = seg6x_policy_register();
	if (err)
		goto err_pernet;
	err = seg6x_lwt_register(seg6x_param_lwt_type);
	if (err)
		goto err_policy;
	/* Last: userspace can only reach us once everything is ready. */
	err = seg6x_genl_register();
	if (err)
		goto err_lwt;

	pr_info("seg6x %s loaded (LWT encap type %d)\n", SEG6X_VERSION,
		seg6x_lwt_slot());
	return 0;

err_lwt:
	seg6x_lwt_unregister();
err_policy:
	seg6x_policy_unregister();
err_pernet:
	seg6x_pernet_unregister();
err_hmac:
	seg6x_hmac_exit();
err_out:
	return err;
}

static void __exit seg6x_exit(void)
{
	seg6x_genl_unregister();
	seg6x_lwt_unregister();
	seg6x_policy_unregister();
	seg6x_pernet_unregister();
	seg6x_hmac_exit();
}

module_init(seg6x_init);
module_exit(seg6x_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("IPv6 Segment Routing (SRv6) for stock kernels");
MODULE_VERSION(SEG6X_VERSION);
MODULE_AUTHOR("The seg6x developers");
/* The first SEG6X request (seg6ctl) loads the module. */
MODULE_ALIAS_GENL_FAMILY(SEG6X_GENL_NAME);

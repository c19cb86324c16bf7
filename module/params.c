// SPDX-License-Identifier: GPL-2.0
/*
 * params.c - module parameters. Read-only once the module is loaded; each
 * new network namespace starts its defaults from them.
 */
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <net/lwtunnel.h>

#include "params.h"

int seg6x_param_enabled;
int seg6x_param_require_hmac;
int seg6x_param_allow_inline = 1;
int seg6x_param_lwt_type;
int seg6x_param_sid_max = SEG6X_SID_MAX_DEFAULT;

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
SEG6X_PARAM_OPS(sid_max, 0, INT_MAX);

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
module_param_cb(sid_max, &seg6x_param_ops_sid_max, &seg6x_param_sid_max,
		0444);
MODULE_PARM_DESC(sid_max,
		 "Local SIDs per network namespace, at most (default 262144)");

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * policy.h - per-interface accept and HMAC policy.
 */
#ifndef _SEG6X_POLICY_H
#define _SEG6X_POLICY_H

#include <linux/netdevice.h>
#include "pernet.h"

/* "Not given" for seg6x_policy_set() arguments. */
#define SEG6X_POLICY_KEEP	INT_MIN

struct seg6x_policy {
	int enabled;		/* 0 or 1 */
	int require_hmac;	/* -1, 0 or 1 */
	bool explicit_enabled;
	bool explicit_hmac;
};

/* Effective policy of an interface; RCU-safe, any context. */
void seg6x_policy_get(struct seg6x_net *sn, int ifindex,
		      struct seg6x_policy *out);
/* ifindex 0 sets the namespace default. Caller holds RTNL. */
int seg6x_policy_set(struct seg6x_net *sn, int ifindex, int enabled,
		     int require_hmac);

int seg6x_policy_register(void);
void seg6x_policy_unregister(void);

#endif /* _SEG6X_POLICY_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sid_netlink.h - the SID commands of the SEG6X family (sid_netlink.c).
 * The genl layer holds the genl mutex; these take RTNL for the table.
 */
#ifndef _SEG6X_SID_NETLINK_H
#define _SEG6X_SID_NETLINK_H

#include <net/genetlink.h>

int seg6x_nl_sid_set(struct sk_buff *skb, struct genl_info *info);
int seg6x_nl_sid_del(struct sk_buff *skb, struct genl_info *info);
int seg6x_nl_sid_get(struct sk_buff *skb, struct genl_info *info);
int seg6x_nl_sid_dump(struct sk_buff *skb, struct netlink_callback *cb);
int seg6x_nl_sid_flush(struct sk_buff *skb, struct genl_info *info);

#endif /* _SEG6X_SID_NETLINK_H */

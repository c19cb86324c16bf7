/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Netlink plumbing: the SEG6X generic netlink family and rtnetlink routes.
 *
 * Object files get a message from genl_msg()/rt_msg(), add attributes
 * with libnl's nla_put_*() helpers, and hand it to genl_talk()/rt_talk(),
 * which send it, feed each reply to a callback as parsed attributes, and
 * wait for the kernel's acknowledgement. Failures are reported on stderr
 * (with the kernel's extended ack text) and returned as EXIT_FAIL.
 */
#ifndef SEG6CTL_NL_H
#define SEG6CTL_NL_H

#include <stdint.h>
#include <linux/rtnetlink.h>
#include <linux/seg6x.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

/*
 * Reply callbacks return 0 to go on, or a negative errno to stop handing
 * replies over; the request then fails with that error.
 */
typedef int (*genl_reply_fn)(struct nlattr **tb, void *arg);	/* SEG6X_A_MAX */
typedef int (*rt_reply_fn)(const struct rtmsg *rtm, struct nlattr **tb,
			   void *arg);				/* RTA_MAX */

/* Moves the process into /run/netns/@name; call before any socket. */
int enter_netns(const char *name);

/*
 * A SEG6X request; @flags is 0 or NLM_F_DUMP. NULL after reporting why,
 * e.g. that the module is not loaded.
 */
struct nl_msg *genl_msg(uint8_t cmd, int flags);
/* Sends and frees @msg (wiping it: it may hold an HMAC secret). */
int genl_talk(struct nl_msg *msg, genl_reply_fn cb, void *arg);

/* An rtnetlink request; NULL after reporting why. */
struct nl_msg *rt_msg(int type, int flags, const struct rtmsg *rtm);
/* Sends and frees @msg. */
int rt_talk(struct nl_msg *msg, rt_reply_fn cb, void *arg);

/* Frees @msg that an attribute did not fit in; reports, returns EXIT_FAIL. */
int msg_abort(struct nl_msg *msg);

void close_sockets(void);

#endif /* SEG6CTL_NL_H */

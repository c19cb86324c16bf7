/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside seg6ctl's netlink layer (ctl*.c): the transport of ctl_nl.c, and
 * the error state that ctl.c keeps for ctl_error()/ctl_extack().
 *
 * ctl.c and ctl_route.c get a message from ctl_genl_msg()/ctl_rt_msg(),
 * add attributes with libnl's nla_put_*(), and hand it to
 * ctl_genl_talk()/ctl_rt_talk(), which send it, feed each reply to a
 * callback as parsed attributes, and wait for the kernel's ack. All
 * return 0 or a negative errno, with the error state set.
 */
#ifndef SEG6CTL_CTL_NL_H
#define SEG6CTL_CTL_NL_H

#include <stdint.h>
#include <linux/rtnetlink.h>
#include <linux/seg6x.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#ifndef PRINTF_LIKE
#define PRINTF_LIKE(fmt, args) __attribute__((format(printf, fmt, args)))
#endif

/*
 * Reply callbacks return 0 to go on, or a negative errno to stop handing
 * replies over; the request then fails with that error.
 */
typedef int (*ctl_genl_reply_fn)(struct nlattr **tb, void *arg);	/* SEG6X_A_MAX */
typedef int (*ctl_rt_reply_fn)(const struct rtmsg *rtm, struct nlattr **tb,
			       void *arg);				/* RTA_MAX */

/* A SEG6X request in *@msg; @flags is 0 or NLM_F_DUMP. */
int ctl_genl_msg(uint8_t cmd, int flags, struct nl_msg **msg);
/* Sends and frees @msg (wiping it: it may hold an HMAC secret). */
int ctl_genl_talk(struct nl_msg *msg, ctl_genl_reply_fn cb, void *arg);

/* An rtnetlink request in *@msg. */
int ctl_rt_msg(int type, int flags, const struct rtmsg *rtm, struct nl_msg **msg);
/* Sends and frees @msg. */
int ctl_rt_talk(struct nl_msg *msg, ctl_rt_reply_fn cb, void *arg);

/* Error state (ctl.c) */

/* Forgets the last failure: each request starts with it. */
void ctl_clear_error(void);
/* Sets ctl_error() to the message; returns @err. */
int ctl_fail(int err, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Keeps @text as ctl_extack(). */
void ctl_set_extack(const char *text);
/* Passes a warning to the ctl_on_warning() function. */
void ctl_warn(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* Frees @msg that an attribute did not fit in; returns -EMSGSIZE. */
int ctl_msg_abort(struct nl_msg *msg);

/*
 * Replies collected into an array of @size-byte items that grows; start
 * with all zero but @size.
 */
struct ctl_list {
	void *items;
	size_t n, cap, size;
};

/* A new zeroed item at the end of @l, or NULL. */
void *ctl_list_add(struct ctl_list *l);
/* Hands @l's items to the caller, or frees them if @err; returns @err. */
int ctl_list_end(int err, struct ctl_list *l, void **items, size_t *n);

#endif /* SEG6CTL_CTL_NL_H */

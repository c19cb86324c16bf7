/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside libseg6x (ctl*.c): the handle, the netlink transport (ctl_nl.c)
 * and the error state (ctl_err.c), which call nothing above them.
 *
 * ctl.c, ctl_sid.c and ctl_route.c get a message from
 * ctl_genl_msg()/ctl_rt_msg(), add attributes with libnl's nla_put_*(),
 * and hand it to ctl_genl_talk()/ctl_rt_talk(), which send it, feed each
 * reply to a callback as parsed attributes, and wait for the kernel's
 * ack. All return 0 or a negative errno, with the error state set.
 */
#ifndef LIBSEG6X_CTL_NL_H
#define LIBSEG6X_CTL_NL_H

#include <stdint.h>
#include <linux/rtnetlink.h>
#include <linux/seg6x.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "libseg6x.h"

#ifndef PRINTF_LIKE
#define PRINTF_LIKE(fmt, args) __attribute__((format(printf, fmt, args)))
#endif

struct ctl {
	struct nl_sock *genl_sk;	/* opened on first use */
	struct nl_sock *rtnl_sk;
	/* ctl_monitor_open(): event sockets, and where events go */
	struct nl_sock *mon_genl_sk;
	struct nl_sock *mon_rtnl_sk;
	uint16_t mon_lwt_type;		/* seg6x's routes */
	unsigned int mon_objects;	/* CTL_MONITOR_* */
	int family;			/* SEG6X's id; 0 until resolved */
	bool cache_lwt_type;		/* ctl_set_cache_lwt_type() */
	uint16_t lwt_type;		/* seg6x's slot, once asked; else 0 */
	uint32_t batch_seq;		/* ctl_rt_talk_batch()'s last */
	bool no_autoload;		/* !ctl_set_autoload() */
	bool dry_run;			/* ctl_set_dry_run() */
	int err;			/* ctl_errno() */
	char error[512];		/* ctl_error() */
	char extack[256];		/* ctl_extack() */
	void (*warn_fn)(const char *msg, void *arg);
	void *warn_arg;
};

/*
 * Reply callbacks return 0 to go on, or a negative errno to stop handing
 * replies over; the request then fails with that error.
 */
typedef int (*ctl_genl_reply_fn)(struct nlattr **tb, void *arg);	/* SEG6X_A_MAX */
typedef int (*ctl_rt_reply_fn)(const struct rtmsg *rtm, struct nlattr **tb,
			       void *arg);				/* RTA_MAX */

/* Opens *@skp for @protocol unless it is open. */
int ctl_open_socket(struct ctl *c, struct nl_sock **skp, int protocol);

/* A SEG6X message's or a route message's attributes; 0 or -EBADMSG. */
int ctl_genl_parse(struct nlmsghdr *nlh, struct nlattr **tb);	/* SEG6X_A_MAX */
int ctl_rt_parse(struct nlmsghdr *nlh, struct nlattr **tb);	/* RTA_MAX */

/* A SEG6X request in *@msg; @flags is 0 or NLM_F_DUMP. */
int ctl_genl_msg(struct ctl *c, uint8_t cmd, int flags, struct nl_msg **msg);
/* Sends and frees @msg (wiping it: it may hold an HMAC secret). */
int ctl_genl_talk(struct ctl *c, struct nl_msg *msg, ctl_genl_reply_fn cb,
		  void *arg);

/*
 * Room for the longest route request: the rtmsg, at most 9 attributes of
 * up to 20 bytes (destination, table, device, metric, next hop (RTA_VIA:
 * 18), encap type; mode, HMAC key and owner in the encap nest), the nest
 * and the segments. Only libnl's nla_put() checks it: a message that
 * outgrew it would fail with -EMSGSIZE, never be cut.
 */
#define CTL_RT_MSG_SIZE (NLMSG_SPACE(sizeof(struct rtmsg)) +		\
			 9 * NLA_ALIGN(NLA_HDRLEN + 20) +		\
			 2 * NLA_HDRLEN + SEG6X_MAX_SEGS * 16)

/* An rtnetlink request in *@msg, of CTL_RT_MSG_SIZE bytes at most. */
int ctl_rt_msg(struct ctl *c, int type, int flags, const struct rtmsg *rtm,
	       struct nl_msg **msg);
/* The same of @size bytes at most (a multipath route: one per path). */
int ctl_rt_msg_size(struct ctl *c, int type, int flags,
		    const struct rtmsg *rtm, size_t size, struct nl_msg **msg);
/* Sends and frees @msg. */
int ctl_rt_talk(struct ctl *c, struct nl_msg *msg, ctl_rt_reply_fn cb,
		void *arg);

/*
 * Sends and frees @n requests that expect no reply but an ack (deletes),
 * many to a sendmsg(): 0, or the first error, after the kernel handled
 * them all (those after a failed one too).
 */
int ctl_rt_talk_batch(struct ctl *c, struct nl_msg **msgs, size_t n);

/* Error state */

/* Forgets the last failure: each request starts with it. */
void ctl_clear_error(struct ctl *c);
/* Sets ctl_error() to the message; returns @err. */
int ctl_fail(struct ctl *c, int err, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* Keeps @text as ctl_extack() and @err as ctl_errno(); returns @err. */
int ctl_fail_extack(struct ctl *c, int err, const char *text);
/* Passes a warning to the ctl_on_warning() function. */
void ctl_warn(struct ctl *c, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Frees @msg that an attribute did not fit in; returns -EMSGSIZE. */
int ctl_msg_abort(struct ctl *c, struct nl_msg *msg);

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

/*
 * Decoders shared by the replies and the events (ctl_monitor.c): 0 or
 * -EBADMSG. ctl_route_decode() fills @r with which route it is, and its
 * paths if it is seg6x's (each with @lwt_type's encapsulation): 1 if it
 * is, 0 if not. A multipath route of more than CTL_MAX_PATHS paths is
 * -E2BIG.
 */
int ctl_key_decode(struct nlattr **tb, struct ctl_key *key);
int ctl_iface_decode(struct nlattr **tb, struct ctl_iface *iface);
int ctl_sid_decode(struct nlattr **tb, struct ctl_sid *s);
int ctl_route_decode(const struct rtmsg *rtm, struct nlattr **tb,
		     uint16_t lwt_type, struct ctl_route r[CTL_MAX_PATHS]);
/* A SEG6X_SID_CNT_* nest (a SID's or a route's): false if malformed. */
bool ctl_counters_decode(struct nlattr *nest, uint64_t *packets,
			 uint64_t *bytes, uint64_t *errors);

#endif /* LIBSEG6X_CTL_NL_H */

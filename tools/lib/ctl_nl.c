// SPDX-License-Identifier: GPL-2.0
/*
 * libseg6x's handle, its error state, and the netlink plumbing on
 * libnl-3: one lazily opened socket per protocol and handle, and one
 * request/reply loop that understands extended acks.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "ctl_nl.h"
#include "libseg6x.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* One request in flight and what came back for it. */
struct request {
	int (*handle)(struct nlmsghdr *nlh, void *arg);
	void *arg;
	bool done;		/* the ack, the error or the dump's end came */
	int error;		/* the kernel's verdict, a negative errno */
	int reply_error;	/* the handler's, a negative errno */
	bool interrupted;	/* the dump raced with a change */
	char extack[256];
};

static struct nla_policy extack_policy[NLMSGERR_ATTR_MAX + 1] = {
	[NLMSGERR_ATTR_MSG]	= { .type = NLA_STRING },
};

static struct nla_policy seg6x_policy[SEG6X_A_MAX + 1] = {
	[SEG6X_A_VERSION]		= { .type = NLA_STRING },
	[SEG6X_A_LWT_TYPE]		= { .type = NLA_U16 },
	[SEG6X_A_ALLOW_INLINE]		= { .type = NLA_U8 },
	[SEG6X_A_TUNSRC]		= { .minlen = sizeof(struct in6_addr) },
	[SEG6X_A_HMAC_KEYID]		= { .type = NLA_U32 },
	[SEG6X_A_HMAC_ALGO]		= { .type = NLA_U8 },
	[SEG6X_A_IFINDEX]		= { .type = NLA_U32 },
	[SEG6X_A_IFNAME]		= { .type = NLA_STRING },
	[SEG6X_A_SEG6_ENABLED]		= { .type = NLA_U8 },
	/* libnl 3.7 knows no minimum length for NLA_S8: spell it out. */
	[SEG6X_A_REQUIRE_HMAC]		= { .type = NLA_S8, .minlen = 1 },
	[SEG6X_A_STATS]			= { .type = NLA_NESTED },
	[SEG6X_A_MAX_SEGS]		= { .type = NLA_U32 },
	[SEG6X_A_DEF_SEG6_ENABLED]	= { .type = NLA_U8 },
	[SEG6X_A_DEF_REQUIRE_HMAC]	= { .type = NLA_S8, .minlen = 1 },
	[SEG6X_A_IFACE_EXPLICIT]	= { .type = NLA_U8 },
};

static struct nla_policy rt_policy[RTA_MAX + 1] = {
	[RTA_OIF]		= { .type = NLA_U32 },
	[RTA_PRIORITY]		= { .type = NLA_U32 },
	[RTA_TABLE]		= { .type = NLA_U32 },
	[RTA_ENCAP_TYPE]	= { .type = NLA_U16 },
	[RTA_ENCAP]		= { .type = NLA_NESTED },
};

static struct nla_policy ctrl_policy[CTRL_ATTR_MAX + 1] = {
	[CTRL_ATTR_FAMILY_ID]	= { .type = NLA_U16 },
};

/* The handle: its sockets are opened on first use */

struct ctl *ctl_new(void)
{
	return calloc(1, sizeof(struct ctl));
}

void ctl_free(struct ctl *c)
{
	if (!c)
		return;
	ctl_close(c);
	free(c);
}

/* Sockets */

int ctl_netns_enter(struct ctl *c, const char *name)
{
	char path[PATH_MAX];
	int fd, err = 0;

	ctl_clear_error(c);
	snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ctl_fail(c, -errno, "cannot open network namespace \"%s\": %s",
				name, strerror(errno));
	if (setns(fd, CLONE_NEWNET) < 0)
		err = ctl_fail(c, -errno, "cannot enter network namespace \"%s\": %s",
			       name, strerror(errno));
	close(fd);
	return err;
}

/* Opens *@skp for @protocol unless it is open. */
int ctl_open_socket(struct ctl *c, struct nl_sock **skp, int protocol)
{
	struct nl_sock *sk;
	int one = 1;
	int err;

	if (*skp)
		return 0;
	sk = nl_socket_alloc();
	if (!sk)
		return -ENOMEM;
	err = nl_connect(sk, protocol);
	if (err < 0) {
		nl_socket_free(sk);
		return ctl_fail(c, -EIO, "cannot open a netlink socket: %s",
				nl_geterror(err));
	}
	/*
	 * Ask for the kernel's error text, without our request echoed back.
	 * Kernels too old for these options just send bare errors, so a
	 * failure here is not worth reporting.
	 */
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	/* Route dumps can carry messages bigger than libnl's first guess. */
	nl_socket_enable_msg_peek(sk);
	*skp = sk;
	return 0;
}

/* Keeps the text of an error or done message's NLMSGERR_ATTR_MSG. */
static void save_extack(struct request *req, struct nlmsghdr *nlh,
			size_t fixed)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t payload = (size_t)nlmsg_datalen(nlh);

	fixed = NLMSG_ALIGN(fixed);
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || fixed >= payload)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX,
		      (struct nlattr *)((char *)nlmsg_data(nlh) + fixed),
		      (int)(payload - fixed), extack_policy) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(req->extack, sizeof(req->extack), "%s",
			 nla_get_string(tb[NLMSGERR_ATTR_MSG]));
}

/*
 * Reads an error or done message whole: libnl hands error callbacks only
 * the struct nlmsgerr, and ignores the errno that a failed dump puts in
 * NLMSG_DONE. on_msg_in() runs it before libnl's own handling of every
 * message; batch_wait() on what it reads itself.
 */
static void on_msg_in_hdr(struct request *req, struct nlmsghdr *nlh)
{
	size_t payload = (size_t)nlmsg_datalen(nlh);

	if (nlh->nlmsg_type == NLMSG_ERROR && payload >= sizeof(struct nlmsgerr)) {
		struct nlmsgerr *e = nlmsg_data(nlh);
		size_t fixed = sizeof(*e);

		/* Without NLM_F_CAPPED the whole request is echoed. */
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
		    e->msg.nlmsg_len > NLMSG_HDRLEN)
			fixed += e->msg.nlmsg_len - NLMSG_HDRLEN;
		save_extack(req, nlh, fixed);
	} else if (nlh->nlmsg_type == NLMSG_DONE && payload >= sizeof(int)) {
		int err;

		memcpy(&err, nlmsg_data(nlh), sizeof(err));
		if (err < 0)
			req->error = err;
		save_extack(req, nlh, sizeof(err));
	}
}

static int on_msg_in(struct nl_msg *msg, void *arg)
{
	on_msg_in_hdr(arg, nlmsg_hdr(msg));
	return NL_OK;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct request *req = arg;

	/* After a handler failed, the rest is only drained. */
	if (req->handle && !req->reply_error)
		req->reply_error = req->handle(nlmsg_hdr(msg), req->arg);
	return NL_OK;
}

static int on_dump_intr(struct nl_msg *msg, void *arg)
{
	struct request *req = arg;

	(void)msg;
	req->interrupted = true;
	return NL_OK;
}

static int on_done(struct nl_msg *msg, void *arg)
{
	struct request *req = arg;

	(void)msg;
	req->done = true;
	return NL_STOP;
}

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct request *req = arg;

	(void)who;
	req->error = e->error;
	req->done = true;
	return NL_STOP;
}

/*
 * Sends @msg and reads until the kernel has answered it in full. Returns
 * 0 with the outcome in @req, or a negative errno when the socket itself
 * failed.
 */
static int exchange(struct ctl *c, struct nl_sock *sk, struct nl_msg *msg,
		    struct request *req)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int err;

	if (!cb)
		return -ENOMEM;
	nl_cb_set(cb, NL_CB_MSG_IN, NL_CB_CUSTOM, on_msg_in, req);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, req);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_done, req);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_done, req);
	nl_cb_set(cb, NL_CB_DUMP_INTR, NL_CB_CUSTOM, on_dump_intr, req);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, req);

	/*
	 * nl_send_auto() adds NLM_F_ACK, so every request ends in an ack or
	 * an error, and every dump in NLMSG_DONE.
	 */
	err = nl_send_auto(sk, msg);
	while (err >= 0 && !req->done) {
		err = nl_recvmsgs_report(sk, cb);
		/* Nothing read at all: do not spin on it. */
		if (err == 0)
			err = -NLE_MSG_TRUNC;
	}
	nl_cb_put(cb);

	/* on_error() stops libnl with an error code: that one is fine. */
	if (!req->done)
		return ctl_fail(c, -EIO, "netlink: %s", nl_geterror(err));
	return 0;
}

/* How @req ended: 0, or the kernel's or the reply handler's error. */
static int outcome(struct ctl *c, const struct request *req)
{
	if (req->error)
		return ctl_fail_extack(c, req->error, req->extack);
	if (req->reply_error)
		return ctl_fail(c, req->reply_error,
				"cannot read the kernel's reply: %s",
				strerror(-req->reply_error));
	if (req->interrupted)
		ctl_warn(c, "the dump raced with a change and may be inconsistent");
	/* An ack may carry a warning. */
	if (req->extack[0])
		ctl_warn(c, "%s", req->extack);
	return 0;
}

/* Generic netlink */

static int ctrl_reply(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1];
	int *id = arg;

	if (genlmsg_parse(nlh, 0, tb, CTRL_ATTR_MAX, ctrl_policy) < 0 ||
	    !tb[CTRL_ATTR_FAMILY_ID])
		return -EBADMSG;
	*id = nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	return 0;
}

/*
 * Asks the controller for SEG6X itself rather than through
 * genl_ctrl_resolve(), which turns every failure into "not found": only
 * ENOENT means that the module is not loaded.
 */
static int resolve_family(struct ctl *c)
{
	struct request req = { .handle = ctrl_reply, .arg = &c->family };
	struct nl_msg *msg = nlmsg_alloc();
	int err;

	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL,
				 0, 0, CTRL_CMD_GETFAMILY, 1) ||
	    nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, SEG6X_GENL_NAME) < 0) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	err = exchange(c, c->genl_sk, msg, &req);
	nlmsg_free(msg);
	if (err)
		return err;
	/* The kernel has tried to load it by the family's alias. */
	if (req.error == -ENOENT)
		return ctl_fail(c, -ENOENT, "the seg6x module is not loaded (generic netlink family %s not found); try \"modprobe seg6x\"",
				SEG6X_GENL_NAME);
	return outcome(c, &req);
}

void ctl_set_autoload(struct ctl *c, bool autoload)
{
	c->no_autoload = !autoload;
}

void ctl_set_dry_run(struct ctl *c, bool dry_run)
{
	c->dry_run = dry_run;
}

void ctl_set_cache_lwt_type(struct ctl *c, bool cache)
{
	c->cache_lwt_type = cache;
}

/* Is the module in the kernel? Its sysfs directory says, without loading. */
static bool module_loaded(void)
{
	return access("/sys/module/seg6x", F_OK) == 0;
}

int ctl_connect(struct ctl *c)
{
	int err;

	ctl_clear_error(c);
	if (c->dry_run)
		return 0;
	if (c->no_autoload && !module_loaded())
		return ctl_fail(c, -ENOENT, "the seg6x module is not loaded (reading does not load it; \"modprobe seg6x\" or a change through seg6ctl does)");
	err = ctl_open_socket(c, &c->genl_sk, NETLINK_GENERIC);
	if (!err && !c->family)
		err = resolve_family(c);
	return err;
}

int ctl_genl_msg(struct ctl *c, uint8_t cmd, int flags, struct nl_msg **msg)
{
	int err = ctl_connect(c);

	if (err)
		return err;
	*msg = nlmsg_alloc();
	if (!*msg || !genlmsg_put(*msg, NL_AUTO_PORT, NL_AUTO_SEQ, c->family,
				  0, flags, cmd, SEG6X_GENL_VERSION)) {
		nlmsg_free(*msg);
		return -ENOMEM;
	}
	return 0;
}

struct genl_reply {
	ctl_genl_reply_fn cb;
	void *arg;
};

int ctl_genl_parse(struct nlmsghdr *nlh, struct nlattr **tb)
{
	return genlmsg_parse(nlh, 0, tb, SEG6X_A_MAX, seg6x_policy) < 0 ?
	       -EBADMSG : 0;
}

static int genl_reply(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[SEG6X_A_MAX + 1];
	struct genl_reply *reply = arg;

	if (ctl_genl_parse(nlh, tb))
		return -EBADMSG;
	return reply->cb ? reply->cb(tb, reply->arg) : 0;
}

int ctl_genl_talk(struct ctl *c, struct nl_msg *msg, ctl_genl_reply_fn cb,
		  void *arg)
{
	struct genl_reply reply = { .cb = cb, .arg = arg };
	struct request req = { .handle = genl_reply, .arg = &reply };
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	int err;

	err = c->dry_run ? 0 : exchange(c, c->genl_sk, msg, &req);
	/* Secrets must not linger in freed memory. */
	explicit_bzero(nlh, nlh->nlmsg_len);
	nlmsg_free(msg);
	return err ? err : outcome(c, &req);
}

/* rtnetlink */

int ctl_rt_msg_size(struct ctl *c, int type, int flags,
		    const struct rtmsg *rtm, size_t size, struct nl_msg **msg)
{
	int err;

	ctl_clear_error(c);
	err = c->dry_run ? 0 : ctl_open_socket(c, &c->rtnl_sk, NETLINK_ROUTE);
	if (err)
		return err;
	/*
	 * libnl's default is a zeroed page per message: per route of a
	 * batch or a flush, half of seg6ctl's instructions went to that
	 * memset. The longest route request of one path fits in
	 * CTL_RT_MSG_SIZE.
	 */
	*msg = nlmsg_alloc_size(size);
	if (*msg && !nlmsg_put(*msg, NL_AUTO_PORT, NL_AUTO_SEQ, type, 0, flags)) {
		nlmsg_free(*msg);
		*msg = NULL;
	}
	/* nlmsg_append() only copies from its (non-const) argument. */
	if (!*msg || nlmsg_append(*msg, (void *)rtm, sizeof(*rtm), NLMSG_ALIGNTO) < 0) {
		nlmsg_free(*msg);
		return -ENOMEM;
	}
	return 0;
}

int ctl_rt_msg(struct ctl *c, int type, int flags, const struct rtmsg *rtm,
	       struct nl_msg **msg)
{
	return ctl_rt_msg_size(c, type, flags, rtm, CTL_RT_MSG_SIZE, msg);
}

int ctl_rt_parse(struct nlmsghdr *nlh, struct nlattr **tb)
{
	return nlmsg_parse(nlh, sizeof(struct rtmsg), tb, RTA_MAX, rt_policy) < 0 ?
	       -EBADMSG : 0;
}

struct rt_reply {
	ctl_rt_reply_fn cb;
	void *arg;
};

static int rt_reply(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[RTA_MAX + 1];
	struct rt_reply *reply = arg;

	/* A dump may interleave other message types; only routes matter. */
	if (nlh->nlmsg_type != RTM_NEWROUTE || !reply->cb)
		return 0;
	if (ctl_rt_parse(nlh, tb))
		return -EBADMSG;
	return reply->cb(nlmsg_data(nlh), tb, reply->arg);
}

/* How a route request ended. */
static int rt_outcome(struct ctl *c, const struct request *req)
{
	/* What the FIB says when a route to delete is not there. */
	if (req->error == -ESRCH && !req->extack[0])
		return ctl_fail(c, -ESRCH, "no such route");
	return outcome(c, req);
}

int ctl_rt_talk(struct ctl *c, struct nl_msg *msg, ctl_rt_reply_fn cb,
		void *arg)
{
	struct rt_reply reply = { .cb = cb, .arg = arg };
	struct request req = { .handle = rt_reply, .arg = &reply };
	int err;

	err = c->dry_run ? 0 : exchange(c, c->rtnl_sk, msg, &req);
	nlmsg_free(msg);
	if (err || c->dry_run)
		return err;
	return rt_outcome(c, &req);
}

/*
 * Reads the answers to a batch until the ack of @last_seq; the first
 * error goes to @req. Raw recv(): libnl's own sequence check expects one
 * answer per request, and a batch asks for one ack only.
 */
static int batch_wait(struct ctl *c, int fd, uint32_t last_seq,
		      struct request *req)
{
	char buf[8192] __attribute__((aligned(NLMSG_ALIGNTO)));

	for (;;) {
		ssize_t len = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

		if (len < 0 && errno == EINTR)
			continue;
		if (len < 0)
			return ctl_fail(c, -errno, "netlink: %s", strerror(errno));
		for (; NLMSG_OK(nlh, len); nlh = NLMSG_NEXT(nlh, len)) {
			const struct nlmsgerr *e = NLMSG_DATA(nlh);

			if (nlh->nlmsg_type != NLMSG_ERROR ||
			    nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
				continue;
			if (e->error && !req->error) {
				req->error = e->error;
				on_msg_in_hdr(req, nlh);
			}
			if (nlh->nlmsg_seq == last_seq)
				return 0;
		}
	}
}

/*
 * Sends @n requests in one sendmsg(), the last alone asking for an ack:
 * the kernel handles them in order and answers the others only if they
 * fail, so one ack says that all were handled. As ip route flush does.
 */
static int batch_send(struct ctl *c, struct nl_msg **msgs, size_t n,
		      struct request *req)
{
	int fd = nl_socket_get_fd(c->rtnl_sk);
	size_t i, len = 0, size = 0;
	char *buf;
	int err;

	for (i = 0; i < n; i++)
		size += NLMSG_ALIGN(nlmsg_hdr(msgs[i])->nlmsg_len);
	buf = calloc(1, size);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct nlmsghdr *nlh = nlmsg_hdr(msgs[i]);

		nlh->nlmsg_flags |= NLM_F_REQUEST;
		nlh->nlmsg_flags &= ~NLM_F_ACK;
		if (i == n - 1)
			nlh->nlmsg_flags |= NLM_F_ACK;
		nlh->nlmsg_seq = ++c->batch_seq;
		memcpy(buf + len, nlh, nlh->nlmsg_len);
		len += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	err = send(fd, buf, len, 0) < 0 ?
	      ctl_fail(c, -errno, "netlink: %s", strerror(errno)) : 0;
	free(buf);
	return err ? err : batch_wait(c, fd, c->batch_seq, req);
}

int ctl_rt_talk_batch(struct ctl *c, struct nl_msg **msgs, size_t n)
{
	struct request req = { 0 };
	size_t i;
	int err;

	err = c->dry_run || !n ? 0 : batch_send(c, msgs, n, &req);
	for (i = 0; i < n; i++)
		nlmsg_free(msgs[i]);
	if (err || c->dry_run || !n)
		return err;
	return rt_outcome(c, &req);
}

void ctl_close(struct ctl *c)
{
	nl_socket_free(c->genl_sk);
	nl_socket_free(c->rtnl_sk);
	nl_socket_free(c->mon_genl_sk);
	nl_socket_free(c->mon_rtnl_sk);
	c->genl_sk = NULL;
	c->rtnl_sk = NULL;
	c->mon_genl_sk = NULL;
	c->mon_rtnl_sk = NULL;
	c->family = 0;
	/* A module loaded again may have claimed another slot. */
	c->lwt_type = 0;
}

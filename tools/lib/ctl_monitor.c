// SPDX-License-Identifier: GPL-2.0
/*
 * Change events: the SEG6X family's "events" multicast group (SIDs, keys,
 * tunsrc, interface policy, counter resets) and rtnetlink's route groups,
 * filtered to the routes that carry seg6x's encapsulation. Two sockets of
 * their own, so that requests on the handle's sockets never read events.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "ctl_nl.h"
#include "libseg6x.h"

/* Which ctl_event a SEG6X event command is, and what it carries. */
static int genl_event(uint8_t cmd, struct nlattr **tb, struct ctl_event *ev)
{
	switch (cmd) {
	case SEG6X_CMD_SID_SET:
	case SEG6X_CMD_SID_DEL:
		ev->type = cmd == SEG6X_CMD_SID_SET ? CTL_EVENT_SID_ADD :
						      CTL_EVENT_SID_DEL;
		return ctl_sid_decode(tb, &ev->sid);
	case SEG6X_CMD_SID_FLUSH:
		ev->type = CTL_EVENT_SID_FLUSH;
		return 0;
	case SEG6X_CMD_HMAC_SET:
	case SEG6X_CMD_HMAC_DEL:
		ev->type = cmd == SEG6X_CMD_HMAC_SET ? CTL_EVENT_HMAC_SET :
						       CTL_EVENT_HMAC_DEL;
		return ctl_key_decode(tb, &ev->key);
	case SEG6X_CMD_TUNSRC_SET:
		ev->type = CTL_EVENT_TUNSRC_SET;
		if (!tb[SEG6X_A_TUNSRC])
			return -EBADMSG;
		memcpy(&ev->tunsrc, nla_data(tb[SEG6X_A_TUNSRC]),
		       sizeof(ev->tunsrc));
		return 0;
	case SEG6X_CMD_IFACE_SET:
		ev->type = CTL_EVENT_IFACE_SET;
		return ctl_iface_decode(tb, &ev->iface);
	case SEG6X_CMD_STATS_RESET:
		ev->type = CTL_EVENT_STATS_RESET;
		return 0;
	default:
		/* A newer module's event: not ours to guess at. */
		return -ENOENT;
	}
}

/* Whether @objects asked for events of @type. */
static bool wanted(unsigned int objects, enum ctl_event_type type)
{
	switch (type) {
	case CTL_EVENT_ROUTE_ADD:
	case CTL_EVENT_ROUTE_DEL:
		return objects & CTL_MONITOR_ROUTE;
	case CTL_EVENT_SID_ADD:
	case CTL_EVENT_SID_DEL:
	case CTL_EVENT_SID_FLUSH:
		return objects & CTL_MONITOR_SID;
	case CTL_EVENT_HMAC_SET:
	case CTL_EVENT_HMAC_DEL:
		return objects & CTL_MONITOR_HMAC;
	case CTL_EVENT_TUNSRC_SET:
		return objects & CTL_MONITOR_TUNSRC;
	case CTL_EVENT_IFACE_SET:
		return objects & CTL_MONITOR_IFACE;
	case CTL_EVENT_STATS_RESET:
		return objects & CTL_MONITOR_STATS;
	}
	return false;
}

struct monitor {
	struct ctl *c;
	unsigned int objects;
	ctl_event_fn fn;
	void *arg;
	int stop;		/* what fn returned, if not 0 */
	struct ctl_event ev;	/* big (segment lists): not on the stack */
	struct ctl_route paths[CTL_MAX_PATHS];	/* ev.route */
};

static int deliver(struct monitor *m)
{
	if (!wanted(m->objects, m->ev.type))
		return NL_OK;
	m->stop = m->fn(&m->ev, m->arg);
	return m->stop ? NL_STOP : NL_OK;
}

static int on_genl_event(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[SEG6X_A_MAX + 1];
	struct monitor *m = arg;
	int err;

	if (nlh->nlmsg_type != m->c->family || ctl_genl_parse(nlh, tb))
		return NL_OK;
	memset(&m->ev, 0, sizeof(m->ev));
	err = genl_event(genlmsg_hdr(nlh)->cmd, tb, &m->ev);
	if (err == -EBADMSG)
		ctl_warn(m->c, "malformed seg6x event (command %u) ignored",
			 genlmsg_hdr(nlh)->cmd);
	return err ? NL_OK : deliver(m);
}

static int on_route_event(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[RTA_MAX + 1];
	struct monitor *m = arg;

	if ((nlh->nlmsg_type != RTM_NEWROUTE &&
	     nlh->nlmsg_type != RTM_DELROUTE) || ctl_rt_parse(nlh, tb))
		return NL_OK;
	memset(&m->ev, 0, sizeof(m->ev));
	/* Only seg6x's routes: the others are ip monitor's. */
	if (ctl_route_decode(nlmsg_data(nlh), tb, m->c->mon_lwt_type,
			     m->paths) != 1)
		return NL_OK;
	m->ev.route = m->paths;
	m->ev.type = nlh->nlmsg_type == RTM_NEWROUTE ? CTL_EVENT_ROUTE_ADD :
						       CTL_EVENT_ROUTE_DEL;
	return deliver(m);
}

/* An event socket: no sequence numbers, a buffer for bursts. */
static int open_events(struct ctl *c, struct nl_sock **skp, int protocol)
{
	int err = ctl_open_socket(c, skp, protocol);

	if (err)
		return err;
	nl_socket_disable_seq_check(*skp);
	nl_socket_set_nonblocking(*skp);
	nl_socket_set_buffer_size(*skp, 1 << 20, 0);
	return 0;
}

static int join_seg6x(struct ctl *c)
{
	int grp, err;

	err = open_events(c, &c->mon_genl_sk, NETLINK_GENERIC);
	if (err)
		return err;
	grp = genl_ctrl_resolve_grp(c->mon_genl_sk, SEG6X_GENL_NAME,
				    SEG6X_GENL_MCGRP_EVENTS);
	if (grp < 0)
		return ctl_fail(c, -EOPNOTSUPP, "the loaded seg6x module sends no events (too old?): %s",
				nl_geterror(grp));
	err = nl_socket_add_membership(c->mon_genl_sk, grp);
	if (err < 0)
		return ctl_fail(c, -EPERM, "cannot listen to seg6x's events: %s",
				nl_geterror(err));
	return 0;
}

static int join_routes(struct ctl *c)
{
	struct ctl_info info;
	int err;

	/* The LWT slot that marks seg6x's routes. */
	err = ctl_info_get(c, &info);
	if (!err)
		err = open_events(c, &c->mon_rtnl_sk, NETLINK_ROUTE);
	if (err)
		return err;
	c->mon_lwt_type = info.lwt_type;
	err = nl_socket_add_memberships(c->mon_rtnl_sk, RTNLGRP_IPV6_ROUTE,
					RTNLGRP_IPV4_ROUTE, 0);
	if (err < 0)
		return ctl_fail(c, -EPERM, "cannot listen to route changes: %s",
				nl_geterror(err));
	return 0;
}

int ctl_monitor_open(struct ctl *c, unsigned int objects)
{
	int err;

	ctl_clear_error(c);
	if (!objects || (objects & ~CTL_MONITOR_ALL))
		return ctl_fail(c, -EINVAL, "nothing to watch");
	c->mon_objects = objects;
	err = ctl_connect(c);
	if (!err && (objects & ~CTL_MONITOR_ROUTE))
		err = join_seg6x(c);
	if (!err && (objects & CTL_MONITOR_ROUTE))
		err = join_routes(c);
	return err;
}

/* Reads what @sk has; 0, the callback's stop value, or an error. */
static int drain(struct ctl *c, struct nl_sock *sk, nl_recvmsg_msg_cb_t cb,
		 struct monitor *m)
{
	int err;

	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, cb, m);
	err = nl_recvmsgs_default(sk);
	if (m->stop)
		return m->stop;
	if (err == -NLE_AGAIN || err >= 0)
		return 0;
	/* ENOBUFS: the kernel dropped events; the socket still works. */
	if (err == -NLE_NOMEM) {
		ctl_warn(c, "events were lost (the reader was too slow)");
		return 0;
	}
	return ctl_fail(c, -EIO, "cannot read events: %s", nl_geterror(err));
}

int ctl_monitor_run(struct ctl *c, ctl_event_fn fn, void *arg)
{
	struct monitor *m = calloc(1, sizeof(*m));
	struct pollfd pfd[2];
	int err = 0;

	ctl_clear_error(c);
	if (!m)
		return -ENOMEM;
	if (!c->mon_genl_sk && !c->mon_rtnl_sk) {
		free(m);
		return ctl_fail(c, -EINVAL, "ctl_monitor_open() first");
	}
	*m = (struct monitor){ .c = c, .objects = c->mon_objects,
			       .fn = fn, .arg = arg };
	pfd[0].fd = c->mon_genl_sk ? nl_socket_get_fd(c->mon_genl_sk) : -1;
	pfd[1].fd = c->mon_rtnl_sk ? nl_socket_get_fd(c->mon_rtnl_sk) : -1;
	pfd[0].events = pfd[1].events = POLLIN;
	while (!err) {
		if (poll(pfd, 2, -1) < 0) {
			if (errno != EINTR)
				err = ctl_fail(c, -errno, "poll: %s", strerror(errno));
			continue;
		}
		if (pfd[0].revents)
			err = drain(c, c->mon_genl_sk, on_genl_event, m);
		if (!err && pfd[1].revents)
			err = drain(c, c->mon_rtnl_sk, on_route_event, m);
	}
	free(m);
	return err;
}

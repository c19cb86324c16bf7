// SPDX-License-Identifier: GPL-2.0
/* The daemon's kernel side: libseg6x, plus a dump of VRF devices. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <linux/lwtunnel.h>
#include <linux/rtnetlink.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "ctl_nl.h"
#include "fpm_kernel.h"
#include "fpm_log.h"
#include "fpm_nhobj.h"

static int route_set(void *arg, const struct ctl_route *r)
{
	return ctl_route_add(arg, r, true);
}

/*
 * A delete by place (the kernel matches no encapsulation): the state
 * calls it only while the kernel's last word on that place was our own
 * route (see fpm_state_kernel_route()), so no lookup is needed first.
 */
static int route_del(void *arg, const struct ctl_route *r)
{
	return ctl_route_del(arg, r);
}

static int sid_set(void *arg, const struct ctl_sid *s)
{
	return ctl_sid_set(arg, s, true);
}

static int sid_del(void *arg, const struct in6_addr *prefix, uint8_t len)
{
	return ctl_sid_del(arg, prefix, len);
}

static int route_walk(void *arg, ctl_route_fn fn, void *fn_arg)
{
	return ctl_route_walk(arg, fn, fn_arg);
}

static int sid_list(void *arg, struct ctl_sid **s, size_t *n)
{
	return ctl_sid_list(arg, s, n);
}

struct vrf_search {
	uint32_t table;
	uint32_t ifindex;	/* 0: not found */
};

/* A link: a VRF device (IFLA_INFO_KIND "vrf") of the table sought? */
static int link_reply(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[IFLA_MAX + 1], *info[IFLA_INFO_MAX + 1];
	struct nlattr *vrf[IFLA_VRF_MAX + 1];
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct ifinfomsg *ifi = nlmsg_data(nlh);
	struct vrf_search *s = arg;

	if (nlmsg_parse(nlh, sizeof(*ifi), tb, IFLA_MAX, NULL) < 0 ||
	    !tb[IFLA_LINKINFO] ||
	    nla_parse_nested(info, IFLA_INFO_MAX, tb[IFLA_LINKINFO], NULL) < 0 ||
	    !info[IFLA_INFO_KIND] || !info[IFLA_INFO_DATA] ||
	    strcmp(nla_get_string(info[IFLA_INFO_KIND]), "vrf") ||
	    nla_parse_nested(vrf, IFLA_VRF_MAX, info[IFLA_INFO_DATA], NULL) < 0 ||
	    !vrf[IFLA_VRF_TABLE] ||
	    nla_get_u32(vrf[IFLA_VRF_TABLE]) != s->table)
		return NL_OK;
	s->ifindex = (uint32_t)ifi->ifi_index;
	return NL_OK;
}

static int vrf_of_table(void *arg, uint32_t table, uint32_t *ifindex)
{
	struct vrf_search s = { .table = table };
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct nl_sock *sk = nl_socket_alloc();
	int err = -ENOMEM;

	(void)arg;
	if (!sk)
		return err;
	if (nl_connect(sk, NETLINK_ROUTE) < 0 ||
	    nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, link_reply,
				&s) < 0 ||
	    nl_send_simple(sk, RTM_GETLINK, NLM_F_DUMP, &ifi, sizeof(ifi)) < 0 ||
	    nl_recvmsgs_default(sk) < 0)
		err = -EIO;
	else
		err = s.ifindex ? 0 : -ENOENT;
	nl_socket_free(sk);
	if (!err)
		*ifindex = s.ifindex;
	return err;
}

void fpm_kernel_libseg6x(struct fpm_kernel *k, struct ctl *c)
{
	*k = (struct fpm_kernel){
		.route_set = route_set, .route_del = route_del,
		.sid_set = sid_set, .sid_del = sid_del,
		.route_walk = route_walk, .sid_list = sid_list,
		.vrf_of_table = vrf_of_table, .arg = c,
	};
}

/*
 * Coexistence with zebra's kernel routes. zebra installs every route it
 * selects in the kernel itself (the in-tree seg6 encap) and sends it over
 * FPM; the daemon replaces it with the seg6x route. The two are
 * independent dplane providers: zebra's kernel write can land after ours
 * and put the in-tree route back. The kernel tells every route change to
 * the route groups, in order, and the state follows them: an in-tree
 * SRv6 route (seg6 or seg6local encap) at the place of one of ours is
 * replaced by ours again; any other route there (zebra writes a plain
 * route where a VPN route lost its SID, and the FPM update that tells us
 * follows), or a delete of ours we did not make, means the place is not
 * ours any more and our later delete leaves the kernel alone. Our own
 * writes come back as seg6x routes owned by the daemon, and zebra ignores
 * notifications of routes with its protocol (ours carry it): nothing
 * loops. One replace per notification; an overrun socket means a
 * reinstall of what is still ours, once: the buffer is sized for a
 * replay of many thousand VPN routes, each written by zebra and by us.
 */
#define MONITOR_RCVBUF	(32 << 20)

int fpm_kernel_monitor(void)
{
	struct sockaddr_nl sa = {
		.nl_family = AF_NETLINK,
		.nl_groups = (1u << (RTNLGRP_IPV4_ROUTE - 1)) |
			     (1u << (RTNLGRP_IPV6_ROUTE - 1)),
	};
	int size = MONITOR_RCVBUF;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
			NETLINK_ROUTE);

	if (fd < 0)
		return -1;
	/* Past net.core.rmem_max: the daemon has CAP_NET_ADMIN anyway. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* What a route notification puts at its place, for fpm_state. */
static bool classify(const struct nlmsghdr *h, const struct ctl_route *r,
		     int seg6x, uint16_t encap, enum fpm_kroute *what)
{
	bool ours = seg6x > 0 && r->owner == SEG6X_OWNER_FPMD;

	if (h->nlmsg_type == RTM_DELROUTE) {
		/* Our own deletes come back too: the state has let go then. */
		*what = FPM_KROUTE_GONE;
		return ours;
	}
	if (ours)
		*what = FPM_KROUTE_OURS;
	else if (!seg6x && (encap == LWTUNNEL_ENCAP_SEG6 ||
			    encap == LWTUNNEL_ENCAP_SEG6_LOCAL))
		*what = FPM_KROUTE_SRV6;
	else
		*what = FPM_KROUTE_OTHER;
	return true;
}

/*
 * The encap type of a route: its own, or its first path's (zebra's
 * in-tree multipath routes carry one per path).
 */
static uint16_t encap_type(struct nlattr **tb)
{
	const struct rtnexthop *rtnh;
	struct nlattr *path[RTA_MAX + 1];

	if (tb[RTA_ENCAP_TYPE] && nla_len(tb[RTA_ENCAP_TYPE]) >= 2)
		return nla_get_u16(tb[RTA_ENCAP_TYPE]);
	if (!tb[RTA_MULTIPATH] ||
	    nla_len(tb[RTA_MULTIPATH]) < (int)sizeof(*rtnh))
		return 0;
	rtnh = nla_data(tb[RTA_MULTIPATH]);
	if (rtnh->rtnh_len < sizeof(*rtnh) ||
	    rtnh->rtnh_len > nla_len(tb[RTA_MULTIPATH]) ||
	    nla_parse(path, RTA_MAX, (struct nlattr *)RTNH_DATA(rtnh),
		      rtnh->rtnh_len - RTNH_LENGTH(0), NULL) < 0 ||
	    !path[RTA_ENCAP_TYPE] || nla_len(path[RTA_ENCAP_TYPE]) < 2)
		return 0;
	return nla_get_u16(path[RTA_ENCAP_TYPE]);
}

/* One notification, handed to the state if it says something. */
static void route_notice(const struct nlmsghdr *h, uint16_t lwt_type,
			 struct fpm_state *st)
{
	static struct ctl_route r[CTL_MAX_PATHS];
	const struct rtmsg *rtm = NLMSG_DATA(h);
	struct nlattr *tb[RTA_MAX + 1];
	enum fpm_kroute what;
	uint32_t metric, nh_id = 0;
	uint16_t encap;
	int seg6x;

	if ((h->nlmsg_type != RTM_NEWROUTE && h->nlmsg_type != RTM_DELROUTE) ||
	    h->nlmsg_len < NLMSG_LENGTH(sizeof(*rtm)) ||
	    nla_parse(tb, RTA_MAX, (struct nlattr *)RTM_RTA(rtm),
		      (int)RTM_PAYLOAD(h), NULL) < 0)
		return;
	seg6x = ctl_route_decode(rtm, tb, lwt_type, r);
	if (seg6x < 0 || !r->dst.addr.family)
		return;
	encap = encap_type(tb);
	/* IPv4 leaves out a metric of 0; IPv6 always sends it. */
	metric = r->has_metric ? r->metric : 0;
	if (tb[RTA_NH_ID] && nla_len(tb[RTA_NH_ID]) >= 4)
		nh_id = nla_get_u32(tb[RTA_NH_ID]);
	/*
	 * zebra's route through a kernel next hop object: the encap is the
	 * object's, in the notification only with nexthop_compat_mode on.
	 */
	if (!seg6x && !encap && nh_id && h->nlmsg_type == RTM_NEWROUTE &&
	    fpm_state_ours_at(st, &r->dst, r->table, metric))
		encap = fpm_nhobj_encap(nh_id);
	if (classify(h, r, seg6x, encap, &what))
		fpm_state_kernel_route(st, &r->dst, r->table, metric, what);
}

void fpm_kernel_monitor_read(int fd, struct ctl *c, struct fpm_state *st)
{
	static uint8_t buf[1 << 16];
	bool overrun = false, have_type = false;
	uint16_t lwt_type;
	ssize_t n;

	for (;;) {
		const struct nlmsghdr *h = (const void *)buf;
		int len;

		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0 && errno == ENOBUFS) {
			overrun = true;
			continue;
		}
		if (n <= 0)
			break;
		if (!have_type) {
			/* The slot that marks seg6x's routes, kept by @c. */
			if (ctl_lwt_type(c, &lwt_type))
				return;
			have_type = true;
		}
		for (len = (int)n; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len))
			route_notice(h, lwt_type, st);
	}
	if (overrun) {
		fpm_log(LOG_WARNING, "route notifications lost: installing our %zu routes again",
			fpm_state_reinstall(st));
	}
}

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

#include "fpm_kernel.h"
#include "fpm_log.h"

static int route_set(void *arg, const struct ctl_route *r)
{
	return ctl_route_add(arg, r, true);
}

/*
 * Only our own seg6x route at @r's place. zebra installs routes at the
 * same places (its in-tree SRv6 routes, and plain ones when a VPN route
 * loses its SID); by the time a delete reaches us the route there may be
 * zebra's, and the kernel deletes by place, not by encapsulation. (A
 * change between the lookup and the delete can still race.)
 */
static int route_del(void *arg, const struct ctl_route *r)
{
	struct ctl_route found;
	bool other;
	int err = ctl_route_find(arg, r, &found, &other);

	if (err == -ESRCH || (!err && found.owner != SEG6X_OWNER_FPMD))
		return 0;
	return err ? err : ctl_route_del(arg, &found);
}

static int sid_set(void *arg, const struct ctl_sid *s)
{
	return ctl_sid_set(arg, s, true);
}

static int sid_del(void *arg, const struct in6_addr *prefix, uint8_t len)
{
	return ctl_sid_del(arg, prefix, len);
}

static int route_list(void *arg, struct ctl_route **r, size_t *n)
{
	return ctl_route_list(arg, r, n);
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
		.route_list = route_list, .sid_list = sid_list,
		.vrf_of_table = vrf_of_table, .arg = c,
	};
}

/*
 * Coexistence with zebra's kernel routes. zebra installs every route it
 * selects in the kernel itself (the in-tree seg6 encap) and sends it over
 * FPM; the daemon replaces it with the seg6x route. The two are
 * independent dplane providers: zebra's kernel write can land after ours
 * and put the in-tree route back. The kernel tells every route change to
 * the route groups: an in-tree SRv6 route (seg6 or seg6local encap) of
 * one of our prefixes is replaced by ours again. A route without them is
 * not: zebra writes a plain route where a VPN route lost its SID, and
 * the FPM update that tells us follows (putting ours back would leave no
 * route at all once that update deletes ours). Our own writes come back
 * with seg6x's encap and are ignored, and zebra ignores notifications of
 * routes with its protocol (ours carry it): nothing loops. One replace
 * per notification; an overrun socket means a full reinstall, once.
 */
int fpm_kernel_monitor(void)
{
	struct sockaddr_nl sa = {
		.nl_family = AF_NETLINK,
		.nl_groups = (1u << (RTNLGRP_IPV4_ROUTE - 1)) |
			     (1u << (RTNLGRP_IPV6_ROUTE - 1)),
	};
	int size = 1 << 20;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
			NETLINK_ROUTE);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* One notification: the prefix and table, and whether it is seg6x's. */
static void route_notice(const struct nlmsghdr *h, uint16_t lwt_type,
			 struct fpm_state *st)
{
	const struct rtmsg *rtm = NLMSG_DATA(h);
	struct inet_prefix dst = { .addr.family = rtm->rtm_family,
				   .len = rtm->rtm_dst_len };
	size_t alen = inet_addr_len(rtm->rtm_family);
	uint32_t table = rtm->rtm_table;
	const struct rtattr *a;
	bool srv6 = false;
	int len;

	if (h->nlmsg_type != RTM_NEWROUTE ||
	    h->nlmsg_len < NLMSG_LENGTH(sizeof(*rtm)) || !alen)
		return;
	len = (int)RTM_PAYLOAD(h);
	for (a = RTM_RTA(rtm); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == RTA_ENCAP_TYPE &&
		    RTA_PAYLOAD(a) >= sizeof(uint16_t)) {
			uint16_t type = *(const uint16_t *)RTA_DATA(a);

			if (type == lwt_type)
				return;		/* seg6x's: ours, or by hand */
			srv6 = type == LWTUNNEL_ENCAP_SEG6 ||
			       type == LWTUNNEL_ENCAP_SEG6_LOCAL;
		}
		if (a->rta_type == RTA_TABLE &&
		    RTA_PAYLOAD(a) >= sizeof(uint32_t))
			table = *(const uint32_t *)RTA_DATA(a);
		if (a->rta_type == RTA_DST && RTA_PAYLOAD(a) >= alen)
			memcpy(dst.addr.bytes, RTA_DATA(a), alen);
	}
	if (srv6)
		fpm_state_overwritten(st, &dst, table);
}

void fpm_kernel_monitor_read(int fd, struct ctl *c, struct fpm_state *st)
{
	static uint8_t buf[1 << 16];
	struct ctl_info info;
	bool overrun = false, have_type = false;
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
			/* The slot seg6x claimed: asked once per batch. */
			if (ctl_info_get(c, &info))
				return;
			have_type = true;
		}
		for (len = (int)n; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len))
			route_notice(h, info.lwt_type, st);
	}
	if (overrun) {
		fpm_log(LOG_WARNING, "route notifications lost: installing our %zu routes again",
			fpm_state_reinstall(st));
	}
}

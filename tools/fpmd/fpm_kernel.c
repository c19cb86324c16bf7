// SPDX-License-Identifier: GPL-2.0
/* The daemon's kernel side: libseg6x, plus a dump of VRF devices. */
#include <errno.h>
#include <string.h>
#include <linux/if_link.h>
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

// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel next hop objects (RTM_*NEXTHOP, linux/nexthop.h) under zebra's
 * routes. Where the kernel has them, zebra installs a route as RTA_NH_ID
 * and the SRv6 encap is the object's. The kernel's notification of the
 * route repeats the object's attributes unless net.ipv4.nexthop_compat_mode
 * is 0; then it does not tell an in-tree SRv6 route from a plain one, and
 * the object is asked of the kernel, only for a route at the place of one
 * of ours.
 *
 * Such a route is never deleted: zebra installs again a route of its own
 * that another program deletes (it only ignores replaces), and the two
 * would fight.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>

#include "fpm_nhobj.h"

/* A request and its answer on a socket of its own: 0 or -errno. */
static int talk(const void *req, size_t len, void *buf, size_t size,
		ssize_t *got)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 1 };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	int err = 0;

	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (sendto(fd, req, len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		err = -errno;
	else if ((*got = recv(fd, buf, size, 0)) < 0)
		err = -errno;
	close(fd);
	return err;
}

/* Attribute @type of a reply's attributes, of @min bytes at least. */
static struct nlattr *find(uint8_t *p, size_t len, int type, int min)
{
	struct nlattr *a = nla_find((struct nlattr *)p, (int)len, type);

	return a && nla_len(a) >= min ? a : NULL;
}

/* Object @id's encap type; a group's first member's (one level). */
static uint16_t encap_of(uint32_t id, int depth)
{
	struct {
		struct nlmsghdr h;
		struct nhmsg nh;
		struct nlattr a;
		uint32_t id;
	} req = {
		.h = { .nlmsg_len = sizeof(req), .nlmsg_type = RTM_GETNEXTHOP,
		       .nlmsg_flags = NLM_F_REQUEST },
		.a = { .nla_len = NLA_HDRLEN + 4, .nla_type = NHA_ID },
		.id = id,
	};
	static uint8_t buf[8192] __attribute__((aligned(4)));
	const struct nlmsghdr *h = (const void *)buf;
	struct nlattr *a;
	size_t off = NLMSG_SPACE(sizeof(struct nhmsg));
	ssize_t got = 0;

	if (talk(&req, sizeof(req), buf, sizeof(buf), &got) ||
	    got < (ssize_t)off || h->nlmsg_type != RTM_NEWNEXTHOP ||
	    h->nlmsg_len > got || h->nlmsg_len < off)
		return 0;
	a = find(buf + off, h->nlmsg_len - off, NHA_ENCAP_TYPE, 2);
	if (a)
		return nla_get_u16(a);
	a = find(buf + off, h->nlmsg_len - off, NHA_GROUP,
		 sizeof(struct nexthop_grp));
	if (!a || depth)
		return 0;
	memcpy(&id, nla_data(a), sizeof(id));
	return encap_of(id, depth + 1);
}

uint16_t fpm_nhobj_encap(uint32_t id)
{
	return encap_of(id, 0);
}

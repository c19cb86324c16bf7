// SPDX-License-Identifier: GPL-2.0
/*
 * The part of libseg6x's transport (ctl_nl.c) that test_route and
 * test_genl fake alike: handles without sockets, and SEG6X requests built
 * for a made-up family id, and rtnetlink requests in messages of their
 * own. Each test fakes ctl_genl_talk() and ctl_rt_talk*() itself: that is
 * where they differ.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include <netlink/genl/genl.h>

#include "ctl_nl.h"

#define FAKE_FAMILY	0x42	/* any id: nothing reaches a kernel */

struct ctl *ctl_new(void)
{
	return calloc(1, sizeof(struct ctl));
}

void ctl_free(struct ctl *c)
{
	free(c);
}

int ctl_connect(struct ctl *c)
{
	ctl_clear_error(c);
	return 0;
}

int ctl_genl_msg(struct ctl *c, uint8_t cmd, int flags, struct nl_msg **msg)
{
	ctl_clear_error(c);
	*msg = nlmsg_alloc();
	assert_non_null(*msg);
	assert_non_null(genlmsg_put(*msg, NL_AUTO_PORT, NL_AUTO_SEQ,
				    FAKE_FAMILY, 0, flags, cmd,
				    SEG6X_GENL_VERSION));
	return 0;
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

/* An rtnetlink request of @size bytes at most, as ctl_nl.c makes it. */
int ctl_rt_msg_size(struct ctl *c, int type, int flags,
		    const struct rtmsg *rtm, size_t size, struct nl_msg **msg)
{
	struct nlmsghdr *nlh;

	ctl_clear_error(c);
	*msg = nlmsg_alloc_size(size);
	assert_non_null(*msg);
	nlh = nlmsg_put(*msg, NL_AUTO_PORT, NL_AUTO_SEQ, type, 0, flags);
	assert_non_null(nlh);
	assert_int_equal(nlmsg_append(*msg, (void *)rtm, sizeof(*rtm),
				      NLMSG_ALIGNTO), 0);
	return 0;
}

int ctl_rt_msg(struct ctl *c, int type, int flags, const struct rtmsg *rtm,
	       struct nl_msg **msg)
{
	return ctl_rt_msg_size(c, type, flags, rtm, CTL_RT_MSG_SIZE, msg);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * events.c - change events (events.h). Sent after the change is made,
 * from process context (the genl handlers), in the namespace it happened
 * in; a listener that cannot keep up loses events and sees its socket's
 * ENOBUFS, as with rtnetlink.
 */
#include <net/genetlink.h>

#include "events.h"
#include "genl_family.h"

struct sk_buff *seg6x_event_start(struct net *net, u8 cmd, void **hdr)
{
	struct sk_buff *msg;

	if (!genl_has_listeners(&seg6x_genl_family, net, SEG6X_MCGRP_EVENTS))
		return NULL;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put(msg, 0, 0, &seg6x_genl_family, 0, cmd);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

void seg6x_event_send(struct net *net, struct sk_buff *msg, void *hdr)
{
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&seg6x_genl_family, net, msg, 0,
				SEG6X_MCGRP_EVENTS, GFP_KERNEL);
}

void seg6x_event_cancel(struct sk_buff *msg)
{
	nlmsg_free(msg);
}

void seg6x_event_bare(struct net *net, u8 cmd)
{
	struct sk_buff *msg;
	void *hdr;

	msg = seg6x_event_start(net, cmd, &hdr);
	if (msg)
		seg6x_event_send(net, msg, hdr);
}

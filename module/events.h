/* SPDX-License-Identifier: GPL-2.0 */
/*
 * events.h - change events on the SEG6X family's "events" multicast
 * group (uapi: SEG6X_GENL_MCGRP_EVENTS), for `seg6ctl monitor`.
 */
#ifndef _SEG6X_EVENTS_H
#define _SEG6X_EVENTS_H

#include <net/genetlink.h>
#include <net/net_namespace.h>

#define SEG6X_MCGRP_EVENTS	0	/* index in the family's groups */

/*
 * Start an event of command @cmd for @net, or NULL when nobody listens
 * (or memory is short: events are best effort, as rtnetlink's are).
 * The caller adds attributes, then seg6x_event_send() or
 * seg6x_event_cancel().
 */
struct sk_buff *seg6x_event_start(struct net *net, u8 cmd, void **hdr);
void seg6x_event_send(struct net *net, struct sk_buff *msg, void *hdr);
void seg6x_event_cancel(struct sk_buff *msg);

/* An event without attributes (STATS_RESET, SID_FLUSH). */
void seg6x_event_bare(struct net *net, u8 cmd);

#endif /* _SEG6X_EVENTS_H */

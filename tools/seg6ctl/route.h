/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A seg6x route as seg6ctl sees it, and its translation to and from
 * rtnetlink messages (route_msg.c).
 */
#ifndef SEG6CTL_ROUTE_H
#define SEG6CTL_ROUTE_H

#include <stdbool.h>
#include <stdint.h>

#include "nl.h"
#include "parse.h"

struct seg6x_route {
	struct inet_prefix dst;
	uint32_t table;
	uint32_t oif;			/* 0: none */
	bool has_metric;
	uint32_t metric;
	bool has_via;
	struct inet_addr via;
	/* The encapsulation */
	uint8_t mode;			/* SEG6X_IPTUN_MODE_* */
	bool has_hmac;
	uint32_t hmac;
	size_t nsegs;
	struct in6_addr segs[SEG6X_MAX_SEGS];
};

/*
 * An RTM_NEWROUTE or RTM_DELROUTE for @r without its encapsulation: the
 * attributes that say which route it is. NULL after reporting.
 */
struct nl_msg *route_msg(int type, int flags, const struct seg6x_route *r);

/* Adds RTA_ENCAP_TYPE and RTA_ENCAP; 0 or -EMSGSIZE. */
int route_put_encap(struct nl_msg *msg, const struct seg6x_route *r,
		    uint16_t lwt_type);

/*
 * Fills @r from a dumped route. Returns 1 if its encapsulation is
 * seg6x's (@lwt_type), 0 if not, or -EBADMSG.
 */
int route_decode(const struct rtmsg *rtm, struct nlattr **tb,
		 uint16_t lwt_type, struct seg6x_route *r);

#endif /* SEG6CTL_ROUTE_H */

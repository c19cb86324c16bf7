/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lwt_state.h - what a seg6x route carries, shared by the files of the LWT
 * encapsulation: lwt_state.c builds it from netlink, lwt_xmit.c pushes
 * its headers (push.c) and sends packets through it,
 * lwt_slot.c registers the ops in an encap slot.
 */
#ifndef _SEG6X_LWT_STATE_H
#define _SEG6X_LWT_STATE_H

#include <linux/in6.h>
#include <linux/seg6.h>
#include <net/dst_cache.h>
#include <net/lwtunnel.h>

#include "counters.h"
#include "push.h"

struct seg6x_lwt {
	struct dst_cache cache_in;	/* route to the first segment, */
	struct dst_cache cache_out;	/* for forwarded / local packets */
	u8 owner;			/* SEG6X_OWNER_* */
	struct seg6x_counters __percpu *pcpu;
	struct seg6x_headend he;	/* the segment list, ready to push */
	u8 data[];			/* he's segs and SRH template */
};

static inline struct seg6x_lwt *seg6x_lwt(struct lwtunnel_state *lws)
{
	return (struct seg6x_lwt *)lws->data;
}

/* The encap type seg6x registered (lwt_slot.c). */
extern int seg6x_lwt_type;

/* lwt_state.c: route configuration */
int seg6x_lwt_build(struct net *net, struct nlattr *nla, unsigned int family,
		    const void *cfg, struct lwtunnel_state **ts,
		    struct netlink_ext_ack *extack);
void seg6x_lwt_destroy(struct lwtunnel_state *lws);
int seg6x_lwt_fill(struct sk_buff *skb, struct lwtunnel_state *lws);
int seg6x_lwt_fill_size(struct lwtunnel_state *lws);
int seg6x_lwt_cmp(struct lwtunnel_state *a, struct lwtunnel_state *b);

/* lwt_xmit.c: the LWT input (forwarded) and output (local) paths */
int seg6x_lwt_input(struct sk_buff *skb);
int seg6x_lwt_output(struct net *net, struct sock *sk, struct sk_buff *skb);

#endif /* _SEG6X_LWT_STATE_H */

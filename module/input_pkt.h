/* SPDX-License-Identifier: GPL-2.0 */
/*
 * input_pkt.h - the endpoint pipeline's packet state and steps, shared by
 * input.c (the hook, the implicit End) and sid_behaviors.c (the local SID
 * table's behaviours). Everything here runs in the PRE_ROUTING hook,
 * under RCU, in softirq context.
 */
#ifndef _SEG6X_INPUT_PKT_H
#define _SEG6X_INPUT_PKT_H

#include <linux/skbuff.h>
#include <net/net_namespace.h>

#include "pernet.h"
#include "policy.h"
#include "srh.h"

/* What one pipeline step decided. */
enum seg6x_verdict {
	SEG6X_GO,	/* on to the next step */
	SEG6X_PASS,	/* the stack goes on with the packet (NF_ACCEPT) */
	SEG6X_AGAIN,	/* the next segment is ours too: run once more */
	SEG6X_STOLEN,	/* handed on (netif_rx(), dst_input(), xmit) */
	SEG6X_DROP,	/* drop, counting pkt->drop */
};

/* The packet in the pipeline and where its SRH is. */
struct seg6x_pkt {
	struct sk_buff *skb;
	struct net *net;
	struct seg6x_net *sn;
	struct seg6x_policy pol;
	unsigned int srh_off;	/* SRH, from the network header */
	unsigned int nh_off;	/* the Next Header byte that names it */
	unsigned int srh_len;
	bool has_srh;		/* srh_off/nh_off are valid */
	bool srh_hidden;	/* a routing header seg6x cannot see behind */
	bool authenticated;	/* its HMAC was verified here */
	u8 passes;		/* behaviours this packet went through here */
	u8 b6_passes;		/* End.B6 encapsulations pushed here */
	bool sid_failed;	/* a SID handed it on to an error route */
	enum seg6x_stat drop;	/* with SEG6X_DROP */
	bool silent;		/* with SEG6X_DROP: no ICMPv6 error */
	u8 icmp_code;		/* with SEG6X_DROP and icmp_pointer */
	u32 icmp_pointer;	/* with SEG6X_DROP: Parameter Problem, if set */
};

static inline struct ipv6_sr_hdr *seg6x_pkt_srh(const struct seg6x_pkt *p)
{
	return seg6x_srh_at(p->skb, p->srh_off);
}

static inline enum seg6x_verdict seg6x_drop(struct seg6x_pkt *p,
					    enum seg6x_stat why)
{
	p->drop = why;
	return SEG6X_DROP;
}

/* input.c */
void seg6x_csum_sub(struct sk_buff *skb, const void *ptr, int len);
void seg6x_csum_add(struct sk_buff *skb, const void *ptr, int len);
bool seg6x_is_local(struct seg6x_pkt *p, bool *no_route);
enum seg6x_verdict seg6x_validate(struct seg6x_pkt *p);
enum seg6x_verdict seg6x_verify(struct seg6x_pkt *p);
enum seg6x_verdict seg6x_srh_checks(struct seg6x_pkt *p);
enum seg6x_verdict seg6x_advance(struct seg6x_pkt *p);
void seg6x_srh_pop(struct seg6x_pkt *p);
enum seg6x_verdict seg6x_decap(struct seg6x_pkt *p, unsigned int inner_off,
			       u8 proto);
enum seg6x_verdict seg6x_reinject(struct seg6x_pkt *p, struct net_device *dev);
enum seg6x_verdict seg6x_repass(struct seg6x_pkt *p);
bool seg6x_next_segment_ok(const struct in6_addr *a);

/* sid_behaviors.c: a packet whose destination matched a SID */
enum seg6x_verdict seg6x_sid_input(struct seg6x_pkt *p);

#endif /* _SEG6X_INPUT_PKT_H */

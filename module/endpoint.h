/* SPDX-License-Identifier: GPL-2.0 */
/*
 * endpoint.h - the SR endpoint library: a packet's state in the
 * PRE_ROUTING hook and the SRH operations every endpoint behaviour is
 * made of (RFC 8754 4.3.1, RFC 8986 4.1): checks, HMAC verification,
 * advancing to the next segment, popping the SRH, decapsulating, the hop
 * charged per local pass. The implicit End of the hook (input.c) and the
 * local SID table's behaviours (sid_behaviors.c) are both built from
 * these. Everything here runs under RCU in softirq context; nothing here
 * knows which behaviour calls it.
 */
#ifndef _SEG6X_ENDPOINT_H
#define _SEG6X_ENDPOINT_H

#include <linux/skbuff.h>
#include <net/dst.h>
#include <net/net_namespace.h>

#include "pernet.h"
#include "policy.h"
#include "srh.h"

/* What one step decided. */
enum seg6x_verdict {
	SEG6X_GO,	/* on to the next step */
	SEG6X_PASS,	/* the stack goes on with the packet (NF_ACCEPT) */
	SEG6X_AGAIN,	/* the destination is ours again: run once more */
	SEG6X_STOLEN,	/* handed on (netif_rx(), dst_input(), xmit) */
	SEG6X_DROP,	/* to be dropped by the hook, counting pkt->drop */
};

/* The packet in the hook and where its SRH is. */
struct seg6x_pkt {
	struct sk_buff *skb;
	struct net *net;
	struct seg6x_net *sn;
	struct seg6x_policy pol;	/* valid with pol_valid */
	unsigned int srh_off;	/* SRH, from the network header */
	unsigned int nh_off;	/* the Next Header byte that names it */
	unsigned int srh_len;
	bool pol_valid;		/* pol was looked up (seg6x_pkt_policy()) */
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
	struct dst_entry *route;	/* borrowed: seg6x_is_local()'s answer */
	struct in6_addr route_daddr;	/* the destination it is for */
	u8 route_proto;		/* and the Next Header it was asked with */
};

static inline struct ipv6_sr_hdr *seg6x_pkt_srh(const struct seg6x_pkt *p)
{
	return seg6x_srh_at(p->skb, p->srh_off);
}

/*
 * Record why the packet is to be dropped; the hook drops it (counting
 * @why once, with the kernel's drop reason) when SEG6X_DROP reaches it.
 */
static inline enum seg6x_verdict seg6x_drop_reason(struct seg6x_pkt *p,
						   enum seg6x_stat why)
{
	p->drop = why;
	return SEG6X_DROP;
}

/* The same, without an ICMPv6 error to the source. */
static inline enum seg6x_verdict seg6x_drop_silent(struct seg6x_pkt *p,
						   enum seg6x_stat why)
{
	p->silent = true;
	return seg6x_drop_reason(p, why);
}

/* The ingress interface's policy, looked up once per packet. */
static inline const struct seg6x_policy *seg6x_pkt_policy(struct seg6x_pkt *p)
{
	if (!p->pol_valid) {
		seg6x_policy_get(p->sn, p->skb->dev->ifindex, &p->pol);
		p->pol_valid = true;
	}
	return &p->pol;
}

/* Checksums: keep a CHECKSUM_COMPLETE sum right around a rewrite. */
void seg6x_csum_sub(struct sk_buff *skb, const void *ptr, int len);
void seg6x_csum_add(struct sk_buff *skb, const void *ptr, int len);

/*
 * Would the stack deliver the destination locally? (*no_route: none) The
 * route found is kept in the packet until the hook is done with it.
 */
bool seg6x_is_local(struct seg6x_pkt *p, bool *no_route);
/* Hand the kept route to the stack if it is still the packet's route. */
void seg6x_route_attach(struct seg6x_pkt *p);

/* Forget the kept route (borrowed: no reference to drop). */
static inline void seg6x_route_release(struct seg6x_pkt *p)
{
	p->route = NULL;
}

/* Every local pass after the first costs one hop (the hop-limit guard). */
enum seg6x_verdict seg6x_repass(struct seg6x_pkt *p);

/* RFC 8754 4.3.1.1 checks, the HMAC policy, writable headers. */
enum seg6x_verdict seg6x_srh_checks(struct seg6x_pkt *p);
/* The HMAC policy for a packet without a visible SRH, writable header. */
enum seg6x_verdict seg6x_nosrh_checks(struct seg6x_pkt *p);

/* SL--, DA = next segment (RFC 8986 4.1 S14-S15). */
enum seg6x_verdict seg6x_advance(struct seg6x_pkt *p);
bool seg6x_next_segment_ok(const struct in6_addr *a);

/* Remove the SRH (headers made writable by the checks). */
void seg6x_srh_pop(struct seg6x_pkt *p);

/*
 * The payload behind the SRH (or the IPv6 header): its offset from the
 * network header, *proto its type; -EINVAL if there is none to take.
 */
int seg6x_payload(struct seg6x_pkt *p, u8 *proto);

/* Strip everything in front of the inner IPv6/IPv4 packet at @inner_off
 * and receive it again on the ingress interface.
 */
enum seg6x_verdict seg6x_decap(struct seg6x_pkt *p, unsigned int inner_off,
			       u8 proto);
/* Receive the packet at skb->data again, as if on @dev (asynchronous). */
enum seg6x_verdict seg6x_reinject(struct seg6x_pkt *p, struct net_device *dev);

#endif /* _SEG6X_ENDPOINT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * push.h - SR source node (headend) operations: a segment list becomes
 * an outer IPv6 header and SRH (H.Encaps, H.Encaps.Red, RFC 8986 5.1,
 * 5.2) or an SRH inserted behind the packet's own IPv6 header (H.Insert,
 * the inline mode of the 2016 Linux SRv6 series). Shared by seg6x routes
 * (lwt_*.c) and the binding SIDs End.B6.Encaps(.Red) (sid_behaviors.c).
 */
#ifndef _SEG6X_PUSH_H
#define _SEG6X_PUSH_H

#include <linux/in6.h>
#include <linux/netdevice.h>
#include <linux/seg6.h>
#include <linux/skbuff.h>

#include "pernet.h"

enum seg6x_headend_mode {
	SEG6X_H_ENCAPS,		/* outer IPv6 + SRH, every segment in it */
	SEG6X_H_ENCAPS_RED,	/* outer IPv6 (+ SRH without the first) */
	SEG6X_H_INSERT,		/* SRH after the packet's IPv6 header */
};

/* A segment list, ready to push: built once, copied per packet. */
struct seg6x_headend {
	enum seg6x_headend_mode mode;
	u32 keyid;			/* HMAC key, 0 = no HMAC TLV */
	unsigned int nsegs;
	unsigned int srh_len;		/* 0: no SRH (reduced, one segment) */
	unsigned int overhead;		/* bytes added to each packet */
	struct in6_addr *segs;		/* path order */
	struct ipv6_sr_hdr *srh;	/* template, wire format */
};

/* Bytes of buffer seg6x_headend_init() uses for this list. */
size_t seg6x_headend_size(enum seg6x_headend_mode mode, unsigned int nsegs,
			  u32 keyid);
/* Fill @h from @segs (path order), its arrays in @buf. */
void seg6x_headend_init(struct seg6x_headend *h, enum seg6x_headend_mode mode,
			const struct in6_addr *segs, unsigned int nsegs,
			u32 keyid, void *buf);

/*
 * Push @h's headers onto the IPv6 or IPv4 (encap modes) packet at
 * skb->network_header, with @extra bytes of headroom to spare in front
 * of them. The outer source is the namespace's tunnel source or an
 * address of @dev. 0, -ENOMEM, -ENOKEY (the HMAC key is gone) or
 * -EINVAL (a packet the mode cannot take). Counts the HMACs it signs.
 * Packet path: under rcu_read_lock().
 */
int seg6x_headend_push(struct seg6x_net *sn, struct sk_buff *skb,
		       const struct seg6x_headend *h, struct net_device *dev,
		       unsigned int extra);

#endif /* _SEG6X_PUSH_H */

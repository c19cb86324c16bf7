// SPDX-License-Identifier: GPL-2.0
/*
 * push.c - write a segment list's headers into a packet (push.h).
 *
 * H.Encaps(.Red): outer IPv6 header (traffic class, flow label and hop
 * limit of the inner header) and SRH in front of an IPv6 or IPv4 packet.
 * H.Insert: SRH inserted after the packet's IPv6 header, the original
 * destination kept as Segment List[0]. The SRH is copied from the
 * template; only the per-packet fields (next header, Segment List[0] when
 * inserting, the HMAC) change.
 */
#include <net/addrconf.h>
#include <net/ip_tunnels.h>
#include <net/ipv6.h>

#include "hmac.h"
#include "pernet.h"
#include "push.h"
#include "srh.h"

/* The SRH's segments: the reduced SRH leaves out the first (the DA). */
static unsigned int seg6x_headend_srh_segs(enum seg6x_headend_mode mode,
					   unsigned int nsegs)
{
	return mode == SEG6X_H_ENCAPS_RED ? nsegs - 1 : nsegs;
}

static unsigned int seg6x_headend_srh_size(enum seg6x_headend_mode mode,
					   unsigned int nsegs, u32 keyid)
{
	unsigned int n = seg6x_headend_srh_segs(mode, nsegs);

	/* Reduced with one segment: no SRH at all (RFC 8986 5.2). */
	if (!n)
		return 0;
	return seg6x_srh_build_size(n, mode == SEG6X_H_INSERT, keyid);
}

size_t seg6x_headend_size(enum seg6x_headend_mode mode, unsigned int nsegs,
			  u32 keyid)
{
	return nsegs * sizeof(struct in6_addr) +
	       seg6x_headend_srh_size(mode, nsegs, keyid);
}

void seg6x_headend_init(struct seg6x_headend *h, enum seg6x_headend_mode mode,
			const struct in6_addr *segs, unsigned int nsegs,
			u32 keyid, void *buf)
{
	unsigned int skip = mode == SEG6X_H_ENCAPS_RED ? 1 : 0;

	h->mode = mode;
	h->keyid = keyid;
	h->nsegs = nsegs;
	h->segs = buf;
	memcpy(h->segs, segs, nsegs * sizeof(*segs));
	h->srh_len = seg6x_headend_srh_size(mode, nsegs, keyid);
	h->overhead = h->srh_len +
		      (mode == SEG6X_H_INSERT ? 0 : sizeof(struct ipv6hdr));
	h->srh = NULL;
	if (!h->srh_len)
		return;
	h->srh = (struct ipv6_sr_hdr *)(h->segs + nsegs);
	seg6x_srh_build(h->srh, segs + skip, nsegs - skip,
			mode == SEG6X_H_INSERT, keyid, keyid);
	/* Reduced: the first segment is only in the DA, so Segments Left =
	 * Last Entry + 1 (RFC 8986 5.2).
	 */
	if (skip)
		h->srh->segments_left++;
}

/* Tunnel source: the namespace's, or source address selection. */
static void seg6x_pick_saddr(struct seg6x_net *sn, struct net *net,
			     struct net_device *dev,
			     const struct in6_addr *daddr,
			     struct in6_addr *saddr)
{
	seg6x_tunsrc_get_rcu(sn, saddr);
	if (ipv6_addr_any(saddr))
		ipv6_dev_get_saddr(net, dev, daddr, IPV6_PREFER_SRC_PUBLIC,
				   saddr);
}

/* The template's HMAC TLV is its last (seg6x_srh_build()): no search. */
static int seg6x_sign(struct seg6x_net *sn, const struct seg6x_headend *h,
		      const struct in6_addr *saddr, struct ipv6_sr_hdr *srh)
{
	struct sr6_tlv_hmac *tlv = (void *)srh + h->srh_len - sizeof(*tlv);

	if (seg6x_hmac_compute(sn, h->keyid, saddr, srh, tlv->hmac))
		return -ENOKEY;
	seg6x_stats_inc(&sn->stats, SEG6X_STAT_HMAC_SIGNED);
	return 0;
}

/* What the outer header copies from the inner one (RFC 8986 5.1). */
struct seg6x_inner {
	u8 proto;
	u8 tclass;
	u8 hlim;
	__be32 flowlabel;
};

static int seg6x_inner_fields(struct sk_buff *skb, struct seg6x_inner *in)
{
	if (skb->protocol == htons(ETH_P_IPV6)) {
		const struct ipv6hdr *h = ipv6_hdr(skb);

		in->proto = IPPROTO_IPV6;
		in->tclass = ip6_tclass(ip6_flowinfo(h));
		in->flowlabel = ip6_flowlabel(h);
		in->hlim = h->hop_limit;
	} else if (skb->protocol == htons(ETH_P_IP)) {
		const struct iphdr *h = ip_hdr(skb);

		in->proto = IPPROTO_IPIP;
		in->tclass = h->tos;
		in->flowlabel = 0;
		in->hlim = h->ttl;
		/* The control block holds IPv4 state; IPv6 code reads it. */
		memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));
		IP6CB(skb)->iif = skb->skb_iif;
	} else {
		return -EINVAL;
	}
	return 0;
}

/*
 * Without GSO or a checksum still to compute (CHECKSUM_PARTIAL),
 * iptunnel_handle_offloads() only marks the packet's checksum as not
 * verified and the packet as not encapsulated (for the offloads): done
 * here without the call for that case, a router's common one.
 */
static int seg6x_encap_offloads(struct sk_buff *skb)
{
	if (skb_is_gso(skb) || skb->ip_summed == CHECKSUM_PARTIAL)
		return iptunnel_handle_offloads(skb, SKB_GSO_IPXIP6);
	skb->ip_summed = CHECKSUM_NONE;
	skb->encapsulation = 0;
	return 0;
}

/* H.Encaps and H.Encaps.Red: push an outer IPv6 header (and SRH). */
static int seg6x_push_encap(struct seg6x_net *sn, struct sk_buff *skb,
			    const struct seg6x_headend *h,
			    struct net_device *dev, unsigned int extra)
{
	struct seg6x_inner in;
	struct ipv6hdr *hdr;
	int err;

	err = seg6x_inner_fields(skb, &in);
	if (!err)
		err = seg6x_encap_offloads(skb);
	if (!err)
		err = skb_cow_head(skb, h->overhead + extra);
	if (err)
		return err;

	skb_push(skb, h->overhead);
	skb_reset_network_header(skb);
	skb_mac_header_rebuild(skb);
	hdr = ipv6_hdr(skb);
	ip6_flow_hdr(hdr, in.tclass, in.flowlabel);
	hdr->nexthdr = h->srh ? NEXTHDR_ROUTING : in.proto;
	hdr->hop_limit = in.hlim;
	hdr->payload_len = htons(skb->len - sizeof(*hdr));
	hdr->daddr = h->segs[0];
	seg6x_pick_saddr(sn, dev_net(dev), dev, &hdr->daddr, &hdr->saddr);

	if (h->srh) {
		struct ipv6_sr_hdr *srh = (struct ipv6_sr_hdr *)(hdr + 1);

		/* (Hdr Ext Len + 1) * 8, as the SRH says, not srh_len: the
		 * compiler copies a known multiple of 8 inline, the in-tree
		 * seg6's way.
		 */
		memcpy(srh, h->srh, (h->srh->hdrlen + 1) << 3);
		srh->nexthdr = in.proto;
		if (h->keyid) {
			err = seg6x_sign(sn, h, &hdr->saddr, srh);
			if (err)
				return err;
		}
	}
	skb_postpush_rcsum(skb, hdr, h->overhead);
	skb_set_inner_protocol(skb, skb->protocol);
	skb->protocol = htons(ETH_P_IPV6);
	skb_set_transport_header(skb, sizeof(*hdr));
	return 0;
}

/*
 * The length of what stays in front of an inserted SRH: the IPv6 header,
 * and its Hop-by-Hop header, which RFC 8200 4.1 keeps right behind it (in
 * front of it, the destination would find Hop-by-Hop where an upper
 * layer belongs, and drop the packet). 0 if the packet is cut short.
 */
static unsigned int seg6x_insert_offset(struct sk_buff *skb)
{
	unsigned int hlen = sizeof(struct ipv6hdr);

	if (ipv6_hdr(skb)->nexthdr != NEXTHDR_HOP)
		return hlen;
	if (!pskb_may_pull(skb, hlen + sizeof(struct ipv6_opt_hdr)))
		return 0;
	hlen += ipv6_optlen((struct ipv6_opt_hdr *)(ipv6_hdr(skb) + 1));
	return pskb_may_pull(skb, hlen) ? hlen : 0;
}

/*
 * Moves a 40-byte IPv6 header to @to from @from, which it may overlap:
 * every word is loaded before any is stored. The kernel's memmove() is
 * never inlined, and its call and size dispatch cost more than the move.
 */
static __always_inline void seg6x_move_ipv6hdr(void *to, const void *from)
{
	const u64 *src = from;
	u64 *dst = to;
	u64 w0 = get_unaligned(src), w1 = get_unaligned(src + 1);
	u64 w2 = get_unaligned(src + 2), w3 = get_unaligned(src + 3);
	u64 w4 = get_unaligned(src + 4);

	BUILD_BUG_ON(sizeof(struct ipv6hdr) != 5 * sizeof(u64));
	put_unaligned(w0, dst);
	put_unaligned(w1, dst + 1);
	put_unaligned(w2, dst + 2);
	put_unaligned(w3, dst + 3);
	put_unaligned(w4, dst + 4);
}

/* H.Insert: the SRH after the IPv6 (and Hop-by-Hop) header. */
static int seg6x_push_insert(struct seg6x_net *sn, struct sk_buff *skb,
			     const struct seg6x_headend *h, unsigned int extra)
{
	/* As the SRH says, not srh_len: a known multiple of 8 is copied
	 * inline (see seg6x_push_encap()).
	 */
	unsigned int srhlen = (h->srh->hdrlen + 1) << 3, hlen;
	struct ipv6_sr_hdr *srh;
	struct ipv6hdr *hdr;
	u8 *nexthdr;
	int err;

	if (skb->protocol != htons(ETH_P_IPV6))
		return -EINVAL;
	hlen = seg6x_insert_offset(skb);
	if (!hlen)
		return -EINVAL;
	err = skb_cow_head(skb, srhlen + extra);
	if (err)
		return err;

	skb_postpull_rcsum(skb, skb_network_header(skb), hlen);
	skb_push(skb, srhlen);
	if (likely(hlen == sizeof(*hdr)))
		seg6x_move_ipv6hdr(skb->data, skb->data + srhlen);
	else
		memmove(skb->data, skb->data + srhlen, hlen);
	skb_reset_network_header(skb);
	skb_mac_header_rebuild(skb);
	hdr = ipv6_hdr(skb);
	/* Hop-by-Hop's Next Header is its first byte. */
	nexthdr = hlen > sizeof(*hdr) ? (u8 *)(hdr + 1) : &hdr->nexthdr;

	srh = (struct ipv6_sr_hdr *)((u8 *)hdr + hlen);
	memcpy(srh, h->srh, srhlen);
	srh->nexthdr = *nexthdr;
	*nexthdr = NEXTHDR_ROUTING;
	srh->segments[0] = hdr->daddr;
	hdr->daddr = h->segs[0];
	hdr->payload_len = htons(skb->len - sizeof(*hdr));
	if (h->keyid) {
		err = seg6x_sign(sn, h, &hdr->saddr, srh);
		if (err)
			return err;
	}
	skb_postpush_rcsum(skb, hdr, hlen + srhlen);
	skb_set_transport_header(skb, hlen);
	return 0;
}

int seg6x_headend_push(struct seg6x_net *sn, struct sk_buff *skb,
		       const struct seg6x_headend *h, struct net_device *dev,
		       unsigned int extra)
{
	if (h->mode == SEG6X_H_INSERT)
		return seg6x_push_insert(sn, skb, h, extra);
	return seg6x_push_encap(sn, skb, h, dev, extra);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * lwt_push.c - write a seg6x route's headers into a packet.
 *
 * encap  (H.Encaps, RFC 8986 5.1): outer IPv6 header + SRH in front of an
 *        IPv6 or IPv4 packet; source = the namespace's tunnel source, or
 *        an address of the route's interface when that is ::.
 * inline (H.Insert, as in the 2016 Linux SRv6 series): SRH inserted after
 *        the IPv6 header, the original destination kept as Segment
 *        List[0].
 * The SRH is copied from the route's wire-format template; only the
 * per-packet fields (next header, Segment List[0] inline, HMAC) change.
 */
#include <net/addrconf.h>
#include <net/ip_tunnels.h>
#include <net/ipv6.h>

#include "hmac.h"
#include "lwt_state.h"
#include "pernet.h"
#include "srh.h"

/* Tunnel source: the namespace's, or source address selection. */
static void seg6x_pick_saddr(struct net *net, struct net_device *dev,
			     const struct in6_addr *daddr,
			     struct in6_addr *saddr)
{
	seg6x_tunsrc_get(seg6x_pernet(net), saddr);
	if (ipv6_addr_any(saddr))
		ipv6_dev_get_saddr(net, dev, daddr, IPV6_PREFER_SRC_PUBLIC,
				   saddr);
}

static int seg6x_sign(struct seg6x_net *sn, const struct seg6x_lwt *sl,
		      const struct in6_addr *saddr, struct ipv6_sr_hdr *srh)
{
	struct sr6_tlv_hmac *tlv = seg6x_srh_hmac_tlv(srh);

	if (seg6x_hmac_compute(sn, sl->keyid, saddr, srh, tlv->hmac)) {
		seg6x_stats_inc(&sn->stats, SEG6X_STAT_DROP_HMAC_NOKEY);
		return -ENOKEY;
	}
	seg6x_stats_inc(&sn->stats, SEG6X_STAT_HMAC_SIGNED);
	return 0;
}

/* H.Encaps: push an outer IPv6 header and the SRH. */
static int seg6x_push_encap(struct net *net, struct sk_buff *skb,
			    const struct seg6x_lwt *sl, struct net_device *dev,
			    unsigned int extra)
{
	struct seg6x_net *sn = seg6x_pernet(net);
	unsigned int srhlen = sl->overhead - sizeof(struct ipv6hdr);
	struct ipv6_sr_hdr *srh;
	struct ipv6hdr *hdr;
	__be32 flowlabel = 0;
	u8 proto, tclass, hlim;
	int err;

	if (skb->protocol == htons(ETH_P_IPV6)) {
		const struct ipv6hdr *in = ipv6_hdr(skb);

		proto = IPPROTO_IPV6;
		tclass = ip6_tclass(ip6_flowinfo(in));
		flowlabel = ip6_flowlabel(in);
		hlim = in->hop_limit;
	} else if (skb->protocol == htons(ETH_P_IP)) {
		const struct iphdr *in = ip_hdr(skb);

		proto = IPPROTO_IPIP;
		tclass = in->tos;
		hlim = in->ttl;
		/* The control block holds IPv4 state; IPv6 code reads it. */
		memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));
		IP6CB(skb)->iif = skb->skb_iif;
	} else {
		return -EINVAL;
	}

	err = iptunnel_handle_offloads(skb, SKB_GSO_IPXIP6);
	if (err)
		return err;
	err = skb_cow_head(skb, sl->overhead + extra);
	if (err)
		return err;

	skb_push(skb, sl->overhead);
	skb_reset_network_header(skb);
	skb_mac_header_rebuild(skb);
	hdr = ipv6_hdr(skb);
	ip6_flow_hdr(hdr, tclass, flowlabel);
	hdr->nexthdr = NEXTHDR_ROUTING;
	hdr->hop_limit = hlim;
	hdr->payload_len = htons(skb->len - sizeof(*hdr));

	srh = (struct ipv6_sr_hdr *)(hdr + 1);
	memcpy(srh, sl->srh, srhlen);
	srh->nexthdr = proto;
	hdr->daddr = srh->segments[srh->first_segment];
	seg6x_pick_saddr(net, dev, &hdr->daddr, &hdr->saddr);

	if (sl->hmac) {
		err = seg6x_sign(sn, sl, &hdr->saddr, srh);
		if (err)
			return err;
	}

	skb_postpush_rcsum(skb, hdr, sl->overhead);
	skb_set_inner_protocol(skb, skb->protocol);
	skb->protocol = htons(ETH_P_IPV6);
	skb_set_transport_header(skb, sizeof(*hdr));
	seg6x_stats_inc(&sn->stats, SEG6X_STAT_ENCAP);
	return 0;
}

/*
 * Inline mode: insert the SRH after the packet's IPv6 header, or after its
 * Hop-by-Hop header, which RFC 8200 4.1 keeps right behind the IPv6
 * header (in front of it, the destination would find Hop-by-Hop where an
 * upper layer belongs, and drop the packet).
 */
static int seg6x_push_inline(struct net *net, struct sk_buff *skb,
			     const struct seg6x_lwt *sl, unsigned int extra)
{
	struct seg6x_net *sn = seg6x_pernet(net);
	unsigned int srhlen = sl->overhead;
	unsigned int hlen = sizeof(struct ipv6hdr);	/* stays in front */
	struct ipv6_sr_hdr *srh;
	struct ipv6hdr *hdr;
	u8 *nexthdr;
	int err;

	if (skb->protocol != htons(ETH_P_IPV6))
		return -EINVAL;
	if (ipv6_hdr(skb)->nexthdr == NEXTHDR_HOP) {
		if (!pskb_may_pull(skb, hlen + sizeof(struct ipv6_opt_hdr)))
			return -EINVAL;
		hlen += ipv6_optlen((struct ipv6_opt_hdr *)(ipv6_hdr(skb) + 1));
		if (!pskb_may_pull(skb, hlen))
			return -EINVAL;
	}
	err = skb_cow_head(skb, srhlen + extra);
	if (err)
		return err;

	skb_postpull_rcsum(skb, skb_network_header(skb), hlen);
	skb_push(skb, srhlen);
	memmove(skb->data, skb->data + srhlen, hlen);
	skb_reset_network_header(skb);
	skb_mac_header_rebuild(skb);
	hdr = ipv6_hdr(skb);
	/* Hop-by-Hop's Next Header is its first byte. */
	nexthdr = hlen > sizeof(*hdr) ? (u8 *)(hdr + 1) : &hdr->nexthdr;

	srh = (struct ipv6_sr_hdr *)((u8 *)hdr + hlen);
	memcpy(srh, sl->srh, srhlen);
	srh->nexthdr = *nexthdr;
	*nexthdr = NEXTHDR_ROUTING;
	srh->segments[0] = hdr->daddr;
	hdr->daddr = srh->segments[srh->first_segment];
	hdr->payload_len = htons(skb->len - sizeof(*hdr));

	if (sl->hmac) {
		err = seg6x_sign(sn, sl, &hdr->saddr, srh);
		if (err)
			return err;
	}

	skb_postpush_rcsum(skb, hdr, hlen + srhlen);
	skb_set_transport_header(skb, hlen);
	seg6x_stats_inc(&sn->stats, SEG6X_STAT_INLINE);
	return 0;
}

int seg6x_push(struct net *net, struct sk_buff *skb,
	       const struct seg6x_lwt *sl, struct net_device *dev,
	       struct dst_entry *next)
{
	unsigned int extra = next ? dst_dev_overhead(next, skb) : 0;
	int err;

	if (sl->mode == SEG6X_IPTUN_MODE_INLINE)
		err = seg6x_push_inline(net, skb, sl, extra);
	else
		err = seg6x_push_encap(net, skb, sl, dev, extra);
	if (err == -ENOMEM)
		seg6x_stats_inc(&seg6x_pernet(net)->stats,
				SEG6X_STAT_DROP_NOMEM);
	if (!err)
		nf_reset_ct(skb);
	return err;
}

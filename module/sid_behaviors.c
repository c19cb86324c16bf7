// SPDX-License-Identifier: GPL-2.0
/*
 * sid_behaviors.c - RFC 8986 endpoint behaviours of the local SID table.
 *
 * Runs from the PRE_ROUTING hook (input.c) for a packet whose IPv6
 * destination matched a SID, before the implicit End on local addresses.
 * On the wire each behaviour emits what the in-tree seg6local action of
 * the same name does: the SRH-forwarding behaviours leave the forwarding
 * (and its hop-limit decrement) to the stack, with the adjacency or
 * table route attached for End.X and End.T; the decapsulating ones hand
 * the inner packet to the route they looked up (dst_input()), as
 * seg6local does. Nothing here allocates, except unsharing headers and
 * the headroom End.B6.Encaps needs.
 */
#include <linux/etherdevice.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/if_arp.h>
#include <linux/netfilter_ipv4.h>
#include <net/addrconf.h>
#include <net/dst.h>
#include <net/icmp.h>
#include <net/ip.h>
#include <net/ip6_fib.h>
#include <net/ip6_route.h>
#include <net/ip_tunnels.h>
#include <net/ipv6.h>
#include <net/l3mdev.h>
#include <net/neighbour.h>
#include <net/route.h>

#include "hmac.h"
#include "input_pkt.h"
#include "sid.h"

/* RFC 8986 4.1.1: Parameter Problem code "SR Upper-layer Header Error" */
#define SEG6X_ICMPV6_SR_UPPER	4

/* End.B6.Encaps(.Red) policies one packet may enter at this node. */
#define SEG6X_SID_MAX_B6_NEST	4

static enum seg6x_verdict seg6x_sid_fail(struct seg6x_pkt *p, bool silent)
{
	p->silent = silent;
	return seg6x_drop(p, SEG6X_STAT_DROP_SID);
}

/*
 * Attach the route towards @nh (or the destination), in @table or the
 * main FIB, as the in-tree seg6_lookup_any_nexthop() does. A route error
 * (unreachable, prohibit) is attached too, so that the stack answers as
 * it would for any packet; a local route where none may be is dropped.
 */
static enum seg6x_verdict seg6x_sid_route6(struct seg6x_pkt *p,
					   const struct in6_addr *nh, int oif,
					   u32 table, bool local_ok)
{
	struct sk_buff *skb = p->skb;
	const struct ipv6hdr *hdr = ipv6_hdr(skb);
	struct flowi6 fl6 = {
		.flowi6_iif = skb->dev->ifindex,
		.flowi6_oif = oif,
		.daddr = nh ? *nh : hdr->daddr,
		.saddr = hdr->saddr,
		.flowlabel = ip6_flowinfo(hdr),
		.flowi6_mark = skb->mark,
		.flowi6_proto = hdr->nexthdr,
	};
	int flags = RT6_LOOKUP_F_HAS_SADDR;
	struct dst_entry *dst;

	if (nh)
		fl6.flowi6_flags = FLOWI_FLAG_KNOWN_NH;
	if (table) {
		struct fib6_table *t = fib6_get_table(p->net, table);

		if (!t)
			return seg6x_drop(p, SEG6X_STAT_DROP_NO_ROUTE);
		dst = &ip6_pol_route(p->net, t, oif, &fl6, skb, flags)->dst;
	} else if (oif) {
		dst = ip6_route_output(p->net, NULL, &fl6);
	} else {
		dst = ip6_route_input_lookup(p->net, skb->dev, &fl6, skb,
					     flags);
	}
	if (!dst->error && !local_ok && (dst->dev->flags & IFF_LOOPBACK)) {
		dst_release(dst);
		return seg6x_drop(p, SEG6X_STAT_DROP_NO_ROUTE);
	}
	if (dst->error) {
		seg6x_stats_inc(&p->sn->stats, SEG6X_STAT_DROP_NO_ROUTE);
		p->sid_failed = true;
	}
	skb_dst_drop(skb);
	skb_dst_set(skb, dst);
	return SEG6X_PASS;
}

/*
 * Local delivery of a packet to a SID that is no address of this node
 * (an ICMPv6 echo request to a SID, RFC 8986 4.1.1): the route of ::1 is
 * a local one, so the stack delivers the packet here and answers from
 * the SID.
 */
static enum seg6x_verdict seg6x_sid_deliver(struct seg6x_pkt *p)
{
	struct flowi6 fl6 = {
		.daddr = in6addr_loopback,
		.flowi6_oif = LOOPBACK_IFINDEX,
	};
	struct dst_entry *dst;
	bool no_route;

	if (seg6x_is_local(p, &no_route))
		return SEG6X_PASS;
	dst = ip6_route_output(p->net, NULL, &fl6);
	if (dst->error ||
	    !(((struct rt6_info *)dst)->rt6i_flags & RTF_LOCAL)) {
		dst_release(dst);
		return seg6x_drop(p, SEG6X_STAT_DROP_NO_ROUTE);
	}
	skb_dst_drop(p->skb);
	skb_dst_set(p->skb, dst);
	return SEG6X_PASS;
}

/*
 * Where the payload after the SRH (or the IPv6 header) starts, and what:
 * past Hop-by-Hop (right after the IPv6 header only), Destination Options
 * and atomic Fragment headers (RFC 8200 4.5: processed in isolation). A
 * routing header there (RFC 8200 allows one, and seg6x found no SRH in
 * it) or a piece of a fragmented packet is no payload to take.
 */
static int seg6x_sid_payload(struct seg6x_pkt *p, u8 *proto)
{
	struct sk_buff *skb = p->skb;
	unsigned int off;
	u8 nh, buf[4];
	const u8 *h;
	int i;

	if (p->has_srh) {
		nh = seg6x_pkt_srh(p)->nexthdr;
		off = p->srh_off + p->srh_len;
	} else {
		nh = ipv6_hdr(skb)->nexthdr;
		off = sizeof(struct ipv6hdr);
	}
	for (i = 0; i < SEG6X_MAX_EXTHDRS; i++) {
		if (nh != NEXTHDR_HOP && nh != NEXTHDR_DEST &&
		    nh != NEXTHDR_FRAGMENT)
			break;
		if (nh == NEXTHDR_HOP && (i || p->has_srh))
			return -EINVAL;
		h = skb_header_pointer(skb, skb_network_offset(skb) + off,
				       sizeof(buf), buf);
		if (!h)
			return -EINVAL;
		if (nh == NEXTHDR_FRAGMENT) {
			/* Fragment Offset and M flag, network order */
			if (((h[2] << 8) | h[3]) & (IP6_OFFSET | IP6_MF))
				return -EINVAL;
			off += sizeof(struct frag_hdr);
		} else {
			off += ipv6_optlen((const struct ipv6_opt_hdr *)h);
		}
		nh = h[0];
	}
	if (nh == NEXTHDR_ROUTING || nh == NEXTHDR_NONE ||
	    nh == NEXTHDR_HOP || nh == NEXTHDR_DEST || nh == NEXTHDR_FRAGMENT)
		return -EINVAL;
	*proto = nh;
	return off;
}

/*
 * RFC 8986 4.1.1 (End, End.X, End.T with Segments Left 0 or no SRH; the
 * USP and USD flavours of 4.16.2 and 4.16.3).
 */
static enum seg6x_verdict seg6x_sid_upper(struct seg6x_pkt *p,
					  const struct seg6x_sid *sid)
{
	int off;
	u8 proto;

	if (p->has_srh && (sid->flavors & SEG6X_FLV_USP)) {
		seg6x_srh_pop(p);
		p->has_srh = false;
	}
	off = seg6x_sid_payload(p, &proto);
	if (off < 0)
		return seg6x_sid_fail(p, true);

	if ((sid->flavors & SEG6X_FLV_USD) &&
	    (proto == NEXTHDR_IPV6 || proto == NEXTHDR_IPV4)) {
		if (!pskb_may_pull(p->skb, off))
			return seg6x_sid_fail(p, true);
		return seg6x_decap(p, off, proto);
	}
	if (proto == NEXTHDR_ICMP) {
		/* The local stack would drop it for its SRH. */
		if (p->has_srh) {
			seg6x_srh_pop(p);
			p->has_srh = false;
		}
		return seg6x_sid_deliver(p);
	}
	p->icmp_code = SEG6X_ICMPV6_SR_UPPER;
	p->icmp_pointer = off;
	return seg6x_sid_fail(p, false);
}

/* Where End, End.X and End.T send the packet once its DA changed. */
static enum seg6x_verdict seg6x_sid_forward(struct seg6x_pkt *p,
					    const struct seg6x_sid *sid)
{
	switch (sid->behavior) {
	case SEG6X_BEHAVIOR_END_X:
		return seg6x_sid_route6(p, &sid->nh6, sid->oif, 0, false);
	case SEG6X_BEHAVIOR_END_T:
		return seg6x_sid_route6(p, NULL, 0, sid->table, false);
	default:
		/* The stack routes the new destination; another SID or a
		 * local address of ours gets its turn first.
		 */
		return SEG6X_AGAIN;
	}
}

/*
 * NEXT-C-SID (RFC 9800): while the DA's argument (the bits after the
 * locator block and this node's C-SID) is not zero, the next C-SID moves
 * up behind the locator block and the SRH is left alone. True if the DA
 * changed so.
 */
static bool seg6x_sid_next_csid(struct seg6x_pkt *p,
				const struct seg6x_sid *sid)
{
	struct ipv6hdr *ip6h = ipv6_hdr(p->skb);
	unsigned int blk = sid->lblen / 8, fnc = sid->nflen / 8, i;
	u8 *a = ip6h->daddr.s6_addr;

	for (i = blk + fnc; i < 16 && !a[i]; i++)
		;
	if (i == 16)
		return false;
	seg6x_csum_sub(p->skb, a, 16);
	memmove(a + blk, a + blk + fnc, 16 - blk - fnc);
	memset(a + 16 - fnc, 0, fnc);
	seg6x_csum_add(p->skb, a, 16);
	skb_dst_drop(p->skb);
	return true;
}

/* End, End.X, End.T (RFC 8986 4.1-4.3) with PSP/USP/USD (4.16) and
 * NEXT-C-SID (RFC 9800).
 */
static enum seg6x_verdict seg6x_sid_end(struct seg6x_pkt *p,
					const struct seg6x_sid *sid)
{
	enum seg6x_verdict v;

	if ((sid->flavors & SEG6X_FLV_NEXT_CSID) && seg6x_sid_next_csid(p, sid))
		return seg6x_sid_forward(p, sid);
	if (!p->has_srh || !seg6x_pkt_srh(p)->segments_left)
		return seg6x_sid_upper(p, sid);

	v = seg6x_advance(p);
	if (v != SEG6X_GO)
		return v;
	/* PSP (4.16.1): the penultimate SID removes the SRH. */
	if ((sid->flavors & SEG6X_FLV_PSP) && !seg6x_pkt_srh(p)->segments_left) {
		seg6x_srh_pop(p);
		p->has_srh = false;
	}
	return seg6x_sid_forward(p, sid);
}

/*
 * End.B6.Encaps(.Red) (RFC 8986 4.13, 4.14): a new outer IPv6 header and
 * SRH in front of the packet whose own SRH was advanced. Outer fields
 * as H.Encaps: traffic class, flow label and hop limit of the inner
 * header; source = tunsrc, or an address of the ingress interface.
 */
static enum seg6x_verdict seg6x_sid_b6(struct seg6x_pkt *p,
				       const struct seg6x_sid *sid)
{
	unsigned int hlen = sizeof(struct ipv6hdr) + sid->srh_len;
	struct sk_buff *skb = p->skb;
	const struct ipv6hdr *in;
	struct ipv6_sr_hdr *srh;
	struct ipv6hdr *hdr;
	enum seg6x_verdict v;
	__be32 flowlabel;
	u8 tclass, hlim;

	if (!p->has_srh || !seg6x_pkt_srh(p)->segments_left)
		return seg6x_sid_upper(p, sid);
	/*
	 * A binding SID whose policy leads back to itself would grow the
	 * packet by its headers on every pass until the hop limit ran out
	 * (~250 passes, a 16-bit payload length that wraps): a few nested
	 * policies per node are plenty, and no result may exceed what an
	 * IPv6 header can describe.
	 */
	if (++p->b6_passes > SEG6X_SID_MAX_B6_NEST ||
	    skb->len - skb_network_offset(skb) + hlen >
	    IPV6_MAXPLEN + sizeof(struct ipv6hdr))
		return seg6x_sid_fail(p, true);
	v = seg6x_advance(p);
	if (v != SEG6X_GO)
		return v;

	if (skb_cow_head(skb, hlen + skb->mac_len)) {
		p->silent = true;
		return seg6x_drop(p, SEG6X_STAT_DROP_NOMEM);
	}
	skb_reset_inner_headers(skb);
	skb->encapsulation = 1;
	in = ipv6_hdr(skb);
	tclass = ip6_tclass(ip6_flowinfo(in));
	flowlabel = ip6_flowlabel(in);
	hlim = in->hop_limit;

	skb_push(skb, hlen);
	skb_reset_network_header(skb);
	skb_mac_header_rebuild(skb);
	hdr = ipv6_hdr(skb);
	ip6_flow_hdr(hdr, tclass, flowlabel);
	hdr->nexthdr = sid->srh ? NEXTHDR_ROUTING : NEXTHDR_IPV6;
	hdr->hop_limit = hlim;
	hdr->payload_len = htons(skb->len - sizeof(*hdr));
	hdr->daddr = sid->segs[0];
	seg6x_tunsrc_get(p->sn, &hdr->saddr);
	if (ipv6_addr_any(&hdr->saddr))
		ipv6_dev_get_saddr(p->net, skb->dev, &hdr->daddr,
				   IPV6_PREFER_SRC_PUBLIC, &hdr->saddr);

	p->has_srh = !!sid->srh;
	if (sid->srh) {
		srh = (struct ipv6_sr_hdr *)(hdr + 1);
		memcpy(srh, sid->srh, sid->srh_len);
		srh->nexthdr = NEXTHDR_IPV6;
		if (sid->keyid) {
			if (seg6x_hmac_compute(p->sn, sid->keyid, &hdr->saddr,
					       srh,
					       seg6x_srh_hmac_tlv(srh)->hmac)) {
				p->silent = true;
				return seg6x_drop(p, SEG6X_STAT_DROP_HMAC_NOKEY);
			}
			seg6x_stats_inc(&p->sn->stats,
					SEG6X_STAT_HMAC_SIGNED);
		}
		p->srh_off = sizeof(*hdr);
		p->nh_off = offsetof(struct ipv6hdr, nexthdr);
		p->srh_len = sid->srh_len;
	}
	skb_postpush_rcsum(skb, hdr, hlen);
	skb_set_transport_header(skb, sizeof(*hdr));
	nf_reset_ct(skb);
	return SEG6X_AGAIN;
}

/* ---- decapsulating behaviours ---------------------------------------- */

/* After the IPv4 FORWARD hook: as ip_forward_finish(). */
static int seg6x_sid_dx4_out(struct net *net, struct sock *sk,
			     struct sk_buff *skb)
{
	IPCB(skb)->flags |= IPSKB_FORWARDED;
	/* A receive timestamp is no departure time for the qdisc. */
	skb_clear_tstamp(skb);
	return dst_output(net, sk, skb);
}

/*
 * IPv4 forwarded to nh4 (End.DX4): to its link-layer address, not the
 * inner destination's (RFC 8986 4.5; the in-tree seg6local resolves the
 * inner destination). FLOWI_FLAG_KNOWN_NH makes the route an uncached one
 * whose gateway is nh4 even on a connected subnet. Then the path of any
 * forwarded IPv4 packet: the FORWARD hook, dst_output() with POSTROUTING,
 * fragmentation or Fragmentation Needed as DF says.
 */
static enum seg6x_verdict seg6x_sid_dx4(struct seg6x_pkt *p,
					const struct seg6x_sid *sid)
{
	struct sk_buff *skb = p->skb;
	struct flowi4 fl4 = {
		.daddr = sid->nh4,
		.flowi4_oif = sid->oif,
		.flowi4_mark = skb->mark,
		.flowi4_flags = FLOWI_FLAG_KNOWN_NH,
	};
	struct rtable *rt;

	rt = ip_route_output_key(p->net, &fl4);
	if (IS_ERR(rt))
		return seg6x_drop(p, SEG6X_STAT_DROP_NO_ROUTE);
	skb_dst_set(skb, &rt->dst);
	if (rt->rt_type != RTN_UNICAST || rt->rt_gw_family != AF_INET)
		return seg6x_drop(p, SEG6X_STAT_DROP_NO_ROUTE);

	if (ip_hdr(skb)->ttl <= 1) {
		icmp_send(skb, ICMP_TIME_EXCEEDED, ICMP_EXC_TTL, 0);
		p->silent = true;
		return seg6x_drop(p, SEG6X_STAT_DROP_HOP_LIMIT);
	}
	if (skb_ensure_writable(skb, sizeof(struct iphdr))) {
		p->silent = true;
		return seg6x_drop(p, SEG6X_STAT_DROP_NOMEM);
	}
	ip_decrease_ttl(ip_hdr(skb));
	skb_forward_csum(skb);
	NF_HOOK(NFPROTO_IPV4, NF_INET_FORWARD, p->net, NULL, skb, skb->dev,
		rt->dst.dev, seg6x_sid_dx4_out);
	return SEG6X_STOLEN;
}

/* End.DX2 (4.9): the inner Ethernet frame out of the SID's device. */
static enum seg6x_verdict seg6x_sid_dx2(struct seg6x_pkt *p,
					const struct seg6x_sid *sid)
{
	struct sk_buff *skb = p->skb;
	struct net_device *odev;
	struct ethhdr *eth;

	if (!pskb_may_pull(skb, ETH_HLEN))
		return seg6x_sid_fail(p, true);
	skb_reset_mac_header(skb);
	eth = eth_hdr(skb);
	if (!eth_proto_is_802_3(eth->h_proto))
		return seg6x_sid_fail(p, true);

	odev = dev_get_by_index_rcu(p->net, sid->oif);
	if (!odev || odev->type != ARPHRD_ETHER || !(odev->flags & IFF_UP) ||
	    !netif_carrier_ok(odev) || skb->len - ETH_HLEN > odev->mtu)
		return seg6x_sid_fail(p, true);

	skb_forward_csum(skb);
	skb->dev = odev;
	skb->protocol = eth->h_proto;
	dev_queue_xmit(skb);
	return SEG6X_STOLEN;
}

/*
 * End.DT4/DT6/DT46 into a VRF: the inner packet is received again as if
 * on the VRF device, whose table routes it: PRE_ROUTING, conntrack and
 * taps see it there, and a packet for an address in the VRF is delivered
 * locally. Through the backlog (seg6x_reinject()), since the stack and
 * the VRF run PRE_ROUTING, this hook included, for the inner packet.
 */
static enum seg6x_verdict seg6x_sid_vrf(struct seg6x_pkt *p,
					const struct seg6x_sid *sid)
{
	struct net_device *vrf = dev_get_by_index_rcu(p->net, sid->vrf);

	if (!vrf || !netif_is_l3_master(vrf))
		return seg6x_sid_fail(p, true);
	return seg6x_reinject(p, vrf);
}

/* Is the inner header at @off one this behaviour takes? */
static bool seg6x_sid_takes(u8 behavior, u8 proto)
{
	switch (behavior) {
	case SEG6X_BEHAVIOR_END_DX2:
		return proto == IPPROTO_ETHERNET;
	case SEG6X_BEHAVIOR_END_DX6:
	case SEG6X_BEHAVIOR_END_DT6:
		return proto == NEXTHDR_IPV6;
	case SEG6X_BEHAVIOR_END_DX4:
	case SEG6X_BEHAVIOR_END_DT4:
		return proto == NEXTHDR_IPV4;
	default:	/* End.DT46 */
		return proto == NEXTHDR_IPV6 || proto == NEXTHDR_IPV4;
	}
}

/* A minimal sanity check of the inner IP header, now at skb->data. */
static bool seg6x_sid_inner_ok(struct sk_buff *skb, u8 proto)
{
	if (proto == NEXTHDR_IPV6)
		return pskb_may_pull(skb, sizeof(struct ipv6hdr)) &&
		       ipv6_hdr(skb)->version == 6;
	if (proto == NEXTHDR_IPV4) {
		const struct iphdr *iph;

		if (!pskb_may_pull(skb, sizeof(*iph)))
			return false;
		iph = ip_hdr(skb);
		if (iph->version != 4 || iph->ihl < 5 ||
		    !pskb_may_pull(skb, iph->ihl * 4))
			return false;
		iph = ip_hdr(skb);
		return ntohs(iph->tot_len) >= iph->ihl * 4 &&
		       !pskb_trim_rcsum(skb, ntohs(iph->tot_len));
	}
	return true;
}

/* End.DX2/DX4/DX6/DT4/DT6/DT46 (RFC 8986 4.4-4.9). */
static enum seg6x_verdict seg6x_sid_decap(struct seg6x_pkt *p,
					  const struct seg6x_sid *sid)
{
	struct sk_buff *skb = p->skb;
	int off;
	u8 proto;

	/* S02-S04: an SRH must be at its end here. */
	if (p->has_srh && seg6x_pkt_srh(p)->segments_left) {
		p->icmp_pointer = p->srh_off +
				  offsetof(struct ipv6_sr_hdr, segments_left);
		return seg6x_sid_fail(p, p->pol.require_hmac > 0 &&
					 !p->authenticated);
	}
	off = seg6x_sid_payload(p, &proto);
	if (off < 0 || !seg6x_sid_takes(sid->behavior, proto) ||
	    !pskb_may_pull(skb, off))
		return seg6x_sid_fail(p, true);

	skb_pull_rcsum(skb, off);
	skb_reset_network_header(skb);
	skb_reset_transport_header(skb);
	skb->encapsulation = 0;
	if (iptunnel_pull_offloads(skb) || !seg6x_sid_inner_ok(skb, proto))
		return seg6x_sid_fail(p, true);
	skb_dst_drop(skb);
	nf_reset_ct(skb);
	/* The inner packet is not what was reassembled: its source did not
	 * fragment it, so no router may (RFC 8200 5, RFC 791 DF).
	 */
	skb->ignore_df = 0;
	seg6x_stats_inc(&p->sn->stats, SEG6X_STAT_DECAP);

	if (proto == NEXTHDR_IPV4) {
		skb->protocol = htons(ETH_P_IP);
		memset(IPCB(skb), 0, sizeof(*IPCB(skb)));
		IPCB(skb)->iif = skb->dev->ifindex;
		skb_set_transport_header(skb, ip_hdr(skb)->ihl * 4);
	} else if (proto == NEXTHDR_IPV6) {
		skb->protocol = htons(ETH_P_IPV6);
		memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));
		IP6CB(skb)->iif = skb->dev->ifindex;
		/* Local delivery (dst_input() to a local route) reads the
		 * next header here, as ipv6_rcv() would have set it.
		 */
		IP6CB(skb)->nhoff = offsetof(struct ipv6hdr, nexthdr);
		skb_set_transport_header(skb, sizeof(struct ipv6hdr));
	}

	switch (sid->behavior) {
	case SEG6X_BEHAVIOR_END_DX2:
		return seg6x_sid_dx2(p, sid);
	case SEG6X_BEHAVIOR_END_DX4:
		return seg6x_sid_dx4(p, sid);
	case SEG6X_BEHAVIOR_END_DX6:
		if (seg6x_sid_route6(p, &sid->nh6, sid->oif, 0, false) ==
		    SEG6X_DROP)
			return SEG6X_DROP;
		break;
	case SEG6X_BEHAVIOR_END_DT6:
		if (sid->vrf)
			return seg6x_sid_vrf(p, sid);
		if (seg6x_sid_route6(p, NULL, 0, sid->table, true) ==
		    SEG6X_DROP)
			return SEG6X_DROP;
		break;
	default:	/* End.DT4, End.DT46 */
		return seg6x_sid_vrf(p, sid);
	}
	dst_input(skb);
	return SEG6X_STOLEN;
}

static enum seg6x_verdict seg6x_sid_run(struct seg6x_pkt *p,
					const struct seg6x_sid *sid)
{
	enum seg6x_verdict v;

	if (unlikely(READ_ONCE(sid->dead)))
		return seg6x_sid_fail(p, true);

	if (p->has_srh) {
		/* RFC 8754 checks and the ingress interface's HMAC policy
		 * apply to every behaviour that receives an SRH.
		 */
		seg6x_policy_get(p->sn, p->skb->dev->ifindex, &p->pol);
		v = seg6x_srh_checks(p);
		if (v != SEG6X_GO)
			return v;
	} else {
		/* An SRH seg6x cannot see: on an interface that requires
		 * an HMAC, nothing unauthenticated (RFC 8754 5).
		 */
		if (p->srh_hidden) {
			seg6x_policy_get(p->sn, p->skb->dev->ifindex, &p->pol);
			if (p->pol.require_hmac > 0) {
				p->silent = true;
				return seg6x_drop(p,
						  SEG6X_STAT_DROP_HMAC_MISSING);
			}
		}
		if (skb_ensure_writable(p->skb, sizeof(struct ipv6hdr))) {
			p->silent = true;
			return seg6x_drop(p, SEG6X_STAT_DROP_NOMEM);
		}
	}

	switch (sid->behavior) {
	case SEG6X_BEHAVIOR_END:
	case SEG6X_BEHAVIOR_END_X:
	case SEG6X_BEHAVIOR_END_T:
		return seg6x_sid_end(p, sid);
	case SEG6X_BEHAVIOR_END_B6_ENCAPS:
	case SEG6X_BEHAVIOR_END_B6_ENCAPS_RED:
		return seg6x_sid_b6(p, sid);
	default:
		return seg6x_sid_decap(p, sid);
	}
}

/*
 * The SID matching the packet's destination processes it. SEG6X_GO: no
 * SID matched (the implicit End may apply); SEG6X_AGAIN: the destination
 * changed, look again.
 */
enum seg6x_verdict seg6x_sid_input(struct seg6x_pkt *p)
{
	struct sk_buff *skb = p->skb;
	struct ipv6hdr *ip6h = ipv6_hdr(skb);
	unsigned int len = skb->len;
	enum seg6x_verdict v;
	struct seg6x_sid *sid;

	sid = seg6x_sid_lookup(p->sn, &ip6h->daddr);
	if (!sid)
		return SEG6X_GO;
	v = seg6x_repass(p);
	if (v != SEG6X_GO)
		return v;

	p->sid_failed = false;
	v = seg6x_sid_run(p, sid);
	seg6x_sid_count(sid, len, v == SEG6X_DROP || p->sid_failed);
	if (v != SEG6X_DROP)
		seg6x_stats_inc(&p->sn->stats,
				SEG6X_STAT_SID_END + sid->behavior -
				SEG6X_BEHAVIOR_END);
	return v;
}

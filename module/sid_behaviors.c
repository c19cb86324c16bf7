// SPDX-License-Identifier: GPL-2.0
/*
 * sid_behaviors.c - RFC 8986 endpoint behaviours of the local SID table:
 * the behaviour table and one input function per behaviour, built from
 * the endpoint library (endpoint.c) and the headend push (push.c).
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
#include <net/route.h>

#include "endpoint.h"
#include "ifdrops.h"
#include "push.h"
#include "sid.h"

/* RFC 8986 4.1.1: Parameter Problem code "SR Upper-layer Header Error" */
#define SEG6X_ICMPV6_SR_UPPER	4

/* End.B6.Encaps(.Red) policies one packet may enter at this node. */
#define SEG6X_SID_MAX_B6_NEST	4

static enum seg6x_verdict seg6x_sid_fail(struct seg6x_pkt *p, bool silent)
{
	p->silent = silent;
	return seg6x_drop_reason(p, SEG6X_STAT_DROP_SID);
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
			return seg6x_drop_reason(p, SEG6X_STAT_DROP_NO_ROUTE);
		dst = &ip6_pol_route(p->net, t, oif, &fl6, skb, flags)->dst;
	} else if (oif) {
		dst = ip6_route_output(p->net, NULL, &fl6);
	} else {
		dst = ip6_route_input_lookup(p->net, skb->dev, &fl6, skb,
					     flags);
	}
	if (!dst->error && !local_ok && (dst->dev->flags & IFF_LOOPBACK)) {
		dst_release(dst);
		return seg6x_drop_reason(p, SEG6X_STAT_DROP_NO_ROUTE);
	}
	if (dst->error) {
		seg6x_drop_count(p->sn, p->skb->dev, SEG6X_STAT_DROP_NO_ROUTE);
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
		return seg6x_drop_reason(p, SEG6X_STAT_DROP_NO_ROUTE);
	}
	skb_dst_drop(p->skb);
	skb_dst_set(p->skb, dst);
	return SEG6X_PASS;
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
	off = seg6x_payload(p, &proto);
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

/* Where End, End.X and End.T send the packet once its DA changed. */
typedef enum seg6x_verdict (*seg6x_sid_forward_t)(struct seg6x_pkt *p,
						  const struct seg6x_sid *sid);

/* End, End.X, End.T (RFC 8986 4.1-4.3) with PSP/USP/USD (4.16) and
 * NEXT-C-SID (RFC 9800); @forward sends the packet on.
 */
static enum seg6x_verdict seg6x_sid_end(struct seg6x_pkt *p,
					const struct seg6x_sid *sid,
					seg6x_sid_forward_t forward)
{
	enum seg6x_verdict v;

	if ((sid->flavors & SEG6X_FLV_NEXT_CSID) && seg6x_sid_next_csid(p, sid))
		return forward(p, sid);
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
	return forward(p, sid);
}

/* End: the stack routes the new destination; another SID or a local
 * address of ours gets its turn first.
 */
static enum seg6x_verdict seg6x_fwd_end(struct seg6x_pkt *p,
					const struct seg6x_sid *sid)
{
	return SEG6X_AGAIN;
}

static enum seg6x_verdict seg6x_fwd_end_x(struct seg6x_pkt *p,
					  const struct seg6x_sid *sid)
{
	return seg6x_sid_route6(p, &sid->nh6, sid->oif, 0, false);
}

static enum seg6x_verdict seg6x_fwd_end_t(struct seg6x_pkt *p,
					  const struct seg6x_sid *sid)
{
	return seg6x_sid_route6(p, NULL, 0, sid->table, false);
}

static enum seg6x_verdict seg6x_input_end(struct seg6x_pkt *p,
					  const struct seg6x_sid *sid)
{
	return seg6x_sid_end(p, sid, seg6x_fwd_end);
}

static enum seg6x_verdict seg6x_input_end_x(struct seg6x_pkt *p,
					    const struct seg6x_sid *sid)
{
	return seg6x_sid_end(p, sid, seg6x_fwd_end_x);
}

static enum seg6x_verdict seg6x_input_end_t(struct seg6x_pkt *p,
					    const struct seg6x_sid *sid)
{
	return seg6x_sid_end(p, sid, seg6x_fwd_end_t);
}

/*
 * End.B6.Encaps(.Red) (RFC 8986 4.13, 4.14): the SID's policy pushed as
 * a new outer IPv6 header (and SRH) in front of the packet whose own SRH
 * was advanced; the source is tunsrc, or an address of the ingress
 * interface. The new destination is looked up again (SEG6X_AGAIN).
 */
static enum seg6x_verdict seg6x_input_b6(struct seg6x_pkt *p,
					 const struct seg6x_sid *sid)
{
	struct sk_buff *skb = p->skb;
	enum seg6x_verdict v;
	int err;

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
	    skb->len - skb_network_offset(skb) + sid->he.overhead >
	    IPV6_MAXPLEN + sizeof(struct ipv6hdr))
		return seg6x_sid_fail(p, true);
	v = seg6x_advance(p);
	if (v != SEG6X_GO)
		return v;

	err = seg6x_headend_push(p->sn, skb, &sid->he, skb->dev,
				 skb->mac_len);
	if (err == -ENOKEY)
		return seg6x_drop_silent(p, SEG6X_STAT_DROP_HMAC_NOKEY);
	if (err)
		return seg6x_drop_silent(p, SEG6X_STAT_DROP_NOMEM);
	nf_reset_ct(skb);
	p->has_srh = !!sid->he.srh;
	p->srh_off = sizeof(struct ipv6hdr);
	p->nh_off = offsetof(struct ipv6hdr, nexthdr);
	p->srh_len = sid->he.srh_len;
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

/* The inner packet is the packet now: as the stack would have set it. */
static void seg6x_sid_inner_cb(struct sk_buff *skb, u8 proto)
{
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
}

/* The inner packets a decapsulating behaviour takes. */
#define SEG6X_INNER_IPV6	BIT(0)
#define SEG6X_INNER_IPV4	BIT(1)
#define SEG6X_INNER_ETH		BIT(2)

static unsigned int seg6x_inner_kind(u8 proto)
{
	switch (proto) {
	case NEXTHDR_IPV6:
		return SEG6X_INNER_IPV6;
	case NEXTHDR_IPV4:
		return SEG6X_INNER_IPV4;
	case IPPROTO_ETHERNET:
		return SEG6X_INNER_ETH;
	default:
		return 0;
	}
}

/*
 * End.DX* and End.DT* (RFC 8986 4.4-4.9), S01-S11: the SRH, if there is
 * one, at its end (S02-S04); the inner packet, of a kind in @takes
 * (SEG6X_INNER_*), made the packet. SEG6X_GO then.
 */
static enum seg6x_verdict seg6x_sid_decap(struct seg6x_pkt *p,
					  unsigned int takes)
{
	struct sk_buff *skb = p->skb;
	int off;
	u8 proto;

	if (p->has_srh && seg6x_pkt_srh(p)->segments_left) {
		p->icmp_pointer = p->srh_off +
				  offsetof(struct ipv6_sr_hdr, segments_left);
		return seg6x_sid_fail(p, seg6x_pkt_policy(p)->require_hmac > 0 &&
					 !p->authenticated);
	}
	off = seg6x_payload(p, &proto);
	if (off < 0 || !(takes & seg6x_inner_kind(proto)) ||
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
	seg6x_sid_inner_cb(skb, proto);
	return SEG6X_GO;
}

/* The route seg6x_sid_route6() attached takes the packet. */
static enum seg6x_verdict seg6x_sid_route_input(struct seg6x_pkt *p,
						const struct in6_addr *nh,
						int oif, u32 table,
						bool local_ok)
{
	if (seg6x_sid_route6(p, nh, oif, table, local_ok) == SEG6X_DROP)
		return SEG6X_DROP;
	dst_input(p->skb);
	return SEG6X_STOLEN;
}

/* End.DX6 (4.4): the inner IPv6 packet to nh6. */
static enum seg6x_verdict seg6x_input_dx6(struct seg6x_pkt *p,
					  const struct seg6x_sid *sid)
{
	enum seg6x_verdict v = seg6x_sid_decap(p, SEG6X_INNER_IPV6);

	if (v != SEG6X_GO)
		return v;
	return seg6x_sid_route_input(p, &sid->nh6, sid->oif, 0, false);
}

/* End.DT6 (4.6): the inner IPv6 packet looked up in a table or a VRF. */
static enum seg6x_verdict seg6x_input_dt6(struct seg6x_pkt *p,
					  const struct seg6x_sid *sid)
{
	enum seg6x_verdict v = seg6x_sid_decap(p, SEG6X_INNER_IPV6);

	if (v != SEG6X_GO)
		return v;
	if (sid->vrf)
		return seg6x_sid_vrf(p, sid);
	return seg6x_sid_route_input(p, NULL, 0, sid->table, true);
}

/* End.DT4 (4.7): the inner IPv4 packet into a VRF. */
static enum seg6x_verdict seg6x_input_dt4(struct seg6x_pkt *p,
					  const struct seg6x_sid *sid)
{
	enum seg6x_verdict v = seg6x_sid_decap(p, SEG6X_INNER_IPV4);

	return v == SEG6X_GO ? seg6x_sid_vrf(p, sid) : v;
}

/* End.DT46 (4.8): the inner IPv6 or IPv4 packet into a VRF. */
static enum seg6x_verdict seg6x_input_dt46(struct seg6x_pkt *p,
					   const struct seg6x_sid *sid)
{
	enum seg6x_verdict v = seg6x_sid_decap(p, SEG6X_INNER_IPV6 | SEG6X_INNER_IPV4);

	return v == SEG6X_GO ? seg6x_sid_vrf(p, sid) : v;
}

/*
 * End.DX4 (4.5): the inner IPv4 packet forwarded to nh4: to its link-layer address, not the
 * inner destination's (RFC 8986 4.5; the in-tree seg6local resolves the
 * inner destination). FLOWI_FLAG_KNOWN_NH makes the route an uncached one
 * whose gateway is nh4 even on a connected subnet. Then the path of any
 * forwarded IPv4 packet: the FORWARD hook, dst_output() with POSTROUTING,
 * fragmentation or Fragmentation Needed as DF says.
 */
static enum seg6x_verdict seg6x_input_dx4(struct seg6x_pkt *p,
					  const struct seg6x_sid *sid)
{
	struct sk_buff *skb = p->skb;
	struct flowi4 fl4 = {
		.daddr = sid->nh4,
		.flowi4_oif = sid->oif,
		.flowi4_mark = skb->mark,
		.flowi4_flags = FLOWI_FLAG_KNOWN_NH,
	};
	enum seg6x_verdict v = seg6x_sid_decap(p, SEG6X_INNER_IPV4);
	struct rtable *rt;

	if (v != SEG6X_GO)
		return v;
	rt = ip_route_output_key(p->net, &fl4);
	if (IS_ERR(rt))
		return seg6x_drop_reason(p, SEG6X_STAT_DROP_NO_ROUTE);
	skb_dst_set(skb, &rt->dst);
	if (rt->rt_type != RTN_UNICAST || rt->rt_gw_family != AF_INET)
		return seg6x_drop_reason(p, SEG6X_STAT_DROP_NO_ROUTE);

	if (ip_hdr(skb)->ttl <= 1) {
		icmp_send(skb, ICMP_TIME_EXCEEDED, ICMP_EXC_TTL, 0);
		return seg6x_drop_silent(p, SEG6X_STAT_DROP_HOP_LIMIT);
	}
	if (skb_ensure_writable(skb, sizeof(struct iphdr)))
		return seg6x_drop_silent(p, SEG6X_STAT_DROP_NOMEM);
	ip_decrease_ttl(ip_hdr(skb));
	skb_forward_csum(skb);
	NF_HOOK(NFPROTO_IPV4, NF_INET_FORWARD, p->net, NULL, skb, skb->dev,
		rt->dst.dev, seg6x_sid_dx4_out);
	return SEG6X_STOLEN;
}

/* End.DX2 (4.9): the inner Ethernet frame out of the SID's device. */
static enum seg6x_verdict seg6x_input_dx2(struct seg6x_pkt *p,
					  const struct seg6x_sid *sid)
{
	struct sk_buff *skb = p->skb;
	struct net_device *odev;
	struct ethhdr *eth;
	enum seg6x_verdict v;

	v = seg6x_sid_decap(p, SEG6X_INNER_ETH);
	if (v != SEG6X_GO)
		return v;
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

/* ---- configuration rules across attributes ------------------------- */

static int seg6x_check_dt6(struct seg6x_sid_cfg *c,
			   struct netlink_ext_ack *extack)
{
	if (!c->tb[SEG6X_SID_TABLE] == !c->tb[SEG6X_SID_VRF]) {
		NL_SET_ERR_MSG(extack, "End.DT6 needs a table or a vrf (one of them)");
		return -EINVAL;
	}
	return 0;
}

static int seg6x_finish_dx2(struct seg6x_sid_cfg *c,
			    struct netlink_ext_ack *extack)
{
	/* The device exists: RTNL is held since it was looked up. */
	struct net_device *dev = __dev_get_by_index(c->net, c->sid.oif);

	if (!dev || dev->type != ARPHRD_ETHER) {
		NL_SET_ERR_MSG_ATTR(extack, c->tb[SEG6X_SID_OIF],
				    "End.DX2 needs an Ethernet device");
		return -EINVAL;
	}
	return 0;
}

static int seg6x_finish_b6_mode(struct seg6x_sid_cfg *c,
				enum seg6x_headend_mode mode,
				struct netlink_ext_ack *extack)
{
	if (c->keyid && c->nsegs > SEG6X_MAX_SEGS_HMAC) {
		NL_SET_ERR_MSG_ATTR(extack, c->tb[SEG6X_SID_SEGS],
				    "at most 14 segments with hmac");
		return -EINVAL;
	}
	/* The reduced SRH leaves the first segment out; with a single
	 * segment there is no SRH, so nothing to sign.
	 */
	if (mode == SEG6X_H_ENCAPS_RED && c->nsegs == 1 && c->keyid) {
		NL_SET_ERR_MSG_ATTR(extack, c->tb[SEG6X_SID_HMAC_KEYID],
				    "a reduced SRH with hmac needs 2 segments or more");
		return -EINVAL;
	}
	c->mode = mode;
	return 0;
}

static int seg6x_finish_b6(struct seg6x_sid_cfg *c,
			   struct netlink_ext_ack *extack)
{
	return seg6x_finish_b6_mode(c, SEG6X_H_ENCAPS, extack);
}

static int seg6x_finish_b6_red(struct seg6x_sid_cfg *c,
			       struct netlink_ext_ack *extack)
{
	return seg6x_finish_b6_mode(c, SEG6X_H_ENCAPS_RED, extack);
}

/* ---- the behaviour table ------------------------------------------- */

/*
 * Each behaviour's functions, by its uapi name; its name, counter and
 * the attributes and flavours it takes come from SEG6X_BEHAVIOR_LIST. A
 * new behaviour is a line there, an entry here and its input function.
 */
#define SEG6X_BEHAVIOR_END_RULES	.input = seg6x_input_end
#define SEG6X_BEHAVIOR_END_X_RULES	.input = seg6x_input_end_x
#define SEG6X_BEHAVIOR_END_T_RULES	.input = seg6x_input_end_t
#define SEG6X_BEHAVIOR_END_DX2_RULES					\
	.finish = seg6x_finish_dx2, .input = seg6x_input_dx2
#define SEG6X_BEHAVIOR_END_DX6_RULES	.input = seg6x_input_dx6
#define SEG6X_BEHAVIOR_END_DX4_RULES	.input = seg6x_input_dx4
#define SEG6X_BEHAVIOR_END_DT6_RULES					\
	.check = seg6x_check_dt6, .input = seg6x_input_dt6
#define SEG6X_BEHAVIOR_END_DT4_RULES	.input = seg6x_input_dt4
#define SEG6X_BEHAVIOR_END_DT46_RULES	.input = seg6x_input_dt46
#define SEG6X_BEHAVIOR_END_B6_ENCAPS_RULES				\
	.finish = seg6x_finish_b6, .input = seg6x_input_b6
#define SEG6X_BEHAVIOR_END_B6_ENCAPS_RED_RULES				\
	.finish = seg6x_finish_b6_red, .input = seg6x_input_b6

#define SEG6X_BEHAVIOR_ENTRY(b, n, s, req, opt, flv)			\
	[b] = { .name = n, .stat = s, .required = req, .optional = opt,	\
		.flavors = flv, b##_RULES },

static const struct seg6x_sid_behavior seg6x_behaviors[SEG6X_BEHAVIOR_MAX + 1] = {
	SEG6X_BEHAVIOR_LIST(SEG6X_BEHAVIOR_ENTRY)
};

const struct seg6x_sid_behavior *seg6x_behavior_get(unsigned int id)
{
	if (id > SEG6X_BEHAVIOR_MAX || !seg6x_behaviors[id].input)
		return NULL;
	return &seg6x_behaviors[id];
}

/* ---- the packet path ----------------------------------------------- */

/*
 * The SID matching the packet's destination processes it: the RFC 8754
 * checks and the ingress interface's HMAC policy first, for every
 * behaviour. SEG6X_AGAIN: the destination changed, look again.
 */
enum seg6x_verdict seg6x_sid_input(struct seg6x_pkt *p, struct seg6x_sid *sid)
{
	unsigned int len = p->skb->len;
	enum seg6x_verdict v;

	v = seg6x_repass(p);
	if (v != SEG6X_GO)
		return v;

	p->sid_failed = false;
	if (unlikely(READ_ONCE(sid->dead)))
		v = seg6x_sid_fail(p, true);
	else if (p->has_srh)
		v = seg6x_srh_checks(p);
	else
		v = seg6x_nosrh_checks(p);
	if (v == SEG6X_GO)
		v = sid->beh->input(p, sid);

	seg6x_sid_count(sid, len, v == SEG6X_DROP || p->sid_failed);
	if (v != SEG6X_DROP)
		seg6x_stats_inc(&p->sn->stats, sid->beh->stat);
	return v;
}

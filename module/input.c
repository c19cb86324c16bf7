// SPDX-License-Identifier: GPL-2.0
/*
 * input.c - SR endpoint processing from an IPv6 PRE_ROUTING hook.
 *
 * The in-tree seg6 handles the SRH inside ipv6_rthdr_rcv(), at local
 * delivery, which a module cannot replace. seg6x sees the packet earlier,
 * in PRE_ROUTING, and acts only on packets that arrive on an interface
 * where seg6x is enabled, for this host (PACKET_HOST) and addressed to
 * this node; anything else goes on untouched, so the in-tree seg6 or the
 * normal IPv6 rules decide.
 *
 * A packet runs through a pipeline of small steps, each returning a
 * verdict: locate and accept (policy, locality), validate the SRH (RFC
 * 8754 4.3.1.1), verify the HMAC (4.3.1.2 / the interface policy), then
 *   SL > 0            End: next segment becomes the destination; the
 *                     stack routes it (forwarded), or the pipeline runs
 *                     again if the next segment is local too;
 *   SL = 0, IPv6/IPv4 decapsulate and re-receive the inner packet;
 *   SL = 0, other     consume the SRH and deliver locally.
 *
 * No dst is attached here: the stack routes the packet after the whole
 * PRE_ROUTING chain, so mangle marks, TPROXY and tunnel metadata apply
 * as they do to any packet. Nothing here allocates, except unsharing a
 * cloned skb before writing and reassembling fragments of the packets
 * seg6x processes itself (seg6x_processes()).
 */
#include <linux/icmpv6.h>
#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv6.h>
#include <net/addrconf.h>
#include <net/checksum.h>
#include <net/dst.h>
#include <net/ip6_fib.h>
#include <net/ip6_route.h>
#include <net/ip_tunnels.h>
#include <net/ipv6.h>
#include <net/ipv6_frag.h>
#include <net/netfilter/ipv6/nf_defrag_ipv6.h>

#include "hmac.h"
#include "input.h"
#include "input_pkt.h"
#include "pernet.h"
#include "policy.h"
#include "sid.h"
#include "srh.h"

/*
 * Last in PRE_ROUTING: where the in-tree seg6 acts, after the whole chain
 * (seg6local at the route lookup, the implicit End at local delivery).
 * Conntrack, raw, mangle, NAT and every nft/ip6tables prerouting chain see
 * the packet as it arrived, so an ACL confining SIDs to the SR domain
 * works as it does with the in-tree code; the stack then routes the packet
 * seg6x rewrote, and FORWARD and POSTROUTING see it as it leaves.
 */
#define SEG6X_NF_PRIORITY	NF_IP6_PRI_LAST

/* seg6x's own reassembly queues, apart from conntrack's per-zone ones. */
#define SEG6X_DEFRAG_USER	(__IP6_DEFRAG_CONNTRACK_BRIDGE_IN + 1)

/* Keep a CHECKSUM_COMPLETE sum right around an in-place rewrite. */
void seg6x_csum_sub(struct sk_buff *skb, const void *ptr, int len)
{
	if (skb->ip_summed == CHECKSUM_COMPLETE)
		skb->csum = csum_block_sub(skb->csum, csum_partial(ptr, len, 0),
					   (const u8 *)ptr - skb->data);
}

void seg6x_csum_add(struct sk_buff *skb, const void *ptr, int len)
{
	if (skb->ip_summed == CHECKSUM_COMPLETE)
		skb->csum = csum_block_add(skb->csum, csum_partial(ptr, len, 0),
					   (const u8 *)ptr - skb->data);
}

/*
 * Where would the stack deliver this destination: locally (true), or not?
 * Asked of the FIB without attaching the result to the packet, so that
 * the stack's own lookup, after the rest of PRE_ROUTING, stays in charge.
 * *no_route tells an unroutable destination apart.
 */
bool seg6x_is_local(struct seg6x_pkt *p, bool *no_route)
{
	const struct ipv6hdr *ip6h = ipv6_hdr(p->skb);
	struct flowi6 fl6 = {
		.flowi6_iif = p->skb->dev->ifindex,
		.daddr = ip6h->daddr,
		.saddr = ip6h->saddr,
		.flowlabel = ip6_flowinfo(ip6h),
		.flowi6_mark = p->skb->mark,
		.flowi6_proto = ip6h->nexthdr,
	};
	struct dst_entry *dst;
	bool local;

	dst = ip6_route_input_lookup(p->net, p->skb->dev, &fl6, p->skb,
				     RT6_LOOKUP_F_HAS_SADDR);
	*no_route = dst->error;
	local = !dst->error &&
		(((struct rt6_info *)dst)->rt6i_flags & RTF_LOCAL);
	dst_release(dst);
	return local;
}

/*
 * May this node act on the packet at all, as a SID or as the implicit
 * End? As the in-tree ipv6_rthdr_rcv(): not for other hosts (bridged
 * frames, promiscuous captures), never multicast destinations.
 */
static bool seg6x_for_this_host(const struct sk_buff *skb)
{
	if (skb->pkt_type != PACKET_HOST || seg6x_skb_bridged_otherhost(skb) ||
	    ipv6_addr_is_multicast(&ipv6_hdr(skb)->daddr))
		return false;
	/* Jumbograms and BIG TCP carry no payload length to rewrite; a
	 * bare header (length 0, a Next Header naming what is not there) is
	 * an SR packet cut short, which the HMAC policy must still see.
	 */
	return ipv6_hdr(skb)->payload_len ||
	       skb->len == sizeof(struct ipv6hdr);
}

/*
 * Every pass after the first through this node's behaviours (a next
 * segment that is a SID or an address of this node, a binding SID's new
 * outer header) costs one hop, as the in-tree seg6 charges a local pass:
 * a list that keeps naming this node cannot loop forever.
 */
enum seg6x_verdict seg6x_repass(struct seg6x_pkt *p)
{
	struct sk_buff *skb = p->skb;
	struct ipv6hdr *ip6h;

	if (!p->passes++)
		return SEG6X_GO;
	ip6h = ipv6_hdr(skb);
	if (ip6h->hop_limit <= 1) {
		icmpv6_send(skb, ICMPV6_TIME_EXCEED, ICMPV6_EXC_HOPLIMIT, 0);
		p->silent = true;
		return seg6x_drop(p, SEG6X_STAT_DROP_HOP_LIMIT);
	}
	seg6x_csum_sub(skb, &ip6h->hop_limit, 1);
	ip6h->hop_limit--;
	seg6x_csum_add(skb, &ip6h->hop_limit, 1);
	return SEG6X_GO;
}

/* Step 1: is this packet, addressed to this node, ours to process? */
static enum seg6x_verdict seg6x_accept(struct seg6x_pkt *p)
{
	bool no_route;

	seg6x_policy_get(p->sn, p->skb->dev->ifindex, &p->pol);
	if (!p->pol.enabled) {
		/* Handed back to the stack (the in-tree seg6, if enabled). */
		if (seg6x_is_local(p, &no_route))
			seg6x_stats_inc(&p->sn->stats, SEG6X_STAT_DROP_DISABLED);
		return SEG6X_PASS;
	}
	if (!seg6x_is_local(p, &no_route))
		return SEG6X_PASS;	/* transit: not ours to process */
	return seg6x_repass(p);
}

/*
 * Step 2: the SRH must be inside the packet (a truncated one is dropped
 * silently, as the in-tree seg6 does) and well formed (RFC 8754 4.3.1.1).
 */
enum seg6x_verdict seg6x_validate(struct seg6x_pkt *p)
{
	struct sk_buff *skb = p->skb;
	struct ipv6_sr_hdr *srh;
	unsigned int field;

	if (!pskb_may_pull(skb, p->srh_off + sizeof(*srh)))
		goto truncated;
	p->srh_len = seg6x_srh_len(seg6x_pkt_srh(p));
	if (!pskb_may_pull(skb, p->srh_off + p->srh_len))
		goto truncated;
	srh = seg6x_pkt_srh(p);

	switch (seg6x_srh_validate(srh)) {
	case SEG6X_SRH_OK:
		return SEG6X_GO;
	case SEG6X_SRH_BAD_SL:
		field = offsetof(struct ipv6_sr_hdr, segments_left);
		break;
	default:
		field = offsetof(struct ipv6_sr_hdr, hdrlen);
		break;
	}
	/*
	 * Parameter Problem, as RFC 8754 4.3.1.1 asks, except for packets
	 * that could only be accepted authenticated (the interface requires
	 * an HMAC, or the SRH claims one): answering forged packets would
	 * make this node a reflector. Those are dropped silently, as the
	 * in-tree seg6 does.
	 */
	p->silent = p->pol.require_hmac > 0 || (srh->flags & SR6_FLAG1_HMAC);
	p->icmp_pointer = p->srh_off + field;
	return seg6x_drop(p, SEG6X_STAT_DROP_BAD_SRH);

truncated:
	p->silent = true;
	return seg6x_drop(p, SEG6X_STAT_DROP_BAD_SRH);
}

/* Step 3: HMAC, per the interface's require_hmac. */
enum seg6x_verdict seg6x_verify(struct seg6x_pkt *p)
{
	struct ipv6_sr_hdr *srh = seg6x_pkt_srh(p);
	u8 mac[SEG6X_HMAC_FIELD_LEN];
	struct sr6_tlv_hmac *tlv;

	if (p->pol.require_hmac < 0)
		return SEG6X_GO;
	if (!(srh->flags & SR6_FLAG1_HMAC)) {
		if (p->pol.require_hmac > 0)
			return seg6x_drop(p, SEG6X_STAT_DROP_HMAC_MISSING);
		return SEG6X_GO;
	}

	/* The H flag without a well-formed trailing TLV is a bad HMAC. */
	tlv = seg6x_srh_hmac_tlv(srh);
	if (!tlv)
		return seg6x_drop(p, SEG6X_STAT_DROP_HMAC_INVALID);
	if (seg6x_hmac_compute(p->sn, be32_to_cpu(tlv->hmackeyid),
			       &ipv6_hdr(p->skb)->saddr, srh, mac))
		return seg6x_drop(p, SEG6X_STAT_DROP_HMAC_NOKEY);
	if (crypto_memneq(mac, tlv->hmac, SEG6X_HMAC_FIELD_LEN))
		return seg6x_drop(p, SEG6X_STAT_DROP_HMAC_INVALID);

	p->authenticated = true;
	seg6x_stats_inc(&p->sn->stats, SEG6X_STAT_HMAC_VERIFIED);
	return SEG6X_GO;
}

/*
 * Remove the SRH, moving the headers in front of it forward (the payload
 * stays where it is). The caller made the headers writable.
 */
void seg6x_srh_pop(struct seg6x_pkt *p)
{
	struct sk_buff *skb = p->skb;
	struct ipv6_sr_hdr *srh = seg6x_pkt_srh(p);
	unsigned int srhlen = p->srh_len;
	u8 *nh = skb_network_header(skb);
	struct ipv6hdr *ip6h = ipv6_hdr(skb);
	u8 next = srh->nexthdr;

	seg6x_csum_sub(skb, srh, srhlen);

	seg6x_csum_sub(skb, nh + p->nh_off, 1);
	nh[p->nh_off] = next;
	seg6x_csum_add(skb, nh + p->nh_off, 1);

	seg6x_csum_sub(skb, &ip6h->payload_len, 2);
	ip6h->payload_len = htons(ntohs(ip6h->payload_len) - srhlen);
	seg6x_csum_add(skb, &ip6h->payload_len, 2);

	/* An even shift leaves the moved bytes' checksum unchanged. */
	memmove(nh + srhlen, nh, p->srh_off);
	if (skb_mac_header_was_set(skb)) {
		u8 *old_mac = skb_mac_header(skb);

		skb->mac_header += srhlen;
		memmove(skb_mac_header(skb), old_mac, skb->mac_len);
	}
	__skb_pull(skb, srhlen);
	skb->network_header += srhlen;
	skb->transport_header += srhlen;
}

/*
 * Hand a decapsulated packet (at skb->data, skb->protocol set) to the
 * stack as received on @dev: the ingress interface, or a VRF device whose
 * table routes it. Always through the backlog (netif_rx()), never from
 * this hook's stack frame: the stack runs PRE_ROUTING again for the inner
 * packet (and a VRF's receive handler runs it once more), so a synchronous
 * hand-over would nest this hook once per encapsulation level the packet
 * carries, ~1500 in one reassembled datagram. Each level here is a new
 * backlog entry instead, processed at the same stack depth.
 */
enum seg6x_verdict seg6x_reinject(struct seg6x_pkt *p, struct net_device *dev)
{
	struct sk_buff *skb = p->skb;

	/* Keep the link-layer header adjacent, so that taps and the second
	 * pass through the stack see a coherent frame.
	 */
	if (skb_mac_header_was_set(skb)) {
		skb_mac_header_rebuild(skb);
		if (skb->dev->type == ARPHRD_ETHER && skb->mac_len == ETH_HLEN)
			eth_hdr(skb)->h_proto = skb->protocol;
	} else {
		skb_reset_mac_header(skb);
	}

	/* Clears dst, conntrack and (across namespaces) marks. */
	__skb_tunnel_rx(skb, dev, p->net);
	if (netif_rx(skb) == NET_RX_DROP)
		p->sid_failed = true;	/* backlog full: counted there */
	return SEG6X_STOLEN;
}

/* SL = 0 and an IPv6/IPv4 payload at @inner_off: strip what is before. */
enum seg6x_verdict seg6x_decap(struct seg6x_pkt *p, unsigned int inner_off,
			       u8 proto)
{
	struct sk_buff *skb = p->skb;

	skb_pull_rcsum(skb, inner_off);
	skb_reset_network_header(skb);
	skb_reset_transport_header(skb);
	skb->encapsulation = 0;
	skb->protocol = htons(proto == NEXTHDR_IPV6 ? ETH_P_IPV6 : ETH_P_IP);
	seg6x_stats_inc(&p->sn->stats, SEG6X_STAT_DECAP);
	return seg6x_reinject(p, skb->dev);
}

/*
 * SL = 0: the packet is for this node. A Destination Options header
 * after the SRH (RFC 8200 order) is walked past to find the payload; a
 * second routing header there is malformed.
 */
static enum seg6x_verdict seg6x_final(struct seg6x_pkt *p)
{
	struct ipv6_sr_hdr *srh = seg6x_pkt_srh(p);
	unsigned int off = p->srh_off + p->srh_len;
	u8 proto = srh->nexthdr;

	if (proto == NEXTHDR_DEST) {
		struct ipv6_opt_hdr _h;
		const struct ipv6_opt_hdr *h;

		h = skb_header_pointer(p->skb, skb_network_offset(p->skb) + off,
				       sizeof(_h), &_h);
		if (!h) {
			p->silent = true;
			return seg6x_drop(p, SEG6X_STAT_DROP_BAD_SRH);
		}
		off += ipv6_optlen(h);
		proto = h->nexthdr;
	}
	if (proto == NEXTHDR_ROUTING) {
		p->silent = true;
		return seg6x_drop(p, SEG6X_STAT_DROP_BAD_SRH);
	}

	if (proto == NEXTHDR_IPV6 || proto == NEXTHDR_IPV4) {
		if (!pskb_may_pull(p->skb, off)) {
			p->silent = true;
			return seg6x_drop(p, SEG6X_STAT_DROP_BAD_SRH);
		}
		return seg6x_decap(p, off, proto);
	}

	/*
	 * Final destination. Consume the SRH (as RFC 8986's USD/PSP
	 * flavours do): the in-tree seg6 would drop the packet at local
	 * delivery unless its own seg6_enabled sysctls are set.
	 */
	seg6x_srh_pop(p);
	seg6x_stats_inc(&p->sn->stats, SEG6X_STAT_LOCAL);
	return SEG6X_PASS;
}

/*
 * A next segment that the stack would deliver to link-scope listeners
 * or loop back inside the host is refused (the in-tree seg6 refuses
 * multicast): an SRH must not turn an off-link packet into a link-local,
 * loopback or multicast one.
 */
bool seg6x_next_segment_ok(const struct in6_addr *a)
{
	int type = ipv6_addr_type(a);

	return !(type & (IPV6_ADDR_MULTICAST | IPV6_ADDR_LOOPBACK |
			 IPV6_ADDR_LINKLOCAL | IPV6_ADDR_MAPPED)) &&
	       type != IPV6_ADDR_ANY;
}

/*
 * SL--, destination = next segment (RFC 8754 4.3.1.1, RFC 8986 4.1
 * S14-S15), after checking its scope. The stack's route for the old
 * destination is dropped: it is stale.
 */
enum seg6x_verdict seg6x_advance(struct seg6x_pkt *p)
{
	struct sk_buff *skb = p->skb;
	struct ipv6_sr_hdr *srh = seg6x_pkt_srh(p);
	struct ipv6hdr *ip6h = ipv6_hdr(skb);

	if (!seg6x_next_segment_ok(&srh->segments[srh->segments_left - 1])) {
		p->silent = true;
		return seg6x_drop(p, SEG6X_STAT_DROP_BAD_SRH);
	}
	seg6x_csum_sub(skb, &srh->segments_left, 1);
	srh->segments_left--;
	seg6x_csum_add(skb, &srh->segments_left, 1);

	seg6x_csum_sub(skb, &ip6h->daddr, sizeof(ip6h->daddr));
	ip6h->daddr = srh->segments[srh->segments_left];
	seg6x_csum_add(skb, &ip6h->daddr, sizeof(ip6h->daddr));
	skb_dst_drop(skb);
	return SEG6X_GO;
}

/* End (RFC 8754 4.3.1.1, SL > 0): the next segment becomes the DA. */
static enum seg6x_verdict seg6x_end(struct seg6x_pkt *p)
{
	struct ipv6_sr_hdr *srh = seg6x_pkt_srh(p);
	enum seg6x_verdict v;
	bool cleanup, no_route;

	/*
	 * The 2016 series' cleanup flag: the penultimate endpoint of an
	 * inserted (not encapsulating) SRH removes it. Only an SRH whose
	 * HMAC was verified here may ask for that: otherwise a forged flag
	 * would strip the SRH before the last segment could apply its own
	 * HMAC policy.
	 */
	cleanup = srh->segments_left == 1 &&
		  (srh->flags & SEG6X_SRH_FLAG_CLEANUP) && p->authenticated &&
		  srh->nexthdr != NEXTHDR_IPV6 && srh->nexthdr != NEXTHDR_IPV4;

	v = seg6x_advance(p);
	if (v != SEG6X_GO)
		return v;
	if (cleanup) {
		seg6x_srh_pop(p);
		p->has_srh = false;
	}
	seg6x_stats_inc(&p->sn->stats, SEG6X_STAT_END);

	/* The next segment may be a SID of this node that is no address
	 * of it: the SID table gets it before the FIB (seg6x_input_hook()).
	 */
	if (READ_ONCE(p->sn->nsids) &&
	    seg6x_sid_lookup(p->sn, &ipv6_hdr(p->skb)->daddr))
		return SEG6X_AGAIN;
	if (!seg6x_is_local(p, &no_route)) {
		/* Forwarded; ip6_forward() counts the hop. An unroutable
		 * one gets the stack's ICMPv6 error.
		 */
		if (no_route)
			seg6x_stats_inc(&p->sn->stats,
					SEG6X_STAT_DROP_NO_ROUTE);
		return SEG6X_PASS;
	}
	/* Looped back to ourselves (the hop is charged on the next pass);
	 * without its SRH, plain local delivery.
	 */
	return p->has_srh ? SEG6X_AGAIN : SEG6X_PASS;
}

/*
 * Validate the SRH, apply the HMAC policy, and make the headers writable
 * for what follows: the checks every behaviour that receives an SRH runs.
 */
enum seg6x_verdict seg6x_srh_checks(struct seg6x_pkt *p)
{
	enum seg6x_verdict v;

	v = seg6x_validate(p);
	if (v != SEG6X_GO)
		return v;
	v = seg6x_verify(p);
	if (v != SEG6X_GO)
		return v;
	if (skb_ensure_writable(p->skb, p->srh_off + p->srh_len)) {
		p->silent = true;
		return seg6x_drop(p, SEG6X_STAT_DROP_NOMEM);
	}
	return SEG6X_GO;
}

/* Steps 2-4 on one SRH. */
static enum seg6x_verdict seg6x_process(struct seg6x_pkt *p)
{
	enum seg6x_verdict v = seg6x_srh_checks(p);

	if (v != SEG6X_GO)
		return v;
	if (seg6x_pkt_srh(p)->segments_left == 0)
		return seg6x_final(p);
	return seg6x_end(p);
}

/* The kernel's drop reason and IPv6 MIB counter closest to each drop. */
static void seg6x_drop_skb(struct seg6x_pkt *p)
{
	struct inet6_dev *idev = __in6_dev_get(p->skb->dev);
	enum skb_drop_reason reason;
	int mib;

	switch (p->drop) {
	case SEG6X_STAT_DROP_NOMEM:
		reason = SKB_DROP_REASON_NOMEM;
		mib = IPSTATS_MIB_INDISCARDS;
		break;
	case SEG6X_STAT_DROP_NO_ROUTE:
		reason = SKB_DROP_REASON_IP_INNOROUTES;
		mib = IPSTATS_MIB_INNOROUTES;
		break;
	default:	/* bad SRH, HMAC, hop limit */
		reason = SKB_DROP_REASON_IP_INHDR;
		mib = IPSTATS_MIB_INHDRERRORS;
		break;
	}
	seg6x_stats_inc(&p->sn->stats, p->drop);
	__IP6_INC_STATS(p->net, idev, mib);
	if (!p->silent && p->icmp_pointer)
		icmpv6_send(p->skb, ICMPV6_PARAMPROB, p->icmp_code,
			    p->icmp_pointer);
	kfree_skb_reason(p->skb, reason);
}

/*
 * A routing header seg6x cannot see behind (seg6x_srh_find()), addressed
 * to this node: an interface that requires an HMAC lets nothing through
 * that it could not authenticate (RFC 8754 5), so the packet is dropped
 * rather than left to the stack; elsewhere the stack decides.
 */
static enum seg6x_verdict seg6x_hidden(struct seg6x_pkt *p)
{
	bool no_route;

	seg6x_policy_get(p->sn, p->skb->dev->ifindex, &p->pol);
	if (!p->pol.enabled || p->pol.require_hmac <= 0 ||
	    !seg6x_is_local(p, &no_route))
		return SEG6X_PASS;
	p->silent = true;
	return seg6x_drop(p, SEG6X_STAT_DROP_HMAC_MISSING);
}

/*
 * Will seg6x act on this packet itself (a SID, an SR packet to a local
 * address of an enabled interface, a hidden SRH that policy drops)? Only
 * those are reassembled here: a fragmented payload behind an SRH can only
 * be decapsulated whole. Everything else, transit traffic above all, goes
 * on as it came (RFC 8200 4.5: no router reassembles what it forwards;
 * atomic fragments keep their header); the stack reassembles what it
 * delivers locally.
 */
static bool seg6x_processes(struct seg6x_pkt *p)
{
	bool no_route;

	if (READ_ONCE(p->sn->nsids) &&
	    seg6x_sid_lookup(p->sn, &ipv6_hdr(p->skb)->daddr))
		return true;
	if (!p->has_srh && !p->srh_hidden)
		return false;
	seg6x_policy_get(p->sn, p->skb->dev->ifindex, &p->pol);
	if (!p->pol.enabled || (p->srh_hidden && p->pol.require_hmac <= 0))
		return false;
	return seg6x_is_local(p, &no_route);
}

/*
 * The SID table first (a SID takes precedence over the node's own
 * addresses), then the implicit End for SR packets to a local address;
 * once more each time a behaviour hands the packet to a next segment that
 * is this node's again (SEG6X_AGAIN), each such pass costing one hop.
 */
static enum seg6x_verdict seg6x_run(struct seg6x_pkt *p)
{
	enum seg6x_verdict v;

	for (;;) {
		if (READ_ONCE(p->sn->nsids)) {
			v = seg6x_sid_input(p);
			if (v == SEG6X_AGAIN)
				continue;
			if (v != SEG6X_GO)
				return v;
			/* no SID for this destination */
		}
		if (!p->has_srh)
			return p->srh_hidden ? seg6x_hidden(p) : SEG6X_PASS;
		v = seg6x_accept(p);
		if (v == SEG6X_GO)
			v = seg6x_process(p);
		if (v != SEG6X_AGAIN)
			return v;
	}
}

static unsigned int seg6x_input_hook(void *priv, struct sk_buff *skb,
				     const struct nf_hook_state *state)
{
	struct seg6x_pkt p = {
		.skb = skb,
		.net = state->net,
		.sn = seg6x_pernet(state->net),
	};
	int err;

	err = seg6x_srh_find(skb, &p.srh_off, &p.nh_off);
	p.has_srh = !err;
	p.srh_hidden = err == -EPROTO;

	/* Fast exit for everything that carries no SRH, without SIDs. */
	if (!p.has_srh && !p.srh_hidden && !READ_ONCE(p.sn->nsids))
		return NF_ACCEPT;
	if (!seg6x_for_this_host(skb))
		return NF_ACCEPT;

	if (unlikely(seg6x_srh_fragmented(skb)) && seg6x_processes(&p)) {
		/* Same verdicts as nf_defrag_ipv6's own hook. */
		err = nf_ct_frag6_gather(p.net, skb, SEG6X_DEFRAG_USER);
		if (err == -EINPROGRESS)
			return NF_STOLEN;	/* queued until the set is whole */
		if (err)
			return NF_DROP;
		err = seg6x_srh_find(skb, &p.srh_off, &p.nh_off);
		p.has_srh = !err;
		p.srh_hidden = err == -EPROTO;
	}

	switch (seg6x_run(&p)) {
	case SEG6X_DROP:
		/* Stolen, not NF_DROP: drop monitors then show our reason
		 * rather than a netfilter drop.
		 */
		seg6x_drop_skb(&p);
		return NF_STOLEN;
	case SEG6X_STOLEN:
		return NF_STOLEN;
	default:
		return NF_ACCEPT;
	}
}

static const struct nf_hook_ops seg6x_nf_ops[] = {
	{
		.hook = seg6x_input_hook,
		.pf = NFPROTO_IPV6,
		.hooknum = NF_INET_PRE_ROUTING,
		.priority = SEG6X_NF_PRIORITY,
	},
};

/*
 * Registered on first use (seg6x_input_use()), not with the namespace: a
 * namespace where seg6x is loaded but not used runs none of its code per
 * packet. Callers hold the genl mutex, or run from namespace init before
 * userspace can reach the namespace. The hook stays until the namespace
 * or the module goes away.
 */
int seg6x_input_use(struct net *net)
{
	struct seg6x_net *sn = seg6x_pernet(net);
	int err;

	if (sn->input_on)
		return 0;
	err = nf_register_net_hooks(net, seg6x_nf_ops,
				    ARRAY_SIZE(seg6x_nf_ops));
	if (err)
		return err;
	sn->input_on = true;
	return 0;
}

static int __net_init seg6x_input_net_init(struct net *net)
{
	/* Every new namespace starts from the module parameters. */
	return seg6x_pernet(net)->def_enabled ? seg6x_input_use(net) : 0;
}

/*
 * nf_unregister_net_hooks() does not wait for hooks running on other
 * CPUs. Unhooking in pre_exit lets the namespace core's RCU grace period
 * between pre_exit and exit do that wait (for namespace dismantle and
 * module unload alike), before pernet.c frees what the hook uses.
 */
static void __net_exit seg6x_input_net_pre_exit(struct net *net)
{
	struct seg6x_net *sn = seg6x_pernet(net);

	if (!sn->input_on)
		return;
	nf_unregister_net_hooks(net, seg6x_nf_ops, ARRAY_SIZE(seg6x_nf_ops));
	sn->input_on = false;
}

static struct pernet_operations seg6x_input_net_ops = {
	.init = seg6x_input_net_init,
	.pre_exit = seg6x_input_net_pre_exit,
};

int seg6x_input_register(void)
{
	return register_pernet_subsys(&seg6x_input_net_ops);
}

void seg6x_input_unregister(void)
{
	unregister_pernet_subsys(&seg6x_input_net_ops);
}

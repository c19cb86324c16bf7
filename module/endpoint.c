// SPDX-License-Identifier: GPL-2.0
/*
 * endpoint.c - the SR endpoint library (endpoint.h): the SRH operations
 * the implicit End and every SID behaviour are made of.
 */
#include <linux/icmpv6.h>
#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <net/addrconf.h>
#include <net/checksum.h>
#include <net/dst.h>
#include <net/ip6_fib.h>
#include <net/ip6_route.h>
#include <net/ip_tunnels.h>
#include <net/ipv6.h>

#include "endpoint.h"
#include "hmac.h"
#include "pernet.h"
#include "policy.h"
#include "srh.h"

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
 * *no_route tells an unroutable destination apart. The lookup is the
 * stack's own (ip6_route_input()'s flow, fib rules' flow dissection
 * included) and its result is kept in the packet: if the destination
 * and the next header are still those it was made for when the hook
 * accepts the packet, seg6x_route_attach() hands it to the stack, which
 * then does not look the same destination up a second time.
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
	struct flow_keys flkeys;
	struct dst_entry *dst;

	fib6_rules_early_flow_dissect(p->net, p->skb, &fl6, &flkeys);
	/* Borrowed, as ip6_route_input() borrows it: valid under the RCU
	 * read section the hook runs in, which the stack's use of it
	 * (seg6x_route_attach()) stays inside.
	 */
	dst = ip6_route_input_lookup(p->net, p->skb->dev, &fl6, p->skb,
				     RT6_LOOKUP_F_HAS_SADDR |
				     RT6_LOOKUP_F_DST_NOREF);
	p->route = dst;
	p->route_daddr = ip6h->daddr;
	p->route_proto = ip6h->nexthdr;
	*no_route = dst->error;
	return !dst->error &&
	       (((struct rt6_info *)dst)->rt6i_flags & RTF_LOCAL);
}

/*
 * The hook is done and the stack goes on with the packet: give it the
 * route seg6x_is_local() found, when that is the route the stack would
 * find itself. Not when something else routed the packet already (a
 * behaviour, a tunnel's metadata dst), when the destination or the next
 * header changed since (End, a popped SRH), for ICMPv6 (the stack hashes
 * its multipath choice on the offending packet) or on an L3 master's
 * port (the VRF device routes it again, as the VRF).
 */
void seg6x_route_attach(struct seg6x_pkt *p)
{
	struct sk_buff *skb = p->skb;
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);

	if (p->route && !skb_dst(skb) &&
	    p->route_proto == ip6h->nexthdr &&
	    p->route_proto != IPPROTO_ICMPV6 &&
	    ipv6_addr_equal(&p->route_daddr, &ip6h->daddr) &&
	    !netif_is_l3_slave(skb->dev)) {
		skb_dst_set_noref(skb, p->route);
	}
	seg6x_route_release(p);
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
		return seg6x_drop_silent(p, SEG6X_STAT_DROP_HOP_LIMIT);
	}
	seg6x_csum_sub(skb, &ip6h->hop_limit, 1);
	ip6h->hop_limit--;
	seg6x_csum_add(skb, &ip6h->hop_limit, 1);
	return SEG6X_GO;
}

/*
 * Step 2: the SRH must be inside the packet (a truncated one is dropped
 * silently, as the in-tree seg6 does) and well formed (RFC 8754 4.3.1.1).
 */
static enum seg6x_verdict seg6x_validate(struct seg6x_pkt *p)
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
	p->silent = seg6x_pkt_policy(p)->require_hmac > 0 ||
		    (srh->flags & SR6_FLAG1_HMAC);
	p->icmp_pointer = p->srh_off + field;
	return seg6x_drop_reason(p, SEG6X_STAT_DROP_BAD_SRH);

truncated:
	return seg6x_drop_silent(p, SEG6X_STAT_DROP_BAD_SRH);
}

/*
 * The HMAC TLV of an SRH whose H flag is set. Out of line: its buffer
 * (and the stack protector that comes with it) is for those packets only.
 */
static noinline enum seg6x_verdict seg6x_verify_tlv(struct seg6x_pkt *p,
						    struct ipv6_sr_hdr *srh)
{
	u8 mac[SEG6X_HMAC_FIELD_LEN];
	struct sr6_tlv_hmac *tlv;

	/* The H flag without a well-formed trailing TLV is a bad HMAC. */
	tlv = seg6x_srh_hmac_tlv(srh);
	if (!tlv)
		return seg6x_drop_reason(p, SEG6X_STAT_DROP_HMAC_INVALID);
	if (seg6x_hmac_compute(p->sn, be32_to_cpu(tlv->hmackeyid),
			       &ipv6_hdr(p->skb)->saddr, srh, mac))
		return seg6x_drop_reason(p, SEG6X_STAT_DROP_HMAC_NOKEY);
	if (crypto_memneq(mac, tlv->hmac, SEG6X_HMAC_FIELD_LEN))
		return seg6x_drop_reason(p, SEG6X_STAT_DROP_HMAC_INVALID);

	p->authenticated = true;
	seg6x_stats_inc(&p->sn->stats, SEG6X_STAT_HMAC_VERIFIED);
	return SEG6X_GO;
}

/* Step 3: HMAC, per the interface's require_hmac. */
static enum seg6x_verdict seg6x_verify(struct seg6x_pkt *p)
{
	struct ipv6_sr_hdr *srh = seg6x_pkt_srh(p);

	if (seg6x_pkt_policy(p)->require_hmac < 0)
		return SEG6X_GO;
	if (!(srh->flags & SR6_FLAG1_HMAC)) {
		if (seg6x_pkt_policy(p)->require_hmac > 0)
			return seg6x_drop_reason(p, SEG6X_STAT_DROP_HMAC_MISSING);
		return SEG6X_GO;
	}
	return seg6x_verify_tlv(p, srh);
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
	if (skb_ensure_writable(p->skb, p->srh_off + p->srh_len))
		return seg6x_drop_silent(p, SEG6X_STAT_DROP_NOMEM);
	return SEG6X_GO;
}

/*
 * No SRH in sight: an SRH seg6x cannot see (a routing header it cannot
 * walk past) on an interface that requires an HMAC lets nothing
 * unauthenticated through (RFC 8754 5). Then the IPv6 header is made
 * writable for what follows.
 */
enum seg6x_verdict seg6x_nosrh_checks(struct seg6x_pkt *p)
{
	if (p->srh_hidden && seg6x_pkt_policy(p)->require_hmac > 0)
		return seg6x_drop_silent(p, SEG6X_STAT_DROP_HMAC_MISSING);
	if (skb_ensure_writable(p->skb, sizeof(struct ipv6hdr)))
		return seg6x_drop_silent(p, SEG6X_STAT_DROP_NOMEM);
	return SEG6X_GO;
}

/*
 * A next segment that the stack would deliver to link-scope listeners
 * or loop back inside the host is refused (the in-tree seg6 refuses
 * multicast): an SRH must not turn an off-link packet into a link-local,
 * loopback or multicast one.
 */
bool seg6x_next_segment_ok(const struct in6_addr *a)
{
	__be32 top = a->s6_addr32[0];
	int type;

	/* Global unicast (2000::/3 to c000::/3) and ULAs (fc00::/7), the
	 * segments of every real network, without the full classification.
	 */
	if (((top & htonl(0xe0000000)) != 0 &&
	     (top & htonl(0xe0000000)) != htonl(0xe0000000)) ||
	    (top & htonl(0xfe000000)) == htonl(0xfc000000))
		return true;

	type = ipv6_addr_type(a);

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

	if (!seg6x_next_segment_ok(&srh->segments[srh->segments_left - 1]))
		return seg6x_drop_silent(p, SEG6X_STAT_DROP_BAD_SRH);
	seg6x_csum_sub(skb, &srh->segments_left, 1);
	srh->segments_left--;
	seg6x_csum_add(skb, &srh->segments_left, 1);

	seg6x_csum_sub(skb, &ip6h->daddr, sizeof(ip6h->daddr));
	ip6h->daddr = srh->segments[srh->segments_left];
	seg6x_csum_add(skb, &ip6h->daddr, sizeof(ip6h->daddr));
	skb_dst_drop(skb);
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
 * Where the payload after the SRH (or the IPv6 header) starts, and what:
 * past Hop-by-Hop (right after the IPv6 header only), Destination Options
 * and atomic Fragment headers (RFC 8200 4.5: processed in isolation). A
 * routing header there (RFC 8200 allows one, and seg6x found no SRH in
 * it) or a piece of a fragmented packet is no payload to take.
 */
int seg6x_payload(struct seg6x_pkt *p, u8 *proto)
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

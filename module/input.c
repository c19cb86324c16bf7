// SPDX-License-Identifier: GPL-2.0
/*
 * input.c - SR endpoint processing from an IPv6 PRE_ROUTING hook.
 *
 * The in-tree seg6 handles the SRH inside ipv6_rthdr_rcv(), at local
 * delivery, which a module cannot replace. seg6x sees the packet earlier,
 * in PRE_ROUTING, and acts only on packets that are addressed to this node
 * and arrive on an interface where seg6x is enabled; anything else goes on
 * untouched, so the in-tree seg6 or the normal IPv6 rules decide.
 *
 * Per packet: locate the SRH, route the destination (is it ours?), check
 * the interface policy, validate the SRH, verify the HMAC, then
 *   SL > 0            End: next segment becomes the destination; the
 *                     packet is routed again (forwarded, or processed once
 *                     more if the next segment is local too);
 *   SL = 0, IPv6/IPv4 decapsulate and re-receive the inner packet;
 *   SL = 0, other     consume the SRH and deliver locally.
 * Nothing here allocates, except unsharing a cloned skb before writing.
 */
#include <linux/icmpv6.h>
#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv6.h>
#include <net/checksum.h>
#include <net/dst.h>
#include <net/dst_metadata.h>
#include <net/ip6_fib.h>
#include <net/ipv6.h>

#include "hmac.h"
#include "input.h"
#include "pernet.h"
#include "policy.h"
#include "srh.h"

/*
 * After nf_defrag_ipv6 (-400), so that a packet whose inner payload was
 * fragmented is decapsulated whole when conntrack is loaded; before raw
 * (-300) and conntrack (-200), so that they see the packet with the
 * destination seg6x gives it, as they would for any other routed packet.
 */
#define SEG6X_NF_PRIORITY	(NF_IP6_PRI_RAW - 50)

/* Keep a CHECKSUM_COMPLETE sum right around an in-place rewrite. */
static void seg6x_csum_sub(struct sk_buff *skb, const void *p, int len)
{
	if (skb->ip_summed == CHECKSUM_COMPLETE)
		skb->csum = csum_block_sub(skb->csum, csum_partial(p, len, 0),
					   (const u8 *)p - skb->data);
}

static void seg6x_csum_add(struct sk_buff *skb, const void *p, int len)
{
	if (skb->ip_summed == CHECKSUM_COMPLETE)
		skb->csum = csum_block_add(skb->csum, csum_partial(p, len, 0),
					   (const u8 *)p - skb->data);
}

/*
 * Route the packet if no one has yet (the stack honours a valid dst set
 * in PRE_ROUTING, so the lookup is not repeated) and tell whether its
 * destination is local.
 */
static bool seg6x_dst_is_local(struct sk_buff *skb)
{
	struct dst_entry *dst;

	if (!skb_valid_dst(skb)) {
		skb_dst_drop(skb);
		seg6x_route_input(skb);
	}
	dst = skb_dst(skb);
	if (!dst || dst->error)
		return false;
	return ((struct rt6_info *)dst)->rt6i_flags & RTF_LOCAL;
}

/*
 * Remove the SRH, moving the headers in front of it forward (the payload
 * stays where it is). The caller made the headers writable.
 */
static void seg6x_srh_pop(struct sk_buff *skb, unsigned int srh_off,
			  unsigned int nh_off)
{
	struct ipv6_sr_hdr *srh = seg6x_srh_at(skb, srh_off);
	unsigned int srhlen = seg6x_srh_len(srh);
	u8 *nh = skb_network_header(skb);
	struct ipv6hdr *ip6h = ipv6_hdr(skb);
	u8 next = srh->nexthdr;

	seg6x_csum_sub(skb, srh, srhlen);

	seg6x_csum_sub(skb, nh + nh_off, 1);
	nh[nh_off] = next;
	seg6x_csum_add(skb, nh + nh_off, 1);

	seg6x_csum_sub(skb, &ip6h->payload_len, 2);
	ip6h->payload_len = htons(ntohs(ip6h->payload_len) - srhlen);
	seg6x_csum_add(skb, &ip6h->payload_len, 2);

	/* An even shift leaves the moved bytes' checksum unchanged. */
	memmove(nh + srhlen, nh, srh_off);
	if (skb_mac_header_was_set(skb)) {
		u8 *old_mac = skb_mac_header(skb);

		skb->mac_header += srhlen;
		memmove(skb_mac_header(skb), old_mac, skb->mac_len);
	}
	__skb_pull(skb, srhlen);
	skb->network_header += srhlen;
	skb->transport_header += srhlen;
}

/* Drop with ICMPv6 Parameter Problem (code 0) pointing at @field. */
static unsigned int seg6x_param_prob(struct seg6x_net *sn, struct sk_buff *skb,
				     unsigned int field)
{
	icmpv6_send(skb, ICMPV6_PARAMPROB, ICMPV6_HDR_FIELD, field);
	seg6x_stats_inc(&sn->stats, SEG6X_STAT_DROP_BAD_SRH);
	return NF_DROP;
}

/* HMAC policy: returns 0 to go on, or the drop counter to bump. */
static int seg6x_input_hmac(struct seg6x_net *sn, struct sk_buff *skb,
			    struct ipv6_sr_hdr *srh, int require)
{
	u8 mac[SEG6X_HMAC_FIELD_LEN];
	struct sr6_tlv_hmac *tlv;

	if (require < 0)
		return 0;
	if (!(srh->flags & SR6_FLAG1_HMAC))
		return require > 0 ? SEG6X_STAT_DROP_HMAC_MISSING : 0;

	/* The H flag without a well-formed trailing TLV is a bad HMAC. */
	tlv = seg6x_srh_hmac_tlv(srh);
	if (!tlv)
		return SEG6X_STAT_DROP_HMAC_INVALID;
	if (seg6x_hmac_compute(sn, be32_to_cpu(tlv->hmackeyid),
			       &ipv6_hdr(skb)->saddr, srh, mac))
		return SEG6X_STAT_DROP_HMAC_NOKEY;
	if (crypto_memneq(mac, tlv->hmac, SEG6X_HMAC_FIELD_LEN))
		return SEG6X_STAT_DROP_HMAC_INVALID;

	seg6x_stats_inc(&sn->stats, SEG6X_STAT_HMAC_VERIFIED);
	return 0;
}

/* SL = 0 and an IPv6/IPv4 payload: strip everything up to the SRH. */
static unsigned int seg6x_decap(struct net *net, struct seg6x_net *sn,
				struct sk_buff *skb, unsigned int inner_off,
				u8 proto)
{
	skb_pull_rcsum(skb, inner_off);
	skb_reset_network_header(skb);
	skb_reset_transport_header(skb);
	skb->encapsulation = 0;
	skb->protocol = htons(proto == NEXTHDR_IPV6 ? ETH_P_IPV6 : ETH_P_IP);

	/* Keep the link-layer header adjacent, so that taps and the second
	 * pass through the stack see a coherent frame.
	 */
	if (skb_mac_header_was_set(skb)) {
		skb_mac_header_rebuild(skb);
		if (skb->dev->type == ARPHRD_ETHER && skb->mac_len == ETH_HLEN)
			eth_hdr(skb)->h_proto = skb->protocol;
	}

	/* Clears dst, conntrack and (across namespaces) marks. */
	__skb_tunnel_rx(skb, skb->dev, net);
	seg6x_stats_inc(&sn->stats, SEG6X_STAT_DECAP);
	netif_rx(skb);
	return NF_STOLEN;
}

/*
 * One endpoint pass over an SRH at @srh_off, already validated and
 * verified, with Segments Left > 0. Returns true when the new destination
 * is local and the SRH is still there (process it again); otherwise
 * *verdict is the netfilter verdict.
 */
static bool seg6x_end(struct seg6x_net *sn, struct sk_buff *skb,
		      unsigned int srh_off, unsigned int nh_off,
		      unsigned int *verdict)
{
	struct ipv6_sr_hdr *srh = seg6x_srh_at(skb, srh_off);
	struct ipv6hdr *ip6h = ipv6_hdr(skb);
	struct dst_entry *dst;
	bool cleanup;

	/* Seeds' cleanup flag: the penultimate endpoint of an inserted
	 * (not encapsulating) SRH removes it.
	 */
	cleanup = srh->segments_left == 1 &&
		  (srh->flags & SEG6X_SRH_FLAG_CLEANUP) &&
		  srh->nexthdr != NEXTHDR_IPV6 && srh->nexthdr != NEXTHDR_IPV4;

	seg6x_csum_sub(skb, &srh->segments_left, 1);
	srh->segments_left--;
	seg6x_csum_add(skb, &srh->segments_left, 1);

	seg6x_csum_sub(skb, &ip6h->daddr, sizeof(ip6h->daddr));
	ip6h->daddr = srh->segments[srh->segments_left];
	seg6x_csum_add(skb, &ip6h->daddr, sizeof(ip6h->daddr));

	if (cleanup)
		seg6x_srh_pop(skb, srh_off, nh_off);
	seg6x_stats_inc(&sn->stats, SEG6X_STAT_END);

	skb_dst_drop(skb);
	seg6x_route_input(skb);
	dst = skb_dst(skb);
	if (!dst || dst->error) {
		/* The stack's error route drops it with an ICMPv6 error. */
		seg6x_stats_inc(&sn->stats, SEG6X_STAT_DROP_NO_ROUTE);
		*verdict = NF_ACCEPT;
		return false;
	}
	if (!(((struct rt6_info *)dst)->rt6i_flags & RTF_LOCAL)) {
		*verdict = NF_ACCEPT;	/* forwarded; ip6_forward() counts the hop */
		return false;
	}

	/* Looped back to ourselves: each local pass costs one hop, so a
	 * list that keeps naming this node cannot loop forever.
	 */
	ip6h = ipv6_hdr(skb);
	if (ip6h->hop_limit <= 1) {
		icmpv6_send(skb, ICMPV6_TIME_EXCEED, ICMPV6_EXC_HOPLIMIT, 0);
		seg6x_stats_inc(&sn->stats, SEG6X_STAT_DROP_HOP_LIMIT);
		*verdict = NF_DROP;
		return false;
	}
	seg6x_csum_sub(skb, &ip6h->hop_limit, 1);
	ip6h->hop_limit--;
	seg6x_csum_add(skb, &ip6h->hop_limit, 1);

	if (cleanup) {
		*verdict = NF_ACCEPT;	/* SRH gone: plain local delivery */
		return false;
	}
	return true;
}

static unsigned int seg6x_input(struct net *net, struct sk_buff *skb,
				unsigned int srh_off, unsigned int nh_off)
{
	struct seg6x_net *sn = seg6x_pernet(net);
	struct seg6x_policy pol;
	struct ipv6_sr_hdr *srh;
	unsigned int srhlen, verdict;
	int drop;

	if (!seg6x_dst_is_local(skb))
		return NF_ACCEPT;	/* transit: not ours to process */

	seg6x_policy_get(sn, skb->dev->ifindex, &pol);
	if (!pol.enabled) {
		/* Left to the stack (the in-tree seg6, if enabled). */
		seg6x_stats_inc(&sn->stats, SEG6X_STAT_DROP_DISABLED);
		return NF_ACCEPT;
	}

	for (;;) {
		/* The whole SRH must be in the packet; a truncated one is
		 * dropped silently, as the in-tree seg6 does.
		 */
		if (!pskb_may_pull(skb, srh_off + sizeof(*srh)))
			goto drop_bad;
		srhlen = seg6x_srh_len(seg6x_srh_at(skb, srh_off));
		if (!pskb_may_pull(skb, srh_off + srhlen))
			goto drop_bad;
		srh = seg6x_srh_at(skb, srh_off);

		switch (seg6x_srh_validate(srh)) {
		case SEG6X_SRH_OK:
			break;
		case SEG6X_SRH_BAD_SL:
			return seg6x_param_prob(sn, skb, srh_off +
				offsetof(struct ipv6_sr_hdr, segments_left));
		default:
			return seg6x_param_prob(sn, skb, srh_off +
				offsetof(struct ipv6_sr_hdr, hdrlen));
		}

		drop = seg6x_input_hmac(sn, skb, srh, pol.require_hmac);
		if (drop) {
			seg6x_stats_inc(&sn->stats, drop);
			return NF_DROP;
		}

		/* Everything below writes the headers: unshare them. */
		if (skb_ensure_writable(skb, srh_off + srhlen)) {
			seg6x_stats_inc(&sn->stats, SEG6X_STAT_DROP_NOMEM);
			return NF_DROP;
		}
		srh = seg6x_srh_at(skb, srh_off);

		if (srh->segments_left == 0) {
			if (srh->nexthdr == NEXTHDR_IPV6 ||
			    srh->nexthdr == NEXTHDR_IPV4)
				return seg6x_decap(net, sn, skb,
						   srh_off + srhlen,
						   srh->nexthdr);
			/*
			 * Final destination. Consume the SRH (as RFC 8986's
			 * USD/PSP flavours do): the in-tree seg6 would drop
			 * the packet at local delivery unless its own
			 * seg6_enabled sysctls are set.
			 */
			seg6x_srh_pop(skb, srh_off, nh_off);
			seg6x_stats_inc(&sn->stats, SEG6X_STAT_LOCAL);
			return NF_ACCEPT;
		}

		if (!seg6x_end(sn, skb, srh_off, nh_off, &verdict))
			return verdict;
	}

drop_bad:
	seg6x_stats_inc(&sn->stats, SEG6X_STAT_DROP_BAD_SRH);
	return NF_DROP;
}

static unsigned int seg6x_input_hook(void *priv, struct sk_buff *skb,
				     const struct nf_hook_state *state)
{
	unsigned int srh_off, nh_off;

	/* Fast exit for everything that carries no SRH. */
	if (seg6x_srh_find(skb, &srh_off, &nh_off))
		return NF_ACCEPT;
	return seg6x_input(state->net, skb, srh_off, nh_off);
}

static const struct nf_hook_ops seg6x_nf_ops[] = {
	{
		.hook = seg6x_input_hook,
		.pf = NFPROTO_IPV6,
		.hooknum = NF_INET_PRE_ROUTING,
		.priority = SEG6X_NF_PRIORITY,
	},
};

int seg6x_input_net_init(struct net *net)
{
	return nf_register_net_hooks(net, seg6x_nf_ops,
				     ARRAY_SIZE(seg6x_nf_ops));
}

void seg6x_input_net_exit(struct net *net)
{
	nf_unregister_net_hooks(net, seg6x_nf_ops, ARRAY_SIZE(seg6x_nf_ops));
}

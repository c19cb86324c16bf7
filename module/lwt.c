// SPDX-License-Identifier: GPL-2.0
/*
 * lwt.c - seg6x's lightweight-tunnel encap ops: routes that add an SRH.
 *
 * Stock kernels build the in-tree seg6 LWT into ipv6 and hold the SEG6 and
 * SEG6_LOCAL slots, so seg6x claims a slot that no built-in code owns and
 * userspace learns which one through SEG6X_CMD_INFO_GET.
 *
 * encap  (H.Encaps): outer IPv6 header + SRH in front of an IPv6 or IPv4
 *        packet; source = the namespace's tunnel source, or an address of
 *        the route's interface when that is ::.
 * inline (H.Insert, as in the seeds): SRH inserted after the IPv6 header,
 *        the original destination kept as Segment List[0].
 *
 * Forwarded packets reach seg6x_lwt_input(), locally generated ones
 * seg6x_lwt_output(); each path keeps its own per-CPU cache of the route
 * to the first segment (sharing one between input and output lookups is
 * wrong: input routes depend on the ingress interface).
 */
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <net/addrconf.h>
#include <net/dst_cache.h>
#include <net/icmp.h>
#include <net/ip.h>
#include <net/ip_tunnels.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/lwtunnel.h>

#include "hmac.h"
#include "lwt.h"
#include "params.h"
#include "pernet.h"
#include "srh.h"

struct seg6x_lwt {
	struct dst_cache cache_in;
	struct dst_cache cache_out;
	u8 mode;
	u8 nsegs;
	bool hmac;
	u32 keyid;
	unsigned int overhead;		/* bytes added to each packet */
	struct in6_addr *segs;		/* path order, for dumps */
	struct ipv6_sr_hdr *srh;	/* template, wire format */
	u8 data[];			/* segs, then srh */
};

static int seg6x_lwt_type;

static struct seg6x_lwt *seg6x_lwt(struct lwtunnel_state *lws)
{
	return (struct seg6x_lwt *)lws->data;
}

static const struct nla_policy seg6x_iptun_policy[SEG6X_IPTUN_MAX + 1] = {
	[SEG6X_IPTUN_MODE]	= NLA_POLICY_RANGE(NLA_U8,
						   SEG6X_IPTUN_MODE_ENCAP,
						   SEG6X_IPTUN_MODE_INLINE),
	[SEG6X_IPTUN_SEGS]	= { .type = NLA_BINARY },
	[SEG6X_IPTUN_HMAC_KEYID] = NLA_POLICY_MIN(NLA_U32, 1),
};

/* ---- packet construction ---------------------------------------------- */

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

/* Seeds' inline mode: insert the SRH after the packet's IPv6 header. */
static int seg6x_push_inline(struct net *net, struct sk_buff *skb,
			     const struct seg6x_lwt *sl, unsigned int extra)
{
	struct seg6x_net *sn = seg6x_pernet(net);
	unsigned int srhlen = sl->overhead;
	struct ipv6_sr_hdr *srh;
	struct ipv6hdr *hdr;
	int err;

	if (skb->protocol != htons(ETH_P_IPV6))
		return -EINVAL;
	err = skb_cow_head(skb, srhlen + extra);
	if (err)
		return err;

	skb_postpull_rcsum(skb, skb_network_header(skb), sizeof(*hdr));
	skb_push(skb, srhlen);
	memmove(skb->data, skb->data + srhlen, sizeof(*hdr));
	skb_reset_network_header(skb);
	skb_mac_header_rebuild(skb);
	hdr = ipv6_hdr(skb);

	srh = (struct ipv6_sr_hdr *)(hdr + 1);
	memcpy(srh, sl->srh, srhlen);
	srh->nexthdr = hdr->nexthdr;
	srh->segments[0] = hdr->daddr;
	hdr->nexthdr = NEXTHDR_ROUTING;
	hdr->daddr = srh->segments[srh->first_segment];
	hdr->payload_len = htons(skb->len - sizeof(*hdr));

	if (sl->hmac) {
		err = seg6x_sign(sn, sl, &hdr->saddr, srh);
		if (err)
			return err;
	}

	skb_postpush_rcsum(skb, hdr, sizeof(*hdr) + srhlen);
	skb_set_transport_header(skb, sizeof(*hdr));
	seg6x_stats_inc(&sn->stats, SEG6X_STAT_INLINE);
	return 0;
}

static int seg6x_push(struct net *net, struct sk_buff *skb,
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

/* Room left for the packet once the encapsulation is added. */
static unsigned int seg6x_room(const struct seg6x_lwt *sl,
			       struct dst_entry *next)
{
	unsigned int mtu = dst_mtu(next);

	return mtu > sl->overhead ? mtu - sl->overhead : 0;
}

static bool seg6x_fits(const struct sk_buff *skb, unsigned int room)
{
	return skb_is_gso(skb) ? skb_gso_validate_network_len(skb, room) :
				 skb->len <= room;
}

/*
 * Would the packet, once encapsulated, exceed the MTU towards the first
 * segment? Then tell its source how much room there is, as any tunnel
 * must, so that path MTU discovery works instead of a black hole.
 *
 * An IPv6 source cannot go below 1280 bytes: when the path towards the
 * first segment is narrower, the outer packet is fragmented instead
 * (RFC 2473 7.1), so that minimum-size packets still get through.
 */
static bool seg6x_too_big(struct sk_buff *skb, unsigned int room)
{
	if (seg6x_fits(skb, room))
		return false;

	if (skb->protocol == htons(ETH_P_IPV6)) {
		if (room < IPV6_MIN_MTU && seg6x_fits(skb, IPV6_MIN_MTU)) {
			skb->ignore_df = 1;
			return false;
		}
		icmpv6_send(skb, ICMPV6_PKT_TOOBIG, 0,
			    max_t(unsigned int, room, IPV6_MIN_MTU));
	} else if (skb->protocol == htons(ETH_P_IP)) {
		icmp_send(skb, ICMP_DEST_UNREACH, ICMP_FRAG_NEEDED,
			  htonl(room));
	}
	return true;
}

/* ---- forwarded packets ------------------------------------------------ */

static int seg6x_lwt_xmit_in(struct sk_buff *skb, bool may_frag);

/* Fragments (and GSO segments) are encapsulated as they are: never cut
 * again, so a route can never re-enter its own fragmentation.
 */
static int seg6x_lwt_input_frag(struct net *net, struct sock *sk,
				struct sk_buff *skb)
{
	return seg6x_lwt_xmit_in(skb, false);
}

/* IPv4 without DF may be fragmented, and must be rather than dropped. */
static bool seg6x_v4_may_frag(struct sk_buff *skb)
{
	return skb->protocol == htons(ETH_P_IP) &&
	       !(ip_hdr(skb)->frag_off & htons(IP_DF));
}

/*
 * Cut an IPv4 packet into fragments of at most @room bytes, so that each
 * fits the path to the first segment once encapsulated. ip_do_fragment()
 * takes the smaller of the route's MTU and frag_max_size.
 */
static int seg6x_frag_v4(struct net *net, struct sk_buff *skb,
			 unsigned int room)
{
	if (room < sizeof(struct iphdr) + 8) {
		kfree_skb(skb);
		return -EMSGSIZE;
	}
	IPCB(skb)->frag_max_size = room;
	return ip_do_fragment(net, NULL, skb, seg6x_lwt_input_frag);
}

/* A GSO IPv4 packet without DF: segment it, then fragment what is still
 * too big (as ip_finish_output_gso() does for plain IPv4).
 */
static int seg6x_gso_frag_v4(struct net *net, struct sk_buff *skb,
			     unsigned int room)
{
	struct sk_buff *segs, *seg, *nskb;
	int err, ret = 0;

	segs = skb_gso_segment(skb, 0);
	if (IS_ERR_OR_NULL(segs)) {
		kfree_skb(skb);
		return -ENOMEM;
	}
	consume_skb(skb);

	skb_list_walk_safe(segs, seg, nskb) {
		skb_mark_not_on_list(seg);
		if (seg->len > room)
			err = seg6x_frag_v4(net, seg, room);
		else
			err = seg6x_lwt_xmit_in(seg, false);
		if (err && !ret)
			ret = err;
	}
	return ret;
}

static struct dst_entry *seg6x_lookup_in(struct net *net, struct sk_buff *skb,
					 struct seg6x_lwt *sl)
{
	struct flowi6 fl6 = {
		.flowi6_iif = skb->dev->ifindex,
		.daddr = sl->srh->segments[sl->srh->first_segment],
		.flowi6_mark = skb->mark,
		.flowi6_proto = NEXTHDR_ROUTING,
	};

	/* No skb: it is still the inner packet, useless for hashing. */
	return ip6_route_input_lookup(net, skb->dev, &fl6, NULL, 0);
}

/*
 * The route to the first segment must not be a seg6x route itself: one
 * pointing back at this route (directly or through others) would
 * encapsulate forever, and two routes caching each other's dst would pin
 * each other (and the module) for good.
 */
static bool seg6x_next_usable(struct dst_entry *next)
{
	return !next->error &&
	       !(next->lwtstate && next->lwtstate->type == seg6x_lwt_type);
}

static int seg6x_lwt_xmit_in(struct sk_buff *skb, bool may_frag)
{
	struct dst_entry *orig = skb_dst(skb);
	struct seg6x_lwt *sl = seg6x_lwt(orig->lwtstate);
	struct net *net = dev_net(skb->dev);
	struct seg6x_net *sn = seg6x_pernet(net);
	struct dst_entry *next;
	unsigned int room;
	int err = -ENETUNREACH;

	local_bh_disable();
	next = dst_cache_get(&sl->cache_in);
	local_bh_enable();
	if (!next) {
		next = seg6x_lookup_in(net, skb, sl);
		if (!seg6x_next_usable(next)) {
			dst_release(next);
			seg6x_stats_inc(&sn->stats, SEG6X_STAT_DROP_NO_ROUTE);
			goto drop;
		}
		local_bh_disable();
		dst_cache_set_ip6(&sl->cache_in, next, &in6addr_any);
		local_bh_enable();
	}

	room = seg6x_room(sl, next);
	if (may_frag && seg6x_v4_may_frag(skb) && !seg6x_fits(skb, room)) {
		dst_release(next);
		if (skb_is_gso(skb))
			return seg6x_gso_frag_v4(net, skb, room);
		return seg6x_frag_v4(net, skb, room);
	}
	if (seg6x_too_big(skb, room)) {
		dst_release(next);
		err = -EMSGSIZE;
		goto drop;
	}

	err = seg6x_push(net, skb, sl, orig->dev, next);
	if (err) {
		dst_release(next);
		goto drop;
	}

	skb_dst_drop(skb);
	skb_dst_set(skb, next);
	return dst_input(skb);

drop:
	kfree_skb(skb);
	return err;
}

static int seg6x_lwt_input(struct sk_buff *skb)
{
	return seg6x_lwt_xmit_in(skb, true);
}

/* ---- locally generated packets ------------------------------------------ */

static int seg6x_lwt_output(struct net *net, struct sock *sk,
			    struct sk_buff *skb)
{
	struct dst_entry *orig = skb_dst(skb);
	struct lwtunnel_state *lws = orig->lwtstate;
	struct seg6x_lwt *sl = seg6x_lwt(lws);
	struct seg6x_net *sn = seg6x_pernet(net);
	struct dst_entry *next;
	int err;

	local_bh_disable();
	next = dst_cache_get(&sl->cache_out);
	local_bh_enable();

	err = seg6x_push(net, skb, sl, orig->dev, next);
	if (err)
		goto drop_next;

	if (!next) {
		const struct ipv6hdr *hdr = ipv6_hdr(skb);
		struct flowi6 fl6 = {
			.daddr = hdr->daddr,
			.saddr = hdr->saddr,
			.flowlabel = ip6_flowinfo(hdr),
			.flowi6_mark = skb->mark,
			.flowi6_proto = hdr->nexthdr,
		};

		next = ip6_route_output(net, NULL, &fl6);
		if (!seg6x_next_usable(next)) {
			seg6x_stats_inc(&sn->stats, SEG6X_STAT_DROP_NO_ROUTE);
			err = -ENETUNREACH;
			goto drop_next;
		}
		local_bh_disable();
		dst_cache_set_ip6(&sl->cache_out, next, &fl6.saddr);
		local_bh_enable();

		err = skb_cow_head(skb, LL_RESERVED_SPACE(next->dev));
		if (err) {
			seg6x_stats_inc(&sn->stats, SEG6X_STAT_DROP_NOMEM);
			goto drop_next;
		}
	}

	skb_dst_drop(skb);
	skb_dst_set(skb, next);
	return dst_output(net, sk, skb);

drop_next:
	dst_release(next);
	kfree_skb(skb);
	return err;
}

/* ---- route configuration ------------------------------------------------ */

static int seg6x_build_state(struct net *net, struct nlattr *nla,
			     unsigned int family, const void *cfg,
			     struct lwtunnel_state **ts,
			     struct netlink_ext_ack *extack)
{
	struct nlattr *tb[SEG6X_IPTUN_MAX + 1];
	const struct in6_addr *segs;
	struct lwtunnel_state *lws;
	unsigned int nsegs, max, i, srhlen;
	struct seg6x_lwt *sl;
	bool hmac, inl;
	int err;

	err = nla_parse_nested(tb, SEG6X_IPTUN_MAX, nla, seg6x_iptun_policy,
			       extack);
	if (err)
		return err;
	if (NL_REQ_ATTR_CHECK(extack, nla, tb, SEG6X_IPTUN_MODE)) {
		NL_SET_ERR_MSG(extack, "seg6x: missing mode (encap or inline)");
		return -EINVAL;
	}
	if (NL_REQ_ATTR_CHECK(extack, nla, tb, SEG6X_IPTUN_SEGS)) {
		NL_SET_ERR_MSG(extack, "seg6x: missing segment list");
		return -EINVAL;
	}

	inl = nla_get_u8(tb[SEG6X_IPTUN_MODE]) == SEG6X_IPTUN_MODE_INLINE;
	if (inl && family != AF_INET6) {
		NL_SET_ERR_MSG(extack, "seg6x: inline mode works on IPv6 routes only");
		return -EINVAL;
	}
	if (inl && !seg6x_param_allow_inline) {
		NL_SET_ERR_MSG(extack, "seg6x: inline routes are disabled (allow_inline=0)");
		return -EPERM;
	}

	hmac = !!tb[SEG6X_IPTUN_HMAC_KEYID];
	/* The HMAC text holds the whole list, which inline mode makes one
	 * longer (the original destination).
	 */
	max = hmac ? SEG6X_MAX_SEGS_HMAC - inl : SEG6X_MAX_SEGS;
	nsegs = nla_len(tb[SEG6X_IPTUN_SEGS]) / sizeof(struct in6_addr);
	if (nla_len(tb[SEG6X_IPTUN_SEGS]) % sizeof(struct in6_addr) ||
	    nsegs < 1 || nsegs > max) {
		if (hmac && inl)
			NL_SET_ERR_MSG_ATTR(extack, tb[SEG6X_IPTUN_SEGS],
					    "seg6x: an inline route with hmac takes 1 to 13 segments");
		else if (hmac)
			NL_SET_ERR_MSG_ATTR(extack, tb[SEG6X_IPTUN_SEGS],
					    "seg6x: a route with hmac takes 1 to 14 segments");
		else
			NL_SET_ERR_MSG_ATTR(extack, tb[SEG6X_IPTUN_SEGS],
					    "seg6x: a route takes 1 to 64 segments");
		return -EINVAL;
	}
	segs = nla_data(tb[SEG6X_IPTUN_SEGS]);
	for (i = 0; i < nsegs; i++) {
		if (ipv6_addr_any(&segs[i]) ||
		    ipv6_addr_is_multicast(&segs[i])) {
			NL_SET_ERR_MSG_ATTR(extack, tb[SEG6X_IPTUN_SEGS],
					    "seg6x: segments must be unicast addresses");
			return -EINVAL;
		}
	}

	srhlen = seg6x_srh_build_size(nsegs, inl, hmac);
	lws = lwtunnel_state_alloc(sizeof(*sl) + nsegs * sizeof(*segs) +
				   srhlen);
	if (!lws)
		return -ENOMEM;

	sl = seg6x_lwt(lws);
	sl->mode = inl ? SEG6X_IPTUN_MODE_INLINE : SEG6X_IPTUN_MODE_ENCAP;
	sl->nsegs = nsegs;
	sl->hmac = hmac;
	sl->keyid = hmac ? nla_get_u32(tb[SEG6X_IPTUN_HMAC_KEYID]) : 0;
	sl->overhead = srhlen + (inl ? 0 : sizeof(struct ipv6hdr));
	sl->segs = (struct in6_addr *)sl->data;
	memcpy(sl->segs, segs, nsegs * sizeof(*segs));
	sl->srh = (struct ipv6_sr_hdr *)(sl->segs + nsegs);
	seg6x_srh_build(sl->srh, segs, nsegs, inl, hmac, sl->keyid);

	err = dst_cache_init(&sl->cache_in, GFP_ATOMIC);
	if (err)
		goto err_free;
	err = dst_cache_init(&sl->cache_out, GFP_ATOMIC);
	if (err)
		goto err_cache_in;

	lws->type = seg6x_lwt_type;
	lws->flags |= LWTUNNEL_STATE_OUTPUT_REDIRECT |
		      LWTUNNEL_STATE_INPUT_REDIRECT;
	/* Lowers the route's MTU, so local senders size packets to fit. */
	lws->headroom = sl->overhead;
	*ts = lws;
	return 0;

err_cache_in:
	dst_cache_destroy(&sl->cache_in);
err_free:
	kfree(lws);
	return err;
}

static void seg6x_destroy_state(struct lwtunnel_state *lws)
{
	struct seg6x_lwt *sl = seg6x_lwt(lws);

	dst_cache_destroy(&sl->cache_in);
	dst_cache_destroy(&sl->cache_out);
}

static int seg6x_fill_encap(struct sk_buff *skb, struct lwtunnel_state *lws)
{
	struct seg6x_lwt *sl = seg6x_lwt(lws);

	if (nla_put_u8(skb, SEG6X_IPTUN_MODE, sl->mode) ||
	    nla_put(skb, SEG6X_IPTUN_SEGS, sl->nsegs * sizeof(*sl->segs),
		    sl->segs) ||
	    (sl->hmac && nla_put_u32(skb, SEG6X_IPTUN_HMAC_KEYID, sl->keyid)))
		return -EMSGSIZE;
	return 0;
}

static int seg6x_get_encap_size(struct lwtunnel_state *lws)
{
	struct seg6x_lwt *sl = seg6x_lwt(lws);

	return nla_total_size(sizeof(u8)) +
	       nla_total_size(sl->nsegs * sizeof(*sl->segs)) +
	       (sl->hmac ? nla_total_size(sizeof(u32)) : 0);
}

static int seg6x_cmp_encap(struct lwtunnel_state *a, struct lwtunnel_state *b)
{
	struct seg6x_lwt *x = seg6x_lwt(a), *y = seg6x_lwt(b);

	return x->mode != y->mode || x->nsegs != y->nsegs ||
	       x->hmac != y->hmac || x->keyid != y->keyid ||
	       memcmp(x->segs, y->segs, x->nsegs * sizeof(*x->segs));
}

static const struct lwtunnel_encap_ops seg6x_lwt_ops = {
	.build_state = seg6x_build_state,
	.destroy_state = seg6x_destroy_state,
	.output = seg6x_lwt_output,
	.input = seg6x_lwt_input,
	.fill_encap = seg6x_fill_encap,
	.get_encap_size = seg6x_get_encap_size,
	.cmp_encap = seg6x_cmp_encap,
	.owner = THIS_MODULE,
};

/* ---- slot claim --------------------------------------------------------- */

/*
 * Slots tried by "auto", best first: IOAM6 and RPL are not built by
 * Debian's 6.x kernels; ILA belongs to a module that is rarely loaded
 * (and whose loading then fails). MPLS is never taken automatically.
 * Other distributions build other things in, so every slot is probed,
 * not assumed free.
 */
static const int seg6x_auto_slots[] = {
	LWTUNNEL_ENCAP_IOAM6,
	LWTUNNEL_ENCAP_RPL,
	LWTUNNEL_ENCAP_ILA,
};

int seg6x_lwt_register(int requested)
{
	unsigned int i;

	/* Code outside the LWT ops reads states of these types as its own
	 * (skb_xfrm_md_info(), lwt_tun_info()): a seg6x state there would
	 * be misread.
	 */
	if (requested == LWTUNNEL_ENCAP_XFRM || requested == LWTUNNEL_ENCAP_IP ||
	    requested == LWTUNNEL_ENCAP_IP6) {
		pr_err("lwt_type=%d: other kernel code reads routes of this encap type as its own; pick another slot or 0 (auto)\n",
		       requested);
		return -EINVAL;
	}
	if (requested) {
		/* lwtunnel_encap_add_ops() says -1 for "taken". */
		if (lwtunnel_encap_add_ops(&seg6x_lwt_ops, requested)) {
			pr_err("lwt_type=%d: this encap slot is already registered by other code; try lwt_type=0 (auto)\n",
			       requested);
			return -EBUSY;
		}
		seg6x_lwt_type = requested;
		return 0;
	}

	for (i = 0; i < ARRAY_SIZE(seg6x_auto_slots); i++) {
		if (!lwtunnel_encap_add_ops(&seg6x_lwt_ops,
					    seg6x_auto_slots[i])) {
			seg6x_lwt_type = seg6x_auto_slots[i];
			return 0;
		}
	}
	pr_err("no free lightweight-tunnel encap slot (tried IOAM6, RPL, ILA); set lwt_type explicitly\n");
	return -EBUSY;
}

void seg6x_lwt_unregister(void)
{
	lwtunnel_encap_del_ops(&seg6x_lwt_ops, seg6x_lwt_type);
}

int seg6x_lwt_slot(void)
{
	return seg6x_lwt_type;
}

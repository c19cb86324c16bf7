// SPDX-License-Identifier: GPL-2.0
/*
 * lwt_xmit.c - packets through a seg6x route.
 *
 * Forwarded packets reach seg6x_lwt_input(), locally generated ones
 * seg6x_lwt_output(); each path keeps its own per-CPU cache of the route
 * to the first segment (sharing one between input and output lookups is
 * wrong: input routes depend on the ingress interface). The MTU that
 * matters is that of the route to the first segment, not of the seg6x
 * route: packets are fragmented, or their source told, against it.
 */
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/ip.h>
#include <net/dst_cache.h>
#include <net/icmp.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>

#include "lwt_state.h"
#include "ifdrops.h"
#include "pernet.h"

/*
 * The per-CPU dst caches are used with bottom halves disabled. Forwarded
 * packets (and most output) come here with them disabled already, in the
 * receive softirq or under netif_receive_skb()'s callers' local_bh_disable():
 * only a process-context sender pays for disabling them.
 */
static struct dst_entry *seg6x_cache_get(struct dst_cache *cache)
{
	struct dst_entry *dst;

	if (in_softirq())
		return dst_cache_get(cache);
	local_bh_disable();
	dst = dst_cache_get(cache);
	local_bh_enable();
	return dst;
}

static void seg6x_cache_set(struct dst_cache *cache, struct dst_entry *dst,
			    const struct in6_addr *saddr)
{
	if (in_softirq()) {
		dst_cache_set_ip6(cache, dst, saddr);
		return;
	}
	local_bh_disable();
	dst_cache_set_ip6(cache, dst, saddr);
	local_bh_enable();
}

/* Room left for the packet once the encapsulation is added. */
static unsigned int seg6x_room(const struct seg6x_lwt *sl,
			       struct dst_entry *next)
{
	unsigned int mtu = dst_mtu(next);

	return mtu > sl->he.overhead ? mtu - sl->he.overhead : 0;
}

/*
 * Does the packet fit the route towards @next whatever its MTU, which
 * saves looking it up? An IPv6 link's MTU is at least 1280 bytes (RFC
 * 8200 5; IPv6 is off on narrower devices, and path MTU updates are
 * clamped to it): only a route's own MTU metric (or another
 * encapsulation's headroom) can say less, and then the full check runs.
 */
static bool seg6x_fits_any_path(const struct sk_buff *skb,
				const struct seg6x_lwt *sl,
				const struct dst_entry *next)
{
	return !skb_is_gso(skb) &&
	       skb->len + sl->he.overhead <= IPV6_MIN_MTU &&
	       !dst_metric_raw(next, RTAX_MTU) && !next->lwtstate;
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
	/* Each fragment repeats the header, options included, and carries
	 * at least 8 bytes: with less room ip_do_fragment() would emit
	 * empty fragments for ever.
	 */
	if (room < ip_hdrlen(skb) + 8) {
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

/*
 * Push the route's headers, with room in front for @next's link layer;
 * counted as the route's mode, or as the reason it failed, and in the
 * route's own counters (its errors where the packet is dropped). Inlined
 * in both callers: the call and the five registers it saved and restored
 * were a tenth of what H.Insert adds to a forwarded packet.
 */
static __always_inline int seg6x_lwt_push(struct seg6x_net *sn,
					  struct sk_buff *skb,
					  const struct seg6x_lwt *sl,
					  struct net_device *dev,
					  struct dst_entry *next)
{
	unsigned int extra = next ? dst_dev_overhead(next, skb) : 0;
	unsigned int len = skb->len;
	int err;

	err = seg6x_headend_push(sn, skb, &sl->he, dev, extra);
	if (!err)
		seg6x_counters_add(sl->pcpu, len, false);
	switch (err) {
	case 0:
		nf_reset_ct(skb);
		seg6x_stats_inc(&sn->stats, sl->he.mode == SEG6X_H_INSERT ?
				SEG6X_STAT_INLINE : SEG6X_STAT_ENCAP);
		break;
	case -ENOMEM:
		seg6x_drop_count(sn, skb->dev, SEG6X_STAT_DROP_NOMEM);
		break;
	case -ENOKEY:
		seg6x_drop_count(sn, skb->dev, SEG6X_STAT_DROP_HMAC_NOKEY);
		break;
	}
	return err;
}

/*
 * Only when the cache is empty: out of line, so that its flow key (and
 * the stack protector that an on-stack struct brings) stays off the
 * path of every other packet.
 */
static noinline struct dst_entry *seg6x_lookup_in(struct net *net,
						  struct sk_buff *skb,
						  struct seg6x_lwt *sl)
{
	struct flowi6 fl6 = {
		.flowi6_iif = skb->dev->ifindex,
		.daddr = sl->he.segs[0],
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
	struct seg6x_net *sn = seg6x_pernet_rcu(net);	/* receive path */
	struct dst_entry *next;
	unsigned int room;
	int err = -ENETUNREACH;

	next = seg6x_cache_get(&sl->cache_in);
	if (!next) {
		next = seg6x_lookup_in(net, skb, sl);
		if (!seg6x_next_usable(next)) {
			dst_release(next);
			seg6x_drop_count(sn, skb->dev, SEG6X_STAT_DROP_NO_ROUTE);
			goto drop;
		}
		seg6x_cache_set(&sl->cache_in, next, &in6addr_any);
	}

	if (seg6x_fits_any_path(skb, sl, next))
		goto push;
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

push:
	err = seg6x_lwt_push(sn, skb, sl, orig->dev, next);
	if (err) {
		dst_release(next);
		goto drop;
	}

	skb_dst_drop(skb);
	skb_dst_set(skb, next);
	return dst_input(skb);

drop:
	seg6x_counters_add(sl->pcpu, 0, true);
	kfree_skb(skb);
	return err;
}

int seg6x_lwt_input(struct sk_buff *skb)
{
	return seg6x_lwt_xmit_in(skb, true);
}

/*
 * The route for the encapsulated packet, cached if usable. Out of line
 * for the reason seg6x_lookup_in() is.
 */
static noinline struct dst_entry *seg6x_lookup_out(struct net *net,
						   struct sk_buff *skb,
						   struct seg6x_lwt *sl)
{
	const struct ipv6hdr *hdr = ipv6_hdr(skb);
	struct flowi6 fl6 = {
		.daddr = hdr->daddr,
		.saddr = hdr->saddr,
		.flowlabel = ip6_flowinfo(hdr),
		.flowi6_mark = skb->mark,
		.flowi6_proto = hdr->nexthdr,
	};
	struct dst_entry *next;

	next = ip6_route_output(net, NULL, &fl6);
	if (seg6x_next_usable(next))
		seg6x_cache_set(&sl->cache_out, next, &fl6.saddr);
	return next;
}

int seg6x_lwt_output(struct net *net, struct sock *sk, struct sk_buff *skb)
{
	struct dst_entry *orig = skb_dst(skb);
	struct lwtunnel_state *lws = orig->lwtstate;
	struct seg6x_lwt *sl = seg6x_lwt(lws);
	struct seg6x_net *sn = seg6x_pernet(net);
	struct dst_entry *next;
	int err;

	next = seg6x_cache_get(&sl->cache_out);

	err = seg6x_lwt_push(sn, skb, sl, orig->dev, next);
	if (err)
		goto drop_next;

	if (!next) {
		next = seg6x_lookup_out(net, skb, sl);
		if (!seg6x_next_usable(next)) {
			seg6x_drop_count(sn, skb->dev, SEG6X_STAT_DROP_NO_ROUTE);
			err = -ENETUNREACH;
			goto drop_next;
		}
		err = skb_cow_head(skb, LL_RESERVED_SPACE(next->dev));
		if (err) {
			seg6x_drop_count(sn, skb->dev, SEG6X_STAT_DROP_NOMEM);
			goto drop_next;
		}
	}

	skb_dst_drop(skb);
	skb_dst_set(skb, next);
	return dst_output(net, sk, skb);

drop_next:
	seg6x_counters_add(sl->pcpu, 0, true);
	dst_release(next);
	kfree_skb(skb);
	return err;
}

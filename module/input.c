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
 * The hook is the last of PRE_ROUTING, so mangle marks and TPROXY have
 * applied when it looks a destination up; when the packet leaves the hook
 * with the destination that lookup was for, its route goes with it
 * (seg6x_route_attach()) and the stack does not look it up again.
 * Otherwise the stack routes the packet itself, as any other. Nothing
 * here allocates, except unsharing a cloned skb before writing and
 * reassembling fragments of the packets seg6x processes itself
 * (seg6x_processes()).
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

#include "input.h"
#include "endpoint.h"
#include "ifdrops.h"
#include "pernet.h"
#include "policy.h"
#include "sid.h"

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

/* Step 1: is this packet, addressed to this node, ours to process? */
static enum seg6x_verdict seg6x_accept(struct seg6x_pkt *p)
{
	bool no_route;

	if (!seg6x_pkt_policy(p)->enabled) {
		/* Handed back to the stack (the in-tree seg6, if enabled). */
		if (seg6x_is_local(p, &no_route))
			seg6x_drop_count(p->sn, p->skb->dev, SEG6X_STAT_DROP_DISABLED);
		return SEG6X_PASS;
	}
	if (!seg6x_is_local(p, &no_route))
		return SEG6X_PASS;	/* transit: not ours to process */
	return seg6x_repass(p);
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
		if (!h)
			return seg6x_drop_silent(p, SEG6X_STAT_DROP_BAD_SRH);
		off += ipv6_optlen(h);
		proto = h->nexthdr;
	}
	if (proto == NEXTHDR_ROUTING)
		return seg6x_drop_silent(p, SEG6X_STAT_DROP_BAD_SRH);

	if (proto == NEXTHDR_IPV6 || proto == NEXTHDR_IPV4) {
		if (!pskb_may_pull(p->skb, off))
			return seg6x_drop_silent(p, SEG6X_STAT_DROP_BAD_SRH);
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
			seg6x_drop_count(p->sn, p->skb->dev,
					 SEG6X_STAT_DROP_NO_ROUTE);
		return SEG6X_PASS;
	}
	/* Looped back to ourselves (the hop is charged on the next pass);
	 * without its SRH, plain local delivery.
	 */
	return p->has_srh ? SEG6X_AGAIN : SEG6X_PASS;
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
	seg6x_drop_count(p->sn, p->skb->dev, p->drop);
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
	const struct seg6x_policy *pol = seg6x_pkt_policy(p);
	bool no_route;

	if (!pol->enabled || pol->require_hmac <= 0 ||
	    !seg6x_is_local(p, &no_route))
		return SEG6X_PASS;
	return seg6x_drop_silent(p, SEG6X_STAT_DROP_HMAC_MISSING);
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
	const struct seg6x_policy *pol;
	bool no_route;

	if (READ_ONCE(p->sn->nsids) &&
	    seg6x_sid_lookup(p->sn, &ipv6_hdr(p->skb)->daddr))
		return true;
	if (!p->has_srh && !p->srh_hidden)
		return false;
	pol = seg6x_pkt_policy(p);
	if (!pol->enabled || (p->srh_hidden && pol->require_hmac <= 0))
		return false;
	return seg6x_is_local(p, &no_route);
}

/* The implicit End: an SR packet to an address of this node. */
static enum seg6x_verdict seg6x_implicit_end(struct seg6x_pkt *p)
{
	enum seg6x_verdict v;

	if (!p->has_srh)
		return p->srh_hidden ? seg6x_hidden(p) : SEG6X_PASS;
	v = seg6x_accept(p);
	return v == SEG6X_GO ? seg6x_process(p) : v;
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
	struct seg6x_sid *sid;

	do {
		sid = READ_ONCE(p->sn->nsids) ?
		      seg6x_sid_lookup(p->sn, &ipv6_hdr(p->skb)->daddr) : NULL;
		v = sid ? seg6x_sid_input(p, sid) : seg6x_implicit_end(p);
	} while (v == SEG6X_AGAIN);
	return v;
}

/*
 * Can an SRH be behind this first Next Header? Only behind extension
 * headers seg6x_srh_find() walks: for anything else it finds none.
 */
static bool seg6x_maybe_sr(u8 nexthdr)
{
	return nexthdr == NEXTHDR_ROUTING || nexthdr == NEXTHDR_HOP ||
	       nexthdr == NEXTHDR_DEST;
}

static unsigned int seg6x_input_hook(void *priv, struct sk_buff *skb,
				     const struct nf_hook_state *state)
{
	struct seg6x_net *sn = priv;	/* seg6x_input_use() */
	struct seg6x_pkt p;
	u8 stop;
	int err;

	/* Fast exit for plain IPv6 in a namespace without SIDs: the cost
	 * seg6x adds to every other packet of a node that uses it.
	 */
	if (!seg6x_maybe_sr(ipv6_hdr(skb)->nexthdr) && !READ_ONCE(sn->nsids))
		return NF_ACCEPT;

	p = (struct seg6x_pkt){ .skb = skb, .net = state->net, .sn = sn };
	err = seg6x_srh_find(skb, &p.srh_off, &p.nh_off, &stop);
	p.has_srh = !err;
	p.srh_hidden = err == -EPROTO;

	/* No SRH in sight, and no SID to look for. */
	if (!p.has_srh && !p.srh_hidden && !READ_ONCE(sn->nsids))
		return NF_ACCEPT;
	if (!seg6x_for_this_host(skb))
		return NF_ACCEPT;

	if (unlikely(seg6x_srh_frag_beyond(stop)) &&
	    seg6x_srh_fragmented(skb) && seg6x_processes(&p)) {
		/* Same verdicts as nf_defrag_ipv6's own hook. */
		err = nf_ct_frag6_gather(p.net, skb, SEG6X_DEFRAG_USER);
		seg6x_route_release(&p);	/* asked of a fragment */
		if (err == -EINPROGRESS)
			return NF_STOLEN;	/* queued until the set is whole */
		if (err)
			return NF_DROP;
		err = seg6x_srh_find(skb, &p.srh_off, &p.nh_off, &stop);
		p.has_srh = !err;
		p.srh_hidden = err == -EPROTO;
	}

	switch (seg6x_run(&p)) {
	case SEG6X_DROP:
		seg6x_route_release(&p);
		/* Stolen, not NF_DROP: drop monitors then show our reason
		 * rather than a netfilter drop.
		 */
		seg6x_drop_skb(&p);
		return NF_STOLEN;
	case SEG6X_STOLEN:
		seg6x_route_release(&p);
		return NF_STOLEN;
	default:
		seg6x_route_attach(&p);
		return NF_ACCEPT;
	}
}

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
	sn->input_ops = (struct nf_hook_ops){
		.hook = seg6x_input_hook,
		.priv = sn,
		.pf = NFPROTO_IPV6,
		.hooknum = NF_INET_PRE_ROUTING,
		.priority = SEG6X_NF_PRIORITY,
	};
	err = nf_register_net_hook(net, &sn->input_ops);
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
	nf_unregister_net_hook(net, &sn->input_ops);
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

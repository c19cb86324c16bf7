// SPDX-License-Identifier: GPL-2.0
/*
 * lwt_state.c - build a seg6x route's state from its netlink attributes,
 * and give it back (dumps, comparisons).
 *
 * Building is two steps: parse and validate the attributes into a plain
 * configuration (every error reported with an extended ack, nothing
 * allocated yet), then allocate the state in one block: the segments in
 * path order (for dumps), the SRH as it goes on the wire (a template the
 * data path copies), and the two dst caches.
 */
#include <net/ipv6.h>
#include <net/lwtunnel.h>
#include <linux/seg6x.h>

#include "lwt_state.h"
#include "params.h"

static const struct nla_policy seg6x_iptun_policy[SEG6X_IPTUN_MAX + 1] = {
	[SEG6X_IPTUN_MODE]	= NLA_POLICY_RANGE(NLA_U8,
						   SEG6X_IPTUN_MODE_ENCAP,
						   SEG6X_IPTUN_MODE_INLINE),
	[SEG6X_IPTUN_SEGS]	= { .type = NLA_BINARY },
	[SEG6X_IPTUN_HMAC_KEYID] = NLA_POLICY_MIN(NLA_U32, 1),
	[SEG6X_IPTUN_OWNER]	= { .type = NLA_U8 },
	[SEG6X_IPTUN_COUNTERS]	= { .type = NLA_REJECT,
				    .reject_message = "seg6x: counters are reported, not set" },
};

/* A route's configuration, validated, before anything is allocated. */
struct seg6x_lwt_cfg {
	enum seg6x_headend_mode mode;
	u32 keyid;			/* 0: no HMAC */
	u8 owner;
	unsigned int nsegs;
	const struct in6_addr *segs;	/* in the request, path order */
};

static int seg6x_lwt_parse_segs(struct nlattr *attr, struct seg6x_lwt_cfg *c,
				struct netlink_ext_ack *extack)
{
	/* The HMAC text holds the whole list, which inline mode makes one
	 * longer (the original destination).
	 */
	bool insert = c->mode == SEG6X_H_INSERT;
	unsigned int max = c->keyid ? SEG6X_MAX_SEGS_HMAC - insert :
				      SEG6X_MAX_SEGS;
	unsigned int i;

	c->nsegs = nla_len(attr) / sizeof(struct in6_addr);
	if (nla_len(attr) % sizeof(struct in6_addr) || c->nsegs < 1 ||
	    c->nsegs > max) {
		if (c->keyid && insert)
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "seg6x: an inline route with hmac takes 1 to 13 segments");
		else if (c->keyid)
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "seg6x: a route with hmac takes 1 to 14 segments");
		else
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "seg6x: a route takes 1 to 64 segments");
		return -EINVAL;
	}
	c->segs = nla_data(attr);
	for (i = 0; i < c->nsegs; i++) {
		if (ipv6_addr_any(&c->segs[i]) ||
		    ipv6_addr_is_multicast(&c->segs[i])) {
			NL_SET_ERR_MSG_ATTR(extack, attr,
					    "seg6x: segments must be unicast addresses");
			return -EINVAL;
		}
	}
	return 0;
}

static int seg6x_lwt_parse(struct nlattr *nla, unsigned int family,
			   struct seg6x_lwt_cfg *c,
			   struct netlink_ext_ack *extack)
{
	struct nlattr *tb[SEG6X_IPTUN_MAX + 1];
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

	c->mode = nla_get_u8(tb[SEG6X_IPTUN_MODE]) == SEG6X_IPTUN_MODE_INLINE ?
		  SEG6X_H_INSERT : SEG6X_H_ENCAPS;
	if (c->mode == SEG6X_H_INSERT && family != AF_INET6) {
		NL_SET_ERR_MSG(extack, "seg6x: inline mode works on IPv6 routes only");
		return -EINVAL;
	}
	if (c->mode == SEG6X_H_INSERT && !seg6x_param_allow_inline) {
		NL_SET_ERR_MSG(extack, "seg6x: inline routes are disabled (allow_inline=0)");
		return -EPERM;
	}

	if (tb[SEG6X_IPTUN_HMAC_KEYID])
		c->keyid = nla_get_u32(tb[SEG6X_IPTUN_HMAC_KEYID]);
	if (tb[SEG6X_IPTUN_OWNER])
		c->owner = nla_get_u8(tb[SEG6X_IPTUN_OWNER]);
	return seg6x_lwt_parse_segs(tb[SEG6X_IPTUN_SEGS], c, extack);
}

static struct lwtunnel_state *seg6x_lwt_alloc(const struct seg6x_lwt_cfg *c)
{
	struct lwtunnel_state *lws;
	struct seg6x_lwt *sl;

	lws = lwtunnel_state_alloc(sizeof(*sl) +
				   seg6x_headend_size(c->mode, c->nsegs,
						      c->keyid));
	if (!lws)
		return NULL;

	sl = seg6x_lwt(lws);
	sl->owner = c->owner;
	seg6x_headend_init(&sl->he, c->mode, c->segs, c->nsegs, c->keyid,
			   sl->data);

	/*
	 * Routes and next hops are built from netlink requests, under RTNL
	 * in process context (seg6local allocates its per-CPU counters
	 * with GFP_KERNEL here too): atomic per-CPU allocations would draw
	 * on a small pool that a large batch of routes can run dry.
	 */
	sl->pcpu = seg6x_counters_alloc(GFP_KERNEL);
	if (!sl->pcpu)
		goto err_free;
	if (dst_cache_init(&sl->cache_in, GFP_KERNEL))
		goto err_pcpu;
	if (dst_cache_init(&sl->cache_out, GFP_KERNEL))
		goto err_cache_in;

	lws->type = seg6x_lwt_type;
	lws->flags |= LWTUNNEL_STATE_OUTPUT_REDIRECT |
		      LWTUNNEL_STATE_INPUT_REDIRECT;
	/* Lowers the route's MTU, so local senders size packets to fit. */
	lws->headroom = sl->he.overhead;
	return lws;

err_cache_in:
	dst_cache_destroy(&sl->cache_in);
err_pcpu:
	free_percpu(sl->pcpu);
err_free:
	kfree(lws);
	return NULL;
}

int seg6x_lwt_build(struct net *net, struct nlattr *nla, unsigned int family,
		    const void *cfg, struct lwtunnel_state **ts,
		    struct netlink_ext_ack *extack)
{
	struct seg6x_lwt_cfg c = {};
	int err;

	err = seg6x_lwt_parse(nla, family, &c, extack);
	if (err)
		return err;
	*ts = seg6x_lwt_alloc(&c);
	return *ts ? 0 : -ENOMEM;
}

void seg6x_lwt_destroy(struct lwtunnel_state *lws)
{
	struct seg6x_lwt *sl = seg6x_lwt(lws);

	dst_cache_destroy(&sl->cache_in);
	dst_cache_destroy(&sl->cache_out);
	free_percpu(sl->pcpu);
}

static u8 seg6x_lwt_mode(const struct seg6x_lwt *sl)
{
	return sl->he.mode == SEG6X_H_INSERT ? SEG6X_IPTUN_MODE_INLINE :
					       SEG6X_IPTUN_MODE_ENCAP;
}

int seg6x_lwt_fill(struct sk_buff *skb, struct lwtunnel_state *lws)
{
	struct seg6x_lwt *sl = seg6x_lwt(lws);
	const struct seg6x_headend *he = &sl->he;

	if (nla_put_u8(skb, SEG6X_IPTUN_MODE, seg6x_lwt_mode(sl)) ||
	    nla_put(skb, SEG6X_IPTUN_SEGS, he->nsegs * sizeof(*he->segs),
		    he->segs) ||
	    (he->keyid && nla_put_u32(skb, SEG6X_IPTUN_HMAC_KEYID, he->keyid)) ||
	    (sl->owner && nla_put_u8(skb, SEG6X_IPTUN_OWNER, sl->owner)) ||
	    seg6x_counters_put(skb, SEG6X_IPTUN_COUNTERS, sl->pcpu))
		return -EMSGSIZE;
	return 0;
}

int seg6x_lwt_fill_size(struct lwtunnel_state *lws)
{
	struct seg6x_lwt *sl = seg6x_lwt(lws);

	return nla_total_size(sizeof(u8)) +
	       nla_total_size(sl->he.nsegs * sizeof(*sl->he.segs)) +
	       (sl->he.keyid ? nla_total_size(sizeof(u32)) : 0) +
	       (sl->owner ? nla_total_size(sizeof(u8)) : 0) +
	       seg6x_counters_size();
}

int seg6x_lwt_cmp(struct lwtunnel_state *a, struct lwtunnel_state *b)
{
	const struct seg6x_lwt *x = seg6x_lwt(a), *y = seg6x_lwt(b);

	return x->he.mode != y->he.mode || x->he.nsegs != y->he.nsegs ||
	       x->he.keyid != y->he.keyid || x->owner != y->owner ||
	       memcmp(x->he.segs, y->he.segs,
		      x->he.nsegs * sizeof(*x->he.segs));
}

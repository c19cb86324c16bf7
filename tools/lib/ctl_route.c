// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl's netlink layer for routes: seg6x routes to and from rtnetlink
 * messages. The encapsulation is RTA_ENCAP_TYPE (the LWT slot the module
 * claimed, which SEG6X_CMD_INFO_GET reports) plus a nested RTA_ENCAP
 * holding the SEG6X_IPTUN_* attributes of the UAPI header.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_nl.h"
#include "libseg6x.h"

static struct nla_policy iptun_policy[SEG6X_IPTUN_MAX + 1] = {
	[SEG6X_IPTUN_MODE]		= { .type = NLA_U8 },
	[SEG6X_IPTUN_HMAC_KEYID]	= { .type = NLA_U32 },
	[SEG6X_IPTUN_OWNER]		= { .type = NLA_U8 },
	[SEG6X_IPTUN_COUNTERS]		= { .type = NLA_NESTED },
};

/*
 * The next hop: RTA_GATEWAY in the route's own family, or RTA_VIA (a
 * struct rtvia followed by the address) for an IPv4 route via IPv6.
 */
static int put_nexthop(struct nl_msg *msg, const struct ctl_route *r)
{
	size_t alen = inet_addr_len(r->via.family);
	struct rtvia head = { .rtvia_family = r->via.family };
	uint8_t via[sizeof(head) + sizeof(r->via.bytes)];

	if (r->via.family == r->dst.addr.family)
		return nla_put(msg, RTA_GATEWAY, alen, r->via.bytes);
	memcpy(via, &head, sizeof(head));
	memcpy(via + sizeof(head), r->via.bytes, alen);
	return nla_put(msg, RTA_VIA, sizeof(head) + alen, via);
}

/* Adds RTA_ENCAP_TYPE and RTA_ENCAP; 0 or -EMSGSIZE. */
static int put_encap(struct nl_msg *msg, const struct ctl_route *r,
		     uint16_t lwt_type)
{
	struct nlattr *encap;

	if (nla_put_u16(msg, RTA_ENCAP_TYPE, lwt_type) < 0)
		return -EMSGSIZE;
	/* libnl sets NLA_F_NESTED, which strict kernel parsing wants. */
	encap = nla_nest_start(msg, RTA_ENCAP);
	if (!encap ||
	    nla_put_u8(msg, SEG6X_IPTUN_MODE, r->mode) < 0 ||
	    nla_put(msg, SEG6X_IPTUN_SEGS, r->nsegs * sizeof(r->segs[0]),
		    r->segs) < 0 ||
	    (r->has_hmac &&
	     nla_put_u32(msg, SEG6X_IPTUN_HMAC_KEYID, r->hmac) < 0) ||
	    (r->owner && nla_put_u8(msg, SEG6X_IPTUN_OWNER, r->owner) < 0))
		return -EMSGSIZE;
	nla_nest_end(msg, encap);
	return 0;
}

/*
 * RTA_MULTIPATH: a struct rtnexthop per path (device, weight) followed
 * by its next hop and, unless @lwt_type is 0 (a delete, which names the
 * paths only), its encapsulation. The owner is the route's: the first
 * path's.
 */
static int put_multipath(struct nl_msg *msg, const struct ctl_route *r,
			 uint16_t lwt_type)
{
	struct nlattr *mp = nla_nest_start(msg, RTA_MULTIPATH);
	size_t i, n = ctl_route_paths(r);
	struct ctl_route path;
	struct rtnexthop *rtnh;

	if (!mp)
		return -EMSGSIZE;
	for (i = 0; i < n; i++) {
		/* libnl's buffer never moves: rtnh stays good. */
		rtnh = nlmsg_reserve(msg, sizeof(*rtnh), NLMSG_ALIGNTO);
		if (!rtnh)
			return -EMSGSIZE;
		rtnh->rtnh_flags = 0;
		rtnh->rtnh_hops = r[i].weight ? (uint8_t)(r[i].weight - 1) : 0;
		rtnh->rtnh_ifindex = (int)r[i].oif;
		path = r[i];
		path.owner = r->owner;
		if ((r[i].has_via && put_nexthop(msg, &r[i]) < 0) ||
		    (lwt_type && put_encap(msg, &path, lwt_type)))
			return -EMSGSIZE;
		rtnh->rtnh_len = (unsigned short)((char *)nlmsg_tail(nlmsg_hdr(msg)) -
						  (char *)rtnh);
	}
	nla_nest_end(msg, mp);
	return 0;
}

/*
 * An RTM_NEWROUTE or RTM_DELROUTE for route @r (a run): the attributes
 * that say which route it is, its paths' next hops and, with @lwt_type
 * (0 for none), their encapsulations.
 */
static int route_msg(struct ctl *c, int type, int flags,
		     const struct ctl_route *r, uint16_t lwt_type,
		     struct nl_msg **msgp)
{
	size_t alen = inet_addr_len(r->dst.addr.family);
	size_t paths = ctl_route_paths(r);
	struct rtmsg rtm = {
		.rtm_family	= r->dst.addr.family,
		.rtm_dst_len	= r->dst.len,
		/* Tables past 255 exist only as RTA_TABLE. */
		.rtm_table	= r->table < 256 ? r->table : RT_TABLE_UNSPEC,
		/* A delete matches any scope, type and protocol. */
		.rtm_scope	= RT_SCOPE_NOWHERE,
	};
	struct nl_msg *msg;
	int err;

	if (paths > CTL_MAX_PATHS)
		return ctl_fail(c, -E2BIG, "more than %d paths", CTL_MAX_PATHS);
	if (type == RTM_NEWROUTE) {
		rtm.rtm_protocol = r->protocol ? r->protocol : RTPROT_STATIC;
		rtm.rtm_scope = RT_SCOPE_UNIVERSE;
		rtm.rtm_type = RTN_UNICAST;
	}
	err = ctl_rt_msg_size(c, type, flags, &rtm, paths * CTL_RT_MSG_SIZE,
			      &msg);
	if (err)
		return err;

	/* A default route (length 0) has no RTA_DST, as in dumps. */
	if ((r->dst.len && nla_put(msg, RTA_DST, alen, r->dst.addr.bytes) < 0) ||
	    nla_put_u32(msg, RTA_TABLE, r->table) < 0 ||
	    (r->has_metric && nla_put_u32(msg, RTA_PRIORITY, r->metric) < 0))
		return ctl_msg_abort(c, msg);
	if (paths > 1)
		err = put_multipath(msg, r, lwt_type);
	else if ((r->oif && nla_put_u32(msg, RTA_OIF, r->oif) < 0) ||
		 (r->has_via && put_nexthop(msg, r) < 0) ||
		 (lwt_type && put_encap(msg, r, lwt_type)))
		err = -EMSGSIZE;
	if (err)
		return ctl_msg_abort(c, msg);
	*msgp = msg;
	return 0;
}

static int get_addr(const struct nlattr *nla, int family, uint8_t *bytes)
{
	size_t alen = inet_addr_len(family);

	if (!alen || (size_t)nla_len(nla) < alen)
		return -EBADMSG;
	memcpy(bytes, nla_data(nla), alen);
	return 0;
}

static int get_via(const struct nlattr *nla, struct inet_addr *addr)
{
	const struct rtvia *via = nla_data(nla);
	size_t len = nla_len(nla);
	size_t alen;

	if (len < sizeof(*via))
		return -EBADMSG;
	alen = inet_addr_len(via->rtvia_family);
	if (!alen || len < sizeof(*via) + alen)
		return -EBADMSG;
	addr->family = via->rtvia_family;
	memcpy(addr->bytes, via->rtvia_addr, alen);
	return 0;
}

static int get_encap(struct nlattr *nest, struct ctl_route *r)
{
	struct nlattr *tb[SEG6X_IPTUN_MAX + 1];
	size_t len;

	if (nla_parse_nested(tb, SEG6X_IPTUN_MAX, nest, iptun_policy) < 0 ||
	    !tb[SEG6X_IPTUN_SEGS])
		return -EBADMSG;
	len = nla_len(tb[SEG6X_IPTUN_SEGS]);
	if (!len || len % sizeof(r->segs[0]) || len > sizeof(r->segs))
		return -EBADMSG;
	memcpy(r->segs, nla_data(tb[SEG6X_IPTUN_SEGS]), len);
	r->nsegs = len / sizeof(r->segs[0]);

	if (tb[SEG6X_IPTUN_MODE])
		r->mode = nla_get_u8(tb[SEG6X_IPTUN_MODE]);
	if (tb[SEG6X_IPTUN_HMAC_KEYID]) {
		r->has_hmac = true;
		r->hmac = nla_get_u32(tb[SEG6X_IPTUN_HMAC_KEYID]);
	}
	if (tb[SEG6X_IPTUN_OWNER])
		r->owner = nla_get_u8(tb[SEG6X_IPTUN_OWNER]);
	if (tb[SEG6X_IPTUN_COUNTERS])
		r->has_counters = ctl_counters_decode(tb[SEG6X_IPTUN_COUNTERS],
						      &r->packets, &r->bytes,
						      &r->errors);
	return 0;
}

/*
 * One path's next hop and encapsulation from @tb, a route's attributes
 * or an RTA_MULTIPATH entry's: 1 if it is seg6x's, 0 if not.
 */
static int decode_path(struct nlattr **tb, uint16_t lwt_type,
		       struct ctl_route *r)
{
	int err = 0;

	if (!tb[RTA_ENCAP] || !tb[RTA_ENCAP_TYPE] ||
	    nla_get_u16(tb[RTA_ENCAP_TYPE]) != lwt_type)
		return 0;
	if (tb[RTA_GATEWAY]) {
		r->has_via = true;
		r->via.family = r->dst.addr.family;
		err = get_addr(tb[RTA_GATEWAY], r->dst.addr.family,
			       r->via.bytes);
	} else if (tb[RTA_VIA]) {
		r->has_via = true;
		err = get_via(tb[RTA_VIA], &r->via);
	}
	if (!err)
		err = get_encap(tb[RTA_ENCAP], r);
	return err ? err : 1;
}

/*
 * RTA_MULTIPATH, a struct rtnexthop per path followed by its attributes,
 * into the run @r whose first holds the route's key: 1 if every path is
 * seg6x's, 0 if one is not (the route is not seg6x's then).
 */
static int decode_multipath(struct nlattr *mp, uint16_t lwt_type,
			    struct ctl_route *r)
{
	const struct rtnexthop *rtnh = nla_data(mp);
	const struct ctl_route key = *r;
	int left = nla_len(mp), ret;
	struct nlattr *tb[RTA_MAX + 1];
	size_t n;

	for (n = 0; left >= (int)sizeof(*rtnh); n++) {
		if (rtnh->rtnh_len < sizeof(*rtnh) || rtnh->rtnh_len > left)
			return -EBADMSG;
		if (n == CTL_MAX_PATHS)
			return -E2BIG;
		if (nla_parse(tb, RTA_MAX, (struct nlattr *)RTNH_DATA(rtnh),
			      rtnh->rtnh_len - RTNH_LENGTH(0), NULL) < 0)
			return -EBADMSG;
		r[n] = key;
		r[n].oif = (uint32_t)rtnh->rtnh_ifindex;
		r[n].weight = (uint16_t)(rtnh->rtnh_hops + 1);
		ret = decode_path(tb, lwt_type, &r[n]);
		if (ret <= 0)
			return ret;
		left -= RTNH_ALIGN(rtnh->rtnh_len);
		rtnh = RTNH_NEXT(rtnh);
	}
	if (!n)
		return -EBADMSG;
	r->npaths = (uint16_t)n;
	/* The route's mark is its first path's (seg6ctl sets them alike). */
	return 1;
}

int ctl_route_decode(const struct rtmsg *rtm, struct nlattr **tb,
		     uint16_t lwt_type, struct ctl_route r[CTL_MAX_PATHS])
{
	int family = rtm->rtm_family;
	int err = 0;

	memset(r, 0, sizeof(*r));
	if (!inet_addr_len(family))
		return 0;
	r->dst.addr.family = family;
	r->dst.len = rtm->rtm_dst_len;
	r->table = tb[RTA_TABLE] ? nla_get_u32(tb[RTA_TABLE]) : rtm->rtm_table;
	if (rtm->rtm_protocol != RTPROT_STATIC)
		r->protocol = rtm->rtm_protocol;
	if (tb[RTA_PRIORITY]) {
		r->has_metric = true;
		r->metric = nla_get_u32(tb[RTA_PRIORITY]);
	}
	if (tb[RTA_DST])
		err = get_addr(tb[RTA_DST], family, r->dst.addr.bytes);
	if (err)
		return err;
	if (tb[RTA_MULTIPATH])
		return decode_multipath(tb[RTA_MULTIPATH], lwt_type, r);
	if (tb[RTA_OIF])
		r->oif = nla_get_u32(tb[RTA_OIF]);
	return decode_path(tb, lwt_type, r);
}

/*
 * The LWT slot that marks seg6x's routes: asked of the module, or kept
 * from the last answer (0, LWTUNNEL_ENCAP_NONE, is never seg6x's).
 */
int ctl_lwt_type(struct ctl *c, uint16_t *type)
{
	struct ctl_info info;
	int err;

	if (c->cache_lwt_type && c->lwt_type) {
		*type = c->lwt_type;
		return 0;
	}
	err = ctl_info_get(c, &info);
	*type = info.lwt_type;
	if (!err && c->cache_lwt_type)
		c->lwt_type = info.lwt_type;
	return err;
}

static int route_add(struct ctl *c, const struct ctl_route *r, int flags)
{
	struct nl_msg *msg;
	uint16_t type;
	int err;

	err = ctl_lwt_type(c, &type);
	if (!err)
		err = route_msg(c, RTM_NEWROUTE, flags, r, type, &msg);
	return err ? err : ctl_rt_talk(c, msg, NULL, NULL);
}

int ctl_route_add(struct ctl *c, const struct ctl_route *r, bool replace)
{
	int flags = NLM_F_CREATE | (replace ? NLM_F_REPLACE : NLM_F_EXCL);
	int err = route_add(c, r, flags);

	/*
	 * A kept slot may be stale: the module was reloaded and claimed
	 * another one. The kernel then refuses the encap type nobody
	 * registers (EOPNOTSUPP) or reads our attributes as another type's
	 * (EINVAL). Ask the module again, once.
	 */
	if ((err == -EOPNOTSUPP || err == -EINVAL) && c->cache_lwt_type &&
	    c->lwt_type) {
		c->lwt_type = 0;
		err = route_add(c, r, flags);
	}
	return err;
}

/*
 * A multipath delete lists every path (device and next hop): IPv6 keeps
 * the paths as sibling routes and deletes only the one a next hop names.
 */
int ctl_route_del(struct ctl *c, const struct ctl_route *r)
{
	struct nl_msg *msg;
	int err = route_msg(c, RTM_DELROUTE, 0, r, 0, &msg);

	return err ? err : ctl_rt_talk(c, msg, NULL, NULL);
}

/* Deletes per exchange: about 64 bytes each, in one sendmsg(). */
#define DEL_BATCH 64

int ctl_route_del_many(struct ctl *c, const struct ctl_route *routes, size_t n)
{
	struct nl_msg *msgs[DEL_BATCH];
	size_t done = 0, k;
	int err = 0;

	while (!err && done < n) {
		for (k = 0; !err && k < DEL_BATCH && done < n; k++) {
			/* A run must end inside the array. */
			if (ctl_route_paths(&routes[done]) > n - done)
				err = ctl_fail(c, -EINVAL, "route run past the end");
			else
				err = route_msg(c, RTM_DELROUTE, 0,
						&routes[done], 0, &msgs[k]);
			if (!err)
				done += ctl_route_paths(&routes[done]);
		}
		if (err) {
			/* msgs[k - 1] was not made. */
			for (k--; k; k--)
				nlmsg_free(msgs[k - 1]);
			return err;
		}
		err = ctl_rt_talk_batch(c, msgs, k);
	}
	return err;
}

/* A dump of @family's routes, each decoded and handed to @fn. */
struct walk {
	uint16_t lwt_type;
	/* @seg6x: whether route @r (a run) is seg6x's; 0 or a negative errno. */
	int (*fn)(struct walk *w, const struct ctl_route *r, bool seg6x);
	void *arg;
	struct ctl_route *paths;	/* CTL_MAX_PATHS, for each reply */
};

static int walk_reply(const struct rtmsg *rtm, struct nlattr **tb, void *arg)
{
	struct walk *w = arg;
	int ret = ctl_route_decode(rtm, tb, w->lwt_type, w->paths);

	if (ret < 0)
		return ret;
	/* Not an address family of routes that seg6x knows. */
	if (!w->paths->dst.addr.family)
		return 0;
	return w->fn(w, w->paths, ret);
}

static int walk(struct ctl *c, int family, struct walk *w)
{
	struct rtmsg rtm = { .rtm_family = (unsigned char)family };
	struct nl_msg *msg;
	int err;

	if (!w->paths) {
		w->paths = malloc(CTL_MAX_PATHS * sizeof(*w->paths));
		if (!w->paths)
			return -ENOMEM;
	}
	err = ctl_rt_msg(c, RTM_GETROUTE, NLM_F_DUMP, &rtm, &msg);
	return err ? err : ctl_rt_talk(c, msg, walk_reply, w);
}

/* What ctl_route_find() looks for, and what it finds. */
struct search {
	const struct ctl_route *want;
	bool other;			/* a match that is not a seg6x route */
	bool found;
	struct ctl_route *route;	/* the first seg6x route that matches */
};

static int match(struct walk *w, const struct ctl_route *r, bool seg6x)
{
	struct search *s = w->arg;
	const struct ctl_route *want = s->want;
	size_t alen = inet_addr_len(want->dst.addr.family);
	size_t i, paths = ctl_route_paths(r);
	bool dev = !want->oif;

	if (r->dst.addr.family != want->dst.addr.family ||
	    r->dst.len != want->dst.len || r->table != want->table ||
	    memcmp(r->dst.addr.bytes, want->dst.addr.bytes, alen))
		return 0;
	/* A device names a multipath route through any of its paths. */
	for (i = 0; !dev && i < paths; i++)
		dev = r[i].oif == want->oif;
	if (!dev)
		return 0;
	/* Metric 0 matches any, as the kernel reads it. */
	if (want->has_metric && want->metric &&
	    (!r->has_metric || r->metric != want->metric))
		return 0;
	if (!seg6x) {
		s->other = true;
	} else if (!s->found) {
		/* The first seg6x route is the one the delete names. */
		s->found = true;
		memcpy(s->route, r, paths * sizeof(*r));
	}
	return 0;
}

int ctl_route_find(struct ctl *c, const struct ctl_route *want,
		   struct ctl_route found[CTL_MAX_PATHS], bool *other)
{
	struct search s = { .want = want, .route = found };
	struct walk w = { .fn = match, .arg = &s };
	int err;

	err = ctl_lwt_type(c, &w.lwt_type);
	if (!err)
		err = walk(c, want->dst.addr.family, &w);
	free(w.paths);
	*other = s.other;
	if (!err && !s.found)
		err = ctl_fail(c, -ESRCH, "no such route");
	return err;
}

struct visit {
	ctl_route_fn fn;
	void *arg;
};

static int visit(struct walk *w, const struct ctl_route *r, bool seg6x)
{
	struct visit *v = w->arg;

	return seg6x ? v->fn(v->arg, r) : 0;
}

int ctl_route_walk(struct ctl *c, ctl_route_fn fn, void *arg)
{
	struct visit v = { .fn = fn, .arg = arg };
	struct walk w = { .fn = visit, .arg = &v };
	int err;

	err = ctl_lwt_type(c, &w.lwt_type);
	if (!err)
		err = walk(c, AF_INET6, &w);
	if (!err)
		err = walk(c, AF_INET, &w);
	free(w.paths);
	return err;
}

static int keep(void *arg, const struct ctl_route *r)
{
	size_t i, paths = ctl_route_paths(r);
	struct ctl_route *route;

	for (i = 0; i < paths; i++) {
		route = ctl_list_add(arg);
		if (!route)
			return -ENOMEM;
		*route = r[i];
	}
	return 0;
}

int ctl_route_list(struct ctl *c, struct ctl_route **routes, size_t *n)
{
	struct ctl_list l = { .size = sizeof(**routes) };

	return ctl_list_end(ctl_route_walk(c, keep, &l), &l, (void **)routes,
			    n);
}

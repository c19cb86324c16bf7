// SPDX-License-Identifier: GPL-2.0
/*
 * seg6x routes to and from rtnetlink messages. The encapsulation is
 * RTA_ENCAP_TYPE (the LWT slot the module claimed) plus a nested
 * RTA_ENCAP holding the SEG6X_IPTUN_* attributes of the UAPI header.
 */
#include <errno.h>
#include <string.h>

#include "route.h"

static struct nla_policy iptun_policy[SEG6X_IPTUN_MAX + 1] = {
	[SEG6X_IPTUN_MODE]		= { .type = NLA_U8 },
	[SEG6X_IPTUN_HMAC_KEYID]	= { .type = NLA_U32 },
};

/*
 * The next hop: RTA_GATEWAY in the route's own family, or RTA_VIA (a
 * struct rtvia followed by the address) for an IPv4 route via IPv6.
 */
static int put_nexthop(struct nl_msg *msg, const struct seg6x_route *r)
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

struct nl_msg *route_msg(int type, int flags, const struct seg6x_route *r)
{
	size_t alen = inet_addr_len(r->dst.addr.family);
	struct rtmsg rtm = {
		.rtm_family	= r->dst.addr.family,
		.rtm_dst_len	= r->dst.len,
		/* Tables past 255 exist only as RTA_TABLE. */
		.rtm_table	= r->table < 256 ? r->table : RT_TABLE_UNSPEC,
		/* A delete matches any scope, type and protocol. */
		.rtm_scope	= RT_SCOPE_NOWHERE,
	};
	struct nl_msg *msg;

	if (type == RTM_NEWROUTE) {
		rtm.rtm_protocol = RTPROT_STATIC;
		rtm.rtm_scope = RT_SCOPE_UNIVERSE;
		rtm.rtm_type = RTN_UNICAST;
	}
	msg = rt_msg(type, flags, &rtm);
	if (!msg)
		return NULL;

	/* A default route (length 0) has no RTA_DST, as in dumps. */
	if ((r->dst.len && nla_put(msg, RTA_DST, alen, r->dst.addr.bytes) < 0) ||
	    nla_put_u32(msg, RTA_TABLE, r->table) < 0 ||
	    (r->oif && nla_put_u32(msg, RTA_OIF, r->oif) < 0) ||
	    (r->has_metric && nla_put_u32(msg, RTA_PRIORITY, r->metric) < 0) ||
	    (r->has_via && put_nexthop(msg, r) < 0)) {
		msg_abort(msg);
		return NULL;
	}
	return msg;
}

int route_put_encap(struct nl_msg *msg, const struct seg6x_route *r,
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
	     nla_put_u32(msg, SEG6X_IPTUN_HMAC_KEYID, r->hmac) < 0))
		return -EMSGSIZE;
	nla_nest_end(msg, encap);
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

static int get_encap(struct nlattr *nest, struct seg6x_route *r)
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
	return 0;
}

int route_decode(const struct rtmsg *rtm, struct nlattr **tb,
		 uint16_t lwt_type, struct seg6x_route *r)
{
	int family = rtm->rtm_family;
	int err = 0;

	/* Multipath routes keep encaps per next hop: not seg6ctl's. */
	if (!inet_addr_len(family) || !tb[RTA_ENCAP] || !tb[RTA_ENCAP_TYPE] ||
	    nla_get_u16(tb[RTA_ENCAP_TYPE]) != lwt_type)
		return 0;

	memset(r, 0, sizeof(*r));
	r->dst.addr.family = family;
	r->dst.len = rtm->rtm_dst_len;
	r->table = tb[RTA_TABLE] ? nla_get_u32(tb[RTA_TABLE]) : rtm->rtm_table;
	if (tb[RTA_OIF])
		r->oif = nla_get_u32(tb[RTA_OIF]);
	if (tb[RTA_PRIORITY]) {
		r->has_metric = true;
		r->metric = nla_get_u32(tb[RTA_PRIORITY]);
	}
	if (tb[RTA_DST])
		err = get_addr(tb[RTA_DST], family, r->dst.addr.bytes);
	if (!err && tb[RTA_GATEWAY]) {
		r->has_via = true;
		r->via.family = family;
		err = get_addr(tb[RTA_GATEWAY], family, r->via.bytes);
	} else if (!err && tb[RTA_VIA]) {
		r->has_via = true;
		err = get_via(tb[RTA_VIA], &r->via);
	}
	if (!err)
		err = get_encap(tb[RTA_ENCAP], r);
	return err ? err : 1;
}

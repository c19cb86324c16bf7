// SPDX-License-Identifier: GPL-2.0
/*
 * rtnetlink messages to the plain structs of fpm_decode.h. Every length
 * is checked before a byte is read: the input is another process's.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/lwtunnel.h>
#include <linux/netlink.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <linux/seg6.h>
#include <linux/seg6_hmac.h>
#include <linux/seg6_iptunnel.h>
#include <linux/seg6_local.h>

#include "fpm_decode.h"

/* One attribute, its flags stripped. */
struct attr {
	uint16_t type;
	const uint8_t *data;
	size_t len;
};

/* An iterator over the attributes of @len bytes at @buf. */
struct attrs {
	const uint8_t *buf;
	size_t len, off;
};

static void attrs_init(struct attrs *it, const uint8_t *buf, size_t len)
{
	it->buf = buf;
	it->len = len;
	it->off = 0;
}

/* 1 with *@a, 0 at the end, -EBADMSG if an attribute overruns. */
static int attrs_next(struct attrs *it, struct attr *a)
{
	struct nlattr h;
	size_t left = it->len - it->off, step;

	if (!left)
		return 0;
	if (left < sizeof(h))
		return -EBADMSG;
	memcpy(&h, it->buf + it->off, sizeof(h));
	if (h.nla_len < sizeof(h) || h.nla_len > left)
		return -EBADMSG;
	a->type = h.nla_type & NLA_TYPE_MASK;
	a->data = it->buf + it->off + sizeof(h);
	a->len = h.nla_len - sizeof(h);
	step = (size_t)NLA_ALIGN(h.nla_len);
	it->off += step < left ? step : left;
	return 1;
}

static void note(struct fpm_msg *m, uint8_t ctx, uint32_t value)
{
	size_t i;

	for (i = 0; i < m->nnotes; i++)
		if (m->notes[i].ctx == ctx && m->notes[i].value == value)
			return;
	if (m->nnotes < FPM_MAX_NOTES)
		m->notes[m->nnotes++] = (struct fpm_note){ ctx, value };
}

static int get_u32(const struct attr *a, uint32_t *v)
{
	if (a->len != sizeof(*v))
		return -EBADMSG;
	memcpy(v, a->data, sizeof(*v));
	return 0;
}

static int get_u16(const struct attr *a, uint16_t *v)
{
	if (a->len != sizeof(*v))
		return -EBADMSG;
	memcpy(v, a->data, sizeof(*v));
	return 0;
}

static int get_u8(const struct attr *a, uint8_t *v)
{
	if (a->len != sizeof(*v))
		return -EBADMSG;
	*v = a->data[0];
	return 0;
}

static int get_addr(const struct attr *a, int family, struct inet_addr *addr)
{
	size_t alen = inet_addr_len(family);

	if (!alen || a->len != alen)
		return -EBADMSG;
	addr->family = family;
	memcpy(addr->bytes, a->data, alen);
	return 0;
}

/* RTA_VIA: a struct rtvia, then an address of its family. */
static int get_via(const struct attr *a, struct inet_addr *addr)
{
	struct attr inner;
	uint16_t family;

	if (a->len < sizeof(family))
		return -EBADMSG;
	memcpy(&family, a->data, sizeof(family));
	inner.data = a->data + sizeof(family);
	inner.len = a->len - sizeof(family);
	return get_addr(&inner, family, addr);
}

#define SRH_TYPE_4	4	/* IPV6_SRCRT_TYPE_4, RFC 8754 2 */

/* The TLVs after the segments (RFC 8754 2.1): the HMAC key id if any. */
static int srh_tlvs(const uint8_t *p, size_t len, struct fpm_srh *srh)
{
	size_t off = 0;

	while (off < len) {
		uint8_t type = p[off], tlen;

		if (type == 0) {		/* Pad1 */
			off++;
			continue;
		}
		if (len - off < 2 || (size_t)p[off + 1] > len - off - 2)
			return -EBADMSG;
		tlen = p[off + 1];
		if (type == SR6_TLV_HMAC) {
			uint32_t keyid;

			/* reserved (2), key id (4), HMAC */
			if (tlen < 2 + sizeof(keyid))
				return -EBADMSG;
			memcpy(&keyid, p + off + 4, sizeof(keyid));
			srh->has_hmac = true;
			srh->hmac = ntohl(keyid);
		}
		off += 2 + (size_t)tlen;
	}
	return 0;
}

/*
 * An SRH as the kernel's seg6_validate_srh() takes it: type 4, a length
 * that is the attribute's, a last entry that fits. Segments reversed
 * into path order.
 */
static int decode_srh(const uint8_t *p, size_t len, struct fpm_srh *srh,
		      struct fpm_msg *m)
{
	struct ipv6_sr_hdr h;
	size_t n, i, segs_end;

	if (len < sizeof(h))
		return -EBADMSG;
	memcpy(&h, p, sizeof(h));
	if (h.type != SRH_TYPE_4 || ((size_t)h.hdrlen + 1) * 8 != len ||
	    h.hdrlen < 2 || h.first_segment > h.hdrlen / 2 - 1 ||
	    h.segments_left > h.first_segment)
		return -EBADMSG;
	n = (size_t)h.first_segment + 1;
	segs_end = sizeof(h) + n * sizeof(struct in6_addr);
	memset(srh, 0, sizeof(*srh));
	if (srh_tlvs(p + segs_end, len - segs_end, srh))
		return -EBADMSG;
	if (n > FPM_MAX_SEGS) {
		note(m, FPM_NOTE_SEGS, (uint32_t)n);
		return 0;	/* nsegs 0: not one seg6x can take */
	}
	for (i = 0; i < n; i++)
		memcpy(&srh->segs[i], p + sizeof(h) + (n - 1 - i) * 16, 16);
	srh->nsegs = n;
	return 0;
}

/* LWTUNNEL_ENCAP_SEG6: SEG6_IPTUNNEL_SRH, a mode (int) then the SRH. */
static int decode_seg6(const struct attr *nest, struct fpm_encap *e,
		       struct fpm_msg *m)
{
	struct attrs it;
	struct attr a;
	bool has_srh = false;
	int32_t mode;
	int ret;

	attrs_init(&it, nest->data, nest->len);
	while ((ret = attrs_next(&it, &a)) > 0) {
		if (a.type != SEG6_IPTUNNEL_SRH) {
			note(m, FPM_NOTE_SEG6, a.type);
			continue;
		}
		if (a.len < sizeof(mode))
			return -EBADMSG;
		memcpy(&mode, a.data, sizeof(mode));
		if (mode < 0 || decode_srh(a.data + sizeof(mode),
					   a.len - sizeof(mode), &e->srh, m))
			return -EBADMSG;
		e->mode = (uint32_t)mode;
		has_srh = true;
	}
	return ret < 0 || !has_srh ? -EBADMSG : 0;
}

static int decode_flavors(const struct attr *nest, struct fpm_seg6_local *l,
			  struct fpm_msg *m)
{
	struct attrs it;
	struct attr a;
	int ret, err = 0;

	attrs_init(&it, nest->data, nest->len);
	while (!err && (ret = attrs_next(&it, &a)) > 0) {
		switch (a.type) {
		case SEG6_LOCAL_FLV_OPERATION:
			err = get_u32(&a, &l->flv_ops);
			break;
		case SEG6_LOCAL_FLV_LCBLOCK_BITS:
			l->has_lblen = true;
			err = get_u8(&a, &l->lblen);
			break;
		case SEG6_LOCAL_FLV_LCNODE_FN_BITS:
			l->has_nflen = true;
			err = get_u8(&a, &l->nflen);
			break;
		default:
			note(m, FPM_NOTE_FLAVOR, a.type);
		}
	}
	return err ? err : ret;
}

/* Each SEG6_LOCAL_* attribute but the action. */
static int local_attr(const struct attr *a, struct fpm_seg6_local *l,
		      struct fpm_msg *m)
{
	struct inet_addr addr = { 0 };
	int err;

	switch (a->type) {
	case SEG6_LOCAL_SRH:
		return decode_srh(a->data, a->len, &l->srh, m);
	case SEG6_LOCAL_TABLE:
		return get_u32(a, &l->table);
	case SEG6_LOCAL_VRFTABLE:
		return get_u32(a, &l->vrftable);
	case SEG6_LOCAL_IIF:
		return get_u32(a, &l->iif);
	case SEG6_LOCAL_OIF:
		return get_u32(a, &l->oif);
	case SEG6_LOCAL_NH4:
		err = get_addr(a, AF_INET, &addr);
		memcpy(&l->nh4, addr.bytes, sizeof(l->nh4));
		return err;
	case SEG6_LOCAL_NH6:
		err = get_addr(a, AF_INET6, &addr);
		memcpy(&l->nh6, addr.bytes, sizeof(l->nh6));
		return err;
	case SEG6_LOCAL_FLAVORS:
		return decode_flavors(a, l, m);
	case SEG6_LOCAL_COUNTERS:	/* asks for counters; no content */
		return 0;
	}
	return 1;	/* not one it knows */
}

static int decode_seg6_local(const struct attr *nest, struct fpm_encap *e,
			     struct fpm_msg *m)
{
	struct fpm_seg6_local *l = &e->local;
	struct attrs it;
	struct attr a;
	int ret, err;

	attrs_init(&it, nest->data, nest->len);
	while ((ret = attrs_next(&it, &a)) > 0) {
		if (a.type == SEG6_LOCAL_ACTION)
			err = get_u32(&a, &l->action);
		else
			err = local_attr(&a, l, m);
		if (err < 0)
			return err;
		if (err > 0 || a.type >= 32) {
			note(m, FPM_NOTE_SEG6_LOCAL, a.type);
			continue;
		}
		l->attrs |= FPM_LOCAL_F(a.type);
	}
	if (ret < 0 || !(l->attrs & FPM_LOCAL_F(SEG6_LOCAL_ACTION)))
		return -EBADMSG;
	return 0;
}

/*
 * One RTA_ENCAP/NHA_ENCAP of @type. zebra sends an MPLS encap (the BGP
 * label) before the SEG6 one: an SRv6 encap is kept over any other, and
 * the last one over earlier ones, as the kernel does.
 */
static int decode_encap(uint16_t type, const struct attr *nest,
			struct fpm_path *p, struct fpm_msg *m)
{
	static struct fpm_encap e;	/* large: not on the stack */
	bool srv6 = type == LWTUNNEL_ENCAP_SEG6 ||
		    type == LWTUNNEL_ENCAP_SEG6_LOCAL;
	int err = 0;

	memset(&e, 0, sizeof(e));
	e.type = type;
	e.kind = FPM_ENCAP_OTHER;
	if (type == LWTUNNEL_ENCAP_SEG6) {
		e.kind = FPM_ENCAP_SEG6;
		err = decode_seg6(nest, &e, m);
	} else if (type == LWTUNNEL_ENCAP_SEG6_LOCAL) {
		e.kind = FPM_ENCAP_SEG6_LOCAL;
		err = decode_seg6_local(nest, &e, m);
	} else if (type != LWTUNNEL_ENCAP_MPLS) {
		note(m, FPM_NOTE_ENCAP, type);
	}
	if (err)
		return err;
	if (p->encap.kind == FPM_ENCAP_SEG6 ||
	    p->encap.kind == FPM_ENCAP_SEG6_LOCAL) {
		note(m, FPM_NOTE_NEST, type);
		if (!srv6)
			return 0;
	}
	p->encap = e;
	return 0;
}

/*
 * The attributes a next hop is made of, in a route (RTA_*), an
 * RTA_MULTIPATH entry or a nexthop object (NHA_*, same meaning): 1 if
 * @a is not one of them.
 */
struct path_attrs {
	uint16_t oif, gateway, via, encap_type, encap;
	int family;
	uint16_t pending_type;		/* the encap type the next encap has */
	bool has_type;
};

static int path_attr(const struct attr *a, struct path_attrs *pa,
		     struct fpm_path *p, struct fpm_msg *m)
{
	if (a->type == pa->oif)
		return get_u32(a, &p->oif);
	if (a->type == pa->gateway) {
		p->has_gw = true;
		return get_addr(a, pa->family, &p->gw);
	}
	if (pa->via && a->type == pa->via) {
		p->has_gw = true;
		return get_via(a, &p->gw);
	}
	if (a->type == pa->encap_type) {
		pa->has_type = true;
		return get_u16(a, &pa->pending_type);
	}
	if (a->type == pa->encap) {
		if (!pa->has_type)
			return -EBADMSG;
		pa->has_type = false;
		return decode_encap(pa->pending_type, a, p, m);
	}
	return 1;
}

static const struct path_attrs rta_path = {
	.oif = RTA_OIF, .gateway = RTA_GATEWAY, .via = RTA_VIA,
	.encap_type = RTA_ENCAP_TYPE, .encap = RTA_ENCAP,
};

/* RTA_MULTIPATH: struct rtnexthop, each followed by its attributes. */
static int decode_multipath(const struct attr *a, struct fpm_route *r,
			    struct fpm_msg *m)
{
	static struct fpm_path spare;	/* paths past FPM_MAX_PATHS */
	size_t off = 0, n = 0, step;

	while (off < a->len) {
		struct path_attrs pa = rta_path;
		struct fpm_path *p = n < FPM_MAX_PATHS ? &r->paths[n] : &spare;
		struct rtnexthop nh;
		struct attrs it;
		struct attr in;
		int ret;

		if (a->len - off < sizeof(nh))
			return -EBADMSG;
		memcpy(&nh, a->data + off, sizeof(nh));
		if (nh.rtnh_len < sizeof(nh) || nh.rtnh_len > a->len - off)
			return -EBADMSG;
		memset(p, 0, sizeof(*p));
		p->oif = (uint32_t)nh.rtnh_ifindex;
		p->weight = (uint16_t)(nh.rtnh_hops + 1);
		p->onlink = nh.rtnh_flags & RTNH_F_ONLINK;
		pa.family = r->dst.addr.family;
		attrs_init(&it, a->data + off + sizeof(nh),
			   nh.rtnh_len - sizeof(nh));
		while ((ret = attrs_next(&it, &in)) > 0)
			if (path_attr(&in, &pa, p, m) < 0)
				return -EBADMSG;
		if (ret < 0)
			return ret;
		n++;
		step = (size_t)RTNH_ALIGN(nh.rtnh_len);
		off += step < a->len - off ? step : a->len - off;
	}
	if (n > FPM_MAX_PATHS)
		note(m, FPM_NOTE_PATHS, (uint32_t)n);
	r->npaths = n < FPM_MAX_PATHS ? n : FPM_MAX_PATHS;
	return 0;
}

/* Route attributes that say nothing seg6x needs: stepped over quietly. */
static bool rta_quiet(uint16_t type)
{
	switch (type) {
	case RTA_SRC: case RTA_IIF: case RTA_PREFSRC: case RTA_METRICS:
	case RTA_FLOW: case RTA_CACHEINFO: case RTA_MARK: case RTA_PREF:
	case RTA_EXPIRES: case RTA_UID: case RTA_TTL_PROPAGATE:
		return true;
	}
	return false;
}

static int route_attr(const struct attr *a, struct path_attrs *pa,
		      struct fpm_route *r, struct fpm_msg *m)
{
	struct inet_addr dst = { 0 };
	int err;

	switch (a->type) {
	case RTA_DST:
		err = get_addr(a, r->dst.addr.family, &dst);
		r->dst.addr = dst;
		return err;
	case RTA_TABLE:
		return get_u32(a, &r->table);
	case RTA_PRIORITY:
		r->has_metric = true;
		return get_u32(a, &r->metric);
	case RTA_NH_ID:
		return get_u32(a, &r->nh_id);
	case RTA_MULTIPATH:
		return decode_multipath(a, r, m);
	}
	err = path_attr(a, pa, &r->paths[0], m);
	if (err > 0 && !rta_quiet(a->type))
		note(m, FPM_NOTE_RTA, a->type);
	return err < 0 ? err : 0;
}

static int decode_route(const uint8_t *buf, size_t len, struct fpm_msg *m)
{
	struct fpm_route *r = &m->route;
	struct path_attrs pa = rta_path;
	struct rtmsg rtm;
	struct attrs it;
	struct attr a;
	size_t maxlen;
	int ret;

	if (len < NLMSG_SPACE(sizeof(rtm)))
		return -EBADMSG;
	memcpy(&rtm, buf + NLMSG_HDRLEN, sizeof(rtm));
	memset(r, 0, sizeof(*r));
	maxlen = inet_addr_len(rtm.rtm_family) * 8;
	if (!maxlen) {
		note(m, FPM_NOTE_FAMILY, rtm.rtm_family);
		m->ignored = true;
		return 0;
	}
	if (rtm.rtm_dst_len > maxlen)
		return -EBADMSG;
	r->dst.addr.family = pa.family = rtm.rtm_family;
	r->dst.len = rtm.rtm_dst_len;
	r->table = rtm.rtm_table;
	r->protocol = rtm.rtm_protocol;
	r->type = rtm.rtm_type;
	r->scope = rtm.rtm_scope;
	r->flags = rtm.rtm_flags;
	r->paths[0].onlink = rtm.rtm_flags & RTNH_F_ONLINK;
	attrs_init(&it, buf + NLMSG_SPACE(sizeof(rtm)),
		   len - NLMSG_SPACE(sizeof(rtm)));
	while ((ret = attrs_next(&it, &a)) > 0)
		if (route_attr(&a, &pa, r, m))
			return -EBADMSG;
	if (ret < 0)
		return ret;
	/* One path unless RTA_MULTIPATH gave them; a delete has none. */
	if (!r->npaths && (r->paths[0].oif || r->paths[0].has_gw ||
			   r->paths[0].encap.kind != FPM_ENCAP_NONE))
		r->npaths = 1;
	return 0;
}

static int get_group(const struct attr *a, struct fpm_nexthop *nh,
		     struct fpm_msg *m)
{
	struct nexthop_grp g;
	size_t i, n = a->len / sizeof(g);

	if (!n || a->len % sizeof(g))
		return -EBADMSG;
	for (i = 0; i < n && i < FPM_MAX_GROUP; i++) {
		memcpy(&g, a->data + i * sizeof(g), sizeof(g));
		if (!g.id)
			return -EBADMSG;
		nh->group[i].id = g.id;
		nh->group[i].weight = g.weight;
	}
	if (n > FPM_MAX_GROUP)
		note(m, FPM_NOTE_PATHS, (uint32_t)n);
	nh->ngroup = i;
	return 0;
}

static int nexthop_attr(const struct attr *a, struct path_attrs *pa,
			struct fpm_nexthop *nh, struct fpm_msg *m)
{
	uint16_t group_type;
	int err;

	switch (a->type) {
	case NHA_ID:
		return get_u32(a, &nh->id);
	case NHA_GROUP:
		return get_group(a, nh, m);
	case NHA_GROUP_TYPE:
		return get_u16(a, &group_type);
	case NHA_BLACKHOLE:
		nh->blackhole = true;
		return 0;
	}
	err = path_attr(a, pa, &nh->path, m);
	if (err > 0)
		note(m, FPM_NOTE_NHA, a->type);
	return err < 0 ? err : 0;
}

static int decode_nexthop(const uint8_t *buf, size_t len, struct fpm_msg *m)
{
	struct fpm_nexthop *nh = &m->nh;
	struct path_attrs pa = {
		.oif = NHA_OIF, .gateway = NHA_GATEWAY,
		.encap_type = NHA_ENCAP_TYPE, .encap = NHA_ENCAP,
	};
	struct nhmsg nhm;
	struct attrs it;
	struct attr a;
	int ret;

	if (len < NLMSG_SPACE(sizeof(nhm)))
		return -EBADMSG;
	memcpy(&nhm, buf + NLMSG_HDRLEN, sizeof(nhm));
	memset(nh, 0, sizeof(*nh));
	nh->family = pa.family = nhm.nh_family;
	nh->protocol = nhm.nh_protocol;
	nh->path.onlink = nhm.nh_flags & RTNH_F_ONLINK;
	attrs_init(&it, buf + NLMSG_SPACE(sizeof(nhm)),
		   len - NLMSG_SPACE(sizeof(nhm)));
	while ((ret = attrs_next(&it, &a)) > 0)
		if (nexthop_attr(&a, &pa, nh, m))
			return -EBADMSG;
	if (ret < 0 || !nh->id)
		return -EBADMSG;
	return 0;
}

int fpm_decode(const uint8_t *buf, size_t len, struct fpm_msg *m)
{
	struct nlmsghdr h;

	m->nnotes = 0;
	m->ignored = false;
	if (len < sizeof(h))
		return -EBADMSG;
	memcpy(&h, buf, sizeof(h));
	if (h.nlmsg_len < sizeof(h) || h.nlmsg_len > len)
		return -EBADMSG;
	m->type = h.nlmsg_type;
	m->flags = h.nlmsg_flags;
	switch (h.nlmsg_type) {
	case RTM_NEWROUTE:
	case RTM_DELROUTE:
		return decode_route(buf, h.nlmsg_len, m);
	case RTM_NEWNEXTHOP:
	case RTM_DELNEXTHOP:
		return decode_nexthop(buf, h.nlmsg_len, m);
	}
	note(m, FPM_NOTE_MSG, h.nlmsg_type);
	m->ignored = true;
	return 0;
}

/* Names of what later kernels and FRR versions add, where known. */
static const char *known_name(uint8_t ctx, uint32_t value)
{
	if (ctx == FPM_NOTE_SEG6 && value == 2)
		return "SEG6_IPTUNNEL_SRC";
	if (ctx == FPM_NOTE_SEG6_LOCAL && value == SEG6_LOCAL_IIF)
		return "SEG6_LOCAL_IIF";
	if (ctx == FPM_NOTE_SEG6_LOCAL && value == SEG6_LOCAL_BPF)
		return "SEG6_LOCAL_BPF";
	if (ctx == FPM_NOTE_ENCAP && value == LWTUNNEL_ENCAP_BPF)
		return "BPF";
	if (ctx == FPM_NOTE_ENCAP && value == LWTUNNEL_ENCAP_IP6)
		return "IP6";
	if (ctx == FPM_NOTE_ENCAP && value == LWTUNNEL_ENCAP_IP)
		return "IP";
	return NULL;
}

const char *fpm_note_name(const struct fpm_note *n, char *buf, size_t size)
{
	static const char *const what[] = {
		[FPM_NOTE_MSG] = "netlink message type",
		[FPM_NOTE_FAMILY] = "route family",
		[FPM_NOTE_RTA] = "route attribute",
		[FPM_NOTE_NHA] = "nexthop attribute",
		[FPM_NOTE_ENCAP] = "encap type",
		[FPM_NOTE_SEG6] = "SEG6 encap attribute",
		[FPM_NOTE_SEG6_LOCAL] = "SEG6_LOCAL attribute",
		[FPM_NOTE_FLAVOR] = "SEG6_LOCAL_FLAVORS attribute",
		[FPM_NOTE_SEGS] = "segment list longer than seg6x takes:",
		[FPM_NOTE_PATHS] = "next hops past the ones kept, of",
		[FPM_NOTE_NEST] = "encap after an SRv6 one, type",
	};
	const char *name = known_name(n->ctx, n->value);

	snprintf(buf, size, "%s %u%s%s%s",
		 n->ctx < sizeof(what) / sizeof(what[0]) && what[n->ctx] ?
		 what[n->ctx] : "unknown", n->value, name ? " (" : "",
		 name ? name : "", name ? ")" : "");
	return buf;
}

// SPDX-License-Identifier: GPL-2.0
/* zebra's SRv6 routes to seg6x routes and SIDs: see fpm_map.h. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/rtnetlink.h>
#include <linux/seg6_iptunnel.h>
#include <linux/seg6_local.h>

#include "fpm_log.h"
#include "fpm_map.h"

const char *fpm_prefix_str(const struct inet_prefix *p, uint32_t table,
			   char *buf, size_t size)
{
	char addr[INET6_ADDRSTRLEN] = "?";

	inet_ntop(p->addr.family, p->addr.bytes, addr, sizeof(addr));
	snprintf(buf, size, "%s/%u table %u", addr, p->len, table);
	return buf;
}

static void skip(const struct fpm_route *r, const char *why, uint32_t value)
{
	char name[80];

	fpm_log(LOG_WARNING, "%s: %s %u: not installed in seg6x",
		fpm_prefix_str(&r->dst, r->table, name, sizeof(name)), why,
		value);
}

/*
 * LWTUNNEL_ENCAP_SEG6: path @cr of a seg6x route (H.Encaps, or inline:
 * RFC 8986 5); false if seg6x cannot take it (logged).
 */
static bool map_seg6_path(const struct fpm_route *r, const struct fpm_path *p,
			  struct ctl_route *cr)
{
	if (p->encap.kind != FPM_ENCAP_SEG6) {
		skip(r, "non-SRv6 path of a multipath route, encap", p->encap.type);
		return false;
	}
	if (p->encap.mode != SEG6_IPTUN_MODE_ENCAP &&
	    (p->encap.mode != SEG6_IPTUN_MODE_INLINE ||
	     r->dst.addr.family != AF_INET6)) {
		skip(r, "SEG6 mode", p->encap.mode);
		return false;
	}
	if (!p->encap.srh.nsegs) {
		skip(r, "SEG6 segments", 0);
		return false;
	}
	memset(cr, 0, sizeof(*cr));
	cr->dst = r->dst;
	cr->table = r->table;
	cr->oif = p->oif;
	cr->has_metric = r->has_metric;
	cr->metric = r->metric;
	cr->mode = p->encap.mode == SEG6_IPTUN_MODE_ENCAP ?
		   SEG6X_IPTUN_MODE_ENCAP : SEG6X_IPTUN_MODE_INLINE;
	cr->has_hmac = p->encap.srh.has_hmac;
	cr->hmac = p->encap.srh.hmac;
	cr->nsegs = p->encap.srh.nsegs;
	memcpy(cr->segs, p->encap.srh.segs, cr->nsegs * sizeof(cr->segs[0]));
	cr->owner = SEG6X_OWNER_FPMD;
	/*
	 * zebra's protocol (bgp, 186, for VPN routes): zebra installs the
	 * same route with the in-tree encap, and ignores kernel
	 * notifications of routes with its own protocols. With "static"
	 * instead, it would learn the seg6x route as a kernel route of
	 * distance 0, prefer it to BGP's and withdraw its own: a fight.
	 */
	cr->protocol = r->protocol;
	return true;
}

/*
 * An IPv6 multipath route needs a next hop on every path: the kernel
 * joins only routes with gateways as siblings (ECMP), and zebra's is the
 * link-local address of the neighbour, good for that. IPv4 paths go by
 * device alone (169.254.0.1 is zebra's placeholder, not a neighbour).
 */
static bool ecmp_path(const struct fpm_route *r, const struct fpm_path *p,
		      struct ctl_route *cr)
{
	if (r->dst.addr.family == AF_INET6) {
		if (!p->has_gw || p->gw.family != AF_INET6) {
			skip(r, "IPv6 multipath path without a gateway, device", p->oif);
			return false;
		}
		cr->has_via = true;
		cr->via = p->gw;
	}
	cr->weight = p->weight ? p->weight : 1;
	return true;
}

static void map_seg6(const struct fpm_route *r, const struct fpm_path *const *p,
		     size_t n, struct fpm_want *w)
{
	struct ctl_route *cr = w->route;
	size_t i, k = 0;

	if (!map_seg6_path(r, p[0], cr))
		return;
	w->kind = FPM_WANT_ROUTE;
	if (n < 2 || !ecmp_path(r, p[0], cr))
		return;
	for (i = 1, k = 1; i < n && k < FPM_WANT_PATHS; i++)
		if (map_seg6_path(r, p[i], &cr[k]) && ecmp_path(r, p[i], &cr[k]))
			k++;
	if (k > 1) {
		cr->npaths = (uint16_t)k;
		return;
	}
	/* One path after all: as a route of one path. */
	cr->has_via = false;
	memset(&cr->via, 0, sizeof(cr->via));
	cr->weight = 0;
}

#define SET(s, attr)	((s)->attrs |= CTL_SID_F(attr))

static uint32_t flavors(uint32_t ops)
{
	return (ops & 1u << SEG6_LOCAL_FLV_OP_PSP ? SEG6X_FLV_PSP : 0) |
	       (ops & 1u << SEG6_LOCAL_FLV_OP_USP ? SEG6X_FLV_USP : 0) |
	       (ops & 1u << SEG6_LOCAL_FLV_OP_USD ? SEG6X_FLV_USD : 0) |
	       (ops & 1u << SEG6_LOCAL_FLV_OP_NEXT_CSID ?
		SEG6X_FLV_NEXT_CSID : 0);
}

/* What every behaviour may carry: flavours, counters, the owner. */
static void sid_common(const struct fpm_seg6_local *l, struct ctl_sid *s)
{
	if (l->flv_ops) {
		s->flavors = flavors(l->flv_ops);
		SET(s, SEG6X_SID_FLAVORS);
	}
	if (l->has_lblen) {
		s->lblen = l->lblen;
		SET(s, SEG6X_SID_LBLEN);
	}
	if (l->has_nflen) {
		s->nflen = l->nflen;
		SET(s, SEG6X_SID_NFLEN);
	}
	if (l->attrs & FPM_LOCAL_F(SEG6_LOCAL_COUNTERS))
		SET(s, SEG6X_SID_COUNT);
	s->owner = SEG6X_OWNER_FPMD;
	SET(s, SEG6X_SID_OWNER);
}

#define HAS(l, attr)	((l)->attrs & FPM_LOCAL_F(attr))

/* End.X, End.DX4, End.DX6: the next hop and, if any, the device. */
static int sid_xconnect(const struct fpm_seg6_local *l,
			const struct fpm_path *p, bool v4, struct ctl_sid *s)
{
	if (v4 ? !HAS(l, SEG6_LOCAL_NH4) : !HAS(l, SEG6_LOCAL_NH6))
		return -EINVAL;
	if (v4) {
		s->nh4 = l->nh4;
		SET(s, SEG6X_SID_NH4);
	} else {
		s->nh6 = l->nh6;
		SET(s, SEG6X_SID_NH6);
	}
	s->oif = HAS(l, SEG6_LOCAL_OIF) ? l->oif : p->oif;
	if (s->oif)
		SET(s, SEG6X_SID_OIF);
	return 0;
}

/*
 * End.DT4, End.DT6, End.DT46: the table's VRF device. End.DT6 with
 * SEG6_LOCAL_TABLE (the kernel's legacy mode) takes the table itself
 * when no VRF device owns it; the others wait for one (PENDING).
 */
static int sid_decap(const struct fpm_seg6_local *l, struct fpm_want *w,
		     fpm_vrf_fn vrf, void *arg)
{
	struct ctl_sid *s = &w->sid;

	if (HAS(l, SEG6_LOCAL_VRFTABLE)) {
		w->vrftable = l->vrftable;
		w->kind = FPM_WANT_PENDING;
		fpm_map_resolve(w, vrf, arg);
		return 0;
	}
	if (s->behavior != SEG6X_BEHAVIOR_END_DT6 || !HAS(l, SEG6_LOCAL_TABLE))
		return -EINVAL;
	w->kind = FPM_WANT_SID;
	if (!vrf(arg, l->table, &s->vrf)) {
		SET(s, SEG6X_SID_VRF);
	} else {
		s->table = l->table;
		SET(s, SEG6X_SID_TABLE);
	}
	return 0;
}

static int sid_b6(const struct fpm_seg6_local *l, struct ctl_sid *s)
{
	if (!l->srh.nsegs)
		return -EINVAL;
	s->nsegs = l->srh.nsegs;
	memcpy(s->segs, l->srh.segs, s->nsegs * sizeof(s->segs[0]));
	SET(s, SEG6X_SID_SEGS);
	if (l->srh.has_hmac) {
		s->hmac = l->srh.hmac;
		SET(s, SEG6X_SID_HMAC_KEYID);
	}
	return 0;
}

/* The seg6x behaviour of a SEG6_LOCAL action; 0 if it has none. */
static uint16_t behavior(uint32_t action)
{
	switch (action) {
	case SEG6_LOCAL_ACTION_END:	return SEG6X_BEHAVIOR_END;
	case SEG6_LOCAL_ACTION_END_X:	return SEG6X_BEHAVIOR_END_X;
	case SEG6_LOCAL_ACTION_END_T:	return SEG6X_BEHAVIOR_END_T;
	case SEG6_LOCAL_ACTION_END_DX4:	return SEG6X_BEHAVIOR_END_DX4;
	case SEG6_LOCAL_ACTION_END_DX6:	return SEG6X_BEHAVIOR_END_DX6;
	case SEG6_LOCAL_ACTION_END_DT4:	return SEG6X_BEHAVIOR_END_DT4;
	case SEG6_LOCAL_ACTION_END_DT6:	return SEG6X_BEHAVIOR_END_DT6;
	case SEG6_LOCAL_ACTION_END_DT46: return SEG6X_BEHAVIOR_END_DT46;
	case SEG6_LOCAL_ACTION_END_B6_ENCAP:
		return SEG6X_BEHAVIOR_END_B6_ENCAPS;
	}
	return 0;
}

static void map_local(const struct fpm_route *r, const struct fpm_path *p,
		      fpm_vrf_fn vrf, void *arg, struct fpm_want *w)
{
	const struct fpm_seg6_local *l = &p->encap.local;
	struct ctl_sid *s = &w->sid;
	int err = 0;

	if (r->dst.addr.family != AF_INET6 || !r->dst.len)
		return skip(r, "SEG6_LOCAL on a route of family", r->dst.addr.family);
	memset(s, 0, sizeof(*s));
	memcpy(&s->prefix, r->dst.addr.bytes, sizeof(s->prefix));
	s->len = (uint8_t)r->dst.len;
	s->behavior = behavior(l->action);
	sid_common(l, s);
	w->kind = FPM_WANT_SID;
	switch (l->action) {
	case SEG6_LOCAL_ACTION_END:
		break;
	case SEG6_LOCAL_ACTION_END_X:
	case SEG6_LOCAL_ACTION_END_DX6:
		err = sid_xconnect(l, p, false, s);
		break;
	case SEG6_LOCAL_ACTION_END_DX4:
		err = sid_xconnect(l, p, true, s);
		break;
	case SEG6_LOCAL_ACTION_END_T:
		s->table = l->table;
		SET(s, SEG6X_SID_TABLE);
		err = HAS(l, SEG6_LOCAL_TABLE) ? 0 : -EINVAL;
		break;
	case SEG6_LOCAL_ACTION_END_DT4:
	case SEG6_LOCAL_ACTION_END_DT6:
	case SEG6_LOCAL_ACTION_END_DT46:
		err = sid_decap(l, w, vrf, arg);
		break;
	case SEG6_LOCAL_ACTION_END_B6_ENCAP:
		err = sid_b6(l, s);
		break;
	default:
		w->kind = FPM_WANT_NONE;
		return skip(r, "SEG6_LOCAL action not in seg6x", l->action);
	}
	if (err) {
		w->kind = FPM_WANT_NONE;
		skip(r, "SEG6_LOCAL attributes missing for action", l->action);
	}
}

int fpm_map_resolve(struct fpm_want *w, fpm_vrf_fn vrf, void *arg)
{
	if (w->kind != FPM_WANT_PENDING ||
	    vrf(arg, w->vrftable, &w->sid.vrf))
		return 0;
	w->sid.attrs |= CTL_SID_F(SEG6X_SID_VRF);
	w->kind = FPM_WANT_SID;
	return 1;
}

void fpm_map(const struct fpm_route *r, const struct fpm_path *const *p,
	     size_t n, fpm_vrf_fn vrf, void *arg, struct fpm_want *w)
{
	w->kind = FPM_WANT_NONE;
	w->vrftable = 0;
	if (!n || r->type != RTN_UNICAST)
		return;
	if (p[0]->encap.kind == FPM_ENCAP_SEG6) {
		map_seg6(r, p, n, w);
	} else if (p[0]->encap.kind == FPM_ENCAP_SEG6_LOCAL) {
		if (n > 1) {
			char name[80];

			fpm_log(LOG_WARNING, "%s: a SID has one behaviour: using the first of %zu paths",
				fpm_prefix_str(&r->dst, r->table, name,
					       sizeof(name)), n);
		}
		map_local(r, p[0], vrf, arg, w);
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * When two routes or SIDs are the same, as the kernel sees it: a route's
 * place in the FIB is its family, table, prefix and metric (what a
 * replace replaces), a SID's its prefix and length; an entry in its
 * place is the same if everything it was given is (the module's own
 * test for SIDs, seg6x_sid_attrs_equal()).
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "match.h"
#include "rt_tables.h"

/* IP6_RT_PRIO_USER: what the kernel gives an IPv6 route without one. */
#define IPV6_DEFAULT_METRIC	1024

/* The SID attributes that configure it (not its key, state or owner). */
#define SID_CONFIG	(CTL_SID_F(SEG6X_SID_NH6) | CTL_SID_F(SEG6X_SID_NH4) | \
			 CTL_SID_F(SEG6X_SID_OIF) | CTL_SID_F(SEG6X_SID_TABLE) | \
			 CTL_SID_F(SEG6X_SID_VRF) | CTL_SID_F(SEG6X_SID_SEGS) | \
			 CTL_SID_F(SEG6X_SID_HMAC_KEYID) | \
			 CTL_SID_F(SEG6X_SID_FLAVORS) | \
			 CTL_SID_F(SEG6X_SID_LBLEN) | \
			 CTL_SID_F(SEG6X_SID_NFLEN) | CTL_SID_F(SEG6X_SID_COUNT))

uint32_t match_route_metric(const struct ctl_route *r)
{
	/* The kernel reads IPv6 metric 0 as "none given" too. */
	if (r->dst.addr.family == AF_INET6)
		return r->has_metric && r->metric ? r->metric : IPV6_DEFAULT_METRIC;
	return r->has_metric ? r->metric : 0;
}

bool match_route_key(const struct ctl_route *a, const struct ctl_route *b)
{
	return a->dst.addr.family == b->dst.addr.family &&
	       a->dst.len == b->dst.len && a->table == b->table &&
	       !memcmp(a->dst.addr.bytes, b->dst.addr.bytes,
		       inet_addr_len(a->dst.addr.family)) &&
	       match_route_metric(a) == match_route_metric(b);
}

void match_route_place(const struct ctl_route *r, char *buf, size_t len)
{
	char addr[INET6_ADDRSTRLEN], table[11];
	const char *name = rt_tables_builtin_name(r->table);

	if (!name) {
		snprintf(table, sizeof(table), "%u", r->table);
		name = table;
	}
	snprintf(buf, len, "%s/%u (table %s, metric %u)",
		 inet_ntop(r->dst.addr.family, r->dst.addr.bytes, addr,
			   sizeof(addr)), r->dst.len, name, match_route_metric(r));
}

static bool via_eq(const struct ctl_route *a, const struct ctl_route *b)
{
	if (a->has_via != b->has_via)
		return false;
	return !a->has_via ||
	       (a->via.family == b->via.family &&
		!memcmp(a->via.bytes, b->via.bytes, inet_addr_len(a->via.family)));
}

static bool path_eq(const struct ctl_route *want, const struct ctl_route *have)
{
	return want->oif && want->oif == have->oif && via_eq(want, have) &&
	       want->mode == have->mode && want->nsegs == have->nsegs &&
	       !memcmp(want->segs, have->segs,
		       want->nsegs * sizeof(want->segs[0])) &&
	       want->has_hmac == have->has_hmac &&
	       (!want->has_hmac || want->hmac == have->hmac) &&
	       (want->weight ? want->weight : 1) ==
	       (have->weight ? have->weight : 1);
}

/* Paths in the same order: the kernel keeps them as they were given. */
bool match_route(const struct ctl_route *want, const struct ctl_route *have)
{
	size_t i, paths = ctl_route_paths(want);

	if (paths != ctl_route_paths(have) || want->owner != have->owner ||
	    want->protocol != have->protocol)
		return false;
	for (i = 0; i < paths; i++)
		if (!path_eq(&want[i], &have[i]))
			return false;
	return true;
}

bool match_sid_key(const struct ctl_sid *a, const struct ctl_sid *b)
{
	return a->len == b->len && !memcmp(&a->prefix, &b->prefix,
					   sizeof(a->prefix));
}

#define HAS(s, a)	((s)->attrs & CTL_SID_F(SEG6X_SID_##a))

/* The values of the attributes both have (match_sid() checks the set). */
static bool sid_values_eq(const struct ctl_sid *a, const struct ctl_sid *b)
{
	return (!HAS(a, NH6) || !memcmp(&a->nh6, &b->nh6, sizeof(a->nh6))) &&
	       (!HAS(a, NH4) || a->nh4.s_addr == b->nh4.s_addr) &&
	       (!HAS(a, OIF) || (a->oif && a->oif == b->oif)) &&
	       (!HAS(a, TABLE) || a->table == b->table) &&
	       (!HAS(a, VRF) || (a->vrf && a->vrf == b->vrf)) &&
	       (!HAS(a, SEGS) || (a->nsegs == b->nsegs &&
				  !memcmp(a->segs, b->segs,
					  a->nsegs * sizeof(a->segs[0])))) &&
	       (!HAS(a, HMAC_KEYID) || a->hmac == b->hmac) &&
	       (!HAS(a, FLAVORS) || a->flavors == b->flavors) &&
	       (!HAS(a, LBLEN) || a->lblen == b->lblen) &&
	       (!HAS(a, NFLEN) || a->nflen == b->nflen);
}

/* A SID reports its owner only when it has one: 0 is no owner. */
uint8_t match_sid_owner(const struct ctl_sid *s)
{
	return HAS(s, OWNER) ? s->owner : 0;
}

bool match_sid(const struct ctl_sid *want, const struct ctl_sid *have)
{
	return !have->dead && want->behavior == have->behavior &&
	       (want->attrs & SID_CONFIG) == (have->attrs & SID_CONFIG) &&
	       sid_values_eq(want, have) &&
	       match_sid_owner(want) == match_sid_owner(have);
}

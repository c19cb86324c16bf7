/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a zebra route with an SRv6 next hop is in seg6x: a SEG6 encap
 * becomes a seg6x route of the same table and prefix (segments in path
 * order, the HMAC key id, owner SEG6X_OWNER_FPMD); a SEG6_LOCAL one a
 * SID of the route's prefix (RFC 8986 behaviours). Pure but for the
 * lookup of the VRF device that owns a table.
 */
#ifndef SEG6X_FPM_MAP_H
#define SEG6X_FPM_MAP_H

#include "fpm_decode.h"
#include "libseg6x.h"

enum fpm_want_kind {
	FPM_WANT_NONE,		/* nothing of seg6x's */
	FPM_WANT_ROUTE,
	FPM_WANT_SID,
	FPM_WANT_PENDING,	/* a SID whose VRF device is not there yet */
};

/* Paths of a seg6x route that a multipath route or group can give. */
#define FPM_WANT_PATHS	FPM_MAX_GROUP

struct fpm_want {
	enum fpm_want_kind kind;
	uint32_t vrftable;	/* PENDING: the table a VRF must own */
	struct ctl_sid sid;	/* PENDING: all but the VRF */
	/* A run (libseg6x.h): route->npaths of them are used */
	struct ctl_route route[FPM_WANT_PATHS];
};

/* The ifindex of the VRF device of @table: 0 or -ENOENT. */
typedef int (*fpm_vrf_fn)(void *arg, uint32_t table, uint32_t *ifindex);

/*
 * Fills *@w for route @r through its @n SRv6 next hops @p (0: none
 * resolved). SEG6 ones become the paths of one seg6x route (multipath:
 * ECMP, with their weights); a SEG6_LOCAL one is a SID, of the first
 * path. Anything SRv6 that seg6x cannot take is logged and gives NONE,
 * or leaves that path out of a multipath route.
 */
void fpm_map(const struct fpm_route *r, const struct fpm_path *const *p,
	     size_t n, fpm_vrf_fn vrf, void *arg, struct fpm_want *w);
/* A PENDING want whose VRF now exists becomes a SID: 1, else 0. */
int fpm_map_resolve(struct fpm_want *w, fpm_vrf_fn vrf, void *arg);
/* "2001:db8::/64 table 10": into @buf. */
const char *fpm_prefix_str(const struct inet_prefix *p, uint32_t table,
			   char *buf, size_t size);

#endif /* SEG6X_FPM_MAP_H */

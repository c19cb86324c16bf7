/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Comparisons of routes and SIDs the way the kernel makes them: what
 * seg6ctl sync reads a file and plans its changes by (conf.c, plan.c).
 */
#ifndef SEG6CTL_MATCH_H
#define SEG6CTL_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libseg6x.h"

/* The metric the kernel gives @r: for IPv6 1024 if none (or 0). */
uint32_t match_route_metric(const struct ctl_route *r);
/* Same place in the FIB: family, table, prefix, metric. */
bool match_route_key(const struct ctl_route *a, const struct ctl_route *b);
/* That place in words: "fc00::/64 (table main, metric 1024)". */
void match_route_place(const struct ctl_route *r, char *buf, size_t len);
/*
 * The route @have in that place is @want: device (@want's 0, a missing
 * one, matches none), next hop, encapsulation, owner, protocol.
 */
bool match_route(const struct ctl_route *want, const struct ctl_route *have);

/* Same prefix and length (both masked to the length, as the kernel keys). */
bool match_sid_key(const struct ctl_sid *a, const struct ctl_sid *b);
/* The SID's owner mark, 0 for none. */
uint8_t match_sid_owner(const struct ctl_sid *s);
/*
 * The SID @have in that place is @want: alive, same behaviour, same
 * attributes given with the same values, same owner.
 */
bool match_sid(const struct ctl_sid *want, const struct ctl_sid *have);

#endif /* SEG6CTL_MATCH_H */

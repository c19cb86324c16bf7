/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A want as the state keeps it between messages: struct fpm_want holds
 * room for 64 segments in a SID and in each of a route's 32 paths
 * (37 KB), where a VPN route has one path of one segment. Stored, it
 * takes what its paths' segment lists need: about 150 bytes for a
 * one-segment route, which is what lets the daemon hold a full VPN table.
 */
#ifndef SEG6X_FPM_STORE_H
#define SEG6X_FPM_STORE_H

#include "fpm_map.h"

struct fpm_stored;

/*
 * A copy of @w (ROUTE, SID or PENDING), to free(); NULL when out of
 * memory. The segments past the count must be zero in @w, as fpm_map()
 * leaves them, so that fpm_load() gives back the same bytes (of the
 * paths the route has: the others are left as they were).
 */
struct fpm_stored *fpm_store(const struct fpm_want *w);
/* What fpm_store() was given, into *@w (its other member zeroed). */
void fpm_load(const struct fpm_stored *s, struct fpm_want *w);
enum fpm_want_kind fpm_stored_kind(const struct fpm_stored *s);

#endif /* SEG6X_FPM_STORE_H */

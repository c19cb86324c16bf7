/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What zebra sent on the current connection (next hop objects by id,
 * routes by table and prefix) and what each route became in seg6x.
 * Routes that use a next hop object are mapped again when it changes;
 * SIDs that wait for a VRF device are retried. The kernel is reached
 * through struct fpm_kernel only (libseg6x in the daemon, a recorder in
 * the tests).
 */
#ifndef SEG6X_FPM_STATE_H
#define SEG6X_FPM_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "fpm_map.h"

struct fpm_kernel {
	/* Add or replace; 0 or a negative errno (logged, not retried). */
	int (*route_set)(void *arg, const struct ctl_route *r);
	int (*route_del)(void *arg, const struct ctl_route *r);
	int (*sid_set)(void *arg, const struct ctl_sid *s);
	int (*sid_del)(void *arg, const struct in6_addr *prefix, uint8_t len);
	/*
	 * seg6x's routes, one at a time (a full VPN table is too large to
	 * list at once), and SIDs, the caller frees *@s. @fn may not call
	 * the other operations.
	 */
	int (*route_walk)(void *arg, ctl_route_fn fn, void *fn_arg);
	int (*sid_list)(void *arg, struct ctl_sid **s, size_t *n);
	fpm_vrf_fn vrf_of_table;
	void *arg;
};

struct fpm_state;

struct fpm_state *fpm_state_new(const struct fpm_kernel *k);
/* Forgets everything; what is in the kernel stays. */
void fpm_state_free(struct fpm_state *st);
/*
 * A new connection: zebra replays its whole state, with new next hop
 * ids after a restart. What was learnt is forgotten; the kernel keeps
 * its entries until fpm_state_sweep().
 */
void fpm_state_reset(struct fpm_state *st);
/*
 * One frame's netlink messages (fpm_reader_next()): all of them are
 * decoded before any is applied. -EBADMSG if one is malformed: nothing
 * of the frame is applied then, and the connection must go.
 */
int fpm_state_frame(struct fpm_state *st, const uint8_t *msgs, size_t len);
/*
 * After a replay: removes from the kernel the routes and SIDs owned by
 * SEG6X_OWNER_FPMD that this state did not install; those of other
 * owners are never touched. Returns how many went, or a negative errno.
 */
int fpm_state_sweep(struct fpm_state *st);
/*
 * What a kernel route notification says now holds the place (table,
 * prefix, metric) of one of our routes. The kernel sends them in the
 * order it made the changes, so the last one read is the truth.
 */
enum fpm_kroute {
	FPM_KROUTE_OURS,	/* a seg6x route of this daemon (our own write) */
	FPM_KROUTE_SRV6,	/* zebra's in-tree SRv6 route: ours goes back */
	FPM_KROUTE_OTHER,	/* any other route: zebra's plain one, by hand */
	FPM_KROUTE_GONE,	/* ours deleted, not by us (zebra's withdraw) */
};

/*
 * The kernel says @what is now at the place of table @table, prefix @dst
 * and metric @metric (as the kernel reads it: 1024 for an IPv6 route given
 * none). zebra's kernel and FPM providers run independently, so its own
 * install of the in-tree route can land after ours: that one is replaced
 * by ours again (returns 1). After OTHER or GONE the place is not ours
 * any more: a later delete of the route leaves the kernel alone, so it
 * never takes another program's route with it. Returns 0 otherwise
 * (nothing of ours at that place, or nothing to do).
 */
int fpm_state_kernel_route(struct fpm_state *st, const struct inet_prefix *dst,
			   uint32_t table, uint32_t metric,
			   enum fpm_kroute what);
/* Whether one of our routes is installed at that place (as above). */
bool fpm_state_ours_at(struct fpm_state *st, const struct inet_prefix *dst,
		       uint32_t table, uint32_t metric);
/*
 * Installs again every route of ours that nothing else was last seen to
 * take the place of (notifications were lost: the kernel's socket buffer
 * overran). Returns how many.
 */
size_t fpm_state_reinstall(struct fpm_state *st);
/* Installs the SIDs whose VRF device has appeared; returns how many wait. */
size_t fpm_state_retry(struct fpm_state *st);
/* SIDs waiting for a VRF device. */
size_t fpm_state_pending(const struct fpm_state *st);

#endif /* SEG6X_FPM_STATE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "seg6ctl sync": the steps that make what runs equal to what a file
 * declares, as a pure function of the two (no I/O), so that tests/unit
 * can check every decision. sync.c reads both, prints or takes the steps.
 */
#ifndef SEG6CTL_PLAN_H
#define SEG6CTL_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "conf.h"
#include "libseg6x.h"

/* What runs in the namespace, as libseg6x's dumps give it. */
struct plan_state {
	struct in6_addr tunsrc;
	struct ctl_key *keys;
	size_t nkeys;
	struct ctl_iface *ifaces;	/* "default" (ifindex 0) among them */
	size_t nifaces;
	/* The module parameters: where "default" starts from. */
	uint8_t param_seg6_enabled;
	int8_t param_require_hmac;
	struct ctl_route *routes;	/* seg6x's only */
	size_t nroutes;
	struct ctl_sid *sids;
	size_t nsids;
};

enum plan_op {
	PLAN_ADD,		/* "+": not there */
	PLAN_CHANGE,		/* "~": there, different (or not comparable) */
	PLAN_DEL,		/* "-": there, not in the file */
	PLAN_CONFLICT,		/* "!": in the file, held by another owner */
};

enum plan_obj { PLAN_TUNSRC, PLAN_KEY, PLAN_IFACE, PLAN_ROUTE, PLAN_SID };

/* Why a step is what it is, when that is not plain. */
enum plan_why {
	WHY_NONE,
	WHY_SECRET,	/* a key: its secret cannot be read back, set again */
	WHY_DEAD,	/* a SID: a device it used is gone, rebuilt */
	WHY_PINNED,	/* an interface: its own setting cannot be removed,
			 * set to the default's value instead */
	WHY_OWNER,	/* a conflict: the entry in place is another owner's */
	WHY_NODEV,	/* a device the entry names does not exist */
};

struct plan_step {
	enum plan_op op;
	enum plan_obj obj;
	enum plan_why why;
	/* The file's entry (struct conf_*; PLAN_TUNSRC: the struct conf),
	 * NULL for a delete or an entry the file does not name.
	 */
	const void *want;
	/* The running entry (struct ctl_*), NULL if there is none. */
	const void *have;
	/* PLAN_IFACE: the request, and the interface's name. */
	struct ctl_iface iface;
	const char *ifname;
	/* PLAN_TUNSRC: the address to set. */
	struct in6_addr tunsrc;
};

struct plan {
	struct plan_step *steps;
	size_t n;
};

/*
 * The steps, in the order to take them: tunsrc, keys to set, the default
 * policy, interfaces, SIDs and routes to add or change, then routes,
 * SIDs and keys to delete (what refers to a key goes before the key).
 * Routes and SIDs with an owner mark that the file does not name are
 * left alone unless @all_owners. Returns 0 or -ENOMEM. The steps point
 * into @want and @have, which must outlive @p.
 */
int plan_make(const struct conf *want, const struct plan_state *have,
	      bool all_owners, struct plan *p);
void plan_free(struct plan *p);

#endif /* SEG6CTL_PLAN_H */

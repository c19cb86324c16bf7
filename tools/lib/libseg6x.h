/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libseg6x: typed calls on the SEG6X generic netlink family (ctl.c,
 * ctl_sid.c) and on rtnetlink routes carrying seg6x's encapsulation
 * (ctl_route.c), for seg6ctl and any other program (a routing daemon).
 * Callers see plain structs only, never libnl or attributes; nothing here
 * prints or keeps global state: everything lives in a struct ctl, one per
 * user, used by one thread at a time.
 *
 * Every call returns 0 or a negative errno. After a failure, ctl_error()
 * or ctl_extack() says more, and ctl_errno() repeats the errno.
 */
#ifndef LIBSEG6X_CTL_H
#define LIBSEG6X_CTL_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/seg6x.h>

#include "inet.h"

/* A handle: its sockets (opened on first use) and its error state. */
struct ctl;

/* NULL if out of memory. */
struct ctl *ctl_new(void);
/* Closes the sockets and frees @c (NULL is fine). */
void ctl_free(struct ctl *c);

/* Errors and warnings */

/*
 * What the library itself found wrong in the last failed call, as a
 * whole message (e.g. that the module is not loaded); NULL if it was the
 * kernel.
 */
const char *ctl_error(const struct ctl *c);
/* The kernel's extended ack text for the last failed call, or NULL. */
const char *ctl_extack(const struct ctl *c);
/* The negative errno of the last failed call, 0 after a success. */
int ctl_errno(const struct ctl *c);
/*
 * @fn gets what is worth a warning in calls that succeed (the kernel's
 * text on an ack, a dump that raced with a change), with @arg. NULL:
 * dropped.
 */
void ctl_on_warning(struct ctl *c, void (*fn)(const char *msg, void *arg),
		    void *arg);

/* Sockets */

/*
 * Moves the calling thread into /run/netns/@name; before the first
 * request of any handle whose requests should go there.
 */
int ctl_netns_enter(struct ctl *c, const char *name);
/*
 * Opens the SEG6X family: -ENOENT if the module is not loaded. Looking
 * the family up makes the kernel load the module (its alias); with
 * @autoload false (a reader: a monitoring poller must not bring back a
 * module removed on purpose) a module that is not loaded is -ENOENT
 * without asking the kernel. The default is true.
 */
int ctl_connect(struct ctl *c);
void ctl_set_autoload(struct ctl *c, bool autoload);
/*
 * A dry run: requests are built (so that everything decidable without
 * the kernel is checked) but never sent; every call succeeds, reads find
 * nothing. For checking a configuration on a machine without seg6x.
 */
void ctl_set_dry_run(struct ctl *c, bool dry_run);
/*
 * Route requests need the LWT slot that the module claimed, which only
 * the module can tell. By default each asks it again (a daemon must see
 * a module swapped under it); with @cache true the first answer is kept
 * until ctl_close(), saving a round trip per route: for a batch of
 * route adds, or a daemon that adds many (see ctl_lwt_type()).
 */
void ctl_set_cache_lwt_type(struct ctl *c, bool cache);
/*
 * That slot: asked of the module, or the kept answer. With the cache, a
 * route add refused as if the slot were stale asks again, once.
 */
int ctl_lwt_type(struct ctl *c, uint16_t *type);
/* Closes the sockets; the next request opens them again. */
void ctl_close(struct ctl *c);

/* The module */

struct ctl_info {
	char version[64];
	uint16_t lwt_type;		/* the LWT slot it claimed */
	bool allow_inline;
	uint32_t max_segs;
	uint8_t def_seg6_enabled;	/* what new namespaces start from */
	int8_t def_require_hmac;
};

int ctl_info_get(struct ctl *c, struct ctl_info *info);

/* The tunnel source: "::" if none was ever set. */
int ctl_tunsrc_get(struct ctl *c, struct in6_addr *addr);
int ctl_tunsrc_set(struct ctl *c, const struct in6_addr *addr);

struct ctl_key {
	uint32_t keyid;
	uint8_t algo;			/* SEG6X_HMAC_ALGO_* */
};

int ctl_hmac_set(struct ctl *c, uint32_t keyid, uint8_t algo,
		 const void *secret, size_t len);
int ctl_hmac_del(struct ctl *c, uint32_t keyid);
/* *@keys (@n of them) is the caller's to free(). */
int ctl_hmac_list(struct ctl *c, struct ctl_key **keys, size_t *n);

struct ctl_iface {
	uint32_t ifindex;		/* 0: the default policy */
	char ifname[IF_NAMESIZE];	/* as the kernel names it; "" if not */
	bool has_seg6_enabled;		/* set: which fields to change */
	bool has_require_hmac;
	uint8_t seg6_enabled;
	int8_t require_hmac;		/* -1, 0, 1 */
	bool explicit;			/* get: has settings of its own */
	bool explicit_enabled;		/* get: which ones */
	bool explicit_hmac;
	/* get of an interface (not "default", not in events): its drop
	 * counters, indexed by SEG6X_STAT_DROP_*; the others stay zero
	 */
	bool has_drops;
	uint64_t drops[SEG6X_STAT_MAX + 1];
};

int ctl_iface_set(struct ctl *c, const struct ctl_iface *iface);
int ctl_iface_get(struct ctl *c, uint32_t ifindex, struct ctl_iface *iface);
/* Every interface, "default" first; *@ifaces is the caller's to free(). */
int ctl_iface_list(struct ctl *c, struct ctl_iface **ifaces, size_t *n);

struct ctl_stats {
	/* Indexed by SEG6X_STAT_*; what the kernel leaves out is zero. */
	uint64_t counter[SEG6X_STAT_MAX + 1];
};

int ctl_stats_get(struct ctl *c, struct ctl_stats *stats);
int ctl_stats_reset(struct ctl *c);

/* Routes (ctl_route.c) */

/*
 * A route is a run of struct ctl_route, one per path (next hop) of a
 * multipath route (RTA_MULTIPATH): the first holds what names the route
 * (prefix, table, metric, protocol, owner) and how many paths follow;
 * each holds its path's device, next hop, weight and encapsulation. A
 * route of one path is one struct whose npaths is 0 or 1. Functions that
 * take a route read the whole run; those that fill one want room for
 * CTL_MAX_PATHS.
 */
#define CTL_MAX_PATHS	64

struct ctl_route {
	struct inet_prefix dst;
	uint32_t table;
	uint32_t oif;			/* 0: none */
	bool has_metric;
	uint32_t metric;
	bool has_via;
	struct inet_addr via;
	uint16_t npaths;		/* first of a run: its length; 0 is 1 */
	uint16_t weight;		/* 1..256 of a multipath route; 0 is 1 */
	/* The encapsulation */
	uint8_t mode;			/* SEG6X_IPTUN_MODE_* */
	bool has_hmac;
	uint32_t hmac;
	size_t nsegs;
	struct in6_addr segs[SEG6X_MAX_SEGS];
	uint8_t owner;			/* SEG6X_OWNER_*; 0 (none) is not sent */
	/*
	 * The route's rtm_protocol (RTPROT_*): 0 means RTPROT_STATIC, what
	 * seg6ctl installs. A routing daemon's agent sets the daemon's own
	 * (FRR zebra ignores kernel notifications of routes with its
	 * protocols, and learns the others as competing kernel routes).
	 * Dumps fill it in unless it is RTPROT_STATIC.
	 */
	uint8_t protocol;
	/* Dumps: what the route did (modules that count routes) */
	bool has_counters;
	uint64_t packets, bytes, errors;
};

/* The number of paths of route @r (its run's length). */
static inline size_t ctl_route_paths(const struct ctl_route *r)
{
	return r->npaths ? r->npaths : 1;
}

/* Adds @r; with @replace, replaces a route of the same key instead. */
int ctl_route_add(struct ctl *c, const struct ctl_route *r, bool replace);
/* Deletes the route that @r names exactly (as ctl_route_find() gives). */
int ctl_route_del(struct ctl *c, const struct ctl_route *r);
/*
 * Deletes the routes in @routes, @n struct ctl_route in runs, each as
 * ctl_route_del(), many to a message exchange: 0, or the first error.
 * After a failure the routes sent with it (up to 63) are deleted or not,
 * those after it are left.
 */
int ctl_route_del_many(struct ctl *c, const struct ctl_route *routes, size_t n);
/*
 * The first seg6x route of @want's prefix and table, and of its device
 * and metric if set (metric 0 matches any, as the kernel reads it).
 * -ESRCH if there is none; then *@other tells whether a route that is
 * not seg6x's matched.
 */
int ctl_route_find(struct ctl *c, const struct ctl_route *want,
		   struct ctl_route found[CTL_MAX_PATHS], bool *other);
/*
 * seg6x's routes of every table, IPv6 then IPv4, as runs: *@n structs in
 * all, *@routes to free().
 */
int ctl_route_list(struct ctl *c, struct ctl_route **routes, size_t *n);
/*
 * The same one at a time, without a list of them all: @fn returns 0, or a
 * negative errno that ends the walk and is returned. @fn may not send
 * requests on @c (its socket is in the middle of the dump).
 */
typedef int (*ctl_route_fn)(void *arg, const struct ctl_route *r);
int ctl_route_walk(struct ctl *c, ctl_route_fn fn, void *arg);

/* The local SID table (ctl_sid.c) */

/* Bit of a SEG6X_SID_* attribute in ctl_sid.attrs. */
#define CTL_SID_F(attr)		(1u << (attr))

struct ctl_sid {
	struct in6_addr prefix;
	uint8_t len;			/* 1..128 */
	uint16_t behavior;		/* SEG6X_BEHAVIOR_* */
	uint32_t attrs;			/* CTL_SID_F(): the fields given */
	struct in6_addr nh6;
	struct in_addr nh4;
	uint32_t oif;
	uint32_t table;
	uint32_t vrf;			/* ifindex of the VRF device */
	uint32_t hmac;
	uint32_t flavors;		/* SEG6X_FLV_* */
	uint8_t lblen;
	uint8_t nflen;
	bool count;
	uint8_t owner;			/* SEG6X_OWNER_*, with CTL_SID_F(SEG6X_SID_OWNER) */
	size_t nsegs;
	struct in6_addr segs[SEG6X_MAX_SEGS];
	/* get: with count */
	bool has_counters;
	uint64_t packets, bytes, errors;
	bool dead;			/* get: a device it uses is gone */
};

/*
 * Behaviours, from SEG6X_BEHAVIOR_LIST: the name seg6ctl(8) spells for
 * SEG6X_BEHAVIOR_* @behavior (NULL if unknown), and the reverse
 * (exact, case-sensitive; -1 if unknown). Which attributes a behaviour
 * needs or takes is the kernel's to check: ctl_sid_set() fails with its
 * extended ack.
 */
/* SEG6X_OWNER_* by name ("fpmd") or number (0..255): 0, or -1. */
const char *ctl_owner_name(unsigned int owner);	/* NULL: no name */
int ctl_owner_lookup(const char *name, uint8_t *owner);
const char *ctl_behavior_name(unsigned int behavior);
int ctl_behavior_lookup(const char *name);

/* Adds @s; with @replace, replaces the SID of the same prefix instead. */
int ctl_sid_set(struct ctl *c, const struct ctl_sid *s, bool replace);
int ctl_sid_del(struct ctl *c, const struct in6_addr *prefix, uint8_t len);
int ctl_sid_get(struct ctl *c, const struct in6_addr *prefix, uint8_t len,
		struct ctl_sid *s);
/* Every SID of the namespace; *@sids is the caller's to free(). */
int ctl_sid_list(struct ctl *c, struct ctl_sid **sids, size_t *n);
int ctl_sid_flush(struct ctl *c);

/* Change events (ctl_monitor.c) */

enum ctl_event_type {
	CTL_EVENT_ROUTE_ADD = 1,	/* added or replaced */
	CTL_EVENT_ROUTE_DEL,
	CTL_EVENT_SID_ADD,		/* added or replaced */
	CTL_EVENT_SID_DEL,
	CTL_EVENT_SID_FLUSH,
	CTL_EVENT_HMAC_SET,
	CTL_EVENT_HMAC_DEL,		/* key.algo is 0 */
	CTL_EVENT_TUNSRC_SET,
	CTL_EVENT_IFACE_SET,
	CTL_EVENT_STATS_RESET,
};

struct ctl_event {
	enum ctl_event_type type;
	union {				/* as the type says */
		/* A run (see struct ctl_route), valid during the callback */
		const struct ctl_route *route;
		struct ctl_sid sid;
		struct ctl_key key;
		struct in6_addr tunsrc;
		struct ctl_iface iface;
	};
};

/* Objects to watch, for ctl_monitor_open() */
#define CTL_MONITOR_ROUTE	(1u << 0)
#define CTL_MONITOR_SID		(1u << 1)
#define CTL_MONITOR_HMAC	(1u << 2)
#define CTL_MONITOR_TUNSRC	(1u << 3)
#define CTL_MONITOR_IFACE	(1u << 4)
#define CTL_MONITOR_STATS	(1u << 5)
#define CTL_MONITOR_ALL		((1u << 6) - 1)

/* Returns 0 to go on, anything else to stop ctl_monitor_run() with it. */
typedef int (*ctl_event_fn)(const struct ctl_event *ev, void *arg);

/*
 * Subscribes @c to the changes of @objects (CTL_MONITOR_*) in its
 * namespace: routes from rtnetlink (seg6x's only), the rest from the
 * SEG6X family's "events" group. Needs no privilege; needs the module.
 */
int ctl_monitor_open(struct ctl *c, unsigned int objects);
/*
 * Waits for events and hands each to @fn, until @fn returns non-zero
 * (returned) or an error. Events lost because the reader was too slow
 * are reported through ctl_on_warning(), and watching goes on.
 */
int ctl_monitor_run(struct ctl *c, ctl_event_fn fn, void *arg);

#endif /* LIBSEG6X_CTL_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a file for "seg6ctl sync" declares. The file is read line by line
 * by the same parsers as -b and -c (the object files); with opts.collect
 * set, each of their changes lands here instead of in the kernel, and
 * plan.c compares the whole with what runs.
 */
#ifndef SEG6CTL_CONF_H
#define SEG6CTL_CONF_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libseg6x.h"

/*
 * Each entry keeps the line that declared it (for messages) and the names
 * of its devices: a device that does not exist (yet) has index 0, and
 * the step that needs it fails when the plan is applied, not the file.
 */
struct conf_route {
	struct ctl_route *r;		/* a run: its paths (libseg6x.h) */
	char (*devs)[IF_NAMESIZE];	/* each path's device */
	unsigned int line;
};

/* Whether a path of @w names a device that does not exist (yet). */
static inline bool conf_route_nodev(const struct conf_route *w)
{
	size_t i;

	for (i = 0; i < ctl_route_paths(w->r); i++)
		if (!w->r[i].oif)
			return true;
	return false;
}

struct conf_sid {
	struct ctl_sid s;		/* prefix masked to its length */
	char dev[IF_NAMESIZE];		/* with CTL_SID_F(SEG6X_SID_OIF) */
	char vrf[IF_NAMESIZE];		/* with CTL_SID_F(SEG6X_SID_VRF) */
	unsigned int line;
};

struct conf_key {
	uint32_t keyid;
	uint8_t algo;
	size_t len;			/* 0 with -c: the secret is not read */
	uint8_t secret[SEG6X_HMAC_SECRET_MAX];
	unsigned int line;
};

/* set.has_*: the fields the file gives; set.ifindex 0: no such device. */
struct conf_iface {
	struct ctl_iface set;
	char name[IF_NAMESIZE];
	unsigned int line;
};

struct conf {
	bool has_tunsrc;
	struct in6_addr tunsrc;
	unsigned int tunsrc_line;
	struct conf_iface def;		/* "iface set default": its fields */
	struct conf_key *keys;
	size_t nkeys;
	struct conf_iface *ifaces;
	size_t nifaces;
	struct conf_route *routes;
	size_t nroutes;
	struct conf_sid *sids;
	size_t nsids;
	/* Owners (SEG6X_OWNER_*) that some route or SID of the file names. */
	uint8_t owners[(SEG6X_OWNER_MAX + 1) / 8];
};

static inline bool conf_names_owner(const struct conf *c, uint8_t owner)
{
	return c->owners[owner / 8] & (1u << (owner % 8));
}

/* Nothing at all declared: "sync /dev/null". */
bool conf_empty(const struct conf *c);
/* Frees what @c holds (secrets wiped) and @c. */
void conf_free(struct conf *c);

/*
 * For the object files, in place of the kernel. Each takes its entry
 * at the current batch line and returns EXIT_OK, EXIT_USAGE (an "add" of
 * what the file already declared: the kernel would refuse it) or
 * -ENOMEM. A later "replace" or "set" overrides an earlier one, as
 * applying the file line by line would; iface fields add up.
 */
int conf_route(struct conf *c, const struct ctl_route *r,
	       const char *const *devs, bool replace);
int conf_sid(struct conf *c, const struct ctl_sid *s, const char *dev,
	     const char *vrf, bool replace);
int conf_key(struct conf *c, uint32_t keyid, uint8_t algo,
	     const void *secret, size_t len);
int conf_tunsrc(struct conf *c, const struct in6_addr *addr);
/* @name: as the file gives it ("default" for the default policy). */
int conf_iface(struct conf *c, const struct ctl_iface *set, const char *name);

#endif /* SEG6CTL_CONF_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl sync: the entries of a file, gathered as the object files parse
 * its lines. A place declared twice with add is refused, as the kernel
 * would refuse the second add; replace and set override what came before.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "conf.h"
#include "match.h"
#include "report.h"

/* A new zeroed item at the end of *@items (@n of @size bytes), or NULL. */
static void *grow(void *items, size_t *n, size_t size)
{
	void **p = items;
	char *more = realloc(*p, (*n + 1) * size);

	if (!more)
		return NULL;
	*p = more;
	memset(more + *n * size, 0, size);
	return more + (*n)++ * size;
}

static void note_owner(struct conf *c, uint8_t owner)
{
	if (owner)
		c->owners[owner / 8] |= (uint8_t)(1u << (owner % 8));
}

static void copy_name(char dst[IF_NAMESIZE], const char *name)
{
	snprintf(dst, IF_NAMESIZE, "%s", name ? name : "");
}

int conf_route(struct conf *c, const struct ctl_route *r,
	       const char *const *devs, bool replace)
{
	size_t i, paths = ctl_route_paths(r);
	struct conf_route *e = NULL;
	struct ctl_route *run;
	char (*names)[IF_NAMESIZE];

	for (i = 0; !e && i < c->nroutes; i++)
		if (match_route_key(c->routes[i].r, r))
			e = &c->routes[i];
	if (e && !replace) {
		char place[INET6_ADDRSTRLEN + 64];

		match_route_place(r, place, sizeof(place));
		return usage_error("route", "route %s was declared on line %u already: a second add fails (replace overrides)",
				   place, e->line);
	}
	run = malloc(paths * sizeof(*run));
	names = malloc(paths * sizeof(*names));
	if (!e && run && names)
		e = grow(&c->routes, &c->nroutes, sizeof(*e));
	if (!e || !run || !names) {
		free(run);
		free(names);
		return -ENOMEM;
	}
	memcpy(run, r, paths * sizeof(*run));
	for (i = 0; i < paths; i++)
		copy_name(names[i], devs[i]);
	if (e->r) {
		free(e->r);
		free(e->devs);
	}
	e->r = run;
	e->devs = names;
	e->line = report_line();
	note_owner(c, r->owner);
	return EXIT_OK;
}

/* The kernel keys a SID by its prefix with the host bits cleared. */
static void mask_prefix(struct in6_addr *a, unsigned int len)
{
	unsigned int i;

	for (i = len; i < 128; i++)
		a->s6_addr[i / 8] &= (uint8_t)~(0x80u >> (i % 8));
}

int conf_sid(struct conf *c, const struct ctl_sid *s, const char *dev,
	     const char *vrf, bool replace)
{
	struct conf_sid *e = NULL;
	struct ctl_sid masked = *s;
	size_t i;

	mask_prefix(&masked.prefix, masked.len);
	for (i = 0; !e && i < c->nsids; i++)
		if (match_sid_key(&c->sids[i].s, &masked))
			e = &c->sids[i];
	if (e && !replace) {
		char addr[INET6_ADDRSTRLEN];

		return usage_error("sid", "SID %s/%u was declared on line %u already: a second add fails (replace overrides)",
				   inet_ntop(AF_INET6, &masked.prefix, addr,
					     sizeof(addr)), masked.len, e->line);
	}
	if (!e)
		e = grow(&c->sids, &c->nsids, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->s = masked;
	copy_name(e->dev, dev);
	copy_name(e->vrf, vrf);
	e->line = report_line();
	if (s->attrs & CTL_SID_F(SEG6X_SID_OWNER))
		note_owner(c, s->owner);
	return EXIT_OK;
}

int conf_key(struct conf *c, uint32_t keyid, uint8_t algo,
	     const void *secret, size_t len)
{
	struct conf_key *e = NULL;
	size_t i;

	for (i = 0; !e && i < c->nkeys; i++)
		if (c->keys[i].keyid == keyid)
			e = &c->keys[i];
	if (!e)
		e = grow(&c->keys, &c->nkeys, sizeof(*e));
	if (!e)
		return -ENOMEM;
	explicit_bzero(e->secret, sizeof(e->secret));
	e->keyid = keyid;
	e->algo = algo;
	e->len = len <= sizeof(e->secret) ? len : 0;
	if (e->len)
		memcpy(e->secret, secret, e->len);
	e->line = report_line();
	return EXIT_OK;
}

int conf_tunsrc(struct conf *c, const struct in6_addr *addr)
{
	c->has_tunsrc = true;
	c->tunsrc = *addr;
	c->tunsrc_line = report_line();
	return EXIT_OK;
}

/* Fields add up: "set eth0 seg6_enabled 1" then "set eth0 require_hmac 1". */
static void merge_iface(struct conf_iface *e, const struct ctl_iface *set)
{
	e->set.ifindex = set->ifindex;
	if (set->has_seg6_enabled) {
		e->set.has_seg6_enabled = true;
		e->set.seg6_enabled = set->seg6_enabled;
	}
	if (set->has_require_hmac) {
		e->set.has_require_hmac = true;
		e->set.require_hmac = set->require_hmac;
	}
	e->line = report_line();
}

int conf_iface(struct conf *c, const struct ctl_iface *set, const char *name)
{
	struct conf_iface *e = NULL;
	size_t i;

	if (!strcmp(name, "default"))
		e = &c->def;
	for (i = 0; !e && i < c->nifaces; i++)
		if (!strcmp(c->ifaces[i].name, name))
			e = &c->ifaces[i];
	if (!e)
		e = grow(&c->ifaces, &c->nifaces, sizeof(*e));
	if (!e)
		return -ENOMEM;
	copy_name(e->name, name);
	merge_iface(e, set);
	return EXIT_OK;
}

bool conf_empty(const struct conf *c)
{
	return !c->has_tunsrc && !c->def.set.has_seg6_enabled &&
	       !c->def.set.has_require_hmac && !c->nkeys && !c->nifaces &&
	       !c->nroutes && !c->nsids;
}

void conf_free(struct conf *c)
{
	size_t i;

	if (!c)
		return;
	if (c->keys)
		explicit_bzero(c->keys, c->nkeys * sizeof(*c->keys));
	free(c->keys);
	free(c->ifaces);
	for (i = 0; i < c->nroutes; i++) {
		free(c->routes[i].r);
		free(c->routes[i].devs);
	}
	free(c->routes);
	free(c->sids);
	free(c);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl sync's plan: compares what a file declares with what runs, the
 * way the kernel compares (match.c), and lists the writes that make them
 * equal. Nothing identical is written: SID counters keep counting.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "plan.h"

struct builder {
	const struct conf *want;
	const struct plan_state *have;
	bool all_owners;
	struct plan *p;
	size_t cap;
	/* Running routes and SIDs that an entry of the file matched. */
	bool *route_seen;
	bool *sid_seen;
};

static struct plan_step *step(struct builder *b, enum plan_op op,
			      enum plan_obj obj, const void *want,
			      const void *have)
{
	struct plan_step *s;

	if (b->p->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 16;
		struct plan_step *more = realloc(b->p->steps, cap * sizeof(*more));

		if (!more)
			return NULL;
		b->p->steps = more;
		b->cap = cap;
	}
	s = &b->p->steps[b->p->n++];
	memset(s, 0, sizeof(*s));
	s->op = op;
	s->obj = obj;
	s->want = want;
	s->have = have;
	return s;
}

/* Routes and SIDs of other programs are the file's only if it says so. */
static bool managed(const struct builder *b, uint8_t owner)
{
	return !owner || b->all_owners || conf_names_owner(b->want, owner);
}

static int plan_tunsrc(struct builder *b)
{
	const struct conf *c = b->want;
	struct in6_addr addr = c->has_tunsrc ? c->tunsrc : in6addr_any;
	struct plan_step *s;

	if (!memcmp(&addr, &b->have->tunsrc, sizeof(addr)))
		return 0;
	s = step(b, PLAN_CHANGE, PLAN_TUNSRC, c, NULL);
	if (!s)
		return -ENOMEM;
	s->tunsrc = addr;
	return 0;
}

static const struct ctl_key *find_key(const struct plan_state *h, uint32_t id)
{
	size_t i;

	for (i = 0; i < h->nkeys; i++)
		if (h->keys[i].keyid == id)
			return &h->keys[i];
	return NULL;
}

/*
 * Every key of the file is set: the kernel never gives a secret back, so
 * a key of the same id and algorithm may still hold an old secret (the
 * file's was rotated). Setting a key swaps it whole, unseen by packets.
 */
static int plan_keys_set(struct builder *b)
{
	size_t i;

	for (i = 0; i < b->want->nkeys; i++) {
		const struct conf_key *k = &b->want->keys[i];
		const struct ctl_key *have = find_key(b->have, k->keyid);
		struct plan_step *s;

		s = step(b, have ? PLAN_CHANGE : PLAN_ADD, PLAN_KEY, k, have);
		if (!s)
			return -ENOMEM;
		if (have && have->algo == k->algo)
			s->why = WHY_SECRET;
	}
	return 0;
}

static bool key_in_file(const struct conf *c, uint32_t id)
{
	size_t i;

	for (i = 0; i < c->nkeys; i++)
		if (c->keys[i].keyid == id)
			return true;
	return false;
}

static int plan_keys_del(struct builder *b)
{
	size_t i;

	for (i = 0; i < b->have->nkeys; i++)
		if (!key_in_file(b->want, b->have->keys[i].keyid) &&
		    !step(b, PLAN_DEL, PLAN_KEY, NULL, &b->have->keys[i]))
			return -ENOMEM;
	return 0;
}

/* Interfaces: the file's fields, or else the default's values. */

/* What "default" is to be: the file's fields, else the module's. */
static void default_wanted(const struct builder *b, struct ctl_iface *d)
{
	const struct ctl_iface *f = &b->want->def.set;

	memset(d, 0, sizeof(*d));
	d->has_seg6_enabled = d->has_require_hmac = true;
	d->seg6_enabled = f->has_seg6_enabled ? f->seg6_enabled :
			  b->have->param_seg6_enabled;
	d->require_hmac = f->has_require_hmac ? f->require_hmac :
			  b->have->param_require_hmac;
}

static const struct ctl_iface *find_iface(const struct plan_state *h,
					  uint32_t ifindex)
{
	size_t i;

	for (i = 0; i < h->nifaces; i++)
		if (h->ifaces[i].ifindex == ifindex)
			return &h->ifaces[i];
	return NULL;
}

static int plan_default(struct builder *b, const struct ctl_iface *d)
{
	const struct ctl_iface *have = find_iface(b->have, 0);
	struct plan_step *s;

	if (have && have->seg6_enabled == d->seg6_enabled &&
	    have->require_hmac == d->require_hmac)
		return 0;
	s = step(b, PLAN_CHANGE, PLAN_IFACE, &b->want->def, have);
	if (!s)
		return -ENOMEM;
	s->iface = *d;
	s->ifname = "default";
	return 0;
}

/*
 * The request that makes interface @have (NULL: not listed) follow @f
 * (NULL: the file does not name it) and, for the fields @f does not
 * give, the default @d. The kernel cannot drop an interface's own
 * setting: one that differs is set to the default's value (*@pinned).
 */
static void iface_request(const struct ctl_iface *f, const struct ctl_iface *have,
			  const struct ctl_iface *d, struct ctl_iface *req,
			  bool *pinned)
{
	bool own_en = have && have->explicit_enabled;
	bool own_hmac = have && have->explicit_hmac;

	if (f && f->has_seg6_enabled) {
		req->has_seg6_enabled = !own_en ||
					have->seg6_enabled != f->seg6_enabled;
		req->seg6_enabled = f->seg6_enabled;
	} else if (own_en && have->seg6_enabled != d->seg6_enabled) {
		req->has_seg6_enabled = *pinned = true;
		req->seg6_enabled = d->seg6_enabled;
	}
	if (f && f->has_require_hmac) {
		req->has_require_hmac = !own_hmac ||
					have->require_hmac != f->require_hmac;
		req->require_hmac = f->require_hmac;
	} else if (own_hmac && have->require_hmac != d->require_hmac) {
		req->has_require_hmac = *pinned = true;
		req->require_hmac = d->require_hmac;
	}
}

static int iface_step(struct builder *b, const struct conf_iface *f,
		      const struct ctl_iface *have, const struct ctl_iface *d)
{
	struct ctl_iface req = { .ifindex = f ? f->set.ifindex : have->ifindex };
	bool pinned = false;
	struct plan_step *s;

	if (f && !f->set.ifindex) {
		req = f->set;		/* no such device: the step will say */
	} else {
		iface_request(f ? &f->set : NULL, have, d, &req, &pinned);
		if (!req.has_seg6_enabled && !req.has_require_hmac)
			return 0;
	}
	s = step(b, PLAN_CHANGE, PLAN_IFACE, f, have);
	if (!s)
		return -ENOMEM;
	s->iface = req;
	s->ifname = f ? f->name : have->ifname;
	s->why = f && !f->set.ifindex ? WHY_NODEV : pinned ? WHY_PINNED : WHY_NONE;
	return 0;
}

static const struct conf_iface *iface_in_file(const struct conf *c,
					      uint32_t ifindex)
{
	size_t i;

	for (i = 0; i < c->nifaces; i++)
		if (c->ifaces[i].set.ifindex == ifindex)
			return &c->ifaces[i];
	return NULL;
}

static int plan_ifaces(struct builder *b)
{
	const struct plan_state *h = b->have;
	struct ctl_iface d;
	size_t i;
	int err;

	default_wanted(b, &d);
	err = plan_default(b, &d);
	for (i = 0; !err && i < b->want->nifaces; i++) {
		const struct conf_iface *f = &b->want->ifaces[i];

		err = iface_step(b, f, f->set.ifindex ?
				 find_iface(h, f->set.ifindex) : NULL, &d);
	}
	/* Interfaces with a setting of their own that the file drops. */
	for (i = 0; !err && i < h->nifaces; i++)
		if (h->ifaces[i].ifindex && h->ifaces[i].explicit &&
		    !iface_in_file(b->want, h->ifaces[i].ifindex))
			err = iface_step(b, NULL, &h->ifaces[i], &d);
	return err;
}

/* Routes and SIDs */

/*
 * The step for an entry of the file, given the running entry in its place
 * (NULL if none) and whether the two are the same.
 */
static int entry_step(struct builder *b, enum plan_obj obj, const void *want,
		      const void *have, uint8_t have_owner, bool same,
		      bool nodev)
{
	enum plan_op op = !have ? PLAN_ADD : !managed(b, have_owner) ?
			  PLAN_CONFLICT : PLAN_CHANGE;
	struct plan_step *s;

	if (have && op == PLAN_CHANGE && same)
		return 0;
	s = step(b, op, obj, want, have);
	if (!s)
		return -ENOMEM;
	if (op == PLAN_CONFLICT)
		s->why = WHY_OWNER;
	else if (nodev)
		s->why = WHY_NODEV;
	else if (obj == PLAN_SID && have && ((const struct ctl_sid *)have)->dead)
		s->why = WHY_DEAD;
	return 0;
}

/* Routes in the kernel come as runs: each starts at a route's first path. */
static int plan_routes_set(struct builder *b)
{
	const struct plan_state *h = b->have;
	size_t i, j;
	int err = 0;

	for (i = 0; !err && i < b->want->nroutes; i++) {
		const struct conf_route *w = &b->want->routes[i];
		const struct ctl_route *have = NULL;

		for (j = 0; !have && j < h->nroutes;
		     j += ctl_route_paths(&h->routes[j]))
			if (!b->route_seen[j] &&
			    match_route_key(w->r, &h->routes[j])) {
				have = &h->routes[j];
				b->route_seen[j] = true;
			}
		err = entry_step(b, PLAN_ROUTE, w, have, have ? have->owner : 0,
				 have && match_route(w->r, have),
				 conf_route_nodev(w));
	}
	return err;
}

static bool sid_nodev(const struct ctl_sid *s)
{
	return ((s->attrs & CTL_SID_F(SEG6X_SID_OIF)) && !s->oif) ||
	       ((s->attrs & CTL_SID_F(SEG6X_SID_VRF)) && !s->vrf);
}

static int plan_sids_set(struct builder *b)
{
	const struct plan_state *h = b->have;
	size_t i, j;
	int err = 0;

	for (i = 0; !err && i < b->want->nsids; i++) {
		const struct conf_sid *w = &b->want->sids[i];
		const struct ctl_sid *have = NULL;

		for (j = 0; !have && j < h->nsids; j++)
			if (!b->sid_seen[j] &&
			    match_sid_key(&w->s, &h->sids[j])) {
				have = &h->sids[j];
				b->sid_seen[j] = true;
			}
		err = entry_step(b, PLAN_SID, w, have, have ? match_sid_owner(have) : 0,
				 have && match_sid(&w->s, have),
				 sid_nodev(&w->s));
	}
	return err;
}

/* What runs, is managed, and no entry of the file matched: deleted. */
static int plan_deletes(struct builder *b)
{
	const struct plan_state *h = b->have;
	size_t i;

	for (i = 0; i < h->nroutes; i += ctl_route_paths(&h->routes[i]))
		if (!b->route_seen[i] && managed(b, h->routes[i].owner) &&
		    !step(b, PLAN_DEL, PLAN_ROUTE, NULL, &h->routes[i]))
			return -ENOMEM;
	for (i = 0; i < h->nsids; i++)
		if (!b->sid_seen[i] && managed(b, match_sid_owner(&h->sids[i])) &&
		    !step(b, PLAN_DEL, PLAN_SID, NULL, &h->sids[i]))
			return -ENOMEM;
	return plan_keys_del(b);
}

int plan_make(const struct conf *want, const struct plan_state *have,
	      bool all_owners, struct plan *p)
{
	struct builder b = { .want = want, .have = have,
			     .all_owners = all_owners, .p = p };
	int err = -ENOMEM;

	p->steps = NULL;
	p->n = 0;
	b.route_seen = calloc(have->nroutes + 1, sizeof(bool));
	b.sid_seen = calloc(have->nsids + 1, sizeof(bool));
	if (b.route_seen && b.sid_seen) {
		err = plan_tunsrc(&b);
		if (!err)
			err = plan_keys_set(&b);
		if (!err)
			err = plan_ifaces(&b);
		if (!err)
			err = plan_sids_set(&b);
		if (!err)
			err = plan_routes_set(&b);
		if (!err)
			err = plan_deletes(&b);
	}
	free(b.route_seen);
	free(b.sid_seen);
	if (err)
		plan_free(p);
	return err;
}

void plan_free(struct plan *p)
{
	free(p->steps);
	p->steps = NULL;
	p->n = 0;
}

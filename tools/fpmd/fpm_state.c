// SPDX-License-Identifier: GPL-2.0
/* zebra's routes and next hops, and what they became: see fpm_state.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "fpm.h"
#include "fpm_log.h"
#include "fpm_state.h"
#include "fpm_store.h"

#define RT_BUCKETS	4096
#define NH_BUCKETS	1024

struct nh_ent {
	struct nh_ent *next;
	struct fpm_nexthop nh;
};

/* Zeroed before filling: hashed and compared as bytes. */
struct rt_key {
	int family;
	uint32_t table;
	uint32_t len;
	uint8_t addr[16];
};

/* A route zebra sent that is, or may become, seg6x's. */
struct rt_ent {
	struct rt_ent *next;
	struct rt_key key;
	uint8_t type;
	uint8_t protocol;	/* zebra's, kept on the seg6x route */
	bool has_metric;
	uint32_t metric;
	uint32_t nh_id;
	struct fpm_stored *want;	/* NULL: nothing of seg6x's */
	bool installed;		/* want was put in the kernel */
	/*
	 * Since then the kernel said another route took its place, or
	 * deleted it: its delete must not reach the kernel, which deletes
	 * by place and would take the other program's route.
	 */
	bool displaced;
};

struct fpm_state {
	struct fpm_kernel k;
	struct rt_ent *rt[RT_BUCKETS];
	struct nh_ent *nh[NH_BUCKETS];
	bool unresolved;	/* a route named a next hop not sent yet */
	struct fpm_msg msg;	/* the message being applied */
};

/* What @e wants, loaded (into one buffer: valid until the next call). */
static const struct fpm_want *want_of(const struct rt_ent *e)
{
	static struct fpm_want w;

	fpm_load(e->want, &w);
	return &w;
}

static bool wants(const struct rt_ent *e, enum fpm_want_kind kind)
{
	return e->want && fpm_stored_kind(e->want) == kind;
}

static uint32_t hash(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint32_t h = 2166136261u;	/* FNV-1a */

	while (len--)
		h = (h ^ *b++) * 16777619u;
	return h;
}

struct fpm_state *fpm_state_new(const struct fpm_kernel *k)
{
	struct fpm_state *st = calloc(1, sizeof(*st));

	if (st)
		st->k = *k;
	return st;
}

static void forget(struct fpm_state *st)
{
	size_t i;

	for (i = 0; i < RT_BUCKETS; i++)
		while (st->rt[i]) {
			struct rt_ent *e = st->rt[i];

			st->rt[i] = e->next;
			free(e->want);
			free(e);
		}
	for (i = 0; i < NH_BUCKETS; i++)
		while (st->nh[i]) {
			struct nh_ent *e = st->nh[i];

			st->nh[i] = e->next;
			free(e);
		}
	st->unresolved = false;
}

void fpm_state_free(struct fpm_state *st)
{
	if (!st)
		return;
	forget(st);
	free(st);
}

void fpm_state_reset(struct fpm_state *st)
{
	forget(st);
}

static struct nh_ent **nh_slot(struct fpm_state *st, uint32_t id)
{
	struct nh_ent **pp = &st->nh[hash(&id, sizeof(id)) % NH_BUCKETS];

	while (*pp && (*pp)->nh.id != id)
		pp = &(*pp)->next;
	return pp;
}

static struct fpm_nexthop *nh_find(struct fpm_state *st, uint32_t id)
{
	struct nh_ent *e = *nh_slot(st, id);

	return e ? &e->nh : NULL;
}

static struct rt_ent **rt_slot(struct fpm_state *st, const struct rt_key *key)
{
	struct rt_ent **pp = &st->rt[hash(key, sizeof(*key)) % RT_BUCKETS];

	while (*pp && memcmp(&(*pp)->key, key, sizeof(*key)))
		pp = &(*pp)->next;
	return pp;
}

static void make_key(const struct inet_prefix *dst, uint32_t table,
		     struct rt_key *key)
{
	memset(key, 0, sizeof(*key));
	key->family = dst->addr.family;
	key->table = table;
	key->len = dst->len;
	memcpy(key->addr, dst->addr.bytes, inet_addr_len(dst->addr.family));
}

static bool is_srv6(const struct fpm_path *p)
{
	return p->encap.kind == FPM_ENCAP_SEG6 ||
	       p->encap.kind == FPM_ENCAP_SEG6_LOCAL;
}

/* The SRv6 next hops of a route: at most FPM_WANT_PATHS. */
struct hops {
	size_t n, others;	/* SRv6 ones kept; other ones left out */
	const struct fpm_path *p[FPM_WANT_PATHS];
	struct fpm_path weighted[FPM_WANT_PATHS];	/* group members */
};

static void add_hop(struct hops *h, const struct fpm_path *p)
{
	if (!is_srv6(p))
		h->others++;
	else if (h->n < FPM_WANT_PATHS)
		h->p[h->n++] = p;
}

/*
 * The next hops a route through object @id takes: the object's, or a
 * group's members with an SRv6 encap (with the group's weights). Those
 * not known yet are not (a route is mapped again when they come).
 */
static void resolve(struct fpm_state *st, uint32_t id, struct hops *h)
{
	struct fpm_nexthop *nh = nh_find(st, id), *m;
	size_t i;

	h->n = h->others = 0;
	if (!nh) {
		st->unresolved = true;
		return;
	}
	if (!nh->ngroup)
		return add_hop(h, &nh->path);
	for (i = 0; i < nh->ngroup && i < FPM_WANT_PATHS; i++) {
		m = nh_find(st, nh->group[i].id);
		if (!m) {
			st->unresolved = true;
			continue;
		}
		h->weighted[i] = m->path;
		h->weighted[i].weight = (uint16_t)(nh->group[i].weight + 1);
		add_hop(h, &h->weighted[i]);
	}
}

/* The SRv6 paths of a route that carries its next hops itself. */
static void inline_hops(const struct fpm_route *r, struct hops *h)
{
	size_t i;

	h->n = h->others = 0;
	for (i = 0; i < r->npaths; i++)
		add_hop(h, &r->paths[i]);
}

static int install(struct fpm_state *st, const struct fpm_want *w)
{
	if (w->kind == FPM_WANT_ROUTE)
		return st->k.route_set(st->k.arg, w->route);
	if (w->kind == FPM_WANT_SID)
		return st->k.sid_set(st->k.arg, &w->sid);
	return 0;
}

static int uninstall(struct fpm_state *st, const struct fpm_want *w)
{
	if (w->kind == FPM_WANT_ROUTE)
		return st->k.route_del(st->k.arg, w->route);
	if (w->kind == FPM_WANT_SID)
		return st->k.sid_del(st->k.arg, &w->sid.prefix, w->sid.len);
	return 0;
}

static bool same_want(const struct fpm_want *a, const struct fpm_want *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == FPM_WANT_ROUTE)
		return ctl_route_paths(a->route) == ctl_route_paths(b->route) &&
		       !memcmp(a->route, b->route,
			       ctl_route_paths(a->route) * sizeof(a->route[0]));
	return a->vrftable == b->vrftable &&
	       !memcmp(&a->sid, &b->sid, sizeof(a->sid));
}

/* Whether @b replaces @a in place (same route key, or same SID). */
static bool same_slot(const struct fpm_want *a, const struct fpm_want *b)
{
	if (a->kind == FPM_WANT_SID)
		return b->kind == FPM_WANT_SID;
	return a->kind == FPM_WANT_ROUTE && b->kind == FPM_WANT_ROUTE &&
	       a->route->has_metric == b->route->has_metric &&
	       a->route->metric == b->route->metric &&
	       a->route->oif == b->route->oif &&
	       ctl_route_paths(a->route) == ctl_route_paths(b->route);
}

static void report(const struct rt_ent *e, const char *what, int err)
{
	struct inet_prefix p = { .addr.family = e->key.family,
				 .len = e->key.len };
	char name[80];

	/* Not even the name when it would not be logged: once per route. */
	if ((err ? LOG_ERR : LOG_DEBUG) > fpm_log_level)
		return;
	memcpy(p.addr.bytes, e->key.addr, sizeof(p.addr.bytes));
	fpm_prefix_str(&p, e->key.table, name, sizeof(name));
	if (err)
		fpm_log(LOG_ERR, "%s: %s failed: %s", name, what, strerror(-err));
	else
		fpm_log(LOG_DEBUG, "%s: %s", name, what);
}

/* Makes what @e is in seg6x @w (NULL: nothing). */
static void set_want(struct fpm_state *st, struct rt_ent *e,
		     const struct fpm_want *w)
{
	static const struct fpm_want none = { .kind = FPM_WANT_NONE };
	static struct fpm_want cur;	/* what @e wanted so far */
	const struct fpm_want *old = NULL;
	struct fpm_stored *stored = NULL;
	int err;

	if (!w)
		w = &none;
	if (e->want) {
		fpm_load(e->want, &cur);
		old = &cur;
	}
	/* The same again is nothing to do, unless another route took over. */
	if (old && e->installed && !e->displaced && same_want(old, w))
		return;
	/* Out of memory, the update is not applied: the old one stands. */
	if (w->kind != FPM_WANT_NONE) {
		stored = fpm_store(w);
		if (!stored)
			return fpm_log(LOG_ERR, "out of memory");
	}
	if (old && e->installed && !same_slot(old, w) && e->displaced &&
	    old->kind == FPM_WANT_ROUTE) {
		report(e, "not ours in the kernel any more: left alone", 0);
	} else if (old && e->installed && !same_slot(old, w)) {
		err = uninstall(st, old);
		/*
		 * zebra's own kernel delete of a withdrawn route carries its
		 * protocol, which is ours too: it may have removed the seg6x
		 * route before this delete came over FPM.
		 */
		report(e, err == -ESRCH || err == -ENOENT ? "already gone" :
			  "removed", err == -ESRCH || err == -ENOENT ? 0 : err);
	}
	e->installed = false;
	e->displaced = false;
	free(e->want);
	e->want = stored;
	if (w->kind == FPM_WANT_NONE)
		return;
	if (w->kind == FPM_WANT_PENDING)
		return report(e, "waits for the VRF device of its table", 0);
	err = install(st, w);
	e->installed = !err;
	report(e, "installed", err);
}

/* Maps @e again through its SRv6 next hops @h. */
static void evaluate(struct fpm_state *st, struct rt_ent *e,
		     const struct hops *h)
{
	static struct fpm_route r;
	static struct fpm_want w;
	char name[80];

	r.dst.addr.family = e->key.family;
	memcpy(r.dst.addr.bytes, e->key.addr, sizeof(r.dst.addr.bytes));
	r.dst.len = e->key.len;
	r.table = e->key.table;
	r.type = e->type;
	r.protocol = e->protocol;
	r.has_metric = e->has_metric;
	r.metric = e->metric;
	if (h->n && h->others)
		fpm_log(LOG_WARNING, "%s: %zu of its paths are not SRv6 ones: seg6x's route leaves them out",
			fpm_prefix_str(&r.dst, r.table, name, sizeof(name)),
			h->others);
	fpm_map(&r, h->p, h->n, st->k.vrf_of_table, st->k.arg, &w);
	set_want(st, e, &w);
}

static void rt_drop(struct rt_ent **pp)
{
	struct rt_ent *e = *pp;

	*pp = e->next;
	free(e->want);
	free(e);
}

static void new_route(struct fpm_state *st, const struct fpm_route *r)
{
	static struct hops h;
	struct rt_key key;
	struct rt_ent **pp, *e;

	make_key(&r->dst, r->table, &key);
	pp = rt_slot(st, &key);
	if (r->nh_id)
		resolve(st, r->nh_id, &h);
	else
		inline_hops(r, &h);
	if (!r->nh_id && !h.n) {
		/* Nothing of seg6x's, and nothing that can change that. */
		if (*pp) {
			set_want(st, *pp, NULL);
			rt_drop(pp);
		}
		return;
	}
	if (!*pp) {
		*pp = calloc(1, sizeof(**pp));
		if (!*pp)
			return fpm_log(LOG_ERR, "out of memory");
		(*pp)->key = key;
	}
	e = *pp;
	e->type = r->type;
	e->protocol = r->protocol;
	e->has_metric = r->has_metric;
	e->metric = r->metric;
	e->nh_id = r->nh_id;
	evaluate(st, e, &h);
}

static void del_route(struct fpm_state *st, const struct fpm_route *r)
{
	struct rt_key key;
	struct rt_ent **pp;

	make_key(&r->dst, r->table, &key);
	pp = rt_slot(st, &key);
	if (!*pp)
		return;
	set_want(st, *pp, NULL);
	rt_drop(pp);
}

/* Whether a route through object @nh_id goes through object @id. */
static bool uses(struct fpm_state *st, uint32_t nh_id, uint32_t id)
{
	struct fpm_nexthop *nh;
	size_t i;

	if (nh_id == id)
		return true;
	nh = nh_find(st, nh_id);
	for (i = 0; nh && i < nh->ngroup; i++)
		if (nh->group[i].id == id)
			return true;
	return false;
}

/* Every route through next hop object @id, mapped again. */
static void nexthop_changed(struct fpm_state *st, uint32_t id)
{
	static struct hops h;
	struct rt_ent *e;
	size_t i;

	for (i = 0; i < RT_BUCKETS; i++)
		for (e = st->rt[i]; e; e = e->next)
			if (e->nh_id && uses(st, e->nh_id, id)) {
				resolve(st, e->nh_id, &h);
				evaluate(st, e, &h);
			}
}

static void new_nexthop(struct fpm_state *st, const struct fpm_nexthop *nh)
{
	struct nh_ent **pp = nh_slot(st, nh->id);
	bool known = *pp;

	if (!known) {
		*pp = calloc(1, sizeof(**pp));
		if (!*pp)
			return fpm_log(LOG_ERR, "out of memory");
	}
	(*pp)->nh = *nh;
	(*pp)->next = known ? (*pp)->next : NULL;
	if (known || st->unresolved)
		nexthop_changed(st, nh->id);
}

static void del_nexthop(struct fpm_state *st, uint32_t id)
{
	struct nh_ent **pp = nh_slot(st, id), *e = *pp;

	if (!e)
		return;
	*pp = e->next;
	free(e);
	nexthop_changed(st, id);
}

static void log_notes(const struct fpm_msg *m)
{
	char buf[128];
	size_t i;

	for (i = 0; i < m->nnotes; i++)
		fpm_log(LOG_NOTICE, "ignored: %s",
			fpm_note_name(&m->notes[i], buf, sizeof(buf)));
}

static void apply(struct fpm_state *st, const struct fpm_msg *m)
{
	log_notes(m);
	if (m->ignored)
		return;
	switch (m->type) {
	case RTM_NEWROUTE:
		return new_route(st, &m->route);
	case RTM_DELROUTE:
		return del_route(st, &m->route);
	case RTM_NEWNEXTHOP:
		return new_nexthop(st, &m->nh);
	case RTM_DELNEXTHOP:
		return del_nexthop(st, m->nh.id);
	}
}

/* Decodes each message of @msgs; with @doit, applies it too. */
static int each_msg(struct fpm_state *st, const uint8_t *msgs, size_t len,
		    bool doit)
{
	size_t off = 0, step;
	struct nlmsghdr h;

	while (off < len) {
		memcpy(&h, msgs + off, sizeof(h));
		if (fpm_decode(msgs + off, len - off, &st->msg))
			return -EBADMSG;
		if (doit)
			apply(st, &st->msg);
		step = NLMSG_ALIGN((size_t)h.nlmsg_len);
		off += step < len - off ? step : len - off;
	}
	return 0;
}

int fpm_state_frame(struct fpm_state *st, const uint8_t *msgs, size_t len)
{
	if (fpm_check_msgs(msgs, len) || each_msg(st, msgs, len, false))
		return -EBADMSG;
	return each_msg(st, msgs, len, true);
}

/* Whether this state installed route @r (same table and prefix). */
static bool have_route(struct fpm_state *st, const struct ctl_route *r)
{
	struct rt_key key;
	struct rt_ent *e;

	make_key(&r->dst, r->table, &key);
	e = *rt_slot(st, &key);
	return e && e->installed && wants(e, FPM_WANT_ROUTE);
}

static bool have_sid(struct fpm_state *st, const struct ctl_sid *s)
{
	struct rt_ent *e;
	size_t i;

	for (i = 0; i < RT_BUCKETS; i++)
		for (e = st->rt[i]; e; e = e->next)
			if (e->installed && wants(e, FPM_WANT_SID) &&
			    want_of(e)->sid.len == s->len &&
			    !memcmp(&want_of(e)->sid.prefix, &s->prefix,
				    sizeof(s->prefix)))
				return true;
	return false;
}

/* Routes of ours in the kernel that this state did not install. */
struct stale {
	struct fpm_state *st;
	struct ctl_route *r;
	size_t n, cap;
};

static int collect_stale(void *arg, const struct ctl_route *r)
{
	struct stale *s = arg;
	size_t paths = ctl_route_paths(r);

	if (r->owner != SEG6X_OWNER_FPMD || have_route(s->st, r))
		return 0;
	/* A run, kept whole: a multipath route is deleted by its paths. */
	if (s->n + paths > s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct ctl_route *more;

		if (cap < s->n + paths)
			cap = s->n + paths;
		more = realloc(s->r, cap * sizeof(*more));
		if (!more)
			return -ENOMEM;
		s->r = more;
		s->cap = cap;
	}
	memcpy(&s->r[s->n], r, paths * sizeof(*r));
	s->n += paths;
	return 0;
}

/*
 * Walked, not listed: only the stale routes are kept (after a replay,
 * few), not the whole table. Deleted once the walk is over, since the
 * dump holds the socket until then.
 */
static int sweep_routes(struct fpm_state *st)
{
	struct stale s = { .st = st };
	int err = st->k.route_walk(st->k.arg, collect_stale, &s), gone = 0;
	size_t i;

	for (i = 0; !err && i < s.n; i += ctl_route_paths(&s.r[i])) {
		err = st->k.route_del(st->k.arg, &s.r[i]);
		if (!err)
			gone++;
	}
	free(s.r);
	return err ? err : gone;
}

static int sweep_sids(struct fpm_state *st)
{
	struct ctl_sid *s;
	size_t n, i;
	int err = st->k.sid_list(st->k.arg, &s, &n), gone = 0;

	if (err)
		return err;
	for (i = 0; i < n; i++) {
		if (s[i].owner != SEG6X_OWNER_FPMD || have_sid(st, &s[i]))
			continue;
		err = st->k.sid_del(st->k.arg, &s[i].prefix, s[i].len);
		if (err)
			break;
		gone++;
	}
	free(s);
	return err ? err : gone;
}

int fpm_state_sweep(struct fpm_state *st)
{
	int routes = sweep_routes(st), sids;

	if (routes < 0)
		return routes;
	sids = sweep_sids(st);
	return sids < 0 ? sids : routes + sids;
}

/* The kernel's default metric for a route given none. */
static uint32_t kernel_metric(const struct rt_ent *e)
{
	if (e->has_metric && e->metric)
		return e->metric;
	return e->key.family == AF_INET6 ? 1024 : 0;
}

bool fpm_state_ours_at(struct fpm_state *st, const struct inet_prefix *dst,
		       uint32_t table, uint32_t metric)
{
	struct rt_key key;
	struct rt_ent *e;

	make_key(dst, table, &key);
	e = *rt_slot(st, &key);
	return e && e->installed && wants(e, FPM_WANT_ROUTE) &&
	       kernel_metric(e) == metric;
}

int fpm_state_kernel_route(struct fpm_state *st, const struct inet_prefix *dst,
			   uint32_t table, uint32_t metric,
			   enum fpm_kroute what)
{
	struct rt_key key;
	struct rt_ent *e;
	int err;

	make_key(dst, table, &key);
	e = *rt_slot(st, &key);
	if (!e || !e->installed || !wants(e, FPM_WANT_ROUTE) ||
	    kernel_metric(e) != metric)
		return 0;
	switch (what) {
	case FPM_KROUTE_OURS:
		e->displaced = false;
		return 0;
	case FPM_KROUTE_OTHER:
	case FPM_KROUTE_GONE:
		if (!e->displaced)
			report(e, what == FPM_KROUTE_GONE ?
				  "deleted by another program" :
				  "replaced by a route that is not an SRv6 one", 0);
		e->displaced = true;
		return 0;
	case FPM_KROUTE_SRV6:
		break;
	}
	err = install(st, want_of(e));
	e->installed = !err;
	e->displaced = false;
	report(e, "overwritten by another route: installed again", err);
	return 1;
}

size_t fpm_state_reinstall(struct fpm_state *st)
{
	struct rt_ent *e;
	size_t i, n = 0;

	for (i = 0; i < RT_BUCKETS; i++)
		for (e = st->rt[i]; e; e = e->next) {
			/* Displaced: the last word on that place was not ours. */
			if (!e->installed || e->displaced ||
			    !wants(e, FPM_WANT_ROUTE))
				continue;
			e->installed = !install(st, want_of(e));
			n++;
		}
	return n;
}

static size_t pending(const struct fpm_state *st, struct fpm_state *retry)
{
	const struct rt_ent *e;
	size_t i, n = 0;

	for (i = 0; i < RT_BUCKETS; i++)
		for (e = st->rt[i]; e; e = e->next) {
			static struct fpm_want w;
			struct fpm_stored *resolved;
			int err;

			if (!wants(e, FPM_WANT_PENDING))
				continue;
			fpm_load(e->want, &w);
			if (!retry || !fpm_map_resolve(&w, retry->k.vrf_of_table,
							retry->k.arg)) {
				n++;
				continue;
			}
			resolved = fpm_store(&w);
			if (!resolved) {
				/* Still pending: tried again on the next retry. */
				fpm_log(LOG_ERR, "out of memory");
				n++;
				continue;
			}
			free(e->want);
			((struct rt_ent *)e)->want = resolved;
			err = install(retry, &w);
			((struct rt_ent *)e)->installed = !err;
			report(e, "installed", err);
		}
	return n;
}

size_t fpm_state_retry(struct fpm_state *st)
{
	return pending(st, st);
}

size_t fpm_state_pending(const struct fpm_state *st)
{
	return pending(st, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Stored wants (see fpm_store.h): the bytes of the route or SID in front
 * of its segment array and behind it, then its segments, no more.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fpm_store.h"

struct fpm_stored {
	enum fpm_want_kind kind;
	uint32_t vrftable;
	size_t nobjs;		/* a route's paths, or 1 (a SID) */
	unsigned char data[];	/* per path or SID: head, tail, segments */
};

/* Where a route's or a SID's segment array lies in it. */
struct layout {
	size_t size;		/* of the whole struct */
	size_t head;		/* bytes in front of the segments */
	size_t tail;		/* bytes behind them */
	size_t segs;		/* offset of the segment array */
	size_t nsegs_at;	/* offset of the segment count (size_t) */
	size_t cap;
};

#define LAYOUT(type) {							\
	.size = sizeof(type),						\
	.head = offsetof(type, segs),					\
	.tail = sizeof(type) - offsetof(type, segs) -			\
		sizeof(((type *)0)->segs),				\
	.segs = offsetof(type, segs),					\
	.nsegs_at = offsetof(type, nsegs),				\
	.cap = sizeof(((type *)0)->segs) / sizeof(struct in6_addr),	\
}

static const struct layout route_layout = LAYOUT(struct ctl_route);
static const struct layout sid_layout = LAYOUT(struct ctl_sid);

/* The objects of @w: its route's paths, or its SID. */
static const struct layout *objs_of(const struct fpm_want *w,
				    unsigned char **obj, size_t *n)
{
	struct fpm_want *m = (struct fpm_want *)w;

	if (w->kind == FPM_WANT_ROUTE) {
		*obj = (unsigned char *)m->route;
		*n = ctl_route_paths(m->route);
		return &route_layout;
	}
	*obj = (unsigned char *)&m->sid;
	*n = 1;
	return &sid_layout;
}

static size_t nsegs_of(const struct layout *l, const unsigned char *obj)
{
	size_t n;

	memcpy(&n, obj + l->nsegs_at, sizeof(n));
	return n;
}

struct fpm_stored *fpm_store(const struct fpm_want *w)
{
	size_t i, n, len = 0, segs;
	const struct layout *l;
	struct fpm_stored *s;
	unsigned char *obj, *at;

	l = objs_of(w, &obj, &n);
	if (n > FPM_WANT_PATHS)
		return NULL;
	for (i = 0; i < n; i++) {
		segs = nsegs_of(l, obj + i * l->size);
		if (segs > l->cap)
			return NULL;
		len += l->head + l->tail + segs * sizeof(struct in6_addr);
	}
	s = malloc(sizeof(*s) + len);
	if (!s)
		return NULL;
	s->kind = w->kind;
	s->vrftable = w->vrftable;
	s->nobjs = n;
	for (i = 0, at = s->data; i < n; i++, obj += l->size) {
		segs = nsegs_of(l, obj) * sizeof(struct in6_addr);
		memcpy(at, obj, l->head);
		memcpy(at + l->head, obj + l->size - l->tail, l->tail);
		memcpy(at + l->head + l->tail, obj + l->segs, segs);
		at += l->head + l->tail + segs;
	}
	return s;
}

void fpm_load(const struct fpm_stored *s, struct fpm_want *w)
{
	const struct layout *l;
	const unsigned char *at = s->data;
	unsigned char *obj;
	size_t i, n, segs;

	/* Only what is used: the unused paths stay as they were. */
	w->kind = s->kind;
	w->vrftable = s->vrftable;
	memset(&w->sid, 0, sizeof(w->sid));
	l = objs_of(w, &obj, &n);
	for (i = 0; i < s->nobjs; i++, obj += l->size) {
		memset(obj, 0, l->size);
		memcpy(obj, at, l->head);
		memcpy(obj + l->size - l->tail, at + l->head, l->tail);
		segs = nsegs_of(l, obj) * sizeof(struct in6_addr);
		memcpy(obj + l->segs, at + l->head + l->tail, segs);
		at += l->head + l->tail + segs;
	}
	if (s->kind != FPM_WANT_ROUTE)
		memset(w->route, 0, sizeof(w->route[0]));
}

enum fpm_want_kind fpm_stored_kind(const struct fpm_stored *s)
{
	return s->kind;
}

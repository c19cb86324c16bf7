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
	size_t nsegs;
	unsigned char data[];	/* head, tail, nsegs segments */
};

/* Where a route's or a SID's segment array lies in it. */
struct layout {
	unsigned char *obj;
	size_t size;		/* of the whole struct */
	size_t head;		/* bytes in front of the segments */
	size_t tail;		/* bytes behind them */
	struct in6_addr *segs;
	size_t nsegs, cap;
};

#define LAYOUT(o) {							\
	.obj = (unsigned char *)(o),					\
	.size = sizeof(*(o)),						\
	.head = offsetof(__typeof__(*(o)), segs),			\
	.tail = sizeof(*(o)) - offsetof(__typeof__(*(o)), segs) -	\
		sizeof((o)->segs),					\
	.segs = (o)->segs,						\
	.nsegs = (o)->nsegs,						\
	.cap = sizeof((o)->segs) / sizeof((o)->segs[0]),		\
}

static struct layout layout_of(const struct fpm_want *w)
{
	struct fpm_want *m = (struct fpm_want *)w;

	if (w->kind == FPM_WANT_ROUTE) {
		struct layout l = LAYOUT(&m->route);

		return l;
	} else {
		struct layout l = LAYOUT(&m->sid);

		return l;
	}
}

struct fpm_stored *fpm_store(const struct fpm_want *w)
{
	struct layout l = layout_of(w);
	size_t segs = l.nsegs * sizeof(*l.segs);
	struct fpm_stored *s;

	if (l.nsegs > l.cap)
		return NULL;
	s = malloc(sizeof(*s) + l.head + l.tail + segs);
	if (!s)
		return NULL;
	s->kind = w->kind;
	s->vrftable = w->vrftable;
	s->nsegs = l.nsegs;
	memcpy(s->data, l.obj, l.head);
	memcpy(s->data + l.head, l.obj + l.size - l.tail, l.tail);
	memcpy(s->data + l.head + l.tail, l.segs, segs);
	return s;
}

void fpm_load(const struct fpm_stored *s, struct fpm_want *w)
{
	struct layout l;

	memset(w, 0, sizeof(*w));
	w->kind = s->kind;
	w->vrftable = s->vrftable;
	l = layout_of(w);
	memcpy(l.obj, s->data, l.head);
	memcpy(l.obj + l.size - l.tail, s->data + l.head, l.tail);
	memcpy(l.segs, s->data + l.head + l.tail, s->nsegs * sizeof(*l.segs));
}

enum fpm_want_kind fpm_stored_kind(const struct fpm_stored *s)
{
	return s->kind;
}

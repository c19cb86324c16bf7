// SPDX-License-Identifier: GPL-2.0
/*
 * libseg6x's error state (what ctl_error(), ctl_extack(), ctl_errno()
 * return, and warnings), and the lists that dumps fill.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_nl.h"

const char *ctl_error(const struct ctl *c)
{
	return c->error[0] ? c->error : NULL;
}

const char *ctl_extack(const struct ctl *c)
{
	return c->extack[0] ? c->extack : NULL;
}

int ctl_errno(const struct ctl *c)
{
	return c->err;
}

void ctl_on_warning(struct ctl *c, void (*fn)(const char *msg, void *arg),
		    void *arg)
{
	c->warn_fn = fn;
	c->warn_arg = arg;
}

void ctl_clear_error(struct ctl *c)
{
	c->err = 0;
	c->error[0] = '\0';
	c->extack[0] = '\0';
}

int ctl_fail(struct ctl *c, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->error, sizeof(c->error), fmt, ap);
	va_end(ap);
	c->err = err;
	return err;
}

int ctl_fail_extack(struct ctl *c, int err, const char *text)
{
	snprintf(c->extack, sizeof(c->extack), "%s", text);
	c->err = err;
	return err;
}

void ctl_warn(struct ctl *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!c->warn_fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->warn_fn(msg, c->warn_arg);
}

int ctl_msg_abort(struct ctl *c, struct nl_msg *msg)
{
	nlmsg_free(msg);
	return ctl_fail(c, -EMSGSIZE, "netlink message too long");
}

void *ctl_list_add(struct ctl_list *l)
{
	char *item;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		void *items = reallocarray(l->items, cap, l->size);

		if (!items)
			return NULL;
		l->items = items;
		l->cap = cap;
	}
	item = (char *)l->items + l->n++ * l->size;
	memset(item, 0, l->size);
	return item;
}

int ctl_list_end(int err, struct ctl_list *l, void **items, size_t *n)
{
	if (err) {
		free(l->items);
		l->items = NULL;
		l->n = 0;
	}
	*items = l->items;
	*n = l->n;
	return err;
}


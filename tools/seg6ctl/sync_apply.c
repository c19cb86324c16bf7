// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl sync: takes the plan's steps, one netlink request each. A step
 * that cannot be taken (another owner holds the place, a device is
 * missing, the kernel refuses) is reported and the others go on, as
 * "-force -b" does: what can be made true is.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "conn.h"
#include "report.h"
#include "sync.h"

static int apply_key(const struct plan_step *s)
{
	const struct conf_key *k = s->want;
	const struct ctl_key *have = s->have;

	if (s->op == PLAN_DEL)
		return ctl_hmac_del(conn(), have->keyid);
	return ctl_hmac_set(conn(), k->keyid, k->algo, k->secret, k->len);
}

static int apply_route(const struct plan_step *s)
{
	const struct conf_route *w = s->want;

	if (s->op == PLAN_DEL)
		return ctl_route_del(conn(), s->have);
	/* An add never replaces: a route that is not seg6x's may be there. */
	return ctl_route_add(conn(), w->r, s->op == PLAN_CHANGE);
}

static int apply_sid(const struct plan_step *s)
{
	const struct conf_sid *w = s->want;
	const struct ctl_sid *have = s->have;

	if (s->op == PLAN_DEL)
		return ctl_sid_del(conn(), &have->prefix, have->len);
	return ctl_sid_set(conn(), &w->s, s->op == PLAN_CHANGE);
}

static int apply_step(const struct plan_step *s)
{
	switch (s->obj) {
	case PLAN_TUNSRC:
		return ctl_tunsrc_set(conn(), &s->tunsrc);
	case PLAN_KEY:
		return apply_key(s);
	case PLAN_IFACE:
		return ctl_iface_set(conn(), &s->iface);
	case PLAN_ROUTE:
		return apply_route(s);
	case PLAN_SID:
		return apply_sid(s);
	}
	return -EINVAL;
}

/* The line of the file that declared the step's entry; 0 if none. */
static unsigned int step_line(const struct plan_step *s)
{
	if (!s->want)
		return 0;
	switch (s->obj) {
	case PLAN_TUNSRC:
		return ((const struct conf *)s->want)->tunsrc_line;
	case PLAN_KEY:
		return ((const struct conf_key *)s->want)->line;
	case PLAN_IFACE:
		return ((const struct conf_iface *)s->want)->line;
	case PLAN_ROUTE:
		return ((const struct conf_route *)s->want)->line;
	case PLAN_SID:
		return ((const struct conf_sid *)s->want)->line;
	}
	return 0;
}

/* Takes @s, or says why it cannot be taken; 0 or -1. */
static int take(const struct plan_step *s)
{
	static const char *const verbs[] = {
		[PLAN_ADD] = "cannot add", [PLAN_CHANGE] = "cannot change",
		[PLAN_DEL] = "cannot delete", [PLAN_CONFLICT] = "cannot set",
	};
	char name[128], what[160], note[128];
	int err;

	sync_step_name(s, name, sizeof(name));
	snprintf(what, sizeof(what), "%s %s", verbs[s->op], name);
	if (s->why == WHY_OWNER || s->why == WHY_NODEV) {
		sync_step_note(s, note, sizeof(note));
		pr_err("%s: %s%s", what, note, s->why == WHY_OWNER ?
		       " (seg6ctl sync --all-owners, or name the owner in the file)" : "");
		return -1;
	}
	err = apply_step(s);
	if (!err)
		return 0;
	if (s->op == PLAN_ADD && s->obj == PLAN_ROUTE && err == -EEXIST)
		snprintf(what + strlen(what), sizeof(what) - strlen(what),
			 " (a route that is not seg6x's holds its place)");
	report_ctl_for(what, err);
	return -1;
}

int sync_apply(const struct plan *p, const char *file)
{
	unsigned int failed = 0;
	size_t i;

	for (i = 0; i < p->n; i++) {
		unsigned int line = step_line(&p->steps[i]);

		report_set_line(line ? file : NULL, line);
		if (take(&p->steps[i]))
			failed++;
	}
	report_set_line(NULL, 0);
	if (!failed)
		return EXIT_OK;
	pr_err("%s: %u of %zu changes failed", file, failed, p->n);
	return EXIT_FAIL;
}

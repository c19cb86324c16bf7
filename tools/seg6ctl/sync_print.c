// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl sync --dry-run: the plan, one step per line, each entry in the
 * syntax of its add or set command ("+ route fc00::/64 mode encap ...",
 * "- sid fc00::1/128 behavior End", "~ hmac 7 sha256 # ..."), or as one
 * JSON array of objects with "action", "object", the entry's fields and
 * "note".
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "json.h"
#include "match.h"
#include "out.h"
#include "parse.h"
#include "sync.h"

static const char sigils[] = {
	[PLAN_ADD] = '+', [PLAN_CHANGE] = '~', [PLAN_DEL] = '-',
	[PLAN_CONFLICT] = '!',
};

static const char *const actions[] = {
	[PLAN_ADD] = "add", [PLAN_CHANGE] = "change", [PLAN_DEL] = "delete",
	[PLAN_CONFLICT] = "conflict",
};

static const char *const objects[] = {
	[PLAN_TUNSRC] = "tunsrc", [PLAN_KEY] = "hmac", [PLAN_IFACE] = "iface",
	[PLAN_ROUTE] = "route", [PLAN_SID] = "sid",
};

/* The route to print: the file's with the metric the kernel gives it. */
static const struct ctl_route *want_route(const struct conf_route *w)
{
	static struct ctl_route r[CTL_MAX_PATHS];

	memcpy(r, w->r, ctl_route_paths(w->r) * sizeof(r[0]));
	r->metric = match_route_metric(r);
	r->has_metric = true;
	return r;
}

/* The devices of @w's paths, as route_fields() takes them. */
static const char *const *want_devs(const struct conf_route *w)
{
	static const char *devs[CTL_MAX_PATHS];
	size_t i;

	for (i = 0; i < ctl_route_paths(w->r); i++)
		devs[i] = w->devs[i];
	return devs;
}

static void key_fields(struct out *o, uint32_t keyid, uint8_t algo)
{
	char id[11], num[11];
	const char *name = cli_name_or_number(hmac_algo_name(algo), algo, num);

	if (o->jw) {
		json_uint(o->jw, "keyid", keyid);
		json_string(o->jw, "algo", name);
		return;
	}
	snprintf(id, sizeof(id), "%u", keyid);
	out_lead(o, "keyid", id);
	out_text_flag(o, name);
}

static void iface_fields(struct out *o, const struct plan_step *s)
{
	out_lead(o, "ifname", s->ifname);
	if (s->iface.has_seg6_enabled)
		out_uint(o, "seg6_enabled", s->iface.seg6_enabled);
	if (s->iface.has_require_hmac)
		out_int(o, "require_hmac", s->iface.require_hmac);
}

static void entry_fields(struct out *o, const struct plan_step *s)
{
	const struct conf_route *wr = s->want;
	const struct conf_sid *ws = s->want;
	const struct conf_key *wk = s->want;
	const struct ctl_key *hk = s->have;
	char addr[INET6_ADDRSTRLEN];

	switch (s->obj) {
	case PLAN_TUNSRC:
		out_lead(o, "tunsrc", inet_ntop(AF_INET6, &s->tunsrc, addr,
						sizeof(addr)));
		break;
	case PLAN_KEY:
		key_fields(o, wk ? wk->keyid : hk->keyid, wk ? wk->algo : hk->algo);
		break;
	case PLAN_IFACE:
		iface_fields(o, s);
		break;
	case PLAN_ROUTE:
		if (!wr) {
			route_fields(o, s->have, false, NULL);
			break;
		}
		route_fields(o, want_route(wr), false, want_devs(wr));
		break;
	case PLAN_SID:
		if (ws)
			sid_fields(o, &ws->s, false, ws->dev, ws->vrf);
		else
			sid_fields(o, s->have, false, NULL, NULL);
		break;
	}
}

static void print_step(struct json_writer *jw, const struct plan_step *s)
{
	char note[128];
	struct out o;

	sync_step_note(s, note, sizeof(note));
	out_start(&o, jw);
	if (jw) {
		json_string(jw, "action", actions[s->op]);
		json_string(jw, "object", objects[s->obj]);
	} else {
		printf("%c %s ", sigils[s->op], objects[s->obj]);
	}
	entry_fields(&o, s);
	if (*note && jw)
		json_string(jw, "note", note);
	else if (*note)
		printf(" # %s", note);
	out_end(&o);
}

void sync_print(const struct plan *p)
{
	struct json_writer jw;
	size_t i;

	json_init(&jw, stdout, opts.pretty);
	if (opts.json)
		json_open_array(&jw, NULL);
	for (i = 0; i < p->n; i++)
		print_step(opts.json ? &jw : NULL, &p->steps[i]);
	if (opts.json)
		json_close_array(&jw);
}

const char *sync_step_missing_dev(const struct plan_step *s)
{
	const struct conf_route *wr = s->want;
	const struct conf_sid *ws = s->want;
	size_t i;

	if (s->why != WHY_NODEV)
		return "";
	switch (s->obj) {
	case PLAN_ROUTE:
		for (i = 0; i < ctl_route_paths(wr->r); i++)
			if (!wr->r[i].oif)
				return wr->devs[i];
		return "";
	case PLAN_SID:
		return (ws->s.attrs & CTL_SID_F(SEG6X_SID_OIF)) && !ws->s.oif ?
		       ws->dev : ws->vrf;
	case PLAN_IFACE:
		return s->ifname;
	default:
		return "";
	}
}

/* The owner of the running entry of a conflict, by name if it has one. */
static const char *have_owner(const struct plan_step *s, char buf[11])
{
	const struct ctl_route *r = s->have;
	const struct ctl_sid *sid = s->have;
	unsigned int owner = s->obj == PLAN_ROUTE ? r->owner : sid->owner;

	return cli_name_or_number(ctl_owner_name(owner), owner, buf);
}

void sync_step_note(const struct plan_step *s, char *buf, size_t len)
{
	char owner[11];

	switch (s->why) {
	case WHY_SECRET:
		snprintf(buf, len, "set again: the kernel gives no secret back to compare");
		break;
	case WHY_DEAD:
		snprintf(buf, len, "a device it used is gone: built again");
		break;
	case WHY_PINNED:
		snprintf(buf, len, "its own setting cannot be removed: set to the default's value");
		break;
	case WHY_OWNER:
		snprintf(buf, len, "owner %s holds its place: left alone",
			 have_owner(s, owner));
		break;
	case WHY_NODEV:
		snprintf(buf, len, "no device \"%s\"", sync_step_missing_dev(s));
		break;
	default:
		*buf = '\0';
	}
}

void sync_step_name(const struct plan_step *s, char *buf, size_t len)
{
	const struct conf_route *wr = s->want;
	const struct conf_sid *ws = s->want;
	const struct conf_key *wk = s->want;
	const struct ctl_sid *sid = ws ? &ws->s : s->have;
	const struct ctl_key *hk = s->have;
	char addr[INET6_ADDRSTRLEN];

	switch (s->obj) {
	case PLAN_TUNSRC:
		snprintf(buf, len, "tunsrc");
		break;
	case PLAN_KEY:
		snprintf(buf, len, "hmac %u", wk ? wk->keyid : hk->keyid);
		break;
	case PLAN_IFACE:
		snprintf(buf, len, "iface %s", s->ifname);
		break;
	case PLAN_ROUTE:
		snprintf(buf, len, "route ");
		match_route_place(wr ? wr->r : s->have, buf + strlen(buf),
				  len - strlen(buf));
		break;
	case PLAN_SID:
		snprintf(buf, len, "sid %s/%u", inet_ntop(AF_INET6, &sid->prefix,
							  addr, sizeof(addr)),
			 sid->len);
		break;
	}
}

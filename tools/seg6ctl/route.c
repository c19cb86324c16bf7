// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl route: routes carrying seg6x's lightweight-tunnel encapsulation
 * (ctl_route.c speaks rtnetlink for them). seg6ctl deletes, shows and
 * flushes only those, never plain routes of the same prefix.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/rtnetlink.h>

#include "cli.h"
#include "common.h"
#include "conf.h"
#include "conn.h"
#include "json.h"
#include "libseg6x.h"
#include "out.h"
#include "parse.h"
#include "report.h"
#include "rt_tables.h"

static const char usage[] =
	"Usage: seg6ctl route { add | replace } PREFIX mode { encap | inline }\n"
	"                     segs SEG[,SEG...] [hmac KEYID] dev IFNAME\n"
	"                     [via NEXTHOP] [table ID] [metric N] [owner OWNER]\n"
	"       seg6ctl route { add | replace } PREFIX [table ID] [metric N]\n"
	"                     [owner OWNER] nexthop PATH [nexthop PATH...]\n"
	"       seg6ctl route { del | delete } PREFIX [dev IFNAME] [table ID]\n"
	"                     [metric N]\n"
	"       seg6ctl route { show | list } [table { ID | all } | all]\n"
	"       seg6ctl route flush [table { ID | all } | all]\n"
	"PREFIX := { ADDRESS[/LENGTH] | default }, IPv6 or IPv4; default is ::/0\n"
	"SEG := IPv6 address; at most 64 segments, or 14 with hmac\n"
	"OWNER := { fpmd | 0..255 }, the program that installs the route\n"
	"PATH := mode { encap | inline } segs SEG[,SEG...] [hmac KEYID] dev IFNAME\n"
	"        [via NEXTHOP] [weight 1..256]: one of a multipath route's, at most\n"
	"        64; an IPv6 one needs via\n"
	"ID := { main | local | default | NAME | 1..4294967295 }, main if not\n"
	"      given; NAME from /etc/iproute2/rt_tables\n"
	"\"encap seg6 mode ...\" (as ip route writes it) is \"mode ...\".\n";

/* The keywords after PREFIX; each takes one value. */
enum route_key {
	KEY_ENCAP,
	KEY_MODE,
	KEY_SEGS,
	KEY_HMAC,
	KEY_DEV,
	KEY_VIA,
	KEY_TABLE,
	KEY_METRIC,
	KEY_OWNER,
	KEY_WEIGHT,
	NR_KEYS,
};

static const char *const key_names[NR_KEYS] = {
	[KEY_ENCAP]	= "encap",
	[KEY_MODE]	= "mode",
	[KEY_SEGS]	= "segs",
	[KEY_HMAC]	= "hmac",
	[KEY_DEV]	= "dev",
	[KEY_VIA]	= "via",
	[KEY_TABLE]	= "table",
	[KEY_METRIC]	= "metric",
	[KEY_OWNER]	= "owner",
	[KEY_WEIGHT]	= "weight",
};

/* One path of a multipath route, and what its "nexthop" words follow. */
#define KEYS_PATH	(1u << KEY_ENCAP | 1u << KEY_MODE | 1u << KEY_SEGS | \
			 1u << KEY_HMAC | 1u << KEY_DEV | 1u << KEY_VIA | \
			 1u << KEY_WEIGHT)
#define KEYS_MULTI	(1u << KEY_TABLE | 1u << KEY_METRIC | 1u << KEY_OWNER)
#define KEYS_ADD	(((1u << NR_KEYS) - 1) & ~(1u << KEY_WEIGHT))
#define KEYS_DEL	(1u << KEY_DEV | 1u << KEY_TABLE | 1u << KEY_METRIC)
#define KEYS_SHOW	(1u << KEY_TABLE)

static int collect_keys(int argc, char **argv, unsigned int allowed,
			const char *val[NR_KEYS])
{
	return cli_keys("route", argc, argv, key_names, NR_KEYS, allowed, val);
}

static int get_prefix(const char *s, struct inet_prefix *dst)
{
	switch (parse_route_prefix(s, dst)) {
	case 0:
		return EXIT_OK;
	case -ERANGE:
		return usage_error("route", "prefix length out of range in \"%s\" (0..%zu)",
				   s, inet_addr_len(dst->addr.family) * 8);
	case -EDOM:
		return usage_error("route", "prefix \"%s\" has host bits set", s);
	}
	return usage_error("route", "invalid prefix \"%s\"", s);
}

static int get_table(const char *s, uint32_t *table)
{
	if (!s) {
		*table = RT_TABLE_MAIN;
		return EXIT_OK;
	}
	if (!parse_table(s, table))
		return EXIT_OK;
	/* Table 0 (unspec in rt_tables) holds no route. */
	if (!isdigit((unsigned char)*s) && rt_tables_lookup(s, table) && *table)
		return EXIT_OK;
	return usage_error("route",
			   "invalid table \"%s\" (a name from rt_tables, main, local, default or 1..4294967295)",
			   s);
}

/*
 * The segment limit depends on hmac and mode, so segs is checked after
 * them. An inline route's HMAC covers the original destination too:
 * one segment fewer.
 */
static int get_segs(const char *s, struct ctl_route *r)
{
	bool inline_hmac = r->has_hmac && r->mode == SEG6X_IPTUN_MODE_INLINE;
	size_t max = r->has_hmac ? SEG6X_MAX_SEGS_HMAC - inline_hmac :
				   SEG6X_MAX_SEGS;
	int err = parse_segs(s, r->segs, SEG6X_MAX_SEGS, &r->nsegs);

	if (err == -E2BIG || (!err && r->nsegs > max))
		return usage_error("route", "too many segments (at most %zu%s)",
				   max, inline_hmac ? " with hmac in inline mode" :
				   r->has_hmac ? " with hmac" : "");
	if (err)
		return usage_error("route", "invalid segment list \"%s\"", s);
	if (in6_first_of_kind(r->segs, r->nsegs,
			      IN6_KIND_ANY | IN6_KIND_MULTICAST) >= 0)
		return usage_error("route", "segments must be unicast addresses (in \"%s\")",
				   s);
	return EXIT_OK;
}

static int get_via(const char *s, struct ctl_route *r)
{
	if (parse_inet_addr(s, &r->via))
		return usage_error("route", "invalid next hop \"%s\"", s);
	/* An IPv4 route may go via IPv6 (RTA_VIA); the reverse cannot. */
	if (r->dst.addr.family == AF_INET6 && r->via.family == AF_INET)
		return usage_error("route", "an IPv6 route needs an IPv6 next hop");
	r->has_via = true;
	return EXIT_OK;
}

/* What add needs besides PREFIX, and the mode. */
static int get_encap(const char *val[NR_KEYS], struct ctl_route *r)
{
	int mode;

	if (!val[KEY_MODE])
		return usage_error("route", "missing mode");
	if (!val[KEY_SEGS])
		return usage_error("route", "missing segs");
	if (!val[KEY_DEV])
		return usage_error("route", "missing dev");
	/* ip route's spelling: "encap seg6 mode encap segs ..." */
	if (val[KEY_ENCAP] && strcmp(val[KEY_ENCAP], "seg6"))
		return usage_error("route", "unknown encap \"%s\" (only seg6)",
				   val[KEY_ENCAP]);
	mode = parse_mode(val[KEY_MODE]);
	if (mode < 0)
		return usage_error("route", "unknown mode \"%s\" (encap or inline)",
				   val[KEY_MODE]);
	if (mode == SEG6X_IPTUN_MODE_INLINE && r->dst.addr.family != AF_INET6)
		return usage_error("route", "inline mode works on IPv6 routes only");
	r->mode = (uint8_t)mode;
	return EXIT_OK;
}

/* The numbers among the keywords: hmac, metric, weight. */
static int get_numbers(const char *val[NR_KEYS], struct ctl_route *r)
{
	uint32_t weight;
	int status;

	if (val[KEY_HMAC]) {
		status = cli_u32("route", "hmac KEYID", val[KEY_HMAC], 1,
				 UINT32_MAX, &r->hmac);
		if (status)
			return status;
		r->has_hmac = true;
	}
	if (val[KEY_METRIC]) {
		status = cli_u32("route", "metric", val[KEY_METRIC], 0,
				 UINT32_MAX, &r->metric);
		if (status)
			return status;
		r->has_metric = true;
	}
	if (val[KEY_WEIGHT]) {
		status = cli_u32("route", "weight", val[KEY_WEIGHT], 1, 256,
				 &weight);
		if (status)
			return status;
		r->weight = (uint16_t)weight;
	}
	return EXIT_OK;
}

/*
 * Fills @r from the keywords @allowed (after PREFIX, or of one path);
 * @dev is set to the device name, resolved by the caller once the
 * syntax is known good.
 */
static int parse_keys(int argc, char **argv, unsigned int allowed,
		      struct ctl_route *r, const char **dev)
{
	const char *val[NR_KEYS] = { NULL };
	int status;

	status = collect_keys(argc, argv, allowed, val);
	if (!status && (allowed & 1u << KEY_TABLE))
		status = get_table(val[KEY_TABLE], &r->table);
	if (!status && (allowed & 1u << KEY_MODE))
		status = get_encap(val, r);
	if (!status)
		status = get_numbers(val, r);
	if (!status && val[KEY_SEGS])
		status = get_segs(val[KEY_SEGS], r);
	if (!status && val[KEY_VIA])
		status = get_via(val[KEY_VIA], r);
	if (status)
		return status;
	if (val[KEY_OWNER] && ctl_owner_lookup(val[KEY_OWNER], &r->owner))
		return usage_error("route", "invalid owner \"%s\" (fpmd or 0..255)",
				   val[KEY_OWNER]);
	*dev = val[KEY_DEV];
	return EXIT_OK;
}

/* PREFIX and the keywords @allowed, into @r. */
static int parse_route(int argc, char **argv, unsigned int allowed,
		       struct ctl_route *r, const char **dev)
{
	int status;

	if (argc < 1)
		return usage_error("route", "missing PREFIX");
	status = get_prefix(argv[0], &r->dst);
	return status ? status : parse_keys(argc - 1, argv + 1, allowed, r, dev);
}

static int nexthop_word(int argc, char **argv, int from)
{
	int i;

	for (i = from; i < argc; i++)
		if (!strcmp(argv[i], "nexthop"))
			return i;
	return argc;
}

/*
 * PREFIX [table ID] [metric N] [owner OWNER] nexthop PATH...: the run @r
 * (each path with the route's key), @devs its device names.
 */
static int parse_multipath(int argc, char **argv, struct ctl_route *r,
			   const char **devs)
{
	int at = nexthop_word(argc, argv, 1), next, status;
	struct ctl_route key = { 0 };
	const char *unused;
	size_t n = 0;

	status = parse_route(at, argv, KEYS_MULTI, &key, &unused);
	for (; !status && at < argc; at = next, n++) {
		next = nexthop_word(argc, argv, at + 1);
		if (n == CTL_MAX_PATHS)
			return usage_error("route", "more than %d nexthops",
					   CTL_MAX_PATHS);
		r[n] = key;
		status = parse_keys(next - at - 1, argv + at + 1, KEYS_PATH,
				    &r[n], &devs[n]);
		if (!status && r->dst.addr.family == AF_INET6 && !r[n].has_via)
			status = usage_error("route", "an IPv6 multipath route needs via on every nexthop");
	}
	r->npaths = (uint16_t)n;
	return status;
}

static int route_add(int argc, char **argv, bool replace)
{
	/* 64 paths of 1.1 KB: not on the stack, and zeroed as used. */
	static struct ctl_route r[CTL_MAX_PATHS];
	const char *devs[CTL_MAX_PATHS] = { NULL };
	size_t i;
	int status;

	if (nexthop_word(argc, argv, 1) < argc) {
		status = parse_multipath(argc, argv, r, devs);
	} else {
		memset(r, 0, sizeof(r[0]));
		status = parse_route(argc, argv, KEYS_ADD, r, &devs[0]);
	}
	for (i = 0; !status && i < ctl_route_paths(r); i++)
		status = cli_ifindex(devs[i], &r[i].oif);
	if (!status && opts.collect)
		return conf_route(opts.collect, r, devs, replace);
	return status ? status : ctl_route_add(conn(), r, replace);
}

/*
 * ip would delete whichever route matches; seg6ctl deletes only seg6x
 * routes, so it looks first and then names the route it found exactly
 * (device and metric; every path of a multipath route), never a plain
 * route of the same prefix.
 */
static int route_del(int argc, char **argv)
{
	static struct ctl_route found[CTL_MAX_PATHS];
	struct ctl_route r = { 0 };
	const char *dev;
	bool other;
	int status;

	status = parse_route(argc, argv, KEYS_DEL, &r, &dev);
	if (!status && dev)
		status = cli_ifindex(dev, &r.oif);
	/* -c: which route it deletes is the target machine's to say. */
	if (status || opts.check)
		return status;
	status = ctl_route_find(conn(), &r, found, &other);
	if (status == -ESRCH && other) {
		pr_err("%s is not a seg6x route", argv[0]);
		return EXIT_FAIL;
	}
	return status ? status : ctl_route_del(conn(), found);
}

/* Routes that show and flush look at. */
struct route_filter {
	bool all_tables;
	uint32_t table;
};

static int parse_filter(int argc, char **argv, struct route_filter *f)
{
	const char *val[NR_KEYS] = { NULL };
	int status;

	/* "show all" is short for "show table all", as seg6ctl(8) has it. */
	if (argc == 1 && !strcmp(argv[0], "all")) {
		f->all_tables = true;
		return EXIT_OK;
	}
	status = collect_keys(argc, argv, KEYS_SHOW, val);
	if (status)
		return status;
	if (val[KEY_TABLE] && !strcmp(val[KEY_TABLE], "all")) {
		f->all_tables = true;
		return EXIT_OK;
	}
	return get_table(val[KEY_TABLE], &f->table);
}

static const char *format_addr(const struct inet_addr *a, char *buf, size_t len)
{
	return inet_ntop(a->family, a->bytes, buf, (socklen_t)len);
}

/* A path's encapsulation and next hop; @dev: its name if given. */
static void path_fields(struct out *o, const struct ctl_route *r,
			const char *dev)
{
	char addr[INET6_ADDRSTRLEN], ifname[IF_NAMESIZE], mode[11];
	size_t i;

	out_str(o, "mode", cli_name_or_number(mode_name(r->mode), r->mode, mode));
	out_list_start(o, "segs");
	for (i = 0; i < r->nsegs; i++)
		out_list_str(o, inet_ntop(AF_INET6, &r->segs[i], addr,
					  sizeof(addr)));
	out_list_end(o);
	if (r->has_hmac)
		out_uint(o, "hmac", r->hmac);
	else
		out_null(o, "hmac");
	if (dev && *dev)
		out_str(o, "dev", dev);
	else if (r->oif)
		out_str(o, "dev", cli_ifname(r->oif, ifname));
	else
		out_null(o, "dev");
	if (r->has_via)
		out_str(o, "via", format_addr(&r->via, addr, sizeof(addr)));
	else
		out_null(o, "via");
}

/*
 * A multipath route's paths: "nexthop PATH..." in text (the syntax of
 * add), "nexthops": [...] in JSON, each with its weight and, with
 * @state, its counters; the route's counters are their sums.
 */
static void paths_fields(struct out *o, const struct ctl_route *r, bool state,
			 const char *const *devs)
{
	size_t i, paths = ctl_route_paths(r);
	uint64_t packets = 0, bytes = 0, errors = 0;
	bool counters = false;

	out_items_start(o, "nexthops");
	for (i = 0; i < paths; i++) {
		out_item_start(o, "nexthop");
		path_fields(o, &r[i], devs ? devs[i] : NULL);
		out_uint(o, "weight", r[i].weight ? r[i].weight : 1);
		if (state && r[i].has_counters)
			out_counters(o, r[i].packets, r[i].bytes, r[i].errors);
		out_group_end(o);
		counters |= r[i].has_counters;
		packets += r[i].packets;
		bytes += r[i].bytes;
		errors += r[i].errors;
	}
	out_items_end(o);
	if (state && counters)
		out_counters(o, packets, bytes, errors);
}

/*
 * In JSON, absent fields are null; with @state, its counters too. Of a
 * multipath route, JSON has the first path's fields as a one-path route
 * has them, and "nexthops" with every path. @devs: the paths' device
 * names, if given.
 */
void route_fields(struct out *o, const struct ctl_route *r, bool state,
		  const char *const *devs)
{
	char addr[INET6_ADDRSTRLEN], mode[11];
	char dst[INET6_ADDRSTRLEN + sizeof("/128")];
	bool multi = ctl_route_paths(r) > 1;

	snprintf(dst, sizeof(dst), "%s/%u",
		 format_addr(&r->dst.addr, addr, sizeof(addr)), r->dst.len);
	out_lead(o, "dst", dst);
	if (!multi || o->jw)
		path_fields(o, r, devs ? devs[0] : NULL);
	/* As ip prints them: nothing for main (the default of add, so save
	 * replays the same), names for local and default; JSON the number.
	 */
	if (o->jw || r->table != RT_TABLE_MAIN)
		out_named(o, "table", r->table, rt_tables_builtin_name(r->table));
	out_uint(o, "metric", r->metric);
	/* Only when set: a program's mark (seg6x-fpmd), kept by save. */
	if (r->owner)
		out_str(o, "owner", cli_name_or_number(ctl_owner_name(r->owner),
						       r->owner, mode));
	/* State, not configuration: never in what save prints. */
	if (multi)
		paths_fields(o, r, state, devs);
	else if (state && r->has_counters)
		out_counters(o, r->packets, r->bytes, r->errors);
}

/*
 * One route, as text (the syntax of add, so that save replays it) or as
 * JSON (@jw), where absent fields are null; with @state, its counters too.
 */
void route_print(struct json_writer *jw, const struct ctl_route *r, bool state)
{
	struct out o;

	out_start(&o, jw);
	route_fields(&o, r, state, NULL);
	out_end(&o);
}

/*
 * show and save print each route as the dump brings it, as ip does: a
 * table of a million routes is never held at once (1.1 KB a route).
 */
struct print_walk {
	struct route_filter f;
	struct json_writer *jw;
	bool save;
};

static int print_one(void *arg, const struct ctl_route *r)
{
	struct print_walk *w = arg;

	if (!w->f.all_tables && r->table != w->f.table)
		return 0;
	if (w->save) {
		/* The syntax of add; replace makes it idempotent. */
		printf("route replace ");
		route_print(NULL, r, false);
	} else {
		/* -s: what each route did, as ip -s shows it */
		route_print(w->jw, r, opts.stats);
	}
	return 0;
}

int route_save(void)
{
	struct print_walk w = { .f.all_tables = true, .save = true };

	return ctl_route_walk(conn(), print_one, &w);
}

static int route_show(int argc, char **argv)
{
	struct print_walk w = { 0 };
	struct json_writer jw;
	int status = parse_filter(argc, argv, &w.f);

	if (status)
		return status;
	json_init(&jw, stdout, opts.pretty);
	if (opts.json) {
		w.jw = &jw;
		json_open_array(&jw, NULL);
	}
	status = ctl_route_walk(conn(), print_one, &w);
	/* Still a JSON document if the dump failed half way (and said so). */
	if (opts.json)
		json_close_array(&jw);
	return status;
}

/*
 * What a delete needs of a route: ctl_route_del() names it by its
 * prefix, table, device, metric and next hop, all in front of the
 * segment array (1 KB) in struct ctl_route. A flush keeps those bytes
 * of each route, not the route.
 */
#define ROUTE_PLACE	offsetof(struct ctl_route, segs)

struct flush_walk {
	struct route_filter f;
	unsigned char (*places)[ROUTE_PLACE];
	size_t n, cap;
};

static int keep_place(void *arg, const struct ctl_route *r)
{
	struct flush_walk *w = arg;
	size_t i, paths = ctl_route_paths(r);

	if (!w->f.all_tables && r->table != w->f.table)
		return 0;
	/* A multipath route is named by all of its paths. */
	for (i = 0; i < paths; i++) {
		if (w->n == w->cap) {
			size_t cap = w->cap ? 2 * w->cap : 256;
			void *more = realloc(w->places, cap * ROUTE_PLACE);

			if (!more)
				return -ENOMEM;
			w->places = more;
			w->cap = cap;
		}
		memcpy(w->places[w->n++], &r[i], ROUTE_PLACE);
	}
	return 0;
}

/*
 * Deletes what @w kept, in batches of about 64 routes rebuilt from their
 * places; a run is never split.
 */
static int delete_places(const struct flush_walk *w)
{
	static struct ctl_route batch[64 + CTL_MAX_PATHS];
	size_t done = 0, k, j, paths;
	int err = 0;

	while (!err && done < w->n) {
		for (k = 0; k < 64 && done + k < w->n; k += paths) {
			memcpy(&batch[k], w->places[done + k], ROUTE_PLACE);
			paths = ctl_route_paths(&batch[k]);
			for (j = 1; j < paths; j++)
				memcpy(&batch[k + j], w->places[done + k + j],
				       ROUTE_PLACE);
		}
		/* Many deletes to a sendmsg() and one ack, as ip route flush. */
		err = ctl_route_del_many(conn(), batch, k);
		done += k;
	}
	return err;
}

static int route_flush(int argc, char **argv)
{
	struct flush_walk w = { 0 };
	int status = parse_filter(argc, argv, &w.f);

	if (status)
		return status;
	/* A socket takes no request in the middle of its dump: walk first. */
	status = ctl_route_walk(conn(), keep_place, &w);
	if (!status)
		status = delete_places(&w);
	free(w.places);
	return status;
}

static int route_create(int argc, char **argv)
{
	return route_add(argc, argv, false);
}

static int route_replace(int argc, char **argv)
{
	return route_add(argc, argv, true);
}

/* The first is what "seg6ctl route" alone does. */
static const struct cli_cmd route_cmds[] = {
	CLI_SHOW(route_show, "list seg6x routes"),
	{ "lst", route_show, NULL, NULL, true },
	{ "add", route_create, "add a route", NULL, false },
	{ "replace", route_replace, "add a route or replace one", NULL, false },
	{ "del", route_del, "delete a route", NULL, false },
	{ "delete", route_del, NULL, NULL, false },
	{ "flush", route_flush, "delete seg6x routes", NULL, false },
	CLI_HELP,
	CLI_END,
};

const struct cli_object route_object = { "route", usage, route_cmds };

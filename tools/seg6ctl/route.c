// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl route: routes carrying seg6x's lightweight-tunnel encapsulation,
 * over rtnetlink. The encap type is not a constant: the module claims a
 * free LWT slot when it loads and reports it through SEG6X_CMD_INFO_GET,
 * so every command that builds or recognises such routes asks first.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "info.h"
#include "json.h"
#include "report.h"
#include "route.h"
#include "rt_tables.h"
#include "seg6ctl.h"

static const char usage[] =
	"Usage: seg6ctl route { add | replace } PREFIX mode { encap | inline }\n"
	"                     segs SEG[,SEG...] [hmac KEYID] dev IFNAME\n"
	"                     [via NEXTHOP] [table ID] [metric N]\n"
	"       seg6ctl route { del | delete } PREFIX [dev IFNAME] [table ID]\n"
	"                     [metric N]\n"
	"       seg6ctl route { show | list } [table { ID | all } | all]\n"
	"       seg6ctl route flush [table { ID | all } | all]\n"
	"PREFIX := { ADDRESS[/LENGTH] | default }, IPv6 or IPv4; default is ::/0\n"
	"SEG := IPv6 address; at most 64 segments, or 14 with hmac\n"
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
};

#define KEYS_ADD	((1u << NR_KEYS) - 1)
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

/* The segment limit depends on hmac, so segs is checked after it. */
static int get_segs(const char *s, struct seg6x_route *r)
{
	size_t max = r->has_hmac ? SEG6X_MAX_SEGS_HMAC : SEG6X_MAX_SEGS;
	int err = parse_segs(s, r->segs, SEG6X_MAX_SEGS, &r->nsegs);

	if (err == -E2BIG || (!err && r->nsegs > max))
		return usage_error("route", "too many segments (at most %zu%s)",
				   max, r->has_hmac ? " with hmac" : "");
	if (err)
		return usage_error("route", "invalid segment list \"%s\"", s);
	return EXIT_OK;
}

static int get_via(const char *s, struct seg6x_route *r)
{
	if (parse_inet_addr(s, &r->via))
		return usage_error("route", "invalid next hop \"%s\"", s);
	/* An IPv4 route may go via IPv6 (RTA_VIA); the reverse cannot. */
	if (r->dst.addr.family == AF_INET6 && r->via.family == AF_INET)
		return usage_error("route", "an IPv6 route needs an IPv6 next hop");
	r->has_via = true;
	return EXIT_OK;
}

/*
 * Fills @r from PREFIX and the keywords @allowed; @dev is set to the
 * device name, resolved by the caller once the syntax is known good.
 */
static int parse_route(int argc, char **argv, unsigned int allowed,
		       struct seg6x_route *r, const char **dev)
{
	const char *val[NR_KEYS] = { NULL };
	int status;
	int mode;

	if (argc < 1)
		return usage_error("route", "missing PREFIX");
	status = get_prefix(argv[0], &r->dst);
	if (!status)
		status = collect_keys(argc - 1, argv + 1, allowed, val);
	if (!status)
		status = get_table(val[KEY_TABLE], &r->table);
	if (status)
		return status;

	if (allowed & 1u << KEY_MODE) {
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
		r->mode = (uint8_t)mode;
	}
	if (val[KEY_HMAC]) {
		status = cli_u32("route", "hmac KEYID", val[KEY_HMAC], 1,
				 UINT32_MAX, &r->hmac);
		if (status)
			return status;
		r->has_hmac = true;
	}
	if (val[KEY_SEGS]) {
		status = get_segs(val[KEY_SEGS], r);
		if (status)
			return status;
	}
	if (val[KEY_VIA]) {
		status = get_via(val[KEY_VIA], r);
		if (status)
			return status;
	}
	if (val[KEY_METRIC]) {
		status = cli_u32("route", "metric", val[KEY_METRIC], 0,
				 UINT32_MAX, &r->metric);
		if (status)
			return status;
		r->has_metric = true;
	}
	*dev = val[KEY_DEV];
	return EXIT_OK;
}

static int route_add(int argc, char **argv, int flags)
{
	struct seg6x_route r = { 0 };
	struct seg6x_info info;
	struct nl_msg *msg;
	const char *dev;
	int status;

	status = parse_route(argc, argv, KEYS_ADD, &r, &dev);
	if (!status)
		status = cli_ifindex(dev, &r.oif);
	if (!status)
		status = seg6x_info_get(&info);
	if (status)
		return status;

	msg = route_msg(RTM_NEWROUTE, flags, &r);
	if (!msg)
		return EXIT_FAIL;
	if (route_put_encap(msg, &r, info.lwt_type))
		return msg_abort(msg);
	return rt_talk(msg, NULL, NULL);
}

/* What route del looks for among the routes, and what it finds. */
struct del_search {
	const struct seg6x_route *want;
	uint16_t lwt_type;
	bool other;			/* a match that is not a seg6x route */
	bool found;
	struct seg6x_route route;	/* the first seg6x route that matches */
};

static int match_route(const struct rtmsg *rtm, struct nlattr **tb, void *arg)
{
	struct del_search *s = arg;
	const struct seg6x_route *w = s->want;
	struct seg6x_route r;
	size_t alen = inet_addr_len(w->dst.addr.family);
	uint8_t dst[16] = { 0 };
	uint32_t table;
	int ret;

	if (rtm->rtm_family != w->dst.addr.family || rtm->rtm_dst_len != w->dst.len)
		return 0;
	if (tb[RTA_DST]) {
		if ((size_t)nla_len(tb[RTA_DST]) < alen)
			return -EBADMSG;
		memcpy(dst, nla_data(tb[RTA_DST]), alen);
	}
	table = tb[RTA_TABLE] ? nla_get_u32(tb[RTA_TABLE]) : rtm->rtm_table;
	if (memcmp(dst, w->dst.addr.bytes, alen) || table != w->table)
		return 0;
	if (w->oif && (!tb[RTA_OIF] || nla_get_u32(tb[RTA_OIF]) != w->oif))
		return 0;
	/* Metric 0 matches any, as the kernel reads it. */
	if (w->has_metric && w->metric &&
	    (!tb[RTA_PRIORITY] || nla_get_u32(tb[RTA_PRIORITY]) != w->metric))
		return 0;

	ret = route_decode(rtm, tb, s->lwt_type, &r);
	if (ret < 0)
		return ret;
	if (!ret) {
		s->other = true;
	} else if (!s->found) {
		/* The first seg6x route is the one the delete names. */
		s->found = true;
		s->route = r;
	}
	return 0;
}

/*
 * ip would delete whichever route matches; seg6ctl deletes only seg6x
 * routes, so it looks first and then names the route it found exactly
 * (device and metric), never a plain route of the same prefix.
 */
static int route_del(int argc, char **argv)
{
	struct seg6x_route r = { 0 };
	struct del_search s = { .want = &r };
	struct seg6x_info info;
	struct rtmsg rtm = { 0 };
	struct nl_msg *msg;
	const char *dev;
	int status;

	status = parse_route(argc, argv, KEYS_DEL, &r, &dev);
	if (!status && dev)
		status = cli_ifindex(dev, &r.oif);
	if (!status)
		status = seg6x_info_get(&info);
	if (status)
		return status;

	s.lwt_type = info.lwt_type;
	rtm.rtm_family = (unsigned char)r.dst.addr.family;
	msg = rt_msg(RTM_GETROUTE, NLM_F_DUMP, &rtm);
	if (!msg)
		return EXIT_FAIL;
	status = rt_talk(msg, match_route, &s);
	if (status)
		return status;
	if (!s.found && s.other) {
		pr_err("%s is not a seg6x route", argv[0]);
		return EXIT_FAIL;
	}
	if (!s.found) {
		pr_err("no such route");
		return EXIT_FAIL;
	}

	msg = route_msg(RTM_DELROUTE, 0, &s.route);
	return msg ? rt_talk(msg, NULL, NULL) : EXIT_FAIL;
}

/* Routes that show and flush look at. */
struct route_filter {
	uint16_t lwt_type;
	bool all_tables;
	uint32_t table;
};

static int parse_filter(int argc, char **argv, struct route_filter *f)
{
	const char *val[NR_KEYS] = { NULL };
	int status;

	/* "show all" is short for "show table all" (contract: [table ID|all]) */
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

static const char *format_mode(uint8_t mode, char buf[4])
{
	const char *name = mode_name(mode);

	if (name)
		return name;
	snprintf(buf, 4, "%u", mode);
	return buf;
}

static void print_text(const struct seg6x_route *r)
{
	char addr[INET6_ADDRSTRLEN], ifname[IF_NAMESIZE], mode[4];
	size_t i;

	printf("%s/%u mode %s segs", format_addr(&r->dst.addr, addr, sizeof(addr)),
	       r->dst.len, format_mode(r->mode, mode));
	for (i = 0; i < r->nsegs; i++)
		printf("%c%s", i ? ',' : ' ',
		       inet_ntop(AF_INET6, &r->segs[i], addr, sizeof(addr)));
	if (r->has_hmac)
		printf(" hmac %u", r->hmac);
	if (r->oif)
		printf(" dev %s", cli_ifname(r->oif, ifname));
	if (r->has_via)
		printf(" via %s", format_addr(&r->via, addr, sizeof(addr)));
	printf(" table %u metric %u\n", r->table, r->metric);
}

static void print_json(struct json_writer *jw, const struct seg6x_route *r)
{
	char addr[INET6_ADDRSTRLEN], ifname[IF_NAMESIZE], mode[4];
	char dst[INET6_ADDRSTRLEN + sizeof("/128")];
	size_t i;

	snprintf(dst, sizeof(dst), "%s/%u",
		 format_addr(&r->dst.addr, addr, sizeof(addr)), r->dst.len);

	json_open_object(jw, NULL);
	json_string(jw, "dst", dst);
	json_string(jw, "mode", format_mode(r->mode, mode));
	json_open_array(jw, "segs");
	for (i = 0; i < r->nsegs; i++)
		json_string(jw, NULL,
			    inet_ntop(AF_INET6, &r->segs[i], addr, sizeof(addr)));
	json_close_array(jw);
	if (r->has_hmac)
		json_uint(jw, "hmac", r->hmac);
	else
		json_null(jw, "hmac");
	if (r->oif)
		json_string(jw, "dev", cli_ifname(r->oif, ifname));
	else
		json_null(jw, "dev");
	if (r->has_via)
		json_string(jw, "via", format_addr(&r->via, addr, sizeof(addr)));
	else
		json_null(jw, "via");
	json_uint(jw, "table", r->table);
	json_uint(jw, "metric", r->metric);
	json_close_object(jw);
}

/* State of a show or flush across its two dumps. */
struct walk {
	struct route_filter filter;
	struct seg6x_route route;	/* scratch for the current message */
	struct json_writer jw;
	bool collect;			/* flush: keep instead of print */
	bool save;			/* save: print as commands */
	struct seg6x_route *found;
	size_t nfound;
	size_t cap;
};

static int keep_route(struct walk *w)
{
	if (w->nfound == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 16;
		struct seg6x_route *found = reallocarray(w->found, cap,
							 sizeof(*found));

		if (!found)
			return -ENOMEM;
		w->found = found;
		w->cap = cap;
	}
	w->found[w->nfound++] = w->route;
	return 0;
}

static int walk_route(const struct rtmsg *rtm, struct nlattr **tb, void *arg)
{
	struct walk *w = arg;
	int ret = route_decode(rtm, tb, w->filter.lwt_type, &w->route);

	if (ret <= 0)
		return ret;
	if (!w->filter.all_tables && w->route.table != w->filter.table)
		return 0;
	if (w->collect)
		return keep_route(w);
	/* The text form is the syntax of add; replace makes it idempotent. */
	if (w->save) {
		printf("route replace ");
		print_text(&w->route);
	} else if (opts.json)
		print_json(&w->jw, &w->route);
	else
		print_text(&w->route);
	return 0;
}

/*
 * Parses the filter, learns seg6x's slot, then dumps the IPv6 routes and
 * the IPv4 ones through walk_route().
 */
static int walk_routes(int argc, char **argv, struct walk *w)
{
	static const int families[] = { AF_INET6, AF_INET };
	struct seg6x_info info;
	size_t i;
	int status;

	status = parse_filter(argc, argv, &w->filter);
	if (!status)
		status = seg6x_info_get(&info);
	if (status)
		return status;
	w->filter.lwt_type = info.lwt_type;

	json_init(&w->jw, stdout, opts.pretty);
	if (opts.json && !w->collect && !w->save)
		json_open_array(&w->jw, NULL);
	for (i = 0; !status && i < ARRAY_SIZE(families); i++) {
		struct rtmsg rtm = { .rtm_family = families[i] };
		struct nl_msg *msg = rt_msg(RTM_GETROUTE, NLM_F_DUMP, &rtm);

		status = msg ? rt_talk(msg, walk_route, w) : EXIT_FAIL;
	}
	/* Even a failed dump leaves a well-formed document behind. */
	if (opts.json && !w->collect && !w->save)
		json_close_array(&w->jw);
	return status;
}

int route_save(void)
{
	struct walk w = { .save = true };
	char *all[] = { "all", NULL };

	return walk_routes(1, all, &w);
}

static int route_show(int argc, char **argv)
{
	struct walk w = { 0 };

	return walk_routes(argc, argv, &w);
}

static int route_flush(int argc, char **argv)
{
	struct walk w = { .collect = true };
	size_t i;
	int status;

	/* A socket takes no request in the middle of its dump: list first. */
	status = walk_routes(argc, argv, &w);
	for (i = 0; !status && i < w.nfound; i++) {
		struct nl_msg *msg = route_msg(RTM_DELROUTE, 0, &w.found[i]);

		status = msg ? rt_talk(msg, NULL, NULL) : EXIT_FAIL;
	}
	free(w.found);
	return status;
}

static int route_create(int argc, char **argv)
{
	return route_add(argc, argv, NLM_F_CREATE | NLM_F_EXCL);
}

static int route_replace(int argc, char **argv)
{
	return route_add(argc, argv, NLM_F_CREATE | NLM_F_REPLACE);
}

static int route_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_help(usage);
}

/* The first is what "seg6ctl route" alone does. */
static const struct cli_cmd route_cmds[] = {
	{ "show",	route_show,	"list seg6x routes" },
	{ "list",	route_show,	NULL },
	{ "ls",		route_show,	NULL },
	{ "lst",	route_show,	NULL },
	{ "add",	route_create,	"add a route" },
	{ "replace",	route_replace,	"add a route or replace one" },
	{ "del",	route_del,	"delete a route" },
	{ "delete",	route_del,	NULL },
	{ "flush",	route_flush,	"delete seg6x routes" },
	{ "help",	route_help,	"print usage" },
	{ NULL,		NULL,		NULL },
};

int do_route(int argc, char **argv)
{
	return cli_dispatch("route", route_cmds, argc, argv);
}

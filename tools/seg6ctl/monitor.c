// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl monitor: every change to seg6x in the namespace as it happens,
 * one line each (or one JSON object per line), like ip monitor. No
 * privilege needed: events never carry an HMAC secret.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>

#include "cli.h"
#include "common.h"
#include "conn.h"
#include "json.h"
#include "libseg6x.h"
#include "report.h"

static const char usage[] =
	"Usage: seg6ctl monitor [ all | OBJECT... ]\n"
	"OBJECT := { route | sid | hmac | tunsrc | iface | stats }\n"
	"Prints each change of the OBJECTs (all of them by default) as it\n"
	"happens: \"[TIME] OBJECT ACTION\" and the object as show prints it,\n"
	"or with -j one JSON object per line. Runs until interrupted.\n";

static const struct {
	const char *name;
	unsigned int bit;
} watchable[] = {
	{ "route",	CTL_MONITOR_ROUTE },
	{ "sid",	CTL_MONITOR_SID },
	{ "hmac",	CTL_MONITOR_HMAC },
	{ "tunsrc",	CTL_MONITOR_TUNSRC },
	{ "iface",	CTL_MONITOR_IFACE },
	{ "stats",	CTL_MONITOR_STATS },
	{ "all",	CTL_MONITOR_ALL },
};

static int parse_objects(int argc, char **argv, unsigned int *objects)
{
	size_t i;
	int a;

	*objects = argc ? 0 : CTL_MONITOR_ALL;
	for (a = 0; a < argc; a++) {
		for (i = 0; i < ARRAY_SIZE(watchable); i++)
			if (!strcmp(argv[a], watchable[i].name))
				break;
		if (i == ARRAY_SIZE(watchable))
			return usage_error("monitor", "cannot watch \"%s\"", argv[a]);
		*objects |= watchable[i].bit;
	}
	return EXIT_OK;
}

/* The event's object and action, as the command that makes it reads. */
static void event_words(enum ctl_event_type t, const char **object,
			const char **action)
{
	static const char *const words[][2] = {
		[CTL_EVENT_ROUTE_ADD]	= { "route", "add" },
		[CTL_EVENT_ROUTE_DEL]	= { "route", "del" },
		[CTL_EVENT_SID_ADD]	= { "sid", "add" },
		[CTL_EVENT_SID_DEL]	= { "sid", "del" },
		[CTL_EVENT_SID_FLUSH]	= { "sid", "flush" },
		[CTL_EVENT_HMAC_SET]	= { "hmac", "set" },
		[CTL_EVENT_HMAC_DEL]	= { "hmac", "del" },
		[CTL_EVENT_TUNSRC_SET]	= { "tunsrc", "set" },
		[CTL_EVENT_IFACE_SET]	= { "iface", "set" },
		[CTL_EVENT_STATS_RESET]	= { "stats", "reset" },
	};

	*object = words[t][0];
	*action = words[t][1];
}

/* Now, in UTC, to the microsecond: 2026-12-06T05:01:02.123456Z. */
static void timestamp(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;
	size_t n;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%06ldZ", ts.tv_nsec / 1000);
}

/* The object the event carries, if any, as show prints it. */
static void print_body(struct json_writer *jw, const struct ctl_event *ev)
{
	char addr[INET6_ADDRSTRLEN];

	switch (ev->type) {
	case CTL_EVENT_ROUTE_ADD:
	case CTL_EVENT_ROUTE_DEL:
		route_print(jw, ev->route, false);
		break;
	case CTL_EVENT_SID_ADD:
	case CTL_EVENT_SID_DEL:
		sid_print(jw, &ev->sid, false);
		break;
	case CTL_EVENT_HMAC_SET:
	case CTL_EVENT_HMAC_DEL:
		hmac_print(jw, &ev->key);
		break;
	case CTL_EVENT_IFACE_SET:
		iface_print(jw, &ev->iface);
		break;
	case CTL_EVENT_TUNSRC_SET:
		inet_ntop(AF_INET6, &ev->tunsrc, addr, sizeof(addr));
		if (jw)
			json_string(jw, NULL, addr);
		else
			puts(addr);
		break;
	case CTL_EVENT_SID_FLUSH:
	case CTL_EVENT_STATS_RESET:
		if (!jw)
			putchar('\n');
		break;
	}
}

static int print_event(const struct ctl_event *ev, void *arg)
{
	const char *object, *action;
	struct json_writer jw;
	char now[40];

	(void)arg;
	timestamp(now, sizeof(now));
	event_words(ev->type, &object, &action);
	if (!opts.json) {
		printf("[%s] %s %s ", now, object, action);
		print_body(NULL, ev);
		fflush(stdout);
		return 0;
	}
	/* {"time": ..., "object": "sid", "action": "add", "sid": {...}} */
	json_init(&jw, stdout, opts.pretty);
	json_open_object(&jw, NULL);
	json_string(&jw, "time", now);
	json_string(&jw, "object", object);
	json_string(&jw, "action", action);
	json_key(&jw, object);
	print_body(&jw, ev);
	json_close_object(&jw);
	return 0;
}

int do_monitor(int argc, char **argv)
{
	unsigned int objects;
	int status;

	if (argc == 1 && !strcmp(argv[0], "help"))
		return cli_help(usage);
	status = parse_objects(argc, argv, &objects);
	if (status || opts.check)
		return status;
	status = ctl_monitor_open(conn(), objects);
	if (!status)
		status = ctl_monitor_run(conn(), print_event, NULL);
	return status;
}

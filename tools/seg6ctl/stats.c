// SPDX-License-Identifier: GPL-2.0
/* seg6ctl stats: the namespace's packet counters. */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "conn.h"
#include "json.h"
#include "libseg6x.h"
#include "out.h"
#include "parse.h"
#include "prom.h"
#include "report.h"

static const char usage[] =
	"Usage: seg6ctl stats [show] [format prometheus]\n"
	"       seg6ctl stats reset\n"
	"format prometheus: the Prometheus text exposition format, the\n"
	"  namespace's counters, those of SIDs added with count and every\n"
	"  interface's drops (for a node_exporter textfile collector;\n"
	"  labelled netns=NETNS with -n).\n";

struct counter {
	int id;
	const char *name;
	const char *help;	/* events: what format prometheus says */
};

/* Printed in this order; drop reasons form a group of their own. */
static const struct counter events[] = {
	{ SEG6X_STAT_ENCAP,		"encap",
	  "Packets encapsulated with an SRH by a route (H.Encaps)." },
	{ SEG6X_STAT_INLINE,		"inline",
	  "Packets that got an SRH inserted by a route (H.Insert)." },
	{ SEG6X_STAT_END,		"end",
	  "SR packets processed as a segment endpoint." },
	{ SEG6X_STAT_DECAP,		"decap",
	  "SR packets decapsulated." },
	{ SEG6X_STAT_HMAC_SIGNED,	"hmac_signed",
	  "SRHs signed with an HMAC TLV." },
	{ SEG6X_STAT_HMAC_VERIFIED,	"hmac_verified",
	  "HMAC TLVs verified." },
	{ SEG6X_STAT_LOCAL,		"local",
	  "SR packets delivered to this node (Segments Left 0)." },
	/* SR packets for this node handed back to the stack (disabled) */
	{ SEG6X_STAT_DROP_DISABLED,	"passed",
	  "SR packets for this node handed back to the stack (seg6x disabled on the interface)." },
};

static const struct counter drops[] = {
	{ SEG6X_STAT_DROP_HMAC_MISSING,	"hmac_missing", NULL },
	{ SEG6X_STAT_DROP_HMAC_INVALID,	"hmac_invalid", NULL },
	{ SEG6X_STAT_DROP_HMAC_NOKEY,	"hmac_nokey", NULL },
	{ SEG6X_STAT_DROP_BAD_SRH,	"bad_srh", NULL },
	{ SEG6X_STAT_DROP_NO_ROUTE,	"no_route", NULL },
	{ SEG6X_STAT_DROP_HOP_LIMIT,	"hop_limit", NULL },
	{ SEG6X_STAT_DROP_NOMEM,	"nomem", NULL },
	{ SEG6X_STAT_DROP_SID,		"sid", NULL },
};

/* Packets each kind of SID processed, in the order of the UAPI's list. */
static const struct counter sids_by_behavior[] = {
#define SID_COUNTER(behavior, name, stat, req, opt, flv) { stat, name, NULL },
	SEG6X_BEHAVIOR_LIST(SID_COUNTER)
#undef SID_COUNTER
};

static void print_text(const uint64_t *values)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(events); i++)
		printf("%-14s %" PRIu64 "\n", events[i].name, values[events[i].id]);
	printf("sid:\n");
	for (i = 0; i < ARRAY_SIZE(sids_by_behavior); i++)
		printf("  %-18s %" PRIu64 "\n", sids_by_behavior[i].name,
		       values[sids_by_behavior[i].id]);
	printf("drop:\n");
	for (i = 0; i < ARRAY_SIZE(drops); i++)
		printf("  %-12s %" PRIu64 "\n", drops[i].name, values[drops[i].id]);
}

/*
 * An interface's drop counters (-s iface show) as a group "drop", with
 * the names of stats' drops; "disabled" is not kept per interface.
 */
void stats_out_drops(struct out *o, const uint64_t *values)
{
	size_t i;

	out_group_start(o, "drop");
	for (i = 0; i < ARRAY_SIZE(drops); i++)
		out_uint(o, drops[i].name, values[drops[i].id]);
	out_group_end(o);
}

static void print_json(const uint64_t *values)
{
	struct json_writer jw;
	size_t i;

	json_init(&jw, stdout, opts.pretty);
	json_open_object(&jw, NULL);
	for (i = 0; i < ARRAY_SIZE(events); i++)
		json_uint(&jw, events[i].name, values[events[i].id]);
	json_open_object(&jw, "sid");
	for (i = 0; i < ARRAY_SIZE(sids_by_behavior); i++)
		json_uint(&jw, sids_by_behavior[i].name,
			  values[sids_by_behavior[i].id]);
	json_close_object(&jw);
	json_open_object(&jw, "drop");
	/* "passed" under its old name, for one more release */
	json_uint(&jw, "disabled", values[SEG6X_STAT_DROP_DISABLED]);
	for (i = 0; i < ARRAY_SIZE(drops); i++)
		json_uint(&jw, drops[i].name, values[drops[i].id]);
	json_close_object(&jw);
	json_close_object(&jw);
}

/* One family of counters told apart by @label (the sum means something). */
static void prom_group(const char *name, const char *help, const char *label,
		       const struct counter *c, size_t n, const uint64_t *values)
{
	size_t i;

	prom_family(name, help);
	for (i = 0; i < n; i++)
		prom_sample(name, label, c[i].name, values[c[i].id]);
}

/*
 * seg6x_NAME_total for each event: a family of its own, as the events
 * overlap (a verified HMAC is also an endpoint's packet) and their sum
 * would mean nothing.
 */
static void prom_events(const uint64_t *values)
{
	char name[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(events); i++) {
		snprintf(name, sizeof(name), "seg6x_%s_total", events[i].name);
		prom_family(name, events[i].help);
		prom_sample(name, NULL, NULL, values[events[i].id]);
	}
}

/* The counters of the SIDs that keep them (sid add ... count). */
static void prom_sids(const struct ctl_sid *sids, size_t n)
{
	static const char *const metric[] = {
		"seg6x_sid_packets_total", "seg6x_sid_bytes_total",
		"seg6x_sid_errors_total",
	};
	static const char *const help[] = {
		"Packets a SID processed.",
		"Bytes (IPv6 length as received) a SID processed.",
		"Packets a SID dropped.",
	};
	char addr[INET6_ADDRSTRLEN], sid[INET6_ADDRSTRLEN + sizeof("/128")];
	size_t m, i;

	for (m = 0; m < ARRAY_SIZE(metric); m++) {
		prom_family(metric[m], help[m]);
		for (i = 0; i < n; i++) {
			const struct ctl_sid *s = &sids[i];
			uint64_t v = m == 0 ? s->packets : m == 1 ? s->bytes :
				     s->errors;

			if (!s->has_counters)
				continue;
			snprintf(sid, sizeof(sid), "%s/%u",
				 inet_ntop(AF_INET6, &s->prefix, addr,
					   sizeof(addr)), s->len);
			prom_sample(metric[m], "sid", sid, v);
		}
	}
}

/* Every interface's drops, by reason ("disabled" is not a drop here). */
static void prom_ifaces(const struct ctl_iface *ifaces, size_t n)
{
	static const char name[] = "seg6x_iface_drops_total";
	size_t i, r;

	prom_family(name, "Packets seg6x dropped, by interface and reason.");
	for (i = 0; i < n; i++) {
		if (!ifaces[i].has_drops || !ifaces[i].ifname[0])
			continue;
		for (r = 0; r < ARRAY_SIZE(drops); r++)
			prom_sample2(name, "ifname", ifaces[i].ifname,
				     "reason", drops[r].name,
				     ifaces[i].drops[drops[r].id]);
	}
}

static int print_prometheus(const uint64_t *values)
{
	struct ctl_iface *ifaces = NULL;
	struct ctl_sid *sids = NULL;
	size_t n, nif;
	int err = ctl_sid_list(conn(), &sids, &n);

	if (!err)
		err = ctl_iface_list(conn(), &ifaces, &nif);
	if (err) {
		free(sids);
		return err;
	}
	prom_events(values);
	prom_group("seg6x_drops_total", "Packets seg6x dropped, by reason.",
		   "reason", drops, ARRAY_SIZE(drops), values);
	prom_group("seg6x_sid_behavior_packets_total",
		   "Packets the local SIDs processed, by behaviour.",
		   "behavior", sids_by_behavior, ARRAY_SIZE(sids_by_behavior),
		   values);
	prom_sids(sids, n);
	prom_ifaces(ifaces, nif);
	free(sids);
	free(ifaces);
	return EXIT_OK;
}

static const char *const show_keys[] = { "format" };

static int stats_show(int argc, char **argv)
{
	const char *format = NULL;
	struct ctl_stats stats;
	int status;

	status = cli_keys("stats", argc, argv, show_keys, ARRAY_SIZE(show_keys),
			  1u, &format);
	if (!status && format && strcmp(format, "prometheus"))
		status = usage_error("stats", "unknown format \"%s\" (prometheus)",
				     format);
	if (!status)
		status = ctl_stats_get(conn(), &stats);
	if (status)
		return status;
	if (format)
		return print_prometheus(stats.counter);
	if (opts.json)
		print_json(stats.counter);
	else
		print_text(stats.counter);
	return EXIT_OK;
}

static int stats_reset(int argc, char **argv)
{
	int status = cli_no_args("stats", argc);

	(void)argv;
	return status ? status : ctl_stats_reset(conn());
}

static const struct cli_cmd stats_cmds[] = {
	CLI_SHOW(stats_show, "print the counters"),
	{ "reset", stats_reset, "set the counters to zero", NULL, false },
	CLI_HELP,
	CLI_END,
};

const struct cli_object stats_object = { "stats", usage, stats_cmds };

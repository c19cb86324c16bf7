// SPDX-License-Identifier: GPL-2.0
/* seg6ctl stats: the namespace's packet counters. */
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "common.h"
#include "conn.h"
#include "json.h"
#include "libseg6x.h"
#include "report.h"

static const char usage[] =
	"Usage: seg6ctl stats [show]\n"
	"       seg6ctl stats reset\n";

struct counter {
	int id;
	const char *name;
};

/* Printed in this order; drop reasons form a group of their own. */
static const struct counter events[] = {
	{ SEG6X_STAT_ENCAP,		"encap" },
	{ SEG6X_STAT_INLINE,		"inline" },
	{ SEG6X_STAT_END,		"end" },
	{ SEG6X_STAT_DECAP,		"decap" },
	{ SEG6X_STAT_HMAC_SIGNED,	"hmac_signed" },
	{ SEG6X_STAT_HMAC_VERIFIED,	"hmac_verified" },
	{ SEG6X_STAT_LOCAL,		"local" },
	/* SR packets for this node handed back to the stack (disabled) */
	{ SEG6X_STAT_DROP_DISABLED,	"passed" },
};

static const struct counter drops[] = {
	{ SEG6X_STAT_DROP_HMAC_MISSING,	"hmac_missing" },
	{ SEG6X_STAT_DROP_HMAC_INVALID,	"hmac_invalid" },
	{ SEG6X_STAT_DROP_HMAC_NOKEY,	"hmac_nokey" },
	{ SEG6X_STAT_DROP_BAD_SRH,	"bad_srh" },
	{ SEG6X_STAT_DROP_NO_ROUTE,	"no_route" },
	{ SEG6X_STAT_DROP_HOP_LIMIT,	"hop_limit" },
	{ SEG6X_STAT_DROP_NOMEM,	"nomem" },
	{ SEG6X_STAT_DROP_SID,		"sid" },
};

/* Packets each kind of SID processed. */
static const struct counter sids[] = {
	{ SEG6X_STAT_SID_END,			"End" },
	{ SEG6X_STAT_SID_END_X,			"End.X" },
	{ SEG6X_STAT_SID_END_T,			"End.T" },
	{ SEG6X_STAT_SID_END_DX2,		"End.DX2" },
	{ SEG6X_STAT_SID_END_DX6,		"End.DX6" },
	{ SEG6X_STAT_SID_END_DX4,		"End.DX4" },
	{ SEG6X_STAT_SID_END_DT6,		"End.DT6" },
	{ SEG6X_STAT_SID_END_DT4,		"End.DT4" },
	{ SEG6X_STAT_SID_END_DT46,		"End.DT46" },
	{ SEG6X_STAT_SID_END_B6_ENCAPS,		"End.B6.Encaps" },
	{ SEG6X_STAT_SID_END_B6_ENCAPS_RED,	"End.B6.Encaps.Red" },
};

static void print_text(const uint64_t *values)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(events); i++)
		printf("%-14s %" PRIu64 "\n", events[i].name, values[events[i].id]);
	printf("sid:\n");
	for (i = 0; i < ARRAY_SIZE(sids); i++)
		printf("  %-18s %" PRIu64 "\n", sids[i].name, values[sids[i].id]);
	printf("drop:\n");
	for (i = 0; i < ARRAY_SIZE(drops); i++)
		printf("  %-12s %" PRIu64 "\n", drops[i].name, values[drops[i].id]);
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
	for (i = 0; i < ARRAY_SIZE(sids); i++)
		json_uint(&jw, sids[i].name, values[sids[i].id]);
	json_close_object(&jw);
	json_open_object(&jw, "drop");
	/* "passed" under its old name, for one more release */
	json_uint(&jw, "disabled", values[SEG6X_STAT_DROP_DISABLED]);
	for (i = 0; i < ARRAY_SIZE(drops); i++)
		json_uint(&jw, drops[i].name, values[drops[i].id]);
	json_close_object(&jw);
	json_close_object(&jw);
}

static int stats_show(int argc, char **argv)
{
	struct ctl_stats stats;
	int status;

	(void)argv;
	status = cli_no_args("stats", argc);
	if (!status)
		status = ctl_stats_get(conn(), &stats);
	if (status)
		return status;
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

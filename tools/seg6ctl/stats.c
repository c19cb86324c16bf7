// SPDX-License-Identifier: GPL-2.0
/* seg6ctl stats: the namespace's packet counters. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "nl.h"
#include "report.h"
#include "seg6ctl.h"

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
};

static const struct counter drops[] = {
	{ SEG6X_STAT_DROP_DISABLED,	"disabled" },
	{ SEG6X_STAT_DROP_HMAC_MISSING,	"hmac_missing" },
	{ SEG6X_STAT_DROP_HMAC_INVALID,	"hmac_invalid" },
	{ SEG6X_STAT_DROP_HMAC_NOKEY,	"hmac_nokey" },
	{ SEG6X_STAT_DROP_BAD_SRH,	"bad_srh" },
	{ SEG6X_STAT_DROP_NO_ROUTE,	"no_route" },
	{ SEG6X_STAT_DROP_HOP_LIMIT,	"hop_limit" },
	{ SEG6X_STAT_DROP_NOMEM,	"nomem" },
};

static struct nla_policy stat_policy[SEG6X_STAT_MAX + 1] = {
	[SEG6X_STAT_ENCAP ... SEG6X_STAT_MAX] = { .type = NLA_U64 },
};

static int stats_reply(struct nlattr **tb, void *arg)
{
	struct nlattr *stat[SEG6X_STAT_MAX + 1];
	uint64_t *values = arg;
	int i;

	if (!tb[SEG6X_A_STATS])
		return -EBADMSG;
	/* Counters of a newer module are past SEG6X_STAT_MAX: skipped. */
	if (nla_parse_nested(stat, SEG6X_STAT_MAX, tb[SEG6X_A_STATS],
			     stat_policy) < 0)
		return -EBADMSG;
	for (i = 0; i <= SEG6X_STAT_MAX; i++)
		if (stat[i])
			values[i] = nla_get_u64(stat[i]);
	return 0;
}

static void print_text(const uint64_t *values)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(events); i++)
		printf("%-14s %" PRIu64 "\n", events[i].name, values[events[i].id]);
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
	json_open_object(&jw, "drop");
	for (i = 0; i < ARRAY_SIZE(drops); i++)
		json_uint(&jw, drops[i].name, values[drops[i].id]);
	json_close_object(&jw);
	json_close_object(&jw);
}

static int stats_show(int argc, char **argv)
{
	/* Counters the kernel leaves out are zero. */
	uint64_t values[SEG6X_STAT_MAX + 1] = { 0 };
	struct nl_msg *msg;
	int status;

	(void)argv;
	if (argc > 0)
		return usage_error("stats", "too many arguments");
	msg = genl_msg(SEG6X_CMD_STATS_GET, 0);
	if (!msg)
		return EXIT_FAIL;
	status = genl_talk(msg, stats_reply, values);
	if (status)
		return status;

	if (opts.json)
		print_json(values);
	else
		print_text(values);
	return EXIT_OK;
}

static int stats_reset(int argc, char **argv)
{
	struct nl_msg *msg;

	(void)argv;
	if (argc > 0)
		return usage_error("stats", "too many arguments");
	msg = genl_msg(SEG6X_CMD_STATS_RESET, 0);
	if (!msg)
		return EXIT_FAIL;
	return genl_talk(msg, NULL, NULL);
}

static int stats_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_help(usage);
}

/* The first is what "seg6ctl stats" alone does. */
static const struct cli_cmd stats_cmds[] = {
	{ "show",	stats_show,	"print the counters" },
	{ "list",	stats_show,	NULL },
	{ "ls",		stats_show,	NULL },
	{ "reset",	stats_reset,	"set the counters to zero" },
	{ "help",	stats_help,	"print usage" },
	{ NULL,		NULL,		NULL },
};

int do_stats(int argc, char **argv)
{
	return cli_dispatch("stats", stats_cmds, argc, argv);
}

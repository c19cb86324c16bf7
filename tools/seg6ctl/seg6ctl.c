// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl - configures seg6x, the out-of-tree IPv6 Segment Routing module.
 *
 * This file only reads the global options and hands OBJECT COMMAND ARGS
 * to the object's file, once or for each line of a batch.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "conn.h"
#include "libseg6x.h"
#include "parse.h"
#include "report.h"


/* Words on one batch line; the longest route add has 16. */
#define BATCH_MAX_ARGS 64


static const char usage[] =
	"Usage: seg6ctl [OPTIONS] OBJECT { COMMAND | help } [ARGS]\n"
	"       seg6ctl [OPTIONS] -b FILE\n"
	"       seg6ctl [OPTIONS] sync [--dry-run] [--all-owners] FILE\n"
	"       seg6ctl { -V | --version }\n"
	"       seg6ctl { -h | --help }\n"
	"OBJECT := { route | hmac | tunsrc | iface | sid | stats | info | save | monitor | sync }\n"
	"OPTIONS := { -n NETNS | -j | -p | -s | -force | -c }\n"
	"  -n, --netns NETNS  act in the network namespace NETNS (/run/netns/NETNS)\n"
	"  -j, --json         print JSON, one document per command\n"
	"  -p, --pretty       pretty-print JSON (implies -j)\n"
	"  -s, --stats        show counters (route show: packets, bytes, errors)\n"
	"  -b, --batch FILE   run the commands in FILE, one per line (- = stdin)\n"
	"  -force             with -b: go on past failing commands, fail at the end\n"
	"  -c, --check        check the commands (syntax, values, and all that\n"
	"                     needs no kernel) and change nothing: seg6ctl -c -b FILE\n"
	"  -V, --version      print the version and exit\n"
	"  -h, --help         print this help and exit\n";

static int do_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_help(usage);
}

static const struct cli_cmd objects[] = {
	{ "route",	NULL,	"routes with SRv6 encapsulation or insertion",
	  &route_object, false },
	{ "hmac",	NULL,	"HMAC keys",				&hmac_object, false },
	{ "tunsrc",	NULL,	"source address of encapsulated packets",
	  &tunsrc_object, false },
	{ "iface",	NULL,	"per-interface policy",			&iface_object, false },
	{ "sid",	NULL,	"local SIDs (endpoint behaviours)",	&sid_object, false },
	{ "stats",	NULL,	"counters",				&stats_object, false },
	{ "info",	NULL,	"the loaded module",			&info_object, false },
	{ "save",	do_save, "print the configuration as seg6ctl commands",
	  NULL, true },
	{ "showconf",	do_save, NULL,					NULL, true },
	{ "monitor",	do_monitor, "print changes as they happen",	NULL, true },
	{ "sync",	do_sync, "make the configuration what a file declares",
	  NULL, false },
	{ "help",	do_help, "print usage",				NULL, true },
	CLI_END,
};

static int run_object(int argc, char **argv)
{
	return cli_dispatch(NULL, objects, argc, argv);
}

/* Runs one batch line; @ran counts those that were not blank. */
static int run_line(char *line, unsigned int *ran)
{
	char *argv[BATCH_MAX_ARGS + 1];
	int argc = split_line(line, argv, BATCH_MAX_ARGS);

	if (argc)
		(*ran)++;
	if (argc == -EINVAL)
		return usage_error(NULL, "unterminated quote");
	if (argc < 0)
		return usage_error(NULL, "too many words (at most %d)", BATCH_MAX_ARGS);
	if (argc == 0)
		return EXIT_OK;
	argv[argc] = NULL;
	return run_object(argc, argv);
}

/*
 * Runs each line of @path until one fails; that one's status is ours.
 * With -force, runs them all, and fails at the end if any failed.
 */
int run_batch(const char *path)
{
	const char *name = path;
	unsigned int lineno = 0, failed = 0, ran = 0;
	int status = EXIT_OK;
	char *line = NULL;
	size_t cap = 0;
	FILE *in;

	if (!strcmp(path, "-")) {
		in = stdin;
		name = "<stdin>";
		opts.stdin_busy = true;
	} else {
		in = fopen(path, "r");
		if (!in) {
			pr_err("cannot open \"%s\": %s", path, strerror(errno));
			return EXIT_FAIL;
		}
	}

	opts.batch = true;
	for (;;) {
		int one;

		errno = 0;
		if (getline(&line, &cap, in) < 0) {
			if (ferror(in)) {
				pr_err("cannot read \"%s\": %s", path, strerror(errno));
				status = EXIT_FAIL;
			}
			break;
		}
		report_set_line(name, ++lineno);
		one = run_line(line, &ran);
		if (!one)
			continue;
		failed++;
		if (!opts.force) {
			status = one;
			break;
		}
	}
	report_set_line(NULL, 0);
	opts.batch = false;
	if (opts.force && failed) {
		pr_err("%s: %u of %u commands failed", name, failed, ran);
		status = EXIT_FAIL;
	}

	free(line);
	if (in != stdin)
		fclose(in);
	return status;
}

/*
 * iproute2 spells it -force, which getopt would read as -f -o -r -c -e:
 * among the options (before OBJECT), make it --force.
 */
static void respell_ip_options(int argc, char **argv)
{
	static char force[] = "--force";
	static char stats[] = "--stats";
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-force"))
			argv[i] = force;
		/* ip's -stats and -statistics, likewise */
		else if (!strcmp(argv[i], "-stats") ||
			 !strcmp(argv[i], "-statistics"))
			argv[i] = stats;
		/* Skip the value of an option that takes one. */
		else if (!strcmp(argv[i], "-n") || !strcmp(argv[i], "-b") ||
			 !strcmp(argv[i], "--netns") || !strcmp(argv[i], "--batch"))
			i++;
	}
}

static bool valid_netns_name(const char *name)
{
	/* The name is a file in /run/netns, not a path. */
	return *name && !strchr(name, '/') &&
	       strcmp(name, ".") && strcmp(name, "..");
}

/* What the command line asked for besides OBJECT COMMAND ARGS. */
struct invocation {
	const char *netns;
	const char *batch;
	int exit;		/* >= 0: exit with it (-V, -h, a usage error) */
};

static const struct option long_options[] = {
	{ "netns",	required_argument,	NULL, 'n' },
	{ "json",	no_argument,		NULL, 'j' },
	{ "pretty",	no_argument,		NULL, 'p' },
	{ "batch",	required_argument,	NULL, 'b' },
	{ "force",	no_argument,		NULL, 'f' },
	{ "stats",	no_argument,		NULL, 's' },
	{ "statistics",	no_argument,		NULL, 's' },
	{ "check",	no_argument,		NULL, 'c' },
	{ "version",	no_argument,		NULL, 'V' },
	{ "help",	no_argument,		NULL, 'h' },
	{ NULL,		0,			NULL, 0 },
};

/* Reads the options into @inv and opts; leaves optind at OBJECT. */
static void parse_options(int argc, char **argv, struct invocation *inv)
{
	int c;

	inv->exit = -1;
	respell_ip_options(argc, argv);
	/* "+": options end at OBJECT; ":": report errors ourselves. */
	while (inv->exit < 0 &&
	       (c = getopt_long(argc, argv, "+:n:jpsb:cVh", long_options, NULL)) != -1) {
		switch (c) {
		case 'c':
			opts.check = true;
			break;
		case 'n':
			inv->netns = optarg;
			break;
		case 'j':
			opts.json = true;
			break;
		case 'p':
			opts.pretty = true;
			opts.json = true;
			break;
		case 's':
			opts.stats = true;
			break;
		case 'b':
			inv->batch = optarg;
			break;
		case 'f':
			opts.force = true;
			break;
		case 'V':
			printf("seg6ctl %s\n", SEG6X_VERSION);
			inv->exit = EXIT_OK;
			break;
		case 'h':
			inv->exit = cli_help(usage);
			break;
		case ':':
			inv->exit = usage_error(NULL, "option \"%s\" needs a value",
						argv[optind - 1]);
			break;
		default:
			inv->exit = optopt ?
				usage_error(NULL, "unknown option \"-%c\"", optopt) :
				usage_error(NULL, "unknown option \"%s\"",
					    argv[optind - 1]);
			break;
		}
	}
}

int main(int argc, char **argv)
{
	struct invocation inv = { NULL };
	int status;

	parse_options(argc, argv, &inv);
	if (inv.exit >= 0)
		return inv.exit;
	argc -= optind;
	argv += optind;

	if (inv.batch && argc > 0)
		return usage_error(NULL, "-b runs the commands in FILE only");
	if (!inv.batch && argc == 0) {
		fputs(usage, stderr);
		return EXIT_USAGE;
	}
	/* -c checks a file for another machine: its namespaces are not here. */
	opts.netns = inv.netns;
	if (inv.netns && !opts.check) {
		if (!valid_netns_name(inv.netns))
			return usage_error(NULL, "invalid network namespace name \"%s\"",
					   inv.netns);
		status = ctl_netns_enter(conn(), inv.netns);
		if (status)
			return report_ctl(status);
	}
	ctl_on_warning(conn(), report_warning, NULL);

	status = inv.batch ? run_batch(inv.batch) : run_object(argc, argv);
	conn_close();
	return status;
}

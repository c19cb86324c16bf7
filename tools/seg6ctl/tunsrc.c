// SPDX-License-Identifier: GPL-2.0
/* seg6ctl tunsrc: the outer source address of encapsulated packets. */
#include <arpa/inet.h>
#include <stdio.h>

#include "cli.h"
#include "common.h"
#include "conf.h"
#include "conn.h"
#include "json.h"
#include "libseg6x.h"
#include "out.h"
#include "parse.h"
#include "report.h"

static const char usage[] =
	"Usage: seg6ctl tunsrc set ADDR\n"
	"       seg6ctl tunsrc show\n"
	"ADDR is an IPv6 address; :: lets the kernel pick a source address\n"
	"of the outgoing interface.\n";

static int tunsrc_set(int argc, char **argv)
{
	struct in6_addr addr;

	if (argc < 1)
		return usage_error("tunsrc", "missing ADDR");
	if (argc > 1)
		return usage_error("tunsrc", "too many arguments");
	if (parse_in6(argv[0], &addr))
		return usage_error("tunsrc", "invalid IPv6 address \"%s\"", argv[0]);
	/* What the module refuses, refused before it is asked (and by -c). */
	if (in6_kind(&addr, IN6_KIND_MULTICAST | IN6_KIND_LOOPBACK |
		     IN6_KIND_MAPPED))
		return usage_error("tunsrc", "tunnel source \"%s\" must be a unicast IPv6 address or ::",
				   argv[0]);
	if (opts.collect)
		return conf_tunsrc(opts.collect, &addr);
	return ctl_tunsrc_set(conn(), &addr);
}

int tunsrc_save(void)
{
	char buf[INET6_ADDRSTRLEN];
	struct in6_addr addr;
	int err = ctl_tunsrc_get(conn(), &addr);

	if (!err)
		printf("tunsrc set %s\n", inet_ntop(AF_INET6, &addr, buf, sizeof(buf)));
	return err;
}

static int tunsrc_show(int argc, char **argv)
{
	char buf[INET6_ADDRSTRLEN];
	struct json_writer jw;
	struct in6_addr addr;
	struct out o;
	int status;

	(void)argv;
	status = cli_no_args("tunsrc", argc);
	if (!status)
		status = ctl_tunsrc_get(conn(), &addr);
	if (status)
		return status;

	json_init(&jw, stdout, opts.pretty);
	out_start(&o, opts.json ? &jw : NULL);
	out_str(&o, "tunsrc", inet_ntop(AF_INET6, &addr, buf, sizeof(buf)));
	out_end(&o);
	return EXIT_OK;
}

static const struct cli_cmd tunsrc_cmds[] = {
	CLI_SHOW(tunsrc_show, "print the tunnel source address"),
	{ "set", tunsrc_set, "set the tunnel source address", NULL, false },
	CLI_HELP,
	CLI_END,
};

const struct cli_object tunsrc_object = { "tunsrc", usage, tunsrc_cmds };

// SPDX-License-Identifier: GPL-2.0
/* seg6ctl tunsrc: the outer source address of encapsulated packets. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "nl.h"
#include "parse.h"
#include "report.h"
#include "seg6ctl.h"

static const char usage[] =
	"Usage: seg6ctl tunsrc set ADDR\n"
	"       seg6ctl tunsrc show\n"
	"ADDR is an IPv6 address; :: lets the kernel pick a source address\n"
	"of the outgoing interface.\n";

static int tunsrc_set(int argc, char **argv)
{
	struct in6_addr addr;
	struct nl_msg *msg;

	if (argc < 1)
		return usage_error("tunsrc", "missing ADDR");
	if (argc > 1)
		return usage_error("tunsrc", "too many arguments");
	if (parse_in6(argv[0], &addr))
		return usage_error("tunsrc", "invalid IPv6 address \"%s\"", argv[0]);

	msg = genl_msg(SEG6X_CMD_TUNSRC_SET, 0);
	if (!msg)
		return EXIT_FAIL;
	if (nla_put(msg, SEG6X_A_TUNSRC, sizeof(addr), &addr) < 0)
		return msg_abort(msg);
	return genl_talk(msg, NULL, NULL);
}

static int tunsrc_reply(struct nlattr **tb, void *arg)
{
	/* No attribute means nothing was ever set: "::". */
	if (tb[SEG6X_A_TUNSRC])
		memcpy(arg, nla_data(tb[SEG6X_A_TUNSRC]), sizeof(struct in6_addr));
	return 0;
}

/* The tunnel source, "::" if none was ever set. */
static int tunsrc_get(struct in6_addr *addr)
{
	struct nl_msg *msg = genl_msg(SEG6X_CMD_TUNSRC_GET, 0);

	*addr = in6addr_any;
	return msg ? genl_talk(msg, tunsrc_reply, addr) : EXIT_FAIL;
}

int tunsrc_save(void)
{
	char buf[INET6_ADDRSTRLEN];
	struct in6_addr addr;
	int status = tunsrc_get(&addr);

	if (!status)
		printf("tunsrc set %s\n", inet_ntop(AF_INET6, &addr, buf, sizeof(buf)));
	return status;
}

static int tunsrc_show(int argc, char **argv)
{
	char buf[INET6_ADDRSTRLEN];
	struct json_writer jw;
	struct in6_addr addr;
	int status;

	(void)argv;
	if (argc > 0)
		return usage_error("tunsrc", "too many arguments");
	status = tunsrc_get(&addr);
	if (status)
		return status;

	inet_ntop(AF_INET6, &addr, buf, sizeof(buf));
	if (!opts.json) {
		printf("tunsrc %s\n", buf);
		return EXIT_OK;
	}
	json_init(&jw, stdout, opts.pretty);
	json_open_object(&jw, NULL);
	json_string(&jw, "tunsrc", buf);
	json_close_object(&jw);
	return EXIT_OK;
}

static int tunsrc_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_help(usage);
}

/* The first is what "seg6ctl tunsrc" alone does. */
static const struct cli_cmd tunsrc_cmds[] = {
	{ "show",	tunsrc_show,	"print the tunnel source address" },
	{ "list",	tunsrc_show,	NULL },
	{ "ls",		tunsrc_show,	NULL },
	{ "set",	tunsrc_set,	"set the tunnel source address" },
	{ "help",	tunsrc_help,	"print usage" },
	{ NULL,		NULL,		NULL },
};

int do_tunsrc(int argc, char **argv)
{
	return cli_dispatch("tunsrc", tunsrc_cmds, argc, argv);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl iface: per-interface policy. "default" stands for the values
 * that interfaces without a setting of their own follow (ifindex 0).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "nl.h"
#include "report.h"
#include "seg6ctl.h"

static const char usage[] =
	"Usage: seg6ctl iface set { IFNAME | default } [seg6_enabled { 0 | 1 }]\n"
	"                         [require_hmac { -1 | 0 | 1 }]\n"
	"       seg6ctl iface show [IFNAME | default]\n"
	"seg6_enabled: accept (1) or leave alone (0) SR packets to this node.\n"
	"require_hmac: -1 ignore the HMAC TLV, 0 verify it when present,\n"
	"              1 drop SR packets without a valid HMAC.\n";

#define DEFAULT_NAME "default"

/* ifindex of IFNAME, or 0 for "default". */
static int iface_index(const char *name, uint32_t *ifindex)
{
	if (!strcmp(name, DEFAULT_NAME)) {
		*ifindex = 0;
		return EXIT_OK;
	}
	return cli_ifindex(name, ifindex);
}

struct iface_settings {
	bool has_enabled;
	bool has_require;
	uint32_t enabled;
	int32_t require;
};

enum { KEY_ENABLED, KEY_REQUIRE, NR_KEYS };

static const char *const key_names[NR_KEYS] = {
	[KEY_ENABLED]	= "seg6_enabled",
	[KEY_REQUIRE]	= "require_hmac",
};

static int parse_settings(int argc, char **argv, struct iface_settings *set)
{
	const char *val[NR_KEYS] = { NULL };
	int status;

	status = cli_keys("iface", argc, argv, key_names, NR_KEYS,
			  (1u << NR_KEYS) - 1, val);
	if (status)
		return status;
	if (!val[KEY_ENABLED] && !val[KEY_REQUIRE])
		return usage_error("iface", "nothing to set (seg6_enabled, require_hmac)");
	if (val[KEY_ENABLED]) {
		status = cli_u32("iface", "seg6_enabled", val[KEY_ENABLED], 0, 1,
				 &set->enabled);
		if (status)
			return status;
		set->has_enabled = true;
	}
	if (val[KEY_REQUIRE]) {
		status = cli_s32("iface", "require_hmac", val[KEY_REQUIRE], -1, 1,
				 &set->require);
		if (status)
			return status;
		set->has_require = true;
	}
	return EXIT_OK;
}

static int iface_set(int argc, char **argv)
{
	struct iface_settings set = { 0 };
	struct nl_msg *msg;
	uint32_t ifindex;
	int status;

	if (argc < 1)
		return usage_error("iface", "missing IFNAME");
	status = parse_settings(argc - 1, argv + 1, &set);
	if (status)
		return status;
	status = iface_index(argv[0], &ifindex);
	if (status)
		return status;

	msg = genl_msg(SEG6X_CMD_IFACE_SET, 0);
	if (!msg)
		return EXIT_FAIL;
	if (nla_put_u32(msg, SEG6X_A_IFINDEX, ifindex) < 0 ||
	    (set.has_enabled &&
	     nla_put_u8(msg, SEG6X_A_SEG6_ENABLED, (uint8_t)set.enabled) < 0) ||
	    (set.has_require &&
	     nla_put_s8(msg, SEG6X_A_REQUIRE_HMAC, (int8_t)set.require) < 0))
		return msg_abort(msg);
	return genl_talk(msg, NULL, NULL);
}

/*
 * The kernel tells which interfaces have settings of their own, not which
 * of the two fields they set: save writes both, the values in effect.
 */
static int save_iface(struct nlattr **tb, void *arg)
{
	bool want_default = *(bool *)arg;
	uint32_t ifindex;
	bool explicit;

	if (!tb[SEG6X_A_IFINDEX] || !tb[SEG6X_A_SEG6_ENABLED] ||
	    !tb[SEG6X_A_REQUIRE_HMAC])
		return -EBADMSG;
	ifindex = nla_get_u32(tb[SEG6X_A_IFINDEX]);
	explicit = tb[SEG6X_A_IFACE_EXPLICIT] &&
		   nla_get_u8(tb[SEG6X_A_IFACE_EXPLICIT]);
	if (want_default ? ifindex != 0 : !ifindex || !explicit)
		return 0;
	if (ifindex && !tb[SEG6X_A_IFNAME])
		return -EBADMSG;
	printf("iface set %s seg6_enabled %u require_hmac %d\n",
	       ifindex ? nla_get_string(tb[SEG6X_A_IFNAME]) : DEFAULT_NAME,
	       nla_get_u8(tb[SEG6X_A_SEG6_ENABLED]),
	       nla_get_s8(tb[SEG6X_A_REQUIRE_HMAC]));
	return 0;
}

int iface_save(void)
{
	bool want_default = true;
	struct nl_msg *msg;
	int status;

	/* "default" first: the others may be set to what it used to be. */
	msg = genl_msg(SEG6X_CMD_IFACE_GET, 0);
	if (!msg)
		return EXIT_FAIL;
	if (nla_put_u32(msg, SEG6X_A_IFINDEX, 0) < 0)
		return msg_abort(msg);
	status = genl_talk(msg, save_iface, &want_default);
	if (status)
		return status;

	want_default = false;
	msg = genl_msg(SEG6X_CMD_IFACE_GET, NLM_F_DUMP);
	return msg ? genl_talk(msg, save_iface, &want_default) : EXIT_FAIL;
}

static int print_iface(struct nlattr **tb, void *arg)
{
	struct json_writer *jw = arg;
	char buf[IF_NAMESIZE];
	const char *name;
	uint32_t ifindex;
	uint8_t enabled;
	int8_t require;
	bool explicit;

	if (!tb[SEG6X_A_IFINDEX] || !tb[SEG6X_A_SEG6_ENABLED] ||
	    !tb[SEG6X_A_REQUIRE_HMAC])
		return -EBADMSG;
	ifindex = nla_get_u32(tb[SEG6X_A_IFINDEX]);
	enabled = nla_get_u8(tb[SEG6X_A_SEG6_ENABLED]);
	require = nla_get_s8(tb[SEG6X_A_REQUIRE_HMAC]);
	explicit = tb[SEG6X_A_IFACE_EXPLICIT] &&
		   nla_get_u8(tb[SEG6X_A_IFACE_EXPLICIT]);

	if (tb[SEG6X_A_IFNAME])
		name = nla_get_string(tb[SEG6X_A_IFNAME]);
	else if (!ifindex)
		name = DEFAULT_NAME;
	else
		name = cli_ifname(ifindex, buf);

	if (!opts.json) {
		printf("%s seg6_enabled %u require_hmac %d%s\n", name, enabled,
		       require, ifindex && explicit ? " explicit" : "");
		return 0;
	}
	json_open_object(jw, NULL);
	json_string(jw, "ifname", name);
	json_uint(jw, "seg6_enabled", enabled);
	json_int(jw, "require_hmac", require);
	json_close_object(jw);
	return 0;
}

static int iface_show(int argc, char **argv)
{
	struct json_writer jw;
	struct nl_msg *msg;
	uint32_t ifindex = 0;
	int status;

	if (argc > 1)
		return usage_error("iface", "too many arguments");
	if (argc == 1) {
		status = iface_index(argv[0], &ifindex);
		if (status)
			return status;
	}

	/* One interface is a plain request; all of them, a dump. */
	msg = genl_msg(SEG6X_CMD_IFACE_GET, argc ? 0 : NLM_F_DUMP);
	if (!msg)
		return EXIT_FAIL;
	if (argc && nla_put_u32(msg, SEG6X_A_IFINDEX, ifindex) < 0)
		return msg_abort(msg);

	json_init(&jw, stdout, opts.pretty);
	if (opts.json)
		json_open_array(&jw, NULL);
	status = genl_talk(msg, print_iface, &jw);
	if (opts.json)
		json_close_array(&jw);
	return status;
}

static int iface_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_help(usage);
}

/* The first is what "seg6ctl iface" alone does. */
static const struct cli_cmd iface_cmds[] = {
	{ "show",	iface_show,	"list the policy of every interface" },
	{ "list",	iface_show,	NULL },
	{ "ls",		iface_show,	NULL },
	{ "set",	iface_set,	"set an interface's or the default policy" },
	{ "help",	iface_help,	"print usage" },
	{ NULL,		NULL,		NULL },
};

int do_iface(int argc, char **argv)
{
	return cli_dispatch("iface", iface_cmds, argc, argv);
}

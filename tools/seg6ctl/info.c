// SPDX-License-Identifier: GPL-2.0
/* seg6ctl info: what the loaded module is and how it was configured. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "info.h"
#include "json.h"
#include "nl.h"
#include "report.h"
#include "seg6ctl.h"

static const char usage[] =
	"Usage: seg6ctl info\n"
	"Shows the module's version, the LWT encap slot it claimed, whether\n"
	"inline routes are allowed, the segment limit and the defaults that\n"
	"new network namespaces start from.\n";

static int info_reply(struct nlattr **tb, void *arg)
{
	struct seg6x_info *info = arg;

	/* Without its slot seg6x's routes cannot be told apart. */
	if (!tb[SEG6X_A_LWT_TYPE])
		return -EBADMSG;
	info->lwt_type = nla_get_u16(tb[SEG6X_A_LWT_TYPE]);

	if (tb[SEG6X_A_VERSION])
		snprintf(info->version, sizeof(info->version), "%s",
			 nla_get_string(tb[SEG6X_A_VERSION]));
	if (tb[SEG6X_A_ALLOW_INLINE])
		info->allow_inline = nla_get_u8(tb[SEG6X_A_ALLOW_INLINE]);
	if (tb[SEG6X_A_MAX_SEGS])
		info->max_segs = nla_get_u32(tb[SEG6X_A_MAX_SEGS]);
	if (tb[SEG6X_A_DEF_SEG6_ENABLED])
		info->def_seg6_enabled = nla_get_u8(tb[SEG6X_A_DEF_SEG6_ENABLED]);
	if (tb[SEG6X_A_DEF_REQUIRE_HMAC])
		info->def_require_hmac = nla_get_s8(tb[SEG6X_A_DEF_REQUIRE_HMAC]);
	return 0;
}

int seg6x_info_get(struct seg6x_info *info)
{
	struct nl_msg *msg = genl_msg(SEG6X_CMD_INFO_GET, 0);

	memset(info, 0, sizeof(*info));
	info->max_segs = SEG6X_MAX_SEGS;
	if (!msg)
		return EXIT_FAIL;
	return genl_talk(msg, info_reply, info);
}

static void print_info(const struct seg6x_info *info)
{
	struct json_writer jw;

	if (!opts.json) {
		printf("version %s\n", info->version);
		printf("lwt_type %u\n", info->lwt_type);
		printf("allow_inline %u\n", info->allow_inline);
		printf("max_segs %u\n", info->max_segs);
		printf("seg6_enabled_default %u\n", info->def_seg6_enabled);
		printf("require_hmac_default %d\n", info->def_require_hmac);
		return;
	}
	json_init(&jw, stdout, opts.pretty);
	json_open_object(&jw, NULL);
	json_string(&jw, "version", info->version);
	json_uint(&jw, "lwt_type", info->lwt_type);
	json_bool(&jw, "allow_inline", info->allow_inline);
	json_uint(&jw, "max_segs", info->max_segs);
	json_uint(&jw, "seg6_enabled_default", info->def_seg6_enabled);
	json_int(&jw, "require_hmac_default", info->def_require_hmac);
	json_close_object(&jw);
}

static int info_show(int argc, char **argv)
{
	struct seg6x_info info;
	int status;

	(void)argv;
	if (argc > 0)
		return usage_error("info", "too many arguments");
	status = seg6x_info_get(&info);
	if (!status)
		print_info(&info);
	return status;
}

static int info_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_help(usage);
}

/* The first is what "seg6ctl info" alone does. */
static const struct cli_cmd info_cmds[] = {
	{ "show",	info_show,	"describe the loaded module" },
	{ "list",	info_show,	NULL },
	{ "ls",		info_show,	NULL },
	{ "help",	info_help,	"print usage" },
	{ NULL,		NULL,		NULL },
};

int do_info(int argc, char **argv)
{
	return cli_dispatch("info", info_cmds, argc, argv);
}

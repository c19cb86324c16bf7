// SPDX-License-Identifier: GPL-2.0
/* seg6ctl info: what the loaded module is and how it was configured. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "conn.h"
#include "json.h"
#include "libseg6x.h"
#include "out.h"
#include "report.h"

static const char usage[] =
	"Usage: seg6ctl info\n"
	"Shows the module's version (and seg6ctl's, with a warning when they\n"
	"differ), the LWT encap slot it claimed, whether\n"
	"inline routes are allowed, the segment limit and the defaults that\n"
	"new network namespaces start from.\n";

/* The kernel's names of the LWT encap slots (enum lwtunnel_encap_types). */
static const char *const lwt_names[] = {
	[1] = "mpls", [2] = "ip", [3] = "ila", [4] = "ip6", [5] = "seg6",
	[6] = "bpf", [7] = "seg6local", [8] = "rpl", [9] = "ioam6",
	[10] = "xfrm",
};

static const char *lwt_name(unsigned int type)
{
	return type < ARRAY_SIZE(lwt_names) ? lwt_names[type] : NULL;
}

/* One "KEY VALUE" line per field in text, one object in JSON. */
static void print_info(const struct ctl_info *info)
{
	const char *slot = lwt_name(info->lwt_type);
	struct json_writer jw;
	struct out o;

	json_init(&jw, stdout, opts.pretty);
	out_start(&o, opts.json ? &jw : NULL);
	out_lines(&o, true);
	out_str(&o, "version", info->version);
	out_str(&o, "tools_version", SEG6X_VERSION);
	out_uint(&o, "json_schema", SEG6CTL_JSON_SCHEMA);
	/* The number, and the name ip route shows seg6x's routes by. */
	out_uint_note(&o, "lwt_type", info->lwt_type, slot);
	if (slot)
		out_json_str(&o, "lwt_type_name", slot);
	out_bool(&o, "allow_inline", info->allow_inline);
	out_uint(&o, "max_segs", info->max_segs);
	out_uint(&o, "seg6_enabled_default", info->def_seg6_enabled);
	out_int(&o, "require_hmac_default", info->def_require_hmac);
	out_end(&o);
}

static int info_show(int argc, char **argv)
{
	struct ctl_info info;
	int status;

	(void)argv;
	status = cli_no_args("info", argc);
	if (!status)
		status = ctl_info_get(conn(), &info);
	if (status)
		return status;
	print_info(&info);
	/* After a package upgrade, until the module is swapped. */
	if (strcmp(info.version, SEG6X_VERSION))
		pr_warn("the loaded module is seg6x %s but seg6ctl is %s: load the installed module with seg6x-upgrade(8)",
			info.version, SEG6X_VERSION);
	return EXIT_OK;
}

static const struct cli_cmd info_cmds[] = {
	CLI_SHOW(info_show, "describe the loaded module"),
	CLI_HELP,
	CLI_END,
};

const struct cli_object info_object = { "info", usage, info_cmds };

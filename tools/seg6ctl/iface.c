// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl iface: per-interface policy. "default" stands for the values
 * that interfaces without a setting of their own follow (ifindex 0).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	"Usage: seg6ctl iface set { IFNAME | default } [seg6_enabled { 0 | 1 }]\n"
	"                         [require_hmac { -1 | 0 | 1 }]\n"
	"       seg6ctl iface show [IFNAME | default]\n"
	"seg6_enabled: accept (1) or leave alone (0) SR packets to this node.\n"
	"require_hmac: -1 ignore the HMAC TLV, 0 verify it when present,\n"
	"              1 drop SR packets without a valid HMAC.\n"
	"With -s, show also gives each interface's drops, by reason.\n";

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

enum { KEY_ENABLED, KEY_REQUIRE, NR_KEYS };

static const char *const key_names[NR_KEYS] = {
	[KEY_ENABLED]	= "seg6_enabled",
	[KEY_REQUIRE]	= "require_hmac",
};

static int parse_settings(int argc, char **argv, struct ctl_iface *set)
{
	const char *val[NR_KEYS] = { NULL };
	uint32_t enabled;
	int32_t require;
	int status;

	status = cli_keys("iface", argc, argv, key_names, NR_KEYS,
			  (1u << NR_KEYS) - 1, val);
	if (status)
		return status;
	if (!val[KEY_ENABLED] && !val[KEY_REQUIRE])
		return usage_error("iface", "nothing to set (seg6_enabled, require_hmac)");
	if (val[KEY_ENABLED]) {
		status = cli_u32("iface", "seg6_enabled", val[KEY_ENABLED], 0, 1,
				 &enabled);
		if (status)
			return status;
		set->has_seg6_enabled = true;
		set->seg6_enabled = (uint8_t)enabled;
	}
	if (val[KEY_REQUIRE]) {
		status = cli_s32("iface", "require_hmac", val[KEY_REQUIRE], -1, 1,
				 &require);
		if (status)
			return status;
		set->has_require_hmac = true;
		set->require_hmac = (int8_t)require;
	}
	return EXIT_OK;
}

static int iface_set(int argc, char **argv)
{
	struct ctl_iface set = { 0 };
	int status;

	if (argc < 1)
		return usage_error("iface", "missing IFNAME");
	status = parse_settings(argc - 1, argv + 1, &set);
	if (!status)
		status = iface_index(argv[0], &set.ifindex);
	if (!status && opts.collect)
		return conf_iface(opts.collect, &set, argv[0]);
	return status ? status : ctl_iface_set(conn(), &set);
}

/*
 * "default" with both fields; an interface with the fields it sets itself
 * only, so that the others keep following "default".
 */
static int save_iface(const struct ctl_iface *iface)
{
	if (iface->ifindex && !iface->ifname[0])
		return -EBADMSG;
	printf("iface set %s", iface->ifindex ? iface->ifname : DEFAULT_NAME);
	if (!iface->ifindex || iface->explicit_enabled)
		printf(" seg6_enabled %u", iface->seg6_enabled);
	if (!iface->ifindex || iface->explicit_hmac)
		printf(" require_hmac %d", iface->require_hmac);
	printf("\n");
	return 0;
}

int iface_save(void)
{
	struct ctl_iface def, *ifaces;
	size_t i, n;
	int err;

	/* "default" first: the others may be set to what it used to be. */
	err = ctl_iface_get(conn(), 0, &def);
	if (!err)
		err = save_iface(&def);
	if (!err)
		err = ctl_iface_list(conn(), &ifaces, &n);
	if (err)
		return err;
	for (i = 0; !err && i < n; i++)
		if (ifaces[i].ifindex && ifaces[i].explicit)
			err = save_iface(&ifaces[i]);
	free(ifaces);
	return err;
}

void iface_print(struct json_writer *jw, const struct ctl_iface *iface)
{
	char buf[IF_NAMESIZE];
	const char *name;
	struct out o;

	if (iface->ifname[0])
		name = iface->ifname;
	else if (!iface->ifindex)
		name = DEFAULT_NAME;
	else
		name = cli_ifname(iface->ifindex, buf);

	out_start(&o, jw);
	out_lead(&o, "ifname", name);
	out_uint(&o, "seg6_enabled", iface->seg6_enabled);
	out_int(&o, "require_hmac", iface->require_hmac);
	if (iface->ifindex && iface->explicit)
		out_text_flag(&o, "explicit");
	if (opts.stats && iface->has_drops)
		stats_out_drops(&o, iface->drops);
	out_end(&o);
}

static void print_iface(struct json_writer *jw, const void *item)
{
	iface_print(jw, item);
}

static int iface_show(int argc, char **argv)
{
	struct ctl_iface one, *ifaces = &one;
	uint32_t ifindex;
	size_t n = 1;
	int status;

	if (argc > 1)
		return usage_error("iface", "too many arguments");
	/* One interface is a plain request; all of them, a dump. */
	if (argc == 1) {
		status = iface_index(argv[0], &ifindex);
		if (!status)
			status = ctl_iface_get(conn(), ifindex, &one);
	} else {
		status = ctl_iface_list(conn(), &ifaces, &n);
	}
	if (status)
		return status;

	cli_print_list(ifaces, n, sizeof(*ifaces), print_iface);
	if (ifaces != &one)
		free(ifaces);
	return EXIT_OK;
}

static const struct cli_cmd iface_cmds[] = {
	CLI_SHOW(iface_show, "list the policy of every interface"),
	{ "set", iface_set, "set an interface's or the default policy", NULL, false },
	CLI_HELP,
	CLI_END,
};

const struct cli_object iface_object = { "iface", usage, iface_cmds };

// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl sync FILE: makes the namespace's seg6x configuration what FILE
 * declares, like "wg syncconf" or FRR's frr-reload.py. FILE is read whole
 * first, by the commands' own parsers (those of -b and -c) into a struct
 * conf, and a file with an error changes nothing. Then what runs is read,
 * plan.c lists the differences, and they are printed (--dry-run) or taken.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "common.h"
#include "conf.h"
#include "conn.h"
#include "libseg6x.h"
#include "plan.h"
#include "report.h"
#include "sync.h"

static const char usage[] =
	"Usage: seg6ctl sync [--dry-run] [--all-owners] FILE\n"
	"Makes the namespace's seg6x configuration what FILE declares (FILE in\n"
	"the syntax of -b, - = stdin; only route and sid add|replace, hmac set,\n"
	"tunsrc set, iface set): adds what is missing, replaces what differs,\n"
	"deletes what FILE does not have, writes nothing that is the same. FILE\n"
	"is read and checked whole first: a FILE with an error changes nothing.\n"
	"Routes and SIDs with an owner that FILE does not name (owner fpmd:\n"
	"seg6x-fpmd's) are left alone. HMAC keys are always set again.\n"
	"  --dry-run     print the changes (+ add, ~ change, - delete,\n"
	"                ! left alone), make none\n"
	"  --all-owners  routes and SIDs of every owner are FILE's to manage\n";

struct sync_args {
	const char *path;
	bool dry_run;
	bool all_owners;
};

/* EXIT_OK with @a filled, or EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct sync_args *a)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--dry-run"))
			a->dry_run = true;
		else if (!strcmp(argv[i], "--all-owners"))
			a->all_owners = true;
		else if (argv[i][0] == '-' && argv[i][1])
			return usage_error("sync", "unknown option \"%s\"", argv[i]);
		else if (a->path)
			return usage_error("sync", "one FILE only (got \"%s\" too)",
					   argv[i]);
		else
			a->path = argv[i];
	}
	if (!a->path)
		return usage_error("sync", "missing FILE");
	if (opts.check && a->dry_run)
		return usage_error("sync", "-c checks FILE without the kernel and --dry-run compares it with the kernel: one or the other");
	if (opts.batch)
		return usage_error("sync", "sync reads its own FILE, not a line of a batch");
	return 0;
}

/*
 * Reads @path into *@c with the batch's line loop; nothing reaches the
 * kernel meanwhile. Returns the batch's exit status.
 */
static int read_file(const char *path, struct conf **c)
{
	int status;

	*c = calloc(1, sizeof(**c));
	if (!*c)
		return -ENOMEM;
	opts.collect = *c;
	ctl_set_dry_run(conn(), true);
	status = run_batch(path);
	ctl_set_dry_run(conn(), opts.check);
	opts.collect = NULL;
	return status;
}

static void free_state(struct plan_state *st)
{
	free(st->keys);
	free(st->ifaces);
	free(st->routes);
	free(st->sids);
}

/* What runs in the namespace; 0 or a negative errno. */
static int read_state(struct plan_state *st)
{
	struct ctl_info info;
	int err;

	err = ctl_info_get(conn(), &info);
	if (!err) {
		st->param_seg6_enabled = info.def_seg6_enabled;
		st->param_require_hmac = info.def_require_hmac;
		err = ctl_tunsrc_get(conn(), &st->tunsrc);
	}
	if (!err)
		err = ctl_hmac_list(conn(), &st->keys, &st->nkeys);
	if (!err)
		err = ctl_iface_list(conn(), &st->ifaces, &st->nifaces);
	if (!err)
		err = ctl_route_list(conn(), &st->routes, &st->nroutes);
	if (!err)
		err = ctl_sid_list(conn(), &st->sids, &st->nsids);
	return err;
}

/* Compares @c with what runs, then prints or takes the steps. */
static int sync_conf(const struct conf *c, const struct sync_args *a,
		     const char *name)
{
	struct plan_state st = { .keys = NULL };
	struct plan p = { NULL, 0 };
	int status;

	/* A dry run only reads: it never loads the module. */
	ctl_set_autoload(conn(), !a->dry_run);
	status = read_state(&st);
	if (!status)
		status = plan_make(c, &st, a->all_owners, &p);
	if (!status && a->dry_run)
		sync_print(&p);
	else if (!status)
		status = sync_apply(&p, name);
	plan_free(&p);
	free_state(&st);
	return status;
}

int do_sync(int argc, char **argv)
{
	struct sync_args a = { NULL };
	struct conf *c = NULL;
	int status;

	if (argc == 1 && !strcmp(argv[0], "help"))
		return cli_help(usage);
	status = parse_args(argc, argv, &a);
	if (status)
		return status;
	status = read_file(a.path, &c);
	/*
	 * -c: checked, nothing more. An empty FILE (as seg6x.service's
	 * stop has it) while the module is not loaded: nothing to remove,
	 * and no reason to load it.
	 */
	if (!status && !opts.check &&
	    !(conf_empty(c) && access("/sys/module/seg6x", F_OK)))
		status = sync_conf(c, &a, strcmp(a.path, "-") ? a.path : "<stdin>");
	conf_free(c);
	return status < 0 ? report_ctl(status) : status;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl save: the namespace's whole configuration as seg6ctl batch
 * commands, so that "seg6ctl -b" of the output sets it up again. The
 * kernel never gives secrets back: keys are written as secret files to
 * be found at restore time, KEYDIR/KEYID.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "common.h"
#include "conn.h"
#include "libseg6x.h"
#include "report.h"

#define DEFAULT_KEYDIR "/etc/seg6x/keys"

static const char usage[] =
	"Usage: seg6ctl save [keydir DIR]\n"
	"Prints the configuration of the network namespace (tunsrc, iface\n"
	"policies, HMAC keys, seg6x routes of every table, local SIDs) as\n"
	"commands for seg6ctl -b. Secrets are not printed: each key is read\n"
	"back from DIR/KEYID (default " DEFAULT_KEYDIR "), a file of mode\n"
	"0600 that holds the secret.\n";

enum { KEY_KEYDIR, NR_KEYS };

static const char *const key_names[NR_KEYS] = {
	[KEY_KEYDIR]	= "keydir",
};

static int save(int argc, char **argv)
{
	const char *val[NR_KEYS] = { NULL };
	const char *keydir;
	int status;

	status = cli_keys("save", argc, argv, key_names, NR_KEYS,
			  (1u << NR_KEYS) - 1, val);
	if (status)
		return status;
	keydir = val[KEY_KEYDIR] ? val[KEY_KEYDIR] : DEFAULT_KEYDIR;
	/* A batch line can quote blanks, but not a quote. */
	if (!*keydir || strpbrk(keydir, "\"\n"))
		return usage_error("save", "keydir \"%s\" cannot be written in a batch file",
				   keydir);
	if (opts.json)
		return usage_error("save", "save prints commands, not JSON");
	/* Nothing at all rather than a header, if the module is not there. */
	status = ctl_connect(conn());
	if (status)
		return status;

	printf("# seg6x configuration, written by \"seg6ctl save\"; apply with\n"
	       "# \"seg6ctl -b FILE\". Each key's secret is read from its\n"
	       "# secret-file, which must exist with mode 0600.\n");
	status = tunsrc_save();
	if (!status)
		status = iface_save();
	if (!status)
		status = hmac_save(keydir);
	if (!status)
		status = route_save();
	if (!status)
		status = sid_save();
	return status;
}

/*
 * "save" alone saves; "save keydir DIR" too, so a word that is not a
 * command is an argument of the default one.
 */
int do_save(int argc, char **argv)
{
	int status;

	if (argc == 1 && !strcmp(argv[0], "help"))
		return cli_help(usage);
	status = save(argc, argv);
	return status < 0 ? report_ctl(status) : status;
}

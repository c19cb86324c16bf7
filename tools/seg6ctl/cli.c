// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "parse.h"
#include "report.h"
#include "seg6ctl.h"

int cli_help(const char *usage)
{
	fputs(usage, stdout);
	return EXIT_OK;
}

bool cli_is(int argc, char **argv, const char *cmd)
{
	return argc > 0 && !strcmp(argv[0], cmd);
}

static int number_error(const char *object, const char *what, const char *s,
			int err, long long min, long long max)
{
	if (err == -ERANGE)
		return usage_error(object, "%s \"%s\" is out of range (%lld..%lld)",
				   what, s, min, max);
	return usage_error(object, "invalid %s \"%s\" (expected a number %lld..%lld)",
			   what, s, min, max);
}

int cli_u32(const char *object, const char *what, const char *s,
	    uint32_t min, uint32_t max, uint32_t *out)
{
	int err = parse_u32(s, min, max, out);

	return err ? number_error(object, what, s, err, min, max) : EXIT_OK;
}

int cli_s32(const char *object, const char *what, const char *s,
	    int32_t min, int32_t max, int32_t *out)
{
	int err = parse_s32(s, min, max, out);

	return err ? number_error(object, what, s, err, min, max) : EXIT_OK;
}

int cli_ifindex(const char *name, uint32_t *ifindex)
{
	/* if_nametoindex() asks through a socket of the current netns. */
	*ifindex = if_nametoindex(name);
	if (!*ifindex) {
		pr_err("cannot find device \"%s\"", name);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

const char *cli_ifname(uint32_t ifindex, char buf[IF_NAMESIZE])
{
	if (!if_indextoname(ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "if%u", ifindex);
	return buf;
}

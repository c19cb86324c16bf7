// SPDX-License-Identifier: GPL-2.0
/* Routing table names from iproute2's rt_tables files. */
#include <ctype.h>
#include <linux/rtnetlink.h>
#include <errno.h>
#include <glob.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rt_tables.h"

static const char *const rt_tables_dirs[] = {
	"/etc/iproute2",
	"/usr/share/iproute2",
};

/* Fills @id from "ID NAME [# comment]" if @line is one and names @name. */
static bool line_names(char *line, const char *name, uint32_t *id)
{
	unsigned long v;
	char *p = line, *end;
	size_t len;

	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p))
		return false;
	errno = 0;
	v = strtoul(p, &end, 0);
	if (errno || v > UINT32_MAX || end == p || !isspace((unsigned char)*end))
		return false;
	for (p = end; isspace((unsigned char)*p); p++)
		;
	len = strcspn(p, " \t\r\n#");
	if (len != strlen(name) || strncmp(p, name, len))
		return false;
	*id = (uint32_t)v;
	return true;
}

int rt_tables_scan(FILE *f, const char *name, uint32_t *id)
{
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!*name)
		return 0;
	while (!found && getline(&line, &cap, f) >= 0)
		found = line_names(line, name, id);
	free(line);
	return found;
}

static int scan_path(const char *path, const char *name, uint32_t *id)
{
	FILE *f = fopen(path, "re");
	int found;

	if (!f)
		return 0;
	found = rt_tables_scan(f, name, id);
	fclose(f);
	return found;
}

int rt_tables_lookup(const char *name, uint32_t *id)
{
	char path[128];
	size_t i, j;

	for (i = 0; i < sizeof(rt_tables_dirs) / sizeof(rt_tables_dirs[0]); i++) {
		glob_t g;
		int found = 0;

		snprintf(path, sizeof(path), "%s/rt_tables", rt_tables_dirs[i]);
		if (scan_path(path, name, id))
			return 1;
		snprintf(path, sizeof(path), "%s/rt_tables.d/*.conf",
			 rt_tables_dirs[i]);
		if (glob(path, 0, NULL, &g))
			continue;
		for (j = 0; !found && j < g.gl_pathc; j++)
			found = scan_path(g.gl_pathv[j], name, id);
		globfree(&g);
		if (found)
			return 1;
	}
	return 0;
}

const char *rt_tables_builtin_name(uint32_t id)
{
	switch (id) {
	case RT_TABLE_MAIN:
		return "main";
	case RT_TABLE_LOCAL:
		return "local";
	case RT_TABLE_DEFAULT:
		return "default";
	}
	return NULL;
}

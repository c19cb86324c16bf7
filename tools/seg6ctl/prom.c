// SPDX-License-Identifier: GPL-2.0
/* Counters in the Prometheus text exposition format (prom.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "common.h"
#include "prom.h"

/*
 * @s as the format wants it in a HELP text (backslash and line feed
 * escaped) or, with @quote, in a label value (and the double quote).
 */
static void put_escaped(const char *s, bool quote)
{
	for (; *s; s++) {
		if (*s == '\\' || (quote && *s == '"'))
			printf("\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", stdout);
		else
			putchar(*s);
	}
}

static void put_label(const char *name, const char *val)
{
	printf("%s=\"", name);
	put_escaped(val, true);
	putchar('"');
}

void prom_family(const char *name, const char *help)
{
	printf("# HELP %s ", name);
	put_escaped(help, false);
	printf("\n# TYPE %s counter\n", name);
}

void prom_sample2(const char *name, const char *label1, const char *val1,
		  const char *label2, const char *val2, uint64_t value)
{
	const char *labels[][2] = {
		{ opts.netns ? "netns" : NULL, opts.netns },
		{ label1, val1 },
		{ label2, val2 },
	};
	bool first = true;
	size_t i;

	fputs(name, stdout);
	for (i = 0; i < ARRAY_SIZE(labels); i++) {
		if (!labels[i][0])
			continue;
		putchar(first ? '{' : ',');
		put_label(labels[i][0], labels[i][1]);
		first = false;
	}
	if (!first)
		putchar('}');
	printf(" %" PRIu64 "\n", value);
}

void prom_sample(const char *name, const char *label, const char *val,
		 uint64_t value)
{
	prom_sample2(name, label, val, NULL, NULL, value);
}

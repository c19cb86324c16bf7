// SPDX-License-Identifier: GPL-2.0
/* Counters in the Prometheus text exposition format (prom.h). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

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

void prom_sample(const char *name, const char *label, const char *val,
		 uint64_t value)
{
	fputs(name, stdout);
	if (opts.netns || label) {
		putchar('{');
		if (opts.netns)
			put_label("netns", opts.netns);
		if (opts.netns && label)
			putchar(',');
		if (label)
			put_label(label, val);
		putchar('}');
	}
	printf(" %" PRIu64 "\n", value);
}

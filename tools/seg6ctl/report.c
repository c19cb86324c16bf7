// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "conn.h"
#include "libseg6x.h"
#include "report.h"

static const char *batch_file;
static unsigned int batch_line;

void report_set_line(const char *file, unsigned int line)
{
	batch_file = file;
	batch_line = line;
}

unsigned int report_line(void)
{
	return batch_file ? batch_line : 0;
}

static void vreport(const char *kind, const char *fmt, va_list ap)
{
	/* Whatever the command printed so far must come out first. */
	fflush(stdout);
	fputs("seg6ctl: ", stderr);
	if (batch_file)
		fprintf(stderr, "%s:%u: ", batch_file, batch_line);
	fputs(kind, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void pr_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
}

void pr_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

int usage_error(const char *object, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);

	if (object)
		fprintf(stderr, "Try \"seg6ctl %s help\".\n", object);
	else
		fputs("Try \"seg6ctl --help\".\n", stderr);
	return EXIT_USAGE;
}

int report_ctl(int err)
{
	return report_ctl_for(NULL, err);
}

int report_ctl_for(const char *what, int err)
{
	const char *sep = what ? ": " : "";

	if (!what)
		what = "";
	if (ctl_error(conn()))
		pr_err("%s%s%s", what, sep, ctl_error(conn()));
	else if (ctl_extack(conn()))
		pr_err("%s%s%s (%s)", what, sep, ctl_extack(conn()), strerror(-err));
	else
		pr_err("%s%s%s", what, sep, strerror(-err));
	return EXIT_FAIL;
}

void report_warning(const char *msg, void *arg)
{
	(void)arg;
	pr_warn("%s", msg);
}

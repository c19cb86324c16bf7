// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "fpm_log.h"

int fpm_log_level = LOG_INFO;

void fpm_log(int prio, const char *fmt, ...)
{
	/* "<N>": how systemd's journal reads a priority on stderr. */
	char line[1024];
	va_list ap;

	if (prio > fpm_log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (isatty(2))
		fprintf(stderr, "seg6x-fpmd: %s\n", line);
	else
		fprintf(stderr, "<%d>seg6x-fpmd: %s\n", prio, line);
}

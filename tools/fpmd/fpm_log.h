/* SPDX-License-Identifier: GPL-2.0 */
/* seg6x-fpmd's log: one line per event on stderr (the journal's input). */
#ifndef SEG6X_FPM_LOG_H
#define SEG6X_FPM_LOG_H

#include <syslog.h>

/* Lines of a priority above this (LOG_*) are dropped; -1: all are. */
extern int fpm_log_level;

void fpm_log(int prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* SEG6X_FPM_LOG_H */

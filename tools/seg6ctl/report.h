/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every diagnostic goes through here so that it starts with "seg6ctl: "
 * and, in batch mode, names the failing line.
 */
#ifndef SEG6CTL_REPORT_H
#define SEG6CTL_REPORT_H

#define PRINTF_LIKE(fmt, args) __attribute__((format(printf, fmt, args)))

/*
 * Batch file and line being run, so that messages start "FILE:LINE: ";
 * @file NULL outside batch mode.
 */
void report_set_line(const char *file, unsigned int line);
/* The line being run (0 outside batch mode). */
unsigned int report_line(void);

void pr_err(const char *fmt, ...) PRINTF_LIKE(1, 2);
void pr_warn(const char *fmt, ...) PRINTF_LIKE(1, 2);

/*
 * Prints the message and a hint at @object's help (the global help if
 * @object is NULL); returns EXIT_USAGE.
 */
int usage_error(const char *object, const char *fmt, ...) PRINTF_LIKE(2, 3);

/*
 * The one place where a failed ctl_* call becomes a message: @err (a
 * negative errno) with ctl_error() or the kernel's ctl_extack(). Returns
 * EXIT_FAIL.
 */
int report_ctl(int err);
/* The same, the message starting with "@what: " (NULL: none). */
int report_ctl_for(const char *what, int err);

/* pr_warn() for ctl_on_warning(). */
void report_warning(const char *msg, void *arg);

#endif /* SEG6CTL_REPORT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Prometheus text exposition format (version 0.0.4), as much of it as
 * seg6ctl prints on stdout: counter families, each announced by its
 * # HELP and # TYPE lines, and their samples. Every sample carries the
 * label netns="NETNS" when -n was given.
 */
#ifndef SEG6CTL_PROM_H
#define SEG6CTL_PROM_H

#include <stdint.h>

/* Starts the counter family @name: its # HELP and # TYPE lines. */
void prom_family(const char *name, const char *help);

/*
 * One sample of @name, @value, labelled @label="@val" unless @label is
 * NULL (and netns, with -n). Names are the caller's, valid as they are;
 * label values are escaped here.
 */
void prom_sample(const char *name, const char *label, const char *val,
		 uint64_t value);

/* The same with two labels. */
void prom_sample2(const char *name, const char *label1, const char *val1,
		  const char *label2, const char *val2, uint64_t value);

#endif /* SEG6CTL_PROM_H */

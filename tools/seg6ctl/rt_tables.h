/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of routing tables, read from iproute2's files as ip reads them:
 * "ID NAME" lines, ID decimal or 0x-hex, '#' starting a comment.
 */
#ifndef SEG6CTL_RT_TABLES_H
#define SEG6CTL_RT_TABLES_H

#include <stdint.h>
#include <stdio.h>

/*
 * Looks @name up in @f. Returns 1 and sets @id if a line names it, else
 * 0; lines that are not "ID NAME" are skipped, as ip skips them.
 */
int rt_tables_scan(FILE *f, const char *name, uint32_t *id);

/*
 * Looks @name up in /etc/iproute2/rt_tables, /etc/iproute2/rt_tables.d/
 * *.conf, then the same under /usr/share/iproute2 (where newer iproute2
 * keeps its defaults); the first file that names it wins. 1 or 0.
 */
int rt_tables_lookup(const char *name, uint32_t *id);

/* "main", "local" or "default" for the tables every kernel has, or NULL. */
const char *rt_tables_builtin_name(uint32_t id);

#endif /* SEG6CTL_RT_TABLES_H */

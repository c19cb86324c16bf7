/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the object files: they turn parse errors into usage
 * errors worded alike, and names of devices into indexes.
 */
#ifndef SEG6CTL_CLI_H
#define SEG6CTL_CLI_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Prints an object's usage text to stdout; returns EXIT_OK. */
int cli_help(const char *usage);

/* True if @argv[0] (when present) equals @cmd. */
bool cli_is(int argc, char **argv, const char *cmd);

/* Each returns EXIT_OK, or EXIT_USAGE after saying what @what got wrong. */
int cli_u32(const char *object, const char *what, const char *s,
	    uint32_t min, uint32_t max, uint32_t *out);
int cli_s32(const char *object, const char *what, const char *s,
	    int32_t min, int32_t max, int32_t *out);

/* EXIT_OK, or EXIT_FAIL if the current namespace has no such device. */
int cli_ifindex(const char *name, uint32_t *ifindex);

/* Name of @ifindex, or "if<N>" if it has gone (the way ip prints it). */
const char *cli_ifname(uint32_t ifindex, char buf[IF_NAMESIZE]);

#endif /* SEG6CTL_CLI_H */

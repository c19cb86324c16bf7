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

/*
 * One word of a command line and what it runs: an object of seg6ctl, or a
 * command of an object. @fn gets the words after the one that named it.
 * Entries sharing @fn are synonyms; all but the first have @help NULL.
 * Tables end with an entry whose @name is NULL.
 */
struct cli_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;	/* one line, for listings; NULL: a synonym */
};

/*
 * The entry that @word names, as ip reads its words: the exact name, or
 * else a prefix that names one command only (synonyms count once). NULL
 * if none does; then *@ambiguous tells whether several did.
 */
const struct cli_cmd *cli_lookup(const struct cli_cmd *cmds, const char *word,
				 bool *ambiguous);

/*
 * Runs the entry of @cmds that @argv[0] names with the words after it, or
 * the first entry (the object's default command) when @argc is 0. An
 * unknown or ambiguous word is a usage error, the candidates listed.
 * @object names the object in messages; NULL when @cmds lists objects.
 */
int cli_dispatch(const char *object, const struct cli_cmd *cmds,
		 int argc, char **argv);

/*
 * Sorts "KEY VALUE" pairs into @val, indexed like @keys (@n of them).
 * A key outside @allowed (bit i for @keys[i]), a key without a value and
 * a key given twice are usage errors of @object. @val starts all NULL.
 */
int cli_keys(const char *object, int argc, char **argv,
	     const char *const *keys, size_t n, unsigned int allowed,
	     const char **val);

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

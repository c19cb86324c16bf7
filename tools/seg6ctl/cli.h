/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the object files: they turn parse errors into usage
 * errors worded alike, and names of devices into indexes.
 */
#ifndef SEG6CTL_CLI_H
#define SEG6CTL_CLI_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Prints an object's usage text to stdout; returns EXIT_OK. */
int cli_help(const char *usage);

struct cli_object;

/*
 * One word of a command line and what it runs: an object of seg6ctl, or a
 * command of an object. @fn gets the words after the one that named it
 * and returns an exit status, or a negative errno from a ctl_* call
 * (cli_dispatch() reports it). Entries sharing @fn and @object are
 * synonyms; all but the first have @help NULL. Tables end with CLI_END.
 */
struct cli_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);	/* NULL: @object, or help */
	const char *help;	/* one line, for listings; NULL: a synonym */
	const struct cli_object *object;	/* an object's commands */
	bool reads;		/* only reads: never loads the module */
};

/* An object: its name, its usage text, and its commands. */
struct cli_object {
	const char *name;
	const char *usage;
	const struct cli_cmd *cmds;	/* the first: what OBJECT alone does */
};

/* The entries every object's table has, spelled once. */
#define CLI_SHOW(fn, help)						\
	{ "show", fn, help, NULL, true },				\
	{ "list", fn, NULL, NULL, true }, { "ls", fn, NULL, NULL, true }
#define CLI_HELP	{ "help", NULL, "print usage", NULL, true }
#define CLI_END		{ NULL, NULL, NULL, NULL, false }

/*
 * The entry that @word names, as ip reads its words: the exact name, or
 * else the first entry that @word is a prefix of (tables list reads
 * before changes). NULL if none.
 */
const struct cli_cmd *cli_lookup(const struct cli_cmd *cmds, const char *word);

/*
 * Runs the entry of @cmds that @argv[0] names with the words after it, or
 * the first entry (the default command) when @argc is 0; "help" prints
 * @object's usage, and an entry naming an object dispatches its commands.
 * An unknown word is a usage error.
 * @object is NULL when @cmds lists objects. Returns an exit status.
 */
int cli_dispatch(const struct cli_object *object, const struct cli_cmd *cmds,
		 int argc, char **argv);

/* "too many arguments" of @object if @argc is not 0; else EXIT_OK. */
int cli_no_args(const char *object, int argc);

/*
 * Sorts "KEY VALUE" pairs into @val, indexed like @keys (@n of them).
 * A key outside @allowed (bit i for @keys[i]), a key without a value and
 * a key given twice are usage errors of @object. @val starts all NULL.
 * A key may be spelled with '-' or nothing where @keys has '_'
 * (seg6-enabled, seg6enabled).
 */
int cli_keys(const char *object, int argc, char **argv,
	     const char *const *keys, size_t n, unsigned int allowed,
	     const char **val);
/* The same, where the keys of @valueless are flags: @val gets "". */
int cli_keys_flags(const char *object, int argc, char **argv,
		   const char *const *keys, size_t n, unsigned int allowed,
		   unsigned int valueless, const char **val);

/* Each returns EXIT_OK, or EXIT_USAGE after saying what @what got wrong. */
int cli_u32(const char *object, const char *what, const char *s,
	    uint32_t min, uint32_t max, uint32_t *out);
int cli_s32(const char *object, const char *what, const char *s,
	    int32_t min, int32_t max, int32_t *out);

/* EXIT_OK, or EXIT_FAIL if the current namespace has no such device. */
int cli_ifindex(const char *name, uint32_t *ifindex);

/*
 * @name, or else @value as a number: what seg6ctl prints for a value
 * newer than itself (an algorithm, a mode).
 */
const char *cli_name_or_number(const char *name, unsigned int value,
			       char buf[11]);

/*
 * Prints @n items of @size bytes each, as one JSON array with -j: @print
 * gets each item, and @jw NULL unless JSON is wanted.
 */
struct json_writer;
void cli_print_list(const void *items, size_t n, size_t size,
		    void (*print)(struct json_writer *jw, const void *item));

/* Name of @ifindex, or "if<N>" if it has gone (the way ip prints it). */
const char *cli_ifname(uint32_t ifindex, char buf[IF_NAMESIZE]);

#endif /* SEG6CTL_CLI_H */

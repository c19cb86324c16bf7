/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the object files share with main: exit statuses, the global
 * options, and one entry point per object.
 */
#ifndef SEG6CTL_COMMON_H
#define SEG6CTL_COMMON_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The version of seg6ctl's JSON documents: fields are only ever added
 * under one version; removing, renaming or retyping one bumps it.
 * seg6ctl -j info reports it.
 */
#define SEG6CTL_JSON_SCHEMA 1

/* The release, from the VERSION file (the Makefile passes it). */
#ifndef SEG6X_VERSION
#define SEG6X_VERSION "unknown"
#endif

/* Exit statuses, as seg6ctl(8) documents them. */
enum {
	EXIT_OK		= 0,
	EXIT_FAIL	= 1,	/* the kernel or the system refused */
	EXIT_USAGE	= 2,	/* the command line is wrong */
};

struct conf;

struct options {
	bool json;
	bool pretty;
	bool stdin_busy;	/* batch commands come from stdin */
	bool force;		/* batch: go on past failing lines */
	bool check;		/* -c: parse and check, send nothing */
	bool stats;		/* -s: show counters (route show) */
	bool batch;		/* a batch is running (-b, or sync's FILE) */
	const char *netns;	/* -n NETNS, or NULL */
	/*
	 * seg6ctl sync is reading its FILE: the commands that declare
	 * configuration hand it over here instead of to the kernel
	 * (conf.h), the others are refused.
	 */
	struct conf *collect;
};

extern struct options opts;

/*
 * The objects, each in its own file (cli.h): seg6ctl.c lists them. To
 * add one, define its cli_object in OBJECT.c and add a line to the
 * objects[] table of seg6ctl.c.
 */
struct cli_object;
extern const struct cli_object route_object;
extern const struct cli_object hmac_object;
extern const struct cli_object tunsrc_object;
extern const struct cli_object iface_object;
extern const struct cli_object stats_object;
extern const struct cli_object info_object;
extern const struct cli_object sid_object;

/* seg6ctl save: takes "keydir DIR" (or "help") straight after it. */
int do_save(int argc, char **argv);
/* seg6ctl sync [--dry-run] [--all-owners] FILE (sync.c). */
int do_sync(int argc, char **argv);
/* Runs the commands of @path ("-": stdin), as -b does (seg6ctl.c). */
int run_batch(const char *path);

/*
 * The parts of "seg6ctl save": each prints its object's configuration as
 * batch commands on stdout and returns 0 or a negative errno.
 */
int tunsrc_save(void);
int iface_save(void);
/* Keys as "secret-file @keydir/KEYID"; @keydir is quoted if need be. */
int hmac_save(const char *keydir);
int route_save(void);
int sid_save(void);

/*
 * One object as show prints it (text: the syntax of its add command;
 * JSON with @jw), for show and for "seg6ctl monitor"; @state adds what
 * is not configuration (counters, dead).
 */
struct json_writer;
struct ctl_route;
struct ctl_sid;
struct ctl_key;
struct ctl_iface;
void route_print(struct json_writer *jw, const struct ctl_route *r, bool state);
void sid_print(struct json_writer *jw, const struct ctl_sid *s, bool state);
void hmac_print(struct json_writer *jw, const struct ctl_key *key);
void iface_print(struct json_writer *jw, const struct ctl_iface *iface);

/*
 * The fields of a route or SID as route_print() and sid_print() print
 * them, into an output that the caller started and ends (out.h). A
 * device is printed by name: @dev (and @vrf) if not NULL, else the name
 * of its index.
 */
struct out;
void stats_out_drops(struct out *o, const uint64_t *values);
void route_fields(struct out *o, const struct ctl_route *r, bool state,
		  const char *const *devs);
void sid_fields(struct out *o, const struct ctl_sid *s, bool state,
		const char *dev, const char *vrf);

/* seg6ctl monitor [all | OBJECT...] (monitor.c) */
int do_monitor(int argc, char **argv);

#endif /* SEG6CTL_COMMON_H */

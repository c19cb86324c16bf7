/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the object files share with main: exit statuses, the global
 * options, and one entry point per object.
 */
#ifndef SEG6CTL_H
#define SEG6CTL_H

#include <stdbool.h>

/* Exit statuses fixed by the contract. */
enum {
	EXIT_OK		= 0,
	EXIT_FAIL	= 1,	/* the kernel or the system refused */
	EXIT_USAGE	= 2,	/* the command line is wrong */
};

struct options {
	bool json;
	bool pretty;
	bool stdin_busy;	/* batch commands come from stdin */
	bool force;		/* batch: go on past failing lines */
};

extern struct options opts;

/*
 * Object entry points: argv[0] is the COMMAND (argc may be 0), and the
 * return value is an exit status.
 */
int do_route(int argc, char **argv);
int do_hmac(int argc, char **argv);
int do_tunsrc(int argc, char **argv);
int do_iface(int argc, char **argv);
int do_stats(int argc, char **argv);
int do_info(int argc, char **argv);
int do_save(int argc, char **argv);

/*
 * The parts of "seg6ctl save": each prints its object's configuration as
 * batch commands on stdout and returns an exit status.
 */
int tunsrc_save(void);
int iface_save(void);
/* Keys as "secret-file @keydir/KEYID"; @keydir is quoted if need be. */
int hmac_save(const char *keydir);
int route_save(void);

#endif /* SEG6CTL_H */

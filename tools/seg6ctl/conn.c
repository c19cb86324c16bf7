// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "conn.h"

static struct ctl *handle;

struct ctl *conn(void)
{
	if (!handle) {
		handle = ctl_new();
		if (!handle) {
			fputs("seg6ctl: out of memory\n", stderr);
			exit(1);
		}
		/* -c: everything is checked, nothing reaches a kernel. */
		ctl_set_dry_run(handle, opts.check);
		/*
		 * One command, a batch or a sync: the module's LWT slot is
		 * asked once, not before each route of a batch.
		 */
		ctl_set_cache_lwt_type(handle, true);
	}
	return handle;
}

void conn_close(void)
{
	ctl_free(handle);
	handle = NULL;
}

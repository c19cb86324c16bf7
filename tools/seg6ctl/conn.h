/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seg6ctl's one libseg6x handle: every command of a run (a batch
 * included) talks to the kernel through it.
 */
#ifndef SEG6CTL_CONN_H
#define SEG6CTL_CONN_H

#include "libseg6x.h"

/* The handle, made on first use (exits if out of memory). */
struct ctl *conn(void);
/* Frees it (sockets closed); the next conn() makes a new one. */
void conn_close(void);

#endif /* SEG6CTL_CONN_H */

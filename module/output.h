/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - the LOCAL_OUT hook that signs per-socket SRHs.
 */
#ifndef _SEG6X_OUTPUT_H
#define _SEG6X_OUTPUT_H

#include <net/net_namespace.h>

/* Pernet ops of the socket-signing hook (registered after pernet.c's). */
int seg6x_output_register(void);
void seg6x_output_unregister(void);

/* Hook @net, if not done yet. Genl mutex held. */
int seg6x_output_use(struct net *net);

#endif /* _SEG6X_OUTPUT_H */

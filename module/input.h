/* SPDX-License-Identifier: GPL-2.0 */
/*
 * input.h - the PRE_ROUTING hook for packets carrying an SRH.
 */
#ifndef _SEG6X_INPUT_H
#define _SEG6X_INPUT_H

#include <net/net_namespace.h>

/* Pernet ops of the endpoint hook (registered after pernet.c's). */
int seg6x_input_register(void);
void seg6x_input_unregister(void);

/* Hook @net, if not done yet. Genl mutex. */
int seg6x_input_use(struct net *net);

#endif /* _SEG6X_INPUT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * input.h - the PRE_ROUTING hook for packets carrying an SRH.
 */
#ifndef _SEG6X_INPUT_H
#define _SEG6X_INPUT_H

#include <net/net_namespace.h>

int seg6x_input_net_init(struct net *net);
void seg6x_input_net_exit(struct net *net);

#endif /* _SEG6X_INPUT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - the LOCAL_OUT hook that signs per-socket SRHs.
 */
#ifndef _SEG6X_OUTPUT_H
#define _SEG6X_OUTPUT_H

#include <net/net_namespace.h>

int seg6x_output_net_init(struct net *net);
void seg6x_output_net_exit(struct net *net);

#endif /* _SEG6X_OUTPUT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sock_sign.h - the POST_ROUTING hook that signs per-socket SRHs.
 */
#ifndef _SEG6X_SOCK_SIGN_H
#define _SEG6X_SOCK_SIGN_H

#include <net/net_namespace.h>

/* Pernet ops of the socket-signing hook (registered after pernet.c's). */
int seg6x_sock_sign_register(void);
void seg6x_sock_sign_unregister(void);

/* Hook @net, if not done yet. Genl mutex held. */
int seg6x_sock_sign_use(struct net *net);

#endif /* _SEG6X_SOCK_SIGN_H */

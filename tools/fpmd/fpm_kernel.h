/* SPDX-License-Identifier: GPL-2.0 */
/* struct fpm_kernel on libseg6x, and VRF devices from rtnetlink. */
#ifndef SEG6X_FPM_KERNEL_H
#define SEG6X_FPM_KERNEL_H

#include "fpm_state.h"
#include "libseg6x.h"

/* Fills @k with calls on @c (ctl_route_add(), ctl_sid_set()...). */
void fpm_kernel_libseg6x(struct fpm_kernel *k, struct ctl *c);

/*
 * A socket on the kernel's IPv4 and IPv6 route notifications (-1 and
 * errno on failure), and what to do when it is readable: each
 * notification of a route at the place of one of ours goes to
 * fpm_state_kernel_route(). Reading it before each FPM frame is what
 * keeps the state's view of the kernel ahead of zebra's updates.
 */
int fpm_kernel_monitor(void);
void fpm_kernel_monitor_read(int fd, struct ctl *c, struct fpm_state *st);

#endif /* SEG6X_FPM_KERNEL_H */

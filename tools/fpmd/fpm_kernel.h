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
 * errno on failure), and what to do when it is readable: every route of
 * ours that another route replaced (zebra's in-tree one) is installed
 * again; see fpm_state_overwritten().
 */
int fpm_kernel_monitor(void);
void fpm_kernel_monitor_read(int fd, struct ctl *c, struct fpm_state *st);

#endif /* SEG6X_FPM_KERNEL_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* struct fpm_kernel on libseg6x, and VRF devices from rtnetlink. */
#ifndef SEG6X_FPM_KERNEL_H
#define SEG6X_FPM_KERNEL_H

#include "fpm_state.h"
#include "libseg6x.h"

/* Fills @k with calls on @c (ctl_route_add(), ctl_sid_set()...). */
void fpm_kernel_libseg6x(struct fpm_kernel *k, struct ctl *c);

#endif /* SEG6X_FPM_KERNEL_H */

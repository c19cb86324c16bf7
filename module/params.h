/* SPDX-License-Identifier: GPL-2.0 */
/*
 * params.h - module parameters (params.c). Read-only after load.
 */
#ifndef _SEG6X_PARAMS_H
#define _SEG6X_PARAMS_H

extern int seg6x_param_enabled;
extern int seg6x_param_require_hmac;
extern int seg6x_param_allow_inline;
extern int seg6x_param_lwt_type;
extern int seg6x_param_sid_max;

/*
 * SIDs are writable from unprivileged user namespaces: their memory is
 * charged to the caller's memory cgroup, and their number is capped.
 */
#define SEG6X_SID_MAX_DEFAULT	262144

#endif /* _SEG6X_PARAMS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * seg6ctl sync's two ends for a plan (plan.h): printing it (--dry-run,
 * sync_print.c) and taking its steps (sync_apply.c).
 */
#ifndef SEG6CTL_SYNC_H
#define SEG6CTL_SYNC_H

#include <stddef.h>

#include "plan.h"

/* One line per step ("+ route ...", "- sid ...", "~ hmac ..."), or JSON. */
void sync_print(const struct plan *p);

/*
 * Takes the steps in order, going on past those that fail; each failure
 * is reported with the FILE:LINE that declared the entry. Returns EXIT_OK,
 * or EXIT_FAIL if any step failed.
 */
int sync_apply(const struct plan *p, const char *file);

/* "route fc00::/64 (table main, metric 1024)", "hmac 7", "iface eth0". */
void sync_step_name(const struct plan_step *s, char *buf, size_t len);
/* Why the step is what it is, in words; "" if plain. */
void sync_step_note(const struct plan_step *s, char *buf, size_t len);
/* The device the step needs that does not exist (WHY_NODEV), or "". */
const char *sync_step_missing_dev(const struct plan_step *s);

#endif /* SEG6CTL_SYNC_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SEG6CTL_INFO_H
#define SEG6CTL_INFO_H

#include <stdbool.h>
#include <stdint.h>

/* What SEG6X_CMD_INFO_GET reports about the loaded module. */
struct seg6x_info {
	char version[64];
	uint16_t lwt_type;
	bool allow_inline;
	uint32_t max_segs;
	uint8_t def_seg6_enabled;
	int8_t def_require_hmac;
};

/*
 * Fills @info from the kernel; EXIT_OK, or EXIT_FAIL after reporting
 * (e.g. that the module is not loaded). route needs the LWT slot.
 */
int seg6x_info_get(struct seg6x_info *info);

#endif /* SEG6CTL_INFO_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zebra's routes through kernel next hop objects (RTA_NH_ID): which
 * encap the object carries.
 */
#ifndef SEG6X_FPM_NHOBJ_H
#define SEG6X_FPM_NHOBJ_H

#include <stdint.h>

/* LWTUNNEL_ENCAP_* of object @id (a group: its first member's); 0: none. */
uint16_t fpm_nhobj_encap(uint32_t id);

#endif /* SEG6X_FPM_NHOBJ_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * genl_family.h - the SEG6X generic netlink family (defined in genl.c),
 * for the files that build its messages.
 */
#ifndef _SEG6X_GENL_FAMILY_H
#define _SEG6X_GENL_FAMILY_H

#include <net/genetlink.h>

extern struct genl_family seg6x_genl_family;

#endif /* _SEG6X_GENL_FAMILY_H */

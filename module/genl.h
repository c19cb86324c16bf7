/* SPDX-License-Identifier: GPL-2.0 */
/*
 * genl.h - the SEG6X generic netlink family.
 */
#ifndef _SEG6X_GENL_H
#define _SEG6X_GENL_H

int seg6x_genl_register(void);
void seg6x_genl_unregister(void);

#endif /* _SEG6X_GENL_H */

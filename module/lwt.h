/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lwt.h - seg6x's lightweight-tunnel encapsulation (routes with an SRH).
 */
#ifndef _SEG6X_LWT_H
#define _SEG6X_LWT_H

/* Claims an LWT encap slot (module parameter lwt_type, 0 = auto). */
int seg6x_lwt_register(int requested);
void seg6x_lwt_unregister(void);
/* The slot claimed by seg6x_lwt_register(). */
int seg6x_lwt_slot(void);

#endif /* _SEG6X_LWT_H */

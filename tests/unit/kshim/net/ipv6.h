/* SPDX-License-Identifier: GPL-2.0 */
/* The part of the kernel's net/ipv6.h that module/srh.c uses. */
#ifndef SEG6X_KSHIM_NET_IPV6_H
#define SEG6X_KSHIM_NET_IPV6_H

#include <linux/skbuff.h>

#define NEXTHDR_HOP		0
#define NEXTHDR_ROUTING		43
#define NEXTHDR_FRAGMENT	44
#define NEXTHDR_AUTH		51
#define NEXTHDR_DEST		60

#define ipv6_optlen(p)		(((p)->hdrlen + 1) << 3)

#endif /* SEG6X_KSHIM_NET_IPV6_H */

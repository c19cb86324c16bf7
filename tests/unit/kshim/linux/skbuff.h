/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel for module/srh.c to build in user space: its
 * types, and an sk_buff that is a flat buffer holding the IPv6 packet.
 */
#ifndef SEG6X_KSHIM_SKBUFF_H
#define SEG6X_KSHIM_SKBUFF_H

#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <linux/ipv6.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;

#define cpu_to_be32(x)	htobe32(x)

struct sk_buff {
	unsigned char *data;	/* the IPv6 header */
	unsigned int len;
};

static inline unsigned char *skb_network_header(const struct sk_buff *skb)
{
	return skb->data;
}

static inline int skb_network_offset(const struct sk_buff *skb)
{
	(void)skb;
	return 0;
}

static inline struct ipv6hdr *ipv6_hdr(const struct sk_buff *skb)
{
	return (struct ipv6hdr *)skb->data;
}

static inline void *skb_header_pointer(const struct sk_buff *skb, int offset,
				       int len, void *buffer)
{
	(void)buffer;
	if (offset < 0 || (unsigned int)offset + (unsigned int)len > skb->len)
		return NULL;
	return skb->data + offset;
}

#endif /* SEG6X_KSHIM_SKBUFF_H */

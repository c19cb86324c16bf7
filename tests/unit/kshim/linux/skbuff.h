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
typedef int64_t s64;

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define noinline		__attribute__((__noinline__))
#ifndef __always_inline		/* glibc's <sys/cdefs.h> has one */
#define __always_inline		inline __attribute__((__always_inline__))
#endif

#define cpu_to_be32(x)	htobe32(x)

struct sk_buff {
	unsigned char *data;	/* the IPv6 header */
	unsigned int len;
	/*
	 * How much of it is linear; the rest stands for paged data, which
	 * only skb_header_pointer() and skb_copy_bits() read. 0: all of it.
	 */
	unsigned int headlen;
};

static inline unsigned int skb_headlen(const struct sk_buff *skb)
{
	return skb->headlen ? skb->headlen : skb->len;
}

static inline int skb_copy_bits(const struct sk_buff *skb, int offset,
				void *to, int len)
{
	if (offset < 0 || len < 0 ||
	    (unsigned int)offset + (unsigned int)len > skb->len)
		return -EFAULT;
	memcpy(to, skb->data + offset, (size_t)len);
	return 0;
}

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

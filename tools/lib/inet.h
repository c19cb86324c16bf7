/* SPDX-License-Identifier: GPL-2.0 */
/* Addresses of either family, as libseg6x's routes carry them. */
#ifndef LIBSEG6X_INET_H
#define LIBSEG6X_INET_H

#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

struct inet_addr {
	int family;		/* AF_INET or AF_INET6 */
	uint8_t bytes[16];	/* network order; AF_INET uses the first 4 */
};

struct inet_prefix {
	struct inet_addr addr;
	unsigned int len;	/* in bits */
};

/* Bytes of an address of @family: 4, 16, or 0 if unknown. */
size_t inet_addr_len(int family);

#endif /* LIBSEG6X_INET_H */

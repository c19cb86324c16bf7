// SPDX-License-Identifier: GPL-2.0
#include <netinet/in.h>
#include <sys/socket.h>

#include "inet.h"

size_t inet_addr_len(int family)
{
	switch (family) {
	case AF_INET:
		return sizeof(struct in_addr);
	case AF_INET6:
		return sizeof(struct in6_addr);
	}
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hmac.h - HMAC keyring and SRH HMAC computation (RFC 8754 section 2.1.2,
 * computed exactly as the in-tree Linux seg6 does, for interoperability).
 */
#ifndef _SEG6X_HMAC_H
#define _SEG6X_HMAC_H

#include <linux/in6.h>
#include <linux/seg6.h>
#include <linux/seg6x.h>

#include "pernet.h"

struct seg6x_hmac_key;

/* Keys per network namespace. */
#define SEG6X_HMAC_KEYS_MAX	1024

/* Control path (process context, genl mutex held). */
int seg6x_hmac_register(void);
void seg6x_hmac_unregister(void);

int seg6x_hmac_set(struct seg6x_net *sn, u32 keyid, u8 algo,
		   const u8 *secret, unsigned int len);
int seg6x_hmac_del(struct seg6x_net *sn, u32 keyid);
/* Iterate keys from *pos for dumps; returns false at the end. */
bool seg6x_hmac_next(struct seg6x_net *sn, unsigned long *pos, u32 *keyid,
		     u8 *algo);
bool seg6x_hmac_exists(struct seg6x_net *sn, u32 keyid);

/*
 * Packet path, under rcu_read_lock() (the netfilter hooks' and the LWT
 * callbacks' own), which keeps the key alive. Computes the 32-byte HMAC
 * field of @srh (whose key id is @keyid) for a packet from @saddr.
 * Returns 0, or -ENOKEY when the key is not in the keyring.
 */
int seg6x_hmac_compute(struct seg6x_net *sn, u32 keyid,
		       const struct in6_addr *saddr,
		       const struct ipv6_sr_hdr *srh,
		       u8 out[SEG6X_HMAC_FIELD_LEN]);

#endif /* _SEG6X_HMAC_H */

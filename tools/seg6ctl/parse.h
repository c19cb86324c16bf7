/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure parsers for seg6ctl's arguments: no I/O and no global state, so
 * that tests/unit can exercise every rejection path.
 *
 * Unless stated otherwise, each returns 0 on success or a negative errno:
 *   -EINVAL  malformed input: junk, a bad address, an empty list element,
 *            an unknown keyword, a sign where none is allowed
 *   -ERANGE  a well-formed number (or prefix length) outside its range
 *   -E2BIG   more elements than the caller has room for
 *   -EDOM    a prefix with bits set beyond its length (fc00::1/64)
 */
#ifndef SEG6CTL_PARSE_H
#define SEG6CTL_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#include "inet.h"

/* Decimal only, no sign, no blanks: "-1" and "1x" are -EINVAL. */
int parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out);
/* Decimal with an optional leading '-'. */
int parse_s32(const char *s, int32_t min, int32_t max, int32_t *out);

int parse_in6(const char *s, struct in6_addr *out);
/* IPv6 if @s has a ':', else IPv4 dotted quad. */
int parse_inet_addr(const char *s, struct inet_addr *out);
/* ADDR/LEN, or a bare ADDR meaning a host prefix (/32, /128). */
int parse_inet_prefix(const char *s, struct inet_prefix *out);

/* A route's destination: "default" (::/0), or as parse_inet_prefix(). */
int parse_route_prefix(const char *s, struct inet_prefix *out);

/* "SEG[,SEG...]" of IPv6 addresses, at most @max of them. */
int parse_segs(const char *s, struct in6_addr *segs, size_t max, size_t *n);

/*
 * Kinds of IPv6 address that a field may refuse, as the module checks
 * them (so that -c finds what the kernel would refuse).
 */
#define IN6_KIND_ANY		0x1	/* :: */
#define IN6_KIND_MULTICAST	0x2	/* ff00::/8 */
#define IN6_KIND_LOOPBACK	0x4	/* ::1 */
#define IN6_KIND_MAPPED		0x8	/* ::ffff:0:0/96 */

/* The kinds among @refuse that @a is of: 0 if none. */
unsigned int in6_kind(const struct in6_addr *a, unsigned int refuse);
/* Index of the first of @n addresses of a kind in @refuse, or -1. */
int in6_first_of_kind(const struct in6_addr *a, size_t n, unsigned int refuse);
/* An IPv4 unicast address: not 0.0.0.0/8, 224.0.0.0/4 or 255.255.255.255. */
bool in4_unicast(const struct in_addr *a);

/*
 * Index of @s in @words (exact, case-sensitive match); NULL entries are
 * holes, so a table indexed by enum value maps words straight to values.
 * Returns -EINVAL if @s is not there.
 */
int parse_keyword(const char *s, const char *const *words, size_t n);

/* SEG6X_HMAC_ALGO_* for "sha1"/"sha256", else -EINVAL. */
int parse_hmac_algo(const char *s);
/* Name of an algorithm, or NULL if this seg6ctl does not know it. */
const char *hmac_algo_name(unsigned int algo);

/* SEG6X_IPTUN_MODE_* for "encap"/"inline", else -EINVAL. */
int parse_mode(const char *s);
const char *mode_name(unsigned int mode);

/* Routing table: "main", "local", "default" or 1..4294967295. */
int parse_table(const char *s, uint32_t *out);

/*
 * Splits one batch line in place into at most @max words: blanks separate
 * words, double quotes group (and are removed), and a word starting with
 * '#' starts a comment. Returns the word count, -EINVAL for an unterminated
 * quote, or -E2BIG.
 */
int split_line(char *line, char **argv, int max);

/* Length of @buf once one trailing newline is dropped. */
size_t trim_newline(const char *buf, size_t len);

#endif /* SEG6CTL_PARSE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rtnetlink messages zebra sends over FPM, decoded into plain
 * structs: routes (RTM_NEWROUTE, RTM_DELROUTE, rtnetlink(7)) and next hop
 * objects (RTM_NEWNEXTHOP, RTM_DELNEXTHOP, linux/nexthop.h), with their
 * lightweight-tunnel encapsulations when they are SRv6 ones (SEG6:
 * linux/seg6_iptunnel.h, SEG6_LOCAL: linux/seg6_local.h).
 *
 * Decoding is pure: it reads the message and nothing else, never past
 * the length it is given, and fails as a whole (-EBADMSG) on anything
 * malformed. What it does not know but can step over (an attribute, an
 * encap type, an action) is listed in the message's notes for the
 * caller to log.
 */
#ifndef SEG6X_FPM_DECODE_H
#define SEG6X_FPM_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>
#include <linux/seg6x.h>

#include "inet.h"

#define FPM_MAX_SEGS	SEG6X_MAX_SEGS
#define FPM_MAX_PATHS	16	/* RTA_MULTIPATH entries kept */
#define FPM_MAX_GROUP	32	/* NHA_GROUP members kept */
#define FPM_MAX_NOTES	8

/* A segment list, in path order (the SRH holds it reversed). */
struct fpm_srh {
	size_t nsegs;		/* 0: none */
	struct in6_addr segs[FPM_MAX_SEGS];
	bool has_hmac;		/* an HMAC TLV (RFC 8754 2.1.2) */
	uint32_t hmac;		/* its key id */
};

enum fpm_encap_kind {
	FPM_ENCAP_NONE,
	FPM_ENCAP_SEG6,		/* LWTUNNEL_ENCAP_SEG6 */
	FPM_ENCAP_SEG6_LOCAL,	/* LWTUNNEL_ENCAP_SEG6_LOCAL */
	FPM_ENCAP_OTHER,	/* any other: not an SRv6 one */
};

/* SEG6_LOCAL_*: bit (1 << attr) in fpm_seg6_local.attrs when present. */
#define FPM_LOCAL_F(attr)	(1u << (attr))

struct fpm_seg6_local {
	uint32_t action;	/* SEG6_LOCAL_ACTION_* */
	uint32_t attrs;		/* FPM_LOCAL_F() */
	uint32_t table, vrftable, iif, oif;
	struct in_addr nh4;
	struct in6_addr nh6;
	struct fpm_srh srh;	/* SEG6_LOCAL_SRH */
	uint32_t flv_ops;	/* SEG6_LOCAL_FLV_OPERATION: 1 << SEG6_LOCAL_FLV_OP_* */
	bool has_lblen, has_nflen;
	uint8_t lblen, nflen;
};

struct fpm_encap {
	enum fpm_encap_kind kind;
	uint16_t type;		/* LWTUNNEL_ENCAP_* of the one kept */
	uint32_t mode;		/* SEG6: SEG6_IPTUN_MODE_* */
	struct fpm_srh srh;	/* SEG6 */
	struct fpm_seg6_local local;	/* SEG6_LOCAL */
};

/* One next hop: of a route, an RTA_MULTIPATH entry or a nexthop object. */
struct fpm_path {
	uint32_t oif;
	uint16_t weight;	/* 1..256 in a multipath route or group; else 0 */
	bool has_gw;
	struct inet_addr gw;
	bool onlink;
	struct fpm_encap encap;
};

struct fpm_route {
	struct inet_prefix dst;
	uint32_t table;		/* RTA_TABLE, else rtm_table */
	uint8_t protocol, type, scope;
	uint32_t flags;		/* rtm_flags */
	bool has_metric;
	uint32_t metric;	/* RTA_PRIORITY */
	uint32_t nh_id;		/* RTA_NH_ID; 0: none */
	size_t npaths;		/* 0 (a delete), 1, or RTA_MULTIPATH's count */
	struct fpm_path paths[FPM_MAX_PATHS];	/* the first FPM_MAX_PATHS */
};

struct fpm_nh_member {
	uint32_t id;
	uint8_t weight;		/* as sent: the weight minus 1 */
};

struct fpm_nexthop {
	uint32_t id;		/* NHA_ID, never 0 */
	int family;
	uint8_t protocol;
	bool blackhole;
	struct fpm_path path;
	size_t ngroup;		/* NHA_GROUP members sent; 0: not a group */
	struct fpm_nh_member group[FPM_MAX_GROUP];	/* the first ones */
};

/* What a message held that the decoder stepped over (fpm_note_name()). */
enum fpm_note_ctx {
	FPM_NOTE_MSG,		/* a message type */
	FPM_NOTE_FAMILY,	/* a route family other than IPv4, IPv6 */
	FPM_NOTE_RTA,		/* a route attribute */
	FPM_NOTE_NHA,		/* a nexthop attribute */
	FPM_NOTE_ENCAP,		/* an encap type */
	FPM_NOTE_SEG6,		/* a SEG6_IPTUNNEL_* attribute */
	FPM_NOTE_SEG6_LOCAL,	/* a SEG6_LOCAL_* attribute */
	FPM_NOTE_FLAVOR,	/* a SEG6_LOCAL_FLV_* attribute */
	FPM_NOTE_SEGS,		/* more segments than FPM_MAX_SEGS (the count) */
	FPM_NOTE_PATHS,		/* more paths or members than kept (the count) */
	FPM_NOTE_NEST,		/* an encap given twice (the count) */
};

struct fpm_note {
	uint8_t ctx;		/* enum fpm_note_ctx */
	uint32_t value;
};

struct fpm_msg {
	uint16_t type;		/* nlmsg_type */
	uint16_t flags;		/* nlmsg_flags */
	bool ignored;		/* not a message, or family, that matters */
	union {
		struct fpm_route route;		/* RTM_*ROUTE */
		struct fpm_nexthop nh;		/* RTM_*NEXTHOP */
	};
	size_t nnotes;
	struct fpm_note notes[FPM_MAX_NOTES];
};

/*
 * Decodes the netlink message of @len bytes at @buf (as fpm_check_msgs()
 * passed it) into *@m: 0 or -EBADMSG.
 */
int fpm_decode(const uint8_t *buf, size_t len, struct fpm_msg *m);

/* "RTA_ENCAP_TYPE 9", "SEG6_LOCAL action 12 (End.S)"...: into @buf. */
const char *fpm_note_name(const struct fpm_note *n, char *buf, size_t size);

#endif /* SEG6X_FPM_DECODE_H */

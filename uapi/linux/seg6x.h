/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * seg6x - IPv6 Segment Routing as an out-of-tree module.
 *
 * The single source of definitions shared by the kernel module and
 * userspace (seg6ctl): the "SEG6X" generic netlink family, and the nested
 * attributes of seg6x's lightweight-tunnel encapsulation (RTA_ENCAP with
 * RTA_ENCAP_TYPE = the slot reported by SEG6X_CMD_INFO_GET).
 */
#ifndef _UAPI_LINUX_SEG6X_H
#define _UAPI_LINUX_SEG6X_H

#include <linux/types.h>

#define SEG6X_GENL_NAME		"SEG6X"
#define SEG6X_GENL_VERSION	1

/*
 * Multicast group of change events, open to every user of the namespace
 * (no secret is ever in one). Each change is sent as the command that
 * made it, with what a *_GET reply would hold: SEG6X_CMD_TUNSRC_SET
 * (TUNSRC), HMAC_SET (HMAC_KEYID, HMAC_ALGO), HMAC_DEL (HMAC_KEYID),
 * IFACE_SET (the interface's effective policy, as IFACE_GET), STATS_RESET,
 * SID_SET and SID_DEL (the SID, as SID_GET), SID_FLUSH. Routes are
 * rtnetlink's: RTNLGRP_IPV4_ROUTE and RTNLGRP_IPV6_ROUTE carry them.
 */
#define SEG6X_GENL_MCGRP_EVENTS	"events"

/* Limits shared by the kernel's validation and seg6ctl's parser. */
#define SEG6X_MAX_SEGS		64	/* segments per route */
#define SEG6X_MAX_SEGS_HMAC	14	/* HMAC text must stay < 256 bytes */
#define SEG6X_HMAC_SECRET_MAX	64
#define SEG6X_HMAC_FIELD_LEN	32

/*
 * Generic netlink commands, each acting on the caller's network namespace.
 * The changes (*_SET, *_DEL, STATS_RESET, SID_FLUSH) need CAP_NET_ADMIN in
 * the user namespace owning the network namespace; the reads (*_GET) are
 * open to every user, and never return an HMAC secret.
 */
enum seg6x_cmd {
	SEG6X_CMD_UNSPEC,
	SEG6X_CMD_INFO_GET,	/* -> VERSION, LWT_TYPE, ALLOW_INLINE, ... */
	SEG6X_CMD_TUNSRC_SET,	/* TUNSRC (:: = source address selection) */
	SEG6X_CMD_TUNSRC_GET,	/* -> TUNSRC */
	SEG6X_CMD_HMAC_SET,	/* HMAC_KEYID, HMAC_ALGO, HMAC_SECRET */
	SEG6X_CMD_HMAC_DEL,	/* HMAC_KEYID */
	SEG6X_CMD_HMAC_GET,	/* dump -> HMAC_KEYID, HMAC_ALGO (never the secret) */
	SEG6X_CMD_IFACE_SET,	/* IFINDEX (0 = default), SEG6_ENABLED?, REQUIRE_HMAC? */
	/* dump; first message is the default (IFINDEX 0). An interface's
	 * replies (not its events) also carry STATS: its drop counters
	 * (SEG6X_STAT_DROP_* but DROP_DISABLED, a packet handed back to the
	 * stack), reset with the namespace's by STATS_RESET.
	 */
	SEG6X_CMD_IFACE_GET,
	SEG6X_CMD_STATS_GET,	/* -> STATS (nested, enum seg6x_stat) */
	SEG6X_CMD_STATS_RESET,
	/* SID (nested seg6x_sid_attr): add (-EEXIST if the prefix is
	 * taken), or with SEG6X_SID_REPLACE replace or create
	 */
	SEG6X_CMD_SID_SET,
	SEG6X_CMD_SID_DEL,	/* SID: PREFIX, PREFIX_LEN */
	SEG6X_CMD_SID_GET,	/* doit (SID: PREFIX, PREFIX_LEN) or dump -> SID */
	SEG6X_CMD_SID_FLUSH,	/* every SID of the namespace */
	__SEG6X_CMD_MAX,
};
#define SEG6X_CMD_MAX (__SEG6X_CMD_MAX - 1)

enum seg6x_attr {
	SEG6X_A_UNSPEC,
	SEG6X_A_PAD,
	SEG6X_A_VERSION,	/* string */
	SEG6X_A_LWT_TYPE,	/* u16: LWT encap slot claimed by seg6x */
	SEG6X_A_ALLOW_INLINE,	/* u8 0/1 */
	SEG6X_A_TUNSRC,		/* binary: struct in6_addr */
	SEG6X_A_HMAC_KEYID,	/* u32, 1..U32_MAX */
	SEG6X_A_HMAC_ALGO,	/* u8, enum seg6x_hmac_algo */
	SEG6X_A_HMAC_SECRET,	/* binary, 1..SEG6X_HMAC_SECRET_MAX bytes */
	SEG6X_A_IFINDEX,	/* u32, 0 = the namespace's default */
	SEG6X_A_IFNAME,		/* string (replies only) */
	SEG6X_A_SEG6_ENABLED,	/* u8 0/1 (effective value in replies) */
	SEG6X_A_REQUIRE_HMAC,	/* s8 -1/0/1 (effective value in replies) */
	SEG6X_A_STATS,		/* nested enum seg6x_stat, each u64 */
	SEG6X_A_MAX_SEGS,	/* u32 (info) */
	SEG6X_A_DEF_SEG6_ENABLED,	/* u8: module parameter seg6_enabled (info) */
	SEG6X_A_DEF_REQUIRE_HMAC,	/* s8: module parameter seg6_require_hmac (info) */
	SEG6X_A_IFACE_EXPLICIT,	/* u8 SEG6X_IFACE_EXPLICIT_* (replies) */
	SEG6X_A_SID,		/* nested enum seg6x_sid_attr */
	__SEG6X_A_MAX,
};
#define SEG6X_A_MAX (__SEG6X_A_MAX - 1)

/* SEG6X_A_IFACE_EXPLICIT: fields set on the interface, not inherited */
#define SEG6X_IFACE_EXPLICIT_ENABLED	0x1
#define SEG6X_IFACE_EXPLICIT_HMAC	0x2

enum seg6x_hmac_algo {
	SEG6X_HMAC_ALGO_UNSPEC,
	SEG6X_HMAC_ALGO_SHA1 = 1,	/* same values as the in-tree seg6 */
	SEG6X_HMAC_ALGO_SHA256 = 2,
	__SEG6X_HMAC_ALGO_MAX,
};
#define SEG6X_HMAC_ALGO_MAX (__SEG6X_HMAC_ALGO_MAX - 1)

/* Counters in SEG6X_A_STATS (each a u64 attribute, type = index). */
enum seg6x_stat {
	SEG6X_STAT_UNSPEC,
	SEG6X_STAT_PAD,
	SEG6X_STAT_ENCAP,
	SEG6X_STAT_INLINE,
	SEG6X_STAT_END,
	SEG6X_STAT_DECAP,
	SEG6X_STAT_HMAC_SIGNED,
	SEG6X_STAT_HMAC_VERIFIED,
	SEG6X_STAT_LOCAL,		/* delivered locally (SL = 0, upper layer) */
	SEG6X_STAT_DROP_DISABLED,
	SEG6X_STAT_DROP_HMAC_MISSING,
	SEG6X_STAT_DROP_HMAC_INVALID,
	SEG6X_STAT_DROP_HMAC_NOKEY,
	SEG6X_STAT_DROP_BAD_SRH,
	SEG6X_STAT_DROP_NO_ROUTE,
	SEG6X_STAT_DROP_HOP_LIMIT,
	SEG6X_STAT_DROP_NOMEM,
	/* packets processed by a SID, one counter per behaviour */
	SEG6X_STAT_SID_END,
	SEG6X_STAT_SID_END_X,
	SEG6X_STAT_SID_END_T,
	SEG6X_STAT_SID_END_DX2,
	SEG6X_STAT_SID_END_DX6,
	SEG6X_STAT_SID_END_DX4,
	SEG6X_STAT_SID_END_DT6,
	SEG6X_STAT_SID_END_DT4,
	SEG6X_STAT_SID_END_DT46,
	SEG6X_STAT_SID_END_B6_ENCAPS,
	SEG6X_STAT_SID_END_B6_ENCAPS_RED,
	/* a SID could not process the packet (a payload it does not take,
	 * its device gone, SL != 0 where it must be 0)
	 */
	SEG6X_STAT_DROP_SID,
	__SEG6X_STAT_MAX,
};
#define SEG6X_STAT_MAX (__SEG6X_STAT_MAX - 1)

/* Local SID table: the attributes nested in SEG6X_A_SID. */
enum seg6x_sid_attr {
	SEG6X_SID_UNSPEC,
	SEG6X_SID_PAD,
	SEG6X_SID_PREFIX,	/* binary: struct in6_addr */
	SEG6X_SID_PREFIX_LEN,	/* u8, 1..128 (default 128) */
	SEG6X_SID_BEHAVIOR,	/* u16, enum seg6x_behavior */
	SEG6X_SID_NH6,		/* binary: struct in6_addr */
	SEG6X_SID_NH4,		/* binary: struct in_addr */
	SEG6X_SID_OIF,		/* u32 ifindex */
	SEG6X_SID_TABLE,	/* u32 routing table id */
	SEG6X_SID_VRF,		/* u32 ifindex of a VRF device */
	SEG6X_SID_SEGS,		/* binary: struct in6_addr[n], path order */
	SEG6X_SID_HMAC_KEYID,	/* u32 */
	SEG6X_SID_FLAVORS,	/* u32, SEG6X_FLV_* bits */
	SEG6X_SID_LBLEN,	/* u8, NEXT-C-SID locator-block bits */
	SEG6X_SID_NFLEN,	/* u8, NEXT-C-SID locator-node + function bits */
	SEG6X_SID_COUNT,	/* flag: keep per-SID counters */
	SEG6X_SID_COUNTERS,	/* nested enum seg6x_sid_cnt (replies) */
	SEG6X_SID_DEAD,		/* u8 1 (replies): a device it uses is gone */
	SEG6X_SID_REPLACE,	/* flag (SID_SET): replace, do not fail */
	SEG6X_SID_OWNER,	/* u8 SEG6X_OWNER_*: who installed it */
	__SEG6X_SID_MAX,
};
#define SEG6X_SID_MAX (__SEG6X_SID_MAX - 1)

enum seg6x_sid_cnt {
	SEG6X_SID_CNT_UNSPEC,
	SEG6X_SID_CNT_PAD,
	SEG6X_SID_CNT_PACKETS,	/* u64 */
	SEG6X_SID_CNT_BYTES,	/* u64: IPv6 length as received */
	SEG6X_SID_CNT_ERRORS,	/* u64: packets dropped */
	__SEG6X_SID_CNT_MAX,
};
#define SEG6X_SID_CNT_MAX (__SEG6X_SID_CNT_MAX - 1)

/* RFC 8986 endpoint behaviours (SEG6X_SID_BEHAVIOR). */
enum seg6x_behavior {
	SEG6X_BEHAVIOR_UNSPEC,
	SEG6X_BEHAVIOR_END,
	SEG6X_BEHAVIOR_END_X,
	SEG6X_BEHAVIOR_END_T,
	SEG6X_BEHAVIOR_END_DX2,
	SEG6X_BEHAVIOR_END_DX6,
	SEG6X_BEHAVIOR_END_DX4,
	SEG6X_BEHAVIOR_END_DT6,
	SEG6X_BEHAVIOR_END_DT4,
	SEG6X_BEHAVIOR_END_DT46,
	SEG6X_BEHAVIOR_END_B6_ENCAPS,
	SEG6X_BEHAVIOR_END_B6_ENCAPS_RED,
	__SEG6X_BEHAVIOR_MAX,
};
#define SEG6X_BEHAVIOR_MAX (__SEG6X_BEHAVIOR_MAX - 1)

/* SEG6X_SID_FLAVORS (End, End.X, End.T) */
#define SEG6X_FLV_PSP		0x1	/* RFC 8986 4.16.1 */
#define SEG6X_FLV_USP		0x2	/* RFC 8986 4.16.2 */
#define SEG6X_FLV_USD		0x4	/* RFC 8986 4.16.3 */
#define SEG6X_FLV_NEXT_CSID	0x8	/* RFC 9800 */
#define SEG6X_FLV_ALL		(SEG6X_FLV_PSP | SEG6X_FLV_USP | \
				 SEG6X_FLV_USD | SEG6X_FLV_NEXT_CSID)

/* The SID attributes a behaviour needs or takes, as bits of a mask. */
#define SEG6X_SID_BIT_NH6	(1 << SEG6X_SID_NH6)
#define SEG6X_SID_BIT_NH4	(1 << SEG6X_SID_NH4)
#define SEG6X_SID_BIT_OIF	(1 << SEG6X_SID_OIF)
#define SEG6X_SID_BIT_TABLE	(1 << SEG6X_SID_TABLE)
#define SEG6X_SID_BIT_VRF	(1 << SEG6X_SID_VRF)
#define SEG6X_SID_BIT_SEGS	(1 << SEG6X_SID_SEGS)
#define SEG6X_SID_BIT_HMAC	(1 << SEG6X_SID_HMAC_KEYID)

/*
 * The behaviours: the one list that the module's behaviour table and the
 * tools take from. X(behavior, name, stat, required, optional, flavors):
 * its name as seg6ctl(8) spells it, its counter in SEG6X_A_STATS, the
 * attributes it needs and those it may take (SEG6X_SID_BIT_*), the
 * flavours it takes (SEG6X_FLV_*; with any, also LBLEN and NFLEN). The
 * module enforces them, its extack names what is missing or not taken;
 * End.DT6 needs exactly one of its two optional attributes.
 */
#define SEG6X_BEHAVIOR_LIST(X)						\
	X(SEG6X_BEHAVIOR_END, "End", SEG6X_STAT_SID_END,		\
	  0, 0, SEG6X_FLV_ALL)						\
	X(SEG6X_BEHAVIOR_END_X, "End.X", SEG6X_STAT_SID_END_X,		\
	  SEG6X_SID_BIT_NH6, SEG6X_SID_BIT_OIF, SEG6X_FLV_ALL)		\
	X(SEG6X_BEHAVIOR_END_T, "End.T", SEG6X_STAT_SID_END_T,		\
	  SEG6X_SID_BIT_TABLE, 0, SEG6X_FLV_ALL)				\
	X(SEG6X_BEHAVIOR_END_DX2, "End.DX2", SEG6X_STAT_SID_END_DX2,	\
	  SEG6X_SID_BIT_OIF, 0, 0)					\
	X(SEG6X_BEHAVIOR_END_DX6, "End.DX6", SEG6X_STAT_SID_END_DX6,	\
	  SEG6X_SID_BIT_NH6, SEG6X_SID_BIT_OIF, 0)			\
	X(SEG6X_BEHAVIOR_END_DX4, "End.DX4", SEG6X_STAT_SID_END_DX4,	\
	  SEG6X_SID_BIT_NH4, SEG6X_SID_BIT_OIF, 0)			\
	X(SEG6X_BEHAVIOR_END_DT6, "End.DT6", SEG6X_STAT_SID_END_DT6,	\
	  0, SEG6X_SID_BIT_TABLE | SEG6X_SID_BIT_VRF, 0)		\
	X(SEG6X_BEHAVIOR_END_DT4, "End.DT4", SEG6X_STAT_SID_END_DT4,	\
	  SEG6X_SID_BIT_VRF, 0, 0)					\
	X(SEG6X_BEHAVIOR_END_DT46, "End.DT46", SEG6X_STAT_SID_END_DT46,	\
	  SEG6X_SID_BIT_VRF, 0, 0)					\
	X(SEG6X_BEHAVIOR_END_B6_ENCAPS, "End.B6.Encaps",		\
	  SEG6X_STAT_SID_END_B6_ENCAPS,					\
	  SEG6X_SID_BIT_SEGS, SEG6X_SID_BIT_HMAC, 0)			\
	X(SEG6X_BEHAVIOR_END_B6_ENCAPS_RED, "End.B6.Encaps.Red",	\
	  SEG6X_STAT_SID_END_B6_ENCAPS_RED,				\
	  SEG6X_SID_BIT_SEGS, SEG6X_SID_BIT_HMAC, 0)

/*
 * SEG6X_SID_OWNER, SEG6X_IPTUN_OWNER: the program that installed a SID or
 * route, so that it can find and remove its own entries (and leave those
 * configured by hand alone). Not given: SEG6X_OWNER_NONE. The kernel
 * stores and reports the value; it gives it no other meaning.
 */
#define SEG6X_OWNER_NONE	0	/* configured by hand (seg6ctl) */
#define SEG6X_OWNER_FPMD	1	/* seg6x-fpmd, for FRR's zebra */
#define SEG6X_OWNER_MAX		255

/* Nested attributes inside RTA_ENCAP for routes with seg6x's encap type. */
enum seg6x_iptun_attr {
	SEG6X_IPTUN_UNSPEC,
	SEG6X_IPTUN_MODE,	/* u8, enum seg6x_iptun_mode */
	SEG6X_IPTUN_SEGS,	/* binary: struct in6_addr[n], path order */
	SEG6X_IPTUN_HMAC_KEYID,	/* u32, optional */
	SEG6X_IPTUN_OWNER,	/* u8 SEG6X_OWNER_*, optional */
	SEG6X_IPTUN_PAD,
	/* nested enum seg6x_sid_cnt (dumps only): packets the route
	 * encapsulated (bytes as they reached it), errors it dropped
	 */
	SEG6X_IPTUN_COUNTERS,
	__SEG6X_IPTUN_MAX,
};
#define SEG6X_IPTUN_MAX (__SEG6X_IPTUN_MAX - 1)

enum seg6x_iptun_mode {
	SEG6X_IPTUN_MODE_ENCAP = 1,
	SEG6X_IPTUN_MODE_INLINE = 2,
};

#endif /* _UAPI_LINUX_SEG6X_H */

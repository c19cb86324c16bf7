/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sid.h - the local SID table (RFC 8986 endpoint behaviours).
 *
 * Per namespace, a resizable hash (rhashtable) of SIDs keyed by (masked
 * prefix, length) plus a bitmap of the lengths in use, walked longest
 * first: a lookup costs one hash probe per length in use, however many
 * SIDs there are. A list of all SIDs serves dumps and flushes, and a small
 * hash by interface index finds the SIDs that use a device going away.
 * Readers (the PRE_ROUTING hook, dumps) run under RCU and never allocate;
 * writers (generic netlink, the netdevice notifier) hold RTNL, taken by
 * the genl handlers, so the table has a single writer at a time without a
 * lock of its own (the rhashtable's own lock serialises only its resizes).
 */
#ifndef _SEG6X_SID_H
#define _SEG6X_SID_H

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/rhashtable-types.h>
#include <linux/seg6.h>
#include <linux/u64_stats_sync.h>
#include <net/genetlink.h>

#include "pernet.h"

#define SEG6X_SID_DEV_HASH_BITS	6
#define SEG6X_SID_LEN_WORDS	3	/* bits 0..128 */

struct seg6x_sid_pcpu {
	u64_stats_t packets;
	u64_stats_t bytes;
	u64_stats_t errors;
	struct u64_stats_sync syncp;
};

/* Configured attributes (SEG6X_SID_F_*), so that dumps show only those. */
#define SEG6X_SID_F(attr)	BIT(attr)

struct seg6x_sid {
	struct rhash_head hnode;	/* in the table's ht */
	struct list_head list;		/* in the table's all, RCU */
	struct hlist_node oif_node;	/* in dev_heads, when oif is set */
	struct hlist_node vrf_node;	/* in dev_heads, when vrf is set */
	struct rcu_head rcu;
	/* The hash key: prefix and plen, adjacent (sid_table.c). */
	struct in6_addr prefix;		/* masked to plen */
	u8 plen;
	u8 behavior;			/* enum seg6x_behavior */
	u8 lblen;
	u8 nflen;
	u32 flavors;			/* SEG6X_FLV_* */
	u32 attrs;			/* SEG6X_SID_F(SEG6X_SID_*) given */
	struct in6_addr nh6;
	__be32 nh4;
	int oif;
	int vrf;
	u32 table;
	u32 keyid;			/* B6: 0 = unsigned */
	/* Set by the netdevice notifier (RTNL) when oif or vrf goes away;
	 * the SID then drops and counts what it matches.
	 */
	bool dead;
	struct seg6x_sid_pcpu __percpu *pcpu;	/* NULL without count */
	/* End.B6.Encaps(.Red): the new outer header's SRH template */
	unsigned int nsegs;
	struct in6_addr *segs;		/* path order */
	struct ipv6_sr_hdr *srh;	/* NULL: reduced with one segment */
	unsigned int srh_len;
	u8 data[];
};

struct seg6x_sid_table {
	unsigned long lens[SEG6X_SID_LEN_WORDS * 64 / BITS_PER_LONG];
	unsigned int len_refs[129];
	struct rhashtable ht;
	struct list_head all;
	struct hlist_head dev_heads[1 << SEG6X_SID_DEV_HASH_BITS];
};

/* Packet path (RCU): the SID with the longest prefix covering @daddr. */
struct seg6x_sid *seg6x_sid_lookup(struct seg6x_net *sn,
				   const struct in6_addr *daddr);

/* Per-SID counters, when the SID has them. */
static inline void seg6x_sid_count(struct seg6x_sid *sid, unsigned int len,
				   bool error)
{
	struct seg6x_sid_pcpu *c;
	unsigned long flags;

	if (!sid->pcpu)
		return;
	c = get_cpu_ptr(sid->pcpu);
	flags = u64_stats_update_begin_irqsave(&c->syncp);
	if (error) {
		u64_stats_inc(&c->errors);
	} else {
		u64_stats_inc(&c->packets);
		u64_stats_add(&c->bytes, len);
	}
	u64_stats_update_end_irqrestore(&c->syncp, flags);
	put_cpu_ptr(sid->pcpu);
}

/* Netlink handlers (sid_table.c); genl mutex held. */
int seg6x_nl_sid_set(struct sk_buff *skb, struct genl_info *info);
int seg6x_nl_sid_del(struct sk_buff *skb, struct genl_info *info);
int seg6x_nl_sid_get(struct sk_buff *skb, struct genl_info *info);
int seg6x_nl_sid_dump(struct sk_buff *skb, struct netlink_callback *cb);
int seg6x_nl_sid_flush(struct sk_buff *skb, struct genl_info *info);
extern const struct nla_policy seg6x_sid_policy[SEG6X_SID_MAX + 1];

void seg6x_sid_net_exit(struct seg6x_net *sn);
int seg6x_sid_register(void);
void seg6x_sid_unregister(void);

#endif /* _SEG6X_SID_H */

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
#include <net/netlink.h>

#include "counters.h"
#include "endpoint.h"
#include "pernet.h"
#include "push.h"

#define SEG6X_SID_DEV_HASH_BITS	6
#define SEG6X_SID_LEN_WORDS	3	/* bits 0..128 */

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
	u8 owner;			/* SEG6X_OWNER_* */
	u32 flavors;			/* SEG6X_FLV_* */
	u32 attrs;			/* SEG6X_SID_F(SEG6X_SID_*) given */
	const struct seg6x_sid_behavior *beh;
	struct in6_addr nh6;
	__be32 nh4;
	int oif;
	int vrf;
	u32 table;
	/* Set by the netdevice notifier (RTNL) when oif or vrf goes away;
	 * the SID then drops and counts what it matches.
	 */
	bool dead;
	struct seg6x_counters __percpu *pcpu;	/* NULL without count */
	/* End.B6.Encaps(.Red): the policy pushed (segs, keyid) */
	struct seg6x_headend he;
	u8 data[];			/* he's segs and SRH template */
};

struct seg6x_sid_table {
	unsigned long lens[SEG6X_SID_LEN_WORDS * 64 / BITS_PER_LONG];
	unsigned int len_refs[129];
	struct rhashtable ht;
	struct list_head all;
	struct hlist_head dev_heads[1 << SEG6X_SID_DEV_HASH_BITS];
};

/*
 * A SID's configuration while it is parsed (RTNL held): the SID as it
 * will be, and what its allocation needs.
 */
struct seg6x_sid_cfg {
	struct net *net;
	struct nlattr **tb;
	const struct in6_addr *segs;	/* SEG6X_SID_SEGS, path order */
	unsigned int nsegs;
	u32 keyid;
	enum seg6x_headend_mode mode;	/* with segs */
	bool count;
	struct seg6x_sid sid;		/* last: it ends in data[] */
};

/*
 * One endpoint behaviour (sid_behaviors.c). Adding one is an entry in
 * the table there and its input function; the attributes it needs and
 * takes are checked from .required/.optional before .check runs.
 */
struct seg6x_sid_behavior {
	const char *name;
	enum seg6x_stat stat;		/* the packets it processed */
	u32 required;			/* SEG6X_SID_F() attributes */
	u32 optional;
	u32 flavors;			/* SEG6X_FLV_* it takes */
	/* Rules across attributes (RTNL): .check on which are given,
	 * before their values are read; .finish on the values read, and
	 * sets c->mode if the behaviour takes segs.
	 */
	int (*check)(struct seg6x_sid_cfg *c, struct netlink_ext_ack *extack);
	int (*finish)(struct seg6x_sid_cfg *c, struct netlink_ext_ack *extack);
	/* The packet path (RCU, PRE_ROUTING), SRH checks done. */
	enum seg6x_verdict (*input)(struct seg6x_pkt *p,
				    const struct seg6x_sid *sid);
};

/* The behaviour numbered @id (SEG6X_BEHAVIOR_*), or NULL. */
const struct seg6x_sid_behavior *seg6x_behavior_get(unsigned int id);

/* sid_attrs.c: each SID attribute's parse, put and compare. */
extern const struct nla_policy seg6x_sid_policy[SEG6X_SID_MAX + 1];
int seg6x_sid_attrs_parse(struct seg6x_sid_cfg *c,
			  struct netlink_ext_ack *extack);
int seg6x_sid_attrs_put(struct sk_buff *msg, const struct seg6x_sid *sid);
bool seg6x_sid_attrs_equal(const struct seg6x_sid *a,
			   const struct seg6x_sid *b);

/* Packet path (RCU): the SID with the longest prefix covering @daddr. */
struct seg6x_sid *seg6x_sid_lookup(struct seg6x_net *sn,
				   const struct in6_addr *daddr);

/* sid_behaviors.c: the packet whose destination matched @sid. */
enum seg6x_verdict seg6x_sid_input(struct seg6x_pkt *p, struct seg6x_sid *sid);

/* Per-SID counters, when the SID has them. */
static inline void seg6x_sid_count(struct seg6x_sid *sid, unsigned int len,
				   bool error)
{
	if (sid->pcpu)
		seg6x_counters_add(sid->pcpu, len, error);
}

/*
 * The table (sid_table.c). Writers hold RTNL: the SID netlink handlers
 * (sid_netlink.c) and the netdevice notifier.
 */
struct seg6x_sid_table *seg6x_sid_table_get(struct seg6x_net *sn);
struct seg6x_sid *seg6x_sid_find(struct seg6x_sid_table *t,
				 const struct in6_addr *masked, u8 plen);
int seg6x_sid_insert(struct seg6x_net *sn, struct seg6x_sid_table *t,
		     struct seg6x_sid *sid, struct seg6x_sid *old);
void seg6x_sid_remove(struct seg6x_net *sn, struct seg6x_sid_table *t,
		      struct seg6x_sid *sid);
void seg6x_sid_flush(struct seg6x_net *sn);
void seg6x_sid_free(struct seg6x_sid *sid);

int seg6x_sid_register(void);
void seg6x_sid_unregister(void);

#endif /* _SEG6X_SID_H */

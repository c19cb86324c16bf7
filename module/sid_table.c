// SPDX-License-Identifier: GPL-2.0
/*
 * sid_table.c - the per-namespace local SID table: lookup, configuration
 * over generic netlink, and devices going away.
 *
 * Locking: the packet path reads under RCU (the netfilter hook runs in
 * an RCU read-side section). Every writer holds RTNL: the genl handlers
 * take it (they already hold the genl mutex), and the netdevice notifier
 * runs under it. Holding RTNL across "the device exists" and "the SID is
 * in the table" means a device cannot go away between the two unseen.
 */
#include <linux/bitmap.h>
#include <linux/hash.h>
#include <linux/if_arp.h>
#include <linux/rhashtable.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/addrconf.h>
#include <net/genetlink.h>
#include <net/ip.h>
#include <net/ipv6.h>

#include "genl.h"
#include "input.h"
#include "params.h"
#include "sid.h"
#include "srh.h"

const struct nla_policy seg6x_sid_policy[SEG6X_SID_MAX + 1] = {
	[SEG6X_SID_PREFIX]	= NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[SEG6X_SID_PREFIX_LEN]	= NLA_POLICY_RANGE(NLA_U8, 1, 128),
	[SEG6X_SID_BEHAVIOR]	= NLA_POLICY_RANGE(NLA_U16, SEG6X_BEHAVIOR_END,
						   SEG6X_BEHAVIOR_MAX),
	[SEG6X_SID_NH6]		= NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[SEG6X_SID_NH4]		= NLA_POLICY_EXACT_LEN(sizeof(struct in_addr)),
	[SEG6X_SID_OIF]		= NLA_POLICY_MIN(NLA_U32, 1),
	[SEG6X_SID_TABLE]	= NLA_POLICY_MIN(NLA_U32, 1),
	[SEG6X_SID_VRF]		= NLA_POLICY_MIN(NLA_U32, 1),
	[SEG6X_SID_SEGS]	= { .type = NLA_BINARY },
	[SEG6X_SID_HMAC_KEYID]	= NLA_POLICY_MIN(NLA_U32, 1),
	[SEG6X_SID_FLAVORS]	= { .type = NLA_U32 },
	[SEG6X_SID_LBLEN]	= { .type = NLA_U8 },
	[SEG6X_SID_NFLEN]	= { .type = NLA_U8 },
	[SEG6X_SID_COUNT]	= { .type = NLA_FLAG },
	[SEG6X_SID_REPLACE]	= { .type = NLA_FLAG },
	/* SEG6X_SID_COUNTERS and SEG6X_SID_DEAD are reply-only: rejected */
};

/* Per behaviour: the attributes it needs, and those it may take. */
struct seg6x_sid_desc {
	const char *name;
	u32 required;
	u32 optional;
	bool flavors;
};

#define F(a)	SEG6X_SID_F(SEG6X_SID_##a)
#define COMMON	(F(PREFIX) | F(PREFIX_LEN) | F(BEHAVIOR) | F(COUNT) | F(REPLACE))
#define FLV	(F(FLAVORS) | F(LBLEN) | F(NFLEN))

static const struct seg6x_sid_desc seg6x_sid_descs[SEG6X_BEHAVIOR_MAX + 1] = {
	[SEG6X_BEHAVIOR_END]	= { "End", 0, FLV, true },
	[SEG6X_BEHAVIOR_END_X]	= { "End.X", F(NH6), F(OIF) | FLV, true },
	[SEG6X_BEHAVIOR_END_T]	= { "End.T", F(TABLE), FLV, true },
	[SEG6X_BEHAVIOR_END_DX2] = { "End.DX2", F(OIF), 0 },
	[SEG6X_BEHAVIOR_END_DX6] = { "End.DX6", F(NH6), F(OIF) },
	[SEG6X_BEHAVIOR_END_DX4] = { "End.DX4", F(NH4), F(OIF) },
	[SEG6X_BEHAVIOR_END_DT6] = { "End.DT6", 0, F(TABLE) | F(VRF) },
	[SEG6X_BEHAVIOR_END_DT4] = { "End.DT4", F(VRF), 0 },
	[SEG6X_BEHAVIOR_END_DT46] = { "End.DT46", F(VRF), 0 },
	[SEG6X_BEHAVIOR_END_B6_ENCAPS] = { "End.B6.Encaps", F(SEGS),
					   F(HMAC_KEYID) },
	[SEG6X_BEHAVIOR_END_B6_ENCAPS_RED] = { "End.B6.Encaps.Red", F(SEGS),
					       F(HMAC_KEYID) },
};

/* What a behaviour lacks without its required attribute. */
static const char *const seg6x_sid_missing[SEG6X_SID_MAX + 1] = {
	[SEG6X_SID_NH6]		= "this behavior needs nh6",
	[SEG6X_SID_NH4]		= "this behavior needs nh4",
	[SEG6X_SID_OIF]		= "this behavior needs dev",
	[SEG6X_SID_TABLE]	= "this behavior needs table",
	[SEG6X_SID_VRF]		= "this behavior needs vrf",
	[SEG6X_SID_SEGS]	= "this behavior needs segs",
};

/* ---- the table ---------------------------------------------------- */

/* The hash key, laid out as prefix and plen are in struct seg6x_sid. */
struct seg6x_sid_key {
	struct in6_addr prefix;
	u8 plen;
};

#define SEG6X_SID_KEY_LEN	offsetofend(struct seg6x_sid_key, plen)
static_assert(offsetof(struct seg6x_sid, plen) ==
	      offsetof(struct seg6x_sid, prefix) +
	      offsetof(struct seg6x_sid_key, plen));

static const struct rhashtable_params seg6x_sid_ht_params = {
	.head_offset = offsetof(struct seg6x_sid, hnode),
	.key_offset = offsetof(struct seg6x_sid, prefix),
	.key_len = SEG6X_SID_KEY_LEN,
	.automatic_shrinking = true,
};

static struct seg6x_sid_table *seg6x_sid_table_new(void)
{
	struct seg6x_sid_table *t;

	t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);
	if (!t)
		return NULL;
	if (rhashtable_init(&t->ht, &seg6x_sid_ht_params)) {
		kfree(t);
		return NULL;
	}
	INIT_LIST_HEAD(&t->all);
	return t;
}

struct seg6x_sid *seg6x_sid_lookup(struct seg6x_net *sn,
				   const struct in6_addr *daddr)
{
	struct seg6x_sid_table *t = rcu_dereference(sn->sids);
	unsigned long lens[ARRAY_SIZE(t->lens)];
	int w;

	if (!t)
		return NULL;
	/* A snapshot of the lengths in use; a writer changing them meanwhile
	 * makes this lookup miss or probe a length in vain, never crash.
	 */
	for (w = 0; w < ARRAY_SIZE(lens); w++)
		lens[w] = READ_ONCE(t->lens[w]);

	for (w = ARRAY_SIZE(lens) - 1; w >= 0; w--) {
		while (lens[w]) {
			unsigned int bit = __fls(lens[w]);
			struct seg6x_sid_key key;
			struct seg6x_sid *sid;

			lens[w] &= ~BIT(bit);
			key.plen = w * BITS_PER_LONG + bit;
			ipv6_addr_prefix(&key.prefix, daddr, key.plen);
			sid = rhashtable_lookup(&t->ht, &key,
						seg6x_sid_ht_params);
			if (sid)
				return sid;
		}
	}
	return NULL;
}

/* Writers: RTNL. */
static struct seg6x_sid *seg6x_sid_find(struct seg6x_sid_table *t,
					const struct in6_addr *masked, u8 plen)
{
	struct seg6x_sid_key key = { .prefix = *masked, .plen = plen };

	return rhashtable_lookup_fast(&t->ht, &key, seg6x_sid_ht_params);
}

static void seg6x_sid_free(struct seg6x_sid *sid)
{
	free_percpu(sid->pcpu);
	kfree(sid);
}

static void seg6x_sid_free_rcu(struct rcu_head *head)
{
	seg6x_sid_free(container_of(head, struct seg6x_sid, rcu));
}

static struct hlist_head *seg6x_sid_dev_head(struct seg6x_sid_table *t,
					     int ifindex)
{
	return &t->dev_heads[hash_32(ifindex, SEG6X_SID_DEV_HASH_BITS)];
}

/*
 * Put @sid in the table, in place of @old if there is one: the hash swaps
 * them in one step, so a reader always finds one of the two.
 */
static int seg6x_sid_link(struct seg6x_net *sn, struct seg6x_sid_table *t,
			  struct seg6x_sid *sid, struct seg6x_sid *old)
{
	int err;

	if (old)
		err = rhashtable_replace_fast(&t->ht, &old->hnode, &sid->hnode,
					      seg6x_sid_ht_params);
	else
		err = rhashtable_insert_fast(&t->ht, &sid->hnode,
					     seg6x_sid_ht_params);
	if (err)
		return err;
	list_add_tail_rcu(&sid->list, &t->all);
	if (sid->oif)
		hlist_add_head(&sid->oif_node,
			       seg6x_sid_dev_head(t, sid->oif));
	if (sid->vrf)
		hlist_add_head(&sid->vrf_node,
			       seg6x_sid_dev_head(t, sid->vrf));
	if (!t->len_refs[sid->plen]++)
		set_bit(sid->plen, t->lens);
	WRITE_ONCE(sn->nsids, sn->nsids + 1);
	return 0;
}

/* The rest of unlinking a SID the hash no longer holds; freed after RCU. */
static void seg6x_sid_forget(struct seg6x_net *sn, struct seg6x_sid_table *t,
			     struct seg6x_sid *sid)
{
	list_del_rcu(&sid->list);
	if (sid->oif)
		hlist_del(&sid->oif_node);
	if (sid->vrf)
		hlist_del(&sid->vrf_node);
	if (!--t->len_refs[sid->plen])
		clear_bit(sid->plen, t->lens);
	WRITE_ONCE(sn->nsids, sn->nsids - 1);
	call_rcu(&sid->rcu, seg6x_sid_free_rcu);
}

static void seg6x_sid_unlink(struct seg6x_net *sn, struct seg6x_sid_table *t,
			     struct seg6x_sid *sid)
{
	/* Cannot fail: @sid is in the table (RTNL held since it was found). */
	rhashtable_remove_fast(&t->ht, &sid->hnode, seg6x_sid_ht_params);
	seg6x_sid_forget(sn, t, sid);
}

static void seg6x_sid_flush_all(struct seg6x_net *sn)
{
	struct seg6x_sid_table *t = rtnl_dereference(sn->sids);
	struct seg6x_sid *sid, *tmp;

	if (!t)
		return;
	list_for_each_entry_safe(sid, tmp, &t->all, list)
		seg6x_sid_unlink(sn, t, sid);
}

/* ---- configuration ------------------------------------------------ */

static int seg6x_sid_key(struct nlattr **tb, struct in6_addr *masked, u8 *plen,
			 struct netlink_ext_ack *extack)
{
	if (!tb[SEG6X_SID_PREFIX]) {
		NL_SET_ERR_MSG(extack, "missing SID prefix");
		return -EINVAL;
	}
	*plen = tb[SEG6X_SID_PREFIX_LEN] ?
		nla_get_u8(tb[SEG6X_SID_PREFIX_LEN]) : 128;
	ipv6_addr_prefix(masked, nla_data(tb[SEG6X_SID_PREFIX]), *plen);
	return 0;
}

static int seg6x_sid_parse_nest(struct genl_info *info, struct nlattr **tb)
{
	if (GENL_REQ_ATTR_CHECK(info, SEG6X_A_SID))
		return -EINVAL;
	return nla_parse_nested(tb, SEG6X_SID_MAX, info->attrs[SEG6X_A_SID],
				seg6x_sid_policy, info->extack);
}

/* The device @attr names, checked; RTNL held. */
static struct net_device *seg6x_sid_dev(struct net *net, struct nlattr *attr,
					struct netlink_ext_ack *extack)
{
	u32 ifindex = nla_get_u32(attr);
	struct net_device *dev;

	dev = ifindex <= INT_MAX ? __dev_get_by_index(net, ifindex) : NULL;

	if (!dev)
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "no such interface in this namespace");
	return dev;
}

static int seg6x_sid_check_flavors(struct seg6x_sid *sid, struct nlattr **tb,
				   struct netlink_ext_ack *extack)
{
	const u32 known = SEG6X_FLV_PSP | SEG6X_FLV_USP | SEG6X_FLV_USD |
			  SEG6X_FLV_NEXT_CSID;

	if (sid->flavors & ~known) {
		NL_SET_ERR_MSG_ATTR(extack, tb[SEG6X_SID_FLAVORS],
				    "unknown flavor");
		return -EINVAL;
	}
	if (tb[SEG6X_SID_FLAVORS] && !sid->flavors) {
		NL_SET_ERR_MSG_ATTR(extack, tb[SEG6X_SID_FLAVORS],
				    "empty flavor set");
		return -EINVAL;
	}
	if ((tb[SEG6X_SID_LBLEN] || tb[SEG6X_SID_NFLEN]) &&
	    !(sid->flavors & SEG6X_FLV_NEXT_CSID)) {
		NL_SET_ERR_MSG(extack, "lblen and nflen go with the next-csid flavor");
		return -EINVAL;
	}
	/* Whole bytes, and room for both in the address (RFC 9800). */
	if (sid->lblen % 8 || sid->nflen % 8 || !sid->lblen || !sid->nflen ||
	    sid->lblen > 120 || sid->nflen > 120 ||
	    sid->lblen + sid->nflen > 128) {
		NL_SET_ERR_MSG(extack,
			       "lblen and nflen must be multiples of 8 from 8 to 120, together at most 128");
		return -EINVAL;
	}
	return 0;
}

/* Build a SID from its attributes. RTNL held (devices checked). */
static struct seg6x_sid *seg6x_sid_build(struct net *net, struct nlattr **tb,
					 struct netlink_ext_ack *extack)
{
	const struct seg6x_sid_desc *d;
	unsigned int nsegs = 0, srhlen = 0, i;
	struct in6_addr masked;
	struct seg6x_sid *sid;
	struct net_device *dev;
	u32 given = 0, keyid = 0;
	bool red;
	u8 plen;
	u16 beh;
	int a, err;

	err = seg6x_sid_key(tb, &masked, &plen, extack);
	if (err)
		return ERR_PTR(err);
	if (!tb[SEG6X_SID_BEHAVIOR]) {
		NL_SET_ERR_MSG(extack, "missing behavior");
		return ERR_PTR(-EINVAL);
	}
	beh = nla_get_u16(tb[SEG6X_SID_BEHAVIOR]);
	d = &seg6x_sid_descs[beh];

	for (a = 1; a <= SEG6X_SID_MAX; a++)
		if (tb[a])
			given |= SEG6X_SID_F(a);
	for (a = 1; a <= SEG6X_SID_MAX; a++) {
		u32 f = SEG6X_SID_F(a);

		if ((d->required & f) && !tb[a]) {
			if (extack)
				extack->_msg = seg6x_sid_missing[a];
			return ERR_PTR(-EINVAL);
		}
		if (tb[a] && !((d->required | d->optional | COMMON) & f)) {
			if (a == SEG6X_SID_FLAVORS)
				NL_SET_ERR_MSG_ATTR(extack, tb[a],
						    "flavors are defined for End, End.X and End.T only");
			else
				NL_SET_ERR_MSG_ATTR(extack, tb[a],
						    "attribute not used by this behavior");
			return ERR_PTR(-EINVAL);
		}
	}
	if (beh == SEG6X_BEHAVIOR_END_DT6 &&
	    !tb[SEG6X_SID_TABLE] == !tb[SEG6X_SID_VRF]) {
		NL_SET_ERR_MSG(extack, "End.DT6 needs a table or a vrf (one of them)");
		return ERR_PTR(-EINVAL);
	}

	red = beh == SEG6X_BEHAVIOR_END_B6_ENCAPS_RED;
	if (tb[SEG6X_SID_SEGS]) {
		unsigned int len = nla_len(tb[SEG6X_SID_SEGS]);

		nsegs = len / sizeof(struct in6_addr);
		if (!nsegs || len % sizeof(struct in6_addr) ||
		    nsegs > SEG6X_MAX_SEGS) {
			NL_SET_ERR_MSG_ATTR(extack, tb[SEG6X_SID_SEGS],
					    "segs must hold 1 to 64 IPv6 addresses");
			return ERR_PTR(-EINVAL);
		}
		if (tb[SEG6X_SID_HMAC_KEYID]) {
			keyid = nla_get_u32(tb[SEG6X_SID_HMAC_KEYID]);
			if (nsegs > SEG6X_MAX_SEGS_HMAC) {
				NL_SET_ERR_MSG_ATTR(extack, tb[SEG6X_SID_SEGS],
						    "at most 14 segments with hmac");
				return ERR_PTR(-EINVAL);
			}
		}
		/* The reduced SRH leaves the first segment out; with a
		 * single segment there is no SRH, so nothing to sign.
		 */
		if (red && nsegs == 1 && keyid) {
			NL_SET_ERR_MSG_ATTR(extack, tb[SEG6X_SID_HMAC_KEYID],
					    "a reduced SRH with hmac needs 2 segments or more");
			return ERR_PTR(-EINVAL);
		}
		if (!red || nsegs > 1)
			srhlen = seg6x_srh_build_size(nsegs - (red ? 1 : 0),
						      false, keyid);
	}

	sid = kzalloc(struct_size(sid, data, nsegs * sizeof(struct in6_addr) +
				  srhlen), GFP_KERNEL_ACCOUNT);
	if (!sid)
		return ERR_PTR(-ENOMEM);
	sid->prefix = masked;
	sid->plen = plen;
	sid->behavior = beh;
	sid->attrs = given & ~F(REPLACE);

	if (tb[SEG6X_SID_NH6]) {
		sid->nh6 = nla_get_in6_addr(tb[SEG6X_SID_NH6]);
		if (ipv6_addr_any(&sid->nh6) ||
		    ipv6_addr_is_multicast(&sid->nh6)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[SEG6X_SID_NH6],
					    "nh6 must be a unicast address");
			goto err_inval;
		}
	}
	if (tb[SEG6X_SID_NH4]) {
		sid->nh4 = nla_get_in_addr(tb[SEG6X_SID_NH4]);
		if (ipv4_is_zeronet(sid->nh4) || ipv4_is_multicast(sid->nh4) ||
		    ipv4_is_lbcast(sid->nh4)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[SEG6X_SID_NH4],
					    "nh4 must be a unicast address");
			goto err_inval;
		}
	}
	if (tb[SEG6X_SID_OIF]) {
		dev = seg6x_sid_dev(net, tb[SEG6X_SID_OIF], extack);
		if (!dev)
			goto err_nodev;
		if (beh == SEG6X_BEHAVIOR_END_DX2 && dev->type != ARPHRD_ETHER) {
			NL_SET_ERR_MSG_ATTR(extack, tb[SEG6X_SID_OIF],
					    "End.DX2 needs an Ethernet device");
			goto err_inval;
		}
		sid->oif = dev->ifindex;
	}
	if (tb[SEG6X_SID_VRF]) {
		dev = seg6x_sid_dev(net, tb[SEG6X_SID_VRF], extack);
		if (!dev)
			goto err_nodev;
		if (!netif_is_l3_master(dev)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[SEG6X_SID_VRF],
					    "not a VRF device");
			goto err_inval;
		}
		sid->vrf = dev->ifindex;
	}
	if (tb[SEG6X_SID_TABLE])
		sid->table = nla_get_u32(tb[SEG6X_SID_TABLE]);
	if (tb[SEG6X_SID_FLAVORS])
		sid->flavors = nla_get_u32(tb[SEG6X_SID_FLAVORS]);
	sid->lblen = tb[SEG6X_SID_LBLEN] ? nla_get_u8(tb[SEG6X_SID_LBLEN]) : 32;
	sid->nflen = tb[SEG6X_SID_NFLEN] ? nla_get_u8(tb[SEG6X_SID_NFLEN]) : 16;
	err = seg6x_sid_check_flavors(sid, tb, extack);
	if (err)
		goto err;

	if (nsegs) {
		sid->nsegs = nsegs;
		sid->keyid = keyid;
		sid->segs = (struct in6_addr *)sid->data;
		memcpy(sid->segs, nla_data(tb[SEG6X_SID_SEGS]),
		       nsegs * sizeof(struct in6_addr));
		for (i = 0; i < nsegs; i++) {
			int type = ipv6_addr_type(&sid->segs[i]);

			if (type == IPV6_ADDR_ANY ||
			    (type & (IPV6_ADDR_MULTICAST | IPV6_ADDR_LOOPBACK |
				     IPV6_ADDR_MAPPED))) {
				NL_SET_ERR_MSG_ATTR(extack, tb[SEG6X_SID_SEGS],
						    "segments must be unicast addresses");
				goto err_inval;
			}
		}
		if (srhlen) {
			sid->srh = (struct ipv6_sr_hdr *)(sid->segs + nsegs);
			sid->srh_len = srhlen;
			seg6x_srh_build(sid->srh, sid->segs + (red ? 1 : 0),
					nsegs - (red ? 1 : 0), false, keyid,
					keyid);
			/* Reduced: the first segment is only in the DA, so
			 * Segments Left = Last Entry + 1 (RFC 8986 5.2).
			 */
			if (red)
				sid->srh->segments_left++;
		}
	}

	if (tb[SEG6X_SID_COUNT]) {
		int cpu;

		sid->pcpu = alloc_percpu_gfp(struct seg6x_sid_pcpu,
					     GFP_KERNEL_ACCOUNT | __GFP_ZERO);
		if (!sid->pcpu) {
			err = -ENOMEM;
			goto err;
		}
		for_each_possible_cpu(cpu)
			u64_stats_init(&per_cpu_ptr(sid->pcpu, cpu)->syncp);
	}
	return sid;

err_nodev:
	err = -ENODEV;
	goto err;
err_inval:
	err = -EINVAL;
err:
	seg6x_sid_free(sid);
	return ERR_PTR(err);
}

int seg6x_nl_sid_set(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct seg6x_net *sn = seg6x_pernet(net);
	struct nlattr *tb[SEG6X_SID_MAX + 1];
	struct seg6x_sid_table *t;
	struct seg6x_sid *sid, *old;
	bool replace;
	int err;

	/* Generic netlink refuses NLM_F_REPLACE: a flag attribute says it. */
	err = seg6x_sid_parse_nest(info, tb);
	if (err)
		return err;
	replace = nla_get_flag(tb[SEG6X_SID_REPLACE]);
	/* Matching SIDs are processed in the endpoint hook. */
	err = seg6x_input_use(net);
	if (err)
		return err;

	rtnl_lock();
	t = rtnl_dereference(sn->sids);
	if (!t) {
		t = seg6x_sid_table_new();
		if (!t) {
			err = -ENOMEM;
			goto out;
		}
		rcu_assign_pointer(sn->sids, t);
	}
	sid = seg6x_sid_build(net, tb, info->extack);
	if (IS_ERR(sid)) {
		err = PTR_ERR(sid);
		goto out;
	}
	old = seg6x_sid_find(t, &sid->prefix, sid->plen);
	if (old && !replace) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[SEG6X_SID_PREFIX],
				    "a SID with this prefix exists (use replace)");
		seg6x_sid_free(sid);
		err = -EEXIST;
		goto out;
	}
	if (!old && sn->nsids >= seg6x_param_sid_max) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[SEG6X_SID_PREFIX],
				    "the SID table is full (module parameter sid_max): delete SIDs or load seg6x with a larger sid_max");
		seg6x_sid_free(sid);
		err = -ENOSPC;
		goto out;
	}
	err = seg6x_sid_link(sn, t, sid, old);
	if (err) {
		NL_SET_ERR_MSG(info->extack,
			       "cannot grow the SID table (out of memory)");
		seg6x_sid_free(sid);
		goto out;
	}
	if (old)
		seg6x_sid_forget(sn, t, old);
out:
	rtnl_unlock();
	return err;
}

int seg6x_nl_sid_del(struct sk_buff *skb, struct genl_info *info)
{
	struct seg6x_net *sn = seg6x_pernet(genl_info_net(info));
	struct nlattr *tb[SEG6X_SID_MAX + 1];
	struct seg6x_sid_table *t;
	struct in6_addr masked;
	struct seg6x_sid *sid = NULL;
	int err;
	u8 plen;

	err = seg6x_sid_parse_nest(info, tb);
	if (!err)
		err = seg6x_sid_key(tb, &masked, &plen, info->extack);
	if (err)
		return err;

	rtnl_lock();
	t = rtnl_dereference(sn->sids);
	if (t)
		sid = seg6x_sid_find(t, &masked, plen);
	if (sid)
		seg6x_sid_unlink(sn, t, sid);
	rtnl_unlock();
	if (!sid) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[SEG6X_SID_PREFIX],
				    "no such SID");
		return -ENOENT;
	}
	return 0;
}

int seg6x_nl_sid_flush(struct sk_buff *skb, struct genl_info *info)
{
	rtnl_lock();
	seg6x_sid_flush_all(seg6x_pernet(genl_info_net(info)));
	rtnl_unlock();
	return 0;
}

/* ---- replies ------------------------------------------------------ */

static int seg6x_sid_put_counters(struct sk_buff *msg,
				  const struct seg6x_sid *sid)
{
	u64 pk = 0, by = 0, er = 0;
	struct nlattr *nest;
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct seg6x_sid_pcpu *c = per_cpu_ptr(sid->pcpu, cpu);
		u64 p, b, e;
		unsigned int start;

		do {
			start = u64_stats_fetch_begin(&c->syncp);
			p = u64_stats_read(&c->packets);
			b = u64_stats_read(&c->bytes);
			e = u64_stats_read(&c->errors);
		} while (u64_stats_fetch_retry(&c->syncp, start));
		pk += p;
		by += b;
		er += e;
	}
	nest = nla_nest_start(msg, SEG6X_SID_COUNTERS);
	if (!nest ||
	    nla_put_u64_64bit(msg, SEG6X_SID_CNT_PACKETS, pk, SEG6X_SID_CNT_PAD) ||
	    nla_put_u64_64bit(msg, SEG6X_SID_CNT_BYTES, by, SEG6X_SID_CNT_PAD) ||
	    nla_put_u64_64bit(msg, SEG6X_SID_CNT_ERRORS, er, SEG6X_SID_CNT_PAD))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int seg6x_sid_put(struct sk_buff *msg, const struct seg6x_sid *sid)
{
	struct nlattr *nest = nla_nest_start(msg, SEG6X_A_SID);
	u32 a = sid->attrs;

	if (!nest ||
	    nla_put_in6_addr(msg, SEG6X_SID_PREFIX, &sid->prefix) ||
	    nla_put_u8(msg, SEG6X_SID_PREFIX_LEN, sid->plen) ||
	    nla_put_u16(msg, SEG6X_SID_BEHAVIOR, sid->behavior) ||
	    ((a & F(NH6)) && nla_put_in6_addr(msg, SEG6X_SID_NH6, &sid->nh6)) ||
	    ((a & F(NH4)) && nla_put_in_addr(msg, SEG6X_SID_NH4, sid->nh4)) ||
	    ((a & F(OIF)) && nla_put_u32(msg, SEG6X_SID_OIF, sid->oif)) ||
	    ((a & F(VRF)) && nla_put_u32(msg, SEG6X_SID_VRF, sid->vrf)) ||
	    ((a & F(TABLE)) && nla_put_u32(msg, SEG6X_SID_TABLE, sid->table)) ||
	    ((a & F(SEGS)) && nla_put(msg, SEG6X_SID_SEGS,
				      sid->nsegs * sizeof(struct in6_addr),
				      sid->segs)) ||
	    ((a & F(HMAC_KEYID)) &&
	     nla_put_u32(msg, SEG6X_SID_HMAC_KEYID, sid->keyid)) ||
	    ((a & F(FLAVORS)) &&
	     nla_put_u32(msg, SEG6X_SID_FLAVORS, sid->flavors)) ||
	    ((a & F(LBLEN)) && nla_put_u8(msg, SEG6X_SID_LBLEN, sid->lblen)) ||
	    ((a & F(NFLEN)) && nla_put_u8(msg, SEG6X_SID_NFLEN, sid->nflen)) ||
	    (sid->pcpu && (nla_put_flag(msg, SEG6X_SID_COUNT) ||
			   seg6x_sid_put_counters(msg, sid))) ||
	    (READ_ONCE(sid->dead) && nla_put_u8(msg, SEG6X_SID_DEAD, 1)))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

int seg6x_nl_sid_get(struct sk_buff *skb, struct genl_info *info)
{
	struct seg6x_net *sn = seg6x_pernet(genl_info_net(info));
	struct nlattr *tb[SEG6X_SID_MAX + 1];
	struct seg6x_sid_table *t;
	struct seg6x_sid *sid = NULL;
	struct in6_addr masked;
	struct sk_buff *msg;
	void *hdr;
	int err;
	u8 plen;

	err = seg6x_sid_parse_nest(info, tb);
	if (!err)
		err = seg6x_sid_key(tb, &masked, &plen, info->extack);
	if (err)
		return err;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &seg6x_genl_family, 0,
				SEG6X_CMD_SID_GET);
	if (!hdr) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}

	rtnl_lock();
	t = rtnl_dereference(sn->sids);
	if (t)
		sid = seg6x_sid_find(t, &masked, plen);
	err = sid ? seg6x_sid_put(msg, sid) : -ENOENT;
	rtnl_unlock();
	if (err) {
		if (err == -ENOENT)
			NL_SET_ERR_MSG_ATTR(info->extack, tb[SEG6X_SID_PREFIX],
					    "no such SID");
		nlmsg_free(msg);
		return err;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/*
 * Dump position: cb->args[0] = SIDs of the list already sent (the list
 * keeps insertion order, so a dump costs a walk to that point per reply
 * message). A SID added or removed meanwhile may be missed or repeated,
 * as with any netlink dump.
 */
int seg6x_nl_sid_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct seg6x_net *sn = seg6x_pernet(sock_net(skb->sk));
	unsigned long skip = cb->args[0], n = 0;
	struct seg6x_sid_table *t;
	struct seg6x_sid *sid;

	rcu_read_lock();
	t = rcu_dereference(sn->sids);
	if (!t)
		goto out;
	list_for_each_entry_rcu(sid, &t->all, list) {
		void *hdr;

		if (n < skip) {
			n++;
			continue;
		}
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &seg6x_genl_family,
				  NLM_F_MULTI, SEG6X_CMD_SID_GET);
		if (!hdr)
			break;
		if (seg6x_sid_put(skb, sid)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		n++;
	}
out:
	rcu_read_unlock();
	cb->args[0] = n;
	return skb->len;
}

/* ---- devices going away, namespaces going away -------------------- */

/*
 * A SID whose interface or VRF is unregistered keeps its place (so that
 * `sid show` tells why traffic stops) but drops and counts what it
 * matches from now on; the device's ifindex can be reused later, so the
 * flag stays until the SID is replaced or deleted.
 */
static int seg6x_sid_netdev_event(struct notifier_block *nb,
				  unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct seg6x_sid_table *t;
	struct hlist_head *head;
	struct seg6x_sid *sid;

	if (event != NETDEV_UNREGISTER)
		return NOTIFY_DONE;
	t = rtnl_dereference(seg6x_pernet(dev_net(dev))->sids);
	if (!t)
		return NOTIFY_DONE;
	/* Only the SIDs that name a device with this index's hash. */
	head = seg6x_sid_dev_head(t, dev->ifindex);
	hlist_for_each_entry(sid, head, oif_node)
		if (sid->oif == dev->ifindex)
			WRITE_ONCE(sid->dead, true);
	hlist_for_each_entry(sid, head, vrf_node)
		if (sid->vrf == dev->ifindex)
			WRITE_ONCE(sid->dead, true);
	return NOTIFY_DONE;
}

static struct notifier_block seg6x_sid_notifier = {
	.notifier_call = seg6x_sid_netdev_event,
};

/* After the hook is gone and a grace period passed: no readers. */
void seg6x_sid_net_exit(struct seg6x_net *sn)
{
	struct seg6x_sid_table *t = rcu_dereference_protected(sn->sids, true);
	struct seg6x_sid *sid, *tmp;

	if (!t)
		return;
	list_for_each_entry_safe(sid, tmp, &t->all, list)
		seg6x_sid_free(sid);
	rhashtable_destroy(&t->ht);
	kfree(t);
	RCU_INIT_POINTER(sn->sids, NULL);
	sn->nsids = 0;
}

int seg6x_sid_register(void)
{
	return register_netdevice_notifier(&seg6x_sid_notifier);
}

void seg6x_sid_unregister(void)
{
	unregister_netdevice_notifier(&seg6x_sid_notifier);
	/* SIDs deleted before unload are freed by RCU callbacks. */
	rcu_barrier();
}

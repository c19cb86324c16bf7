// SPDX-License-Identifier: GPL-2.0
/*
 * sid_attrs.c - the SID attributes (SEG6X_SID_*): for each, how it is
 * read from a request, written to a reply and compared, in the manner of
 * the in-tree seg6local's attribute table. Which behaviour needs or takes
 * which attribute is the behaviour table's to say (sid_behaviors.c);
 * this file checks that, then reads every attribute given.
 */
#include <linux/if_arp.h>
#include <linux/rtnetlink.h>
#include <net/ip.h>
#include <net/ipv6.h>

#include "sid.h"

#define F(a)		SEG6X_SID_F(SEG6X_SID_##a)
/* Attributes every behaviour takes, and those of the flavours. */
#define SEG6X_SID_COMMON	(F(PREFIX) | F(PREFIX_LEN) | F(BEHAVIOR) | \
				 F(COUNT) | F(REPLACE) | F(OWNER))
#define SEG6X_SID_FLV		(F(FLAVORS) | F(LBLEN) | F(NFLEN))

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
	[SEG6X_SID_COUNTERS]	= { .type = NLA_REJECT,
				    .reject_message = "a reply-only attribute" },
	[SEG6X_SID_DEAD]	= { .type = NLA_REJECT,
				    .reject_message = "a reply-only attribute" },
	[SEG6X_SID_REPLACE]	= { .type = NLA_FLAG },
	[SEG6X_SID_OWNER]	= { .type = NLA_U8 },
};

struct seg6x_sid_attr_ops {
	const char *need;	/* the message when a behaviour lacks it */
	int (*parse)(struct seg6x_sid_cfg *c, const struct nlattr *nla,
		     struct netlink_ext_ack *extack);
	int (*put)(struct sk_buff *msg, const struct seg6x_sid *sid);
	bool (*equal)(const struct seg6x_sid *a, const struct seg6x_sid *b);
};

/* ---- nh6, nh4 ----------------------------------------------------- */

static int seg6x_parse_nh6(struct seg6x_sid_cfg *c, const struct nlattr *nla,
			   struct netlink_ext_ack *extack)
{
	c->sid.nh6 = nla_get_in6_addr(nla);
	if (ipv6_addr_any(&c->sid.nh6) || ipv6_addr_is_multicast(&c->sid.nh6)) {
		NL_SET_ERR_MSG_ATTR(extack, nla, "nh6 must be a unicast address");
		return -EINVAL;
	}
	return 0;
}

static int seg6x_put_nh6(struct sk_buff *msg, const struct seg6x_sid *sid)
{
	return nla_put_in6_addr(msg, SEG6X_SID_NH6, &sid->nh6);
}

static bool seg6x_equal_nh6(const struct seg6x_sid *a,
			    const struct seg6x_sid *b)
{
	return ipv6_addr_equal(&a->nh6, &b->nh6);
}

static int seg6x_parse_nh4(struct seg6x_sid_cfg *c, const struct nlattr *nla,
			   struct netlink_ext_ack *extack)
{
	__be32 a = nla_get_in_addr(nla);

	if (ipv4_is_zeronet(a) || ipv4_is_multicast(a) || ipv4_is_lbcast(a)) {
		NL_SET_ERR_MSG_ATTR(extack, nla, "nh4 must be a unicast address");
		return -EINVAL;
	}
	c->sid.nh4 = a;
	return 0;
}

static int seg6x_put_nh4(struct sk_buff *msg, const struct seg6x_sid *sid)
{
	return nla_put_in_addr(msg, SEG6X_SID_NH4, sid->nh4);
}

static bool seg6x_equal_nh4(const struct seg6x_sid *a,
			    const struct seg6x_sid *b)
{
	return a->nh4 == b->nh4;
}

/* ---- dev (oif), vrf, table ---------------------------------------- */

/* The device @nla names, checked; RTNL held. */
static struct net_device *seg6x_sid_dev(struct seg6x_sid_cfg *c,
					const struct nlattr *nla,
					struct netlink_ext_ack *extack)
{
	u32 ifindex = nla_get_u32(nla);
	struct net_device *dev;

	dev = ifindex <= INT_MAX ? __dev_get_by_index(c->net, ifindex) : NULL;
	if (!dev)
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "no such interface in this namespace");
	return dev;
}

static int seg6x_parse_oif(struct seg6x_sid_cfg *c, const struct nlattr *nla,
			   struct netlink_ext_ack *extack)
{
	struct net_device *dev = seg6x_sid_dev(c, nla, extack);

	if (!dev)
		return -ENODEV;
	c->sid.oif = dev->ifindex;
	return 0;
}

static int seg6x_put_oif(struct sk_buff *msg, const struct seg6x_sid *sid)
{
	return nla_put_u32(msg, SEG6X_SID_OIF, sid->oif);
}

static bool seg6x_equal_oif(const struct seg6x_sid *a,
			    const struct seg6x_sid *b)
{
	return a->oif == b->oif;
}

static int seg6x_parse_vrf(struct seg6x_sid_cfg *c, const struct nlattr *nla,
			   struct netlink_ext_ack *extack)
{
	struct net_device *dev = seg6x_sid_dev(c, nla, extack);

	if (!dev)
		return -ENODEV;
	if (!netif_is_l3_master(dev)) {
		NL_SET_ERR_MSG_ATTR(extack, nla, "not a VRF device");
		return -EINVAL;
	}
	c->sid.vrf = dev->ifindex;
	return 0;
}

static int seg6x_put_vrf(struct sk_buff *msg, const struct seg6x_sid *sid)
{
	return nla_put_u32(msg, SEG6X_SID_VRF, sid->vrf);
}

static bool seg6x_equal_vrf(const struct seg6x_sid *a,
			    const struct seg6x_sid *b)
{
	return a->vrf == b->vrf;
}

static int seg6x_parse_table(struct seg6x_sid_cfg *c, const struct nlattr *nla,
			     struct netlink_ext_ack *extack)
{
	c->sid.table = nla_get_u32(nla);
	return 0;
}

static int seg6x_put_table(struct sk_buff *msg, const struct seg6x_sid *sid)
{
	return nla_put_u32(msg, SEG6X_SID_TABLE, sid->table);
}

static bool seg6x_equal_table(const struct seg6x_sid *a,
			      const struct seg6x_sid *b)
{
	return a->table == b->table;
}

/* ---- segs, hmac (binding SIDs) ------------------------------------ */

static int seg6x_parse_segs(struct seg6x_sid_cfg *c, const struct nlattr *nla,
			    struct netlink_ext_ack *extack)
{
	unsigned int len = nla_len(nla), i;

	c->nsegs = len / sizeof(struct in6_addr);
	if (!c->nsegs || len % sizeof(struct in6_addr) ||
	    c->nsegs > SEG6X_MAX_SEGS) {
		NL_SET_ERR_MSG_ATTR(extack, nla,
				    "segs must hold 1 to 64 IPv6 addresses");
		return -EINVAL;
	}
	c->segs = nla_data(nla);
	for (i = 0; i < c->nsegs; i++) {
		int type = ipv6_addr_type(&c->segs[i]);

		if (type == IPV6_ADDR_ANY ||
		    (type & (IPV6_ADDR_MULTICAST | IPV6_ADDR_LOOPBACK |
			     IPV6_ADDR_MAPPED))) {
			NL_SET_ERR_MSG_ATTR(extack, nla,
					    "segments must be unicast addresses");
			return -EINVAL;
		}
	}
	return 0;
}

static int seg6x_put_segs(struct sk_buff *msg, const struct seg6x_sid *sid)
{
	return nla_put(msg, SEG6X_SID_SEGS,
		       sid->he.nsegs * sizeof(struct in6_addr), sid->he.segs);
}

static bool seg6x_equal_segs(const struct seg6x_sid *a,
			     const struct seg6x_sid *b)
{
	return a->he.nsegs == b->he.nsegs &&
	       !memcmp(a->he.segs, b->he.segs,
		       a->he.nsegs * sizeof(struct in6_addr));
}

static int seg6x_parse_keyid(struct seg6x_sid_cfg *c, const struct nlattr *nla,
			     struct netlink_ext_ack *extack)
{
	c->keyid = nla_get_u32(nla);
	return 0;
}

static int seg6x_put_keyid(struct sk_buff *msg, const struct seg6x_sid *sid)
{
	return nla_put_u32(msg, SEG6X_SID_HMAC_KEYID, sid->he.keyid);
}

static bool seg6x_equal_keyid(const struct seg6x_sid *a,
			      const struct seg6x_sid *b)
{
	return a->he.keyid == b->he.keyid;
}

/* ---- flavors, lblen, nflen ---------------------------------------- */

static int seg6x_parse_flavors(struct seg6x_sid_cfg *c,
			       const struct nlattr *nla,
			       struct netlink_ext_ack *extack)
{
	u32 flv = nla_get_u32(nla);

	if (flv & ~c->sid.beh->flavors) {
		NL_SET_ERR_MSG_ATTR(extack, nla, "unknown flavor");
		return -EINVAL;
	}
	if (!flv) {
		NL_SET_ERR_MSG_ATTR(extack, nla, "empty flavor set");
		return -EINVAL;
	}
	c->sid.flavors = flv;
	return 0;
}

static int seg6x_put_flavors(struct sk_buff *msg, const struct seg6x_sid *sid)
{
	return nla_put_u32(msg, SEG6X_SID_FLAVORS, sid->flavors);
}

static bool seg6x_equal_flavors(const struct seg6x_sid *a,
				const struct seg6x_sid *b)
{
	return a->flavors == b->flavors;
}

static int seg6x_parse_lblen(struct seg6x_sid_cfg *c, const struct nlattr *nla,
			     struct netlink_ext_ack *extack)
{
	c->sid.lblen = nla_get_u8(nla);
	return 0;
}

static int seg6x_put_lblen(struct sk_buff *msg, const struct seg6x_sid *sid)
{
	return nla_put_u8(msg, SEG6X_SID_LBLEN, sid->lblen);
}

static bool seg6x_equal_lblen(const struct seg6x_sid *a,
			      const struct seg6x_sid *b)
{
	return a->lblen == b->lblen;
}

static int seg6x_parse_nflen(struct seg6x_sid_cfg *c, const struct nlattr *nla,
			     struct netlink_ext_ack *extack)
{
	c->sid.nflen = nla_get_u8(nla);
	return 0;
}

static int seg6x_put_nflen(struct sk_buff *msg, const struct seg6x_sid *sid)
{
	return nla_put_u8(msg, SEG6X_SID_NFLEN, sid->nflen);
}

static bool seg6x_equal_nflen(const struct seg6x_sid *a,
			      const struct seg6x_sid *b)
{
	return a->nflen == b->nflen;
}

/* NEXT-C-SID lengths: whole bytes, room for both (RFC 9800). */
static int seg6x_sid_check_csid(struct seg6x_sid_cfg *c,
				struct netlink_ext_ack *extack)
{
	const struct seg6x_sid *sid = &c->sid;

	if ((sid->attrs & (F(LBLEN) | F(NFLEN))) &&
	    !(sid->flavors & SEG6X_FLV_NEXT_CSID)) {
		NL_SET_ERR_MSG(extack, "lblen and nflen go with the next-csid flavor");
		return -EINVAL;
	}
	if (sid->lblen % 8 || sid->nflen % 8 || !sid->lblen || !sid->nflen ||
	    sid->lblen > 120 || sid->nflen > 120 ||
	    sid->lblen + sid->nflen > 128) {
		NL_SET_ERR_MSG(extack,
			       "lblen and nflen must be multiples of 8 from 8 to 120, together at most 128");
		return -EINVAL;
	}
	return 0;
}

/* ---- count, owner ------------------------------------------------- */

static int seg6x_parse_count(struct seg6x_sid_cfg *c, const struct nlattr *nla,
			     struct netlink_ext_ack *extack)
{
	c->count = true;
	return 0;
}

static int seg6x_parse_owner(struct seg6x_sid_cfg *c, const struct nlattr *nla,
			     struct netlink_ext_ack *extack)
{
	c->sid.owner = nla_get_u8(nla);
	return 0;
}

static int seg6x_put_owner(struct sk_buff *msg, const struct seg6x_sid *sid)
{
	return sid->owner ? nla_put_u8(msg, SEG6X_SID_OWNER, sid->owner) : 0;
}

static bool seg6x_equal_owner(const struct seg6x_sid *a,
			      const struct seg6x_sid *b)
{
	return a->owner == b->owner;
}

/*
 * The table. Prefix, length and behaviour are the SID's key and kind
 * (sid_netlink.c); counters and the dead mark are replies only.
 */
#define SEG6X_ATTR(name, need) {					\
	need, seg6x_parse_##name, seg6x_put_##name, seg6x_equal_##name	\
}

static const struct seg6x_sid_attr_ops seg6x_sid_attrs[SEG6X_SID_MAX + 1] = {
	[SEG6X_SID_NH6]		= SEG6X_ATTR(nh6, "this behavior needs nh6"),
	[SEG6X_SID_NH4]		= SEG6X_ATTR(nh4, "this behavior needs nh4"),
	[SEG6X_SID_OIF]		= SEG6X_ATTR(oif, "this behavior needs dev"),
	[SEG6X_SID_TABLE]	= SEG6X_ATTR(table, "this behavior needs table"),
	[SEG6X_SID_VRF]		= SEG6X_ATTR(vrf, "this behavior needs vrf"),
	[SEG6X_SID_SEGS]	= SEG6X_ATTR(segs, "this behavior needs segs"),
	[SEG6X_SID_HMAC_KEYID]	= SEG6X_ATTR(keyid, NULL),
	[SEG6X_SID_FLAVORS]	= SEG6X_ATTR(flavors, NULL),
	[SEG6X_SID_LBLEN]	= SEG6X_ATTR(lblen, NULL),
	[SEG6X_SID_NFLEN]	= SEG6X_ATTR(nflen, NULL),
	[SEG6X_SID_COUNT]	= { .parse = seg6x_parse_count },
	[SEG6X_SID_OWNER]	= SEG6X_ATTR(owner, NULL),
};

/* Does the behaviour get every attribute it needs, and only those? */
static int seg6x_sid_attrs_check(struct seg6x_sid_cfg *c,
				 struct netlink_ext_ack *extack)
{
	const struct seg6x_sid_behavior *b = c->sid.beh;
	u32 allowed = b->required | b->optional | SEG6X_SID_COMMON |
		      (b->flavors ? SEG6X_SID_FLV : 0);
	int a;

	for (a = 1; a <= SEG6X_SID_MAX; a++) {
		u32 f = SEG6X_SID_F(a);

		if ((b->required & f) && !c->tb[a]) {
			if (extack)
				extack->_msg = seg6x_sid_attrs[a].need;
			return -EINVAL;
		}
		if (!c->tb[a])
			continue;
		if (!(allowed & f)) {
			if (a == SEG6X_SID_FLAVORS)
				NL_SET_ERR_MSG_ATTR(extack, c->tb[a],
						    "flavors are defined for End, End.X and End.T only");
			else
				NL_SET_ERR_MSG_ATTR(extack, c->tb[a],
						    "attribute not used by this behavior");
			return -EINVAL;
		}
		c->sid.attrs |= f;
	}
	c->sid.attrs &= ~F(REPLACE);	/* a request flag, not the SID's */
	return 0;
}

/*
 * Check the attributes against c->sid.beh and its rules across them,
 * reading each one into @c. RTNL held (devices).
 */
int seg6x_sid_attrs_parse(struct seg6x_sid_cfg *c,
			  struct netlink_ext_ack *extack)
{
	const struct seg6x_sid_behavior *b = c->sid.beh;
	int a, err;

	err = seg6x_sid_attrs_check(c, extack);
	if (!err && b->check)
		err = b->check(c, extack);
	for (a = 1; !err && a <= SEG6X_SID_MAX; a++)
		if (c->tb[a] && seg6x_sid_attrs[a].parse)
			err = seg6x_sid_attrs[a].parse(c, c->tb[a], extack);
	if (!err)
		err = seg6x_sid_check_csid(c, extack);
	if (!err && b->finish)
		err = b->finish(c, extack);
	return err;
}

/* The SID's configured attributes (besides its key), into a reply. */
int seg6x_sid_attrs_put(struct sk_buff *msg, const struct seg6x_sid *sid)
{
	int a;

	for (a = 1; a <= SEG6X_SID_MAX; a++)
		if ((sid->attrs & SEG6X_SID_F(a)) && seg6x_sid_attrs[a].put &&
		    seg6x_sid_attrs[a].put(msg, sid))
			return -EMSGSIZE;
	return 0;
}

/* Same behaviour, same attributes given, same values. */
bool seg6x_sid_attrs_equal(const struct seg6x_sid *a,
			   const struct seg6x_sid *b)
{
	int i;

	if (a->behavior != b->behavior || a->attrs != b->attrs)
		return false;
	for (i = 1; i <= SEG6X_SID_MAX; i++)
		if ((a->attrs & SEG6X_SID_F(i)) && seg6x_sid_attrs[i].equal &&
		    !seg6x_sid_attrs[i].equal(a, b))
			return false;
	return true;
}

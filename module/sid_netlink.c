// SPDX-License-Identifier: GPL-2.0
/*
 * sid_netlink.c - the SID commands of the SEG6X generic netlink family:
 * add or replace, delete, get, dump, flush (seg6ctl(8) "sid").
 *
 * A SID is built apart from the table (attributes read and checked by
 * sid_attrs.c against the behaviour table, then allocated in one block)
 * and only then put in place, so a request that fails changes nothing.
 */
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/ipv6.h>

#include "events.h"
#include "genl_family.h"
#include "params.h"
#include "sid.h"
#include "sid_netlink.h"

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

static int seg6x_sid_put(struct sk_buff *msg, const struct seg6x_sid *sid)
{
	struct nlattr *nest = nla_nest_start(msg, SEG6X_A_SID);

	if (!nest ||
	    nla_put_in6_addr(msg, SEG6X_SID_PREFIX, &sid->prefix) ||
	    nla_put_u8(msg, SEG6X_SID_PREFIX_LEN, sid->plen) ||
	    nla_put_u16(msg, SEG6X_SID_BEHAVIOR, sid->behavior) ||
	    seg6x_sid_attrs_put(msg, sid) ||
	    (sid->pcpu && (nla_put_flag(msg, SEG6X_SID_COUNT) ||
			   seg6x_counters_put(msg, SEG6X_SID_COUNTERS,
						 sid->pcpu))) ||
	    (READ_ONCE(sid->dead) && nla_put_u8(msg, SEG6X_SID_DEAD, 1)))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

/* A SID placed or about to be removed (still valid: RTNL held). */
static void seg6x_sid_event(struct net *net, u8 cmd,
			    const struct seg6x_sid *sid)
{
	struct sk_buff *msg;
	void *hdr;

	msg = seg6x_event_start(net, cmd, &hdr);
	if (!msg)
		return;
	if (seg6x_sid_put(msg, sid))
		seg6x_event_cancel(msg);
	else
		seg6x_event_send(net, msg, hdr);
}

static int seg6x_sid_behavior(struct seg6x_sid_cfg *c,
			      struct netlink_ext_ack *extack)
{
	struct nlattr *attr = c->tb[SEG6X_SID_BEHAVIOR];

	if (!attr) {
		NL_SET_ERR_MSG(extack, "missing behavior");
		return -EINVAL;
	}
	c->sid.behavior = nla_get_u16(attr);
	c->sid.beh = seg6x_behavior_get(c->sid.behavior);
	if (!c->sid.beh) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "unknown behavior");
		return -EINVAL;
	}
	return 0;
}

/* Build a SID from its attributes. RTNL held (devices checked). */
static struct seg6x_sid *seg6x_sid_build(struct net *net, struct nlattr **tb,
					 struct netlink_ext_ack *extack)
{
	struct seg6x_sid_cfg c = {
		.net = net,
		.tb = tb,
		.sid = { .lblen = 32, .nflen = 16 },	/* RFC 9800 defaults */
	};
	struct seg6x_sid *sid;
	size_t extra = 0;
	int err;

	err = seg6x_sid_key(tb, &c.sid.prefix, &c.sid.plen, extack);
	if (!err)
		err = seg6x_sid_behavior(&c, extack);
	if (!err)
		err = seg6x_sid_attrs_parse(&c, extack);
	if (err)
		return ERR_PTR(err);

	if (c.nsegs)
		extra = seg6x_headend_size(c.mode, c.nsegs, c.keyid);
	sid = kzalloc(struct_size(sid, data, extra), GFP_KERNEL_ACCOUNT);
	if (!sid)
		return ERR_PTR(-ENOMEM);
	*sid = c.sid;
	if (c.nsegs)
		seg6x_headend_init(&sid->he, c.mode, c.segs, c.nsegs, c.keyid,
				   sid->data);
	if (c.count) {
		sid->pcpu = seg6x_counters_alloc(GFP_KERNEL_ACCOUNT);
		if (!sid->pcpu) {
			seg6x_sid_free(sid);
			return ERR_PTR(-ENOMEM);
		}
	}
	return sid;
}

/*
 * Replacing a live SID with an identical one keeps the one in place, and
 * so its counters: re-applying a configuration changes nothing.
 */
static bool seg6x_sid_same(const struct seg6x_sid *old,
			   const struct seg6x_sid *sid)
{
	return !READ_ONCE(old->dead) && seg6x_sid_attrs_equal(old, sid);
}

static int seg6x_sid_place(struct net *net, struct nlattr **tb,
			   struct seg6x_sid *sid, bool replace,
			   struct netlink_ext_ack *extack)
{
	struct seg6x_net *sn = seg6x_pernet(net);
	struct seg6x_sid_table *t = seg6x_sid_table_get(sn);
	struct seg6x_sid *old;

	if (!t)
		return -ENOMEM;
	old = seg6x_sid_find(t, &sid->prefix, sid->plen);
	if (old && !replace) {
		NL_SET_ERR_MSG_ATTR(extack, tb[SEG6X_SID_PREFIX],
				    "a SID with this prefix exists (use replace)");
		return -EEXIST;
	}
	if (old && seg6x_sid_same(old, sid)) {
		seg6x_sid_free(sid);
		return 0;
	}
	if (!old && sn->nsids >= seg6x_param_sid_max) {
		NL_SET_ERR_MSG_ATTR(extack, tb[SEG6X_SID_PREFIX],
				    "the SID table is full (module parameter sid_max): delete SIDs or load seg6x with a larger sid_max");
		return -ENOSPC;
	}
	if (seg6x_sid_insert(sn, t, sid, old)) {
		NL_SET_ERR_MSG(extack,
			       "cannot grow the SID table (out of memory)");
		return -ENOMEM;
	}
	seg6x_sid_event(net, SEG6X_CMD_SID_SET, sid);
	return 0;
}

/* Add, or with SEG6X_SID_REPLACE replace (genl refuses NLM_F_REPLACE). */
int seg6x_nl_sid_set(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct nlattr *tb[SEG6X_SID_MAX + 1];
	struct seg6x_sid *sid;
	int err;

	err = seg6x_sid_parse_nest(info, tb);
	if (err)
		return err;
	rtnl_lock();
	sid = seg6x_sid_build(net, tb, info->extack);
	if (IS_ERR(sid)) {
		err = PTR_ERR(sid);
	} else {
		err = seg6x_sid_place(net, tb, sid,
				      nla_get_flag(tb[SEG6X_SID_REPLACE]),
				      info->extack);
		if (err)
			seg6x_sid_free(sid);
	}
	rtnl_unlock();
	return err;
}

/*
 * The SID a DEL or GET request names, or an ERR_PTR with the extack set.
 * RTNL held: the SID stays valid until the caller drops it.
 */
static struct seg6x_sid *seg6x_sid_req_find(struct seg6x_net *sn,
					   struct genl_info *info)
{
	struct nlattr *tb[SEG6X_SID_MAX + 1];
	struct seg6x_sid_table *t;
	struct seg6x_sid *sid = NULL;
	struct in6_addr masked;
	int err;
	u8 plen;

	err = seg6x_sid_parse_nest(info, tb);
	if (!err)
		err = seg6x_sid_key(tb, &masked, &plen, info->extack);
	if (err)
		return ERR_PTR(err);
	t = rtnl_dereference(sn->sids);
	if (t)
		sid = seg6x_sid_find(t, &masked, plen);
	if (!sid) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[SEG6X_SID_PREFIX],
				    "no such SID");
		return ERR_PTR(-ENOENT);
	}
	return sid;
}

int seg6x_nl_sid_del(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct seg6x_net *sn = seg6x_pernet(net);
	struct seg6x_sid *sid;

	rtnl_lock();
	sid = seg6x_sid_req_find(sn, info);
	if (!IS_ERR(sid)) {
		seg6x_sid_event(net, SEG6X_CMD_SID_DEL, sid);
		seg6x_sid_remove(sn, rtnl_dereference(sn->sids), sid);
	}
	rtnl_unlock();
	return PTR_ERR_OR_ZERO(sid);
}

int seg6x_nl_sid_flush(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);

	rtnl_lock();
	seg6x_sid_flush(seg6x_pernet(net));
	rtnl_unlock();
	seg6x_event_bare(net, SEG6X_CMD_SID_FLUSH);
	return 0;
}

int seg6x_nl_sid_get(struct sk_buff *skb, struct genl_info *info)
{
	struct seg6x_net *sn = seg6x_pernet(genl_info_net(info));
	struct seg6x_sid *sid;
	struct sk_buff *msg;
	void *hdr;
	int err;

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
	sid = seg6x_sid_req_find(sn, info);
	err = IS_ERR(sid) ? PTR_ERR(sid) : seg6x_sid_put(msg, sid);
	rtnl_unlock();
	if (err) {
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

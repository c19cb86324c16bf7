// SPDX-License-Identifier: GPL-2.0
/*
 * genl.c - the "SEG6X" generic netlink family.
 *
 * Control path only: this file never touches a packet. Every change is
 * admin-only in the caller's network namespace (GENL_UNS_ADMIN_PERM, so a
 * container's root can manage its own namespace); reads (info, tunsrc,
 * key ids, policy, counters) are open to anyone, as `ip -s route` is, so
 * that monitoring needs no privilege. Everything is strictly
 * validated against one family-wide policy: unknown or reply-only
 * attributes are rejected. Handlers run under the genl mutex
 * (parallel_ops is false), which serialises all writers of pernet state.
 */
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/ipv6.h>

#include "genl.h"
#include "events.h"
#include "genl_family.h"
#include "hmac.h"
#include "ifdrops.h"
#include "input.h"
#include "lwt.h"
#include "sock_sign.h"
#include "params.h"
#include "pernet.h"
#include "policy.h"
#include "sid.h"
#include "sid_netlink.h"

static const struct nla_policy seg6x_genl_policy[SEG6X_A_MAX + 1] = {
	[SEG6X_A_TUNSRC]	= NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[SEG6X_A_HMAC_KEYID]	= NLA_POLICY_MIN(NLA_U32, 1),
	[SEG6X_A_HMAC_ALGO]	= NLA_POLICY_RANGE(NLA_U8, SEG6X_HMAC_ALGO_SHA1,
						   SEG6X_HMAC_ALGO_MAX),
	/* length checked by the handler, which wipes it on every path */
	[SEG6X_A_HMAC_SECRET]	= { .type = NLA_BINARY },
	[SEG6X_A_IFINDEX]	= { .type = NLA_U32 },
	[SEG6X_A_SEG6_ENABLED]	= NLA_POLICY_MAX(NLA_U8, 1),
	[SEG6X_A_REQUIRE_HMAC]	= NLA_POLICY_RANGE(NLA_S8, -1, 1),
	[SEG6X_A_SID]		= NLA_POLICY_NESTED(seg6x_sid_policy),
};

/* Start a reply to a doit request. */
static struct sk_buff *seg6x_reply_new(struct genl_info *info, void **hdr)
{
	struct sk_buff *msg;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return NULL;
	*hdr = genlmsg_put_reply(msg, info, &seg6x_genl_family, 0,
				 info->genlhdr->cmd);
	if (!*hdr) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static int seg6x_reply_send(struct sk_buff *msg, void *hdr,
			    struct genl_info *info)
{
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int seg6x_nl_info(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	msg = seg6x_reply_new(info, &hdr);
	if (!msg)
		return -ENOMEM;
	if (nla_put_string(msg, SEG6X_A_VERSION, SEG6X_VERSION) ||
	    nla_put_u16(msg, SEG6X_A_LWT_TYPE, seg6x_lwt_slot()) ||
	    nla_put_u8(msg, SEG6X_A_ALLOW_INLINE, !!seg6x_param_allow_inline) ||
	    nla_put_u32(msg, SEG6X_A_MAX_SEGS, SEG6X_MAX_SEGS) ||
	    nla_put_u8(msg, SEG6X_A_DEF_SEG6_ENABLED, seg6x_param_enabled) ||
	    nla_put_s8(msg, SEG6X_A_DEF_REQUIRE_HMAC,
		       seg6x_param_require_hmac)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return seg6x_reply_send(msg, hdr, info);
}

static void seg6x_tunsrc_event(struct net *net, const struct in6_addr *addr)
{
	struct sk_buff *msg;
	void *hdr;

	msg = seg6x_event_start(net, SEG6X_CMD_TUNSRC_SET, &hdr);
	if (!msg)
		return;
	if (nla_put_in6_addr(msg, SEG6X_A_TUNSRC, addr))
		seg6x_event_cancel(msg);
	else
		seg6x_event_send(net, msg, hdr);
}

static int seg6x_nl_tunsrc_set(struct sk_buff *skb, struct genl_info *info)
{
	struct seg6x_net *sn = seg6x_pernet(genl_info_net(info));
	struct in6_addr addr;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, SEG6X_A_TUNSRC))
		return -EINVAL;
	addr = nla_get_in6_addr(info->attrs[SEG6X_A_TUNSRC]);

	if (ipv6_addr_is_multicast(&addr) || ipv6_addr_loopback(&addr) ||
	    ipv6_addr_v4mapped(&addr)) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[SEG6X_A_TUNSRC],
				    "tunnel source must be a unicast IPv6 address or ::");
		return -EINVAL;
	}
	err = seg6x_tunsrc_set(sn, &addr);
	if (!err)
		seg6x_tunsrc_event(genl_info_net(info), &addr);
	return err;
}

static int seg6x_nl_tunsrc_get(struct sk_buff *skb, struct genl_info *info)
{
	struct seg6x_net *sn = seg6x_pernet(genl_info_net(info));
	struct in6_addr addr;
	struct sk_buff *msg;
	void *hdr;

	seg6x_tunsrc_get(sn, &addr);
	msg = seg6x_reply_new(info, &hdr);
	if (!msg)
		return -ENOMEM;
	if (nla_put_in6_addr(msg, SEG6X_A_TUNSRC, &addr)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return seg6x_reply_send(msg, hdr, info);
}

/* A key set or deleted: its id and algorithm, never the secret. */
static void seg6x_hmac_event(struct net *net, u8 cmd, struct genl_info *info)
{
	struct nlattr *algo = info->attrs[SEG6X_A_HMAC_ALGO];
	struct sk_buff *msg;
	void *hdr;

	msg = seg6x_event_start(net, cmd, &hdr);
	if (!msg)
		return;
	if (nla_put_u32(msg, SEG6X_A_HMAC_KEYID,
			nla_get_u32(info->attrs[SEG6X_A_HMAC_KEYID])) ||
	    (algo && nla_put_u8(msg, SEG6X_A_HMAC_ALGO, nla_get_u8(algo))))
		seg6x_event_cancel(msg);
	else
		seg6x_event_send(net, msg, hdr);
}

static int seg6x_hmac_set_checked(struct net *net, struct genl_info *info,
				  const struct nlattr *secret)
{
	int err;

	if (GENL_REQ_ATTR_CHECK(info, SEG6X_A_HMAC_KEYID) ||
	    GENL_REQ_ATTR_CHECK(info, SEG6X_A_HMAC_ALGO))
		return -EINVAL;
	if (nla_len(secret) < 1 || nla_len(secret) > SEG6X_HMAC_SECRET_MAX) {
		NL_SET_ERR_MSG_ATTR(info->extack, secret,
				    "HMAC secret must be 1 to 64 bytes");
		return -EINVAL;
	}
	/* Packets may ask for socket signing with this key from now on. */
	err = seg6x_sock_sign_use(net);
	if (err)
		return err;

	err = seg6x_hmac_set(seg6x_pernet(net),
			     nla_get_u32(info->attrs[SEG6X_A_HMAC_KEYID]),
			     nla_get_u8(info->attrs[SEG6X_A_HMAC_ALGO]),
			     nla_data(secret), nla_len(secret));
	if (err == -ENOSPC)
		NL_SET_ERR_MSG(info->extack,
			       "too many HMAC keys in this namespace (at most 1024)");
	else if (err)
		NL_SET_ERR_MSG(info->extack,
			       "cannot set up the HMAC transform for this key");
	else
		seg6x_hmac_event(net, SEG6X_CMD_HMAC_SET, info);
	return err;
}

static int seg6x_nl_hmac_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *secret = info->attrs[SEG6X_A_HMAC_SECRET];
	int err;

	if (GENL_REQ_ATTR_CHECK(info, SEG6X_A_HMAC_SECRET))
		return -EINVAL;
	err = seg6x_hmac_set_checked(genl_info_net(info), info, secret);
	/* Wipe the secret from the request on every path: an error ack
	 * echoes the request back, and its memory is freed uncleared.
	 * (The policy sets no maximum length, so that an oversized secret
	 * reaches this point too.)
	 */
	memzero_explicit(nla_data(secret), nla_len(secret));
	return err;
}

static int seg6x_nl_hmac_del(struct sk_buff *skb, struct genl_info *info)
{
	struct seg6x_net *sn = seg6x_pernet(genl_info_net(info));
	int err;

	if (GENL_REQ_ATTR_CHECK(info, SEG6X_A_HMAC_KEYID))
		return -EINVAL;
	err = seg6x_hmac_del(sn, nla_get_u32(info->attrs[SEG6X_A_HMAC_KEYID]));
	if (err == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack,
				    info->attrs[SEG6X_A_HMAC_KEYID],
				    "no HMAC key with this id");
	else if (!err)
		seg6x_hmac_event(genl_info_net(info), SEG6X_CMD_HMAC_DEL, info);
	return err;
}

/* Dump position in cb->args[0]: the next key id to look at. */
static int seg6x_nl_hmac_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct seg6x_net *sn = seg6x_pernet(sock_net(skb->sk));
	unsigned long pos = cb->args[0];
	u32 keyid;
	u8 algo;

	while (seg6x_hmac_next(sn, &pos, &keyid, &algo)) {
		void *hdr;

		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &seg6x_genl_family,
				  NLM_F_MULTI, SEG6X_CMD_HMAC_GET);
		if (!hdr)
			break;
		if (nla_put_u32(skb, SEG6X_A_HMAC_KEYID, keyid) ||
		    nla_put_u8(skb, SEG6X_A_HMAC_ALGO, algo)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0] = ++pos;
		if (!pos)	/* wrapped past ULONG_MAX */
			break;
	}
	return skb->len;
}

static int seg6x_put_iface(struct sk_buff *msg, struct seg6x_net *sn,
			   int ifindex, const char *name)
{
	struct seg6x_policy pol;

	seg6x_policy_get(sn, ifindex, &pol);
	if (nla_put_u32(msg, SEG6X_A_IFINDEX, ifindex) ||
	    nla_put_string(msg, SEG6X_A_IFNAME, name) ||
	    nla_put_u8(msg, SEG6X_A_SEG6_ENABLED, pol.enabled) ||
	    nla_put_s8(msg, SEG6X_A_REQUIRE_HMAC, pol.require_hmac) ||
	    nla_put_u8(msg, SEG6X_A_IFACE_EXPLICIT,
		       (pol.explicit_enabled ? SEG6X_IFACE_EXPLICIT_ENABLED : 0) |
		       (pol.explicit_hmac ? SEG6X_IFACE_EXPLICIT_HMAC : 0)))
		return -EMSGSIZE;
	return 0;
}

/* An interface's policy changed: its effective policy, as IFACE_GET. RTNL. */
static void seg6x_iface_event(struct net *net, int ifindex)
{
	struct net_device *dev = ifindex ? __dev_get_by_index(net, ifindex) : NULL;
	struct sk_buff *msg;
	void *hdr;

	msg = seg6x_event_start(net, SEG6X_CMD_IFACE_SET, &hdr);
	if (!msg)
		return;
	if (seg6x_put_iface(msg, seg6x_pernet(net), ifindex,
			    dev ? dev->name : "default"))
		seg6x_event_cancel(msg);
	else
		seg6x_event_send(net, msg, hdr);
}

static int seg6x_nl_iface_set(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct seg6x_net *sn = seg6x_pernet(net);
	int enabled = SEG6X_POLICY_KEEP, hmac = SEG6X_POLICY_KEEP;
	u32 ifindex;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, SEG6X_A_IFINDEX))
		return -EINVAL;
	if (!info->attrs[SEG6X_A_SEG6_ENABLED] &&
	    !info->attrs[SEG6X_A_REQUIRE_HMAC]) {
		NL_SET_ERR_MSG(info->extack,
			       "nothing to set: give seg6_enabled and/or require_hmac");
		return -EINVAL;
	}
	if (info->attrs[SEG6X_A_SEG6_ENABLED])
		enabled = nla_get_u8(info->attrs[SEG6X_A_SEG6_ENABLED]);
	if (info->attrs[SEG6X_A_REQUIRE_HMAC])
		hmac = nla_get_s8(info->attrs[SEG6X_A_REQUIRE_HMAC]);
	ifindex = nla_get_u32(info->attrs[SEG6X_A_IFINDEX]);
	if (ifindex > INT_MAX) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[SEG6X_A_IFINDEX],
				    "no such interface");
		return -ENODEV;
	}

	/* Enabling needs the endpoint hook: register it first, so that a
	 * failure leaves the policy as it was.
	 */
	if (enabled == 1) {
		err = seg6x_input_use(net);
		if (err)
			return err;
	}

	/* RTNL keeps the interface from going away (and its ifindex from
	 * being reused) between the lookup and the store.
	 */
	rtnl_lock();
	if (ifindex && !__dev_get_by_index(net, ifindex)) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[SEG6X_A_IFINDEX],
				    "no such interface in this namespace");
		err = -ENODEV;
	} else {
		err = seg6x_policy_set(sn, ifindex, enabled, hmac);
		if (!err)
			seg6x_iface_event(net, ifindex);
	}
	rtnl_unlock();
	return err;
}

static int seg6x_nl_iface_get(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	char name[IFNAMSIZ] = "default";
	struct sk_buff *msg;
	u32 ifindex;
	void *hdr;

	if (GENL_REQ_ATTR_CHECK(info, SEG6X_A_IFINDEX))
		return -EINVAL;
	ifindex = nla_get_u32(info->attrs[SEG6X_A_IFINDEX]);
	if (ifindex) {
		struct net_device *dev;

		rcu_read_lock();
		dev = ifindex <= INT_MAX ?
		      dev_get_by_index_rcu(net, ifindex) : NULL;
		if (dev)
			strscpy(name, dev->name, sizeof(name));
		rcu_read_unlock();
		if (!dev) {
			NL_SET_ERR_MSG_ATTR(info->extack,
					    info->attrs[SEG6X_A_IFINDEX],
					    "no such interface in this namespace");
			return -ENODEV;
		}
	}

	msg = seg6x_reply_new(info, &hdr);
	if (!msg)
		return -ENOMEM;
	if (seg6x_put_iface(msg, seg6x_pernet(net), ifindex, name) ||
	    (ifindex && seg6x_ifdrops_put(msg, seg6x_pernet(net), ifindex))) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return seg6x_reply_send(msg, hdr, info);
}

static int seg6x_iface_dump_one(struct sk_buff *skb,
				struct netlink_callback *cb,
				struct seg6x_net *sn, int ifindex,
				const char *name)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &seg6x_genl_family, NLM_F_MULTI, SEG6X_CMD_IFACE_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (seg6x_put_iface(skb, sn, ifindex, name) ||
	    (ifindex && seg6x_ifdrops_put(skb, sn, ifindex))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/*
 * Dump: "default" first, then every interface in ifindex order.
 * cb->args[0] says whether "default" went out, cb->args[1] holds the
 * next ifindex, so a dump split over several messages resumes after the
 * last interface sent even if others came or went meanwhile.
 */
static int seg6x_nl_iface_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	struct seg6x_net *sn = seg6x_pernet(net);
	unsigned long ifindex = cb->args[1];
	struct net_device *dev;

	if (!cb->args[0]) {
		if (seg6x_iface_dump_one(skb, cb, sn, 0, "default"))
			return skb->len;
		cb->args[0] = 1;
	}

	rcu_read_lock();
	for (; (dev = seg6x_netdev_from(net, &ifindex)); ifindex++) {
		if (seg6x_iface_dump_one(skb, cb, sn, dev->ifindex, dev->name))
			break;
	}
	rcu_read_unlock();
	cb->args[1] = ifindex;
	return skb->len;
}

static int seg6x_nl_stats_get(struct sk_buff *skb, struct genl_info *info)
{
	struct seg6x_net *sn = seg6x_pernet(genl_info_net(info));
	u64 val[SEG6X_STAT_MAX + 1];
	struct nlattr *nest;
	struct sk_buff *msg;
	void *hdr;
	int i;

	seg6x_stats_read(&sn->stats, val);
	msg = seg6x_reply_new(info, &hdr);
	if (!msg)
		return -ENOMEM;
	nest = nla_nest_start(msg, SEG6X_A_STATS);
	if (!nest)
		goto err;
	for (i = SEG6X_STAT_ENCAP; i <= SEG6X_STAT_MAX; i++)
		if (nla_put_u64_64bit(msg, i, val[i], SEG6X_STAT_PAD))
			goto err;
	nla_nest_end(msg, nest);
	return seg6x_reply_send(msg, hdr, info);
err:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

static int seg6x_nl_stats_reset(struct sk_buff *skb, struct genl_info *info)
{
	struct seg6x_net *sn = seg6x_pernet(genl_info_net(info));

	seg6x_stats_reset(&sn->stats);
	seg6x_ifdrops_reset(sn);
	seg6x_event_bare(genl_info_net(info), SEG6X_CMD_STATS_RESET);
	return 0;
}

/* A SID is processed by the endpoint hook: registered before the SID. */
static int seg6x_nl_sid_add(struct sk_buff *skb, struct genl_info *info)
{
	int err = seg6x_input_use(genl_info_net(info));

	return err ?: seg6x_nl_sid_set(skb, info);
}

static const struct genl_ops seg6x_genl_ops[] = {
	{
		.cmd = SEG6X_CMD_INFO_GET,
		.doit = seg6x_nl_info,
		/* read-only: no privilege needed */
	},
	{
		.cmd = SEG6X_CMD_TUNSRC_SET,
		.doit = seg6x_nl_tunsrc_set,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = SEG6X_CMD_TUNSRC_GET,
		.doit = seg6x_nl_tunsrc_get,
		/* read-only: no privilege needed */
	},
	{
		.cmd = SEG6X_CMD_HMAC_SET,
		.doit = seg6x_nl_hmac_set,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = SEG6X_CMD_HMAC_DEL,
		.doit = seg6x_nl_hmac_del,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = SEG6X_CMD_HMAC_GET,
		.dumpit = seg6x_nl_hmac_dump,
		/* read-only: no privilege needed */
	},
	{
		.cmd = SEG6X_CMD_IFACE_SET,
		.doit = seg6x_nl_iface_set,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = SEG6X_CMD_IFACE_GET,
		.doit = seg6x_nl_iface_get,
		.dumpit = seg6x_nl_iface_dump,
		/* read-only: no privilege needed */
	},
	{
		.cmd = SEG6X_CMD_STATS_GET,
		.doit = seg6x_nl_stats_get,
		/* read-only: no privilege needed */
	},
	{
		.cmd = SEG6X_CMD_STATS_RESET,
		.doit = seg6x_nl_stats_reset,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = SEG6X_CMD_SID_SET,
		.doit = seg6x_nl_sid_add,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = SEG6X_CMD_SID_DEL,
		.doit = seg6x_nl_sid_del,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = SEG6X_CMD_SID_GET,
		.doit = seg6x_nl_sid_get,
		.dumpit = seg6x_nl_sid_dump,
		/* read-only: no privilege needed */
	},
	{
		.cmd = SEG6X_CMD_SID_FLUSH,
		.doit = seg6x_nl_sid_flush,
		.flags = GENL_UNS_ADMIN_PERM,
	},
};

static const struct genl_multicast_group seg6x_mcgrps[] = {
	[SEG6X_MCGRP_EVENTS] = { .name = SEG6X_GENL_MCGRP_EVENTS },
};

struct genl_family seg6x_genl_family __ro_after_init = {
	.name = SEG6X_GENL_NAME,
	.version = SEG6X_GENL_VERSION,
	.maxattr = SEG6X_A_MAX,
	.policy = seg6x_genl_policy,
	.netnsok = true,
	.module = THIS_MODULE,
	.ops = seg6x_genl_ops,
	.n_ops = ARRAY_SIZE(seg6x_genl_ops),
	.mcgrps = seg6x_mcgrps,
	.n_mcgrps = ARRAY_SIZE(seg6x_mcgrps),
	.resv_start_op = 0,	/* strict validation for every command */
};

int seg6x_genl_register(void)
{
	return genl_register_family(&seg6x_genl_family);
}

void seg6x_genl_unregister(void)
{
	genl_unregister_family(&seg6x_genl_family);
}

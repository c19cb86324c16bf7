// SPDX-License-Identifier: GPL-2.0
/*
 * libseg6x for the SEG6X generic netlink family's module-wide objects
 * (info, tunnel source, HMAC keys, interface policies, counters): each
 * call builds its request, and decodes the replies into plain structs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl_nl.h"
#include "libseg6x.h"

/* A request without attributes; its replies go to @cb. */
static int request(struct ctl *c, uint8_t cmd, int flags,
		   ctl_genl_reply_fn cb, void *arg)
{
	struct nl_msg *msg;
	int err = ctl_genl_msg(c, cmd, flags, &msg);

	return err ? err : ctl_genl_talk(c, msg, cb, arg);
}

/* A request with one u32 attribute. */
static int request_u32(struct ctl *c, uint8_t cmd, int flags, int type,
		       uint32_t val, ctl_genl_reply_fn cb, void *arg)
{
	struct nl_msg *msg;
	int err = ctl_genl_msg(c, cmd, flags, &msg);

	if (err)
		return err;
	if (nla_put_u32(msg, type, val) < 0)
		return ctl_msg_abort(c, msg);
	return ctl_genl_talk(c, msg, cb, arg);
}

/* The module */

static int info_reply(struct nlattr **tb, void *arg)
{
	struct ctl_info *info = arg;

	/* Without its slot seg6x's routes cannot be told apart. */
	if (!tb[SEG6X_A_LWT_TYPE])
		return -EBADMSG;
	info->lwt_type = nla_get_u16(tb[SEG6X_A_LWT_TYPE]);

	if (tb[SEG6X_A_VERSION])
		snprintf(info->version, sizeof(info->version), "%s",
			 nla_get_string(tb[SEG6X_A_VERSION]));
	if (tb[SEG6X_A_ALLOW_INLINE])
		info->allow_inline = nla_get_u8(tb[SEG6X_A_ALLOW_INLINE]);
	if (tb[SEG6X_A_MAX_SEGS])
		info->max_segs = nla_get_u32(tb[SEG6X_A_MAX_SEGS]);
	if (tb[SEG6X_A_DEF_SEG6_ENABLED])
		info->def_seg6_enabled = nla_get_u8(tb[SEG6X_A_DEF_SEG6_ENABLED]);
	if (tb[SEG6X_A_DEF_REQUIRE_HMAC])
		info->def_require_hmac = nla_get_s8(tb[SEG6X_A_DEF_REQUIRE_HMAC]);
	return 0;
}

int ctl_info_get(struct ctl *c, struct ctl_info *info)
{
	memset(info, 0, sizeof(*info));
	info->max_segs = SEG6X_MAX_SEGS;
	return request(c, SEG6X_CMD_INFO_GET, 0, info_reply, info);
}

/* Tunnel source */

static int tunsrc_reply(struct nlattr **tb, void *arg)
{
	/* No attribute means nothing was ever set: "::". */
	if (tb[SEG6X_A_TUNSRC])
		memcpy(arg, nla_data(tb[SEG6X_A_TUNSRC]), sizeof(struct in6_addr));
	return 0;
}

int ctl_tunsrc_get(struct ctl *c, struct in6_addr *addr)
{
	*addr = in6addr_any;
	return request(c, SEG6X_CMD_TUNSRC_GET, 0, tunsrc_reply, addr);
}

int ctl_tunsrc_set(struct ctl *c, const struct in6_addr *addr)
{
	struct nl_msg *msg;
	int err = ctl_genl_msg(c, SEG6X_CMD_TUNSRC_SET, 0, &msg);

	if (err)
		return err;
	if (nla_put(msg, SEG6X_A_TUNSRC, sizeof(*addr), addr) < 0)
		return ctl_msg_abort(c, msg);
	return ctl_genl_talk(c, msg, NULL, NULL);
}

/* HMAC keys */

int ctl_hmac_set(struct ctl *c, uint32_t keyid, uint8_t algo,
		 const void *secret, size_t len)
{
	struct nl_msg *msg;
	int err = ctl_genl_msg(c, SEG6X_CMD_HMAC_SET, 0, &msg);

	if (err)
		return err;
	if (nla_put_u32(msg, SEG6X_A_HMAC_KEYID, keyid) < 0 ||
	    nla_put_u8(msg, SEG6X_A_HMAC_ALGO, algo) < 0 ||
	    nla_put(msg, SEG6X_A_HMAC_SECRET, (int)len, secret) < 0)
		return ctl_msg_abort(c, msg);
	/* ctl_genl_talk() wipes the message. */
	return ctl_genl_talk(c, msg, NULL, NULL);
}

int ctl_hmac_del(struct ctl *c, uint32_t keyid)
{
	return request_u32(c, SEG6X_CMD_HMAC_DEL, 0, SEG6X_A_HMAC_KEYID, keyid,
			   NULL, NULL);
}

int ctl_key_decode(struct nlattr **tb, struct ctl_key *key)
{
	if (!tb[SEG6X_A_HMAC_KEYID])
		return -EBADMSG;
	key->keyid = nla_get_u32(tb[SEG6X_A_HMAC_KEYID]);
	/* A deletion event names the key only. */
	key->algo = tb[SEG6X_A_HMAC_ALGO] ? nla_get_u8(tb[SEG6X_A_HMAC_ALGO]) : 0;
	return 0;
}

static int key_reply(struct nlattr **tb, void *arg)
{
	struct ctl_key *key;

	if (!tb[SEG6X_A_HMAC_ALGO])
		return -EBADMSG;
	key = ctl_list_add(arg);
	return key ? ctl_key_decode(tb, key) : -ENOMEM;
}

int ctl_hmac_list(struct ctl *c, struct ctl_key **keys, size_t *n)
{
	struct ctl_list l = { .size = sizeof(**keys) };
	int err = request(c, SEG6X_CMD_HMAC_GET, NLM_F_DUMP, key_reply, &l);

	return ctl_list_end(err, &l, (void **)keys, n);
}

/* Interface policies */

int ctl_iface_set(struct ctl *c, const struct ctl_iface *iface)
{
	struct nl_msg *msg;
	int err = ctl_genl_msg(c, SEG6X_CMD_IFACE_SET, 0, &msg);

	if (err)
		return err;
	if (nla_put_u32(msg, SEG6X_A_IFINDEX, iface->ifindex) < 0 ||
	    (iface->has_seg6_enabled &&
	     nla_put_u8(msg, SEG6X_A_SEG6_ENABLED, iface->seg6_enabled) < 0) ||
	    (iface->has_require_hmac &&
	     nla_put_s8(msg, SEG6X_A_REQUIRE_HMAC, iface->require_hmac) < 0))
		return ctl_msg_abort(c, msg);
	return ctl_genl_talk(c, msg, NULL, NULL);
}

static int iface_reply(struct nlattr **tb, void *arg)
{
	struct ctl_iface *iface = ctl_list_add(arg);

	return iface ? ctl_iface_decode(tb, iface) : -ENOMEM;
}

static struct nla_policy stat_policy[SEG6X_STAT_MAX + 1] = {
	[SEG6X_STAT_ENCAP ... SEG6X_STAT_MAX] = { .type = NLA_U64 },
};

/* A SEG6X_A_STATS nest into @out (indexed by SEG6X_STAT_*). */
static int decode_counters(struct nlattr *nest, uint64_t *out)
{
	struct nlattr *stat[SEG6X_STAT_MAX + 1];
	int i;

	/* Counters of a newer module are past SEG6X_STAT_MAX: skipped. */
	if (nla_parse_nested(stat, SEG6X_STAT_MAX, nest, stat_policy) < 0)
		return -EBADMSG;
	for (i = 0; i <= SEG6X_STAT_MAX; i++)
		if (stat[i])
			out[i] = nla_get_u64(stat[i]);
	return 0;
}

int ctl_iface_decode(struct nlattr **tb, struct ctl_iface *iface)
{
	if (!tb[SEG6X_A_IFINDEX] || !tb[SEG6X_A_SEG6_ENABLED] ||
	    !tb[SEG6X_A_REQUIRE_HMAC])
		return -EBADMSG;
	iface->ifindex = nla_get_u32(tb[SEG6X_A_IFINDEX]);
	if (tb[SEG6X_A_IFNAME])
		snprintf(iface->ifname, sizeof(iface->ifname), "%s",
			 nla_get_string(tb[SEG6X_A_IFNAME]));
	iface->has_seg6_enabled = true;
	iface->seg6_enabled = nla_get_u8(tb[SEG6X_A_SEG6_ENABLED]);
	iface->has_require_hmac = true;
	iface->require_hmac = nla_get_s8(tb[SEG6X_A_REQUIRE_HMAC]);
	if (tb[SEG6X_A_IFACE_EXPLICIT]) {
		uint8_t bits = nla_get_u8(tb[SEG6X_A_IFACE_EXPLICIT]);

		iface->explicit = bits != 0;
		iface->explicit_enabled = bits & SEG6X_IFACE_EXPLICIT_ENABLED;
		iface->explicit_hmac = bits & SEG6X_IFACE_EXPLICIT_HMAC;
	}
	if (tb[SEG6X_A_STATS]) {
		iface->has_drops = true;
		return decode_counters(tb[SEG6X_A_STATS], iface->drops);
	}
	return 0;
}

int ctl_iface_get(struct ctl *c, uint32_t ifindex, struct ctl_iface *iface)
{
	struct ctl_list l = { .size = sizeof(*iface) };
	const struct ctl_iface *found;
	size_t i;
	int err;

	err = request_u32(c, SEG6X_CMD_IFACE_GET, 0, SEG6X_A_IFINDEX, ifindex,
			  iface_reply, &l);
	for (i = 0, found = l.items; !err && i < l.n; i++, found++)
		if (found->ifindex == ifindex)
			break;
	if (!err && i == l.n)
		err = ctl_fail(c, -EBADMSG, "cannot read the kernel's reply: %s",
			       strerror(EBADMSG));
	if (!err)
		*iface = *found;
	free(l.items);
	return err;
}

int ctl_iface_list(struct ctl *c, struct ctl_iface **ifaces, size_t *n)
{
	struct ctl_list l = { .size = sizeof(**ifaces) };
	int err = request(c, SEG6X_CMD_IFACE_GET, NLM_F_DUMP, iface_reply, &l);

	return ctl_list_end(err, &l, (void **)ifaces, n);
}

/* Counters */

static int stats_reply(struct nlattr **tb, void *arg)
{
	struct ctl_stats *stats = arg;

	if (!tb[SEG6X_A_STATS])
		return -EBADMSG;
	return decode_counters(tb[SEG6X_A_STATS], stats->counter);
}

int ctl_stats_get(struct ctl *c, struct ctl_stats *stats)
{
	memset(stats, 0, sizeof(*stats));
	return request(c, SEG6X_CMD_STATS_GET, 0, stats_reply, stats);
}

int ctl_stats_reset(struct ctl *c)
{
	return request(c, SEG6X_CMD_STATS_RESET, 0, NULL, NULL);
}

/* SEG6X_OWNER_*: the programs seg6ctl knows by name. */
const char *ctl_owner_name(unsigned int owner)
{
	return owner == SEG6X_OWNER_FPMD ? "fpmd" : NULL;
}

int ctl_owner_lookup(const char *name, uint8_t *owner)
{
	char *end;
	unsigned long v;

	if (!strcmp(name, "fpmd")) {
		*owner = SEG6X_OWNER_FPMD;
		return 0;
	}
	if (*name < '0' || *name > '9')
		return -1;
	errno = 0;
	v = strtoul(name, &end, 0);
	if (errno || *end || v > SEG6X_OWNER_MAX)
		return -1;
	*owner = (uint8_t)v;
	return 0;
}

/* Counters of a SID or a route */

bool ctl_counters_decode(struct nlattr *nest, uint64_t *packets,
			 uint64_t *bytes, uint64_t *errors)
{
	struct nlattr *tb[SEG6X_SID_CNT_MAX + 1];

	if (nla_parse_nested(tb, SEG6X_SID_CNT_MAX, nest, NULL) < 0)
		return false;
	*packets = tb[SEG6X_SID_CNT_PACKETS] ?
		   nla_get_u64(tb[SEG6X_SID_CNT_PACKETS]) : 0;
	*bytes = tb[SEG6X_SID_CNT_BYTES] ? nla_get_u64(tb[SEG6X_SID_CNT_BYTES]) : 0;
	*errors = tb[SEG6X_SID_CNT_ERRORS] ?
		  nla_get_u64(tb[SEG6X_SID_CNT_ERRORS]) : 0;
	return true;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl's netlink layer for the local SID table: SEG6X_CMD_SID_* with
 * the SID's attributes nested in SEG6X_A_SID; and the behaviours' names.
 */
#include <errno.h>
#include <string.h>

#include "ctl_nl.h"
#include "libseg6x.h"

static const char *const behavior_names[SEG6X_BEHAVIOR_MAX + 1] = {
#define BEHAVIOR_NAME(behavior, name, stat, req, opt, flv) [behavior] = name,
	SEG6X_BEHAVIOR_LIST(BEHAVIOR_NAME)
#undef BEHAVIOR_NAME
};

const char *ctl_behavior_name(unsigned int behavior)
{
	return behavior <= SEG6X_BEHAVIOR_MAX ? behavior_names[behavior] : NULL;
}

int ctl_behavior_lookup(const char *name)
{
	int b;

	for (b = 1; b <= SEG6X_BEHAVIOR_MAX; b++)
		if (behavior_names[b] && !strcmp(name, behavior_names[b]))
			return b;
	return -1;
}

/* The prefix alone: what del and get name a SID by. */
static int put_key(struct nl_msg *msg, const struct in6_addr *prefix,
		   uint8_t len)
{
	return nla_put(msg, SEG6X_SID_PREFIX, sizeof(*prefix), prefix) < 0 ||
	       nla_put_u8(msg, SEG6X_SID_PREFIX_LEN, len) < 0 ? -EMSGSIZE : 0;
}

#define HAS(s, a)	((s)->attrs & CTL_SID_F(a))

static int put_sid(struct nl_msg *msg, const struct ctl_sid *s, bool replace)
{
	struct nlattr *nest = nla_nest_start(msg, SEG6X_A_SID);

	if (!nest || put_key(msg, &s->prefix, s->len) ||
	    (replace && nla_put_flag(msg, SEG6X_SID_REPLACE) < 0) ||
	    nla_put_u16(msg, SEG6X_SID_BEHAVIOR, s->behavior) < 0 ||
	    (HAS(s, SEG6X_SID_NH6) &&
	     nla_put(msg, SEG6X_SID_NH6, sizeof(s->nh6), &s->nh6) < 0) ||
	    (HAS(s, SEG6X_SID_NH4) &&
	     nla_put(msg, SEG6X_SID_NH4, sizeof(s->nh4), &s->nh4) < 0) ||
	    (HAS(s, SEG6X_SID_OIF) &&
	     nla_put_u32(msg, SEG6X_SID_OIF, s->oif) < 0) ||
	    (HAS(s, SEG6X_SID_TABLE) &&
	     nla_put_u32(msg, SEG6X_SID_TABLE, s->table) < 0) ||
	    (HAS(s, SEG6X_SID_VRF) &&
	     nla_put_u32(msg, SEG6X_SID_VRF, s->vrf) < 0) ||
	    (HAS(s, SEG6X_SID_SEGS) &&
	     nla_put(msg, SEG6X_SID_SEGS, (int)(s->nsegs * sizeof(s->segs[0])),
		     s->segs) < 0) ||
	    (HAS(s, SEG6X_SID_HMAC_KEYID) &&
	     nla_put_u32(msg, SEG6X_SID_HMAC_KEYID, s->hmac) < 0) ||
	    (HAS(s, SEG6X_SID_FLAVORS) &&
	     nla_put_u32(msg, SEG6X_SID_FLAVORS, s->flavors) < 0) ||
	    (HAS(s, SEG6X_SID_LBLEN) &&
	     nla_put_u8(msg, SEG6X_SID_LBLEN, s->lblen) < 0) ||
	    (HAS(s, SEG6X_SID_NFLEN) &&
	     nla_put_u8(msg, SEG6X_SID_NFLEN, s->nflen) < 0) ||
	    (HAS(s, SEG6X_SID_COUNT) && nla_put_flag(msg, SEG6X_SID_COUNT) < 0) ||
	    (HAS(s, SEG6X_SID_OWNER) &&
	     nla_put_u8(msg, SEG6X_SID_OWNER, s->owner) < 0))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

int ctl_sid_set(struct ctl *c, const struct ctl_sid *s, bool replace)
{
	struct nl_msg *msg;
	int err = ctl_genl_msg(c, SEG6X_CMD_SID_SET, 0, &msg);

	if (err)
		return err;
	if (put_sid(msg, s, replace))
		return ctl_msg_abort(c, msg);
	return ctl_genl_talk(c, msg, NULL, NULL);
}

static int request_key(struct ctl *c, uint8_t cmd,
		       const struct in6_addr *prefix, uint8_t len,
		       ctl_genl_reply_fn cb, void *arg)
{
	struct nl_msg *msg;
	struct nlattr *nest;
	int err = ctl_genl_msg(c, cmd, 0, &msg);

	if (err)
		return err;
	nest = nla_nest_start(msg, SEG6X_A_SID);
	if (!nest || put_key(msg, prefix, len))
		return ctl_msg_abort(c, msg);
	nla_nest_end(msg, nest);
	return ctl_genl_talk(c, msg, cb, arg);
}

int ctl_sid_del(struct ctl *c, const struct in6_addr *prefix, uint8_t len)
{
	return request_key(c, SEG6X_CMD_SID_DEL, prefix, len, NULL, NULL);
}

int ctl_sid_decode(struct nlattr **gtb, struct ctl_sid *s)
{
	struct nlattr *tb[SEG6X_SID_MAX + 1];
	int a;

	if (!gtb[SEG6X_A_SID] ||
	    nla_parse_nested(tb, SEG6X_SID_MAX, gtb[SEG6X_A_SID], NULL) < 0 ||
	    !tb[SEG6X_SID_PREFIX] || !tb[SEG6X_SID_PREFIX_LEN] ||
	    !tb[SEG6X_SID_BEHAVIOR] ||
	    nla_len(tb[SEG6X_SID_PREFIX]) != sizeof(s->prefix))
		return -EBADMSG;
	memset(s, 0, sizeof(*s));
	for (a = 1; a <= SEG6X_SID_MAX; a++)
		if (tb[a])
			s->attrs |= CTL_SID_F(a);
	memcpy(&s->prefix, nla_data(tb[SEG6X_SID_PREFIX]), sizeof(s->prefix));
	s->len = nla_get_u8(tb[SEG6X_SID_PREFIX_LEN]);
	s->behavior = nla_get_u16(tb[SEG6X_SID_BEHAVIOR]);
	if (tb[SEG6X_SID_NH6] && nla_len(tb[SEG6X_SID_NH6]) == sizeof(s->nh6))
		memcpy(&s->nh6, nla_data(tb[SEG6X_SID_NH6]), sizeof(s->nh6));
	if (tb[SEG6X_SID_NH4] && nla_len(tb[SEG6X_SID_NH4]) == sizeof(s->nh4))
		memcpy(&s->nh4, nla_data(tb[SEG6X_SID_NH4]), sizeof(s->nh4));
	if (tb[SEG6X_SID_OIF])
		s->oif = nla_get_u32(tb[SEG6X_SID_OIF]);
	if (tb[SEG6X_SID_TABLE])
		s->table = nla_get_u32(tb[SEG6X_SID_TABLE]);
	if (tb[SEG6X_SID_VRF])
		s->vrf = nla_get_u32(tb[SEG6X_SID_VRF]);
	if (tb[SEG6X_SID_SEGS]) {
		size_t n = (size_t)nla_len(tb[SEG6X_SID_SEGS]) /
			   sizeof(s->segs[0]);

		if (n > SEG6X_MAX_SEGS)
			return -EBADMSG;
		s->nsegs = n;
		memcpy(s->segs, nla_data(tb[SEG6X_SID_SEGS]),
		       n * sizeof(s->segs[0]));
	}
	if (tb[SEG6X_SID_HMAC_KEYID])
		s->hmac = nla_get_u32(tb[SEG6X_SID_HMAC_KEYID]);
	if (tb[SEG6X_SID_FLAVORS])
		s->flavors = nla_get_u32(tb[SEG6X_SID_FLAVORS]);
	if (tb[SEG6X_SID_LBLEN])
		s->lblen = nla_get_u8(tb[SEG6X_SID_LBLEN]);
	if (tb[SEG6X_SID_NFLEN])
		s->nflen = nla_get_u8(tb[SEG6X_SID_NFLEN]);
	if (tb[SEG6X_SID_OWNER] && nla_len(tb[SEG6X_SID_OWNER]) >= 1)
		s->owner = nla_get_u8(tb[SEG6X_SID_OWNER]);
	if (tb[SEG6X_SID_COUNTERS])
		s->has_counters = ctl_counters_decode(tb[SEG6X_SID_COUNTERS],
						      &s->packets, &s->bytes,
						      &s->errors);
	s->dead = tb[SEG6X_SID_DEAD] != NULL;
	return 0;
}

static int sid_reply(struct nlattr **tb, void *arg)
{
	struct ctl_sid *s = ctl_list_add(arg);

	return s ? ctl_sid_decode(tb, s) : -ENOMEM;
}

static int sid_one(struct nlattr **tb, void *arg)
{
	return ctl_sid_decode(tb, arg);
}

int ctl_sid_get(struct ctl *c, const struct in6_addr *prefix, uint8_t len,
		struct ctl_sid *s)
{
	return request_key(c, SEG6X_CMD_SID_GET, prefix, len, sid_one, s);
}

int ctl_sid_list(struct ctl *c, struct ctl_sid **sids, size_t *n)
{
	struct ctl_list l = { .size = sizeof(**sids) };
	struct nl_msg *msg;
	int err = ctl_genl_msg(c, SEG6X_CMD_SID_GET, NLM_F_DUMP, &msg);

	if (!err)
		err = ctl_genl_talk(c, msg, sid_reply, &l);
	return ctl_list_end(err, &l, (void **)sids, n);
}

int ctl_sid_flush(struct ctl *c)
{
	struct nl_msg *msg;
	int err = ctl_genl_msg(c, SEG6X_CMD_SID_FLUSH, 0, &msg);

	return err ? err : ctl_genl_talk(c, msg, NULL, NULL);
}

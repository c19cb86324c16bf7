// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl sid: the local SID table, RFC 8986 endpoint behaviours
 * (ctl_sid.c speaks netlink for it). Everything a behaviour needs or
 * cannot take is a usage error here, before the kernel is asked.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/rtnetlink.h>

#include "cli.h"
#include "common.h"
#include "conf.h"
#include "conn.h"
#include "json.h"
#include "libseg6x.h"
#include "out.h"
#include "parse.h"
#include "report.h"
#include "rt_tables.h"

static const char usage[] =
	"Usage: seg6ctl sid { add | replace } SID[/LEN] behavior BEHAVIOR [ARGS]\n"
	"                   [flavors FLV[,FLV...] [lblen N] [nflen N]] [count]\n"
	"                   [owner OWNER]\n"
	"       seg6ctl sid { del | delete } SID[/LEN]\n"
	"       seg6ctl sid { show | list } [SID[/LEN]]\n"
	"       seg6ctl sid flush\n"
	"BEHAVIOR ARGS := End | End.X nh6 ADDR [dev IFNAME] | End.T table ID |\n"
	"                 End.DX6 nh6 ADDR [dev IFNAME] |\n"
	"                 End.DX4 nh4 ADDR [dev IFNAME] |\n"
	"                 End.DT6 { table ID | vrf IFNAME } | End.DT4 vrf IFNAME |\n"
	"                 End.DT46 vrf IFNAME | End.DX2 dev IFNAME |\n"
	"                 { End.B6.Encaps | End.B6.Encaps.Red } segs SEG[,SEG...]\n"
	"                 [hmac KEYID]\n"
	"FLV := { psp | usp | usd | next-csid }, with End, End.X and End.T\n"
	"OWNER := { fpmd | 0..255 }, the program that installs the SID\n"
	"LEN := 1..128, 128 if not given\n";

enum sid_key {
	KEY_BEHAVIOR,
	KEY_NH6,
	KEY_NH4,
	KEY_DEV,
	KEY_TABLE,
	KEY_VRF,
	KEY_SEGS,
	KEY_HMAC,
	KEY_FLAVORS,
	KEY_LBLEN,
	KEY_NFLEN,
	KEY_OWNER,
	KEY_COUNT,		/* a flag: no value */
	NR_KEYS,
};

static const char *const key_names[NR_KEYS] = {
	[KEY_BEHAVIOR]	= "behavior",
	[KEY_NH6]	= "nh6",
	[KEY_NH4]	= "nh4",
	[KEY_DEV]	= "dev",
	[KEY_TABLE]	= "table",
	[KEY_VRF]	= "vrf",
	[KEY_SEGS]	= "segs",
	[KEY_HMAC]	= "hmac",
	[KEY_FLAVORS]	= "flavors",
	[KEY_LBLEN]	= "lblen",
	[KEY_NFLEN]	= "nflen",
	[KEY_OWNER]	= "owner",
	[KEY_COUNT]	= "count",
};

/*
 * The rules of each behaviour, from the uapi's SEG6X_BEHAVIOR_LIST (the
 * module's own): a line that breaks them is a usage error, found before
 * the kernel is asked and by seg6ctl -c.
 */
static const struct {
	uint32_t required;		/* SEG6X_SID_BIT_* */
	uint32_t optional;
	uint32_t flavors;		/* SEG6X_FLV_* */
} behaviors[SEG6X_BEHAVIOR_MAX + 1] = {
#define RULES(b, name, stat, req, opt, flv)	[b] = { req, opt, flv },
	SEG6X_BEHAVIOR_LIST(RULES)
#undef RULES
};

/* The SID attribute of each key that a behaviour may need or take. */
static const uint8_t key_attr[NR_KEYS] = {
	[KEY_NH6]	= SEG6X_SID_NH6,
	[KEY_NH4]	= SEG6X_SID_NH4,
	[KEY_DEV]	= SEG6X_SID_OIF,
	[KEY_TABLE]	= SEG6X_SID_TABLE,
	[KEY_VRF]	= SEG6X_SID_VRF,
	[KEY_SEGS]	= SEG6X_SID_SEGS,
	[KEY_HMAC]	= SEG6X_SID_HMAC_KEYID,
};

static const char *const flavor_names[] = { "psp", "usp", "usd", "next-csid" };

static const char *behavior_name(unsigned int b, char buf[11])
{
	return cli_name_or_number(ctl_behavior_name(b), b, buf);
}

/* SID[/LEN]: 1..128 bits, host bits cleared by the kernel. */
static int get_sid(const char *s, struct in6_addr *prefix, uint8_t *len)
{
	char buf[INET6_ADDRSTRLEN + 5];
	char *slash;
	uint32_t l = 128;

	if (strlen(s) >= sizeof(buf))
		return usage_error("sid", "invalid SID \"%s\"", s);
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash) {
		*slash = '\0';
		if (parse_u32(slash + 1, 1, 128, &l))
			return usage_error("sid", "invalid length in \"%s\" (1..128)", s);
	}
	if (parse_in6(buf, prefix))
		return usage_error("sid", "invalid SID \"%s\" (an IPv6 address)", s);
	*len = (uint8_t)l;
	return EXIT_OK;
}

static int get_table(const char *s, uint32_t *table)
{
	if (!parse_table(s, table) && *table)
		return EXIT_OK;
	if (!isdigit((unsigned char)*s) && rt_tables_lookup(s, table) && *table)
		return EXIT_OK;
	return usage_error("sid",
			   "invalid table \"%s\" (a name from rt_tables, main, local, default or 1..4294967295)",
			   s);
}

static int get_flavors(const char *s, uint32_t *flavors)
{
	char buf[64], *tok, *save = NULL;
	int i;

	if (strlen(s) >= sizeof(buf) || !*s)
		return usage_error("sid", "invalid flavors \"%s\"", s);
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		i = parse_keyword(tok, flavor_names, ARRAY_SIZE(flavor_names));
		if (i < 0)
			return usage_error("sid", "unknown flavor \"%s\" (psp, usp, usd, next-csid)",
					   tok);
		if (*flavors & (1u << i))
			return usage_error("sid", "flavor \"%s\" given twice", tok);
		*flavors |= 1u << i;
	}
	return EXIT_OK;
}

static int get_bits(const char *what, const char *s, uint8_t *out)
{
	uint32_t v;

	if (parse_u32(s, 8, 120, &v) || v % 8)
		return usage_error("sid", "invalid %s \"%s\" (8..120, a multiple of 8)",
				   what, s);
	*out = (uint8_t)v;
	return EXIT_OK;
}

/* The behaviour's number (SEG6X_BEHAVIOR_*), or a usage error (-1). */
static int parse_behavior(const char *name, struct ctl_sid *s)
{
	int b;

	if (!name) {
		usage_error("sid", "missing behavior");
		return -1;
	}
	b = ctl_behavior_lookup(name);
	if (b < 0) {
		usage_error("sid", "unknown behavior \"%s\"", name);
		return -1;
	}
	s->behavior = (uint16_t)b;
	return b;
}

static int check_keys(const char *val[NR_KEYS], int b)
{
	uint32_t allowed = behaviors[b].required | behaviors[b].optional;
	unsigned int i;

	/* owner and count go with every behaviour */
	for (i = KEY_NH6; i <= KEY_HMAC; i++) {
		uint32_t bit = 1u << key_attr[i];

		if ((behaviors[b].required & bit) && !val[i])
			return usage_error("sid", "%s needs %s", ctl_behavior_name(b),
					   key_names[i]);
		if (val[i] && !(allowed & bit))
			return usage_error("sid", "%s takes no %s",
					   ctl_behavior_name(b), key_names[i]);
	}
	if (val[KEY_FLAVORS] && !behaviors[b].flavors)
		return usage_error("sid", "flavors are for End, End.X and End.T only");
	for (i = KEY_LBLEN; i <= KEY_NFLEN; i++)
		if (val[i] && !behaviors[b].flavors)
			return usage_error("sid", "%s takes no %s",
					   ctl_behavior_name(b), key_names[i]);
	if (b == SEG6X_BEHAVIOR_END_DT6 &&
	    !!val[KEY_TABLE] == !!val[KEY_VRF])
		return usage_error("sid", "End.DT6 needs table or vrf (one of them)");
	return EXIT_OK;
}

/* nh6, nh4, table. */
static int parse_nexthop(const char *val[NR_KEYS], struct ctl_sid *s)
{
	int status;

	if (val[KEY_NH6]) {
		if (parse_in6(val[KEY_NH6], &s->nh6))
			return usage_error("sid", "invalid nh6 \"%s\"", val[KEY_NH6]);
		if (in6_kind(&s->nh6, IN6_KIND_ANY | IN6_KIND_MULTICAST))
			return usage_error("sid", "nh6 must be a unicast address (not \"%s\")",
					   val[KEY_NH6]);
		s->attrs |= CTL_SID_F(SEG6X_SID_NH6);
	}
	if (val[KEY_NH4]) {
		if (inet_pton(AF_INET, val[KEY_NH4], &s->nh4) != 1)
			return usage_error("sid", "invalid nh4 \"%s\"", val[KEY_NH4]);
		if (!in4_unicast(&s->nh4))
			return usage_error("sid", "nh4 must be a unicast address (not \"%s\")",
					   val[KEY_NH4]);
		s->attrs |= CTL_SID_F(SEG6X_SID_NH4);
	}
	if (val[KEY_TABLE]) {
		status = get_table(val[KEY_TABLE], &s->table);
		if (status)
			return status;
		s->attrs |= CTL_SID_F(SEG6X_SID_TABLE);
	}
	return EXIT_OK;
}

/* End.B6.Encaps(.Red): segs and hmac. */
static int parse_policy(const char *val[NR_KEYS], struct ctl_sid *s)
{
	size_t max = val[KEY_HMAC] ? SEG6X_MAX_SEGS_HMAC : SEG6X_MAX_SEGS;
	uint32_t u;
	int err;

	if (val[KEY_HMAC]) {
		err = cli_u32("sid", "hmac KEYID", val[KEY_HMAC], 1, UINT32_MAX,
			      &u);
		if (err)
			return err;
		s->hmac = u;
		s->attrs |= CTL_SID_F(SEG6X_SID_HMAC_KEYID);
	}
	if (!val[KEY_SEGS])
		return EXIT_OK;
	err = parse_segs(val[KEY_SEGS], s->segs, SEG6X_MAX_SEGS, &s->nsegs);
	if (err == -E2BIG || (!err && s->nsegs > max))
		return usage_error("sid", "too many segments (at most %zu%s)",
				   max, val[KEY_HMAC] ? " with hmac" : "");
	if (err)
		return usage_error("sid", "invalid segment list \"%s\"",
				   val[KEY_SEGS]);
	if (in6_first_of_kind(s->segs, s->nsegs, IN6_KIND_ANY |
			      IN6_KIND_MULTICAST | IN6_KIND_LOOPBACK |
			      IN6_KIND_MAPPED) >= 0)
		return usage_error("sid", "segments must be unicast addresses (in \"%s\")",
				   val[KEY_SEGS]);
	s->attrs |= CTL_SID_F(SEG6X_SID_SEGS);
	/* The reduced SRH of one segment is no SRH: nothing to sign. */
	if (s->behavior == SEG6X_BEHAVIOR_END_B6_ENCAPS_RED &&
	    s->nsegs == 1 && val[KEY_HMAC])
		return usage_error("sid", "End.B6.Encaps.Red with hmac needs 2 segments or more");
	return EXIT_OK;
}

/*
 * NEXT-C-SID's block and node + function must fit in 128 bits, each
 * length given or else the module's default (RFC 9800's 32 and 16).
 */
static int check_csid_bits(const struct ctl_sid *s)
{
	unsigned int lb = s->attrs & CTL_SID_F(SEG6X_SID_LBLEN) ? s->lblen : 32;
	unsigned int nf = s->attrs & CTL_SID_F(SEG6X_SID_NFLEN) ? s->nflen : 16;

	if (!(s->flavors & SEG6X_FLV_NEXT_CSID) || lb + nf <= 128)
		return EXIT_OK;
	return usage_error("sid", "lblen and nflen together at most 128 (%u + %u%s)",
			   lb, nf, s->attrs & CTL_SID_F(SEG6X_SID_NFLEN) &&
			   s->attrs & CTL_SID_F(SEG6X_SID_LBLEN) ? "" :
			   ", the default for the one not given");
}

/* flavors, and NEXT-C-SID's lblen and nflen. */
static int parse_flavor_args(const char *val[NR_KEYS], struct ctl_sid *s)
{
	int status;

	if (val[KEY_FLAVORS]) {
		status = get_flavors(val[KEY_FLAVORS], &s->flavors);
		if (status)
			return status;
		s->attrs |= CTL_SID_F(SEG6X_SID_FLAVORS);
	}
	if ((val[KEY_LBLEN] || val[KEY_NFLEN]) &&
	    !(s->flavors & SEG6X_FLV_NEXT_CSID))
		return usage_error("sid", "lblen and nflen go with the next-csid flavor");
	if (val[KEY_LBLEN]) {
		status = get_bits("lblen", val[KEY_LBLEN], &s->lblen);
		if (status)
			return status;
		s->attrs |= CTL_SID_F(SEG6X_SID_LBLEN);
	}
	if (val[KEY_NFLEN]) {
		status = get_bits("nflen", val[KEY_NFLEN], &s->nflen);
		if (status)
			return status;
		s->attrs |= CTL_SID_F(SEG6X_SID_NFLEN);
	}
	return check_csid_bits(s);
}

static int parse_args(const char *val[NR_KEYS], struct ctl_sid *s)
{
	int b = parse_behavior(val[KEY_BEHAVIOR], s);
	int status;

	if (b < 0)
		return EXIT_USAGE;
	status = check_keys(val, b);
	if (!status)
		status = parse_nexthop(val, s);
	if (!status)
		status = parse_policy(val, s);
	if (!status)
		status = parse_flavor_args(val, s);
	if (!status && val[KEY_OWNER]) {
		if (ctl_owner_lookup(val[KEY_OWNER], &s->owner))
			return usage_error("sid", "invalid owner \"%s\" (fpmd or 0..255)",
					   val[KEY_OWNER]);
		s->attrs |= CTL_SID_F(SEG6X_SID_OWNER);
	}
	return status;
}

static int sid_add(int argc, char **argv, bool replace)
{
	const char *val[NR_KEYS] = { NULL };
	struct ctl_sid s = { 0 };
	int status;

	if (argc < 1)
		return usage_error("sid", "missing SID");
	status = get_sid(argv[0], &s.prefix, &s.len);
	if (status)
		return status;
	status = cli_keys_flags("sid", argc - 1, argv + 1, key_names, NR_KEYS,
				(1u << NR_KEYS) - 1, 1u << KEY_COUNT, val);
	if (!status && val[KEY_COUNT]) {
		s.count = true;
		s.attrs |= CTL_SID_F(SEG6X_SID_COUNT);
	}
	if (!status)
		status = parse_args(val, &s);
	/* Devices last: a usage error wins over a missing device. */
	if (!status && val[KEY_DEV]) {
		status = cli_ifindex(val[KEY_DEV], &s.oif);
		s.attrs |= CTL_SID_F(SEG6X_SID_OIF);
	}
	if (!status && val[KEY_VRF]) {
		status = cli_ifindex(val[KEY_VRF], &s.vrf);
		s.attrs |= CTL_SID_F(SEG6X_SID_VRF);
	}
	if (!status && opts.collect)
		return conf_sid(opts.collect, &s, val[KEY_DEV], val[KEY_VRF],
				replace);
	return status ? status : ctl_sid_set(conn(), &s, replace);
}

static int sid_create(int argc, char **argv)
{
	return sid_add(argc, argv, false);
}

static int sid_replace(int argc, char **argv)
{
	return sid_add(argc, argv, true);
}

static int sid_del(int argc, char **argv)
{
	struct in6_addr prefix;
	uint8_t len;
	int status;

	if (argc < 1)
		return usage_error("sid", "missing SID");
	if (argc > 1)
		return usage_error("sid", "too many arguments");
	status = get_sid(argv[0], &prefix, &len);
	return status ? status : ctl_sid_del(conn(), &prefix, len);
}

/* flavors: names, or the bit for one this seg6ctl does not know. */
static void print_flavors(struct out *o, const struct ctl_sid *s)
{
	int f;

	out_list_start(o, "flavors");
	for (f = 0; f < 32; f++) {
		if (!(s->flavors & (1u << f)))
			continue;
		if (f < (int)ARRAY_SIZE(flavor_names))
			out_list_str(o, flavor_names[f]);
		else
			out_list_uint(o, 1u << f);
	}
	out_list_end(o);
}

void sid_fields(struct out *o, const struct ctl_sid *s, bool state,
		const char *dev, const char *vrf)
{
	char addr[INET6_ADDRSTRLEN], ifname[IF_NAMESIZE], num[11];
	char sid[INET6_ADDRSTRLEN + sizeof("/128")];
	size_t i;

	snprintf(sid, sizeof(sid), "%s/%u",
		 inet_ntop(AF_INET6, &s->prefix, addr, sizeof(addr)), s->len);
	out_lead(o, "sid", sid);
	out_str(o, "behavior", behavior_name(s->behavior, num));
	if (s->attrs & CTL_SID_F(SEG6X_SID_NH6))
		out_str(o, "nh6", inet_ntop(AF_INET6, &s->nh6, addr, sizeof(addr)));
	if (s->attrs & CTL_SID_F(SEG6X_SID_NH4))
		out_str(o, "nh4", inet_ntop(AF_INET, &s->nh4, addr, sizeof(addr)));
	if (s->attrs & CTL_SID_F(SEG6X_SID_OIF))
		out_str(o, "dev", dev && *dev ? dev : cli_ifname(s->oif, ifname));
	if (s->attrs & CTL_SID_F(SEG6X_SID_TABLE))
		out_uint(o, "table", s->table);
	if (s->attrs & CTL_SID_F(SEG6X_SID_VRF))
		out_str(o, "vrf", vrf && *vrf ? vrf : cli_ifname(s->vrf, ifname));
	if (s->attrs & CTL_SID_F(SEG6X_SID_SEGS)) {
		out_list_start(o, "segs");
		for (i = 0; i < s->nsegs; i++)
			out_list_str(o, inet_ntop(AF_INET6, &s->segs[i], addr,
						  sizeof(addr)));
		out_list_end(o);
	}
	if (s->attrs & CTL_SID_F(SEG6X_SID_HMAC_KEYID))
		out_uint(o, "hmac", s->hmac);
	if ((s->attrs & CTL_SID_F(SEG6X_SID_FLAVORS)) && (o->jw || s->flavors))
		print_flavors(o, s);
	if (s->attrs & CTL_SID_F(SEG6X_SID_LBLEN))
		out_uint(o, "lblen", s->lblen);
	if (s->attrs & CTL_SID_F(SEG6X_SID_NFLEN))
		out_uint(o, "nflen", s->nflen);
	if ((s->attrs & CTL_SID_F(SEG6X_SID_OWNER)) && s->owner)
		out_str(o, "owner", cli_name_or_number(ctl_owner_name(s->owner),
						       s->owner, num));
	if (s->attrs & CTL_SID_F(SEG6X_SID_COUNT))
		out_text_flag(o, "count");
	/* State, not configuration: never in what save prints. */
	if (state && s->dead)
		out_flag(o, "dead");
	if (state && s->has_counters)
		out_counters(o, s->packets, s->bytes, s->errors);
}

/*
 * One SID, as text (the syntax of add, so that save replays it; with
 * @state also its counters and whether it is dead) or as JSON (@jw).
 */
void sid_print(struct json_writer *jw, const struct ctl_sid *s, bool state)
{
	struct out o;

	out_start(&o, jw);
	sid_fields(&o, s, state, NULL, NULL);
	out_end(&o);
}

static void print_sid(struct json_writer *jw, const void *item)
{
	sid_print(jw, item, true);
}

static int sid_show(int argc, char **argv)
{
	struct ctl_sid *sids, one;
	struct in6_addr prefix;
	size_t n;
	uint8_t len;
	int status;

	if (argc > 1)
		return usage_error("sid", "too many arguments");
	if (argc == 1) {
		status = get_sid(argv[0], &prefix, &len);
		if (!status)
			status = ctl_sid_get(conn(), &prefix, len, &one);
		if (!status)
			cli_print_list(&one, 1, sizeof(one), print_sid);
		return status;
	}
	status = ctl_sid_list(conn(), &sids, &n);
	if (status)
		return status;
	cli_print_list(sids, n, sizeof(*sids), print_sid);
	free(sids);
	return EXIT_OK;
}

static int sid_flush(int argc, char **argv)
{
	(void)argv;
	if (argc)
		return usage_error("sid", "too many arguments");
	return ctl_sid_flush(conn());
}

/* The text form is the syntax of add; replace makes it idempotent. */
int sid_save(void)
{
	struct ctl_sid *sids;
	size_t i, n;
	int status = ctl_sid_list(conn(), &sids, &n);

	for (i = 0; !status && i < n; i++) {
		printf("sid replace ");
		sid_print(NULL, &sids[i], false);
	}
	if (!status)
		free(sids);
	return status;
}

/* The first is what "seg6ctl sid" alone does. */
static const struct cli_cmd sid_cmds[] = {
	CLI_SHOW(sid_show, "list the local SIDs"),
	{ "add", sid_create, "add a SID", NULL, false },
	{ "replace", sid_replace, "add a SID or replace one", NULL, false },
	{ "del", sid_del, "delete a SID", NULL, false },
	{ "delete", sid_del, NULL, NULL, false },
	{ "flush", sid_flush, "delete every SID", NULL, false },
	CLI_HELP,
	CLI_END,
};

const struct cli_object sid_object = { "sid", usage, sid_cmds };

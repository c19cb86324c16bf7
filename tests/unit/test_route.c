// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of "seg6ctl route" and of ctl_route.c under it: from the
 * command line to the rtnetlink messages, with the transport of ctl_nl.c
 * replaced by fakes that keep what would have been sent and answer dumps
 * with canned routes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netlink/genl/genl.h>

#include "cli.h"
#include "common.h"
#include "conn.h"
#include "ctl_nl.h"

#define LWT_TYPE	42	/* what the fake module claims */
#define MAX_SENT	8

static struct nl_msg *sent[MAX_SENT];
static int nsent;
static int ninfo;		/* SEG6X_CMD_INFO_GET requests */
/* The slot the module claims now (another after a "reload") */
static uint16_t lwt_now = LWT_TYPE;
static struct nl_msg *dump_reply[MAX_SENT];	/* per dump, one route each */
static int ndump_reply;

/* Fakes of ctl_nl.c (the rest in fake_ctl.c); the module's only answer
 * is its LWT slot.
 */

int ctl_genl_talk(struct ctl *c, struct nl_msg *msg, ctl_genl_reply_fn cb,
		  void *arg)
{
	struct nlattr *tb[SEG6X_A_MAX + 1] = { NULL };
	struct nl_msg *reply = nlmsg_alloc();

	(void)c;
	assert_int_equal(genlmsg_hdr(nlmsg_hdr(msg))->cmd, SEG6X_CMD_INFO_GET);
	ninfo++;
	assert_non_null(reply);
	assert_int_equal(nla_put_u16(reply, SEG6X_A_LWT_TYPE, lwt_now), 0);
	tb[SEG6X_A_LWT_TYPE] = nlmsg_attrdata(nlmsg_hdr(reply), 0);
	assert_int_equal(cb(tb, arg), 0);
	nlmsg_free(reply);
	nlmsg_free(msg);
	return 0;
}

int ctl_rt_talk(struct ctl *c, struct nl_msg *msg, ctl_rt_reply_fn cb,
		void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	int i;

	if (nlh->nlmsg_type == RTM_GETROUTE) {
		const struct rtmsg *want = nlmsg_data(nlh);

		int err = 0;

		for (i = 0; !err && i < ndump_reply; i++) {
			struct nlmsghdr *r = nlmsg_hdr(dump_reply[i]);
			const struct rtmsg *rtm = nlmsg_data(r);
			struct nlattr *tb[RTA_MAX + 1];

			if (rtm->rtm_family != want->rtm_family)
				continue;
			assert_int_equal(nlmsg_parse(r, sizeof(*rtm), tb, RTA_MAX, NULL), 0);
			/* as ctl_nl.c: a reply the callback refuses ends the dump */
			err = cb(rtm, tb, arg);
		}
		nlmsg_free(msg);
		return err;
	}
	if (nlh->nlmsg_type == RTM_NEWROUTE) {
		struct nlattr *tb[RTA_MAX + 1];

		assert_int_equal(nlmsg_parse(nlh, sizeof(struct rtmsg), tb,
					     RTA_MAX, NULL), 0);
		/* No one has that slot: as the kernel, EOPNOTSUPP. */
		if (tb[RTA_ENCAP_TYPE] &&
		    nla_get_u16(tb[RTA_ENCAP_TYPE]) != lwt_now) {
			nlmsg_free(msg);
			return ctl_fail(c, -EOPNOTSUPP, "unsupported encap");
		}
	}
	assert_true(nsent < MAX_SENT);
	sent[nsent++] = msg;
	return 0;
}

/* Deletes sent in a batch are kept as those sent one by one. */
int ctl_rt_talk_batch(struct ctl *c, struct nl_msg **msgs, size_t n)
{
	size_t i;

	(void)c;
	for (i = 0; i < n; i++) {
		assert_true(nsent < MAX_SENT);
		sent[nsent++] = msgs[i];
	}
	return 0;
}

/* Helpers */

static int teardown(void **state)
{
	(void)state;
	while (nsent)
		nlmsg_free(sent[--nsent]);
	while (ndump_reply)
		nlmsg_free(dump_reply[--ndump_reply]);
	return 0;
}

static int run(const char *line)
{
	char buf[1024], *argv[32];
	int argc = 0;
	char *word;

	snprintf(buf, sizeof(buf), "%s", line);
	for (word = strtok(buf, " "); word; word = strtok(NULL, " "))
		argv[argc++] = word;
	return cli_dispatch(&route_object, route_object.cmds, argc, argv);
}

/* run() with its output discarded: for failures, and for help. */
static int run_quiet(const char *line)
{
	int saved_out = dup(STDOUT_FILENO);
	int saved_err = dup(STDERR_FILENO);
	int null = open("/dev/null", O_WRONLY);
	int status;

	assert_true(saved_out >= 0 && saved_err >= 0 && null >= 0);
	fflush(stdout);
	fflush(stderr);
	dup2(null, STDOUT_FILENO);
	dup2(null, STDERR_FILENO);
	close(null);
	status = run(line);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);
	return status;
}

static struct nlattr *attr(struct nlattr **tb, int type)
{
	assert_non_null(tb[type]);
	return tb[type];
}

static void assert_addr(const struct nlattr *nla, int family, const char *want)
{
	uint8_t bytes[16];
	size_t len = family == AF_INET ? 4 : 16;

	assert_int_equal(inet_pton(family, want, bytes), 1);
	assert_int_equal(nla_len(nla), len);
	assert_memory_equal(nla_data(nla), bytes, len);
}

/* Parses sent message @i into @tb and returns its rtmsg. */
static const struct rtmsg *parse_sent(int i, int type, struct nlattr **tb)
{
	struct nlmsghdr *nlh;

	assert_true(i < nsent);
	nlh = nlmsg_hdr(sent[i]);
	assert_int_equal(nlh->nlmsg_type, type);
	assert_int_equal(nlmsg_parse(nlh, sizeof(struct rtmsg), tb, RTA_MAX, NULL), 0);
	return nlmsg_data(nlh);
}

/* A dumped seg6x route (or another encap type), as the kernel sends it. */
static void add_dump_route(int family, const char *dst, int len, uint32_t table,
			   uint16_t encap_type, const char *seg)
{
	struct rtmsg rtm = {
		.rtm_family = (uint8_t)family,
		.rtm_dst_len = (uint8_t)len,
		.rtm_table = table < 256 ? (uint8_t)table : RT_TABLE_UNSPEC,
		.rtm_type = RTN_UNICAST,
	};
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_NEWROUTE, NLM_F_MULTI);
	struct in6_addr segaddr;
	uint8_t bytes[16];
	struct nlattr *nest;

	assert_non_null(msg);
	assert_int_equal(nlmsg_append(msg, &rtm, sizeof(rtm), NLMSG_ALIGNTO), 0);
	inet_pton(family, dst, bytes);
	inet_pton(AF_INET6, seg, &segaddr);
	nla_put(msg, RTA_DST, family == AF_INET ? 4 : 16, bytes);
	nla_put_u32(msg, RTA_TABLE, table);
	nla_put_u32(msg, RTA_OIF, 1);
	nla_put_u16(msg, RTA_ENCAP_TYPE, encap_type);
	nest = nla_nest_start(msg, RTA_ENCAP);
	nla_put_u8(msg, SEG6X_IPTUN_MODE, SEG6X_IPTUN_MODE_ENCAP);
	nla_put(msg, SEG6X_IPTUN_SEGS, sizeof(segaddr), &segaddr);
	nla_nest_end(msg, nest);
	dump_reply[ndump_reply++] = msg;
}

/* Tests */

static void test_add_full(void **state)
{
	struct nlattr *tb[RTA_MAX + 1], *encap[SEG6X_IPTUN_MAX + 1];
	const struct rtmsg *rtm;
	struct in6_addr segs[2];
	struct nlmsghdr *nlh;

	(void)state;
	assert_int_equal(run("add fc00::/64 mode inline segs 2001:db8::1,2001:db8::2 "
			     "hmac 7 dev lo via fe80::1 table 1000 metric 5"), EXIT_OK);
	rtm = parse_sent(0, RTM_NEWROUTE, tb);
	nlh = nlmsg_hdr(sent[0]);
	assert_int_equal(nlh->nlmsg_flags & (NLM_F_CREATE | NLM_F_EXCL | NLM_F_REPLACE),
			 NLM_F_CREATE | NLM_F_EXCL);

	assert_int_equal(rtm->rtm_family, AF_INET6);
	assert_int_equal(rtm->rtm_dst_len, 64);
	assert_int_equal(rtm->rtm_protocol, RTPROT_STATIC);
	assert_int_equal(rtm->rtm_scope, RT_SCOPE_UNIVERSE);
	assert_int_equal(rtm->rtm_type, RTN_UNICAST);
	/* Table 1000 does not fit in rtm_table. */
	assert_int_equal(rtm->rtm_table, RT_TABLE_UNSPEC);
	assert_int_equal(nla_get_u32(attr(tb, RTA_TABLE)), 1000);
	assert_int_equal(nla_get_u32(attr(tb, RTA_PRIORITY)), 5);
	assert_int_equal(nla_get_u32(attr(tb, RTA_OIF)), if_nametoindex("lo"));
	assert_addr(attr(tb, RTA_DST), AF_INET6, "fc00::");
	assert_addr(attr(tb, RTA_GATEWAY), AF_INET6, "fe80::1");
	assert_int_equal(nla_get_u16(attr(tb, RTA_ENCAP_TYPE)), LWT_TYPE);

	/* The kernel's strict nested parsing wants NLA_F_NESTED. */
	assert_true(attr(tb, RTA_ENCAP)->nla_type & NLA_F_NESTED);
	assert_int_equal(nla_parse_nested(encap, SEG6X_IPTUN_MAX, tb[RTA_ENCAP], NULL), 0);
	assert_int_equal(nla_get_u8(attr(encap, SEG6X_IPTUN_MODE)),
			 SEG6X_IPTUN_MODE_INLINE);
	assert_int_equal(nla_get_u32(attr(encap, SEG6X_IPTUN_HMAC_KEYID)), 7);
	inet_pton(AF_INET6, "2001:db8::1", &segs[0]);
	inet_pton(AF_INET6, "2001:db8::2", &segs[1]);
	assert_int_equal(nla_len(attr(encap, SEG6X_IPTUN_SEGS)), sizeof(segs));
	assert_memory_equal(nla_data(encap[SEG6X_IPTUN_SEGS]), segs, sizeof(segs));
	assert_null(encap[SEG6X_IPTUN_OWNER]);
}

/* owner: by name or number, sent in the encap; 0 is "none", not sent. */
static void test_add_owner(void **state)
{
	struct nlattr *tb[RTA_MAX + 1], *encap[SEG6X_IPTUN_MAX + 1];

	(void)state;
	assert_int_equal(run("add fc00::/64 mode encap segs 2001:db8::1 dev lo "
			     "owner fpmd"), EXIT_OK);
	parse_sent(0, RTM_NEWROUTE, tb);
	assert_int_equal(nla_parse_nested(encap, SEG6X_IPTUN_MAX, tb[RTA_ENCAP], NULL), 0);
	assert_int_equal(nla_get_u8(attr(encap, SEG6X_IPTUN_OWNER)),
			 SEG6X_OWNER_FPMD);
	assert_int_equal(run_quiet("add fc00::/64 mode encap segs 2001:db8::1 dev lo "
				   "owner 256"), EXIT_USAGE);
	assert_int_equal(run_quiet("add fc00::/64 mode encap segs 2001:db8::1 dev lo "
				   "owner zebra"), EXIT_USAGE);
	assert_int_equal(nsent, 1);
}

/* A daemon's agent installs routes with its daemon's protocol. */
static void test_add_protocol(void **state)
{
	struct ctl_route r = { .table = 10, .mode = SEG6X_IPTUN_MODE_ENCAP,
			       .nsegs = 1, .protocol = 186 };
	struct nlattr *tb[RTA_MAX + 1];
	struct ctl *c = ctl_new();

	(void)state;
	r.dst.addr.family = AF_INET;
	r.dst.len = 24;
	assert_int_equal(inet_pton(AF_INET, "192.168.2.0", r.dst.addr.bytes), 1);
	assert_int_equal(ctl_route_add(c, &r, true), 0);
	assert_int_equal(parse_sent(0, RTM_NEWROUTE, tb)->rtm_protocol, 186);
	r.protocol = 0;		/* the default: static, as seg6ctl */
	assert_int_equal(ctl_route_add(c, &r, true), 0);
	assert_int_equal(parse_sent(1, RTM_NEWROUTE, tb)->rtm_protocol,
			 RTPROT_STATIC);
	ctl_free(c);
}

static void test_add_ipv4_minimal(void **state)
{
	struct nlattr *tb[RTA_MAX + 1], *encap[SEG6X_IPTUN_MAX + 1];
	const struct rtmsg *rtm;

	(void)state;
	assert_int_equal(run("replace 10.0.0.0/24 mode encap segs 2001:db8::1 dev lo"),
			 EXIT_OK);
	rtm = parse_sent(0, RTM_NEWROUTE, tb);
	assert_int_equal(nlmsg_hdr(sent[0])->nlmsg_flags &
			 (NLM_F_CREATE | NLM_F_EXCL | NLM_F_REPLACE),
			 NLM_F_CREATE | NLM_F_REPLACE);
	assert_int_equal(rtm->rtm_family, AF_INET);
	assert_int_equal(rtm->rtm_dst_len, 24);
	assert_int_equal(rtm->rtm_table, RT_TABLE_MAIN);
	assert_int_equal(nla_get_u32(attr(tb, RTA_TABLE)), RT_TABLE_MAIN);
	assert_addr(tb[RTA_DST], AF_INET, "10.0.0.0");
	assert_null(tb[RTA_PRIORITY]);
	assert_null(tb[RTA_GATEWAY]);
	assert_int_equal(nla_parse_nested(encap, SEG6X_IPTUN_MAX, tb[RTA_ENCAP], NULL), 0);
	assert_int_equal(nla_get_u8(attr(encap, SEG6X_IPTUN_MODE)),
			 SEG6X_IPTUN_MODE_ENCAP);
	assert_int_equal(nla_len(attr(encap, SEG6X_IPTUN_SEGS)), 16);
	assert_null(encap[SEG6X_IPTUN_HMAC_KEYID]);
}

static void test_add_ipv4_via_ipv6(void **state)
{
	struct nlattr *tb[RTA_MAX + 1];
	const struct rtvia *via;
	struct in6_addr want;

	(void)state;
	assert_int_equal(run("add 10.0.0.0/24 mode encap segs 2001:db8::1 dev lo "
			     "via fe80::1"), EXIT_OK);
	parse_sent(0, RTM_NEWROUTE, tb);
	assert_null(tb[RTA_GATEWAY]);
	via = nla_data(attr(tb, RTA_VIA));
	assert_int_equal(nla_len(tb[RTA_VIA]), sizeof(*via) + 16);
	assert_int_equal(via->rtvia_family, AF_INET6);
	inet_pton(AF_INET6, "fe80::1", &want);
	assert_memory_equal(via->rtvia_addr, &want, 16);
}

static void test_default_prefix(void **state)
{
	struct nlattr *tb[RTA_MAX + 1];

	(void)state;
	assert_int_equal(run("add ::/0 mode encap segs 2001:db8::1 dev lo"), EXIT_OK);
	assert_int_equal(parse_sent(0, RTM_NEWROUTE, tb)->rtm_dst_len, 0);
	assert_null(tb[RTA_DST]);
}

static void test_del(void **state)
{
	struct nlattr *tb[RTA_MAX + 1];
	const struct rtmsg *rtm;

	(void)state;
	add_dump_route(AF_INET6, "fc00::", 64, RT_TABLE_MAIN, LWT_TYPE, "2001:db8::1");
	add_dump_route(AF_INET6, "fc00::", 64, RT_TABLE_LOCAL, LWT_TYPE, "2001:db8::1");
	assert_int_equal(run("del fc00::/64"), EXIT_OK);
	rtm = parse_sent(0, RTM_DELROUTE, tb);
	assert_int_equal(rtm->rtm_scope, RT_SCOPE_NOWHERE);
	assert_int_equal(rtm->rtm_protocol, 0);
	assert_int_equal(nla_get_u32(attr(tb, RTA_TABLE)), RT_TABLE_MAIN);
	/* The route found is named exactly: its device too. */
	assert_int_equal(nla_get_u32(attr(tb, RTA_OIF)), 1);
	assert_null(tb[RTA_PRIORITY]);
	assert_null(tb[RTA_ENCAP]);

	assert_int_equal(run("delete fc00::/64 dev lo table local metric 0"), EXIT_OK);
	parse_sent(1, RTM_DELROUTE, tb);
	assert_int_equal(nla_get_u32(attr(tb, RTA_TABLE)), RT_TABLE_LOCAL);
	assert_non_null(tb[RTA_OIF]);
	assert_int_equal(nsent, 2);
}

static void test_del_not_seg6x(void **state)
{
	(void)state;
	/* Another encapsulation, or none: ip's business, not ours. */
	add_dump_route(AF_INET6, "fc00::", 64, RT_TABLE_MAIN, LWT_TYPE + 1, "2001:db8::1");
	add_dump_route(AF_INET6, "fc01::", 64, 100, LWT_TYPE, "2001:db8::1");
	assert_int_equal(run_quiet("del fc00::/64"), EXIT_FAIL);
	/* Wrong table, prefix length or family: no such route. */
	assert_int_equal(run_quiet("del fc01::/64"), EXIT_FAIL);
	assert_int_equal(run_quiet("del fc01::/64 table 101"), EXIT_FAIL);
	assert_int_equal(run_quiet("del fc01::/48 table 100"), EXIT_FAIL);
	assert_int_equal(run_quiet("del fc01::/64 table 100 metric 5"), EXIT_FAIL);
	assert_int_equal(nsent, 0);
	assert_int_equal(run("del fc01::/64 table 100"), EXIT_OK);
	assert_int_equal(nsent, 1);
}

static void test_default_and_encap_seg6(void **state)
{
	struct nlattr *tb[RTA_MAX + 1], *encap[SEG6X_IPTUN_MAX + 1];
	const struct rtmsg *rtm;

	(void)state;
	/* ip route's spelling of the encapsulation. */
	assert_int_equal(run("add default encap seg6 mode inline segs 2001:db8::1 dev lo"),
			 EXIT_OK);
	rtm = parse_sent(0, RTM_NEWROUTE, tb);
	assert_int_equal(rtm->rtm_family, AF_INET6);
	assert_int_equal(rtm->rtm_dst_len, 0);
	assert_null(tb[RTA_DST]);
	assert_int_equal(nla_parse_nested(encap, SEG6X_IPTUN_MAX, attr(tb, RTA_ENCAP),
					  NULL), 0);
	assert_int_equal(nla_get_u8(encap[SEG6X_IPTUN_MODE]), SEG6X_IPTUN_MODE_INLINE);

	assert_int_equal(run_quiet("add default encap seg6local mode encap segs 2001:db8::1 dev lo"),
			 EXIT_USAGE);
	assert_int_equal(run_quiet("add default encap seg6 segs 2001:db8::1 dev lo"),
			 EXIT_USAGE);
	assert_int_equal(run_quiet("del default encap seg6"), EXIT_USAGE);
	assert_int_equal(nsent, 1);

	add_dump_route(AF_INET6, "::", 0, RT_TABLE_MAIN, LWT_TYPE, "2001:db8::1");
	assert_int_equal(run("del default"), EXIT_OK);
	assert_int_equal(nsent, 2);
}

static void test_table_names(void **state)
{
	struct nlattr *tb[RTA_MAX + 1];

	(void)state;
	assert_int_equal(run("add fc00::/64 mode encap segs 2001:db8::1 dev lo table main"),
			 EXIT_OK);
	parse_sent(0, RTM_NEWROUTE, tb);
	assert_int_equal(nla_get_u32(attr(tb, RTA_TABLE)), RT_TABLE_MAIN);
	assert_int_equal(run_quiet("add fc00::/64 mode encap segs 2001:db8::1 dev lo "
				   "table no-such-table-name"), EXIT_USAGE);
	/* unspec (0) is named in rt_tables but holds no route. */
	assert_int_equal(run_quiet("add fc00::/64 mode encap segs 2001:db8::1 dev lo "
				   "table unspec"), EXIT_USAGE);
	assert_int_equal(nsent, 1);
}

static void test_flush_filters(void **state)
{
	struct nlattr *tb[RTA_MAX + 1];

	(void)state;
	add_dump_route(AF_INET6, "fc00::", 64, RT_TABLE_MAIN, LWT_TYPE, "2001:db8::1");
	add_dump_route(AF_INET6, "fc01::", 64, 100, LWT_TYPE, "2001:db8::1");
	/* Someone else's encapsulation stays. */
	add_dump_route(AF_INET6, "fc02::", 64, RT_TABLE_MAIN, LWT_TYPE + 1, "2001:db8::1");
	add_dump_route(AF_INET, "10.0.0.0", 24, RT_TABLE_MAIN, LWT_TYPE, "2001:db8::1");

	assert_int_equal(run("flush"), EXIT_OK);
	assert_int_equal(nsent, 2);
	parse_sent(0, RTM_DELROUTE, tb);
	assert_addr(tb[RTA_DST], AF_INET6, "fc00::");
	parse_sent(1, RTM_DELROUTE, tb);
	assert_addr(tb[RTA_DST], AF_INET, "10.0.0.0");

	teardown(state);
	add_dump_route(AF_INET6, "fc00::", 64, RT_TABLE_MAIN, LWT_TYPE, "2001:db8::1");
	add_dump_route(AF_INET6, "fc01::", 64, 100, LWT_TYPE, "2001:db8::1");
	assert_int_equal(run("flush table 100"), EXIT_OK);
	assert_int_equal(nsent, 1);
	parse_sent(0, RTM_DELROUTE, tb);
	assert_int_equal(nla_get_u32(attr(tb, RTA_TABLE)), 100);

	teardown(state);
	add_dump_route(AF_INET6, "fc00::", 64, RT_TABLE_MAIN, LWT_TYPE, "2001:db8::1");
	add_dump_route(AF_INET6, "fc01::", 64, 100000, LWT_TYPE, "2001:db8::1");
	assert_int_equal(run("flush table all"), EXIT_OK);
	assert_int_equal(nsent, 2);

	/* "all" alone is short for "table all" */
	teardown(state);
	add_dump_route(AF_INET6, "fc00::", 64, RT_TABLE_MAIN, LWT_TYPE, "2001:db8::1");
	add_dump_route(AF_INET6, "fc01::", 64, 100000, LWT_TYPE, "2001:db8::1");
	assert_int_equal(run("flush all"), EXIT_OK);
	assert_int_equal(nsent, 2);
}

static void test_usage_errors(void **state)
{
	static const char *const bad[] = {
		"",					/* show is the default: */
		"frobnicate",
		"add",
		"add fc00::/64",
		"add fc00::/64 mode encap segs 2001:db8::1",	/* no dev */
		"add fc00::/64 segs 2001:db8::1 dev lo",	/* no mode */
		"add fc00::/64 mode encap dev lo",		/* no segs */
		"add fc00::/64 mode tunnel segs 2001:db8::1 dev lo",
		"add fc00::/64 mode encap segs 2001:db8::1,, dev lo",
		"add fc00::/64 mode encap segs 10.0.0.1 dev lo",
		"add fc00::/64 mode encap mode encap segs 2001:db8::1 dev lo",
		"add fc00::/64 mode encap segs 2001:db8::1 dev lo color red",
		"add fc00::/64 mode encap segs 2001:db8::1 dev lo metric",
		"add fc00::/64 mode encap segs 2001:db8::1 dev lo metric -1",
		"add fc00::/64 mode encap segs 2001:db8::1 dev lo metric 5x",
		"add fc00::/64 mode encap segs 2001:db8::1 dev lo table 0",
		"add fc00::/64 mode encap segs 2001:db8::1 dev lo table all",
		"add fc00::/64 mode encap segs 2001:db8::1 dev lo hmac 0",
		"add fc00::/64 mode encap segs 2001:db8::1 dev lo hmac 4294967296",
		"add fc00::/64 mode encap segs 2001:db8::1 dev lo via 10.0.0.1",
		"add fc00::/64 mode encap segs 2001:db8::1 dev lo via nowhere",
		"add fc00::/129 mode encap segs 2001:db8::1 dev lo",
		"add fc00::1/64 mode encap segs 2001:db8::1 dev lo",
		"add fc00::zz/64 mode encap segs 2001:db8::1 dev lo",
		/* what the module refuses, found before it is asked */
		"add fc00::/64 mode encap segs 2001:db8::1,ff02::1 dev lo",
		"add fc00::/64 mode encap segs :: dev lo",
		"add 10.0.0.0/8 mode inline segs 2001:db8::1 dev lo",
		"del fc00::/64 mode encap",
		"del fc00::/64 via fe80::1",
		"show table",
		"show table 0",
		"show dev lo",
		"flush all tables",
	};
	size_t i;

	(void)state;
	/* The first one is fine: "route" alone shows (nothing, here). */
	assert_int_equal(run(bad[0]), EXIT_OK);
	assert_int_equal(run_quiet("help"), EXIT_OK);
	for (i = 1; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (run_quiet(bad[i]) != EXIT_USAGE)
			fail_msg("\"route %s\" was not a usage error", bad[i]);
	}
	assert_int_equal(nsent, 0);
}

/* "fc00::1,fc00::2,..." with @count segments. */
static void make_segs(char *buf, size_t len, int count)
{
	size_t off = 0;
	int i;

	for (i = 0; i < count; i++)
		off += (size_t)snprintf(buf + off, len - off, "%sfc00::%x",
					i ? "," : "", i + 1);
}

static void test_segment_limits(void **state)
{
	char segs[(SEG6X_MAX_SEGS + 1) * 16], line[sizeof(segs) + 128];

	(void)state;
	make_segs(segs, sizeof(segs), SEG6X_MAX_SEGS);
	snprintf(line, sizeof(line), "add fc00::/64 mode encap segs %s dev lo", segs);
	assert_int_equal(run(line), EXIT_OK);

	make_segs(segs, sizeof(segs), SEG6X_MAX_SEGS + 1);
	snprintf(line, sizeof(line), "add fc00::/64 mode encap segs %s dev lo", segs);
	assert_int_equal(run_quiet(line), EXIT_USAGE);

	make_segs(segs, sizeof(segs), SEG6X_MAX_SEGS_HMAC);
	snprintf(line, sizeof(line), "add fc00::/64 mode encap segs %s hmac 1 dev lo", segs);
	assert_int_equal(run(line), EXIT_OK);

	/* hmac may come after segs and still lowers the limit. */
	make_segs(segs, sizeof(segs), SEG6X_MAX_SEGS_HMAC + 1);
	snprintf(line, sizeof(line), "add fc00::/64 mode encap segs %s hmac 1 dev lo", segs);
	assert_int_equal(run_quiet(line), EXIT_USAGE);

	/* Inline with hmac: the HMAC covers the destination too. */
	make_segs(segs, sizeof(segs), SEG6X_MAX_SEGS_HMAC);
	snprintf(line, sizeof(line), "add fc00::/64 mode inline segs %s hmac 1 dev lo", segs);
	assert_int_equal(run_quiet(line), EXIT_USAGE);
	make_segs(segs, sizeof(segs), SEG6X_MAX_SEGS_HMAC - 1);
	snprintf(line, sizeof(line), "add fc00::/64 mode inline segs %s hmac 1 dev lo", segs);
	assert_int_equal(run(line), EXIT_OK);
	assert_int_equal(nsent, 3);
}

static void test_abbreviations(void **state)
{
	struct nlattr *tb[RTA_MAX + 1];

	(void)state;
	/* As ip reads them: "a" is add, "r" replace, "ls" show. */
	assert_int_equal(run("a fc00::/64 mode encap segs 2001:db8::1 dev lo"), EXIT_OK);
	assert_true(nlmsg_hdr(sent[0])->nlmsg_flags & NLM_F_EXCL);
	assert_false(conn()->no_autoload);	/* a change loads the module */
	assert_int_equal(run("rep fc00::/64 mode encap segs 2001:db8::1 dev lo"), EXIT_OK);
	assert_true(nlmsg_hdr(sent[1])->nlmsg_flags & NLM_F_REPLACE);
	parse_sent(1, RTM_NEWROUTE, tb);
	assert_int_equal(run("ls"), EXIT_OK);
	assert_int_equal(run("list table all"), EXIT_OK);
	assert_int_equal(run("lst"), EXIT_OK);
	assert_true(conn()->no_autoload);	/* a read, as show is */
	assert_int_equal(run("sh"), EXIT_OK);
	assert_int_equal(run("f"), EXIT_OK);
	assert_int_equal(nsent, 2);
	/* Not a prefix of any command, or longer than one. */
	assert_int_equal(run_quiet("addd fc00::/64 mode encap segs 2001:db8::1 dev lo"),
			 EXIT_USAGE);
	assert_int_equal(run_quiet("x"), EXIT_USAGE);
	assert_int_equal(nsent, 2);
}

/*
 * seg6ctl asks the module for its LWT slot once per handle, not per
 * route: a batch of N adds is N requests, not 2N.
 */
static void test_lwt_type_asked_once(void **state)
{
	(void)state;
	conn_close();
	ninfo = 0;
	assert_int_equal(run("add fc00::/64 mode encap segs 2001:db8::1 dev lo"), EXIT_OK);
	assert_int_equal(run("add fc01::/64 mode encap segs 2001:db8::1 dev lo"), EXIT_OK);
	assert_int_equal(nsent, 2);
	assert_int_equal(ninfo, 1);
	/* A new handle (another process) asks again. */
	conn_close();
	assert_int_equal(run("add fc02::/64 mode encap segs 2001:db8::1 dev lo"), EXIT_OK);
	assert_int_equal(ninfo, 2);
}

/*
 * A kept slot that went stale (the module was reloaded and claimed
 * another): the refused add asks the module again and goes through.
 */
static void test_lwt_type_stale(void **state)
{
	(void)state;
	conn_close();
	ninfo = 0;
	assert_int_equal(run("add fc00::/64 mode encap segs 2001:db8::1 dev lo"), EXIT_OK);
	lwt_now = LWT_TYPE + 1;
	assert_int_equal(run("add fc01::/64 mode encap segs 2001:db8::1 dev lo"), EXIT_OK);
	lwt_now = LWT_TYPE;
	assert_int_equal(ninfo, 2);
	assert_int_equal(nsent, 2);
	conn_close();		/* the next test's handle knows nothing */
}

/*
 * What "route LINE" prints on stdout, in @out; LINE NULL: route_save().
 * Returns the exit status.
 */
static int capture(const char *line, char *out, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDOUT_FILENO);
	int status;
	size_t n;

	assert_true(tmp && saved >= 0);
	fflush(stdout);
	dup2(fileno(tmp), STDOUT_FILENO);
	status = line ? run(line) : route_save();
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(tmp);
	n = fread(out, 1, len - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
	return status;
}

static void test_save(void **state)
{
	char out[1024];

	(void)state;
	add_dump_route(AF_INET6, "fc00::", 64, RT_TABLE_MAIN, LWT_TYPE, "2001:db8::1");
	add_dump_route(AF_INET6, "fc01::", 64, 100000, LWT_TYPE, "2001:db8::2");
	add_dump_route(AF_INET6, "fc02::", 64, RT_TABLE_MAIN, LWT_TYPE + 1, "2001:db8::1");
	add_dump_route(AF_INET, "10.0.0.0", 24, 100, LWT_TYPE, "2001:db8::3");

	/* Every table, each route as the replace that sets it up again. */
	assert_int_equal(capture(NULL, out, sizeof(out)), EXIT_OK);
	assert_string_equal(out,
		"route replace fc00::/64 mode encap segs 2001:db8::1 dev lo metric 0\n"
		"route replace fc01::/64 mode encap segs 2001:db8::2 dev lo table 100000 metric 0\n"
		"route replace 10.0.0.0/24 mode encap segs 2001:db8::3 dev lo table 100 metric 0\n");
	assert_int_equal(nsent, 0);
}

/* route show: the main table unnamed, as ip prints it; local named. */
static void test_show_text(void **state)
{
	char out[1024];

	(void)state;
	add_dump_route(AF_INET6, "fc00::", 64, RT_TABLE_MAIN, LWT_TYPE, "2001:db8::1");
	add_dump_route(AF_INET6, "fc01::", 64, RT_TABLE_LOCAL, LWT_TYPE, "2001:db8::2");
	add_dump_route(AF_INET6, "fc02::", 64, 100, LWT_TYPE, "2001:db8::3");
	assert_int_equal(capture("show table all", out, sizeof(out)), EXIT_OK);
	assert_string_equal(out,
		"fc00::/64 mode encap segs 2001:db8::1 dev lo metric 0\n"
		"fc01::/64 mode encap segs 2001:db8::2 dev lo table local metric 0\n"
		"fc02::/64 mode encap segs 2001:db8::3 dev lo table 100 metric 0\n");
}

/* route show -j: the same fields as save's text, absent ones null. */
static void test_show_json(void **state)
{
	char out[1024];

	(void)state;
	add_dump_route(AF_INET6, "fc00::", 64, RT_TABLE_MAIN, LWT_TYPE, "2001:db8::1");
	opts.json = true;
	assert_int_equal(capture("show", out, sizeof(out)), EXIT_OK);
	opts.json = false;
	assert_string_equal(out,
		"[{\"dst\": \"fc00::/64\", \"mode\": \"encap\", "
		"\"segs\": [\"2001:db8::1\"], \"hmac\": null, \"dev\": \"lo\", "
		"\"via\": null, \"table\": 254, \"metric\": 0}]\n");
}

static void test_unknown_device(void **state)
{
	(void)state;
	assert_int_equal(run_quiet("add fc00::/64 mode encap segs 2001:db8::1 dev nosuchdev0"),
			 EXIT_FAIL);
	/* Names are cached once found, never while missing. */
	assert_int_equal(run("add fc00::/64 mode encap segs 2001:db8::1 dev lo"), EXIT_OK);
	assert_int_equal(run("add fc01::/64 mode encap segs 2001:db8::1 dev lo"), EXIT_OK);
	assert_int_equal(run_quiet("add fc00::/64 mode encap segs 2001:db8::1 dev nosuchdev0"),
			 EXIT_FAIL);
	assert_int_equal(nsent, 2);
}

/*
 * A multipath route: RTA_MULTIPATH with a device, weight, next hop and
 * encap per path; read back from a dump, save gives the same add; a
 * delete names every path (IPv6 deletes siblings one by one).
 */
static void test_multipath(void **state)
{
	static const char add[] =
		"fc09::/64 table 10 metric 20 nexthop mode encap segs 2001:db8::1 "
		"dev lo via fe80::1 weight 2 nexthop mode encap segs 2001:db8::2,2001:db8::3 "
		"hmac 7 dev lo via fe80::2 weight 1";
	struct nlattr *tb[RTA_MAX + 1], *path[RTA_MAX + 1];
	struct nlattr *encap[SEG6X_IPTUN_MAX + 1];
	const struct rtnexthop *rtnh;
	char line[512], out[1024];
	int left, n = 0;

	(void)state;
	snprintf(line, sizeof(line), "add %s", add);
	assert_int_equal(run(line), EXIT_OK);
	parse_sent(0, RTM_NEWROUTE, tb);
	assert_null(tb[RTA_OIF]);
	assert_null(tb[RTA_ENCAP]);
	assert_int_equal(nla_get_u32(attr(tb, RTA_PRIORITY)), 20);
	rtnh = nla_data(attr(tb, RTA_MULTIPATH));
	left = nla_len(tb[RTA_MULTIPATH]);
	for (; left >= (int)sizeof(*rtnh); n++) {
		assert_int_equal(nla_parse(path, RTA_MAX, (struct nlattr *)RTNH_DATA(rtnh),
					   rtnh->rtnh_len - RTNH_LENGTH(0), NULL), 0);
		assert_int_equal(rtnh->rtnh_ifindex, if_nametoindex("lo"));
		assert_int_equal(rtnh->rtnh_hops, n ? 0 : 1);
		assert_addr(attr(path, RTA_GATEWAY), AF_INET6, n ? "fe80::2" : "fe80::1");
		assert_int_equal(nla_get_u16(attr(path, RTA_ENCAP_TYPE)), LWT_TYPE);
		assert_int_equal(nla_parse_nested(encap, SEG6X_IPTUN_MAX,
						  path[RTA_ENCAP], NULL), 0);
		assert_int_equal(nla_len(attr(encap, SEG6X_IPTUN_SEGS)), n ? 32 : 16);
		assert_true(!n == !encap[SEG6X_IPTUN_HMAC_KEYID]);
		left -= RTNH_ALIGN(rtnh->rtnh_len);
		rtnh = RTNH_NEXT(rtnh);
	}
	assert_int_equal(n, 2);

	/* The add as the kernel would dump it: save replays it. */
	dump_reply[ndump_reply++] = sent[--nsent];
	assert_int_equal(capture(NULL, out, sizeof(out)), EXIT_OK);
	snprintf(line, sizeof(line), "route replace %s\n", add);
	assert_string_equal(out, line);
	opts.json = true;
	assert_int_equal(capture("show table 10", out, sizeof(out)), EXIT_OK);
	opts.json = false;
	assert_non_null(strstr(out, "\"dev\": \"lo\", \"via\": \"fe80::1\", \"table\": 10, "
				 "\"metric\": 20, \"nexthops\": [{\"mode\": \"encap\", "));
	assert_non_null(strstr(out, "\"hmac\": 7, \"dev\": \"lo\", \"via\": \"fe80::2\", "
				 "\"weight\": 1}]}]"));

	/* del names both paths, without their encaps. */
	assert_int_equal(run("del fc09::/64 table 10"), EXIT_OK);
	parse_sent(0, RTM_DELROUTE, tb);
	rtnh = nla_data(attr(tb, RTA_MULTIPATH));
	assert_int_equal(nla_len(tb[RTA_MULTIPATH]), 2 * (8 + 20));
	assert_int_equal(nla_parse(path, RTA_MAX, (struct nlattr *)RTNH_DATA(rtnh),
				   rtnh->rtnh_len - RTNH_LENGTH(0), NULL), 0);
	assert_addr(attr(path, RTA_GATEWAY), AF_INET6, "fe80::1");
	assert_null(path[RTA_ENCAP]);
}

/* What a multipath add refuses, before anything is sent. */
static void test_multipath_errors(void **state)
{
	static const char *const bad[] = {
		/* IPv6 paths need a next hop to be joined */
		"add fc09::/64 nexthop mode encap segs 2001:db8::1 dev lo",
		"add fc09::/64 nexthop mode encap segs 2001:db8::1 dev lo via fe80::1 weight 0",
		"add fc09::/64 nexthop mode encap segs 2001:db8::1 dev lo via fe80::1 weight 257",
		"add fc09::/64 nexthop",
		"add fc09::/64 nexthop mode encap segs 2001:db8::1 via fe80::1",
		/* route keywords belong before the first nexthop, path ones after */
		"add fc09::/64 mode encap nexthop mode encap segs 2001:db8::1 dev lo via fe80::1",
		"add fc09::/64 nexthop mode encap segs 2001:db8::1 dev lo via fe80::1 table 10",
		"add fc09::/64 mode encap segs 2001:db8::1 dev lo weight 2",
		"add 10.9.0.0/16 nexthop mode inline segs 2001:db8::1 dev lo",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(run_quiet(bad[i]), EXIT_USAGE);
	assert_int_equal(nsent, 0);
	/* IPv4 paths may go by device alone. */
	assert_int_equal(run("add 10.9.0.0/16 nexthop mode encap segs 2001:db8::1 dev lo "
			     "nexthop mode encap segs 2001:db8::2 dev lo"), EXIT_OK);
	assert_int_equal(nsent, 1);
}

/*
 * A kernel reply whose RTA_MULTIPATH lies (an entry longer than the
 * attribute, or shorter than its header) fails the dump with -EBADMSG,
 * reading nothing past it; an entry without seg6x's encap makes the
 * route somebody else's.
 */
static void test_multipath_malformed(void **state)
{
	static const unsigned short lens[] = { 200, 4, 8 };
	struct rtmsg rtm = { .rtm_family = AF_INET6, .rtm_dst_len = 64,
			     .rtm_table = RT_TABLE_MAIN, .rtm_type = RTN_UNICAST };
	struct rtnexthop rtnh = { .rtnh_ifindex = 1 };
	struct ctl_route *routes;
	uint8_t dst[16] = { 0xfc };
	struct ctl *c;
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		struct nl_msg *msg = nlmsg_alloc_simple(RTM_NEWROUTE, NLM_F_MULTI);

		assert_non_null(msg);
		assert_int_equal(nlmsg_append(msg, &rtm, sizeof(rtm), NLMSG_ALIGNTO), 0);
		nla_put(msg, RTA_DST, 16, dst);
		rtnh.rtnh_len = lens[i];
		nla_put(msg, RTA_MULTIPATH, sizeof(rtnh), &rtnh);
		dump_reply[ndump_reply++] = msg;
		n = 99;
		c = ctl_new();
		/* 8: a whole entry, no encap: not seg6x's, nothing listed */
		assert_int_equal(ctl_route_list(c, &routes, &n),
				 lens[i] == 8 ? 0 : -EBADMSG);
		if (lens[i] == 8) {
			assert_int_equal(n, 0);
			free(routes);
		}
		ctl_free(c);
		teardown(NULL);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_add_full, teardown),
		cmocka_unit_test_teardown(test_show_text, teardown),
		cmocka_unit_test_teardown(test_show_json, teardown),
		cmocka_unit_test_teardown(test_add_ipv4_minimal, teardown),
		cmocka_unit_test_teardown(test_add_ipv4_via_ipv6, teardown),
		cmocka_unit_test_teardown(test_default_prefix, teardown),
		cmocka_unit_test_teardown(test_del, teardown),
		cmocka_unit_test_teardown(test_del_not_seg6x, teardown),
		cmocka_unit_test_teardown(test_default_and_encap_seg6, teardown),
		cmocka_unit_test_teardown(test_table_names, teardown),
		cmocka_unit_test_teardown(test_flush_filters, teardown),
		cmocka_unit_test_teardown(test_usage_errors, teardown),
		cmocka_unit_test_teardown(test_segment_limits, teardown),
		cmocka_unit_test_teardown(test_abbreviations, teardown),
		cmocka_unit_test_teardown(test_lwt_type_asked_once, teardown),
		cmocka_unit_test_teardown(test_lwt_type_stale, teardown),
		cmocka_unit_test_teardown(test_save, teardown),
		cmocka_unit_test_teardown(test_add_owner, teardown),
		cmocka_unit_test_teardown(test_add_protocol, teardown),
		cmocka_unit_test_teardown(test_unknown_device, teardown),
		cmocka_unit_test_teardown(test_multipath, teardown),
		cmocka_unit_test_teardown(test_multipath_errors, teardown),
		cmocka_unit_test_teardown(test_multipath_malformed, teardown),
	};

	return cmocka_run_group_tests_name("route", tests, NULL, NULL);
}

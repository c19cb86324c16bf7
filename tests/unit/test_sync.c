// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of "seg6ctl sync" from the command line (seg6ctl's own main,
 * built as seg6ctl_main) to what it sends: a fake module answers the
 * reads with a canned namespace (tunsrc, keys, interfaces, SIDs, seg6x
 * routes) and keeps every change it is sent.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <netlink/genl/genl.h>

#include "cli.h"
#include "common.h"
#include "conn.h"
#include "ctl_nl.h"

#define LWT_TYPE	42
#define MAX_MSGS	16

int seg6ctl_main(int argc, char **argv);

/* What the fake module was sent: changes, and how many reads. */
static struct nl_msg *sent[MAX_MSGS];
static int nsent;
static int nreads;
static int talk_error;		/* the kernel refuses changes with it */

/* The namespace it holds: canned replies per dump. */
static struct nl_msg *genl_state[MAX_MSGS];
static int ngenl_state;
static struct nl_msg *routes[MAX_MSGS];
static int nroutes;

static char dir[] = "/tmp/test_sync.XXXXXX";
static char path[64];

/* Fakes of ctl_nl.c (the rest in fake_ctl.c), and of monitor.c */

int do_monitor(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fail_msg("seg6ctl monitor is not for this test");
	return EXIT_FAIL;
}

int ctl_netns_enter(struct ctl *c, const char *name)
{
	(void)c;
	(void)name;
	return -ENOSYS;
}

static void keep(struct ctl *c, struct nl_msg *msg)
{
	/* While sync reads its file, nothing may reach the kernel. */
	assert_false(c->dry_run);
	assert_true(nsent < MAX_MSGS);
	sent[nsent++] = msg;
}

int ctl_genl_talk(struct ctl *c, struct nl_msg *msg, ctl_genl_reply_fn cb,
		  void *arg)
{
	uint8_t cmd = genlmsg_hdr(nlmsg_hdr(msg))->cmd;
	struct nlattr *tb[SEG6X_A_MAX + 1];
	int i;

	if (!cb) {
		keep(c, msg);
		return talk_error ? ctl_fail_extack(c, talk_error, "refused") : 0;
	}
	nreads++;
	for (i = 0; i < ngenl_state; i++) {
		struct nlmsghdr *r = nlmsg_hdr(genl_state[i]);

		if (genlmsg_hdr(r)->cmd != cmd)
			continue;
		assert_int_equal(genlmsg_parse(r, 0, tb, SEG6X_A_MAX, NULL), 0);
		assert_int_equal(cb(tb, arg), 0);
	}
	nlmsg_free(msg);
	return 0;
}

/* sync deletes one route at a time: no batch to fake. */
int ctl_rt_talk_batch(struct ctl *c, struct nl_msg **msgs, size_t n)
{
	(void)c;
	(void)msgs;
	(void)n;
	fail();
	return -1;
}

int ctl_rt_talk(struct ctl *c, struct nl_msg *msg, ctl_rt_reply_fn cb,
		void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	int i;

	if (nlh->nlmsg_type != RTM_GETROUTE) {
		keep(c, msg);
		return talk_error ? ctl_fail_extack(c, talk_error, "") : 0;
	}
	nreads++;
	for (i = 0; i < nroutes; i++) {
		struct nlmsghdr *r = nlmsg_hdr(routes[i]);
		const struct rtmsg *rtm = nlmsg_data(r);
		struct nlattr *tb[RTA_MAX + 1];

		if (rtm->rtm_family != ((struct rtmsg *)nlmsg_data(nlh))->rtm_family)
			continue;
		assert_int_equal(nlmsg_parse(r, sizeof(*rtm), tb, RTA_MAX, NULL), 0);
		assert_int_equal(cb(rtm, tb, arg), 0);
	}
	nlmsg_free(msg);
	return 0;
}

/* The fake namespace */

static struct nl_msg *state(uint8_t cmd)
{
	assert_true(ngenl_state < MAX_MSGS);
	ctl_genl_msg(conn(), cmd, 0, &genl_state[ngenl_state]);
	return genl_state[ngenl_state++];
}

/* A module with its parameters at 0, "default" at 0, tunsrc "::". */
static void module_defaults(void)
{
	struct nl_msg *m = state(SEG6X_CMD_INFO_GET);

	nla_put_u16(m, SEG6X_A_LWT_TYPE, LWT_TYPE);
	nla_put_u8(m, SEG6X_A_DEF_SEG6_ENABLED, 0);
	nla_put_s8(m, SEG6X_A_DEF_REQUIRE_HMAC, 0);
	m = state(SEG6X_CMD_IFACE_GET);
	nla_put_u32(m, SEG6X_A_IFINDEX, 0);
	nla_put_string(m, SEG6X_A_IFNAME, "default");
	nla_put_u8(m, SEG6X_A_SEG6_ENABLED, 0);
	nla_put_s8(m, SEG6X_A_REQUIRE_HMAC, 0);
}

static void state_tunsrc(const char *addr)
{
	struct in6_addr a;

	inet_pton(AF_INET6, addr, &a);
	nla_put(state(SEG6X_CMD_TUNSRC_GET), SEG6X_A_TUNSRC, sizeof(a), &a);
}

static void state_key(uint32_t keyid, uint8_t algo)
{
	struct nl_msg *m = state(SEG6X_CMD_HMAC_GET);

	nla_put_u32(m, SEG6X_A_HMAC_KEYID, keyid);
	nla_put_u8(m, SEG6X_A_HMAC_ALGO, algo);
}

/* A SID as the module dumps it, with @owner if not 0 and counters. */
static void state_sid(const char *prefix, uint16_t behavior, uint8_t owner,
		      bool count)
{
	struct nl_msg *m = state(SEG6X_CMD_SID_GET);
	struct nlattr *nest = nla_nest_start(m, SEG6X_A_SID), *cnt;
	struct in6_addr a;

	inet_pton(AF_INET6, prefix, &a);
	nla_put(m, SEG6X_SID_PREFIX, sizeof(a), &a);
	nla_put_u8(m, SEG6X_SID_PREFIX_LEN, 128);
	nla_put_u16(m, SEG6X_SID_BEHAVIOR, behavior);
	if (owner)
		nla_put_u8(m, SEG6X_SID_OWNER, owner);
	if (count) {
		nla_put_flag(m, SEG6X_SID_COUNT);
		cnt = nla_nest_start(m, SEG6X_SID_COUNTERS);
		nla_put_u64(m, SEG6X_SID_CNT_PACKETS, 1234);
		nla_nest_end(m, cnt);
	}
	nla_nest_end(m, nest);
}

/* An IPv6 seg6x route through lo (ifindex 1), as a dump gives it. */
static void state_route(const char *dst, int len, const char *seg,
			uint8_t owner)
{
	struct rtmsg rtm = {
		.rtm_family = AF_INET6, .rtm_dst_len = (uint8_t)len,
		.rtm_table = RT_TABLE_MAIN, .rtm_type = RTN_UNICAST,
		.rtm_protocol = RTPROT_STATIC,
	};
	struct nl_msg *m = nlmsg_alloc_simple(RTM_NEWROUTE, NLM_F_MULTI);
	struct in6_addr d, s;
	struct nlattr *nest;

	assert_non_null(m);
	assert_int_equal(nlmsg_append(m, &rtm, sizeof(rtm), NLMSG_ALIGNTO), 0);
	inet_pton(AF_INET6, dst, &d);
	inet_pton(AF_INET6, seg, &s);
	nla_put(m, RTA_DST, sizeof(d), &d);
	nla_put_u32(m, RTA_TABLE, RT_TABLE_MAIN);
	nla_put_u32(m, RTA_OIF, 1);
	nla_put_u32(m, RTA_PRIORITY, 1024);
	nla_put_u16(m, RTA_ENCAP_TYPE, LWT_TYPE);
	nest = nla_nest_start(m, RTA_ENCAP);
	nla_put_u8(m, SEG6X_IPTUN_MODE, SEG6X_IPTUN_MODE_ENCAP);
	nla_put(m, SEG6X_IPTUN_SEGS, sizeof(s), &s);
	if (owner)
		nla_put_u8(m, SEG6X_IPTUN_OWNER, owner);
	nla_nest_end(m, nest);
	assert_true(nroutes < MAX_MSGS);
	routes[nroutes++] = m;
}

/* Helpers */

static int setup(void **unused)
{
	(void)unused;
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int cleanup(void **unused)
{
	char cmd[128];

	(void)unused;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static int teardown(void **unused)
{
	(void)unused;
	while (nsent)
		nlmsg_free(sent[--nsent]);
	while (ngenl_state)
		nlmsg_free(genl_state[--ngenl_state]);
	while (nroutes)
		nlmsg_free(routes[--nroutes]);
	nreads = talk_error = 0;
	memset(&opts, 0, sizeof(opts));
	return 0;
}

/*
 * @text as the file to sync, where KEYFILE stands for a file holding a
 * key's secret, mode 0600.
 */
static const char *file(const char *text)
{
	char key[64];
	const char *at;
	FILE *f;
	int fd;

	snprintf(key, sizeof(key), "%s/key", dir);
	fd = open(key, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0 && write(fd, "s3cret\n", 7) == 7);
	close(fd);
	snprintf(path, sizeof(path), "%s/seg6x.conf", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	while ((at = strstr(text, "KEYFILE"))) {
		fwrite(text, 1, (size_t)(at - text), f);
		fputs(key, f);
		text = at + strlen("KEYFILE");
	}
	fputs(text, f);
	fclose(f);
	return path;
}

/* seg6ctl ARGS...; its output in @out if not NULL (stderr silenced). */
static int seg6ctl(char **out, const char *a1, const char *a2, const char *a3,
		   const char *a4)
{
	char *argv[] = { "seg6ctl", (char *)a1, (char *)a2, (char *)a3,
			 (char *)a4, NULL };
	int argc = 1, status, saved_out = dup(STDOUT_FILENO),
	    saved_err = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
	FILE *tmp = tmpfile();

	while (argv[argc])
		argc++;
	assert_true(saved_out >= 0 && saved_err >= 0 && null >= 0 && tmp);
	fflush(stdout);
	fflush(stderr);
	dup2(fileno(tmp), STDOUT_FILENO);
	dup2(null, STDERR_FILENO);
	optind = 0;		/* getopt starts over */
	status = seg6ctl_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);
	close(null);
	if (out) {
		*out = calloc(1, 4096);
		rewind(tmp);
		assert_true(fread(*out, 1, 4095, tmp) < 4095);
	}
	fclose(tmp);
	return status;
}

static struct nlmsghdr *sent_hdr(int i)
{
	assert_true(i < nsent);
	return nlmsg_hdr(sent[i]);
}

static uint8_t sent_cmd(int i)
{
	return genlmsg_hdr(sent_hdr(i))->cmd;
}

/* Tests */

static const char running_conf[] =
	"# what runs, declared again\n"
	"tunsrc set fc00::1\n"
	"route replace fc00:4::/64 mode encap segs fc00:ff::2 dev lo\n"
	"sid add fc00:e2::100 behavior End count\n";

static void running_state(void)
{
	module_defaults();
	state_tunsrc("fc00::1");
	state_route("fc00:4::", 64, "fc00:ff::2", 0);
	state_sid("fc00:e2::100", SEG6X_BEHAVIOR_END, 0, true);
}

/* A file equal to what runs: nothing at all is written. */
static void test_identical_writes_nothing(void **unused)
{
	char *out;

	(void)unused;
	running_state();
	assert_int_equal(seg6ctl(NULL, "sync", file(running_conf), NULL, NULL),
			 EXIT_OK);
	assert_int_equal(nsent, 0);
	assert_true(nreads > 0);
	assert_int_equal(seg6ctl(&out, "sync", "--dry-run", path, NULL), EXIT_OK);
	assert_string_equal(out, "");
	free(out);
}

/* Add, change, delete; in order, with the flags that say so. */
static void test_apply(void **unused)
{
	struct nlattr *tb[SEG6X_A_MAX + 1];

	(void)unused;
	running_state();
	state_route("fc00:9::", 64, "fc00:ff::9", 0);		/* not in the file */
	state_key(7, SEG6X_HMAC_ALGO_SHA256);			/* the same */
	state_key(8, SEG6X_HMAC_ALGO_SHA256);			/* not in the file */
	/* a secret file that cannot be read: nothing read, nothing sent */
	assert_int_equal(seg6ctl(NULL, "sync", file(
		"route replace fc00:4::/64 mode encap segs fc00:ff::3 dev lo\n"
		"hmac set 7 sha256 secret-file /dev/null\n"), NULL, NULL),
		EXIT_FAIL);
	assert_int_equal(nsent + nreads, 0);

	assert_int_equal(seg6ctl(NULL, "sync", file(
		"hmac set 7 sha256 secret-file KEYFILE\n"
		"tunsrc set fc00::1\n"
		"route replace fc00:4::/64 mode encap segs fc00:ff::3 dev lo\n"
		"route add fc00:5::/64 mode encap segs fc00:ff::5 dev lo\n"
		"sid add fc00:e2::100 behavior End count\n"), NULL, NULL), EXIT_OK);
	assert_int_equal(nsent, 5);
	/* a key is always set again: its secret cannot be compared */
	assert_int_equal(sent_cmd(0), SEG6X_CMD_HMAC_SET);
	assert_int_equal(genlmsg_parse(sent_hdr(0), 0, tb, SEG6X_A_MAX, NULL), 0);
	assert_int_equal(nla_get_u32(tb[SEG6X_A_HMAC_KEYID]), 7);
	assert_int_equal(nla_len(tb[SEG6X_A_HMAC_SECRET]), 6);
	assert_int_equal(sent_hdr(1)->nlmsg_type, RTM_NEWROUTE);
	assert_true(sent_hdr(1)->nlmsg_flags & NLM_F_REPLACE);
	assert_int_equal(sent_hdr(2)->nlmsg_type, RTM_NEWROUTE);
	assert_true(sent_hdr(2)->nlmsg_flags & NLM_F_EXCL);
	assert_int_equal(sent_hdr(3)->nlmsg_type, RTM_DELROUTE);
	/* keys last, after the routes that may use them */
	assert_int_equal(sent_cmd(4), SEG6X_CMD_HMAC_DEL);
}

/* Entries of an owner that the file does not name are left alone. */
static void test_foreign_owner_untouched(void **unused)
{
	char *out;

	(void)unused;
	module_defaults();
	state_route("fc00:7::", 64, "fc00:ff::7", SEG6X_OWNER_FPMD);
	state_sid("fc00:e2::7", SEG6X_BEHAVIOR_END, SEG6X_OWNER_FPMD, false);
	assert_int_equal(seg6ctl(NULL, "sync", "/dev/null", NULL, NULL), EXIT_OK);
	assert_int_equal(seg6ctl(NULL, "sync", file("# nothing\n"), NULL, NULL),
			 EXIT_OK);
	assert_int_equal(nsent, 0);

	/* its place wanted by the file: a conflict, reported, not taken */
	file("route replace fc00:7::/64 mode encap segs fc00:ff::1 dev lo\n");
	assert_int_equal(seg6ctl(NULL, "sync", path, NULL, NULL), EXIT_FAIL);
	assert_int_equal(nsent, 0);
	assert_int_equal(seg6ctl(&out, "sync", "--dry-run", path, NULL), EXIT_OK);
	assert_string_equal(out,
		"! route fc00:7::/64 mode encap segs fc00:ff::1 dev lo metric 1024"
		" # owner fpmd holds its place: left alone\n");
	free(out);

	/* --all-owners: the file's to manage */
	assert_int_equal(seg6ctl(NULL, "sync", "--all-owners", path, NULL), EXIT_OK);
	assert_int_equal(nsent, 2);
	assert_true(sent_hdr(0)->nlmsg_flags & NLM_F_REPLACE);
	assert_int_equal(sent_cmd(1), SEG6X_CMD_SID_DEL);
}

static void test_dry_run_prints_plan(void **unused)
{
	char *out;

	(void)unused;
	running_state();
	state_key(9, SEG6X_HMAC_ALGO_SHA1);
	file("tunsrc set fc00::2\n"
	     "iface set default seg6_enabled 1\n"
	     "route replace fc00:5::/64 mode encap segs fc00:ff::5 dev lo\n"
	     "sid replace fc00:e2::100/64 behavior End.T table 10\n");
	assert_int_equal(seg6ctl(&out, "sync", "--dry-run", path, NULL), EXIT_OK);
	assert_string_equal(out,
		"~ tunsrc fc00::2\n"
		"~ iface default seg6_enabled 1 require_hmac 0\n"
		"+ sid fc00:e2::/64 behavior End.T table 10\n"
		"+ route fc00:5::/64 mode encap segs fc00:ff::5 dev lo metric 1024\n"
		"- route fc00:4::/64 mode encap segs fc00:ff::2 dev lo metric 1024\n"
		"- sid fc00:e2::100/128 behavior End count\n"
		"- hmac 9 sha1\n");
	free(out);
	assert_int_equal(nsent, 0);

	assert_int_equal(seg6ctl(&out, "-j", "sync", "--dry-run", path), EXIT_OK);
	assert_non_null(strstr(out, "[{\"action\": \"change\", \"object\": \"tunsrc\", "
				    "\"tunsrc\": \"fc00::2\"}"));
	assert_non_null(strstr(out, "{\"action\": \"delete\", \"object\": \"hmac\", "
				    "\"keyid\": 9, \"algo\": \"sha1\"}]\n"));
	free(out);
	assert_int_equal(nsent, 0);
}

/* A file with an error anywhere changes nothing, and reads nothing. */
static void test_bad_file_changes_nothing(void **unused)
{
	static const char *const bad[] = {
		"tunsrc set fc00::1\nroute replace fc00::/64 mode encap segs ff02::1 dev lo\n",
		"tunsrc set fc00::1\nroute del fc00::/64\n",
		"tunsrc set fc00::1\nsid flush\n",
		"tunsrc set fc00::1\nroute show\n",
		"tunsrc set fc00::1\nstats reset\n",
		"sid add fc00::1 behavior End\nsid add fc00::1/128 behavior End.T table 5\n",
		"route add fc00::/64 mode encap segs fc00::1 dev lo\n"
		"route add fc00::/64 mode encap segs fc00::2 dev lo metric 1024\n",
		"iface set bad/name seg6_enabled 1\n",
		"tunsrc set fc00::1 \"\n",
	};
	size_t i;

	(void)unused;
	running_state();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (seg6ctl(NULL, "sync", file(bad[i]), NULL, NULL) != EXIT_USAGE)
			fail_msg("not a usage error: %s", bad[i]);
		assert_int_equal(nsent + nreads, 0);
		/* -c finds the same, offline */
		assert_int_equal(seg6ctl(NULL, "-c", "sync", path, NULL), EXIT_USAGE);
	}
	/* A later replace overrides, as applying line by line would. */
	assert_int_equal(seg6ctl(NULL, "-c", "sync", file(
		"sid add fc00::1 behavior End\n"
		"sid replace fc00::1 behavior End.T table 5\n"
		"iface set lo seg6_enabled 1\niface set lo require_hmac 1\n"),
		NULL), EXIT_OK);
	assert_int_equal(nsent + nreads, 0);
}

/* A missing device fails the step that needs it, after the others. */
static void test_missing_device(void **unused)
{
	(void)unused;
	running_state();
	assert_int_equal(seg6ctl(NULL, "sync", file(
		"tunsrc set fc00::1\n"
		"route replace fc00:4::/64 mode encap segs fc00:ff::2 dev lo\n"
		"route replace fc00:6::/64 mode encap segs fc00:ff::2 dev nosuch0\n"
		"sid add fc00:e2::100 behavior End count\n"
		"sid add fc00:e2::200 behavior End\n"), NULL, NULL), EXIT_FAIL);
	assert_int_equal(nsent, 1);
	assert_int_equal(sent_cmd(0), SEG6X_CMD_SID_SET);
}

/* The kernel refusing a step: reported, the others taken, exit 1. */
static void test_kernel_refuses(void **unused)
{
	(void)unused;
	running_state();
	talk_error = -EINVAL;
	assert_int_equal(seg6ctl(NULL, "sync", file("tunsrc set fc00::9\n"),
				 NULL, NULL), EXIT_FAIL);
	/* tunsrc, then the route and the SID the file no longer has */
	assert_int_equal(nsent, 3);
}

/* An interface whose own setting the file drops follows "default" again. */
static void test_iface_unset(void **unused)
{
	struct nlattr *tb[SEG6X_A_MAX + 1];
	struct nl_msg *m;

	(void)unused;
	module_defaults();
	m = state(SEG6X_CMD_IFACE_GET);
	nla_put_u32(m, SEG6X_A_IFINDEX, 1);
	nla_put_string(m, SEG6X_A_IFNAME, "lo");
	nla_put_u8(m, SEG6X_A_SEG6_ENABLED, 1);
	nla_put_s8(m, SEG6X_A_REQUIRE_HMAC, 0);
	nla_put_u8(m, SEG6X_A_IFACE_EXPLICIT, SEG6X_IFACE_EXPLICIT_ENABLED);
	assert_int_equal(seg6ctl(NULL, "sync", file("tunsrc set ::\n"), NULL,
				 NULL), EXIT_OK);
	assert_int_equal(nsent, 1);
	assert_int_equal(sent_cmd(0), SEG6X_CMD_IFACE_SET);
	assert_int_equal(genlmsg_parse(sent_hdr(0), 0, tb, SEG6X_A_MAX, NULL), 0);
	assert_int_equal(nla_get_u32(tb[SEG6X_A_IFINDEX]), 1);
	assert_int_equal(nla_get_u8(tb[SEG6X_A_SEG6_ENABLED]), 0);
	assert_null(tb[SEG6X_A_REQUIRE_HMAC]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_identical_writes_nothing, teardown),
		cmocka_unit_test_teardown(test_apply, teardown),
		cmocka_unit_test_teardown(test_foreign_owner_untouched, teardown),
		cmocka_unit_test_teardown(test_dry_run_prints_plan, teardown),
		cmocka_unit_test_teardown(test_bad_file_changes_nothing, teardown),
		cmocka_unit_test_teardown(test_missing_device, teardown),
		cmocka_unit_test_teardown(test_kernel_refuses, teardown),
		cmocka_unit_test_teardown(test_iface_unset, teardown),
	};

	return cmocka_run_group_tests_name("sync", tests, setup, cleanup);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the seg6ctl objects that talk generic netlink (hmac,
 * iface, tunsrc, stats, info, sid) and of ctl.c under them: from the command
 * line to the SEG6X messages, and from canned replies to the text and
 * JSON that seg6ctl(8) documents. The transport of ctl_nl.c is replaced
 * by fakes that keep what would have been sent.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <netlink/genl/genl.h>

#include "cli.h"
#include "common.h"
#include "conn.h"
#include "ctl_nl.h"

#define MAX_MSGS	8

static struct nl_msg *sent[MAX_MSGS];
static int nsent;
static struct nl_msg *replies[MAX_MSGS];
static int nreplies;
static int talk_error;			/* what the kernel answers, if not 0 */
static const char *talk_extack;		/* and its text */

/* Fakes of ctl_nl.c (the rest in fake_ctl.c) */

int ctl_genl_talk(struct ctl *c, struct nl_msg *msg, ctl_genl_reply_fn cb,
		  void *arg)
{
	struct nlattr *tb[SEG6X_A_MAX + 1];
	int i;

	/* Replies made by reply() answer any request, reply_to(CMD) one. */
	for (i = 0; cb && i < nreplies; i++) {
		uint8_t to = genlmsg_hdr(nlmsg_hdr(replies[i]))->cmd;

		if (to && to != genlmsg_hdr(nlmsg_hdr(msg))->cmd)
			continue;
		assert_int_equal(genlmsg_parse(nlmsg_hdr(replies[i]), 0, tb,
					       SEG6X_A_MAX, NULL), 0);
		assert_int_equal(cb(tb, arg), 0);
	}
	assert_true(nsent < MAX_MSGS);
	sent[nsent++] = msg;
	if (talk_error)
		return ctl_fail_extack(c, talk_error,
				       talk_extack ? talk_extack : "");
	return 0;
}

/* Helpers */

static int teardown(void **state)
{
	(void)state;
	while (nsent)
		nlmsg_free(sent[--nsent]);
	while (nreplies)
		nlmsg_free(replies[--nreplies]);
	memset(&opts, 0, sizeof(opts));
	talk_error = 0;
	talk_extack = NULL;
	return 0;
}

/* Runs @fn on LINE (words split at blanks) with stderr silenced. */
static int run_fn(int (*fn)(int, char **), const char *line)
{
	int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
	char buf[512], *argv[16], *word;
	int argc = 0, status;

	snprintf(buf, sizeof(buf), "%s", line);
	for (word = strtok(buf, " "); word; word = strtok(NULL, " "))
		argv[argc++] = word;

	assert_true(saved >= 0 && null >= 0);
	fflush(stderr);
	dup2(null, STDERR_FILENO);
	close(null);
	status = fn(argc, argv);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	return status;
}

static const struct cli_object *object_run;

static int dispatch(int argc, char **argv)
{
	return cli_dispatch(object_run, object_run->cmds, argc, argv);
}

/* Runs "seg6ctl OBJECT LINE" with stderr silenced. */
static int run(const struct cli_object *object, const char *line)
{
	object_run = object;
	return run_fn(dispatch, line);
}

/* Every line of BAD, run as "seg6ctl OBJECT line", is a usage error. */
static void assert_usage_errors(const struct cli_object *object,
				const char *const *bad, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (run(object, bad[i]) != EXIT_USAGE)
			fail_msg("\"%s %s\" was not a usage error",
				 object->name, bad[i]);
}

/* run_fn(), returning what went to stdout (to free) and the status. */
static char *run_output_fn(int (*fn)(int, char **), const char *line,
			   int *status)
{
	int saved = dup(STDOUT_FILENO);
	FILE *tmp = tmpfile();
	char *out = calloc(1, 16384);

	assert_true(saved >= 0 && tmp && out);
	fflush(stdout);
	dup2(fileno(tmp), STDOUT_FILENO);
	*status = run_fn(fn, line);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(tmp);
	assert_true(fread(out, 1, 16383, tmp) < 16383);
	fclose(tmp);
	return out;
}

static char *run_output(const struct cli_object *object, const char *line,
			int *status)
{
	object_run = object;
	return run_output_fn(dispatch, line, status);
}

static struct nlattr **parse_sent(int i, uint8_t cmd, struct nlattr **tb)
{
	struct nlmsghdr *nlh;

	assert_true(i < nsent);
	nlh = nlmsg_hdr(sent[i]);
	assert_int_equal(genlmsg_hdr(nlh)->cmd, cmd);
	assert_int_equal(genlmsg_hdr(nlh)->version, SEG6X_GENL_VERSION);
	assert_int_equal(genlmsg_parse(nlh, 0, tb, SEG6X_A_MAX, NULL), 0);
	return tb;
}

/* A reply to requests of @cmd only (0: to any). */
static struct nl_msg *reply_to(uint8_t cmd)
{
	assert_true(nreplies < MAX_MSGS);
	ctl_genl_msg(conn(), cmd, 0, &replies[nreplies]);
	return replies[nreplies++];
}

static struct nl_msg *reply(void)
{
	return reply_to(0);
}

static char *secret_file(const char *content, size_t len)
{
	static char path[] = "/tmp/seg6ctl-test-XXXXXX";
	int fd;

	strcpy(path, "/tmp/seg6ctl-test-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, content, len), (ssize_t)len);
	close(fd);
	return path;
}

static int hmac_set_with(const char *content, size_t len)
{
	char *path = secret_file(content, len);
	char line[128];
	int status;

	snprintf(line, sizeof(line), "set 7 sha256 secret-file %s", path);
	status = run(&hmac_object, line);
	unlink(path);
	return status;
}

/* Tests */

static void test_hmac_set(void **state)
{
	struct nlattr *tb[SEG6X_A_MAX + 1];
	char secret[SEG6X_HMAC_SECRET_MAX + 1];

	(void)state;
	memset(secret, 'k', SEG6X_HMAC_SECRET_MAX);
	secret[SEG6X_HMAC_SECRET_MAX] = '\n';
	assert_int_equal(hmac_set_with(secret, sizeof(secret)), EXIT_OK);

	parse_sent(0, SEG6X_CMD_HMAC_SET, tb);
	assert_int_equal(nla_get_u32(tb[SEG6X_A_HMAC_KEYID]), 7);
	assert_int_equal(nla_get_u8(tb[SEG6X_A_HMAC_ALGO]), SEG6X_HMAC_ALGO_SHA256);
	/* The newline is not part of the secret. */
	assert_int_equal(nla_len(tb[SEG6X_A_HMAC_SECRET]), SEG6X_HMAC_SECRET_MAX);
	assert_memory_equal(nla_data(tb[SEG6X_A_HMAC_SECRET]), secret,
			    SEG6X_HMAC_SECRET_MAX);
}

static void test_hmac_bad_secrets(void **state)
{
	char big[SEG6X_HMAC_SECRET_MAX + 1];

	(void)state;
	memset(big, 'k', sizeof(big));
	assert_int_equal(hmac_set_with(big, sizeof(big)), EXIT_USAGE);
	assert_int_equal(hmac_set_with("", 0), EXIT_USAGE);
	assert_int_equal(hmac_set_with("\n", 1), EXIT_USAGE);
	assert_int_equal(run(&hmac_object, "set 7 sha256 secret-file /nonexistent/key"),
			 EXIT_FAIL);

	/* The batch owns stdin, so the secret cannot come from there. */
	opts.stdin_busy = true;
	assert_int_equal(run(&hmac_object, "set 7 sha256"), EXIT_USAGE);
	assert_int_equal(nsent, 0);
}

static void test_secret_file_mode(void **state)
{
	static const mode_t refused[] = { 0644, 0640, 0604, 0620, 0602, 0610 };
	char line[128], fifo[] = "/tmp/seg6ctl-test-fifo-XXXXXX";
	char *path;
	size_t i;

	(void)state;
	path = secret_file("kkkk\n", 5);
	snprintf(line, sizeof(line), "set 7 sha256 secret-file %s", path);
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		assert_int_equal(chmod(path, refused[i]), 0);
		if (run(&hmac_object, line) != EXIT_FAIL)
			fail_msg("mode %o was accepted", refused[i]);
	}
	assert_int_equal(chmod(path, 0400), 0);
	assert_int_equal(run(&hmac_object, line), EXIT_OK);
	unlink(path);
	assert_int_equal(nsent, 1);

	/* Not regular files: a directory, and a FIFO that nobody writes. */
	assert_int_equal(run(&hmac_object, "set 7 sha256 secret-file /tmp"), EXIT_FAIL);
	assert_non_null(mkdtemp(fifo));
	assert_int_equal(rmdir(fifo), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	snprintf(line, sizeof(line), "set 7 sha256 secret-file %s", fifo);
	assert_int_equal(run(&hmac_object, line), EXIT_FAIL);
	unlink(fifo);
	assert_int_equal(nsent, 1);
}

/* Runs "hmac set 7 sha256" with @fd as standard input. */
static int hmac_set_stdin(int fd)
{
	int saved = dup(STDIN_FILENO);
	int status;

	assert_true(saved >= 0);
	dup2(fd, STDIN_FILENO);
	status = run(&hmac_object, "set 7 sha256");
	dup2(saved, STDIN_FILENO);
	close(saved);
	return status;
}

static void test_secret_pipe_drained(void **state)
{
	char long_line[100 + 1];
	int p[2];
	char c;

	(void)state;
	/* Too long: refused, and nothing of it left behind in the pipe. */
	memset(long_line, 'k', sizeof(long_line) - 1);
	long_line[sizeof(long_line) - 1] = '\n';
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], long_line, sizeof(long_line)), (ssize_t)sizeof(long_line));
	assert_int_equal(write(p[1], "echo tail\n", 10), 10);
	close(p[1]);
	assert_int_equal(hmac_set_stdin(p[0]), EXIT_USAGE);
	assert_int_equal(read(p[0], &c, 1), 0);
	close(p[0]);
	assert_int_equal(nsent, 0);
}

/* A pseudo-terminal, or a skipped test: build chroots may have no /dev/pts. */
static void open_pty(int *master, int *slave)
{
	*master = posix_openpt(O_RDWR | O_NOCTTY);
	if (*master < 0)
		skip();
	if (grantpt(*master) || unlockpt(*master) ||
	    (*slave = open(ptsname(*master), O_RDWR | O_NOCTTY)) < 0) {
		close(*master);
		skip();
	}
}

static void test_secret_tty(void **state)
{
	struct nlattr *tb[SEG6X_A_MAX + 1];
	char long_line[100 + 1];
	struct termios t;
	int master, slave = -1, pending;

	(void)state;
	open_pty(&master, &slave);

	/* A line as typed: it becomes the secret, without its newline. */
	assert_int_equal(write(master, "s3cret\n", 7), 7);
	assert_int_equal(hmac_set_stdin(slave), EXIT_OK);
	parse_sent(0, SEG6X_CMD_HMAC_SET, tb);
	assert_int_equal(nla_len(tb[SEG6X_A_HMAC_SECRET]), 6);
	assert_memory_equal(nla_data(tb[SEG6X_A_HMAC_SECRET]), "s3cret", 6);
	/* Echo is back on afterwards. */
	assert_int_equal(tcgetattr(slave, &t), 0);
	assert_true(t.c_lflag & ECHO);

	/* Too long: refused, and the whole line read, none left for a shell. */
	memset(long_line, 'k', sizeof(long_line) - 1);
	long_line[sizeof(long_line) - 1] = '\n';
	assert_int_equal(write(master, long_line, sizeof(long_line)),
			 (ssize_t)sizeof(long_line));
	assert_int_equal(hmac_set_stdin(slave), EXIT_USAGE);
	assert_int_equal(ioctl(slave, FIONREAD, &pending), 0);
	assert_int_equal(pending, 0);
	assert_int_equal(nsent, 1);

	close(slave);
	close(master);
}

static void test_secret_tty_signal(void **state)
{
	struct termios t;
	int master, slave = -1, ws, i;
	pid_t pid;

	(void)state;
	open_pty(&master, &slave);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		hmac_set_stdin(slave);
		_exit(0);
	}
	/* Echo goes off once the child waits for the secret. */
	for (i = 0; i < 1000; i++) {
		assert_int_equal(tcgetattr(slave, &t), 0);
		if (!(t.c_lflag & ECHO))
			break;
		usleep(10000);
	}
	assert_false(t.c_lflag & ECHO);
	kill(pid, SIGINT);
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	assert_true(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGINT);
	/* Dying of ^C, it gave the terminal its echo back. */
	assert_int_equal(tcgetattr(slave, &t), 0);
	assert_true(t.c_lflag & ECHO);
	close(slave);
	close(master);
}

static void test_hmac_usage(void **state)
{
	static const char *const bad[] = {
		"set", "set 7", "set 0 sha256", "set -1 sha256", "set 4294967296 sha1",
		"set 7 md5", "set 7 SHA256", "set 7 sha256 secret-file",
		"set 7 sha256 secret /tmp/x", "set 7 sha256 secret-file a secret-file b",
		"del", "del 0", "del 7 8", "del x", "show all", "rotate",
	};

	(void)state;
	assert_usage_errors(&hmac_object, bad, ARRAY_SIZE(bad));
	assert_int_equal(nsent, 0);
}

static void test_hmac_del_show(void **state)
{
	struct nlattr *tb[SEG6X_A_MAX + 1];
	struct nl_msg *r;
	char *out;
	int status;

	(void)state;
	assert_int_equal(run(&hmac_object, "del 4294967295"), EXIT_OK);
	parse_sent(0, SEG6X_CMD_HMAC_DEL, tb);
	assert_true(nla_get_u32(tb[SEG6X_A_HMAC_KEYID]) == UINT32_MAX);

	r = reply();
	nla_put_u32(r, SEG6X_A_HMAC_KEYID, 7);
	nla_put_u8(r, SEG6X_A_HMAC_ALGO, SEG6X_HMAC_ALGO_SHA256);
	r = reply();
	nla_put_u32(r, SEG6X_A_HMAC_KEYID, 8);
	nla_put_u8(r, SEG6X_A_HMAC_ALGO, SEG6X_HMAC_ALGO_SHA1);
	opts.json = true;
	out = run_output(&hmac_object, "show", &status);
	assert_int_equal(status, EXIT_OK);
	assert_string_equal(out, "[{\"keyid\": 7, \"algo\": \"sha256\"}, "
				 "{\"keyid\": 8, \"algo\": \"sha1\"}]\n");
	free(out);
	assert_true(nlmsg_hdr(sent[1])->nlmsg_flags & NLM_F_DUMP);
}

static void test_iface_set(void **state)
{
	struct nlattr *tb[SEG6X_A_MAX + 1];

	(void)state;
	assert_int_equal(run(&iface_object, "set default require_hmac -1"), EXIT_OK);
	parse_sent(0, SEG6X_CMD_IFACE_SET, tb);
	assert_int_equal(nla_get_u32(tb[SEG6X_A_IFINDEX]), 0);
	assert_int_equal(nla_len(tb[SEG6X_A_REQUIRE_HMAC]), 1);
	assert_int_equal(nla_get_s8(tb[SEG6X_A_REQUIRE_HMAC]), -1);
	assert_null(tb[SEG6X_A_SEG6_ENABLED]);

	assert_int_equal(run(&iface_object, "set lo seg6_enabled 1 require_hmac 0"), EXIT_OK);
	parse_sent(1, SEG6X_CMD_IFACE_SET, tb);
	assert_int_equal(nla_get_u32(tb[SEG6X_A_IFINDEX]), if_nametoindex("lo"));
	assert_int_equal(nla_get_u8(tb[SEG6X_A_SEG6_ENABLED]), 1);
	assert_int_equal(nla_get_s8(tb[SEG6X_A_REQUIRE_HMAC]), 0);

	/* Hyphens, or nothing, where the keys have underscores. */
	assert_int_equal(run(&iface_object, "set lo seg6-enabled 0 requirehmac 1"), EXIT_OK);
	parse_sent(2, SEG6X_CMD_IFACE_SET, tb);
	assert_int_equal(nla_get_u8(tb[SEG6X_A_SEG6_ENABLED]), 0);
	assert_int_equal(nla_get_s8(tb[SEG6X_A_REQUIRE_HMAC]), 1);
}

static void test_iface_usage(void **state)
{
	static const char *const bad[] = {
		"set", "set lo", "set lo seg6_enabled", "set lo seg6_enabled 2",
		"set lo seg6_enabled -1", "set lo seg6_enabled yes",
		"set lo require_hmac 2", "set lo require_hmac -2",
		"set lo require_hmac 1x", "set lo seg6_enabled 1 seg6_enabled 0",
		"set lo seg6-enabled 1 seg6_enabled 0", "set lo seg6__enabled 1",
		"set lo seg6_enabled_ 1", "set lo -seg6enabled 1",
		"set lo mtu 1500", "show lo eth0", "up",
	};

	(void)state;
	assert_usage_errors(&iface_object, bad, ARRAY_SIZE(bad));
	/* A device that does not exist is the system's refusal. */
	assert_int_equal(run(&iface_object, "set nosuchdev0 seg6_enabled 1"), EXIT_FAIL);
	assert_int_equal(run(&iface_object, "show nosuchdev0"), EXIT_FAIL);
	assert_int_equal(nsent, 0);
}

static void test_iface_show(void **state)
{
	struct nlattr *tb[SEG6X_A_MAX + 1];
	struct nlattr *nest;
	struct nl_msg *r;
	char *out;
	int status;

	(void)state;
	r = reply();
	nla_put_u32(r, SEG6X_A_IFINDEX, 0);
	nla_put_string(r, SEG6X_A_IFNAME, "default");
	nla_put_u8(r, SEG6X_A_SEG6_ENABLED, 0);
	nla_put_s8(r, SEG6X_A_REQUIRE_HMAC, -1);
	r = reply();
	nla_put_u32(r, SEG6X_A_IFINDEX, if_nametoindex("lo"));
	nla_put_string(r, SEG6X_A_IFNAME, "lo");
	nla_put_u8(r, SEG6X_A_SEG6_ENABLED, 1);
	nla_put_s8(r, SEG6X_A_REQUIRE_HMAC, 1);
	nla_put_u8(r, SEG6X_A_IFACE_EXPLICIT, 1);
	nest = nla_nest_start(r, SEG6X_A_STATS);
	nla_put_u64(r, SEG6X_STAT_DROP_HMAC_MISSING, 4);
	nla_put_u64(r, SEG6X_STAT_DROP_SID, 2);
	nla_nest_end(r, nest);

	opts.json = true;
	out = run_output(&iface_object, "show", &status);
	assert_int_equal(status, EXIT_OK);
	assert_string_equal(out,
		"[{\"ifname\": \"default\", \"seg6_enabled\": 0, \"require_hmac\": -1}, "
		"{\"ifname\": \"lo\", \"seg6_enabled\": 1, \"require_hmac\": 1}]\n");
	free(out);
	assert_true(nlmsg_hdr(sent[0])->nlmsg_flags & NLM_F_DUMP);

	opts.json = false;
	out = run_output(&iface_object, "show", &status);
	assert_string_equal(out, "default seg6_enabled 0 require_hmac -1\n"
				 "lo seg6_enabled 1 require_hmac 1 explicit\n");
	free(out);

	/* One interface: a plain request naming it. */
	out = run_output(&iface_object, "show lo", &status);
	free(out);
	parse_sent(2, SEG6X_CMD_IFACE_GET, tb);
	assert_false(nlmsg_hdr(sent[2])->nlmsg_flags & NLM_F_DUMP);
	assert_int_equal(nla_get_u32(tb[SEG6X_A_IFINDEX]), if_nametoindex("lo"));

	/* -s: an interface's drops, by the names of stats. */
	opts.stats = true;
	out = run_output(&iface_object, "show", &status);
	assert_string_equal(out, "default seg6_enabled 0 require_hmac -1\n"
		"lo seg6_enabled 1 require_hmac 1 explicit drop "
		"hmac_missing 4 hmac_invalid 0 hmac_nokey 0 bad_srh 0 "
		"no_route 0 hop_limit 0 nomem 0 sid 2\n");
	free(out);
	opts.json = true;
	out = run_output(&iface_object, "show", &status);
	assert_non_null(strstr(out, "\"require_hmac\": 1, \"drop\": "
		"{\"hmac_missing\": 4, "));
	assert_non_null(strstr(out, "\"sid\": 2}}]\n"));
	free(out);
	opts.json = false;
	opts.stats = false;
}

static void test_tunsrc(void **state)
{
	struct nlattr *tb[SEG6X_A_MAX + 1];
	struct in6_addr addr;
	struct nl_msg *r;
	char *out;
	int status;

	(void)state;
	assert_int_equal(run(&tunsrc_object, "set fc00::1"), EXIT_OK);
	parse_sent(0, SEG6X_CMD_TUNSRC_SET, tb);
	inet_pton(AF_INET6, "fc00::1", &addr);
	assert_int_equal(nla_len(tb[SEG6X_A_TUNSRC]), sizeof(addr));
	assert_memory_equal(nla_data(tb[SEG6X_A_TUNSRC]), &addr, sizeof(addr));

	assert_int_equal(run(&tunsrc_object, "set ::"), EXIT_OK);
	assert_int_equal(run(&tunsrc_object, "set 10.0.0.1"), EXIT_USAGE);
	/* what the module refuses, refused before it is asked */
	assert_int_equal(run(&tunsrc_object, "set ff02::1"), EXIT_USAGE);
	assert_int_equal(run(&tunsrc_object, "set ::1"), EXIT_USAGE);
	assert_int_equal(run(&tunsrc_object, "set ::ffff:10.0.0.1"), EXIT_USAGE);
	assert_int_equal(run(&tunsrc_object, "set fc00::/64"), EXIT_USAGE);
	assert_int_equal(run(&tunsrc_object, "set fc00::1 fc00::2"), EXIT_USAGE);
	assert_int_equal(run(&tunsrc_object, "set"), EXIT_USAGE);
	assert_int_equal(run(&tunsrc_object, "get"), EXIT_USAGE);

	/* RFC 5952: zeros compressed, lower case. */
	r = reply();
	inet_pton(AF_INET6, "FC00:0:0:0:0:0:0:0001", &addr);
	nla_put(r, SEG6X_A_TUNSRC, sizeof(addr), &addr);
	opts.json = true;
	out = run_output(&tunsrc_object, "show", &status);
	assert_int_equal(status, EXIT_OK);
	assert_string_equal(out, "{\"tunsrc\": \"fc00::1\"}\n");
	free(out);
	opts.json = false;
	out = run_output(&tunsrc_object, "", &status);
	assert_string_equal(out, "tunsrc fc00::1\n");
	free(out);
}

static int save_tunsrc(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return tunsrc_save();
}

static int save_iface(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return iface_save();
}

static int save_hmac(int argc, char **argv)
{
	return hmac_save(argc ? argv[0] : "/etc/seg6x/keys");
}

static void put_iface(const char *name, uint32_t ifindex, uint8_t enabled,
		      int8_t require, int explicit)
{
	struct nl_msg *r = reply();

	nla_put_u32(r, SEG6X_A_IFINDEX, ifindex);
	nla_put_string(r, SEG6X_A_IFNAME, name);
	nla_put_u8(r, SEG6X_A_SEG6_ENABLED, enabled);
	nla_put_s8(r, SEG6X_A_REQUIRE_HMAC, require);
	if (explicit >= 0)
		nla_put_u8(r, SEG6X_A_IFACE_EXPLICIT, (uint8_t)explicit);
}

static void test_save(void **state)
{
	struct nlattr *tb[SEG6X_A_MAX + 1];
	struct in6_addr addr;
	struct nl_msg *r;
	char *out;
	int status;

	(void)state;
	/* Nothing set: "::", which -b sets back as it is. */
	out = run_output_fn(save_tunsrc, "", &status);
	assert_int_equal(status, EXIT_OK);
	assert_string_equal(out, "tunsrc set ::\n");
	free(out);
	r = reply();
	inet_pton(AF_INET6, "fc00:ff::1", &addr);
	nla_put(r, SEG6X_A_TUNSRC, sizeof(addr), &addr);
	out = run_output_fn(save_tunsrc, "", &status);
	assert_string_equal(out, "tunsrc set fc00:ff::1\n");
	free(out);
	teardown(state);

	/*
	 * default first, then only the interfaces with settings of their own,
	 * with only the fields they set (the others follow default).
	 */
	put_iface("default", 0, 1, -1, 0);
	put_iface("lo", 1, 0, 1, SEG6X_IFACE_EXPLICIT_ENABLED |
				 SEG6X_IFACE_EXPLICIT_HMAC);
	put_iface("eth9", 9, 1, -1, 0);
	put_iface("eth10", 10, 1, -1, -1);
	put_iface("eth11", 11, 1, 1, SEG6X_IFACE_EXPLICIT_HMAC);
	put_iface("eth12", 12, 0, -1, SEG6X_IFACE_EXPLICIT_ENABLED);
	out = run_output_fn(save_iface, "", &status);
	assert_int_equal(status, EXIT_OK);
	assert_string_equal(out, "iface set default seg6_enabled 1 require_hmac -1\n"
				 "iface set lo seg6_enabled 0 require_hmac 1\n"
				 "iface set eth11 require_hmac 1\n"
				 "iface set eth12 seg6_enabled 0\n");
	free(out);
	parse_sent(0, SEG6X_CMD_IFACE_GET, tb);
	assert_false(nlmsg_hdr(sent[0])->nlmsg_flags & NLM_F_DUMP);
	assert_int_equal(nla_get_u32(tb[SEG6X_A_IFINDEX]), 0);
	assert_true(nlmsg_hdr(sent[1])->nlmsg_flags & NLM_F_DUMP);
	teardown(state);

	/* Keys: ids and algorithms, the secret to be found in a file. */
	r = reply();
	nla_put_u32(r, SEG6X_A_HMAC_KEYID, 7);
	nla_put_u8(r, SEG6X_A_HMAC_ALGO, SEG6X_HMAC_ALGO_SHA256);
	r = reply();
	nla_put_u32(r, SEG6X_A_HMAC_KEYID, 4294967295u);
	nla_put_u8(r, SEG6X_A_HMAC_ALGO, SEG6X_HMAC_ALGO_SHA1);
	out = run_output_fn(save_hmac, "", &status);
	assert_int_equal(status, EXIT_OK);
	assert_string_equal(out,
		"hmac set 7 sha256 secret-file /etc/seg6x/keys/7\n"
		"hmac set 4294967295 sha1 secret-file /etc/seg6x/keys/4294967295\n");
	free(out);
	assert_true(nlmsg_hdr(sent[0])->nlmsg_flags & NLM_F_DUMP);
	out = run_output_fn(save_hmac, "/run/my#keys", &status);
	assert_string_equal(out,
		"hmac set 7 sha256 secret-file \"/run/my#keys/7\"\n"
		"hmac set 4294967295 sha1 secret-file \"/run/my#keys/4294967295\"\n");
	free(out);
}

static void test_stats(void **state)
{
	struct nlattr *nest;
	struct nl_msg *r;
	char *out;
	int status;

	(void)state;
	r = reply();
	nest = nla_nest_start(r, SEG6X_A_STATS);
	nla_put_u64(r, SEG6X_STAT_ENCAP, 5);
	nla_put_u64(r, SEG6X_STAT_LOCAL, 1);
	nla_put_u64(r, SEG6X_STAT_DROP_NOMEM, 3);
	/* A counter from a newer module is skipped. */
	nla_put_u64(r, SEG6X_STAT_MAX + 1, 99);
	nla_nest_end(r, nest);

	opts.json = true;
	out = run_output(&stats_object, "", &status);
	assert_int_equal(status, EXIT_OK);
	assert_string_equal(out,
		"{\"encap\": 5, \"inline\": 0, \"end\": 0, \"decap\": 0, "
		"\"hmac_signed\": 0, \"hmac_verified\": 0, \"local\": 1, \"passed\": 0, "
		"\"sid\": {\"End\": 0, \"End.X\": 0, \"End.T\": 0, \"End.DX2\": 0, "
		"\"End.DX6\": 0, \"End.DX4\": 0, \"End.DT6\": 0, \"End.DT4\": 0, "
		"\"End.DT46\": 0, \"End.B6.Encaps\": 0, \"End.B6.Encaps.Red\": 0}, "
		"\"drop\": {\"disabled\": 0, \"hmac_missing\": 0, "
		"\"hmac_invalid\": 0, \"hmac_nokey\": 0, \"bad_srh\": 0, "
		"\"no_route\": 0, \"hop_limit\": 0, \"nomem\": 3, \"sid\": 0}}\n");
	free(out);

	assert_int_equal(run(&stats_object, "reset"), EXIT_OK);
	assert_int_equal(genlmsg_hdr(nlmsg_hdr(sent[1]))->cmd, SEG6X_CMD_STATS_RESET);
	assert_int_equal(run(&stats_object, "reset now"), EXIT_USAGE);
	assert_int_equal(run(&stats_object, "clear"), EXIT_USAGE);
	assert_int_equal(run(&stats_object, "show format xml"), EXIT_USAGE);
	assert_int_equal(run(&stats_object, "show format"), EXIT_USAGE);
}

/*
 * Starts a SID reply to @cmd's requests (0: any): its nest, prefix /128
 * and behaviour, in *@nest; the caller adds attributes and ends the nest.
 */
static struct nl_msg *sid_reply(uint8_t cmd, const char *prefix,
				uint16_t behavior, struct nlattr **nest)
{
	struct nl_msg *r = reply_to(cmd);
	struct in6_addr a;

	*nest = nla_nest_start(r, SEG6X_A_SID);
	inet_pton(AF_INET6, prefix, &a);
	nla_put(r, SEG6X_SID_PREFIX, sizeof(a), &a);
	nla_put_u8(r, SEG6X_SID_PREFIX_LEN, 128);
	nla_put_u16(r, SEG6X_SID_BEHAVIOR, behavior);
	return r;
}

/* Per-SID counters in @r. */
static void put_counters(struct nl_msg *r, uint64_t packets, uint64_t bytes,
			 uint64_t errors)
{
	struct nlattr *cnt = nla_nest_start(r, SEG6X_SID_COUNTERS);

	nla_put_u64(r, SEG6X_SID_CNT_PACKETS, packets);
	nla_put_u64(r, SEG6X_SID_CNT_BYTES, bytes);
	nla_put_u64(r, SEG6X_SID_CNT_ERRORS, errors);
	nla_nest_end(r, cnt);
}

/*
 * Keeps @out in the file that $SEG6X_PROM_OUT names, if set: "make check"
 * has test_prometheus.py parse it with the Prometheus client's parser.
 */
static void keep_exposition(const char *out)
{
	const char *path = getenv("SEG6X_PROM_OUT");
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(out, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* The replies of a stats show format prometheus. */
static void prometheus_replies(void)
{
	struct nlattr *nest;
	struct nl_msg *r;

	r = reply_to(SEG6X_CMD_STATS_GET);
	nest = nla_nest_start(r, SEG6X_A_STATS);
	nla_put_u64(r, SEG6X_STAT_ENCAP, 5);
	nla_put_u64(r, SEG6X_STAT_DROP_NOMEM, 3);
	nla_put_u64(r, SEG6X_STAT_SID_END_DT6, 7);
	nla_nest_end(r, nest);
	/* a SID with counters, and one without */
	r = sid_reply(SEG6X_CMD_SID_GET, "fc00:ff::2", SEG6X_BEHAVIOR_END_DT6,
		      &nest);
	put_counters(r, 7, 700, 1);
	nla_nest_end(r, nest);
	r = sid_reply(SEG6X_CMD_SID_GET, "fc00:ff::3", SEG6X_BEHAVIOR_END,
		      &nest);
	nla_nest_end(r, nest);
	/* the default (no drops of its own) and an interface with drops */
	r = reply_to(SEG6X_CMD_IFACE_GET);
	nla_put_u32(r, SEG6X_A_IFINDEX, 0);
	nla_put_string(r, SEG6X_A_IFNAME, "default");
	nla_put_u8(r, SEG6X_A_SEG6_ENABLED, 1);
	nla_put_s8(r, SEG6X_A_REQUIRE_HMAC, 0);
	r = reply_to(SEG6X_CMD_IFACE_GET);
	nla_put_u32(r, SEG6X_A_IFINDEX, 7);
	nla_put_string(r, SEG6X_A_IFNAME, "eth\"0");
	nla_put_u8(r, SEG6X_A_SEG6_ENABLED, 1);
	nla_put_s8(r, SEG6X_A_REQUIRE_HMAC, 0);
	nest = nla_nest_start(r, SEG6X_A_STATS);
	nla_put_u64(r, SEG6X_STAT_DROP_BAD_SRH, 9);
	nla_nest_end(r, nest);
}

/*
 * stats format prometheus: the namespace's and the SIDs' counters, a
 * family per event, drops and SID behaviours by label. test_prometheus.py
 * checks the whole exposition.
 */
static void test_stats_prometheus(void **state)
{
	char *out;
	int status;

	(void)state;
	prometheus_replies();
	out = run_output(&stats_object, "show format prometheus", &status);
	assert_int_equal(status, EXIT_OK);
	assert_non_null(strstr(out, "# HELP seg6x_encap_total Packets "));
	assert_non_null(strstr(out, "\n# TYPE seg6x_encap_total counter\n"
				    "seg6x_encap_total 5\n"));
	assert_non_null(strstr(out, "\nseg6x_passed_total 0\n"));
	assert_non_null(strstr(out, "\nseg6x_drops_total{reason=\"nomem\"} 3\n"));
	assert_null(strstr(out, "netns"));
	free(out);

	/* With -n: every sample carries netns, escaped as a label value. */
	teardown(state);
	prometheus_replies();
	opts.netns = "r\"1\\2";
	out = run_output(&stats_object, "show format prometheus", &status);
	opts.netns = NULL;
	assert_int_equal(status, EXIT_OK);
	assert_non_null(strstr(out, "\nseg6x_encap_total{netns=\"r\\\"1\\\\2\"} 5\n"));
	assert_non_null(strstr(out,
		"seg6x_drops_total{netns=\"r\\\"1\\\\2\",reason=\"nomem\"} 3\n"));
	assert_non_null(strstr(out,
		"seg6x_sid_behavior_packets_total{netns=\"r\\\"1\\\\2\",behavior=\"End.DT6\"} 7\n"));
	assert_non_null(strstr(out,
		"seg6x_sid_bytes_total{netns=\"r\\\"1\\\\2\",sid=\"fc00:ff::2/128\"} 700\n"));
	assert_null(strstr(out, "fc00:ff::3"));
	assert_non_null(strstr(out,
		"seg6x_iface_drops_total{netns=\"r\\\"1\\\\2\",ifname=\"eth\\\"0\",reason=\"bad_srh\"} 9\n"));
	assert_null(strstr(out, "ifname=\"default\""));
	keep_exposition(out);
	free(out);
}

/* libseg6x's behaviour names: those of the UAPI's list, both ways. */
static void test_behavior_names(void **state)
{
	unsigned int b;

	(void)state;
	for (b = 1; b <= SEG6X_BEHAVIOR_MAX; b++) {
		assert_non_null(ctl_behavior_name(b));
		assert_int_equal(ctl_behavior_lookup(ctl_behavior_name(b)), b);
	}
	assert_string_equal(ctl_behavior_name(SEG6X_BEHAVIOR_END_DX2), "End.DX2");
	assert_int_equal(ctl_behavior_lookup("End.B6.Encaps.Red"),
			 SEG6X_BEHAVIOR_END_B6_ENCAPS_RED);
	assert_null(ctl_behavior_name(SEG6X_BEHAVIOR_UNSPEC));
	assert_null(ctl_behavior_name(SEG6X_BEHAVIOR_MAX + 1));
	assert_null(ctl_behavior_name(~0u));
	assert_int_equal(ctl_behavior_lookup("End.Y"), -1);
	assert_int_equal(ctl_behavior_lookup("end.x"), -1);
	assert_int_equal(ctl_behavior_lookup("End.B6"), -1);
	assert_int_equal(ctl_behavior_lookup(""), -1);

	/* seg6ctl sid help names every behaviour of the list (bash
	 * completion offers what it names).
	 */
	for (b = 1; b <= SEG6X_BEHAVIOR_MAX; b++) {
		char word[48];

		snprintf(word, sizeof(word), " %s ", ctl_behavior_name(b));
		assert_non_null(strstr(sid_object.usage, word));
	}
}

/* seg6ctl sid: what add and replace send, usage errors, show's output. */
static void test_sid(void **state)
{
	struct nlattr *tb[SEG6X_A_MAX + 1], *stb[SEG6X_SID_MAX + 1];
	const char *const bad[] = {
		"add fc00::1", "add fc00::1 behavior End.Y",
		"add fc00::1 behavior End.X", "add fc00::1 behavior End table 5",
		"add fc00::1 behavior End.DX6 nh6 fc00::2 flavors psp",
		"add fc00::1 behavior End flavors psp,bogus",
		"add fc00::1 behavior End lblen 32",
		"add fc00::1 behavior End flavors next-csid lblen 12",
		"add fc00::1 behavior End.DT6", "add fc00::1/0 behavior End",
		"add fc00::1 behavior End count count",
		"add fc00::1 count behavior End count",
		"add fc00::1 behavior End.X count nh6",
		"add fc00::1 behavior End.B6.Encaps.Red segs fc00::5 hmac 3",
		/* what the module refuses, found before it is asked */
		"add fc00::1 behavior End.X nh6 ff02::1",
		"add fc00::1 behavior End.DX6 nh6 ::",
		"add fc00::1 behavior End.DX4 nh4 0.1.2.3",
		"add fc00::1 behavior End.DX4 nh4 224.0.0.5",
		"add fc00::1 behavior End.DX4 nh4 255.255.255.255",
		"add fc00::1 behavior End.B6.Encaps segs fc00::5,ff02::2",
		"add fc00::1 behavior End.B6.Encaps segs ::1",
		"add fc00::1 behavior End.B6.Encaps segs ::ffff:10.0.0.1",
		"add fc00::1 behavior End flavors next-csid lblen 120",
		"add fc00::1 behavior End flavors next-csid lblen 64 nflen 72",
		"del", "flush now",
	};
	struct in6_addr a;

	(void)state;
	assert_int_equal(run(&sid_object, "add fc00::1/64 behavior End.X nh6 "
			     "fc00::2 flavors psp,usd count"), EXIT_OK);
	parse_sent(0, SEG6X_CMD_SID_SET, tb);
	assert_non_null(tb[SEG6X_A_SID]);
	assert_int_equal(nla_parse_nested(stb, SEG6X_SID_MAX, tb[SEG6X_A_SID],
					  NULL), 0);
	inet_pton(AF_INET6, "fc00::1", &a);
	assert_memory_equal(nla_data(stb[SEG6X_SID_PREFIX]), &a, sizeof(a));
	assert_int_equal(nla_get_u8(stb[SEG6X_SID_PREFIX_LEN]), 64);
	assert_int_equal(nla_get_u16(stb[SEG6X_SID_BEHAVIOR]),
			 SEG6X_BEHAVIOR_END_X);
	inet_pton(AF_INET6, "fc00::2", &a);
	assert_memory_equal(nla_data(stb[SEG6X_SID_NH6]), &a, sizeof(a));
	assert_int_equal(nla_get_u32(stb[SEG6X_SID_FLAVORS]),
			 SEG6X_FLV_PSP | SEG6X_FLV_USD);
	assert_non_null(stb[SEG6X_SID_COUNT]);
	assert_null(stb[SEG6X_SID_REPLACE]);
	assert_null(stb[SEG6X_SID_OIF]);

	assert_int_equal(run(&sid_object, "replace fc00::1 behavior "
			     "End.B6.Encaps.Red segs fc00::5,fc00::6"), EXIT_OK);
	parse_sent(1, SEG6X_CMD_SID_SET, tb);
	assert_int_equal(nla_parse_nested(stb, SEG6X_SID_MAX, tb[SEG6X_A_SID],
					  NULL), 0);
	assert_non_null(stb[SEG6X_SID_REPLACE]);
	assert_int_equal(nla_get_u8(stb[SEG6X_SID_PREFIX_LEN]), 128);
	assert_int_equal(nla_len(stb[SEG6X_SID_SEGS]), 32);

	assert_usage_errors(&sid_object, bad, ARRAY_SIZE(bad));
	assert_int_equal(nsent, 2);	/* nothing reached the kernel */
}

static void test_sid_show(void **state)
{
	struct nlattr *nest;
	struct nl_msg *r;
	char *out;
	int status;

	(void)state;
	r = sid_reply(0, "fc00:ff::2", SEG6X_BEHAVIOR_END_T, &nest);
	nla_put_u32(r, SEG6X_SID_TABLE, 100);
	nla_put_u32(r, SEG6X_SID_FLAVORS, SEG6X_FLV_PSP);
	nla_put_flag(r, SEG6X_SID_COUNT);
	put_counters(r, 12, 1488, 1);
	nla_nest_end(r, nest);

	opts.json = true;
	out = run_output(&sid_object, "show", &status);
	assert_int_equal(status, EXIT_OK);
	assert_string_equal(out,
		"[{\"sid\": \"fc00:ff::2/128\", \"behavior\": \"End.T\", "
		"\"table\": 100, \"flavors\": [\"psp\"], \"packets\": 12, "
		"\"bytes\": 1488, \"errors\": 1}]\n");
	free(out);
	parse_sent(0, SEG6X_CMD_SID_GET, (struct nlattr *[SEG6X_A_MAX + 1]){ 0 });
	assert_true(nlmsg_hdr(sent[0])->nlmsg_flags & NLM_F_DUMP);

	opts.json = false;
	out = run_output(&sid_object, "show", &status);
	assert_string_equal(out, "fc00:ff::2/128 behavior End.T table 100 "
			    "flavors psp count packets 12 bytes 1488 errors 1\n");
	free(out);
}

static void test_info(void **state)
{
	struct nl_msg *r;
	char *out;
	int status;

	(void)state;
	r = reply();
	nla_put_string(r, SEG6X_A_VERSION, SEG6X_VERSION);
	nla_put_u16(r, SEG6X_A_LWT_TYPE, 9);
	nla_put_u8(r, SEG6X_A_ALLOW_INLINE, 1);
	nla_put_u32(r, SEG6X_A_MAX_SEGS, SEG6X_MAX_SEGS);
	nla_put_u8(r, SEG6X_A_DEF_SEG6_ENABLED, 1);
	nla_put_s8(r, SEG6X_A_DEF_REQUIRE_HMAC, -1);

	opts.json = true;
	out = run_output(&info_object, "", &status);
	assert_int_equal(status, EXIT_OK);
	assert_string_equal(out,
		"{\"version\": \"" SEG6X_VERSION "\", "
		"\"tools_version\": \"" SEG6X_VERSION "\", \"json_schema\": 1, "
		"\"lwt_type\": 9, "
		"\"lwt_type_name\": \"ioam6\", \"allow_inline\": true, "
		"\"max_segs\": 64, \"seg6_enabled_default\": 1, "
		"\"require_hmac_default\": -1}\n");
	free(out);

	opts.json = false;
	out = run_output(&info_object, "", &status);
	assert_string_equal(out, "version " SEG6X_VERSION "\ntools_version "
				 SEG6X_VERSION "\njson_schema 1\nlwt_type 9 (ioam6)\n"
				 "allow_inline 1\n"
				 "max_segs 64\nseg6_enabled_default 1\n"
				 "require_hmac_default -1\n");
	free(out);
	assert_int_equal(run(&info_object, "extra"), EXIT_USAGE);
}

static void test_abbreviations(void **state)
{
	struct nlattr *tb[SEG6X_A_MAX + 1];
	char *out;
	int status;

	(void)state;
	/* "s" is show, the first command it begins (as ip reads it), and
	 * show takes no such arguments: nothing is sent.
	 */
	assert_int_equal(run(&hmac_object, "s 7 sha256"), EXIT_USAGE);
	assert_int_equal(run(&iface_object, "s default seg6_enabled 1"), EXIT_USAGE);
	assert_int_equal(nsent, 0);

	assert_int_equal(run(&iface_object, "se default seg6_enabled 1"), EXIT_OK);
	parse_sent(0, SEG6X_CMD_IFACE_SET, tb);
	assert_int_equal(run(&hmac_object, "d 7"), EXIT_OK);
	parse_sent(1, SEG6X_CMD_HMAC_DEL, tb);
	assert_int_equal(run(&hmac_object, "delete 8"), EXIT_OK);
	parse_sent(2, SEG6X_CMD_HMAC_DEL, tb);
	assert_int_equal(nla_get_u32(tb[SEG6X_A_HMAC_KEYID]), 8);
	assert_int_equal(run(&tunsrc_object, "sh"), EXIT_OK);
	parse_sent(3, SEG6X_CMD_TUNSRC_GET, tb);
	out = run_output(&stats_object, "r", &status);
	assert_int_equal(status, EXIT_OK);
	free(out);
	parse_sent(4, SEG6X_CMD_STATS_RESET, tb);
	assert_int_equal(run(&info_object, "x"), EXIT_USAGE);
	out = run_output(&info_object, "h", &status);
	assert_int_equal(status, EXIT_OK);
	assert_true(!strncmp(out, "Usage: seg6ctl info", 19));
	free(out);
}

static void test_help(void **state)
{
	const struct cli_object *const objects[] = {
		&hmac_object, &tunsrc_object, &iface_object, &stats_object,
		&info_object,
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(objects) / sizeof(objects[0]); i++) {
		int status;
		char *out = run_output(objects[i], "help", &status);

		assert_int_equal(status, EXIT_OK);
		assert_true(!strncmp(out, "Usage: seg6ctl ", 15));
		free(out);
	}
	assert_int_equal(nsent, 0);
}

/* A refusal of the kernel: exit status 1, its text and the errno's. */
static void test_kernel_refusal(void **state)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	char err[256] = "";
	int status;

	(void)state;
	assert_true(tmp && saved >= 0);
	talk_error = -EINVAL;
	talk_extack = "tunnel source must be unicast";
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	status = cli_dispatch(&tunsrc_object, tunsrc_object.cmds, 2,
			      (char *[]){ "set", "fc00::1", NULL });
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	assert_true(fread(err, 1, sizeof(err) - 1, tmp) > 0);
	fclose(tmp);
	assert_int_equal(status, EXIT_FAIL);
	assert_string_equal(err, "seg6ctl: tunnel source must be unicast "
				 "(Invalid argument)\n");

	/* Without a text, the errno's alone. */
	talk_extack = NULL;
	talk_error = -EPERM;
	assert_int_equal(run(&stats_object, "reset"), EXIT_FAIL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_hmac_set, teardown),
		cmocka_unit_test_teardown(test_hmac_bad_secrets, teardown),
		cmocka_unit_test_teardown(test_secret_file_mode, teardown),
		cmocka_unit_test_teardown(test_secret_pipe_drained, teardown),
		cmocka_unit_test_teardown(test_secret_tty, teardown),
		cmocka_unit_test_teardown(test_secret_tty_signal, teardown),
		cmocka_unit_test_teardown(test_hmac_usage, teardown),
		cmocka_unit_test_teardown(test_hmac_del_show, teardown),
		cmocka_unit_test_teardown(test_iface_set, teardown),
		cmocka_unit_test_teardown(test_iface_usage, teardown),
		cmocka_unit_test_teardown(test_iface_show, teardown),
		cmocka_unit_test_teardown(test_tunsrc, teardown),
		cmocka_unit_test_teardown(test_save, teardown),
		cmocka_unit_test_teardown(test_stats, teardown),
		cmocka_unit_test_teardown(test_stats_prometheus, teardown),
		cmocka_unit_test_teardown(test_behavior_names, teardown),
		cmocka_unit_test_teardown(test_sid, teardown),
		cmocka_unit_test_teardown(test_sid_show, teardown),
		cmocka_unit_test_teardown(test_info, teardown),
		cmocka_unit_test_teardown(test_abbreviations, teardown),
		cmocka_unit_test_teardown(test_help, teardown),
		cmocka_unit_test_teardown(test_kernel_refusal, teardown),
	};

	return cmocka_run_group_tests_name("genl objects", tests, NULL, NULL);
}

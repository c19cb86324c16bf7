// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl hmac: the namespace's HMAC keys. Secrets never travel on the
 * command line (where ps would show them) and are never printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "json.h"
#include "nl.h"
#include "parse.h"
#include "report.h"
#include "seg6ctl.h"

static const char usage[] =
	"Usage: seg6ctl hmac set KEYID ALGO [secret-file PATH]\n"
	"       seg6ctl hmac del KEYID\n"
	"       seg6ctl hmac show\n"
	"KEYID := 1..4294967295\n"
	"ALGO := { sha1 | sha256 }\n"
	"The secret (1..64 bytes) is read from PATH, or else from standard\n"
	"input; one trailing newline is dropped.\n";

struct secret {
	/* The longest secret, its newline, and a byte that proves excess. */
	uint8_t buf[SEG6X_HMAC_SECRET_MAX + 2];
	size_t len;
};

static int read_fd(int fd, struct secret *s)
{
	/* Typed at a terminal, the secret ends with the line. */
	int tty = isatty(fd);
	size_t len = 0;

	while (len < sizeof(s->buf)) {
		ssize_t n = read(fd, s->buf + len, sizeof(s->buf) - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += (size_t)n;
		if (tty && s->buf[len - 1] == '\n')
			break;
	}
	s->len = trim_newline((const char *)s->buf, len);
	return 0;
}

static int read_secret(const char *path, struct secret *s)
{
	int fd = STDIN_FILENO;
	int err;

	if (path) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			pr_err("cannot open secret file \"%s\": %s",
			       path, strerror(errno));
			return EXIT_FAIL;
		}
	}
	err = read_fd(fd, s);
	if (path)
		close(fd);
	if (err) {
		pr_err("cannot read the secret: %s", strerror(-err));
		return EXIT_FAIL;
	}
	if (s->len < 1 || s->len > SEG6X_HMAC_SECRET_MAX)
		return usage_error("hmac", "the secret must be 1..%d bytes long",
				   SEG6X_HMAC_SECRET_MAX);
	return EXIT_OK;
}

static const char *const set_keys[] = { "secret-file" };

static int hmac_set(int argc, char **argv)
{
	const char *path = NULL;
	struct secret secret;
	struct nl_msg *msg;
	uint32_t keyid;
	int status;
	int algo;

	if (argc < 1)
		return usage_error("hmac", "missing KEYID");
	if (argc < 2)
		return usage_error("hmac", "missing ALGO");
	status = cli_u32("hmac", "KEYID", argv[0], 1, UINT32_MAX, &keyid);
	if (status)
		return status;
	algo = parse_hmac_algo(argv[1]);
	if (algo < 0)
		return usage_error("hmac", "unknown algorithm \"%s\" (sha1 or sha256)",
				   argv[1]);

	status = cli_keys("hmac", argc - 2, argv + 2, set_keys,
			  ARRAY_SIZE(set_keys), 1u, &path);
	if (status)
		return status;
	if (!path && opts.stdin_busy)
		return usage_error("hmac",
				   "standard input holds the batch: give the secret with secret-file");

	/* Learn that the module is missing before waiting on stdin. */
	msg = genl_msg(SEG6X_CMD_HMAC_SET, 0);
	if (!msg)
		return EXIT_FAIL;
	status = read_secret(path, &secret);
	if (status) {
		nlmsg_free(msg);
	} else if (nla_put_u32(msg, SEG6X_A_HMAC_KEYID, keyid) < 0 ||
		   nla_put_u8(msg, SEG6X_A_HMAC_ALGO, (uint8_t)algo) < 0 ||
		   nla_put(msg, SEG6X_A_HMAC_SECRET, (int)secret.len, secret.buf) < 0) {
		status = msg_abort(msg);
	} else {
		status = genl_talk(msg, NULL, NULL);
	}
	explicit_bzero(&secret, sizeof(secret));
	return status;
}

static int hmac_del(int argc, char **argv)
{
	struct nl_msg *msg;
	uint32_t keyid;
	int status;

	if (argc < 1)
		return usage_error("hmac", "missing KEYID");
	if (argc > 1)
		return usage_error("hmac", "too many arguments");
	status = cli_u32("hmac", "KEYID", argv[0], 1, UINT32_MAX, &keyid);
	if (status)
		return status;

	msg = genl_msg(SEG6X_CMD_HMAC_DEL, 0);
	if (!msg)
		return EXIT_FAIL;
	if (nla_put_u32(msg, SEG6X_A_HMAC_KEYID, keyid) < 0)
		return msg_abort(msg);
	return genl_talk(msg, NULL, NULL);
}

static int print_key(struct nlattr **tb, void *arg)
{
	struct json_writer *jw = arg;
	const char *name;
	char number[4];
	uint32_t keyid;
	uint8_t algo;

	if (!tb[SEG6X_A_HMAC_KEYID] || !tb[SEG6X_A_HMAC_ALGO])
		return -EBADMSG;
	keyid = nla_get_u32(tb[SEG6X_A_HMAC_KEYID]);
	algo = nla_get_u8(tb[SEG6X_A_HMAC_ALGO]);

	/* An algorithm newer than this seg6ctl shows as its number. */
	name = hmac_algo_name(algo);
	if (!name) {
		snprintf(number, sizeof(number), "%u", algo);
		name = number;
	}

	if (!opts.json) {
		printf("keyid %u algo %s\n", keyid, name);
		return 0;
	}
	json_open_object(jw, NULL);
	json_uint(jw, "keyid", keyid);
	json_string(jw, "algo", name);
	json_close_object(jw);
	return 0;
}

static int hmac_show(int argc, char **argv)
{
	struct json_writer jw;
	struct nl_msg *msg;
	int status;

	(void)argv;
	if (argc > 0)
		return usage_error("hmac", "too many arguments");
	msg = genl_msg(SEG6X_CMD_HMAC_GET, NLM_F_DUMP);
	if (!msg)
		return EXIT_FAIL;

	json_init(&jw, stdout, opts.pretty);
	if (opts.json)
		json_open_array(&jw, NULL);
	status = genl_talk(msg, print_key, &jw);
	/* Even a failed dump leaves a well-formed document behind. */
	if (opts.json)
		json_close_array(&jw);
	return status;
}

static int hmac_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_help(usage);
}

/* The first is what "seg6ctl hmac" alone does. */
static const struct cli_cmd hmac_cmds[] = {
	{ "show",	hmac_show,	"list key ids and algorithms" },
	{ "list",	hmac_show,	NULL },
	{ "ls",		hmac_show,	NULL },
	{ "set",	hmac_set,	"add or replace a key" },
	{ "del",	hmac_del,	"delete a key" },
	{ "delete",	hmac_del,	NULL },
	{ "help",	hmac_help,	"print usage" },
	{ NULL,		NULL,		NULL },
};

int do_hmac(int argc, char **argv)
{
	return cli_dispatch("hmac", hmac_cmds, argc, argv);
}

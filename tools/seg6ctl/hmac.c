// SPDX-License-Identifier: GPL-2.0
/*
 * seg6ctl hmac: the namespace's HMAC keys. Secrets never travel on the
 * command line (where ps would show them) and are never printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "cli.h"
#include "common.h"
#include "conf.h"
#include "conn.h"
#include "json.h"
#include "libseg6x.h"
#include "out.h"
#include "parse.h"
#include "report.h"

static const char usage[] =
	"Usage: seg6ctl hmac set KEYID ALGO [secret-file PATH]\n"
	"       seg6ctl hmac del KEYID\n"
	"       seg6ctl hmac show\n"
	"KEYID := 1..4294967295\n"
	"ALGO := { sha1 | sha256 }\n"
	"The secret (1..64 bytes) is read from PATH, a regular file that only\n"
	"its owner may read (chmod 600), or else from standard input (a prompt\n"
	"and no echo at a terminal); one trailing newline is dropped.\n";

/* More than this is not a secret but a stream: stop reading it. */
#define SECRET_READ_MAX 65536

struct secret {
	/* The longest secret, its newline, and a byte that proves excess. */
	uint8_t buf[SEG6X_HMAC_SECRET_MAX + 2];
	size_t len;		/* all of it, even what did not fit in buf */
};

/*
 * Reads @fd to its end, or at a terminal to the end of the line, keeping
 * what fits in s->buf. A long line is read whole all the same: what is
 * left unread in a terminal would be read by the shell next, as a
 * command. One trailing newline is not part of the secret.
 */
static int read_fd(int fd, bool tty, struct secret *s)
{
	uint8_t chunk[256];
	size_t total = 0;
	uint8_t last = 0;
	int err = 0;

	while (total <= SECRET_READ_MAX) {
		ssize_t n = read(fd, chunk, sizeof(chunk));
		size_t keep;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (n == 0)
			break;
		keep = total < sizeof(s->buf) ? sizeof(s->buf) - total : 0;
		if (keep > (size_t)n)
			keep = (size_t)n;
		memcpy(s->buf + total, chunk, keep);
		total += (size_t)n;
		last = chunk[n - 1];
		if (tty && last == '\n')
			break;
	}
	explicit_bzero(chunk, sizeof(chunk));
	s->len = total && last == '\n' ? total - 1 : total;
	return err;
}

/* The terminal's settings while echo is off, for signal handlers. */
static struct termios saved_tty;

static void restore_tty(void)
{
	tcsetattr(STDIN_FILENO, TCSANOW, &saved_tty);
}

/* Gives the terminal back its echo, then dies of @sig as it would have. */
static void on_signal(int sig)
{
	restore_tty();
	if (write(STDERR_FILENO, "\n", 1) < 0) {
		/* Nothing left to tell anyone. */
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int tty_signals[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP };

/* Prompts on stderr and reads the secret from the terminal, not echoed. */
static int read_tty(uint32_t keyid, struct secret *s)
{
	struct sigaction act = { .sa_handler = on_signal };
	struct sigaction old[ARRAY_SIZE(tty_signals)];
	struct termios quiet;
	size_t i;
	int err;

	if (tcgetattr(STDIN_FILENO, &saved_tty) < 0)
		return -errno;
	quiet = saved_tty;
	quiet.c_lflag &= ~(tcflag_t)(ECHO | ECHOE | ECHOK | ECHONL);
	quiet.c_lflag |= ICANON;

	sigemptyset(&act.sa_mask);
	for (i = 0; i < ARRAY_SIZE(tty_signals); i++)
		sigaction(tty_signals[i], &act, &old[i]);
	fprintf(stderr, "Secret for key %u: ", keyid);
	fflush(stderr);

	if (tcsetattr(STDIN_FILENO, TCSANOW, &quiet) < 0) {
		err = -errno;
	} else {
		err = read_fd(STDIN_FILENO, true, s);
		restore_tty();
	}
	/* The newline typed was not echoed. */
	fputc('\n', stderr);
	for (i = 0; i < ARRAY_SIZE(tty_signals); i++)
		sigaction(tty_signals[i], &old[i], NULL);
	return err;
}

/*
 * Opens a secret file that only its owner may read: a key that others
 * can read is no secret. Not blocking on a FIFO, refused anyway.
 */
static int open_secret_file(const char *path)
{
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		pr_err("cannot open secret file \"%s\": %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		pr_err("cannot stat secret file \"%s\": %s", path, strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		pr_err("%s is not a regular file", path);
	} else if (st.st_mode & (S_IRGRP | S_IROTH)) {
		pr_err("%s is readable by group or others; chmod 600 %s", path, path);
	} else if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		pr_err("%s is accessible by group or others; chmod 600 %s", path, path);
	} else {
		return fd;
	}
	close(fd);
	return -1;
}

static int read_secret(const char *path, uint32_t keyid, struct secret *s)
{
	int err;

	if (path) {
		int fd = open_secret_file(path);

		if (fd < 0)
			return EXIT_FAIL;
		err = read_fd(fd, false, s);
		close(fd);
	} else if (isatty(STDIN_FILENO)) {
		err = read_tty(keyid, s);
	} else {
		err = read_fd(STDIN_FILENO, false, s);
	}
	if (err) {
		pr_err("cannot read the secret: %s", strerror(-err));
		return EXIT_FAIL;
	}
	if (s->len < 1 || s->len > SEG6X_HMAC_SECRET_MAX)
		return usage_error("hmac", "the secret must be 1..%d bytes long (got %zu)",
				   SEG6X_HMAC_SECRET_MAX, s->len);
	return EXIT_OK;
}

static const char *const set_keys[] = { "secret-file" };

static int hmac_set(int argc, char **argv)
{
	const char *path = NULL;
	struct secret secret = { .len = 0 };
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
	/* -c: the secret file is the target machine's, not read here. */
	if (opts.check)
		return opts.collect ?
		       conf_key(opts.collect, keyid, (uint8_t)algo, NULL, 0) :
		       EXIT_OK;

	/* Learn that the module is missing before waiting on stdin. */
	status = ctl_connect(conn());
	if (!status)
		status = read_secret(path, keyid, &secret);
	if (!status && opts.collect)
		status = conf_key(opts.collect, keyid, (uint8_t)algo, secret.buf,
				  secret.len);
	else if (!status)
		status = ctl_hmac_set(conn(), keyid, (uint8_t)algo, secret.buf, secret.len);
	explicit_bzero(&secret, sizeof(secret));
	return status;
}

static int hmac_del(int argc, char **argv)
{
	uint32_t keyid;
	int status;

	if (argc < 1)
		return usage_error("hmac", "missing KEYID");
	if (argc > 1)
		return usage_error("hmac", "too many arguments");
	status = cli_u32("hmac", "KEYID", argv[0], 1, UINT32_MAX, &keyid);
	if (status)
		return status;

	return ctl_hmac_del(conn(), keyid);
}

int hmac_save(const char *keydir)
{
	bool quote = strpbrk(keydir, " \t#") != NULL;
	struct ctl_key *keys;
	char number[11];
	size_t i, n;
	int err = ctl_hmac_list(conn(), &keys, &n);

	/* An algorithm newer than this seg6ctl: -b will say so. */
	for (i = 0; !err && i < n; i++)
		printf("hmac set %u %s secret-file %s%s/%u%s\n", keys[i].keyid,
		       cli_name_or_number(hmac_algo_name(keys[i].algo),
					  keys[i].algo, number), quote ? "\"" : "",
		       keydir, keys[i].keyid, quote ? "\"" : "");
	free(keys);
	return err;
}

void hmac_print(struct json_writer *jw, const struct ctl_key *key)
{
	char number[11];
	const char *name = cli_name_or_number(hmac_algo_name(key->algo),
					      key->algo, number);

	struct out o;

	out_start(&o, jw);
	out_uint(&o, "keyid", key->keyid);
	/* A deletion event names the key only. */
	if (key->algo)
		out_str(&o, "algo", name);
	out_end(&o);
}

static void print_key(struct json_writer *jw, const void *item)
{
	hmac_print(jw, item);
}

static int hmac_show(int argc, char **argv)
{
	struct ctl_key *keys;
	size_t n;
	int status;

	(void)argv;
	status = cli_no_args("hmac", argc);
	if (!status)
		status = ctl_hmac_list(conn(), &keys, &n);
	if (status)
		return status;
	cli_print_list(keys, n, sizeof(*keys), print_key);
	free(keys);
	return EXIT_OK;
}

static const struct cli_cmd hmac_cmds[] = {
	CLI_SHOW(hmac_show, "list key ids and algorithms"),
	{ "set", hmac_set, "add or replace a key", NULL, false },
	{ "del", hmac_del, "delete a key", NULL, false },
	{ "delete", hmac_del, NULL, NULL, false },
	CLI_HELP,
	CLI_END,
};

const struct cli_object hmac_object = { "hmac", usage, hmac_cmds };

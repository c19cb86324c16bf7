// SPDX-License-Identifier: GPL-2.0
/*
 * seg6x-fpmd: listens for FRR zebra's FPM connection (dplane_fpm_nl) and
 * installs its SRv6 routes and SIDs in seg6x. One connection at a time:
 * a new one (zebra restarted) replaces the old, and once its replay has
 * gone quiet, the entries of the daemon's that it did not send again are
 * removed (mark and sweep).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "fpm.h"
#include "fpm_kernel.h"
#include "fpm_log.h"
#include "fpm_state.h"

#define REPLAY_QUIET_MS	2000	/* a replay ends after this long quiet */
#define RETRY_MS	1000	/* SIDs waiting for a VRF device */

struct daemon {
	int lfd, cfd;		/* listener, zebra's connection (-1: none) */
	int mfd;		/* the kernel's route notifications */
	struct ctl *ctl;
	bool replaying;		/* sweep when it goes quiet */
	long long last_rx;	/* ms */
	struct fpm_state *st;
	struct fpm_reader rd;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* ADDR, ADDR:PORT, [ADDR6]:PORT or ADDR6 into @ss. */
static int parse_listen(const char *arg, struct sockaddr_storage *ss)
{
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	char host[INET6_ADDRSTRLEN + 2];
	const char *port = NULL, *colon = strrchr(arg, ':');
	unsigned long p = FPM_DEFAULT_PORT;
	char *end;

	if (arg[0] == '[') {
		const char *rb = strchr(arg, ']');

		if (!rb || rb - arg - 1 >= (long)sizeof(host))
			return -1;
		snprintf(host, sizeof(host), "%.*s", (int)(rb - arg - 1), arg + 1);
		if (rb[1] && rb[1] != ':')
			return -1;
		port = rb[1] ? rb + 2 : NULL;
	} else if (colon && strchr(arg, ':') == colon) {
		snprintf(host, sizeof(host), "%.*s", (int)(colon - arg), arg);
		port = colon + 1;
	} else {
		snprintf(host, sizeof(host), "%s", arg);
	}
	if (port) {
		p = strtoul(port, &end, 10);
		if (*end || !p || p > 65535)
			return -1;
	}
	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, host, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)p);
	} else if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)p);
	} else {
		return -1;
	}
	return 0;
}

static bool is_loopback(const struct sockaddr_storage *ss)
{
	const struct sockaddr_in *in = (const void *)ss;
	const struct sockaddr_in6 *in6 = (const void *)ss;

	if (ss->ss_family == AF_INET)
		return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
	return IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
}

static int listen_on(const struct sockaddr_storage *ss)
{
	int one = 1, fd = socket(ss->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	socklen_t len = ss->ss_family == AF_INET ?
			sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)ss, len) || listen(fd, 4)) {
		close(fd);
		return -1;
	}
	return fd;
}

static void drop_conn(struct daemon *d, const char *why)
{
	if (d->cfd < 0)
		return;
	fpm_log(LOG_NOTICE, "zebra connection closed: %s", why);
	close(d->cfd);
	d->cfd = -1;
	d->replaying = false;
}

static void accept_conn(struct daemon *d)
{
	int fd = accept4(d->lfd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	/* zebra keeps one connection: a new one means the old is dead. */
	drop_conn(d, "replaced by a new connection");
	fpm_log(LOG_NOTICE, "zebra connected: waiting for its replay");
	d->cfd = fd;
	d->replaying = true;
	d->last_rx = now_ms();
	fpm_reader_init(&d->rd);
	fpm_state_reset(d->st);
}

static void read_conn(struct daemon *d)
{
	const uint8_t *msgs;
	size_t room, len;
	uint8_t *p = fpm_reader_space(&d->rd, &room);
	ssize_t n = read(d->cfd, p, room);
	int ret;

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0)
		return drop_conn(d, n ? strerror(errno) : "end of stream");
	fpm_reader_commit(&d->rd, (size_t)n);
	d->last_rx = now_ms();
	while ((ret = fpm_reader_next(&d->rd, &msgs, &len)) > 0) {
		/* What zebra wrote in the kernel before it sent this frame. */
		fpm_kernel_monitor_read(d->mfd, d->ctl, d->st);
		if (fpm_state_frame(d->st, msgs, len))
			return drop_conn(d, "malformed netlink message");
	}
	if (ret < 0)
		drop_conn(d, "malformed FPM frame");
}

/* Once a replay has gone quiet: the daemon's entries not sent again go. */
static void end_replay(struct daemon *d)
{
	int gone = fpm_state_sweep(d->st);

	d->replaying = false;
	if (gone < 0)
		fpm_log(LOG_ERR, "sweep after replay failed: %s",
			strerror(-gone));
	else
		fpm_log(LOG_NOTICE, "replay done: %d stale entr%s removed",
			gone, gone == 1 ? "y" : "ies");
}

static void run(struct daemon *d)
{
	long long last_retry = now_ms();

	while (!stop) {
		struct pollfd pfd[3] = {
			{ .fd = d->lfd, .events = POLLIN },
			{ .fd = d->mfd, .events = POLLIN },
			{ .fd = d->cfd, .events = POLLIN },
		};
		long long t;

		if (poll(pfd, d->cfd < 0 ? 2 : 3, 250) < 0 && errno != EINTR)
			break;
		/*
		 * The kernel's route changes before zebra's frames (read_conn()
		 * reads them again before each frame): zebra writes the kernel
		 * before it sends the same update over FPM, and a delete must
		 * know whether the place is still ours.
		 */
		if (pfd[1].revents & POLLIN)
			fpm_kernel_monitor_read(d->mfd, d->ctl, d->st);
		if (pfd[0].revents & POLLIN)
			accept_conn(d);
		else if (d->cfd >= 0 && pfd[2].revents)
			read_conn(d);
		t = now_ms();
		if (d->replaying && t - d->last_rx >= REPLAY_QUIET_MS)
			end_replay(d);
		if (t - last_retry >= RETRY_MS) {
			last_retry = t;
			fpm_state_retry(d->st);
		}
	}
}

static void usage(FILE *f)
{
	fprintf(f, "usage: seg6x-fpmd [--listen ADDR[:PORT]] [-v]\n"
		"  FPM listener for FRR's zebra (dplane_fpm_nl); default %s:%d\n",
		"127.0.0.1", FPM_DEFAULT_PORT);
}

static int parse_args(int argc, char **argv, struct sockaddr_storage *ss)
{
	static const struct option opts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int o;

	parse_listen("127.0.0.1", ss);
	while ((o = getopt_long(argc, argv, "l:vh", opts, NULL)) != -1) {
		if (o == 'v') {
			fpm_log_level = LOG_DEBUG;
		} else if (o == 'l') {
			if (parse_listen(optarg, ss))
				return fprintf(stderr, "seg6x-fpmd: bad address: %s\n", optarg), 2;
		} else {
			usage(o == 'h' ? stdout : stderr);
			return o == 'h' ? 1 : 2;
		}
	}
	if (optind < argc)
		return usage(stderr), 2;
	if (!is_loopback(ss))
		fpm_log(LOG_WARNING, "listening beyond this host, as asked: FPM has no authentication");
	return 0;
}

int main(int argc, char **argv)
{
	struct daemon d = { .cfd = -1, .mfd = -1 };
	struct sockaddr_storage ss;
	struct fpm_kernel k;
	struct ctl *c;
	int ret = parse_args(argc, argv, &ss);

	if (ret)
		return ret == 1 ? 0 : ret;
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	c = ctl_new();
	d.lfd = listen_on(&ss);
	if (!c || d.lfd < 0) {
		fpm_log(LOG_ERR, "cannot listen: %s", strerror(errno));
		return 1;
	}
	d.mfd = fpm_kernel_monitor();
	if (d.mfd < 0) {
		fpm_log(LOG_ERR, "cannot watch the kernel's routes: %s",
			strerror(errno));
		return 1;
	}
	d.ctl = c;
	/* The slot asked once, not per route; again if the module changed. */
	ctl_set_cache_lwt_type(c, true);
	fpm_kernel_libseg6x(&k, c);
	d.st = fpm_state_new(&k);
	if (!d.st)
		return 1;
	fpm_log(LOG_NOTICE, "listening for zebra");
	run(&d);
	fpm_log(LOG_NOTICE, "stopping: the installed entries stay");
	drop_conn(&d, "stopping");
	fpm_state_free(d.st);
	close(d.mfd);
	ctl_free(c);
	return 0;
}

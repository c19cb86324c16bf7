// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of seg6x-fpmd's FPM reader, decoder and mapping (tools/fpmd)
 * on the streams FRR 8.4.4's zebra sent in a two-PE lab (data/fpm/, see
 * its README.md), with a fake kernel side that keeps what it is asked to
 * install; a replay with a sweep; and a fuzzer of frames derived from the
 * captures.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>

#include "fpm.h"
#include "fpm_log.h"
#include "fpm_state.h"
#include "fpm_store.h"

#define VRF10_IFINDEX	4	/* vrf10 in the captures; owns table 10 */
#define MAX_ENTRIES	64

/* The fake kernel: seg6x's routes and SIDs, and how often it was asked. */
static struct ctl_route routes[MAX_ENTRIES];	/* each route's first path */
#define MAX_PATHS	4
static struct ctl_route runs[MAX_ENTRIES][MAX_PATHS];	/* and all of them */
static struct ctl_sid sids[MAX_ENTRIES];
static size_t nroutes, nsids, calls, route_dels;
static bool have_vrf = true;

static int route_find(const struct ctl_route *r)
{
	size_t i;

	for (i = 0; i < nroutes; i++)
		if (routes[i].table == r->table &&
		    routes[i].dst.len == r->dst.len &&
		    routes[i].dst.addr.family == r->dst.addr.family &&
		    !memcmp(routes[i].dst.addr.bytes, r->dst.addr.bytes, 16))
			return (int)i;
	return -1;
}

static int k_route_set(void *arg, const struct ctl_route *r)
{
	int i = route_find(r);

	(void)arg;
	calls++;
	if (i < 0) {
		assert_true(nroutes < MAX_ENTRIES);
		i = (int)nroutes++;
	}
	assert_true(ctl_route_paths(r) <= MAX_PATHS);
	routes[i] = *r;
	memcpy(runs[i], r, ctl_route_paths(r) * sizeof(*r));
	return 0;
}

static int k_route_del(void *arg, const struct ctl_route *r)
{
	int i = route_find(r);

	(void)arg;
	calls++;
	route_dels++;
	if (i < 0)
		return -ESRCH;
	routes[i] = routes[--nroutes];
	memcpy(runs[i], runs[nroutes], sizeof(runs[i]));
	return 0;
}

static int sid_find(const struct in6_addr *p, uint8_t len)
{
	size_t i;

	for (i = 0; i < nsids; i++)
		if (sids[i].len == len && !memcmp(&sids[i].prefix, p, 16))
			return (int)i;
	return -1;
}

static int k_sid_set(void *arg, const struct ctl_sid *s)
{
	int i = sid_find(&s->prefix, s->len);

	(void)arg;
	calls++;
	if (i < 0) {
		assert_true(nsids < MAX_ENTRIES);
		i = (int)nsids++;
	}
	sids[i] = *s;
	return 0;
}

static int k_sid_del(void *arg, const struct in6_addr *p, uint8_t len)
{
	int i = sid_find(p, len);

	(void)arg;
	calls++;
	if (i < 0)
		return -ESRCH;
	sids[i] = sids[--nsids];
	return 0;
}

static int k_route_walk(void *arg, ctl_route_fn fn, void *fn_arg)
{
	/* A copy, as a dump is: the callback sees the table as it was. */
	static struct ctl_route snap[MAX_ENTRIES][MAX_PATHS];
	size_t i, n = nroutes;
	int err;

	(void)arg;
	memcpy(snap, runs, n * sizeof(runs[0]));
	for (i = 0; i < n; i++) {
		err = fn(fn_arg, snap[i]);
		if (err)
			return err;
	}
	return 0;
}

static int k_sid_list(void *arg, struct ctl_sid **s, size_t *n)
{
	(void)arg;
	*s = malloc(sizeof(sids));
	assert_non_null(*s);
	memcpy(*s, sids, sizeof(sids));
	*n = nsids;
	return 0;
}

static int k_vrf(void *arg, uint32_t table, uint32_t *ifindex)
{
	(void)arg;
	if (!have_vrf || table != 10)
		return -ENOENT;
	*ifindex = VRF10_IFINDEX;
	return 0;
}

static const struct fpm_kernel fake = {
	.route_set = k_route_set, .route_del = k_route_del,
	.sid_set = k_sid_set, .sid_del = k_sid_del,
	.route_walk = k_route_walk, .sid_list = k_sid_list,
	.vrf_of_table = k_vrf,
};

static int setup(void **state)
{
	nroutes = nsids = calls = route_dels = 0;
	have_vrf = true;
	fpm_log_level = -1;
	*state = fpm_state_new(&fake);
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	fpm_state_free(*state);
	return 0;
}

static uint8_t *load(const char *name, size_t *len)
{
	static uint8_t buf[8192];
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", DATADIR, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	*len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_true(*len > 0);
	return buf;
}

/* Feeds @len bytes in pieces of @chunk; returns the first error or 0. */
static int feed(struct fpm_state *st, const uint8_t *p, size_t len,
		size_t chunk)
{
	static struct fpm_reader rd;
	const uint8_t *msgs;
	size_t mlen, off = 0;
	int ret;

	fpm_reader_init(&rd);
	while (off < len) {
		size_t n = len - off < chunk ? len - off : chunk;

		assert_int_equal(fpm_reader_feed(&rd, p + off, n), n);
		off += n;
		while ((ret = fpm_reader_next(&rd, &msgs, &mlen)) > 0)
			if (fpm_state_frame(st, msgs, mlen))
				return -EBADMSG;
		if (ret < 0)
			return ret;
	}
	return fpm_reader_pending(&rd) ? -EAGAIN : 0;
}

static void feed_file(struct fpm_state *st, const char *name, size_t chunk)
{
	size_t len;
	const uint8_t *p = load(name, &len);

	assert_int_equal(feed(st, p, len, chunk), 0);
}

static void in6(const char *s, void *out)
{
	assert_int_equal(inet_pton(AF_INET6, s, out), 1);
}

static void assert_route(int family, const char *dst, unsigned int len,
			 const char *seg)
{
	struct ctl_route want = { .table = 10 };
	struct in6_addr s;
	int i;

	want.dst.addr.family = family;
	want.dst.len = len;
	assert_int_equal(inet_pton(family, dst, want.dst.addr.bytes), 1);
	i = route_find(&want);
	assert_true(i >= 0);
	in6(seg, &s);
	assert_int_equal(routes[i].mode, SEG6X_IPTUN_MODE_ENCAP);
	assert_int_equal(routes[i].nsegs, 1);
	assert_memory_equal(&routes[i].segs[0], &s, sizeof(s));
	assert_int_equal(routes[i].oif, 2);		/* r1-r2 */
	assert_true(routes[i].has_metric);
	assert_int_equal(routes[i].metric, 20);
	assert_false(routes[i].has_hmac);
	assert_false(routes[i].has_via);
	assert_int_equal(routes[i].owner, SEG6X_OWNER_FPMD);
	assert_int_equal(routes[i].protocol, 186);	/* zebra's: bgp */
}

static void assert_sid(const char *prefix, uint16_t behavior)
{
	struct in6_addr p;
	int i;

	in6(prefix, &p);
	i = sid_find(&p, 128);
	assert_true(i >= 0);
	assert_int_equal(sids[i].behavior, behavior);
	assert_true(sids[i].attrs & CTL_SID_F(SEG6X_SID_VRF));
	assert_false(sids[i].attrs & CTL_SID_F(SEG6X_SID_TABLE));
	assert_int_equal(sids[i].vrf, VRF10_IFINDEX);
	assert_int_equal(sids[i].owner, SEG6X_OWNER_FPMD);
	assert_true(sids[i].attrs & CTL_SID_F(SEG6X_SID_OWNER));
}

/* What every capture ends with at r1 (the dumps' final state). */
static void assert_r1(void)
{
	assert_int_equal(nsids, 2);
	assert_sid("2001:db8:1:1:100::", SEG6X_BEHAVIOR_END_DT4);
	assert_sid("2001:db8:1:1:200::", SEG6X_BEHAVIOR_END_DT6);
	assert_int_equal(nroutes, 2);
	assert_route(AF_INET, "192.168.2.0", 24, "2001:db8:2:2:100::");
	assert_route(AF_INET6, "2001:db8:c2::", 64, "2001:db8:2:2:200::");
}

static const char *const kernels[] = { "6.1.0-57-amd64", "6.12.95+deb12-amd64" };

static void capture(char *buf, size_t size, const char *kernel,
		    const char *what)
{
	snprintf(buf, size, "fpm-capture-%s-%s.bin", kernel, what);
}

/* Next hop objects; 192.168.2.0/24 withdrawn (a delete) and restored. */
static void test_nhg(void **state)
{
	char name[128];
	size_t k;

	for (k = 0; k < 2; k++) {
		teardown(state);
		setup(state);
		capture(name, sizeof(name), kernels[k], "nhg");
		feed_file(*state, name, 1 << 16);
		assert_r1();
		assert_int_equal(route_dels, 1);
		/* 2 SIDs, 2 routes, the route again after its delete */
		assert_int_equal(calls, 6);
	}
}

/* Encaps inline; IPv4 through 169.254.0.1 onlink, not carried over. */
static void test_nonhg(void **state)
{
	char name[128];
	size_t k;

	for (k = 0; k < 2; k++) {
		teardown(state);
		setup(state);
		capture(name, sizeof(name), kernels[k], "nonhg");
		feed_file(*state, name, 1 << 16);
		assert_r1();
		assert_int_equal(route_dels, 2);
	}
}

/* A stream read a byte at a time decodes the same. */
static void test_pieces(void **state)
{
	feed_file(*state, "fpm-capture-6.1.0-57-amd64-nhg.bin", 1);
	assert_r1();
	assert_int_equal(calls, 6);
}

/*
 * zebra restarted: the replay (new next hop ids) installs the same, and
 * the sweep removes the daemon's stale entries only, never another
 * owner's.
 */
static void test_replay_sweep(void **state)
{
	struct ctl_route manual = { .table = 10, .nsegs = 1, .owner = 0 };
	struct ctl_route stale;
	struct ctl_sid stale_sid = { .len = 128, .owner = SEG6X_OWNER_FPMD };
	struct ctl_sid hand_sid = { .len = 128 };

	feed_file(*state, "fpm-capture-6.1.0-57-amd64-nhg.bin", 1 << 16);
	manual.dst.addr.family = AF_INET;
	manual.dst.len = 24;
	inet_pton(AF_INET, "192.168.7.0", manual.dst.addr.bytes);
	stale = manual;
	stale.owner = SEG6X_OWNER_FPMD;
	inet_pton(AF_INET, "192.168.3.0", stale.dst.addr.bytes);
	in6("2001:db8:1:1:300::", &stale_sid.prefix);
	in6("2001:db8:1:1:400::", &hand_sid.prefix);
	k_route_set(NULL, &manual);
	k_route_set(NULL, &stale);
	k_sid_set(NULL, &stale_sid);
	k_sid_set(NULL, &hand_sid);

	fpm_state_reset(*state);
	feed_file(*state, "fpm-capture-6.1.0-57-amd64-restart.bin", 1 << 16);
	assert_int_equal(fpm_state_sweep(*state), 2);
	assert_int_equal(nroutes, 3);
	assert_true(route_find(&manual) >= 0);
	assert_true(route_find(&stale) < 0);
	assert_int_equal(nsids, 3);
	assert_true(sid_find(&hand_sid.prefix, 128) >= 0);
	assert_true(sid_find(&stale_sid.prefix, 128) < 0);
	nsids--;	/* the one by hand: the rest is r1's */
	nroutes--;
	assert_sid("2001:db8:1:1:100::", SEG6X_BEHAVIOR_END_DT4);
	assert_route(AF_INET6, "2001:db8:c2::", 64, "2001:db8:2:2:200::");
	/* Again: nothing stale left. */
	nsids++;
	nroutes++;
	assert_int_equal(fpm_state_sweep(*state), 0);
}

/* An End.DT4 whose VRF device is not there yet waits, then appears. */
static void test_pending_vrf(void **state)
{
	have_vrf = false;
	feed_file(*state, "fpm-capture-6.1.0-57-amd64-nonhg.bin", 1 << 16);
	/* End.DT6 (SEG6_LOCAL_TABLE) falls back to the table itself. */
	assert_int_equal(nsids, 1);
	assert_int_equal(sids[0].behavior, SEG6X_BEHAVIOR_END_DT6);
	assert_int_equal(sids[0].table, 10);
	assert_int_equal(fpm_state_pending(*state), 1);
	assert_int_equal(fpm_state_retry(*state), 1);
	have_vrf = true;
	assert_int_equal(fpm_state_retry(*state), 0);
	assert_int_equal(nsids, 2);
	assert_sid("2001:db8:1:1:100::", SEG6X_BEHAVIOR_END_DT4);
}

/* The frames of a capture: offsets of each in @off, their count. */
static size_t frames(const uint8_t *p, size_t len, size_t *off, size_t max)
{
	size_t n = 0, o = 0;

	while (o + 4 <= len && n < max) {
		off[n++] = o;
		o += (size_t)p[o + 2] << 8 | p[o + 3];
	}
	return n;
}

/* RTM_DELROUTE + RTM_NEWROUTE in one frame: an update, as zebra sends. */
static void test_del_new_one_frame(void **state)
{
	size_t len, off[32], n, a, b;
	const uint8_t *p = load("fpm-capture-6.1.0-57-amd64-nhg.bin", &len);
	uint8_t frame[512];

	n = frames(p, len, off, 32);
	assert_int_equal(n, 20);
	/* all but the last two (the delete and the new route) */
	assert_int_equal(feed(*state, p, off[18], 1 << 16), 0);
	assert_r1();
	a = off[19] - off[18] - 4;
	b = len - off[19] - 4;
	frame[0] = 1;
	frame[1] = 1;
	frame[2] = (uint8_t)((4 + a + b) >> 8);
	frame[3] = (uint8_t)(4 + a + b);
	memcpy(frame + 4, p + off[18] + 4, a);
	memcpy(frame + 4 + a, p + off[19] + 4, b);
	calls = 0;
	assert_int_equal(feed(*state, frame, 4 + a + b, 1 << 16), 0);
	assert_int_equal(calls, 2);	/* removed, installed again */
	assert_r1();
}

/*
 * zebra's own kernel install of a route of ours, after ours: installed
 * again; a prefix that is not ours (or a SID's), or another metric, is
 * left alone.
 */
static void test_overwritten(void **state)
{
	struct inet_prefix p = { .addr.family = AF_INET, .len = 24 };
	struct inet_prefix sid = { .addr.family = AF_INET6, .len = 128 };
	const enum fpm_kroute srv6 = FPM_KROUTE_SRV6;

	feed_file(*state, "fpm-capture-6.12.95+deb12-amd64-nhg.bin", 1 << 16);
	assert_r1();
	assert_int_equal(inet_pton(AF_INET, "192.168.2.0", p.addr.bytes), 1);
	in6("2001:db8:1:1:100::", (struct in6_addr *)sid.addr.bytes);
	calls = 0;
	assert_int_equal(fpm_state_kernel_route(*state, &p, 10, 20, srv6), 1);
	assert_int_equal(calls, 1);
	assert_int_equal(fpm_state_kernel_route(*state, &p, 254, 20, srv6), 0);
	assert_int_equal(fpm_state_kernel_route(*state, &p, 10, 0, srv6), 0);
	assert_int_equal(fpm_state_kernel_route(*state, &sid, 254, 1024, srv6),
			 0);
	p.len = 25;
	assert_int_equal(fpm_state_kernel_route(*state, &p, 10, 20, srv6), 0);
	assert_int_equal(calls, 1);
	assert_int_equal(fpm_state_reinstall(*state), 2);
	assert_int_equal(calls, 3);
	assert_r1();
}

/*
 * Another route took the place of ours (zebra's plain route, or ours was
 * deleted by someone else): the FPM delete that follows must not reach
 * the kernel, which deletes by place. Our own write coming back, or a
 * new install, makes the place ours again.
 */
static void test_displaced(void **state)
{
	struct inet_prefix p = { .addr.family = AF_INET, .len = 24 };
	const uint8_t *cap;
	size_t len, off[32];

	cap = load("fpm-capture-6.1.0-57-amd64-nhg.bin", &len);
	assert_int_equal(frames(cap, len, off, 32), 20);
	/* off[18]: the delete of 192.168.2.0/24; off[19]: it again */
	assert_int_equal(feed(*state, cap, off[18], 1 << 16), 0);
	assert_r1();
	assert_int_equal(inet_pton(AF_INET, "192.168.2.0", p.addr.bytes), 1);
	calls = route_dels = 0;

	/* another metric is another place: nothing said about ours */
	fpm_state_kernel_route(*state, &p, 10, 21, FPM_KROUTE_OTHER);
	/* zebra's plain route, then our own write coming back: ours */
	fpm_state_kernel_route(*state, &p, 10, 20, FPM_KROUTE_OTHER);
	fpm_state_kernel_route(*state, &p, 10, 20, FPM_KROUTE_OURS);
	assert_int_equal(calls, 0);
	/* and now zebra's plain route last */
	fpm_state_kernel_route(*state, &p, 10, 20, FPM_KROUTE_OTHER);
	assert_int_equal(fpm_state_reinstall(*state), 1);	/* IPv6 only */
	assert_int_equal(calls, 1);
	calls = 0;
	assert_int_equal(feed(*state, cap + off[18], off[19] - off[18],
			      1 << 16), 0);
	assert_int_equal(route_dels, 0);
	assert_int_equal(calls, 0);
	assert_int_equal(nroutes, 2);		/* the fake kernel kept it */

	/* installed again: ours; then deleted by another program */
	assert_int_equal(feed(*state, cap + off[19], len - off[19], 1 << 16),
			 0);
	assert_int_equal(calls, 1);
	fpm_state_kernel_route(*state, &p, 10, 20, FPM_KROUTE_GONE);
	assert_int_equal(feed(*state, cap + off[18], off[19] - off[18],
			      1 << 16), 0);
	assert_int_equal(route_dels, 0);

	/* displaced, then zebra sends the same route again: ours again */
	assert_int_equal(feed(*state, cap + off[19], len - off[19], 1 << 16),
			 0);
	fpm_state_kernel_route(*state, &p, 10, 20, FPM_KROUTE_OTHER);
	calls = 0;
	assert_int_equal(feed(*state, cap + off[19], len - off[19], 1 << 16),
			 0);
	assert_int_equal(calls, 1);
	assert_int_equal(feed(*state, cap + off[18], off[19] - off[18],
			      1 << 16), 0);
	assert_int_equal(route_dels, 1);
	assert_int_equal(nroutes, 1);

	/* installed again, nothing said: the delete reaches the kernel */
	assert_int_equal(feed(*state, cap + off[19], len - off[19], 1 << 16),
			 0);
	assert_int_equal(feed(*state, cap + off[18], off[19] - off[18],
			      1 << 16), 0);
	assert_int_equal(route_dels, 2);
	assert_int_equal(nroutes, 1);
}

static size_t put_attr(uint8_t *p, uint16_t type, const void *data,
		       size_t len)
{
	struct nlattr h = { .nla_len = (uint16_t)(4 + len), .nla_type = type };

	memcpy(p, &h, 4);
	memcpy(p + 4, data, len);
	return (4 + len + 3) & ~(size_t)3;
}

/* Two segments (reversed in the SRH) and an HMAC TLV, inline. */
static void test_segments_hmac(void **state)
{
	uint8_t srh[4 + 8 + 32 + 40] = { 0 }, enc[256], msg[512];
	struct rtmsg rtm = { .rtm_family = AF_INET6, .rtm_dst_len = 64,
			     .rtm_table = 10, .rtm_type = RTN_UNICAST };
	struct nlmsghdr h = { .nlmsg_type = RTM_NEWROUTE };
	uint32_t mode = 1, oif = 2, keyid = htonl(7);
	uint16_t type = 5;	/* LWTUNNEL_ENCAP_SEG6 */
	struct in6_addr dst, s1, s2;
	size_t elen, mlen;
	int i;

	in6("2001:db8:c9::", &dst);
	in6("2001:db8:a::1", &s1);	/* first on the path */
	in6("2001:db8:b::1", &s2);
	memcpy(srh, &mode, 4);
	srh[5] = 9;			/* hdrlen: (8 + 32 + 40) / 8 - 1 */
	srh[6] = 4;
	srh[7] = 1;			/* segments left */
	srh[8] = 1;			/* last entry */
	srh[9] = 0x08;			/* SR6_FLAG1_HMAC */
	memcpy(srh + 12, &s2, 16);	/* segments[0]: the last */
	memcpy(srh + 28, &s1, 16);
	srh[44] = 5;			/* SR6_TLV_HMAC */
	srh[45] = 38;
	memcpy(srh + 48, &keyid, 4);
	elen = put_attr(enc, 1, srh, sizeof(srh));	/* SEG6_IPTUNNEL_SRH */
	mlen = NLMSG_SPACE(sizeof(rtm));
	memcpy(msg + NLMSG_HDRLEN, &rtm, sizeof(rtm));
	mlen += put_attr(msg + mlen, RTA_DST, &dst, 16);
	mlen += put_attr(msg + mlen, RTA_OIF, &oif, 4);
	mlen += put_attr(msg + mlen, RTA_ENCAP_TYPE, &type, 2);
	mlen += put_attr(msg + mlen, RTA_ENCAP | NLA_F_NESTED, enc, elen);
	h.nlmsg_len = (uint32_t)mlen;
	memcpy(msg, &h, sizeof(h));
	assert_int_equal(fpm_state_frame(*state, msg, mlen), 0);
	assert_int_equal(nroutes, 1);
	assert_int_equal(routes[0].nsegs, 2);
	assert_memory_equal(&routes[0].segs[0], &s1, 16);
	assert_memory_equal(&routes[0].segs[1], &s2, 16);
	assert_true(routes[0].has_hmac);
	assert_int_equal(routes[0].hmac, 7);
	/* The same again: nothing to do. A TLV one byte too long overruns
	 * the SRH: the message fails whole, nothing applied.
	 */
	calls = 0;
	for (i = 0; i < 2; i++) {
		srh[45] = i ? 39 : 38;
		elen = put_attr(enc, 1, srh, sizeof(srh));
		memcpy(msg + mlen - elen, enc, elen);
		assert_int_equal(fpm_state_frame(*state, msg, mlen),
				 i ? -EBADMSG : 0);
	}
	assert_int_equal(calls, 0);
	assert_int_equal(nroutes, 1);
}


/*
 * An encap type attribute (@type_attr: RTA_ENCAP_TYPE, NHA_ENCAP_TYPE)
 * of SEG6 and the encap that follows it: mode encap, one segment @seg.
 */
static size_t put_seg6(uint8_t *p, uint16_t type_attr, const char *seg)
{
	uint8_t srh[4 + 8 + 16] = { 0 }, enc[64];
	uint32_t mode = 1;
	uint16_t type = 5;	/* LWTUNNEL_ENCAP_SEG6 */
	size_t len, elen;

	memcpy(srh, &mode, 4);
	srh[5] = 2;		/* hdrlen */
	srh[6] = 4;
	in6(seg, srh + 12);
	elen = put_attr(enc, 1, srh, sizeof(srh));	/* SEG6_IPTUNNEL_SRH */
	len = put_attr(p, type_attr, &type, 2);
	/* RTA_ENCAP and NHA_ENCAP follow their types */
	return len + put_attr(p + len, (uint16_t)(type_attr + 1) | NLA_F_NESTED,
			      enc, elen);
}

/* An RTM_NEW* of @body (after the header): the message's length. */
static size_t put_msg(uint8_t *msg, uint16_t type, const void *hdr,
		      size_t hlen, const uint8_t *attrs, size_t alen)
{
	struct nlmsghdr h = { .nlmsg_type = type };

	h.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + NLMSG_ALIGN(hlen) + alen);
	memset(msg, 0, h.nlmsg_len);
	memcpy(msg, &h, sizeof(h));
	memcpy(msg + NLMSG_HDRLEN, hdr, hlen);
	memcpy(msg + NLMSG_HDRLEN + NLMSG_ALIGN(hlen), attrs, alen);
	return NLMSG_ALIGN(h.nlmsg_len);
}

static const struct rtmsg vpn6 = {
	.rtm_family = AF_INET6, .rtm_dst_len = 64, .rtm_table = 10,
	.rtm_protocol = 186, .rtm_type = RTN_UNICAST,
};

/* One RTA_MULTIPATH entry: device 2, next hop @gw, weight @w, SEG6 @seg. */
static size_t put_rtnh(uint8_t *p, const char *gw, uint8_t w, const char *seg)
{
	struct rtnexthop nh = { .rtnh_hops = (uint8_t)(w - 1), .rtnh_ifindex = 2 };
	struct in6_addr a;
	size_t len = sizeof(nh);

	in6(gw, &a);
	len += put_attr(p + len, RTA_GATEWAY, &a, 16);
	if (seg)
		len += put_seg6(p + len, RTA_ENCAP_TYPE, seg);
	nh.rtnh_len = (unsigned short)len;
	memcpy(p, &nh, sizeof(nh));
	return len;
}

static void assert_path(const struct ctl_route *r, const char *gw, uint16_t w,
			const char *seg)
{
	struct in6_addr a;

	in6(gw, &a);
	assert_true(r->has_via);
	assert_memory_equal(r->via.bytes, &a, 16);
	assert_int_equal(r->weight, w);
	assert_int_equal(r->oif, 2);
	assert_int_equal(r->nsegs, 1);
	in6(seg, &a);
	assert_memory_equal(&r->segs[0], &a, 16);
	assert_int_equal(r->owner, SEG6X_OWNER_FPMD);
}

/*
 * BGP multipath to two PEs, encaps inline: one seg6x route of two paths
 * (ECMP), weights and link-local next hops kept; a plain path among them
 * is left out; back to one path, a route of one path again.
 */
/*
 * An RTM_NEWROUTE of 2001:db8:c9::/64 (table 10) with @n of three paths
 * in RTA_MULTIPATH: SEG6 through fe80::1 (weight 3), SEG6 through
 * fe80::2, plain through fe80::3. The message's length.
 */
static size_t multipath_msg(uint8_t *msg, int n)
{
	static const char *const gw[] = { "fe80::1", "fe80::2", "fe80::3" };
	static const char *const seg[] = { "2001:db8:2:2:200::",
					   "2001:db8:3:3:200::", NULL };
	uint8_t attrs[1024], mp[768];
	struct in6_addr dst;
	uint32_t metric = 20;
	size_t alen, len = 0;
	int i;

	in6("2001:db8:c9::", &dst);
	alen = put_attr(attrs, RTA_DST, &dst, 16);
	alen += put_attr(attrs + alen, RTA_PRIORITY, &metric, 4);
	for (i = 0; i < n; i++)
		len += put_rtnh(mp + len, gw[i], n > 1 && !i ? 3 : 1, seg[i]);
	alen += put_attr(attrs + alen, RTA_MULTIPATH, mp, len);
	return put_msg(msg, RTM_NEWROUTE, &vpn6, sizeof(vpn6), attrs, alen);
}

static void test_multipath(void **state)
{
	uint8_t msg[2048];
	size_t mlen = multipath_msg(msg, 3);

	assert_int_equal(fpm_state_frame(*state, msg, mlen), 0);
	assert_int_equal(nroutes, 1);
	assert_int_equal(runs[0][0].npaths, 2);
	assert_path(&runs[0][0], "fe80::1", 3, "2001:db8:2:2:200::");
	assert_path(&runs[0][1], "fe80::2", 1, "2001:db8:3:3:200::");
	assert_int_equal(runs[0][0].protocol, 186);

	/* The same again: nothing to do. */
	calls = 0;
	assert_int_equal(fpm_state_frame(*state, msg, mlen), 0);
	assert_int_equal(calls, 0);

	/* One SRv6 path left: a route of one path, as zebra's single ones. */
	mlen = multipath_msg(msg, 1);
	assert_int_equal(fpm_state_frame(*state, msg, mlen), 0);
	assert_int_equal(nroutes, 1);
	assert_true(ctl_route_paths(&routes[0]) == 1);
	assert_false(routes[0].has_via);
	assert_int_equal(routes[0].weight, 0);
}

/* An RTM_NEWNEXTHOP: id @id, device 2, next hop @gw, SEG6 @seg. */
static size_t put_nh(uint8_t *msg, uint32_t id, const char *gw, const char *seg)
{
	struct nhmsg nhm = { .nh_family = AF_INET6, .nh_protocol = 11 };
	uint8_t attrs[256];
	struct in6_addr a;
	uint32_t oif = 2;
	size_t alen;

	in6(gw, &a);
	alen = put_attr(attrs, NHA_ID, &id, 4);
	alen += put_attr(attrs + alen, NHA_OIF, &oif, 4);
	alen += put_attr(attrs + alen, NHA_GATEWAY, &a, 16);
	alen += put_seg6(attrs + alen, NHA_ENCAP_TYPE, seg);
	return put_msg(msg, RTM_NEWNEXTHOP, &nhm, sizeof(nhm), attrs, alen);
}

/* The same through a next hop group (fpm use-next-hop-groups). */
/* Objects 11 and 12 (SEG6), group 13 of them, a route through 13. */
static size_t group_msgs(uint8_t *msg)
{
	struct nexthop_grp grp[2] = { { .id = 11, .weight = 1 }, { .id = 12 } };
	struct nhmsg nhm = { .nh_family = AF_UNSPEC, .nh_protocol = 11 };
	uint32_t id = 13, metric = 20;
	uint8_t attrs[256];
	struct in6_addr dst;
	size_t alen, mlen;

	mlen = put_nh(msg, 11, "fe80::1", "2001:db8:2:2:200::");
	mlen += put_nh(msg + mlen, 12, "fe80::2", "2001:db8:3:3:200::");
	alen = put_attr(attrs, NHA_ID, &id, 4);
	alen += put_attr(attrs + alen, NHA_GROUP, grp, sizeof(grp));
	mlen += put_msg(msg + mlen, RTM_NEWNEXTHOP, &nhm, sizeof(nhm), attrs, alen);
	in6("2001:db8:c9::", &dst);
	alen = put_attr(attrs, RTA_DST, &dst, 16);
	alen += put_attr(attrs + alen, RTA_PRIORITY, &metric, 4);
	alen += put_attr(attrs + alen, RTA_NH_ID, &id, 4);
	return mlen + put_msg(msg + mlen, RTM_NEWROUTE, &vpn6, sizeof(vpn6),
			      attrs, alen);
}

static void test_multipath_group(void **state)
{
	uint8_t msg[2048];
	size_t mlen = group_msgs(msg);

	assert_int_equal(fpm_state_frame(*state, msg, mlen), 0);
	assert_int_equal(nroutes, 1);
	assert_int_equal(runs[0][0].npaths, 2);
	assert_path(&runs[0][0], "fe80::1", 2, "2001:db8:2:2:200::");
	assert_path(&runs[0][1], "fe80::2", 1, "2001:db8:3:3:200::");

	/* After a replay the sweep keeps it: its paths are this state's. */
	fpm_state_reset(*state);
	assert_int_equal(fpm_state_frame(*state, msg, mlen), 0);
	assert_int_equal(fpm_state_sweep(*state), 0);
	assert_int_equal(nroutes, 1);
	/* Not sent again: swept, both paths go in one delete. */
	fpm_state_reset(*state);
	route_dels = 0;
	assert_int_equal(fpm_state_sweep(*state), 1);
	assert_int_equal(nroutes, 0);
	assert_int_equal(route_dels, 1);
}

static uint32_t rnd_state = 20261206;

static uint32_t rnd(void)
{
	rnd_state ^= rnd_state << 13;	/* xorshift32: the same run each time */
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

/* One frame of a capture, broken in one of several ways, into @buf. */
static size_t mutate(const uint8_t *p, size_t flen, uint8_t *buf)
{
	size_t len = flen, i, n;

	memcpy(buf, p, flen);
	switch (rnd() % 5) {
	case 0:		/* truncated, the header told (attributes overrun) */
		len = 4 + rnd() % (flen - 3);
		buf[2] = (uint8_t)(len >> 8);
		buf[3] = (uint8_t)len;
		break;
	case 1:		/* bits flipped */
		for (n = 1 + rnd() % 8; n; n--)
			buf[rnd() % flen] ^= (uint8_t)(1u << (rnd() % 8));
		break;
	case 2:		/* a length that lies: any 16-bit field */
		i = (rnd() % (flen / 2)) * 2;
		buf[i] = (uint8_t)rnd();
		buf[i + 1] = (uint8_t)rnd();
		break;
	case 3:		/* the frame's own length */
		n = rnd() % 0x10000;
		buf[2] = (uint8_t)(n >> 8);
		buf[3] = (uint8_t)n;
		break;
	default:	/* random bytes after a good header */
		for (i = 4 + rnd() % (flen - 4); i < flen; i++)
			buf[i] = (uint8_t)rnd();
	}
	return len;
}

/* Feeds one frame; a frame refused must have changed nothing. */
static void fuzz_one(struct fpm_state *st, const uint8_t *buf, size_t len)
{
	static struct fpm_reader rd;
	const uint8_t *msgs;
	size_t mlen, before;
	int ret;

	fpm_reader_init(&rd);
	fpm_reader_feed(&rd, buf, len);
	while ((ret = fpm_reader_next(&rd, &msgs, &mlen)) > 0) {
		before = calls;
		if (fpm_state_frame(st, msgs, mlen)) {
			assert_int_equal(calls, before);
			break;
		}
	}
}

/* One FPM frame of the netlink messages @msgs: its length. */
static size_t fpm_frame(uint8_t *buf, const uint8_t *msgs, size_t len)
{
	buf[0] = 1;		/* version */
	buf[1] = 1;		/* netlink */
	buf[2] = (uint8_t)((4 + len) >> 8);
	buf[3] = (uint8_t)(4 + len);
	memcpy(buf + 4, msgs, len);
	return 4 + len;
}

/*
 * 10,000 broken frames derived from the captures and from multipath
 * messages (RTA_MULTIPATH; a next hop group): no crash, no half.
 */
static void test_fuzz(void **state)
{
	static const char *const what[] = { "nhg", "nonhg", "restart" };
	static uint8_t bufs[8][8192], buf[8192], msgs[2048];
	size_t lens[8], offs[8][32], nfr[8], i, c, f, end, len;

	for (c = 0; c < 8; c++) {
		char name[128];
		const uint8_t *p;

		if (c == 6) {
			lens[c] = fpm_frame(bufs[c], msgs, multipath_msg(msgs, 3));
		} else if (c == 7) {
			lens[c] = fpm_frame(bufs[c], msgs, group_msgs(msgs));
		} else {
			capture(name, sizeof(name), kernels[c / 3], what[c % 3]);
			p = load(name, &lens[c]);
			memcpy(bufs[c], p, lens[c]);
		}
		nfr[c] = frames(bufs[c], lens[c], offs[c], 32);
	}
	for (i = 0; i < 10000; i++) {
		c = rnd() % 8;
		f = rnd() % nfr[c];
		end = f + 1 < nfr[c] ? offs[c][f + 1] : lens[c];
		len = mutate(bufs[c] + offs[c][f], end - offs[c][f], buf);
		fuzz_one(*state, buf, len);
		if (i % 16 == 15) {	/* the fake kernel holds 64 of each */
			fpm_state_reset(*state);
			nroutes = nsids = 0;
		}
	}
}

/*
 * A stored want gives back the same bytes (routes and SIDs, one segment
 * and the most), and a one-segment route takes a fraction of the struct.
 */
static void check_store(const struct fpm_want *w)
{
	struct fpm_stored *s = fpm_store(w);
	struct fpm_want back;

	assert_non_null(s);
	assert_int_equal(fpm_stored_kind(s), w->kind);
	fpm_load(s, &back);
	assert_int_equal(back.vrftable, w->vrftable);
	if (w->kind == FPM_WANT_ROUTE)
		assert_memory_equal(back.route, w->route,
				    ctl_route_paths(w->route) * sizeof(w->route[0]));
	else
		assert_memory_equal(&back.sid, &w->sid, sizeof(w->sid));
	free(s);
}

static void test_store(void **state)
{
	static struct fpm_want w;
	size_t i;

	(void)state;
	w.kind = FPM_WANT_ROUTE;
	w.route->dst.addr.family = AF_INET;
	w.route->dst.len = 24;
	w.route->table = 10;
	w.route->mode = 1;
	w.route->owner = SEG6X_OWNER_FPMD;
	w.route->protocol = 186;
	w.route->nsegs = 1;
	inet_pton(AF_INET6, "fc00:2::100", &w.route->segs[0]);
	check_store(&w);
	for (i = 1; i < SEG6X_MAX_SEGS; i++)
		w.route->segs[i].s6_addr[15] = (uint8_t)i;
	w.route->nsegs = SEG6X_MAX_SEGS;
	check_store(&w);

	memset(&w, 0, sizeof(w));
	w.kind = FPM_WANT_PENDING;
	w.vrftable = 10;
	w.sid.len = 128;
	w.sid.behavior = 1;
	w.sid.owner = SEG6X_OWNER_FPMD;
	w.sid.nsegs = 2;
	w.sid.segs[1].s6_addr[0] = 0xfc;
	check_store(&w);
	w.kind = FPM_WANT_SID;
	w.sid.vrf = 7;
	check_store(&w);

	/* Too many segments is not a want fpm_map() makes: refused. */
	w.sid.nsegs = SEG6X_MAX_SEGS + 1;
	assert_null(fpm_store(&w));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_nhg, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nonhg, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pieces, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replay_sweep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pending_vrf, setup, teardown),
		cmocka_unit_test_setup_teardown(test_overwritten, setup, teardown),
		cmocka_unit_test_setup_teardown(test_displaced, setup, teardown),
		cmocka_unit_test_setup_teardown(test_del_new_one_frame, setup, teardown),
		cmocka_unit_test_setup_teardown(test_segments_hmac, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fuzz, setup, teardown),
		cmocka_unit_test(test_store),
		cmocka_unit_test_setup_teardown(test_multipath, setup, teardown),
		cmocka_unit_test_setup_teardown(test_multipath_group, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

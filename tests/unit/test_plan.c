// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of seg6ctl sync's plan (plan.c, match.c): what it does with
 * each kind of entry, given what a file declares and what runs. No
 * kernel, no I/O: plan = f(file, running).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "plan.h"

#define MAX 8

/* A file's entries and a namespace's, filled by each test. */
static struct conf file;
static struct conf_route file_routes[MAX];
static struct ctl_route file_paths[MAX];	/* file_routes[i].r */
static char file_devs[MAX][IF_NAMESIZE];	/* file_routes[i].devs */
static struct conf_sid file_sids[MAX];
static struct conf_key file_keys[MAX];
static struct conf_iface file_ifaces[MAX];
static struct plan_state ns;
static struct ctl_route ns_routes[MAX];
static struct ctl_sid ns_sids[MAX];
static struct ctl_key ns_keys[MAX];
static struct ctl_iface ns_ifaces[MAX];
static struct plan p;

static int setup(void **state)
{
	(void)state;
	memset(&file, 0, sizeof(file));
	memset(&ns, 0, sizeof(ns));
	memset(file_routes, 0, sizeof(file_routes));
	memset(file_paths, 0, sizeof(file_paths));
	memset(file_devs, 0, sizeof(file_devs));
	for (size_t i = 0; i < MAX; i++) {
		file_routes[i].r = &file_paths[i];
		file_routes[i].devs = &file_devs[i];
	}
	memset(file_sids, 0, sizeof(file_sids));
	memset(file_keys, 0, sizeof(file_keys));
	memset(file_ifaces, 0, sizeof(file_ifaces));
	memset(ns_routes, 0, sizeof(ns_routes));
	memset(ns_sids, 0, sizeof(ns_sids));
	memset(ns_keys, 0, sizeof(ns_keys));
	memset(ns_ifaces, 0, sizeof(ns_ifaces));
	file.routes = file_routes;
	file.sids = file_sids;
	file.keys = file_keys;
	file.ifaces = file_ifaces;
	ns.routes = ns_routes;
	ns.sids = ns_sids;
	ns.keys = ns_keys;
	ns.ifaces = ns_ifaces;
	/* Every namespace lists its default policy. */
	ns.nifaces = 1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	plan_free(&p);
	return 0;
}

static void make(bool all_owners)
{
	plan_free(&p);
	assert_int_equal(plan_make(&file, &ns, all_owners, &p), 0);
}

static void route(struct ctl_route *r, const char *prefix, unsigned int len,
		  const char *seg, uint32_t oif)
{
	memset(r, 0, sizeof(*r));
	r->dst.addr.family = strchr(prefix, ':') ? AF_INET6 : AF_INET;
	assert_int_equal(inet_pton(r->dst.addr.family, prefix,
				   r->dst.addr.bytes), 1);
	r->dst.len = len;
	r->table = 254;
	r->oif = oif;
	r->mode = SEG6X_IPTUN_MODE_ENCAP;
	r->nsegs = 1;
	assert_int_equal(inet_pton(AF_INET6, seg, &r->segs[0]), 1);
}

/* What a dump gives for @r: the metric the kernel set. */
static void running(struct ctl_route *r)
{
	r->metric = match_route_metric(r);
	r->has_metric = r->dst.addr.family == AF_INET6 || r->metric;
}

static void sid(struct ctl_sid *s, const char *prefix, unsigned int len,
		uint16_t behavior)
{
	memset(s, 0, sizeof(*s));
	assert_int_equal(inet_pton(AF_INET6, prefix, &s->prefix), 1);
	s->len = (uint8_t)len;
	s->behavior = behavior;
}

static void step_is(size_t i, enum plan_op op, enum plan_obj obj,
		    enum plan_why why)
{
	assert_true(i < p.n);
	assert_int_equal(p.steps[i].op, op);
	assert_int_equal(p.steps[i].obj, obj);
	assert_int_equal(p.steps[i].why, why);
}

/* Nothing declared, nothing running (module defaults): nothing to do. */
static void test_empty(void **state)
{
	(void)state;
	make(false);
	assert_int_equal(p.n, 0);
}

/*
 * An empty file (seg6x.service's stop): everything without an owner
 * goes, tunsrc and "default" go back to where a namespace starts.
 */
static void test_empty_file_removes(void **state)
{
	(void)state;
	inet_pton(AF_INET6, "fc00::1", &ns.tunsrc);
	ns.param_require_hmac = 1;
	ns_ifaces[0].require_hmac = 0;
	ns_keys[0].keyid = 7;
	ns.nkeys = 1;
	route(&ns_routes[0], "fc00:4::", 64, "fc00:ff::2", 3);
	route(&ns_routes[1], "fc00:5::", 64, "fc00:ff::2", 3);
	ns_routes[1].owner = SEG6X_OWNER_FPMD;
	ns.nroutes = 2;
	sid(&ns_sids[0], "fc00:e2::1", 128, SEG6X_BEHAVIOR_END);
	ns.nsids = 1;
	make(false);
	assert_int_equal(p.n, 5);
	step_is(0, PLAN_CHANGE, PLAN_TUNSRC, WHY_NONE);
	step_is(1, PLAN_CHANGE, PLAN_IFACE, WHY_NONE);
	assert_int_equal(p.steps[1].iface.require_hmac, 1);
	step_is(2, PLAN_DEL, PLAN_ROUTE, WHY_NONE);
	assert_ptr_equal(p.steps[2].have, &ns_routes[0]);
	step_is(3, PLAN_DEL, PLAN_SID, WHY_NONE);
	step_is(4, PLAN_DEL, PLAN_KEY, WHY_NONE);
}

/* Identical entries: no step at all, so no write (SID counters stay). */
static void test_identical(void **state)
{
	(void)state;
	route(file_routes[0].r, "fc00:4::", 64, "fc00:ff::2", 3);
	route(&ns_routes[0], "fc00:4::", 64, "fc00:ff::2", 3);
	running(&ns_routes[0]);
	route(file_routes[1].r, "10.0.0.0", 8, "fc00:ff::9", 3);
	route(&ns_routes[1], "10.0.0.0", 8, "fc00:ff::9", 3);
	running(&ns_routes[1]);
	file.nroutes = ns.nroutes = 2;
	sid(&file_sids[0].s, "fc00:e2::100", 128, SEG6X_BEHAVIOR_END);
	file_sids[0].s.attrs = CTL_SID_F(SEG6X_SID_COUNT);
	sid(&ns_sids[0], "fc00:e2::100", 128, SEG6X_BEHAVIOR_END);
	/* a dump also has the key, the counters, and the count flag */
	ns_sids[0].attrs = CTL_SID_F(SEG6X_SID_PREFIX) |
			   CTL_SID_F(SEG6X_SID_PREFIX_LEN) |
			   CTL_SID_F(SEG6X_SID_BEHAVIOR) |
			   CTL_SID_F(SEG6X_SID_COUNT) |
			   CTL_SID_F(SEG6X_SID_COUNTERS);
	ns_sids[0].has_counters = true;
	ns_sids[0].packets = 12;
	file.nsids = ns.nsids = 1;
	file.has_tunsrc = true;
	inet_pton(AF_INET6, "fc00::1", &file.tunsrc);
	ns.tunsrc = file.tunsrc;
	make(false);
	assert_int_equal(p.n, 0);
}

static void test_route_add_change_delete(void **state)
{
	(void)state;
	route(file_routes[0].r, "fc00:4::", 64, "fc00:ff::2", 3);	/* new */
	route(file_routes[1].r, "fc00:5::", 64, "fc00:ff::3", 3);	/* changed */
	route(&ns_routes[0], "fc00:5::", 64, "fc00:ff::4", 3);
	route(&ns_routes[1], "fc00:6::", 64, "fc00:ff::5", 3);		/* gone */
	running(&ns_routes[0]);
	running(&ns_routes[1]);
	file.nroutes = ns.nroutes = 2;
	make(false);
	assert_int_equal(p.n, 3);
	step_is(0, PLAN_ADD, PLAN_ROUTE, WHY_NONE);
	assert_ptr_equal(p.steps[0].want, &file_routes[0]);
	step_is(1, PLAN_CHANGE, PLAN_ROUTE, WHY_NONE);
	assert_ptr_equal(p.steps[1].have, &ns_routes[0]);
	step_is(2, PLAN_DEL, PLAN_ROUTE, WHY_NONE);
	assert_ptr_equal(p.steps[2].have, &ns_routes[1]);
}

/* A route's place is its table, prefix and metric, as the kernel keys. */
static void test_route_place(void **state)
{
	(void)state;
	/* no metric in the file is IPv6's 1024, and metric 0 too */
	route(file_routes[0].r, "fc00:4::", 64, "fc00:ff::2", 3);
	route(file_routes[1].r, "fc00:5::", 64, "fc00:ff::2", 3);
	file_routes[1].r->has_metric = true;
	route(&ns_routes[0], "fc00:4::", 64, "fc00:ff::2", 3);
	route(&ns_routes[1], "fc00:5::", 64, "fc00:ff::2", 3);
	running(&ns_routes[0]);
	running(&ns_routes[1]);
	/* another metric, another table: other places */
	route(&ns_routes[2], "fc00:4::", 64, "fc00:ff::2", 3);
	ns_routes[2].has_metric = true;
	ns_routes[2].metric = 100;
	route(&ns_routes[3], "fc00:4::", 64, "fc00:ff::2", 3);
	ns_routes[3].table = 100;
	running(&ns_routes[3]);
	file.nroutes = 2;
	ns.nroutes = 4;
	make(false);
	assert_int_equal(p.n, 2);
	step_is(0, PLAN_DEL, PLAN_ROUTE, WHY_NONE);
	assert_ptr_equal(p.steps[0].have, &ns_routes[2]);
	step_is(1, PLAN_DEL, PLAN_ROUTE, WHY_NONE);
	assert_ptr_equal(p.steps[1].have, &ns_routes[3]);
}

/* Each field of a route that the kernel keeps makes it differ. */
static void test_route_fields(void **state)
{
	struct ctl_route a, b;

	(void)state;
	route(&a, "fc00:4::", 64, "fc00:ff::2", 3);
	b = a;
	assert_true(match_route(&a, &b));
	b.oif = 4;
	assert_false(match_route(&a, &b));
	b = a;
	b.has_via = true;
	b.via.family = AF_INET6;
	assert_false(match_route(&a, &b));
	a.has_via = true;
	a.via = b.via;
	assert_true(match_route(&a, &b));
	b.via.bytes[15] = 1;
	assert_false(match_route(&a, &b));
	b = a;
	b.mode = SEG6X_IPTUN_MODE_INLINE;
	assert_false(match_route(&a, &b));
	b = a;
	b.nsegs = 2;
	assert_false(match_route(&a, &b));
	b = a;
	b.has_hmac = true;
	b.hmac = 7;
	assert_false(match_route(&a, &b));
	b = a;
	b.owner = SEG6X_OWNER_FPMD;
	assert_false(match_route(&a, &b));
	b = a;
	b.protocol = 186;	/* a routing daemon's */
	assert_false(match_route(&a, &b));
	/* a device that is missing (index 0) matches nothing */
	a.oif = b.oif = 0;
	b = a;
	assert_false(match_route(&a, &b));
}

static void test_sid_add_change_delete(void **state)
{
	(void)state;
	sid(&file_sids[0].s, "fc00:e2::1", 128, SEG6X_BEHAVIOR_END);
	sid(&file_sids[1].s, "fc00:e2::2", 128, SEG6X_BEHAVIOR_END_T);
	file_sids[1].s.attrs = CTL_SID_F(SEG6X_SID_TABLE);
	file_sids[1].s.table = 100;
	sid(&ns_sids[0], "fc00:e2::2", 128, SEG6X_BEHAVIOR_END_T);
	ns_sids[0].attrs = CTL_SID_F(SEG6X_SID_TABLE);
	ns_sids[0].table = 200;
	sid(&ns_sids[1], "fc00:e2::3", 128, SEG6X_BEHAVIOR_END);
	/* same prefix, another length: another SID */
	sid(&ns_sids[2], "fc00:e2::1", 64, SEG6X_BEHAVIOR_END);
	file.nsids = 2;
	ns.nsids = 3;
	make(false);
	assert_int_equal(p.n, 4);
	step_is(0, PLAN_ADD, PLAN_SID, WHY_NONE);
	step_is(1, PLAN_CHANGE, PLAN_SID, WHY_NONE);
	step_is(2, PLAN_DEL, PLAN_SID, WHY_NONE);
	assert_ptr_equal(p.steps[2].have, &ns_sids[1]);
	step_is(3, PLAN_DEL, PLAN_SID, WHY_NONE);
	assert_ptr_equal(p.steps[3].have, &ns_sids[2]);
}

/* Attributes compare as the module compares them: given, and values. */
static void test_sid_fields(void **state)
{
	struct ctl_sid a, b;

	(void)state;
	sid(&a, "fc00:e2::1", 128, SEG6X_BEHAVIOR_END);
	b = a;
	assert_true(match_sid(&a, &b));
	b.attrs = CTL_SID_F(SEG6X_SID_COUNT);		/* count or not */
	assert_false(match_sid(&a, &b));
	b = a;
	b.behavior = SEG6X_BEHAVIOR_END_X;
	assert_false(match_sid(&a, &b));
	a.attrs = b.attrs = CTL_SID_F(SEG6X_SID_FLAVORS);
	a.flavors = SEG6X_FLV_PSP;
	b = a;
	b.behavior = SEG6X_BEHAVIOR_END;
	assert_true(match_sid(&a, &b));
	b.flavors = SEG6X_FLV_USP;
	assert_false(match_sid(&a, &b));
	/* next-csid lengths given or not: the kernel keeps the difference */
	b = a;
	b.attrs |= CTL_SID_F(SEG6X_SID_LBLEN);
	b.lblen = 32;
	assert_false(match_sid(&a, &b));
	/* an owner is compared by value, absent is 0 */
	b = a;
	b.attrs |= CTL_SID_F(SEG6X_SID_OWNER);
	b.owner = 0;
	assert_true(match_sid(&a, &b));
	b.owner = SEG6X_OWNER_FPMD;
	assert_false(match_sid(&a, &b));
	/* a dead SID is never the same: it is built again */
	b = a;
	b.dead = true;
	assert_false(match_sid(&a, &b));
}

static void test_sid_dead_rebuilt(void **state)
{
	(void)state;
	sid(&file_sids[0].s, "fc00:e2::1", 128, SEG6X_BEHAVIOR_END_DX2);
	file_sids[0].s.attrs = CTL_SID_F(SEG6X_SID_OIF);
	file_sids[0].s.oif = 5;
	ns_sids[0] = file_sids[0].s;
	ns_sids[0].dead = true;
	file.nsids = ns.nsids = 1;
	make(false);
	assert_int_equal(p.n, 1);
	step_is(0, PLAN_CHANGE, PLAN_SID, WHY_DEAD);
}

/* A device missing now: the step is planned and will say so. */
static void test_missing_device(void **state)
{
	(void)state;
	route(file_routes[0].r, "fc00:4::", 64, "fc00:ff::2", 0);
	strcpy(file_routes[0].devs[0], "eth9");
	file.nroutes = 1;
	sid(&file_sids[0].s, "fc00:e2::1", 128, SEG6X_BEHAVIOR_END_DT4);
	file_sids[0].s.attrs = CTL_SID_F(SEG6X_SID_VRF);
	file.nsids = 1;
	file_ifaces[0].set.has_seg6_enabled = true;
	file_ifaces[0].set.seg6_enabled = 1;
	strcpy(file_ifaces[0].name, "eth9");
	file.nifaces = 1;
	make(false);
	assert_int_equal(p.n, 3);
	step_is(0, PLAN_CHANGE, PLAN_IFACE, WHY_NODEV);
	assert_string_equal(p.steps[0].ifname, "eth9");
	step_is(1, PLAN_ADD, PLAN_SID, WHY_NODEV);
	step_is(2, PLAN_ADD, PLAN_ROUTE, WHY_NODEV);
}

/*
 * Keys: always set (a secret cannot be compared: the file's may have
 * been rotated), deleted last, after what may refer to them.
 */
static void test_keys(void **state)
{
	(void)state;
	file_keys[0].keyid = 7;
	file_keys[0].algo = SEG6X_HMAC_ALGO_SHA256;
	file_keys[1].keyid = 8;
	file_keys[1].algo = SEG6X_HMAC_ALGO_SHA256;
	file_keys[2].keyid = 9;
	file_keys[2].algo = SEG6X_HMAC_ALGO_SHA1;
	file.nkeys = 3;
	ns_keys[0].keyid = 7;
	ns_keys[0].algo = SEG6X_HMAC_ALGO_SHA256;
	ns_keys[1].keyid = 8;
	ns_keys[1].algo = SEG6X_HMAC_ALGO_SHA1;
	ns_keys[2].keyid = 10;
	ns_keys[2].algo = SEG6X_HMAC_ALGO_SHA1;
	ns.nkeys = 3;
	route(&ns_routes[0], "fc00:6::", 64, "fc00:ff::5", 3);
	running(&ns_routes[0]);
	ns.nroutes = 1;
	make(false);
	assert_int_equal(p.n, 5);
	step_is(0, PLAN_CHANGE, PLAN_KEY, WHY_SECRET);
	step_is(1, PLAN_CHANGE, PLAN_KEY, WHY_NONE);	/* another algorithm */
	step_is(2, PLAN_ADD, PLAN_KEY, WHY_NONE);
	step_is(3, PLAN_DEL, PLAN_ROUTE, WHY_NONE);
	step_is(4, PLAN_DEL, PLAN_KEY, WHY_NONE);
	assert_ptr_equal(p.steps[4].have, &ns_keys[2]);
}

static void test_tunsrc(void **state)
{
	(void)state;
	/* not in the file: back to "::" */
	inet_pton(AF_INET6, "fc00::1", &ns.tunsrc);
	make(false);
	assert_int_equal(p.n, 1);
	step_is(0, PLAN_CHANGE, PLAN_TUNSRC, WHY_NONE);
	assert_true(IN6_IS_ADDR_UNSPECIFIED(&p.steps[0].tunsrc));

	file.has_tunsrc = true;
	inet_pton(AF_INET6, "fc00::2", &file.tunsrc);
	make(false);
	assert_int_equal(p.n, 1);
	assert_memory_equal(&p.steps[0].tunsrc, &file.tunsrc,
			    sizeof(file.tunsrc));
}

/*
 * Routes and SIDs with an owner the file does not name are not the
 * file's: never deleted, never replaced (a conflict if the file wants
 * their place); the file naming the owner, or --all-owners, makes them so.
 */
static void test_owners(void **state)
{
	(void)state;
	route(&ns_routes[0], "fc00:7::", 64, "fc00:ff::7", 3);
	ns_routes[0].owner = SEG6X_OWNER_FPMD;
	ns_routes[0].protocol = 186;
	running(&ns_routes[0]);
	route(&ns_routes[1], "fc00:8::", 64, "fc00:ff::8", 3);
	ns_routes[1].owner = SEG6X_OWNER_FPMD;
	running(&ns_routes[1]);
	ns.nroutes = 2;
	sid(&ns_sids[0], "fc00:e2::7", 128, SEG6X_BEHAVIOR_END);
	ns_sids[0].attrs = CTL_SID_F(SEG6X_SID_OWNER);
	ns_sids[0].owner = SEG6X_OWNER_FPMD;
	ns.nsids = 1;
	make(false);
	assert_int_equal(p.n, 0);

	/* the file wants one's place, without an owner */
	route(file_routes[0].r, "fc00:8::", 64, "fc00:ff::1", 3);
	file.nroutes = 1;
	make(false);
	assert_int_equal(p.n, 1);
	step_is(0, PLAN_CONFLICT, PLAN_ROUTE, WHY_OWNER);
	assert_ptr_equal(p.steps[0].have, &ns_routes[1]);

	/* --all-owners: replaced, and the others deleted */
	make(true);
	assert_int_equal(p.n, 3);
	step_is(0, PLAN_CHANGE, PLAN_ROUTE, WHY_NONE);
	step_is(1, PLAN_DEL, PLAN_ROUTE, WHY_NONE);
	assert_ptr_equal(p.steps[1].have, &ns_routes[0]);
	step_is(2, PLAN_DEL, PLAN_SID, WHY_NONE);

	/* the file names fpmd: its entries are the file's */
	file_routes[0].r->owner = SEG6X_OWNER_FPMD;
	file.owners[SEG6X_OWNER_FPMD / 8] |= 1u << (SEG6X_OWNER_FPMD % 8);
	make(false);
	assert_int_equal(p.n, 3);
	step_is(0, PLAN_CHANGE, PLAN_ROUTE, WHY_NONE);
	step_is(1, PLAN_DEL, PLAN_ROUTE, WHY_NONE);
	step_is(2, PLAN_DEL, PLAN_SID, WHY_NONE);

	/* other owners stay other */
	ns_routes[0].owner = 200;
	ns_sids[0].owner = 200;
	make(false);
	assert_int_equal(p.n, 1);
	step_is(0, PLAN_CHANGE, PLAN_ROUTE, WHY_NONE);
}

/* The default policy: the file's fields, else the module parameters. */
static void test_default_policy(void **state)
{
	(void)state;
	ns.param_seg6_enabled = 0;
	ns.param_require_hmac = 0;
	ns_ifaces[0].seg6_enabled = 1;		/* set by hand */
	ns_ifaces[0].require_hmac = 0;
	make(false);
	assert_int_equal(p.n, 1);
	step_is(0, PLAN_CHANGE, PLAN_IFACE, WHY_NONE);
	assert_int_equal(p.steps[0].iface.ifindex, 0);
	assert_true(p.steps[0].iface.has_seg6_enabled);
	assert_int_equal(p.steps[0].iface.seg6_enabled, 0);
	assert_string_equal(p.steps[0].ifname, "default");

	file.def.set.has_seg6_enabled = true;
	file.def.set.seg6_enabled = 1;
	make(false);
	assert_int_equal(p.n, 0);

	/* module loaded with seg6_require_hmac=1: so is "default" */
	ns.param_require_hmac = 1;
	make(false);
	assert_int_equal(p.n, 1);
	assert_int_equal(p.steps[0].iface.require_hmac, 1);
}

/*
 * An interface's fields: those the file gives are its own; the others
 * follow "default", and one that is its own already (the kernel cannot
 * drop it) is set to the default's value if it differs.
 */
static void test_iface_fields(void **state)
{
	(void)state;
	ns_ifaces[1].ifindex = 3;
	strcpy(ns_ifaces[1].ifname, "eth0");
	ns_ifaces[1].explicit = ns_ifaces[1].explicit_hmac = true;
	ns_ifaces[1].require_hmac = 1;
	ns_ifaces[2].ifindex = 4;
	strcpy(ns_ifaces[2].ifname, "eth1");
	ns_ifaces[2].seg6_enabled = 0;		/* follows default */
	ns.nifaces = 3;
	file_ifaces[0].set.ifindex = 4;
	strcpy(file_ifaces[0].name, "eth1");
	file_ifaces[0].set.has_seg6_enabled = true;
	file_ifaces[0].set.seg6_enabled = 0;	/* same value, but its own */
	file.nifaces = 1;
	make(false);
	assert_int_equal(p.n, 2);
	step_is(0, PLAN_CHANGE, PLAN_IFACE, WHY_NONE);
	assert_int_equal(p.steps[0].iface.ifindex, 4);
	assert_true(p.steps[0].iface.has_seg6_enabled);
	assert_false(p.steps[0].iface.has_require_hmac);
	step_is(1, PLAN_CHANGE, PLAN_IFACE, WHY_PINNED);
	assert_string_equal(p.steps[1].ifname, "eth0");
	assert_false(p.steps[1].iface.has_seg6_enabled);
	assert_true(p.steps[1].iface.has_require_hmac);
	assert_int_equal(p.steps[1].iface.require_hmac, 0);

	/* once done: eth1's own 0, eth0's own 0 that "default" has too */
	ns_ifaces[2].explicit = ns_ifaces[2].explicit_enabled = true;
	ns_ifaces[1].require_hmac = 0;
	make(false);
	assert_int_equal(p.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_file_removes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_identical, setup, teardown),
		cmocka_unit_test_setup_teardown(test_route_add_change_delete,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_route_place, setup, teardown),
		cmocka_unit_test_setup_teardown(test_route_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sid_add_change_delete,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_sid_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sid_dead_rebuilt, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_missing_device, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tunsrc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_owners, setup, teardown),
		cmocka_unit_test_setup_teardown(test_default_policy, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_iface_fields, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/* Unit tests of seg6ctl's argument parsers, bad input first and foremost. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/seg6x.h>

#include "parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void test_u32_valid(void **state)
{
	uint32_t v;

	(void)state;
	assert_int_equal(parse_u32("0", 0, UINT32_MAX, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_u32("4294967295", 0, UINT32_MAX, &v), 0);
	assert_true(v == UINT32_MAX);
	assert_int_equal(parse_u32("007", 0, 10, &v), 0);
	assert_int_equal(v, 7);
}

static void test_u32_junk(void **state)
{
	static const char *const bad[] = {
		"", "-1", "+1", " 1", "1 ", "12abc", "0x10", "1.0", "1e3", "-",
	};
	uint32_t v = 42;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(parse_u32(bad[i], 0, UINT32_MAX, &v), -EINVAL);
	assert_int_equal(parse_u32(NULL, 0, UINT32_MAX, &v), -EINVAL);
	/* A failed parse leaves the output alone. */
	assert_int_equal(v, 42);
}

static void test_u32_range(void **state)
{
	uint32_t v;

	(void)state;
	assert_int_equal(parse_u32("4294967296", 0, UINT32_MAX, &v), -ERANGE);
	assert_int_equal(parse_u32("99999999999999999999999", 0, UINT32_MAX, &v),
			 -ERANGE);
	/* KEYID 0 is not a key. */
	assert_int_equal(parse_u32("0", 1, UINT32_MAX, &v), -ERANGE);
	assert_int_equal(parse_u32("2", 0, 1, &v), -ERANGE);
}

static void test_s32(void **state)
{
	int32_t v;

	(void)state;
	assert_int_equal(parse_s32("-1", -1, 1, &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(parse_s32("0", -1, 1, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_s32("1", -1, 1, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(parse_s32("-0", -1, 1, &v), 0);
	assert_int_equal(v, 0);

	assert_int_equal(parse_s32("2", -1, 1, &v), -ERANGE);
	assert_int_equal(parse_s32("-2", -1, 1, &v), -ERANGE);
	assert_int_equal(parse_s32("-99999999999", INT32_MIN, INT32_MAX, &v),
			 -ERANGE);

	assert_int_equal(parse_s32("-", -1, 1, &v), -EINVAL);
	assert_int_equal(parse_s32("--1", -1, 1, &v), -EINVAL);
	assert_int_equal(parse_s32("+1", -1, 1, &v), -EINVAL);
	assert_int_equal(parse_s32("1-", -1, 1, &v), -EINVAL);
	assert_int_equal(parse_s32("", -1, 1, &v), -EINVAL);
	assert_int_equal(parse_s32("one", -1, 1, &v), -EINVAL);
}

static void test_in6(void **state)
{
	static const char *const bad[] = {
		"", "10.0.0.1", "fc00:::1", "gggg::1", "fe80::1%eth0",
		"fc00::1/64", "1:2:3:4:5:6:7:8:9", " fc00::1", "fc00::1 ",
	};
	struct in6_addr a;
	size_t i;

	(void)state;
	assert_int_equal(parse_in6("::", &a), 0);
	assert_true(IN6_IS_ADDR_UNSPECIFIED(&a));
	assert_int_equal(parse_in6("fc00::1", &a), 0);
	assert_int_equal(a.s6_addr[0], 0xfc);
	assert_int_equal(a.s6_addr[15], 1);
	assert_int_equal(parse_in6("::ffff:10.0.0.1", &a), 0);

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(parse_in6(bad[i], &a), -EINVAL);
	assert_int_equal(parse_in6(NULL, &a), -EINVAL);
}

static void test_inet_addr(void **state)
{
	static const char *const bad[] = {
		"", "10.0.0", "256.0.0.1", "10.0.0.1.2", "10.0.0.1:", "fc00::g",
		"localhost",
	};
	struct inet_addr a;
	size_t i;

	(void)state;
	assert_int_equal(parse_inet_addr("192.0.2.1", &a), 0);
	assert_int_equal(a.family, AF_INET);
	assert_int_equal(a.bytes[0], 192);
	assert_int_equal(a.bytes[3], 1);
	assert_int_equal(parse_inet_addr("fe80::1", &a), 0);
	assert_int_equal(a.family, AF_INET6);
	assert_int_equal(a.bytes[0], 0xfe);

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(parse_inet_addr(bad[i], &a), -EINVAL);
}

static void test_prefix_valid(void **state)
{
	struct inet_prefix p;

	(void)state;
	assert_int_equal(parse_inet_prefix("fc00::/64", &p), 0);
	assert_int_equal(p.addr.family, AF_INET6);
	assert_int_equal(p.len, 64);
	assert_int_equal(p.addr.bytes[0], 0xfc);

	/* A bare address is a host prefix. */
	assert_int_equal(parse_inet_prefix("fc00::1", &p), 0);
	assert_int_equal(p.len, 128);
	assert_int_equal(parse_inet_prefix("10.0.0.1", &p), 0);
	assert_int_equal(p.addr.family, AF_INET);
	assert_int_equal(p.len, 32);

	assert_int_equal(parse_inet_prefix("10.0.0.0/24", &p), 0);
	assert_int_equal(p.len, 24);
	assert_int_equal(parse_inet_prefix("::/0", &p), 0);
	assert_int_equal(p.len, 0);
	assert_int_equal(parse_inet_prefix("0.0.0.0/0", &p), 0);
	assert_int_equal(parse_inet_prefix("fc00::1/128", &p), 0);
	assert_int_equal(parse_inet_prefix("10.0.0.128/25", &p), 0);
}

static void test_route_prefix(void **state)
{
	struct inet_prefix p;
	struct in6_addr any = IN6ADDR_ANY_INIT;

	(void)state;
	memset(&p, 0xff, sizeof(p));
	assert_int_equal(parse_route_prefix("default", &p), 0);
	assert_int_equal(p.addr.family, AF_INET6);
	assert_int_equal(p.len, 0);
	assert_memory_equal(p.addr.bytes, &any, sizeof(any));
	assert_int_equal(parse_route_prefix("fc00::/64", &p), 0);
	assert_int_equal(p.len, 64);
	assert_int_equal(parse_route_prefix("0.0.0.0/0", &p), 0);
	assert_int_equal(p.addr.family, AF_INET);
	assert_int_equal(parse_route_prefix("Default", &p), -EINVAL);
	assert_int_equal(parse_route_prefix("default/0", &p), -EINVAL);
	assert_int_equal(parse_route_prefix(NULL, &p), -EINVAL);
}

static void test_prefix_bad(void **state)
{
	static const char *const bad[] = {
		"", "/64", "fc00::/", "fc00::/-1", "fc00::/64x", "fc00::/ 64",
		"fc00::/64/1", "10.0.0.0/24/", "fc00:::/64", "10.0.0/24",
		"fc00::/0x40",
		"0000:0000:0000:0000:0000:0000:0000:0000:0000/64",
		/* Longer than any address: must not overrun the copy. */
		"11111111111111111111111111111111111111111111111111111111::/64",
	};
	struct inet_prefix p;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(parse_inet_prefix(bad[i], &p), -EINVAL);
	assert_int_equal(parse_inet_prefix(NULL, &p), -EINVAL);
}

static void test_prefix_range(void **state)
{
	struct inet_prefix p;

	(void)state;
	assert_int_equal(parse_inet_prefix("fc00::/129", &p), -ERANGE);
	assert_int_equal(parse_inet_prefix("10.0.0.0/33", &p), -ERANGE);
	assert_int_equal(parse_inet_prefix("10.0.0.0/4294967296", &p), -ERANGE);
}

static void test_prefix_host_bits(void **state)
{
	struct inet_prefix p;

	(void)state;
	assert_int_equal(parse_inet_prefix("fc00::1/64", &p), -EDOM);
	assert_int_equal(parse_inet_prefix("10.0.0.1/24", &p), -EDOM);
	assert_int_equal(parse_inet_prefix("10.0.0.128/24", &p), -EDOM);
	assert_int_equal(parse_inet_prefix("::1/0", &p), -EDOM);
	assert_int_equal(parse_inet_prefix("fc00::8000:0/96", &p), -EDOM);
}

static void test_segs_valid(void **state)
{
	struct in6_addr segs[SEG6X_MAX_SEGS], want;
	size_t n = 0;

	(void)state;
	assert_int_equal(parse_segs("2001:db8::1", segs, SEG6X_MAX_SEGS, &n), 0);
	assert_int_equal(n, 1);

	assert_int_equal(parse_segs("2001:db8::1,2001:db8::2,::", segs,
				    SEG6X_MAX_SEGS, &n), 0);
	assert_int_equal(n, 3);
	/* Path order is kept. */
	inet_pton(AF_INET6, "2001:db8::1", &want);
	assert_memory_equal(&segs[0], &want, sizeof(want));
	inet_pton(AF_INET6, "2001:db8::2", &want);
	assert_memory_equal(&segs[1], &want, sizeof(want));
	assert_true(IN6_IS_ADDR_UNSPECIFIED(&segs[2]));
}

static void test_segs_bad(void **state)
{
	static const char *const bad[] = {
		"", ",", ",,", "2001:db8::1,", ",2001:db8::1",
		"2001:db8::1,,2001:db8::2", "2001:db8::1, 2001:db8::2",
		"2001:db8::1,xyz", "10.0.0.1", "2001:db8::1;2001:db8::2",
		"2001:db8::/64",
	};
	struct in6_addr segs[SEG6X_MAX_SEGS];
	size_t n = 99;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(parse_segs(bad[i], segs, SEG6X_MAX_SEGS, &n),
				 -EINVAL);
	assert_int_equal(parse_segs(NULL, segs, SEG6X_MAX_SEGS, &n), -EINVAL);
	assert_int_equal(n, 99);
}

/* "fc00::1,fc00::2,..." with @count segments. */
static void make_list(char *buf, size_t len, size_t count)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < count; i++)
		off += (size_t)snprintf(buf + off, len - off, "%sfc00::%zx",
					i ? "," : "", i + 1);
}

static void test_segs_limits(void **state)
{
	struct in6_addr segs[SEG6X_MAX_SEGS + 1];
	char list[(SEG6X_MAX_SEGS + 1) * 16];
	size_t n;

	(void)state;
	make_list(list, sizeof(list), SEG6X_MAX_SEGS);
	assert_int_equal(parse_segs(list, segs, SEG6X_MAX_SEGS, &n), 0);
	assert_int_equal(n, SEG6X_MAX_SEGS);

	make_list(list, sizeof(list), SEG6X_MAX_SEGS + 1);
	assert_int_equal(parse_segs(list, segs, SEG6X_MAX_SEGS, &n), -E2BIG);

	make_list(list, sizeof(list), SEG6X_MAX_SEGS_HMAC);
	assert_int_equal(parse_segs(list, segs, SEG6X_MAX_SEGS_HMAC, &n), 0);
	make_list(list, sizeof(list), SEG6X_MAX_SEGS_HMAC + 1);
	assert_int_equal(parse_segs(list, segs, SEG6X_MAX_SEGS_HMAC, &n), -E2BIG);
}

/* The kinds of address the module refuses, as it tells them apart. */
static void test_address_kinds(void **state)
{
	const unsigned int all = IN6_KIND_ANY | IN6_KIND_MULTICAST |
				 IN6_KIND_LOOPBACK | IN6_KIND_MAPPED;
	struct in6_addr a[3];
	struct in_addr v4;

	(void)state;
	inet_pton(AF_INET6, "::", &a[0]);
	assert_int_equal(in6_kind(&a[0], all), IN6_KIND_ANY);
	assert_int_equal(in6_kind(&a[0], IN6_KIND_MULTICAST), 0);
	inet_pton(AF_INET6, "ff02::1", &a[0]);
	assert_int_equal(in6_kind(&a[0], all), IN6_KIND_MULTICAST);
	inet_pton(AF_INET6, "::1", &a[0]);
	assert_int_equal(in6_kind(&a[0], all), IN6_KIND_LOOPBACK);
	inet_pton(AF_INET6, "::ffff:10.0.0.1", &a[0]);
	assert_int_equal(in6_kind(&a[0], all), IN6_KIND_MAPPED);
	inet_pton(AF_INET6, "fe80::1", &a[0]);
	assert_int_equal(in6_kind(&a[0], all), 0);

	inet_pton(AF_INET6, "fc00::1", &a[1]);
	inet_pton(AF_INET6, "ff05::2", &a[2]);
	assert_int_equal(in6_first_of_kind(a, 3, all), 2);
	assert_int_equal(in6_first_of_kind(a, 2, all), -1);

	inet_pton(AF_INET, "10.0.0.1", &v4);
	assert_true(in4_unicast(&v4));
	inet_pton(AF_INET, "0.1.2.3", &v4);
	assert_false(in4_unicast(&v4));
	inet_pton(AF_INET, "239.1.1.1", &v4);
	assert_false(in4_unicast(&v4));
	inet_pton(AF_INET, "255.255.255.255", &v4);
	assert_false(in4_unicast(&v4));
	inet_pton(AF_INET, "240.0.0.1", &v4);
	assert_true(in4_unicast(&v4));
}

static void test_keywords(void **state)
{
	static const char *const words[] = { NULL, "one", NULL, "three" };

	(void)state;
	assert_int_equal(parse_keyword("one", words, ARRAY_SIZE(words)), 1);
	assert_int_equal(parse_keyword("three", words, ARRAY_SIZE(words)), 3);
	assert_int_equal(parse_keyword("two", words, ARRAY_SIZE(words)), -EINVAL);
	assert_int_equal(parse_keyword("", words, ARRAY_SIZE(words)), -EINVAL);
	assert_int_equal(parse_keyword("on", words, ARRAY_SIZE(words)), -EINVAL);
	assert_int_equal(parse_keyword("One", words, ARRAY_SIZE(words)), -EINVAL);
	assert_int_equal(parse_keyword(NULL, words, ARRAY_SIZE(words)), -EINVAL);
}

static void test_hmac_algo(void **state)
{
	(void)state;
	assert_int_equal(parse_hmac_algo("sha1"), SEG6X_HMAC_ALGO_SHA1);
	assert_int_equal(parse_hmac_algo("sha256"), SEG6X_HMAC_ALGO_SHA256);
	assert_int_equal(parse_hmac_algo("SHA256"), -EINVAL);
	assert_int_equal(parse_hmac_algo("sha"), -EINVAL);
	assert_int_equal(parse_hmac_algo("md5"), -EINVAL);
	assert_int_equal(parse_hmac_algo("1"), -EINVAL);
	assert_int_equal(parse_hmac_algo(""), -EINVAL);

	assert_string_equal(hmac_algo_name(SEG6X_HMAC_ALGO_SHA1), "sha1");
	assert_string_equal(hmac_algo_name(SEG6X_HMAC_ALGO_SHA256), "sha256");
	assert_null(hmac_algo_name(SEG6X_HMAC_ALGO_UNSPEC));
	assert_null(hmac_algo_name(200));
}

static void test_mode(void **state)
{
	(void)state;
	assert_int_equal(parse_mode("encap"), SEG6X_IPTUN_MODE_ENCAP);
	assert_int_equal(parse_mode("inline"), SEG6X_IPTUN_MODE_INLINE);
	assert_int_equal(parse_mode("Encap"), -EINVAL);
	assert_int_equal(parse_mode("encapx"), -EINVAL);
	assert_int_equal(parse_mode("insert"), -EINVAL);
	assert_int_equal(parse_mode(""), -EINVAL);

	assert_string_equal(mode_name(SEG6X_IPTUN_MODE_ENCAP), "encap");
	assert_string_equal(mode_name(SEG6X_IPTUN_MODE_INLINE), "inline");
	assert_null(mode_name(0));
	assert_null(mode_name(3));
}

static void test_table(void **state)
{
	uint32_t t;

	(void)state;
	assert_int_equal(parse_table("main", &t), 0);
	assert_int_equal(t, 254);
	assert_int_equal(parse_table("local", &t), 0);
	assert_int_equal(t, 255);
	assert_int_equal(parse_table("default", &t), 0);
	assert_int_equal(t, 253);
	assert_int_equal(parse_table("100", &t), 0);
	assert_int_equal(t, 100);
	assert_int_equal(parse_table("4294967295", &t), 0);
	assert_true(t == UINT32_MAX);

	assert_int_equal(parse_table("0", &t), -ERANGE);
	assert_int_equal(parse_table("4294967296", &t), -ERANGE);
	assert_int_equal(parse_table("all", &t), -EINVAL);
	assert_int_equal(parse_table("Main", &t), -EINVAL);
	assert_int_equal(parse_table("-1", &t), -EINVAL);
	assert_int_equal(parse_table("", &t), -EINVAL);
}

static void test_split_line(void **state)
{
	char *argv[8];
	char l1[] = "route show table all\n";
	char l2[] = "  \t # a comment\n";
	char l3[] = "";
	char l4[] = "hmac set 7 sha256 secret-file \"/tmp/a key\"";
	char l5[] = "a \"\" b";
	char l6[] = "a b # c d";
	char l7[] = "a#b \"#c\"";
	char l8[] = "x\ty\r\n";
	char l9[] = "pre\"fix suf\"fix";

	(void)state;
	assert_int_equal(split_line(l1, argv, 8), 4);
	assert_string_equal(argv[0], "route");
	assert_string_equal(argv[3], "all");

	assert_int_equal(split_line(l2, argv, 8), 0);
	assert_int_equal(split_line(l3, argv, 8), 0);

	assert_int_equal(split_line(l4, argv, 8), 6);
	assert_string_equal(argv[5], "/tmp/a key");

	assert_int_equal(split_line(l5, argv, 8), 3);
	assert_string_equal(argv[1], "");
	assert_string_equal(argv[2], "b");

	assert_int_equal(split_line(l6, argv, 8), 2);

	/* '#' starts a comment only at the start of an unquoted word. */
	assert_int_equal(split_line(l7, argv, 8), 2);
	assert_string_equal(argv[0], "a#b");
	assert_string_equal(argv[1], "#c");

	assert_int_equal(split_line(l8, argv, 8), 2);
	assert_string_equal(argv[1], "y");

	assert_int_equal(split_line(l9, argv, 8), 1);
	assert_string_equal(argv[0], "prefix suffix");
}

static void test_split_line_bad(void **state)
{
	char *argv[4];
	char l1[] = "route del \"fc00::/64";
	char l2[] = "\"";
	char l3[] = "a b c";
	char l4[] = "a b # c";

	(void)state;
	assert_int_equal(split_line(l1, argv, 4), -EINVAL);
	assert_int_equal(split_line(l2, argv, 4), -EINVAL);
	assert_int_equal(split_line(l3, argv, 2), -E2BIG);
	/* A comment does not count against the limit. */
	assert_int_equal(split_line(l4, argv, 2), 2);
}

static void test_trim_newline(void **state)
{
	(void)state;
	assert_int_equal(trim_newline("secret\n", 7), 6);
	assert_int_equal(trim_newline("secret", 6), 6);
	assert_int_equal(trim_newline("\n", 1), 0);
	assert_int_equal(trim_newline("", 0), 0);
	/* Only one newline goes: the rest is part of the secret. */
	assert_int_equal(trim_newline("a\n\n", 3), 2);
	assert_int_equal(trim_newline("a\r\n", 3), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_u32_valid),
		cmocka_unit_test(test_u32_junk),
		cmocka_unit_test(test_u32_range),
		cmocka_unit_test(test_s32),
		cmocka_unit_test(test_in6),
		cmocka_unit_test(test_inet_addr),
		cmocka_unit_test(test_prefix_valid),
		cmocka_unit_test(test_route_prefix),
		cmocka_unit_test(test_prefix_bad),
		cmocka_unit_test(test_prefix_range),
		cmocka_unit_test(test_prefix_host_bits),
		cmocka_unit_test(test_segs_valid),
		cmocka_unit_test(test_segs_bad),
		cmocka_unit_test(test_segs_limits),
		cmocka_unit_test(test_address_kinds),
		cmocka_unit_test(test_keywords),
		cmocka_unit_test(test_hmac_algo),
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_split_line),
		cmocka_unit_test(test_split_line_bad),
		cmocka_unit_test(test_trim_newline),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}

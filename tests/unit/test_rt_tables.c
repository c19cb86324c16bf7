// SPDX-License-Identifier: GPL-2.0
/* Unit tests of seg6ctl's reading of iproute2's rt_tables files. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "rt_tables.h"

static const char example[] =
	"#\n"
	"# reserved values\n"
	"#\n"
	"255\tlocal\n"
	"254\tmain\n"
	"253\tdefault\n"
	"0\tunspec\n"
	"#\n"
	"#1\tinr.ruhep\n"
	"  100   blue   # leading blanks and a comment\n"
	"0x200 red\n"
	"4294967295 last\n"
	"4294967296 toobig\n"
	"12x bad\n"
	"bogus line\n"
	"300\n"
	"301 green-2\n";

static int scan(const char *name, uint32_t *id)
{
	FILE *f = fmemopen((void *)example, sizeof(example) - 1, "r");
	int found;

	assert_non_null(f);
	found = rt_tables_scan(f, name, id);
	fclose(f);
	return found;
}

static void test_names(void **state)
{
	uint32_t id = 7;

	(void)state;
	assert_int_equal(scan("main", &id), 1);
	assert_int_equal(id, 254);
	assert_int_equal(scan("unspec", &id), 1);
	assert_int_equal(id, 0);
	assert_int_equal(scan("blue", &id), 1);
	assert_int_equal(id, 100);
	assert_int_equal(scan("red", &id), 1);
	assert_int_equal(id, 0x200);
	assert_int_equal(scan("last", &id), 1);
	assert_true(id == UINT32_MAX);
	assert_int_equal(scan("green-2", &id), 1);
	assert_int_equal(id, 301);
}

static void test_not_names(void **state)
{
	static const char *const absent[] = {
		"inr.ruhep",	/* commented out */
		"toobig", "bad", "line", "bogus", "", "blu", "blue2", "#",
		"comment", "300",
	};
	uint32_t id = 7;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
		if (scan(absent[i], &id))
			fail_msg("\"%s\" was found", absent[i]);
	assert_int_equal(id, 7);
}

static void test_lookup_files(void **state)
{
	uint32_t id;

	(void)state;
	/* Whatever the machine has, "main" is 254 in every iproute2. */
	if (rt_tables_lookup("main", &id))
		assert_int_equal(id, 254);
	assert_int_equal(rt_tables_lookup("no-such-table-name-anywhere", &id), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_not_names),
		cmocka_unit_test(test_lookup_files),
	};

	return cmocka_run_group_tests_name("rt_tables", tests, NULL, NULL);
}

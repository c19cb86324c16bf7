// SPDX-License-Identifier: GPL-2.0
/* Unit tests of seg6ctl's JSON writer: the shapes seg6ctl(8) shows. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "json.h"

struct capture {
	char *buf;
	size_t len;
	FILE *out;
	struct json_writer jw;
};

static int setup(void **state)
{
	struct capture *c = calloc(1, sizeof(*c));

	if (!c)
		return -1;
	c->out = open_memstream(&c->buf, &c->len);
	if (!c->out) {
		free(c);
		return -1;
	}
	*state = c;
	return 0;
}

static int teardown(void **state)
{
	struct capture *c = *state;

	fclose(c->out);
	free(c->buf);
	free(c);
	return 0;
}

static struct json_writer *writer(void **state, bool pretty)
{
	struct capture *c = *state;

	json_init(&c->jw, c->out, pretty);
	return &c->jw;
}

static const char *output(void **state)
{
	struct capture *c = *state;

	fflush(c->out);
	return c->buf;
}

static void test_object(void **state)
{
	struct json_writer *jw = writer(state, false);

	json_open_object(jw, NULL);
	json_string(jw, "tunsrc", "fc00::1");
	json_close_object(jw);
	assert_string_equal(output(state), "{\"tunsrc\": \"fc00::1\"}\n");
}

static void test_route_shape(void **state)
{
	struct json_writer *jw = writer(state, false);

	json_open_array(jw, NULL);
	json_open_object(jw, NULL);
	json_string(jw, "dst", "fc00::/64");
	json_open_array(jw, "segs");
	json_string(jw, NULL, "2001:db8::1");
	json_string(jw, NULL, "2001:db8::2");
	json_close_array(jw);
	json_null(jw, "hmac");
	json_uint(jw, "table", 254);
	json_close_object(jw);
	json_close_array(jw);
	assert_string_equal(output(state),
		"[{\"dst\": \"fc00::/64\", "
		"\"segs\": [\"2001:db8::1\", \"2001:db8::2\"], "
		"\"hmac\": null, \"table\": 254}]\n");
}

static void test_scalars(void **state)
{
	struct json_writer *jw = writer(state, false);

	json_open_object(jw, NULL);
	json_int(jw, "require_hmac", -1);
	json_bool(jw, "allow_inline", true);
	json_bool(jw, "off", false);
	json_uint(jw, "big", UINT64_MAX);
	json_open_object(jw, "drop");
	json_uint(jw, "nomem", 0);
	json_close_object(jw);
	json_close_object(jw);
	assert_string_equal(output(state),
		"{\"require_hmac\": -1, \"allow_inline\": true, \"off\": false, "
		"\"big\": 18446744073709551615, \"drop\": {\"nomem\": 0}}\n");
}

static void test_empty(void **state)
{
	struct json_writer *jw = writer(state, true);

	json_open_array(jw, NULL);
	json_close_array(jw);
	json_open_object(jw, NULL);
	json_close_object(jw);
	/* Two documents, one per line. */
	assert_string_equal(output(state), "[]\n{}\n");
}

static void test_pretty(void **state)
{
	struct json_writer *jw = writer(state, true);

	json_open_array(jw, NULL);
	json_open_object(jw, NULL);
	json_uint(jw, "keyid", 7);
	json_string(jw, "algo", "sha256");
	json_open_array(jw, "none");
	json_close_array(jw);
	json_close_object(jw);
	json_close_array(jw);
	assert_string_equal(output(state),
		"[\n"
		"  {\n"
		"    \"keyid\": 7,\n"
		"    \"algo\": \"sha256\",\n"
		"    \"none\": []\n"
		"  }\n"
		"]\n");
}

static void test_escape(void **state)
{
	struct json_writer *jw = writer(state, false);

	json_string(jw, NULL, "a\"b\\c\nd\te\x01" "f/");
	assert_string_equal(output(state),
			    "\"a\\\"b\\\\c\\nd\\te\\u0001f/\"\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_object, setup, teardown),
		cmocka_unit_test_setup_teardown(test_route_shape, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scalars, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pretty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_escape, setup, teardown),
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}

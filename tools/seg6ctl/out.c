// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdio.h>

#include "out.h"

/* Text: the separator before a field (none at the start of the line). */
static void sep(struct out *o)
{
	if (o->started)
		putchar(o->lines ? '\n' : ' ');
	o->started = true;
}

void out_start(struct out *o, struct json_writer *jw)
{
	o->jw = jw;
	o->started = false;
	o->lines = false;
	if (jw)
		json_open_object(jw, NULL);
}

void out_lines(struct out *o, bool lines)
{
	o->lines = lines;
}

void out_end(struct out *o)
{
	if (o->jw)
		json_close_object(o->jw);
	else
		putchar('\n');
}

void out_lead(struct out *o, const char *key, const char *val)
{
	if (o->jw) {
		json_string(o->jw, key, val);
		return;
	}
	sep(o);
	fputs(val, stdout);
}

void out_str(struct out *o, const char *key, const char *val)
{
	if (o->jw) {
		json_string(o->jw, key, val);
		return;
	}
	sep(o);
	printf("%s %s", key, val);
}

void out_uint(struct out *o, const char *key, uint64_t val)
{
	if (o->jw) {
		json_uint(o->jw, key, val);
		return;
	}
	sep(o);
	printf("%s %" PRIu64, key, val);
}

void out_int(struct out *o, const char *key, int64_t val)
{
	if (o->jw) {
		json_int(o->jw, key, val);
		return;
	}
	sep(o);
	printf("%s %" PRId64, key, val);
}

void out_bool(struct out *o, const char *key, bool val)
{
	if (o->jw)
		json_bool(o->jw, key, val);
	else
		out_uint(o, key, val);
}

void out_uint_note(struct out *o, const char *key, uint64_t val,
		   const char *note)
{
	out_uint(o, key, val);
	if (!o->jw && note)
		printf(" (%s)", note);
}

void out_named(struct out *o, const char *key, uint64_t val,
	       const char *name)
{
	if (o->jw || !name) {
		out_uint(o, key, val);
		return;
	}
	out_str(o, key, name);
}

void out_flag(struct out *o, const char *key)
{
	if (o->jw) {
		json_bool(o->jw, key, true);
		return;
	}
	out_text_flag(o, key);
}

void out_text_flag(struct out *o, const char *key)
{
	if (o->jw)
		return;
	sep(o);
	fputs(key, stdout);
}

void out_null(struct out *o, const char *key)
{
	if (o->jw)
		json_null(o->jw, key);
}

void out_json_str(struct out *o, const char *key, const char *val)
{
	if (o->jw)
		json_string(o->jw, key, val);
}

void out_list_start(struct out *o, const char *key)
{
	if (o->jw) {
		json_open_array(o->jw, key);
		return;
	}
	sep(o);
	printf("%s ", key);
	o->started = false;	/* the first item takes no comma */
}

/* Text: the comma before an item (none before the first). */
static void comma(struct out *o)
{
	if (o->started)
		putchar(',');
	o->started = true;
}

void out_list_str(struct out *o, const char *val)
{
	if (o->jw) {
		json_string(o->jw, NULL, val);
		return;
	}
	comma(o);
	fputs(val, stdout);
}

void out_list_uint(struct out *o, uint64_t val)
{
	if (o->jw) {
		json_uint(o->jw, NULL, val);
		return;
	}
	comma(o);
	printf("%" PRIu64, val);
}

void out_list_end(struct out *o)
{
	if (o->jw)
		json_close_array(o->jw);
	else
		o->started = true;
}

void out_group_start(struct out *o, const char *key)
{
	if (o->jw) {
		json_open_object(o->jw, key);
		return;
	}
	sep(o);
	fputs(key, stdout);
}

void out_group_end(struct out *o)
{
	if (o->jw)
		json_close_object(o->jw);
}

void out_counters(struct out *o, uint64_t packets, uint64_t bytes,
		  uint64_t errors)
{
	out_uint(o, "packets", packets);
	out_uint(o, "bytes", bytes);
	out_uint(o, "errors", errors);
}

void out_items_start(struct out *o, const char *key)
{
	if (o->jw)
		json_open_array(o->jw, key);
}

void out_item_start(struct out *o, const char *word)
{
	if (o->jw)
		json_open_object(o->jw, NULL);
	else
		out_text_flag(o, word);
}

void out_items_end(struct out *o)
{
	if (o->jw)
		json_close_array(o->jw);
}

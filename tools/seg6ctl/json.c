// SPDX-License-Identifier: GPL-2.0
/*
 * Streaming JSON writer. Compact output is one line per document, spaced
 * like seg6ctl(8)'s examples ({"keyid": 7, "algo": "sha256"}), so that
 * a batch run prints one document per line; pretty output indents by two.
 */
#include <inttypes.h>

#include "json.h"

void json_init(struct json_writer *jw, FILE *out, bool pretty)
{
	jw->out = out;
	jw->pretty = pretty;
	jw->depth = 0;
	jw->nonempty[0] = false;
	jw->next_key = NULL;
}

void json_key(struct json_writer *jw, const char *key)
{
	jw->next_key = key;
}

static void newline_indent(struct json_writer *jw)
{
	int i;

	if (!jw->pretty)
		return;
	fputc('\n', jw->out);
	for (i = 0; i < jw->depth; i++)
		fputs("  ", jw->out);
}

static void put_string(struct json_writer *jw, const char *s)
{
	fputc('"', jw->out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(jw->out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", jw->out);
		else if (c == '\t')
			fputs("\\t", jw->out);
		else if (c < 0x20)
			fprintf(jw->out, "\\u%04x", c);
		else
			fputc(c, jw->out);
	}
	fputc('"', jw->out);
}

/* Separator, indentation and key that come before every value. */
static void begin_value(struct json_writer *jw, const char *key)
{
	if (!key)
		key = jw->next_key;
	jw->next_key = NULL;
	if (jw->depth > 0) {
		if (jw->nonempty[jw->depth])
			fputs(jw->pretty ? "," : ", ", jw->out);
		jw->nonempty[jw->depth] = true;
		newline_indent(jw);
	}
	if (key) {
		put_string(jw, key);
		fputs(": ", jw->out);
	}
}

/* A scalar at depth 0 is a whole document. */
static void end_value(struct json_writer *jw)
{
	if (jw->depth == 0) {
		fputc('\n', jw->out);
		fflush(jw->out);
	}
}

static void open_container(struct json_writer *jw, const char *key, char c)
{
	begin_value(jw, key);
	fputc(c, jw->out);
	/* Deeper nesting than seg6ctl needs is a bug, not an input. */
	if (jw->depth < JSON_MAX_DEPTH - 1)
		jw->depth++;
	jw->nonempty[jw->depth] = false;
}

static void close_container(struct json_writer *jw, char c)
{
	bool nonempty = jw->nonempty[jw->depth];

	if (jw->depth > 0)
		jw->depth--;
	if (nonempty)
		newline_indent(jw);
	fputc(c, jw->out);
	end_value(jw);
}

void json_open_object(struct json_writer *jw, const char *key)
{
	open_container(jw, key, '{');
}

void json_close_object(struct json_writer *jw)
{
	close_container(jw, '}');
}

void json_open_array(struct json_writer *jw, const char *key)
{
	open_container(jw, key, '[');
}

void json_close_array(struct json_writer *jw)
{
	close_container(jw, ']');
}

void json_string(struct json_writer *jw, const char *key, const char *val)
{
	begin_value(jw, key);
	put_string(jw, val);
	end_value(jw);
}

void json_uint(struct json_writer *jw, const char *key, uint64_t val)
{
	begin_value(jw, key);
	fprintf(jw->out, "%" PRIu64, val);
	end_value(jw);
}

void json_int(struct json_writer *jw, const char *key, int64_t val)
{
	begin_value(jw, key);
	fprintf(jw->out, "%" PRId64, val);
	end_value(jw);
}

void json_bool(struct json_writer *jw, const char *key, bool val)
{
	begin_value(jw, key);
	fputs(val ? "true" : "false", jw->out);
	end_value(jw);
}

void json_null(struct json_writer *jw, const char *key)
{
	begin_value(jw, key);
	fputs("null", jw->out);
	end_value(jw);
}

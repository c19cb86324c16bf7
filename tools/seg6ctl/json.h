/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny streaming JSON writer: enough for seg6ctl's documents, no DOM.
 * Members inside an object take a key; values inside an array and the
 * top-level value take key NULL. Closing the top-level value ends the
 * document with a newline and flushes the stream.
 */
#ifndef SEG6CTL_JSON_H
#define SEG6CTL_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 8

struct json_writer {
	FILE *out;
	bool pretty;
	int depth;
	/* Per open container: has it got a member yet (for commas)? */
	bool nonempty[JSON_MAX_DEPTH];
	const char *next_key;	/* json_key() */
};

void json_init(struct json_writer *jw, FILE *out, bool pretty);

/*
 * The key of the next member written with key NULL: for a printer that
 * writes a whole object (out_start()) as a member of an outer one.
 */
void json_key(struct json_writer *jw, const char *key);
void json_open_object(struct json_writer *jw, const char *key);
void json_close_object(struct json_writer *jw);
void json_open_array(struct json_writer *jw, const char *key);
void json_close_array(struct json_writer *jw);

void json_string(struct json_writer *jw, const char *key, const char *val);
void json_uint(struct json_writer *jw, const char *key, uint64_t val);
void json_int(struct json_writer *jw, const char *key, int64_t val);
void json_bool(struct json_writer *jw, const char *key, bool val);
void json_null(struct json_writer *jw, const char *key);

#endif /* SEG6CTL_JSON_H */

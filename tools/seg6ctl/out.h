/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One printer for text and JSON, in the manner of iproute2's
 * print_*(PRINT_ANY, ...): an object's fields are printed by the same
 * calls whichever form the run asked for. Text is one line, "LEAD KEY
 * VALUE KEY VALUE..." (the syntax of the object's add command, so that
 * save can replay it); JSON is one object with the same keys.
 */
#ifndef SEG6CTL_OUT_H
#define SEG6CTL_OUT_H

#include <stdbool.h>
#include <stdint.h>

#include "json.h"

struct out {
	struct json_writer *jw;	/* NULL: text */
	bool started;		/* text: something is on the line */
	bool lines;		/* text: one field per line (out_lines()) */
};

/* Starts an object: a JSON object in @jw, or (@jw NULL) a text line. */
void out_start(struct out *o, struct json_writer *jw);
/* Ends it: closes the object, or the line. */
void out_end(struct out *o);
/* Text: one "KEY VALUE" line per field instead of one line in all. */
void out_lines(struct out *o, bool lines);

/* The line's first word in text (no key); "KEY": "VAL" in JSON. */
void out_lead(struct out *o, const char *key, const char *val);
/* " KEY VAL" in text; "KEY": "VAL" in JSON. */
void out_str(struct out *o, const char *key, const char *val);
void out_uint(struct out *o, const char *key, uint64_t val);
void out_int(struct out *o, const char *key, int64_t val);
/* " KEY 0|1" in text; "KEY": false|true in JSON. */
void out_bool(struct out *o, const char *key, bool val);
/* " KEY VAL (NOTE)" in text (without NOTE if NULL); "KEY": VAL in JSON. */
void out_uint_note(struct out *o, const char *key, uint64_t val,
		   const char *note);
/* " KEY NAME" (the number if @name is NULL) in text; "KEY": VAL in JSON. */
void out_named(struct out *o, const char *key, uint64_t val,
	       const char *name);
/* " packets N bytes N errors N": a route's or a SID's counters. */
void out_counters(struct out *o, uint64_t packets, uint64_t bytes,
		  uint64_t errors);
/*
 * A group of fields under @key: " KEY F1 V1 F2 V2" in text,
 * "KEY": {"F1": V1, "F2": V2} in JSON.
 */
void out_group_start(struct out *o, const char *key);
void out_group_end(struct out *o);
/* " KEY" in text; "KEY": true in JSON. */
void out_flag(struct out *o, const char *key);
/* Text only (" KEY"): a word of the add syntax that JSON does not show. */
void out_text_flag(struct out *o, const char *key);
/* JSON only: "KEY": null, for fields a JSON reader may look up. */
void out_null(struct out *o, const char *key);
/* JSON only: "KEY": "VAL" (what text says some other way). */
void out_json_str(struct out *o, const char *key, const char *val);

/* " KEY A,B,C" in text; "KEY": ["A", "B", "C"] in JSON. */
void out_list_start(struct out *o, const char *key);
void out_list_str(struct out *o, const char *val);
void out_list_uint(struct out *o, uint64_t val);
void out_list_end(struct out *o);

/*
 * Groups of fields that repeat: " WORD F1 V1 WORD F1 V2" in text,
 * "KEY": [{"F1": V1}, {"F1": V2}] in JSON; each item between
 * out_item_start(o, WORD) and out_group_end().
 */
void out_items_start(struct out *o, const char *key);
void out_item_start(struct out *o, const char *word);
void out_items_end(struct out *o);

#endif /* SEG6CTL_OUT_H */

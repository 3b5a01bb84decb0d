/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --json: one JSON object per result line on standard output, built with
 * json-c and printed as one line. The conventions (pfnmap(8), "JSON
 * output"), which every command keeps:
 *
 * - addresses, values, masks, sizes, PFNs: hex strings, as the text output
 *   prints them ("0x40003008"; values with the width's digits, "0x0008"):
 *   a JSON number is a double to most readers, exact only below 2^53;
 * - counts and small numbers (widths in bits, page counts, BAR numbers,
 *   reads): JSON numbers;
 * - yes/no facts: true and false; a fact that does not apply: null;
 * - keys in snake_case; strings as UTF-8, invalid bytes as U+FFFD.
 *
 * Use, for each result line:
 *
 *	struct json_object *j = jout_new();
 *
 *	jout_str(j, "addr", x->text);
 *	jout_hex(j, "value", value, 2 * o->width);
 *	jout_bool(j, "match", true);
 *	r = jout_print(j);		(prints and frees j, always)
 *
 * Nested: jout_object(j, KEY) and jout_array(j, KEY) add an empty object
 * or array under KEY and return it to be filled; jout_append(array) adds
 * an empty object to an array and returns it. They belong to j: never free
 * them. Any allocation that fails makes the adders do nothing (NULL is
 * taken everywhere) and jout_print report it; no caller checks.
 */
#ifndef PFNMAP_JSON_H
#define PFNMAP_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json_object;

/* A new, empty object: one result line */
struct json_object *jout_new(void);

/* "KEY": "S" (S NULL: null); bytes that are not UTF-8 become U+FFFD */
void jout_str(struct json_object *j, const char *key, const char *s);
/* "KEY": "0x..." with at least digits hex digits (0: as many as needed) */
void jout_hex(struct json_object *j, const char *key, uint64_t v,
	      unsigned int digits);
/* "KEY": N, for counts: a JSON number */
void jout_int(struct json_object *j, const char *key, int64_t v);
void jout_bool(struct json_object *j, const char *key, bool v);
void jout_null(struct json_object *j, const char *key);

/* "KEY": {} or [], returned to be filled (NULL after a failure) */
struct json_object *jout_object(struct json_object *j, const char *key);
struct json_object *jout_array(struct json_object *j, const char *key);
/* A new {} at the end of array, returned to be filled */
struct json_object *jout_append(struct json_object *array);

/* A number at the end of array */
void jout_array_int(struct json_object *array, int64_t v);
/* Frees j unprinted (a command that failed after it began j) */
void jout_free(struct json_object *j);

/*
 * Prints j on one line and '\n' to f (jout_print: standard output), then
 * frees it. 0, or EXIT_FAIL after a message when memory ran out while j
 * was built (nothing printed then). Write errors are stdout's, as for
 * printf: main() reports them.
 */
int jout_fprint(FILE *f, struct json_object *j);
int jout_print(struct json_object *j);

#endif

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --json through json-c: one object, one line. json-c does the escaping;
 * what it does not do is check that strings are UTF-8 (it copies bytes
 * >= 0x80 as they are), and pfnmap prints strings it did not make (driver
 * names from sysfs links, pci.ids names), so those are cleaned first:
 * a reader that rejects invalid UTF-8 must still read every line.
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "json.h"
#include "msg.h"

/* Set when an allocation failed since the last jout_print */
static bool jout_failed;

struct json_object *jout_new(void)
{
	struct json_object *j = json_object_new_object();

	if (!j)
		jout_failed = true;
	return j;
}

/* Adds v (NULL: a failed allocation, unless null is meant) under key */
static void put(struct json_object *j, const char *key,
		struct json_object *v, bool is_null)
{
	if (!j || (!v && !is_null) || json_object_object_add(j, key, v)) {
		json_object_put(v);
		jout_failed = true;
	}
}

/* Length of the valid UTF-8 sequence at s, or 0 (RFC 3629's table) */
static size_t utf8_seq(const unsigned char *s)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	/* no overlong forms, no surrogates, nothing above U+10FFFF */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/* A JSON string of s, each byte that is not valid UTF-8 made U+FFFD */
static struct json_object *utf8_string(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	struct json_object *v;
	size_t len = strlen(s), n, i = 0, o = 0;
	char *clean;

	while (i < len && (n = utf8_seq(p + i)))
		i += n;
	if (i == len)
		return json_object_new_string_len(s, (int)len);
	clean = malloc(3 * len + 1);
	if (!clean)
		return NULL;
	for (i = 0; i < len; i += n) {
		n = utf8_seq(p + i);
		if (n) {
			memcpy(clean + o, s + i, n);
			o += n;
		} else {
			memcpy(clean + o, "\xef\xbf\xbd", 3);
			o += 3;
			n = 1;
		}
	}
	v = json_object_new_string_len(clean, (int)o);
	free(clean);
	return v;
}

void jout_str(struct json_object *j, const char *key, const char *s)
{
	put(j, key, s ? utf8_string(s) : NULL, !s);
}

void jout_hex(struct json_object *j, const char *key, uint64_t v,
	      unsigned int digits)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%0*llx", (int)(digits > 16 ? 16 : digits),
		 (unsigned long long)v);
	put(j, key, json_object_new_string(buf), false);
}

void jout_int(struct json_object *j, const char *key, int64_t v)
{
	put(j, key, json_object_new_int64(v), false);
}

void jout_bool(struct json_object *j, const char *key, bool v)
{
	put(j, key, json_object_new_boolean(v), false);
}

void jout_null(struct json_object *j, const char *key)
{
	put(j, key, NULL, true);
}

/* c added under key; c itself, or NULL when that failed */
static struct json_object *child(struct json_object *j, const char *key,
				  struct json_object *c)
{
	put(j, key, c, false);
	return j && c ? c : NULL;
}

struct json_object *jout_object(struct json_object *j, const char *key)
{
	return child(j, key, json_object_new_object());
}

struct json_object *jout_array(struct json_object *j, const char *key)
{
	return child(j, key, json_object_new_array());
}

struct json_object *jout_append(struct json_object *array)
{
	struct json_object *c = json_object_new_object();

	if (!array || !c || json_object_array_add(array, c)) {
		json_object_put(c);
		jout_failed = true;
		return NULL;
	}
	return c;
}

void jout_array_int(struct json_object *array, int64_t v)
{
	struct json_object *n = json_object_new_int64(v);

	if (!array || !n || json_object_array_add(array, n)) {
		json_object_put(n);
		jout_failed = true;
	}
}

void jout_free(struct json_object *j)
{
	json_object_put(j);
	jout_failed = false;
}

int jout_fprint(FILE *f, struct json_object *j)
{
	const char *text = NULL;

	if (j && !jout_failed)
		text = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PLAIN |
						      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (text)
		fprintf(f, "%s\n", text);
	json_object_put(j);
	jout_failed = false;
	if (text)
		return 0;
	pf_error("--json: out of memory");
	return EXIT_FAIL;
}

int jout_print(struct json_object *j)
{
	return jout_fprint(stdout, j);
}

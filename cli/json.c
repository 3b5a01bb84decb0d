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

#include "commands.h"
#include "json.h"
#include "msg.h"

/* --json, for every command that has results to print */
enum { OPT_JSON = 0x440 };

static const struct argp_option json_argp_options[] = {
	{ "json", OPT_JSON, NULL, 0, "One JSON object a result line", 6 },
	{ NULL, 0, NULL, 0, NULL, 0 },
};

static error_t json_parse(int key, char *arg, struct argp_state *state)
{
	(void)arg;
	if (key != OPT_JSON)
		return ARGP_ERR_UNKNOWN;
	*(bool *)option_given(state) = true;
	return 0;
}

static void json_defaults(void *values)
{
	*(bool *)values = false;
}

static const struct argp json_argp = { .options = json_argp_options,
				       .parser = json_parse };

const struct option_set json_option_set = {
	.id = OPTS_JSON,
	.argp = &json_argp,
	.names = "--json",
	.init = json_defaults,
};

bool json_wanted(const struct options *o)
{
	return *OPTION_VALUES(o, OPTS_JSON, bool);
}

void json_unwanted(struct options *o)
{
	*(bool *)o->sets[OPTS_JSON].values.bytes = false;
}

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

struct json_object *jout_value(const struct extent *x, unsigned int width,
			       uint64_t value)
{
	struct json_object *j = jout_new();

	jout_str(j, "addr", x->text);
	jout_where(j, "phys", x, x->start);
	jout_int(j, "width", 8 * width);
	jout_hex(j, "value", value, 2 * width);
	return j;
}

void jout_where(struct json_object *j, const char *key,
		const struct extent *x, uint64_t addr)
{
	/* an offset in config space is no physical address */
	if (x->is_config) {
		jout_null(j, key);
		jout_hex(j, "config_offset", addr, 0);
	} else {
		jout_hex(j, key, addr, 0);
		jout_null(j, "config_offset");
	}
}

void jout_pci_device(struct json_object *j, const struct pci_bar *b,
		     int class, const char *names)
{
	char id[8];

	jout_str(j, "slot", b->slot);
	snprintf(id, sizeof(id), "%04x", b->vendor);
	jout_str(j, "vendor", id);
	snprintf(id, sizeof(id), "%04x", b->device);
	jout_str(j, "device", id);
	if (class >= 0) {
		snprintf(id, sizeof(id), "%04x", (unsigned int)class & 0xffff);
		jout_str(j, "class", id);
	}
	jout_str(j, "names", names);
	jout_str(j, "driver", b->driver[0] ? b->driver : NULL);
}

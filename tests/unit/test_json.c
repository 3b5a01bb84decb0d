/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of cli/json.c: the exact line json-c prints for each kind of
 * field, escaping (quotes, backslashes, control bytes; '/' left alone),
 * invalid UTF-8 made U+FFFD byte by byte, and a failed allocation
 * (simulated by a NULL object) reported instead of half an object.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "json.h"
#include "results.h"
#include "pfnmap.h"

#define FFFD	"\xef\xbf\xbd"

/* The line jout_fprint prints for j, which it frees */
static char *line(struct json_object *j)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(jout_fprint(f, j), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void expect_line(struct json_object *j, const char *want)
{
	char *got = line(j);

	assert_string_equal(got, want);
	free(got);
}

static void one_str(const char *s, const char *want)
{
	struct json_object *j = jout_new();

	jout_str(j, "s", s);
	expect_line(j, want);
}

static void test_kinds(void **state)
{
	struct json_object *j = jout_new(), *a, *o;

	(void)state;
	jout_hex(j, "v8", 0x8, 2);
	jout_hex(j, "v16", 0x8, 4);
	jout_hex(j, "addr", 0x40003008, 0);
	jout_hex(j, "zero", 0, 0);
	jout_hex(j, "max", UINT64_MAX, 16);
	jout_int(j, "pages", 4503599627370496LL);
	jout_int(j, "neg", -1);
	jout_bool(j, "t", true);
	jout_bool(j, "f", false);
	jout_null(j, "n");
	jout_str(j, "none", NULL);
	o = jout_object(j, "o");
	jout_int(o, "x", 1);
	a = jout_array(j, "a");
	jout_str(jout_append(a), "k", "v");
	jout_append(a);
	jout_array(j, "empty");
	a = jout_array(j, "bits");
	jout_array_int(a, 0);
	jout_array_int(a, 63);
	expect_line(j, "{\"v8\":\"0x08\",\"v16\":\"0x0008\",\"addr\":\"0x40003008\","
		    "\"zero\":\"0x0\",\"max\":\"0xffffffffffffffff\","
		    "\"pages\":4503599627370496,\"neg\":-1,\"t\":true,"
		    "\"f\":false,\"n\":null,\"none\":null,\"o\":{\"x\":1},"
		    "\"a\":[{\"k\":\"v\"},{}],\"empty\":[],\"bits\":[0,63]}\n");
}

static void test_escapes(void **state)
{
	(void)state;
	one_str("q\"b\\s\tc\x01/e\x7f", "{\"s\":\"q\\\"b\\\\s\\tc\\u0001/e\x7f\"}\n");
	one_str("\n\r\b\f\x1f", "{\"s\":\"\\n\\r\\b\\f\\u001f\"}\n");
	one_str("", "{\"s\":\"\"}\n");
}

static void test_utf8(void **state)
{
	(void)state;
	/* valid: 2, 3 and 4 bytes, U+10FFFF the last one */
	one_str("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf",
		"{\"s\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\"}\n");
	/* a stray byte, a lone continuation byte */
	one_str("a\xff" "b\x80", "{\"s\":\"a" FFFD "b" FFFD "\"}\n");
	/* overlong '/', a surrogate, above U+10FFFF: every byte replaced */
	one_str("\xc0\xaf", "{\"s\":\"" FFFD FFFD "\"}\n");
	one_str("\xed\xa0\x80", "{\"s\":\"" FFFD FFFD FFFD "\"}\n");
	one_str("\xf4\x90\x80\x80", "{\"s\":\"" FFFD FFFD FFFD FFFD "\"}\n");
	/* cut short at the end */
	one_str("x\xe2\x82", "{\"s\":\"x" FFFD FFFD "\"}\n");
}

static void test_value(void **state)
{
	struct extent x = { .text = "00:04.0/bar0@0x8", .start = 0xfe000008 };
	struct extent c = { .text = "00:04.0/config@CAP_PM+2", .start = 0x42,
			    .is_config = true };
	struct json_object *j = jout_new();

	(void)state;
	expect_line(jout_value(&x, 2, 0x1234),
		    "{\"addr\":\"00:04.0/bar0@0x8\",\"phys\":\"0xfe000008\","
		    "\"config_offset\":null,\"width\":16,\"value\":\"0x1234\"}\n");
	/* an offset in configuration space is not a physical address */
	expect_line(jout_value(&c, 1, 0x3),
		    "{\"addr\":\"00:04.0/config@CAP_PM+2\",\"phys\":null,"
		    "\"config_offset\":\"0x42\",\"width\":8,\"value\":\"0x03\"}\n");
	jout_where(j, "start", &x, 0x1000);
	expect_line(j, "{\"start\":\"0x1000\",\"config_offset\":null}\n");
}

/* A NULL object, as after a failed allocation: nothing printed, EXIT_FAIL */
static void test_failure(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_object *j = jout_new();

	(void)state;
	assert_non_null(f);
	jout_str(NULL, "s", "x");
	jout_hex(j, "v", 1, 0);
	jout_append(NULL);
	assert_int_equal(jout_fprint(f, j), EXIT_FAIL);
	/* a failure is forgotten with the object it spoilt, printed or not */
	j = jout_new();
	jout_array_int(NULL, 1);
	jout_free(j);
	j = jout_new();
	jout_hex(j, "v", 1, 0);
	assert_int_equal(jout_fprint(f, j), 0);
	assert_int_equal(jout_fprint(f, NULL), EXIT_FAIL);
	assert_int_equal(fclose(f), 0);
	/* only the object made after jout_free() */
	assert_string_equal(buf, "{\"v\":\"0x1\"}\n");
	free(buf);
	/* the next object is not marked by the failures before it */
	one_str("ok", "{\"s\":\"ok\"}\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_value),
		cmocka_unit_test(test_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the hexdump -C formatter. The expected texts are what
 * util-linux `hexdump -C -s START -n LEN` prints for the same bytes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hexdump.h"

#define ROW0	"00000000  "
#define ZEROS	"00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  " \
		"|................|\n"

/* Format len bytes at start fed in chunks of chunk bytes (0: one-shot) */
static char *format(uint64_t start, const void *src, size_t len, size_t chunk)
{
	char *out = malloc(HEXDUMP_OUT_MAX(len) + 2 * HEXDUMP_ROW_MAX + 1);
	const unsigned char *s = src;
	struct hexdump h;
	size_t n = 0, off, c;

	assert_non_null(out);
	hexdump_init(&h, start);
	for (off = 0; off < len || off == 0; off += c) {
		c = chunk && chunk < len - off ? chunk : len - off;
		n += hexdump_feed(&h, s + off, c, out + n);
		if (!c)
			break;
	}
	n += hexdump_finish(&h, out + n);
	out[n] = '\0';
	return out;
}

static void check(uint64_t start, const void *src, size_t len, const char *want)
{
	char *got = format(start, src, len, 0);

	assert_string_equal(got, want);
	free(got);
}

static void test_full_row(void **state)
{
	(void)state;
	check(0, "0123456789abcdef", 16,
	      ROW0 "30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66  "
	      "|0123456789abcdef|\n"
	      "00000010\n");
}

static void test_partial_row(void **state)
{
	(void)state;
	check(0, "hello\n", 6,
	      ROW0 "68 65 6c 6c 6f 0a                                 "
	      "|hello.|\n"
	      "00000006\n");
}

static void test_nonprintable(void **state)
{
	(void)state;
	check(0, "\x00\x1f\x20\x7e\x7f\x80\xff\x41\x09\x0a", 10,
	      ROW0 "00 1f 20 7e 7f 80 ff 41  09 0a                    "
	      "|.. ~...A..|\n"
	      "0000000a\n");
}

static void test_empty(void **state)
{
	(void)state;
	check(0, "", 0, "");
	check(0x1000, "", 0, "");
	check(0x180000000ull, "", 0, "");
}

static void test_squeeze_two(void **state)
{
	unsigned char zero[32] = { 0 };

	(void)state;
	check(0, zero, sizeof(zero), ROW0 ZEROS "*\n" "00000020\n");
}

static void test_squeeze_many(void **state)
{
	unsigned char buf[1600 + 16 + 160] = { 0 };

	(void)state;
	memcpy(buf + 1600, "ABCDEFGHIJKLMNOP", 16);
	check(0, buf, sizeof(buf),
	      ROW0 ZEROS
	      "*\n"
	      "00000640  41 42 43 44 45 46 47 48  49 4a 4b 4c 4d 4e 4f 50  "
	      "|ABCDEFGHIJKLMNOP|\n"
	      "00000650  " ZEROS
	      "*\n"
	      "000006f0\n");
}

/* A partial row equal to a prefix of the squeezed row is still printed */
static void test_run_ending_partial(void **state)
{
	char buf[3 * 16 + 5];

	(void)state;
	memset(buf, 'A', sizeof(buf));
	check(0, buf, sizeof(buf),
	      ROW0 "41 41 41 41 41 41 41 41  41 41 41 41 41 41 41 41  "
	      "|AAAAAAAAAAAAAAAA|\n"
	      "*\n"
	      "00000030  41 41 41 41 41                                    "
	      "|AAAAA|\n"
	      "00000035\n");
}

static void test_above_4g(void **state)
{
	(void)state;
	check(0x180000003ull, "Physical memory above 4 GiB", 27,
	      "180000003  50 68 79 73 69 63 61 6c  20 6d 65 6d 6f 72 79 20  "
	      "|Physical memory |\n"
	      "180000013  61 62 6f 76 65 20 34 20  47 69 42                 "
	      "|above 4 GiB|\n"
	      "18000001e\n");
}

static void test_crossing_4g(void **state)
{
	(void)state;
	check(0xfffffff8ull, "0123456789abcdef", 16,
	      "fffffff8  30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66  "
	      "|0123456789abcdef|\n"
	      "100000008\n");
}

static void test_chunked(void **state)
{
	unsigned char buf[999];
	char *one, *chunked;
	size_t i, chunk;

	(void)state;
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (i / 48) % 3 ? (i * 7) >> 3 : 0;
	one = format(0x7ffffff3, buf, sizeof(buf), 0);
	for (chunk = 1; chunk <= 40; chunk++) {
		chunked = format(0x7ffffff3, buf, sizeof(buf), chunk);
		assert_string_equal(chunked, one);
		free(chunked);
	}
	free(one);
}

/*
 * PFNMAP_HEXDUMP_CODE picks the path these tests run (ctest runs them with
 * portable and sse2 too): check that it did, or they would test another
 */
static void test_code_from_env(void **state)
{
	const char *e = getenv("PFNMAP_HEXDUMP_CODE");
	struct hexdump h;

	(void)state;
	hexdump_init(&h, 0);
#ifndef __SSE2__
	/* no SSE2 (arm64): the portable code, whatever was asked */
	assert_int_equal(h.code, HEXDUMP_PORTABLE);
#endif
	if (!e)
		return;
	if (!strcmp(e, "portable"))
		assert_int_equal(h.code, HEXDUMP_PORTABLE);
#ifdef __SSE2__
	if (!strcmp(e, "sse2"))
		assert_int_equal(h.code, HEXDUMP_SSE2);
#endif
	assert_true(strcmp(e, "sse2") || h.code <= HEXDUMP_SSE2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_row),
		cmocka_unit_test(test_partial_row),
		cmocka_unit_test(test_nonprintable),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_squeeze_two),
		cmocka_unit_test(test_squeeze_many),
		cmocka_unit_test(test_run_ending_partial),
		cmocka_unit_test(test_above_4g),
		cmocka_unit_test(test_crossing_4g),
		cmocka_unit_test(test_chunked),
		cmocka_unit_test(test_code_from_env),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

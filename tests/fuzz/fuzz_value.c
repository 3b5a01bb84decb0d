// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: parse_value, parse_number and parse_width
 * (lib/region.c). The first input byte picks the width of parse_value:
 * 1 << (byte & 3) bytes, so '0' 1, '1' 2, '2' 4, '3' 8; the rest is the
 * text, as a NUL-terminated copy (an embedded NUL ends it).
 *
 * Invariants:
 *   - each result is 0 or -1 and agrees with an oracle on strtoull:
 *     parse_value takes exactly 0[xX]HEX+ or DIGIT+ (decimal, leading
 *     zeros and all) whose value fits in 64 bits and in the width;
 *     parse_number the same with an optional K, M, G, T (either case) or
 *     KiB, MiB, GiB, TiB suffix, the scaled value fitting in 64 bits;
 *     parse_width exactly "8", "16", "32" or "64" (-> 1, 2, 4, 8 bytes);
 *     on success the value is the oracle's;
 *   - parse_value's value fits the width; 0x%llx and %llu of it parse
 *     back to it, at that width; parse_number's value too, and with the
 *     largest suffix that divides it;
 *   - a failed parse_width leaves the width alone (test_region.c's
 *     contract; parse_value and parse_number make no such promise);
 *   - on failure the error contract of fuzz_common.h; with errlen 1 and 8
 *     the same result, the message truncated.
 */
#include <ctype.h>
#include <errno.h>

#include "fuzz_common.h"

#define POISON	0x5a5a5a5a5a5a5a5aULL

/* 0[xX]HEX+ or DIGIT+ at s, the whole of s[0..n): its value */
static bool oracle_digits(const char *s, size_t n, uint64_t *v)
{
	bool hex = n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	unsigned long long x;
	char *buf, *end;
	size_t i;
	int e;

	if (!n)
		return false;
	for (i = hex ? 2 : 0; i < n; i++)
		if (hex ? !isxdigit((unsigned char)s[i]) :
			  !isdigit((unsigned char)s[i]))
			return false;
	buf = strndup(s, n);
	CHECK(buf);
	errno = 0;
	x = strtoull(hex ? buf + 2 : buf, &end, hex ? 16 : 10);
	e = errno;
	CHECK(!*end);
	free(buf);
	if (e == ERANGE)
		return false;
	*v = x;
	return true;
}

static bool oracle_value(const char *s, unsigned int width, uint64_t *v)
{
	uint64_t max = width == 8 ? UINT64_MAX : (1ULL << (8 * width)) - 1;

	return oracle_digits(s, strlen(s), v) && *v <= max;
}

static bool oracle_number(const char *s, uint64_t *v)
{
	size_t n = strlen(s), digits = n;
	int shift = 0;
	const char *u;

	/* a suffix: one letter of KMGT, or KMGT then "iB" */
	if (n >= 1 && (u = strchr("KMGT", toupper((unsigned char)s[n - 1]))) &&
	    *u) {
		digits = n - 1;
		shift = 10 * (int)(u - "KMGT" + 1);
	} else if (n >= 3 && !strcmp(s + n - 2, "iB") &&
		   (u = strchr("KMGT", toupper((unsigned char)s[n - 3]))) &&
		   *u) {
		digits = n - 3;
		shift = 10 * (int)(u - "KMGT" + 1);
	}
	if (!oracle_digits(s, digits, v))
		return false;
	if (shift && *v > (UINT64_MAX >> shift))
		return false;
	*v <<= shift;
	return true;
}

static void check_failure(int rc, const char *err, const char *text,
			  int (*again)(const char *, char *, size_t))
{
	size_t i;

	check_err(err, FUZZ_ERRLEN, text, strlen(text));
	for (i = 0; i < FUZZ_NSMALL; i++) {
		size_t n = fuzz_small_errlens[i];
		char *small = err_buf(n);

		CHECK(again(text, small, n) == rc);
		check_truncated(err, small, n);
		free(small);
	}
}

static unsigned int the_width;

static int value_again(const char *text, char *err, size_t errlen)
{
	uint64_t v;

	return parse_value(text, the_width, &v, err, errlen);
}

static int number_again(const char *text, char *err, size_t errlen)
{
	uint64_t v;

	return parse_number(text, "size", &v, err, errlen);
}

static int width_again(const char *text, char *err, size_t errlen)
{
	unsigned int w = 99;
	int rc = parse_width(text, &w, err, errlen);

	CHECK(w == 99);
	return rc;
}

static void value_reparses(const char *fmt, uint64_t v, unsigned int width)
{
	char buf[64], err[FUZZ_ERRLEN];
	uint64_t again = POISON;

	snprintf(buf, sizeof(buf), fmt, (unsigned long long)v);
	CHECK(parse_value(buf, width, &again, err, sizeof(err)) == 0);
	CHECK(again == v);
}

static void number_reparses(const char *buf, uint64_t v)
{
	char err[FUZZ_ERRLEN];
	uint64_t again = POISON;

	CHECK(parse_number(buf, "size", &again, err, sizeof(err)) == 0);
	CHECK(again == v);
}

static void check_value(const char *text, unsigned int width)
{
	char *err = err_buf(FUZZ_ERRLEN);
	uint64_t v = POISON, want = POISON;
	bool ok = oracle_value(text, width, &want);
	int rc;

	the_width = width;
	rc = parse_value(text, width, &v, err, FUZZ_ERRLEN);
	CHECK(rc == 0 || rc == -1);
	fuzz_err = rc ? err : NULL;
	CHECK((rc == 0) == ok);
	if (rc == 0) {
		CHECK(v == want);
		CHECK(width == 8 || v >> (8 * width) == 0);
		value_reparses("0x%llx", v, width);
		value_reparses("%llu", v, width);
	} else {
		check_failure(rc, err, text, value_again);
	}
	free(err);
}

static void check_number(const char *text)
{
	static const char *const suffixes[] = { "TiB", "G", "MiB", "K" };
	char *err = err_buf(FUZZ_ERRLEN), buf[64];
	uint64_t v = POISON, want = POISON;
	bool ok = oracle_number(text, &want);
	int rc, i;

	rc = parse_number(text, "size", &v, err, FUZZ_ERRLEN);
	CHECK(rc == 0 || rc == -1);
	fuzz_err = rc ? err : NULL;
	CHECK((rc == 0) == ok);
	if (rc == 0) {
		CHECK(v == want);
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)v);
		number_reparses(buf, v);
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
		number_reparses(buf, v);
		for (i = 0; v && i < 4; i++) {
			int shift = 10 * (4 - i);

			if (v & ((1ULL << shift) - 1))
				continue;
			snprintf(buf, sizeof(buf), "%llu%s",
				 (unsigned long long)(v >> shift), suffixes[i]);
			number_reparses(buf, v);
			break;
		}
	} else {
		check_failure(rc, err, text, number_again);
	}
	free(err);
}

static void check_width(const char *text)
{
	static const char *const names[] = { "8", "16", "32", "64" };
	char *err = err_buf(FUZZ_ERRLEN);
	unsigned int w = 99, want = 0, i;
	int rc;

	for (i = 0; i < 4; i++)
		if (!strcmp(text, names[i]))
			want = 1U << i;
	rc = parse_width(text, &w, err, FUZZ_ERRLEN);
	CHECK(rc == 0 || rc == -1);
	fuzz_err = rc ? err : NULL;
	CHECK((rc == 0) == (want != 0));
	if (rc == 0) {
		CHECK(w == want);
	} else {
		CHECK(w == 99);
		check_failure(rc, err, text, width_again);
	}
	free(err);
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int width;
	char *text;

	if (!size)
		return 0;
	width = 1U << (data[0] & 3);
	text = malloc(size);
	CHECK(text);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = 0;
	fuzz_begin(text, strlen(text));
	check_value(text, width);
	check_number(text);
	check_width(text);
	CHECK(!memcmp(text, data + 1, strlen(text)));	/* const: untouched */
	free(text);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The region grammar. Numbers are C literals (0x hex, else decimal);
 * sizes and addresses take K, M, G, T or KiB, MiB, GiB, TiB (powers of 1024).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "region.h"

#define SUFFIXES "K, M, G, T or KiB, MiB, GiB, TiB"

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int digit_value(int c, unsigned int base)
{
	int v;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return (unsigned int)v < base ? v : -1;
}

/* Digits of a C literal; *end is left after them. Returns 1 on overflow. */
static int scan_digits(const char *s, const char **end, uint64_t *val)
{
	unsigned int base = 10;
	uint64_t v = 0;
	int overflow = 0, d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
	    digit_value(s[2], 16) >= 0) {
		base = 16;
		s += 2;
	}
	for (; (d = digit_value(*s, base)) >= 0; s++) {
		if (v > (UINT64_MAX - d) / base)
			overflow = 1;
		v = v * base + d;
	}
	*end = s;
	*val = v;
	return overflow;
}

/* A size suffix at s: its shift, and *end after it; -1 when unknown */
static int scan_suffix(const char *s, const char **end)
{
	static const char units[] = "KMGT";
	const char *u;

	*end = s;
	if (!*s || *s == '+' || *s == '-')
		return 0;
	u = strchr(units, toupper((unsigned char)*s));
	if (!u)
		return -1;
	s++;
	if (s[0] == 'i' && s[1] == 'B')
		s += 2;
	*end = s;
	return 10 * (int)(u - units + 1);
}

/* One number at the start of s; *end after it. */
static int scan_number(const char *s, const char **end, const char *what,
		       uint64_t *val, char *err, size_t errlen)
{
	int len = (int)strcspn(s, "+-"), shift;
	const char *p;

	if (!isdigit((unsigned char)*s))
		return fail(err, errlen, "%s '%.*s' is not a number "
			    "(0x hex or decimal)", what, len, s);
	if (scan_digits(s, &p, val))
		return fail(err, errlen, "%s '%.*s' does not fit in 64 bits",
			    what, (int)(p - s), s);
	shift = scan_suffix(p, end);
	if (shift < 0 || (**end && !strchr("+-", **end)))
		return fail(err, errlen, "%s '%.*s': '%.*s' is not a size "
			    "suffix (%s)", what, len, s, (int)(s + len - p), p,
			    SUFFIXES);
	if (shift && *val > (UINT64_MAX >> shift))
		return fail(err, errlen, "%s '%.*s' does not fit in 64 bits",
			    what, (int)(*end - s), s);
	*val <<= shift;
	return 0;
}

int parse_number(const char *text, const char *what, uint64_t *val,
		 char *err, size_t errlen)
{
	const char *end;

	if (scan_number(text, &end, what, val, err, errlen))
		return -1;
	if (*end)
		return fail(err, errlen, "%s '%s': unexpected '%s' after the "
			    "number", what, text, end);
	return 0;
}

static int region_end(const char *text, const char *p, struct region *r,
		      char *err, size_t errlen)
{
	const char *what = *p == '+' ? "size" : "end";
	uint64_t v;
	const char *end;

	if (scan_number(p + 1, &end, what, &v, err, errlen))
		return -1;
	if (*end)
		return fail(err, errlen, "region '%s': unexpected '%s' after "
			    "the %s", text, end, what);
	if (*p == '-') {
		if (v < r->start)
			return fail(err, errlen, "region '%s': end 0x%llx lies "
				    "before start 0x%llx (END is inclusive)",
				    text, (unsigned long long)v,
				    (unsigned long long)r->start);
		if (v - r->start == UINT64_MAX)
			return fail(err, errlen, "region '%s': 2^64 bytes do "
				    "not fit in a size", text);
		v = v - r->start + 1;
	}
	if (!v)
		return fail(err, errlen, "region '%s': the size is zero", text);
	if (v - 1 > UINT64_MAX - r->start)
		return fail(err, errlen, "region '%s': wraps around the end of "
			    "the 64-bit physical address space", text);
	r->size = v;
	r->has_size = true;
	return 0;
}

int region_parse(const char *text, struct region *r, char *err, size_t errlen)
{
	const char *p;

	memset(r, 0, sizeof(*r));
	r->text = text;
	if (!*text)
		return fail(err, errlen, "empty region; write START+SIZE, "
			    "START-END or START");
	if (scan_number(text, &p, "start", &r->start, err, errlen))
		return -1;
	if (!*p) {
		r->size = 1;
		return 0;
	}
	return region_end(text, p, r, err, errlen);
}

int parse_value(const char *text, unsigned int width, uint64_t *val,
		char *err, size_t errlen)
{
	uint64_t max = width >= 8 ? UINT64_MAX : (1ULL << (8 * width)) - 1;
	const char *end;

	if (!isdigit((unsigned char)*text))
		return fail(err, errlen, "value '%s' is not a number "
			    "(0x hex or decimal)", text);
	if (scan_digits(text, &end, val))
		return fail(err, errlen, "value '%s' does not fit in 64 bits",
			    text);
	if (*end)
		return fail(err, errlen, "value '%s': unexpected '%s' after "
			    "the number", text, end);
	if (*val > max)
		return fail(err, errlen, "value '%s' does not fit in "
			    "--width=%u (0 to 0x%llx)", text, 8 * width,
			    (unsigned long long)max);
	return 0;
}

int parse_width(const char *text, unsigned int *bytes, char *err, size_t errlen)
{
	static const char *const names[] = { "8", "16", "32", "64" };
	unsigned int i;

	for (i = 0; i < 4; i++) {
		if (!strcmp(text, names[i])) {
			*bytes = 1U << i;
			return 0;
		}
	}
	return fail(err, errlen, "--width=%s: the width is 8, 16, 32 or 64 "
		    "(bits)", text);
}

void region_pfns(const struct region *r, unsigned int page_shift,
		 struct pfn_span *s)
{
	uint64_t last = r->start + (r->size - 1);

	s->first_pfn = r->start >> page_shift;
	s->last_pfn = last >> page_shift;
	s->pages = s->last_pfn - s->first_pfn + 1;
	s->offset = r->start & ((1ULL << page_shift) - 1);
}

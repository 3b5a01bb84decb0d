// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The region grammar (region.h). One number scanner serves addresses,
 * sizes, offsets and values; a '/' makes a region a PCI location.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "region.h"
#include "util.h"

#define SUFFIXES	"K, M, G, T or KiB, MiB, GiB, TiB"
#define BAR_GRAMMAR	"the BAR is bar0 to bar5, optionally followed by @OFFSET and +SIZE"
#define CONFIG_GRAMMAR	"config space is DEVICE/config, " \
			"optionally followed by @OFFSET or @CAP_NAME+OFFSET, and +SIZE"

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

/* A size suffix at s, up to stop: its shift, or -1 when unknown */
static int suffix_shift(const char *s, const char *stop)
{
	static const char units[] = "KMGT";
	const char *u = *s ? strchr(units, toupper((unsigned char)*s)) : NULL;
	size_t len = (size_t)(stop - s);

	if (!u || (len != 1 && (len != 3 || strncmp(s + 1, "iB", 2))))
		return -1;
	return 10 * (int)(u - units + 1);
}

/*
 * One number at s, which ends at the end of the text or at one of the
 * characters in stops; *end is left there. A suffix scales it when allowed.
 */
static int scan_number(const char *s, const char *stops, bool suffix,
		       const char *what, uint64_t *val, const char **end,
		       char *err, size_t errlen)
{
	int len = (int)strcspn(s, stops), shift = 0;
	const char *p;

	if (!isdigit((unsigned char)*s))
		return fail(err, errlen,
			    "%s '%.*s' is not a number (0x hex or decimal)", what, len, s);
	if (scan_digits(s, &p, val))
		return fail(err, errlen,
			    "%s '%.*s' does not fit in 64 bits", what, (int)(p - s), s);
	*end = s + len;
	if (p == *end)
		return 0;
	if (!suffix)
		return fail(err, errlen, "%s '%.*s': unexpected '%.*s' after the number",
			    what, len, s, (int)(*end - p), p);
	shift = suffix_shift(p, *end);
	if (shift < 0)
		return fail(err, errlen, "%s '%.*s': '%.*s' is not a size suffix (%s)",
			    what, len, s, (int)(*end - p), p, SUFFIXES);
	if (*val > (UINT64_MAX >> shift))
		return fail(err, errlen, "%s '%.*s' does not fit in 64 bits", what, len, s);
	*val <<= shift;
	return 0;
}

int parse_number(const char *text, const char *what, uint64_t *val,
		 char *err, size_t errlen)
{
	const char *end;

	if (scan_number(text, "+-", true, what, val, &end, err, errlen))
		return -1;
	if (*end)
		return fail(err, errlen,
			    "%s '%s': unexpected '%s' after the number", what, text, end);
	return 0;
}

int parse_value(const char *text, unsigned int width, uint64_t *val,
		char *err, size_t errlen)
{
	uint64_t max = width >= 8 ? UINT64_MAX : (1ULL << (8 * width)) - 1;
	const char *end;

	if (scan_number(text, "", false, "value", val, &end, err, errlen))
		return -1;
	if (*val > max)
		return fail(err, errlen, "value '%s' does not fit in --width=%u (0 to 0x%llx)",
			    text, 8 * width, (unsigned long long)max);
	return 0;
}

int parse_masked(const char *text, unsigned int width, uint64_t *val,
		 uint64_t *mask, char *err, size_t errlen)
{
	uint64_t max = width >= 8 ? UINT64_MAX : (1ULL << (8 * width)) - 1;
	const char *colon = strchr(text, ':'), *end;

	*mask = max;
	if (!colon)
		return parse_value(text, width, val, err, errlen);
	if (scan_number(text, ":", false, "value", val, &end, err, errlen))
		return -1;
	if (*val > max)
		return fail(err, errlen, "value '%.*s' does not fit in --width=%u (0 to 0x%llx)",
			    (int)(colon - text), text, 8 * width, (unsigned long long)max);
	if (!colon[1])
		return fail(err, errlen,
			    "'%s': no mask after ':'; write VALUE:MASK (0x hex or decimal)", text);
	if (scan_number(colon + 1, "", false, "mask", mask, &end, err, errlen))
		return -1;
	if (*mask > max)
		return fail(err, errlen, "mask '%s' does not fit in --width=%u (0 to 0x%llx)",
			    colon + 1, 8 * width, (unsigned long long)max);
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
	return fail(err, errlen, "--width=%s: the width is 8, 16, 32 or 64 (bits)", text);
}

static const struct {
	const char *name;
	uint64_t ns;
} duration_units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
};

/* The unit after a duration's number; 0 when there is none we know */
static uint64_t duration_unit(const char *unit)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(duration_units); i++)
		if (!strcmp(unit, duration_units[i].name))
			return duration_units[i].ns;
	return 0;
}

/*
 * Decimal only, the fraction exact to the nanosecond: "1.5s", "10ms",
 * "0.25us" is refused (finer than the clock's unit would be a silent
 * rounding).
 */
int parse_duration(const char *text, bool forever_ok, uint64_t *ns,
		   char *err, size_t errlen)
{
	uint64_t whole = 0, frac = 0, unit, scale = 1;
	const char *p = text;

	if (forever_ok && !strcmp(text, "forever")) {
		*ns = DURATION_FOREVER;
		return 0;
	}
	if (!isdigit((unsigned char)*p))
		return fail(err, errlen,
			    "duration '%s': a number and a unit: ns, us, ms or s (10ms, 1.5s)%s",
			    text, forever_ok ? ", or forever" : "");
	for (; isdigit((unsigned char)*p); p++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return fail(err, errlen, "duration '%s' is too long", text);
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		const char *f = ++p;

		if (!isdigit((unsigned char)*p))
			return fail(err, errlen, "duration '%s': digits after the '.'", text);
		for (; isdigit((unsigned char)*p) && p - f < 9; p++) {
			frac = frac * 10 + (uint64_t)(*p - '0');
			scale *= 10;
		}
		if (isdigit((unsigned char)*p))
			return fail(err, errlen,
				    "duration '%s': at most 9 digits after the '.'", text);
	}
	if (!*p)
		return fail(err, errlen,
			    "duration '%s' has no unit; "
			    "write ns, us, ms or s after the number (%s%s)", text, text, "ms");
	unit = duration_unit(p);
	if (!unit)
		return fail(err, errlen,
			    "duration '%s': '%s' is not a unit; the units are ns, us, ms and s",
			    text, p);
	if (frac * unit % scale)
		return fail(err, errlen, "duration '%s' is finer than a nanosecond", text);
	if (whole > (UINT64_MAX - 1) / unit ||
	    whole * unit > UINT64_MAX - 1 - frac * unit / scale)
		return fail(err, errlen, "duration '%s' is too long", text);
	*ns = whole * unit + frac * unit / scale;
	return 0;
}

/* +SIZE or -END after the start of a physical region */
static int phys_end(const char *text, const char *p, struct region *r,
		    char *err, size_t errlen)
{
	const char *what = *p == '+' ? "size" : "end";
	const char *end;
	uint64_t v;

	if (scan_number(p + 1, "+-", true, what, &v, &end, err, errlen))
		return -1;
	if (*end)
		return fail(err, errlen,
			    "region '%s': unexpected '%s' after the %s", text, end, what);
	if (*p == '-') {
		if (v < r->start)
			return fail(err, errlen,
				    "region '%s': end 0x%llx lies before start 0x%llx "
				    "(END is inclusive)",
				    text, (unsigned long long)v, (unsigned long long)r->start);
		if (v - r->start == UINT64_MAX)
			return fail(err, errlen,
				    "region '%s': 2^64 bytes do not fit in a size", text);
		v = v - r->start + 1;
	}
	if (!v)
		return fail(err, errlen, "region '%s': the size is zero", text);
	if (v - 1 > UINT64_MAX - r->start)
		return fail(err, errlen, "region '%s': "
			    "wraps around the end of the 64-bit physical address space", text);
	r->size = v;
	r->has_size = true;
	return 0;
}

static int parse_phys(const char *text, struct region *r, char *err,
		      size_t errlen)
{
	const char *p;

	r->kind = REGION_PHYS;
	if (!*text)
		return fail(err, errlen, "empty region; write START+SIZE, START-END or START");
	if (scan_number(text, "+-", true, "start", &r->start, &p, err, errlen))
		return -1;
	if (!*p) {
		r->size = 1;
		return 0;
	}
	return phys_end(text, p, r, err, errlen);
}

/* "barN" or "config" after the slash; *p is left after it */
static int parse_space(const char *text, const char **p, struct region *r,
		       char *err, size_t errlen)
{
	const char *s = *p;

	if (!strncmp(s, "config", 6) && (!s[6] || strchr("@+", s[6]))) {
		r->kind = REGION_CONFIG;
		*p = s + 6;
		return 0;
	}
	if (strncmp(s, "bar", 3) || s[3] < '0' || s[3] > '5' ||
	    (s[4] && !strchr("@+", s[4]))) {
		if (!strncmp(s, "bar", 3))
			return fail(err, errlen, "'%s': %s", text, BAR_GRAMMAR);
		return fail(err, errlen,
			    "'%s': after the device comes barN or config; %s", text, BAR_GRAMMAR);
	}
	r->kind = REGION_BAR;
	r->bar = (unsigned int)(s[3] - '0');
	*p = s + 4;
	return 0;
}

/*
 * @NAME[+OFFSET] of a capability in config space: the name as text, for
 * pci.c to resolve; *p is left after it
 */
static int parse_cap(const char *text, const char **p, struct region *r,
		     char *err, size_t errlen)
{
	char msg[REGION_ERR_MAX];
	const char *s = *p;

	r->cap = s;
	while (isalnum((unsigned char)*s) || *s == '_')
		s++;
	r->cap_len = (size_t)(s - r->cap);
	if (*s && *s != '+')
		return fail(err, errlen, "'%s': unexpected '%s' after the capability name; %s",
			    text, s, CONFIG_GRAMMAR);
	if (*s == '+' &&
	    scan_number(s + 1, "+", true, "offset", &r->start, &s, msg, sizeof(msg)))
		return fail(err, errlen, "'%s': %s", text, msg);
	*p = s;
	return 0;
}

/* [@OFFSET][+SIZE] inside a BAR or config space */
static int parse_inside(const char *text, const char *p, struct region *r,
			char *err, size_t errlen)
{
	char msg[REGION_ERR_MAX];
	bool sized;

	if (*p == '@' && r->kind == REGION_CONFIG &&
	    (isalpha((unsigned char)p[1]) || p[1] == '_')) {
		p++;
		if (parse_cap(text, &p, r, err, errlen))
			return -1;
	} else if (*p == '@' &&
	    scan_number(p + 1, "+", true, "offset", &r->start, &p, msg, sizeof(msg)))
		return fail(err, errlen, "'%s': %s", text, msg);
	sized = *p == '+';
	if (sized &&
	    scan_number(p + 1, "+", true, "size", &r->size, &p, msg, sizeof(msg)))
		return fail(err, errlen, "'%s': %s", text, msg);
	if (*p)
		return fail(err, errlen, "'%s': unexpected '%s'; %s",
			    text, p, r->kind == REGION_BAR ? BAR_GRAMMAR : CONFIG_GRAMMAR);
	r->has_size = sized;
	if (sized && !r->size)
		return fail(err, errlen, "'%s': the size is zero", text);
	return 0;
}

static int parse_pci(const char *text, const char *slash, struct region *r,
		     char *err, size_t errlen)
{
	const char *p = slash + 1;

	if (devspec_parse(text, (size_t)(slash - text), &r->dev, err, errlen))
		return -1;
	if (parse_space(text, &p, r, err, errlen))
		return -1;
	return parse_inside(text, p, r, err, errlen);
}

int region_parse(const char *text, struct region *r, char *err, size_t errlen)
{
	const char *slash = strchr(text, '/');

	memset(r, 0, sizeof(*r));
	r->text = text;
	if (slash)
		return parse_pci(text, slash, r, err, errlen);
	return parse_phys(text, r, err, errlen);
}

void region_pfns(uint64_t start, uint64_t size, unsigned int page_shift,
		 struct pfn_span *s)
{
	uint64_t last = start + (size - 1);

	s->first_pfn = start >> page_shift;
	s->last_pfn = last >> page_shift;
	s->pages = s->last_pfn - s->first_pfn + 1;
	s->offset = start & ((1ULL << page_shift) - 1);
}

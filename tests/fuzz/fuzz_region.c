// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: region_parse (lib/region.c) on the input as a C string
 * (a NUL-terminated copy of exactly its bytes; an embedded NUL ends it, as
 * it would end an argv string).
 *
 * Invariants:
 *   - the result is 0 or -1, and agrees with an oracle that splits the
 *     text by the grammar of region.h and parses each number with
 *     parse_number (itself checked against strtoull by fuzz_value): same
 *     success, same kind, start, size, has_size, bar, device;
 *   - physical: size >= 1, start + size - 1 does not wrap, has_size false
 *     only for a plain START (size 1, no '+' or '-' in the text);
 *     0xSTART+0xSIZE, 0xSTART-0xEND (and 0xSTART alone for a plain START)
 *     parse back to the same region; region_pfns on it is consistent for
 *     4 KiB, 16 KiB, 64 KiB and 2 MiB pages;
 *   - PCI: bar 0 to 5 (0 for config), has_size false exactly when size is
 *     0, the device is what devspec_parse makes of the text before the
 *     '/', a capability name only in config space and as written;
 *     DEVICE/barN@0xOFF[+0xSIZE] and DEVICE/config@CAP+0xOFF[+0xSIZE]
 *     parse back to the same region, with
 *     DEVICE as written and as devspec_canon writes it;
 *   - r->text is the text given;
 *   - on failure the error contract of fuzz_common.h; with errlen 1 and 8
 *     the same result (and region), the message truncated.
 */
#include <ctype.h>

#include "fuzz_common.h"

static bool same_region(const struct region *a, const struct region *b)
{
	return a->kind == b->kind && a->start == b->start &&
	       a->size == b->size && a->has_size == b->has_size &&
	       a->bar == b->bar && a->cap_len == b->cap_len &&
	       (!a->cap_len || !memcmp(a->cap, b->cap, a->cap_len)) &&
	       (a->kind == REGION_PHYS || same_dev(&a->dev, &b->dev));
}

static bool oracle_number(const char *begin, size_t len, uint64_t *v)
{
	char err[FUZZ_ERRLEN];
	char *s = strndup(begin, len);
	int rc;

	CHECK(s);
	rc = parse_number(s, "number", v, err, sizeof(err));
	free(s);
	return rc == 0;
}

/* region.h's grammar, by hand; false where region_parse must fail */
static bool oracle(const char *text, struct region *o)
{
	const char *slash = strchr(text, '/'), *p, *q;
	char err[FUZZ_ERRLEN];
	uint64_t a, b;

	memset(o, 0, sizeof(*o));
	o->text = text;
	if (slash) {
		if (devspec_parse(text, (size_t)(slash - text), &o->dev, err,
				  sizeof(err)))
			return false;
		p = slash + 1;
		if (!strncmp(p, "config", 6)) {
			o->kind = REGION_CONFIG;
			p += 6;
		} else if (!strncmp(p, "bar", 3) && p[3] >= '0' &&
			   p[3] <= '5') {
			o->kind = REGION_BAR;
			o->bar = (unsigned int)(p[3] - '0');
			p += 4;
		} else {
			return false;
		}
		if (*p == '@' && o->kind == REGION_CONFIG &&
		    (isalpha((unsigned char)p[1]) || p[1] == '_')) {
			/* @CAP_NAME[+OFFSET]: the name resolves later */
			o->cap = ++p;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			o->cap_len = (size_t)(p - o->cap);
			if (*p && *p != '+')
				return false;
			if (*p == '+') {
				q = p + 1 + strcspn(p + 1, "+");
				if (!oracle_number(p + 1, (size_t)(q - p - 1),
						   &o->start))
					return false;
				p = q;
			}
		} else if (*p == '@') {
			q = p + 1 + strcspn(p + 1, "+");
			if (!oracle_number(p + 1, (size_t)(q - p - 1),
					   &o->start))
				return false;
			p = q;
		}
		if (*p == '+') {
			if (!oracle_number(p + 1, strlen(p + 1), &o->size) ||
			    !o->size)
				return false;
			o->has_size = true;
			p += strlen(p);
		}
		return !*p;
	}
	o->kind = REGION_PHYS;
	p = text + strcspn(text, "+-");
	if (!oracle_number(text, (size_t)(p - text), &a))
		return false;
	o->start = a;
	o->size = 1;
	if (!*p)
		return true;
	if (!oracle_number(p + 1, strlen(p + 1), &b))
		return false;
	if (*p == '-') {
		if (b < a || (a == 0 && b == UINT64_MAX))
			return false;
		b = b - a + 1;
	}
	if (!b || b - 1 > UINT64_MAX - a)
		return false;
	o->size = b;
	o->has_size = true;
	return true;
}

/* text parses, to the same region as r */
static void reparses_to(const char *text, const struct region *r)
{
	char err[FUZZ_ERRLEN];
	struct region again;

	if (region_parse(text, &again, err, sizeof(err))) {
		fprintf(stderr, "'%s' does not parse: %s\n", text, err);
		CHECK(!"the canonical spelling parses");
	}
	if (!same_region(&again, r)) {
		fprintf(stderr, "'%s' parses to another region\n", text);
		CHECK(!"the canonical spelling parses to the same region");
	}
}

static void check_pfns(const struct region *r)
{
	static const unsigned int shifts[] = { 12, 14, 16, 21 };
	struct pfn_span s;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(shifts); i++) {
		uint64_t page = 1ULL << shifts[i];

		region_pfns(r->start, r->size, shifts[i], &s);
		CHECK(s.first_pfn <= s.last_pfn);
		CHECK(s.pages == s.last_pfn - s.first_pfn + 1);
		CHECK(s.offset < page);
		CHECK((s.first_pfn << shifts[i]) + s.offset == r->start);
		CHECK(s.last_pfn == (r->start + (r->size - 1)) >> shifts[i]);
		/* the pages hold the region, and no page more */
		CHECK(s.pages - 1 == (s.offset + (r->size - 1)) >> shifts[i]);
	}
}

static void check_phys(const char *text, const struct region *r)
{
	char buf[128];

	CHECK(r->size >= 1);
	CHECK(r->start + (r->size - 1) >= r->start);
	CHECK(r->bar == 0);
	if (!r->has_size) {
		CHECK(r->size == 1);
		CHECK(!strpbrk(text, "+-"));
		snprintf(buf, sizeof(buf), "0x%llx",
			 (unsigned long long)r->start);
		reparses_to(buf, r);
		snprintf(buf, sizeof(buf), "%llu",
			 (unsigned long long)r->start);
		reparses_to(buf, r);
	} else {
		CHECK(strpbrk(text, "+-"));
		snprintf(buf, sizeof(buf), "0x%llx-0x%llx",
			 (unsigned long long)r->start,
			 (unsigned long long)(r->start + (r->size - 1)));
		reparses_to(buf, r);
		snprintf(buf, sizeof(buf), "0x%llx+0x%llx",
			 (unsigned long long)r->start,
			 (unsigned long long)r->size);
		reparses_to(buf, r);
	}
	check_pfns(r);
}

static void check_pci(const char *text, const struct region *r)
{
	const char *slash = strchr(text, '/');
	char err[FUZZ_ERRLEN], dev[DEVSPEC_MAX + 16];
	/* a capability name is as long as the input makes it */
	size_t bufsz = sizeof(dev) + r->cap_len + 64;
	char *buf = malloc(bufsz);
	struct devspec d;
	size_t len;
	int i;

	CHECK(slash && buf);
	len = (size_t)(slash - text);
	CHECK(r->kind == REGION_BAR || r->kind == REGION_CONFIG);
	CHECK(r->bar <= 5);
	CHECK(r->kind == REGION_BAR || r->bar == 0);
	CHECK(r->kind == REGION_CONFIG || !r->cap_len);
	CHECK(r->has_size == (r->size != 0));
	CHECK(len < DEVSPEC_MAX);
	CHECK(!memcmp(r->dev.text, text, len) && !r->dev.text[len]);
	CHECK(devspec_parse(text, len, &d, err, sizeof(err)) == 0);
	CHECK(same_dev(&d, &r->dev));
	check_devspec_fields(&r->dev);
	/* DEVICE as written, then canonical */
	for (i = 0; i < 2; i++) {
		if (!i)
			snprintf(dev, sizeof(dev), "%s", r->dev.text);
		else
			devspec_canon(&r->dev, dev, sizeof(dev));
		if (r->kind == REGION_BAR)
			len = (size_t)snprintf(buf, bufsz, "%s/bar%u",
					       dev, r->bar);
		else
			len = (size_t)snprintf(buf, bufsz, "%s/config",
					       dev);
		if (r->cap_len)
			len += (size_t)snprintf(buf + len, bufsz - len,
						"@%.*s+0x%llx",
						(int)r->cap_len, r->cap,
						(unsigned long long)r->start);
		else
			len += (size_t)snprintf(buf + len, bufsz - len,
						"@0x%llx",
						(unsigned long long)r->start);
		if (r->has_size)
			snprintf(buf + len, bufsz - len, "+0x%llx",
				 (unsigned long long)r->size);
		reparses_to(buf, r);
	}
	free(buf);
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *err = err_buf(FUZZ_ERRLEN);
	struct region r, o, small_r;
	bool ok;
	size_t i;
	int rc;

	CHECK(text);
	memcpy(text, data, size);
	text[size] = 0;
	fuzz_begin(text, strlen(text));
	memset(&r, 0xa5, sizeof(r));
	rc = region_parse(text, &r, err, FUZZ_ERRLEN);
	CHECK(rc == 0 || rc == -1);
	CHECK(!memcmp(text, data, strlen(text)));	/* const: untouched */
	ok = oracle(text, &o);
	if (rc == 0 && !ok)
		CHECK(!"region_parse accepts what the grammar does not");
	if (rc != 0 && ok) {
		fuzz_err = err;
		CHECK(!"region_parse rejects what the grammar accepts");
	}
	if (rc == 0) {
		CHECK(r.text == text);
		if (!same_region(&r, &o)) {
			fprintf(stderr, "region_parse: kind %d start %#llx size "
				"%#llx has_size %d bar %u\n", r.kind,
				(unsigned long long)r.start,
				(unsigned long long)r.size, r.has_size, r.bar);
			fprintf(stderr, "the grammar: kind %d start %#llx size "
				"%#llx has_size %d bar %u\n", o.kind,
				(unsigned long long)o.start,
				(unsigned long long)o.size, o.has_size, o.bar);
			CHECK(!"region_parse and the grammar disagree");
		}
		if (r.kind == REGION_PHYS) {
			CHECK(!strchr(text, '/'));
			check_phys(text, &r);
		} else {
			check_pci(text, &r);
		}
	} else {
		check_err(err, FUZZ_ERRLEN, text, strlen(text));
	}
	for (i = 0; i < FUZZ_NSMALL; i++) {
		size_t n = fuzz_small_errlens[i];
		char *small = err_buf(n);

		memset(&small_r, 0xa5, sizeof(small_r));
		CHECK(region_parse(text, &small_r, small, n) == rc);
		if (rc == 0)
			CHECK(same_region(&small_r, &r));
		else
			check_truncated(err, small, n);
		free(small);
	}
	free(err);
	free(text);
	return 0;
}

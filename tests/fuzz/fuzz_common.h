/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the libFuzzer targets of tests/fuzz: invariant checks that
 * abort (libFuzzer saves the input as crash-*), the error-buffer contract
 * of the parsers, and the canonical spelling of a device spec.
 *
 * The error contract, for every parser that failed:
 *   - it returned -1 (never another value), err is NUL-terminated within
 *     errlen and not empty (errlen > 1);
 *   - err is one printable line: no '\n', no control or non-ASCII byte.
 *     The parsers quote the user's text in their messages, so a byte of
 *     the input comes back as it is; PFNMAP_FUZZ_STRICT_ERR=1 in the
 *     environment makes even those a failure (by default only a byte that
 *     is not in the input is);
 *   - a shorter buffer (errlen 1 and 8, allocated to exactly that size, so
 *     that ASan sees a write past it) gives the same result and a prefix
 *     of the same message.
 */
#ifndef PFNMAP_FUZZ_COMMON_H
#define PFNMAP_FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devspec.h"
#include "region.h"
#include "util.h"

/* The full error buffer: the size the CLI gives the parsers */
#define FUZZ_ERRLEN	REGION_ERR_MAX

/* What the current input was, for the report of a violated invariant */
static const void *fuzz_input;
static size_t fuzz_input_len;
static const char *fuzz_err;
static bool fuzz_strict_err;

static inline void fuzz_print_escaped(const char *what, const void *p,
				      size_t n)
{
	const unsigned char *s = p;
	size_t i;

	fprintf(stderr, "%s (%zu bytes): \"", what, n);
	for (i = 0; i < n; i++) {
		if (s[i] == '"' || s[i] == '\\')
			fprintf(stderr, "\\%c", s[i]);
		else if (s[i] >= 0x20 && s[i] < 0x7f)
			fputc(s[i], stderr);
		else
			fprintf(stderr, "\\x%02x", s[i]);
	}
	fputs("\"\n", stderr);
}

static inline void __attribute__((noreturn))
fuzz_fail(const char *cond, const char *file, int line)
{
	fprintf(stderr, "\n*** pfnmap fuzz: invariant violated: %s (%s:%d)\n",
		cond, file, line);
	if (fuzz_input)
		fuzz_print_escaped("input", fuzz_input, fuzz_input_len);
	if (fuzz_err)
		fuzz_print_escaped("err", fuzz_err, strnlen(fuzz_err,
							    FUZZ_ERRLEN));
	fflush(stderr);
	abort();
}

#define CHECK(cond) \
	do { if (!(cond)) fuzz_fail(#cond, __FILE__, __LINE__); } while (0)

/* Each target is a program of its own that includes this once */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *s = getenv("PFNMAP_FUZZ_STRICT_ERR");

	(void)argc;
	(void)argv;
	fuzz_strict_err = s && *s && strcmp(s, "0");
	return 0;
}

static inline void fuzz_begin(const void *input, size_t len)
{
	fuzz_input = input;
	fuzz_input_len = len;
	fuzz_err = NULL;
}

/* A fresh error buffer of exactly len bytes, poisoned */
static inline char *err_buf(size_t len)
{
	char *e = malloc(len);

	CHECK(e);
	memset(e, 0x5a, len);
	return e;
}

/* err after a failure with errlen bytes; input: what the parser was given */
static inline void check_err(const char *err, size_t errlen,
			     const void *input, size_t inlen)
{
	const char *nul = memchr(err, 0, errlen);
	const unsigned char *s;

	fuzz_err = nul ? err : NULL;
	CHECK(nul != NULL);
	if (errlen > 1)
		CHECK(nul > err);
	for (s = (const unsigned char *)err; *s; s++) {
		bool plain = *s >= 0x20 && *s < 0x7f;

		if (plain)
			continue;
		/* a byte the parser made up itself: never */
		CHECK(memchr(input, *s, inlen) != NULL);
		/* one the user wrote, quoted: only when not strict */
		CHECK(!fuzz_strict_err &&
		      "err has a control, non-ASCII or newline byte");
	}
}

/* small: the same failure reported into a buffer of n bytes */
static inline void check_truncated(const char *full, const char *small,
				   size_t n)
{
	size_t want = strlen(full);

	if (want > n - 1)
		want = n - 1;
	CHECK(memchr(small, 0, n) != NULL);
	CHECK(strlen(small) == want);
	CHECK(!memcmp(small, full, want));
}

/* The sizes the truncation checks use */
static const size_t fuzz_small_errlens[] = { 1, 8 };
#define FUZZ_NSMALL	ARRAY_SIZE(fuzz_small_errlens)

static inline bool same_filter(const struct pci_filter *a,
			       const struct pci_filter *b)
{
	return a->domain == b->domain && a->bus == b->bus &&
	       a->slot == b->slot && a->func == b->func &&
	       a->vendor == b->vendor && a->device == b->device &&
	       a->device_class == b->device_class &&
	       a->device_class_mask == b->device_class_mask &&
	       a->prog_if == b->prog_if;
}

/* Same device, the text aside */
static inline bool same_dev(const struct devspec *a, const struct devspec *b)
{
	return same_filter(&a->filter, &b->filter) && a->by_id == b->by_id &&
	       a->index == b->index;
}

static inline void hex_or_any(char *buf, size_t n, const char *fmt, int v)
{
	if (v < 0)
		snprintf(buf, n, "*");
	else
		snprintf(buf, n, fmt, v);
}

/*
 * A parsed device spec written out again the long way: DOMAIN:BUS:DEV.FN
 * or VENDOR:DEVICE (4 digits a side, so that it reads as IDs), * where
 * any, then #N.
 */
static inline void devspec_canon(const struct devspec *d, char *buf, size_t n)
{
	char a[16], b[16], c[16], e[16];
	int len;

	if (d->by_id) {
		hex_or_any(a, sizeof(a), "%04x", d->filter.vendor);
		hex_or_any(b, sizeof(b), "%04x", d->filter.device);
		len = snprintf(buf, n, "%s:%s", a, b);
	} else {
		hex_or_any(a, sizeof(a), "%04x", d->filter.domain);
		hex_or_any(b, sizeof(b), "%02x", d->filter.bus);
		hex_or_any(c, sizeof(c), "%02x", d->filter.slot);
		hex_or_any(e, sizeof(e), "%x", d->filter.func);
		len = snprintf(buf, n, "%s:%s:%s.%s", a, b, c, e);
	}
	CHECK(len > 0 && (size_t)len < n);
	if (d->index >= 0)
		snprintf(buf + len, n - (size_t)len, "#%d", d->index);
}

static inline void print_dev(const char *what, const struct devspec *d)
{
	const struct pci_filter *f = &d->filter;

	fprintf(stderr, "%s: domain %d bus %d slot %d func %d vendor %d "
		"device %d class %d/%#x prog_if %d by_id %d index %d\n", what,
		f->domain, f->bus, f->slot, f->func, f->vendor, f->device,
		f->device_class, f->device_class_mask, f->prog_if, d->by_id,
		d->index);
}

/* The ranges a parsed spec's fields can have */
static inline void check_devspec_fields(const struct devspec *d)
{
	const struct pci_filter *f = &d->filter;

	CHECK(d->index >= -1 && d->index <= 99999);
	CHECK(memchr(d->text, 0, sizeof(d->text)) != NULL);
	CHECK(f->device_class == -1 && f->device_class_mask == ~0U &&
	      f->prog_if == -1);
	if (d->by_id) {
		CHECK(f->domain == -1 && f->bus == -1 && f->slot == -1 &&
		      f->func == -1);
		CHECK(f->vendor >= -1 && f->vendor <= 0xffff);
		CHECK(f->device >= -1 && f->device <= 0xffff);
		/* a side of more than two characters names an ID */
		CHECK(f->vendor >= 0 || f->device >= 0);
	} else {
		CHECK(f->vendor == -1 && f->device == -1);
		CHECK(f->domain >= -1);		/* up to 0x7fffffff */
		CHECK(f->bus >= -1 && f->bus <= 0xff);
		CHECK(f->slot >= -1 && f->slot <= 0x1f);
		CHECK(f->func >= -1 && f->func <= 7);
	}
}

#endif

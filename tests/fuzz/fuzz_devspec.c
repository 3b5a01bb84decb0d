// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: devspec_parse (lib/devspec.c) on the input's bytes as
 * they are, with their length (the parser takes a length, not a C string:
 * embedded NULs and no terminator at all are fair game; libFuzzer's copy
 * of the input is exactly its size, so ASan sees a read past it).
 *
 * Invariants:
 *   - the result is 0 or -1, and agrees with an oracle written from the
 *     grammar in devspec.h and lspci(8) (not with libpci's code): 63 bytes
 *     at most, no NUL, #N of digits up to 99999, slot fields
 *     DOMAIN (hex <= 0x7fffffff), BUS (<= 0xff), DEV (<= 0x1f), FN (<= 7)
 *     or VENDOR:DEVICE (<= 0xffff each), "" or "*" for any part, and IDs
 *     exactly when there is one ':', no '.' and a side of more than two
 *     characters: same success and the same filter, by_id and index;
 *   - d->text is the input's bytes, NUL-terminated, whenever len < 64;
 *   - on success the fields are in their ranges, and the canonical
 *     spelling (devspec_canon) parses back to the same device;
 *   - on failure the error contract of fuzz_common.h; with errlen 1 and 8
 *     the same result, the message truncated.
 */
#include <ctype.h>

#include "fuzz_common.h"

/* libpci's notion of a hex field: NULL, "" or "*" is any (-1) */
static bool hex_field(const char *s, size_t n, bool present, unsigned max,
		      int *out)
{
	uint64_t v = 0;
	size_t i;

	if (!present || n == 0 || (n == 1 && s[0] == '*'))
		return true;
	for (i = 0; i < n; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return false;
		v = v * 16 + (uint64_t)(isdigit((unsigned char)s[i]) ?
			s[i] - '0' : tolower((unsigned char)s[i]) - 'a' + 10);
		if (v > max)
			return false;
	}
	*out = (int)v;
	return true;
}

/* Split s[0..n) at sep into at most max fields; -1 when more */
static int split(const char *s, size_t n, char sep, const char **f,
		 size_t *fl, int max)
{
	int k = 0;
	size_t i, start = 0;

	for (i = 0; i <= n; i++) {
		if (i < n && s[i] != sep)
			continue;
		if (k == max)
			return -1;
		f[k] = s + start;
		fl[k] = i - start;
		k++;
		start = i + 1;
	}
	return k;
}

static bool oracle(const uint8_t *data, size_t size, struct devspec *o)
{
	const char *s = (const char *)data, *hash, *f[4], *g[2];
	size_t n, fl[4], gl[2];
	int k, i = 0, m;

	memset(o, 0, sizeof(*o));
	o->index = -1;
	pci_filter_init(NULL, &o->filter);
	if (!size || size >= DEVSPEC_MAX || memchr(data, 0, size))
		return false;
	memcpy(o->text, data, size);
	hash = memchr(s, '#', size);
	n = hash ? (size_t)(hash - s) : size;
	if (hash) {
		const char *d = hash + 1, *end = s + size;
		long v = 0;

		if (d == end)
			return false;
		for (; d < end; d++) {
			if (!isdigit((unsigned char)*d))
				return false;
			v = v * 10 + (*d - '0');
			if (v > 99999)
				return false;
		}
		o->index = (int)v;
	}
	k = split(s, n, ':', f, fl, 4);
	o->by_id = k == 2 && !memchr(s, '.', n) && (fl[0] > 2 || fl[1] > 2);
	if (o->by_id)
		return hex_field(f[0], fl[0], true, 0xffff, &o->filter.vendor) &&
		       hex_field(f[1], fl[1], true, 0xffff, &o->filter.device);
	if (k < 0 || k > 3)
		return false;
	if (k == 3 && !hex_field(f[i++], fl[0], true, 0x7fffffff,
				 &o->filter.domain))
		return false;
	if (k >= 2 && !hex_field(f[i], fl[i], true, 0xff, &o->filter.bus))
		return false;
	if (k >= 2)
		i++;
	/* DEV[.FN], unless "" or "*" */
	if (!fl[i] || (fl[i] == 1 && f[i][0] == '*'))
		return true;
	m = split(f[i], fl[i], '.', g, gl, 2);
	if (m < 0)
		return false;
	return hex_field(g[0], gl[0], true, 0x1f, &o->filter.slot) &&
	       hex_field(m > 1 ? g[1] : NULL, m > 1 ? gl[1] : 0, m > 1, 7,
			 &o->filter.func);
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *err = err_buf(FUZZ_ERRLEN), canon[DEVSPEC_MAX + 16];
	struct devspec d, o, again;
	bool ok;
	size_t i;
	int rc;

	fuzz_begin(data, size);
	memset(&d, 0xa5, sizeof(d));
	rc = devspec_parse((const char *)data, size, &d, err, FUZZ_ERRLEN);
	CHECK(rc == 0 || rc == -1);
	if (size < DEVSPEC_MAX)
		CHECK(!memcmp(d.text, data, size) && !d.text[size]);
	ok = oracle(data, size, &o);
	if (rc == 0 && !ok) {
		print_dev("devspec_parse", &d);
		CHECK(!"devspec_parse accepts what the grammar does not");
	}
	if (rc != 0 && ok) {
		fuzz_err = err;
		CHECK(!"devspec_parse rejects what the grammar accepts");
	}
	if (rc == 0) {
		if (!same_dev(&d, &o)) {
			print_dev("devspec_parse", &d);
			print_dev("the grammar", &o);
			CHECK(!"devspec_parse and the grammar disagree");
		}
		check_devspec_fields(&d);
		devspec_canon(&d, canon, sizeof(canon));
		if (devspec_parse(canon, strlen(canon), &again, err,
				  FUZZ_ERRLEN)) {
			fprintf(stderr, "'%s' does not parse: %s\n", canon,
				err);
			CHECK(!"the canonical spelling parses");
		}
		if (!same_dev(&again, &d)) {
			fprintf(stderr, "'%s' parses to another device\n",
				canon);
			CHECK(!"the canonical spelling parses to the same device");
		}
	} else {
		check_err(err, FUZZ_ERRLEN, data, size);
	}
	for (i = 0; i < FUZZ_NSMALL; i++) {
		size_t n = fuzz_small_errlens[i];
		char *small = err_buf(n);

		memset(&again, 0xa5, sizeof(again));
		CHECK(devspec_parse((const char *)data, size, &again, small,
				    n) == rc);
		if (rc == 0)
			CHECK(same_dev(&again, &d));
		else
			check_truncated(err, small, n);
		free(small);
	}
	free(err);
	return 0;
}

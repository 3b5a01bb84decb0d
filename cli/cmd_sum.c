// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sum [--algo=crc32|sha256] REGION...: one line a region, "HEX  REGION",
 * as sha256sum prints them. crc32 is zlib's, which is U-Boot's crc32
 * command's too, so that a sum taken in the boot loader compares with one
 * taken here; sha256 is OpenSSL's. The bytes come through window.h a piece
 * at a time, read with --width loads on uncached mappings.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>
#include <zlib.h>

#include "commands.h"
#include "json.h"
#include "msg.h"
#include "progress.h"
#include "results.h"

#define MAX_HEX		64	/* sha256's 32 bytes */

enum sum_algo {
	SUM_CRC32,
	SUM_SHA256,
};

static const char *const algo_names[] = { "crc32", "sha256" };
static const unsigned int algo_hex[] = { 8, 64 };

/* sum's own options */
struct sum_options {
	enum sum_algo algo;		/* --algo */
	const char *expect;		/* --expect=HEX */
};

#define SUM_OPTS(o)	OPTION_VALUES(o, OPTS_SUM, struct sum_options)

enum { OPT_ALGO = 0x430, OPT_EXPECT };

static const struct argp_option sum_argp_options[] = {
	{ "algo", OPT_ALGO, "ALGO", 0, "sum: crc32 (default) or sha256", 6 },
	{ "expect", OPT_EXPECT, "HEX", 0,
	  "sum: exit 5 unless the sum of every region is HEX", 6 },
	{ NULL, 0, NULL, 0, NULL, 0 },
};

static error_t sum_parse(int key, char *arg, struct argp_state *state)
{
	struct sum_options *so;

	if (key != OPT_ALGO && key != OPT_EXPECT)
		return ARGP_ERR_UNKNOWN;
	so = option_given(state);
	if (key == OPT_EXPECT)
		so->expect = arg;
	else if (!strcmp(arg, "crc32"))
		so->algo = SUM_CRC32;
	else if (!strcmp(arg, "sha256"))
		so->algo = SUM_SHA256;
	else
		argp_failure(state, EXIT_USAGE, 0,
			     "--algo=%s: the algorithm is crc32 or sha256", arg);
	return 0;
}

static void sum_defaults(void *values)
{
	(void)values;	/* crc32, no --expect: all zero */
}

static const struct argp sum_argp = { .options = sum_argp_options,
				      .parser = sum_parse };

const struct option_set sum_option_set = {
	.id = OPTS_SUM,
	.argp = &sum_argp,
	.names = "--algo and --expect",
	.init = sum_defaults,
};

_Static_assert(sizeof(struct sum_options) <= OPTION_SET_SIZE,
	       "sum's options fit their slot");

struct sum {
	struct sink sink;
	enum sum_algo algo;
	uLong crc;
	EVP_MD_CTX *md;
	int failed;		/* the library said no */
};

static int put(struct sink *s, const void *buf, size_t len)
{
	struct sum *u = (struct sum *)s;

	if (u->algo == SUM_CRC32) {
		u->crc = crc32(u->crc, buf, (uInt)len);
		return 0;
	}
	if (EVP_DigestUpdate(u->md, buf, len) == 1)
		return 0;
	u->failed = 1;
	return EXIT_FAIL;
}

static int sum_begin(struct sum *u)
{
	u->crc = crc32(0, NULL, 0);
	if (u->algo == SUM_CRC32)
		return 0;
	if (EVP_DigestInit_ex(u->md, EVP_sha256(), NULL) == 1)
		return 0;
	pf_error("sum: OpenSSL cannot start a SHA-256 digest");
	return EXIT_FAIL;
}

/* The sum in lowercase hex */
static int sum_end(struct sum *u, char *hex)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0, i;

	if (u->algo == SUM_CRC32) {
		sprintf(hex, "%08lx", (unsigned long)u->crc);
		return 0;
	}
	if (u->failed || EVP_DigestFinal_ex(u->md, md, &len) != 1 ||
	    len * 2 != algo_hex[SUM_SHA256]) {
		pf_error("sum: OpenSSL failed to compute a SHA-256 digest");
		return EXIT_FAIL;
	}
	for (i = 0; i < len; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	return 0;
}

/* --expect=HEX: exactly the algorithm's number of hex digits, any case */
static int check_expect(const struct options *o)
{
	const char *e = SUM_OPTS(o)->expect;
	size_t n = algo_hex[SUM_OPTS(o)->algo], i;

	if (!e)
		return 0;
	for (i = 0; e[i] && isxdigit((unsigned char)e[i]); i++)
		;
	if (!e[i] && i == n)
		return 0;
	pf_error("sum: --expect=%s: a %s sum is %zu hex digits (0-9, a-f), without 0x",
		 e, algo_names[SUM_OPTS(o)->algo], n);
	return EXIT_USAGE;
}

static int sum_op(struct mapping *m, void *ctx)
{
	struct sum *u = ctx;

	return map_read(m, &u->sink);
}

static int sum_region(const struct options *o, const struct extent *x,
		      struct sum *u, char *hex)
{
	int r = sum_begin(u);

	if (!r)
		r = run_job(o, &(struct job){ .x = x, .progress = true,
			    .op = sum_op, .ctx = u });
	return r ? r : sum_end(u, hex);
}

/* --json: the region, the algorithm, the sum as the text prints it */
static int sum_json(const struct options *o, const struct extent *x,
		    const char *hex, bool match)
{
	struct json_object *j = jout_new();

	jout_str(j, "region", x->text);
	jout_where(j, "start", x, x->start);
	jout_hex(j, "size", x->size, 0);
	jout_str(j, "algo", algo_names[SUM_OPTS(o)->algo]);
	jout_str(j, "sum", hex);
	jout_str(j, "expected", SUM_OPTS(o)->expect);
	if (SUM_OPTS(o)->expect)
		jout_bool(j, "match", match);
	else
		jout_null(j, "match");
	return jout_print(j);
}

static int sum_all(const struct options *o, const struct extent *x, int n,
		   struct sum *u)
{
	char hex[MAX_HEX + 1];
	int i, r, mismatch = 0;
	bool match;

	for (i = 0; i < n; i++) {
		r = sum_region(o, &x[i], u, hex);
		if (r)
			return r;
		match = !SUM_OPTS(o)->expect || !strcasecmp(hex, SUM_OPTS(o)->expect);
		if (json_wanted(o))
			r = sum_json(o, &x[i], hex, match);
		else
			printf("%s  %s\n", hex, x[i].text);
		if (r)
			return r;
		if (!match) {
			pf_error("sum: '%s': %s %s, expected %s",
				 x[i].text, algo_names[SUM_OPTS(o)->algo], hex, SUM_OPTS(o)->expect);
			mismatch = EXIT_MISMATCH;
		}
	}
	return mismatch;
}

static int prepare(const struct options *o, char **argv, int n,
		   struct extent *x)
{
	int i, r = check_expect(o);

	for (i = 0; !r && i < n; i++) {
		r = region_arg(o, argv[i], REGION_NEED_SIZE, &x[i]);
		if (!r && (x[i].plan.cache == PFNMAP_CACHE_UC ||
			   x[i].plan.cache == PFNMAP_CACHE_WC))
			r = width_aligned(o, &x[i], "uncached loads");
	}
	return r;
}

static int cmd_sum(struct options *o, char **argv)
{
	struct extent *x;
	struct sum u = { .sink = { .put = put }, .algo = SUM_OPTS(o)->algo };
	int n, i, r;
	bool dry = false;

	for (n = 0; argv[n]; n++)
		;
	x = calloc((size_t)n, sizeof(*x));
	if (!x) {
		pf_error("sum: out of memory for %d regions", n);
		return EXIT_FAIL;
	}
	r = prepare(o, argv, n, x);
	for (i = 0; !r && i < n; i++)
		dry = announce(o, &x[i]) || dry;
	if (!r && !dry) {
		u.md = EVP_MD_CTX_new();
		if (u.md) {
			r = sum_all(o, x, n, &u);
		} else {
			pf_error("sum: out of memory for a digest");
			r = EXIT_FAIL;
		}
		EVP_MD_CTX_free(u.md);
	}
	free(x);
	return r;
}

const struct command sum_command = {
	.name = "sum",
	.args = "REGION...",
	.doc = "crc32 (zlib's, U-Boot's) or sha256 of each REGION: HEX  REGION lines "
	       "as sha256sum; --expect=HEX: exit 5 unless all are HEX",
	.min_args = 1,
	.max_args = INT_MAX,
	.flags = CMD_TAKES(OPTS_SUM) | CMD_TAKES(OPTS_JSON),
	.run = cmd_sum,
};

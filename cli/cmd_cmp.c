// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmp REGION REGION|FILE: element by element, --width at a time, a piece
 * of each side at a time (never the whole of either in memory). Every
 * difference is counted and the bits that differed are collected, so that
 * a memory test shows a stuck or shorted data line at a glance; the first
 * --max-diffs are listed. It never stops at the first difference.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access.h"
#include "commands.h"
#include "json.h"
#include "msg.h"
#include "out.h"
#include "progress.h"
#include "region.h"
#include "results.h"

/* cmp's own option */
struct cmp_options {
	uint64_t max_diffs;		/* --max-diffs */
};

enum { OPT_MAX_DIFFS = 0x420 };

static const struct argp_option cmp_argp_options[] = {
	{ "max-diffs", OPT_MAX_DIFFS, "N", 0,
	  "cmp: list at most N differences (default 10)", 6 },
	{ NULL, 0, NULL, 0, NULL, 0 },
};

static error_t cmp_parse(int key, char *arg, struct argp_state *state)
{
	struct cmp_options *co;
	char msg[REGION_ERR_MAX];

	if (key != OPT_MAX_DIFFS)
		return ARGP_ERR_UNKNOWN;
	co = option_given(state);
	if (parse_number(arg, "--max-diffs", &co->max_diffs, msg, sizeof(msg)))
		argp_failure(state, EXIT_USAGE, 0, "%s", msg);
	return 0;
}

static void cmp_defaults(void *values)
{
	struct cmp_options *co = values;

	co->max_diffs = 10;
}

static const struct argp cmp_argp = { .options = cmp_argp_options,
				      .parser = cmp_parse };

const struct option_set cmp_option_set = {
	.id = OPTS_CMP,
	.argp = &cmp_argp,
	.names = "--max-diffs",
	.init = cmp_defaults,
};

_Static_assert(sizeof(struct cmp_options) <= OPTION_SET_SIZE,
	       "cmp's options fit their slot");

struct cmp {
	const struct options *o;
	struct extent a, b;	/* b: a region, unless file is set */
	const char *file;
	int fd;
	uint64_t diffs;
	uint64_t bits;		/* every bit that differed somewhere */
	struct json_object *j, *list;	/* --json: the object, its "diffs" */
	struct mapping *ma;		/* a's, while b's is opened */
	unsigned char bufa[PIECE], bufb[PIECE];
};

/* A second region: a plain START (or a BAR without +SIZE) is as long as a */
static int second_region(struct cmp *c, const char *text)
{
	int r = second_region_arg(c->o, text, 0, &c->a, &c->b);

	return r ? r : width_aligned(c->o, &c->b, "elements");
}

/* A FILE: regular, so that its size is known before anything is read */
static int second_file(struct cmp *c, const char *path, const char *why)
{
	struct stat st;

	c->file = path;
	c->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (c->fd < 0) {
		pf_error("cmp: '%s' is neither a file (%s) nor a region (%s)",
			 path, strerror(errno), why);
		return EXIT_FAIL;
	}
	if (fstat(c->fd, &st) || !S_ISREG(st.st_mode)) {
		pf_error("cmp: %s is not a regular file; "
			 "its size must be known before anything is read", path);
		return EXIT_USAGE;
	}
	if ((uint64_t)st.st_size != c->a.size) {
		pf_error("cmp: '%s' is %llu bytes but %s is %llu bytes; the sizes must match",
			 c->a.text, (unsigned long long)c->a.size, path,
			 (unsigned long long)st.st_size);
		return EXIT_USAGE;
	}
	return 0;
}

static int prepare(struct cmp *c, char **argv)
{
	char msg[REGION_ERR_MAX];
	struct region reg;
	int r = region_arg(c->o, argv[0], REGION_NEED_SIZE, &c->a);

	if (!r)
		r = width_aligned(c->o, &c->a, "elements");
	if (r)
		return r;
	/* what parses as a region is one; ./NAME is a file of any name */
	if (!region_parse(argv[1], &reg, msg, sizeof(msg)))
		return second_region(c, argv[1]);
	return second_file(c, argv[1], msg);
}

static void report_diff(struct cmp *c, uint64_t off, uint64_t va,
			uint64_t vb)
{
	unsigned int w = c->o->width;
	struct json_object *d;

	c->bits |= va ^ vb;
	if (c->diffs++ >= OPTION_VALUES(c->o, OPTS_CMP, struct cmp_options)->max_diffs)
		return;
	if (!c->j) {
		progress_before_stdout();
		printf("0x%llx 0x%0*llx 0x%0*llx 0x%0*llx\n",
		       (unsigned long long)(c->a.start + off), HEX(w, va), HEX(w, vb),
		       HEX(w, va ^ vb));
		return;
	}
	d = jout_append(c->list);
	jout_where(d, "addr", &c->a, c->a.start + off);
	jout_hex(d, "expected", va, 2 * w);
	jout_hex(d, "actual", vb, 2 * w);
	jout_hex(d, "xor", va ^ vb, 2 * w);
}

static void compare_piece(struct cmp *c, uint64_t off, size_t n)
{
	unsigned int w = c->o->width;
	uint64_t va, vb;
	size_t i;

	if (!memcmp(c->bufa, c->bufb, n))
		return;
	for (i = 0; i < n; i += w) {
		va = get_native(c->bufa + i, w);
		vb = get_native(c->bufb + i, w);
		if (va != vb)
			report_diff(c, off + i, va, vb);
	}
}

static int read_file_piece(struct cmp *c, uint64_t off, size_t n)
{
	ssize_t got = read_full(c->fd, c->bufb, n);

	if (got == (ssize_t)n)
		return 0;
	if (got < 0)
		pf_error("cmp: reading %s: %s", c->file, strerror(errno));
	else
		pf_error("cmp: %s ended after %llu of %llu bytes; it shrank while being read",
			 c->file, (unsigned long long)(off + (uint64_t)got),
			 (unsigned long long)c->a.size);
	return EXIT_FAIL;
}

static int compare(struct cmp *c, struct mapping *ma, struct mapping *mb)
{
	uint64_t off;
	size_t n;
	int r = 0;

	progress_start(c->o, c->a.size, "cmp");
	for (off = 0; off < c->a.size; off += n) {
		n = c->a.size - off < PIECE ? (size_t)(c->a.size - off) : PIECE;
		r = map_read_at(ma, off, c->bufa, n);
		if (!r)
			r = mb ? map_read_at(mb, off, c->bufb, n)
			       : read_file_piece(c, off, n);
		if (r)
			break;
		compare_piece(c, off, n);
		progress_advance(n);
	}
	progress_end();
	return r;
}

/* --json: the arguments, the counts, the bits, then "diffs" */
static void json_begin(struct cmp *c)
{
	c->j = jout_new();
	jout_str(c->j, "first", c->a.text);
	jout_str(c->j, "second", c->file ? c->file : c->b.text);
	jout_bool(c->j, "file", c->file);
	jout_int(c->j, "width", 8 * c->o->width);
	c->list = jout_array(c->j, "diffs");
}

static int json_summary(struct cmp *c)
{
	struct json_object *bits;
	unsigned int i;
	int r;

	jout_int(c->j, "elements", (int64_t)(c->a.size / c->o->width));
	jout_int(c->j, "differ", (int64_t)c->diffs);
	bits = jout_array(c->j, "bits_differing");
	for (i = 0; i < 64; i++)
		if (c->bits >> i & 1)
			jout_array_int(bits, i);
	r = jout_print(c->j);
	c->j = NULL;
	return r ? r : c->diffs ? EXIT_MISMATCH : 0;
}

/* The count, and the bit positions that ever differed, low to high */
static int summary(struct cmp *c)
{
	unsigned int i;

	if (c->j)
		return json_summary(c);
	printf("%llu of %llu %u-bit elements differ",
	       (unsigned long long)c->diffs, (unsigned long long)(c->a.size / c->o->width),
	       8 * c->o->width);
	if (c->diffs) {
		printf("; bits differing:");
		for (i = 0; i < 64; i++)
			if (c->bits >> i & 1)
				printf(" %u", i);
	}
	printf("\n");
	return c->diffs ? EXIT_MISMATCH : 0;
}

static int cmp_b(struct mapping *mb, void *ctx)
{
	struct cmp *c = ctx;

	return compare(c, c->ma, mb);
}

static int cmp_a(struct mapping *ma, void *ctx)
{
	struct cmp *c = ctx;

	if (c->file)
		return compare(c, ma, NULL);
	c->ma = ma;
	return run_job(c->o, &(struct job){ .x = &c->b, .op = cmp_b, .ctx = c });
}

static int run(struct cmp *c)
{
	int r;

	if (json_wanted(c->o))
		json_begin(c);
	r = run_job(c->o, &(struct job){ .x = &c->a, .op = cmp_a, .ctx = c });
	if (!r)
		return summary(c);
	jout_free(c->j);
	return r;
}

static int cmd_cmp(struct options *o, char **argv)
{
	static struct cmp c;	/* two pieces: not on the stack */
	bool dry;
	int r;

	memset(&c, 0, sizeof(c));
	c.o = o;
	c.fd = -1;
	r = prepare(&c, argv);
	if (!r) {
		dry = announce(o, &c.a);
		if (!c.file)
			dry = announce(o, &c.b) || dry;
		if (!dry)
			r = run(&c);
	}
	if (c.fd >= 0)
		close(c.fd);
	return r;
}

const struct command cmp_command = {
	.name = "cmp",
	.args = "REGION REGION|FILE",
	.doc = "compare element by element: ADDR EXPECTED ACTUAL XOR of each "
	       "difference (--max-diffs), then their count and the bits that differed; "
	       "exit 5 when any",
	.min_args = 2,
	.max_args = 2,
	.flags = CMD_TAKES(OPTS_CMP) | CMD_TAKES(OPTS_JSON),
	.run = cmd_cmp,
};

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * memtest REGION: the engine of memtest.c over the whole region, mapped at
 * once (window.h's map_whole). On standard output: a head line with the
 * seed, a line a test as it ends (name, result, seconds), a line a failure
 * as it is found ("TEST: ADDR EXPECTED ACTUAL XOR", cmp's order), and at
 * the end the count and the failing data bits and address lines in words.
 * Exit 5 when any test failed.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>

#include "commands.h"
#include "memtest.h"
#include "msg.h"
#include "progress.h"
#include "region.h"

/* memtest's own options */
struct memtest_options {
	uint64_t tests;			/* --tests: a set of memtest_tests[] */
	uint64_t loops;			/* --loops */
	uint64_t seed;			/* --seed */
	bool seed_set;
	uint64_t max_errors;		/* --max-errors; 0: no limit */
};

#define MT_OPTS(o)	OPTION_VALUES(o, OPTS_MEMTEST, struct memtest_options)

enum { OPT_TESTS = 0x460, OPT_LOOPS, OPT_SEED, OPT_MAX_ERRORS };

static const struct argp_option memtest_argp_options[] = {
	{ "tests", OPT_TESTS, "LIST", 0,
	  "memtest: the tests to run, by name, comma-separated; all, default "
	  "(all but bit-flip and block-seq)", 6 },
	{ "loops", OPT_LOOPS, "N", 0, "memtest: run the tests N times (default 1)", 6 },
	{ "seed", OPT_SEED, "N", 0,
	  "memtest: seed of the random values (default: a new one, printed); the same "
	  "seed repeats a run exactly", 6 },
	{ "max-errors", OPT_MAX_ERRORS, "N", 0,
	  "memtest: stop after N failures (default 100; 0: never)", 6 },
	{ NULL, 0, NULL, 0, NULL, 0 },
};

/* --loops (1 to 2^32 - 1), --seed, --max-errors */
static void parse_count(int key, const char *arg, struct memtest_options *mo,
			struct argp_state *state)
{
	const char *name = key == OPT_LOOPS ? "--loops" :
			   key == OPT_SEED ? "--seed" : "--max-errors";
	uint64_t *val = key == OPT_LOOPS ? &mo->loops :
			key == OPT_SEED ? &mo->seed : &mo->max_errors;
	char msg[REGION_ERR_MAX];

	if (parse_number(arg, name, val, msg, sizeof(msg)))
		argp_failure(state, EXIT_USAGE, 0, "%s", msg);
	else if (key == OPT_LOOPS && (!*val || *val > UINT_MAX))
		argp_failure(state, EXIT_USAGE, 0,
			     "--loops=%s: a count from 1 to %u", arg, UINT_MAX);
	mo->seed_set |= key == OPT_SEED;
}

static error_t memtest_parse(int key, char *arg, struct argp_state *state)
{
	struct memtest_options *mo;
	char msg[1024];		/* the message lists every test's name */

	if (key < OPT_TESTS || key > OPT_MAX_ERRORS)
		return ARGP_ERR_UNKNOWN;
	mo = option_given(state);
	if (key != OPT_TESTS)
		parse_count(key, arg, mo, state);
	else if (memtest_parse_list(arg, &mo->tests, msg, sizeof(msg)))
		argp_failure(state, EXIT_USAGE, 0, "--tests: %s", msg);
	return 0;
}

static void memtest_defaults(void *values)
{
	struct memtest_options *mo = values;

	mo->tests = memtest_default_set();
	mo->loops = 1;
	mo->max_errors = 100;
}

static const struct argp memtest_argp = { .options = memtest_argp_options,
					  .parser = memtest_parse };

const struct option_set memtest_option_set = {
	.id = OPTS_MEMTEST,
	.argp = &memtest_argp,
	.names = "--tests, --loops, --seed and --max-errors",
	.init = memtest_defaults,
};

_Static_assert(sizeof(struct memtest_options) <= OPTION_SET_SIZE,
	       "memtest's options fit their slot");

struct mt_cli {
	const struct options *o;
	const struct extent *x;
	struct memtest_params p;
	struct memtest_summary s;
	bool progress;			/* progress_start done */
	int ret;			/* what the engine returned */
	uint64_t progress_done;
};

static void on_failure(void *ctx, const char *test, uint64_t phys,
		       uint64_t expected, uint64_t actual)
{
	struct mt_cli *c = ctx;
	unsigned int w = c->p.width;

	progress_before_stdout();
	printf("%s: 0x%llx 0x%0*llx 0x%0*llx 0x%0*llx\n",
	       test, (unsigned long long)phys, HEX(w, expected), HEX(w, actual),
	       HEX(w, expected ^ actual));
}

static void on_end(void *ctx, const char *test, enum memtest_result res,
		   double seconds)
{
	static const char *const words[] = { "pass", "FAIL", "skipped", "stopped" };

	(void)ctx;
	progress_before_stdout();
	printf("%-18s %-7s %9.3f s\n", test, words[res], seconds);
	fflush(stdout);
}

static int on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct mt_cli *c = ctx;

	if (!c->progress) {
		progress_start(c->o, total, "memtest");
		c->progress = true;
	}
	if (done > c->progress_done)
		progress_advance(done - c->progress_done);
	c->progress_done = done;
	return 0;
}

static int run_engine(void *ctx, volatile void *base)
{
	struct mt_cli *c = ctx;
	const struct memtest_callbacks cb = {
		.failure = on_failure, .test_end = on_end,
		.progress = on_progress, .ctx = c,
	};

	c->p.base = base;
	return memtest_run(&c->p, &cb, &c->s);
}

/* The count, and the failing bits and lines in words, after the tests */
static int report(struct mt_cli *c)
{
	char words[2048];

	if (!c->s.failures) {
		printf("memtest: no failure in %u test%s of %s\n",
		       c->s.tests_run, c->s.tests_run == 1 ? "" : "s", c->x->text);
		return 0;
	}
	printf("memtest: %llu failure%s in %u of %u tests%s\n",
	       (unsigned long long)c->s.failures, c->s.failures == 1 ? "" : "s", c->s.tests_failed,
	       c->s.tests_run, c->s.stopped ? ", stopped at --max-errors" : "");
	memtest_summary_text(&c->s, words, sizeof(words));
	fputs(words, stdout);
	pf_error("memtest: '%s': %llu failure%s (listed on standard output)",
		 c->x->text, (unsigned long long)c->s.failures, c->s.failures == 1 ? "" : "s");
	return EXIT_MISMATCH;
}

/* --seed, or a new one: the random tests' values, printed to repeat them */
static uint64_t pick_seed(const struct options *o)
{
	uint64_t seed;

	if (MT_OPTS(o)->seed_set)
		return MT_OPTS(o)->seed;
	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == sizeof(seed))
		return seed;
	return (uint64_t)time(NULL) ^ (uint64_t)clock();
}

/*
 * The tests split the region in halves of whole elements (memtester's
 * compare tests), so its size is a multiple of twice the width
 */
static int check_region(struct mt_cli *c)
{
	unsigned int w = c->o->width;

	if (c->x->start % w || c->x->size % (2 * w)) {
		pf_error("memtest: '%s': with --width=%u the start must be a multiple of %u and "
			 "the size of %u (two halves of whole elements)",
			 c->x->text, 8 * w, w, 2 * w);
		return EXIT_USAGE;
	}
	c->p.phys = c->x->start;
	c->p.size = (size_t)c->x->size;
	if ((uint64_t)c->p.size != c->x->size) {
		pf_error("memtest: '%s' is larger than a 32-bit program can map at once; "
			 "test it in parts", c->x->text);
		return EXIT_USAGE;
	}
	return 0;
}

/* The engine over the whole region, mapped at once; its status in ret */
static int engine_op(struct mapping *m, void *ctx)
{
	struct mt_cli *c = ctx;

	return map_whole(m, run_engine, c, &c->ret);
}

static int cmd_memtest(struct options *o, char **argv)
{
	struct mt_cli c = { .o = o };
	struct extent x;
	int r;

	r = region_arg(o, argv[0], REGION_NEED_SIZE | REGION_WRITES | REGION_NO_CONFIG, &x);
	c.x = &x;
	c.p = (struct memtest_params){ .width = o->width, .tests = MT_OPTS(o)->tests,
		.loops = (unsigned int)MT_OPTS(o)->loops, .seed = pick_seed(o),
		.max_errors = MT_OPTS(o)->max_errors };
	if (!r)
		r = check_region(&c);
	if (r || announce(o, &x))
		return r;
	printf("memtest %s: %u-bit accesses, seed %llu, %u loop%s\n", x.text, 8 * o->width,
	       (unsigned long long)c.p.seed, c.p.loops, c.p.loops == 1 ? "" : "s");
	r = run_job(o, &(struct job){ .x = &x, .write = true, .op = engine_op,
		    .ctx = &c });
	if (r)
		return r;
	return report(&c);
}

const struct command memtest_command = {
	.name = "memtest",
	.args = "REGION",
	.doc = "test the memory of REGION: U-Boot's bus tests, memtester's tests, "
	       "moving inversions (--tests); a line a test, each failure as ADDR "
	       "EXPECTED ACTUAL XOR, the failing data bits and address lines in words; "
	       "exit 5 when any",
	.min_args = 1,
	.max_args = 1,
	.flags = CMD_TAKES(OPTS_MEMTEST),
	.run = cmd_memtest,
};

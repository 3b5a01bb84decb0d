// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * memtest REGION: the engine of memtest.c over the whole region, mapped at
 * once (window.h's map_whole). On standard output: a head line with the
 * seed, a line a test as it ends (name, result, seconds), a line a failure
 * as it is found ("TEST: ADDR EXPECTED ACTUAL XOR", cmp's order), and at
 * the end the count and the failing data bits and address lines in words.
 * Exit 5 when any test failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>

#include "commands.h"
#include "memtest.h"
#include "msg.h"
#include "progress.h"

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

	if (o->seed_set)
		return o->seed;
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
	c.p = (struct memtest_params){ .width = o->width, .tests = o->mt_tests,
		.loops = (unsigned int)o->loops, .seed = pick_seed(o),
		.max_errors = o->max_errors };
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
	.flags = CMD_MEMTEST,
	.run = cmd_memtest,
};

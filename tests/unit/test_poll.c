// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * poll's loop (lib/poll.c) against a fake register and a fake clock:
 * every read is logged with the time it began, so the semantics of
 * read_poll_timeout() are checked exactly: the deadline looked at before
 * each read, the giving-up read begun at or after it, a match on that last
 * read counted, sleeps never past the deadline, no clock without one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pfnmap.h"
#include "poll.h"
#include "region.h"

#define MS	1000000ULL
#define MAX_READS 64

struct fake {
	uint64_t clock;			/* ns */
	uint64_t read_cost;		/* the clock moves this much per read */
	const uint64_t *values;		/* read n gives values[min(n, nvalues - 1)] */
	unsigned int nvalues;
	int fail_at;			/* read number that returns EXIT_FAULT; -1 */
	int stop_at;			/* read number after which stop is set; -1 */
	volatile sig_atomic_t stop;
	unsigned int reads;
	uint64_t read_at[MAX_READS];	/* when each read began */
	unsigned int nows;		/* calls of now */
	unsigned int sleeps;
	uint64_t slept_to[MAX_READS];
};

static int fake_read(void *ctx, uint64_t *value)
{
	struct fake *f = ctx;
	unsigned int n = f->reads++;

	assert_true(n < MAX_READS);
	f->read_at[n] = f->clock;
	f->clock += f->read_cost;
	if ((int)n == f->fail_at)
		return EXIT_FAULT;
	*value = f->values[n < f->nvalues ? n : f->nvalues - 1];
	if ((int)n == f->stop_at)
		f->stop = 2;
	return 0;
}

static uint64_t fake_now(void *ctx)
{
	struct fake *f = ctx;

	f->nows++;
	return f->clock;
}

static void fake_sleep(void *ctx, uint64_t t)
{
	struct fake *f = ctx;

	assert_true(f->sleeps < MAX_READS);
	f->slept_to[f->sleeps++] = t;
	if (t > f->clock)
		f->clock = t;
}

static void setup(struct poll_loop *p, struct fake *f, const uint64_t *values,
		  unsigned int n)
{
	memset(f, 0, sizeof(*f));
	f->clock = 1000 * MS;		/* not 0: the deadline is relative */
	f->read_cost = 10 * MS;
	f->values = values;
	f->nvalues = n;
	f->fail_at = -1;
	f->stop_at = -1;
	memset(p, 0, sizeof(*p));
	p->mask = 0x1;
	p->want = 0x0;
	p->timeout_ns = 50 * MS;
	p->read = fake_read;
	p->now = fake_now;
	p->sleep_until = fake_sleep;
	p->stop = &f->stop;
	p->ctx = f;
}

static void test_immediate(void **state)
{
	static const uint64_t v[] = { 0xfe };
	struct poll_loop p;
	struct fake f;

	(void)state;
	setup(&p, &f, v, 1);
	assert_int_equal(poll_run(&p), 0);
	assert_int_equal(p.end, POLL_MATCHED);
	assert_true(p.reads == 1 && p.value == 0xfe);
	assert_true(p.elapsed_ns == 10 * MS);
}

static void test_third_read(void **state)
{
	static const uint64_t v[] = { 0x3, 0x1, 0x2 };
	struct poll_loop p;
	struct fake f;

	(void)state;
	setup(&p, &f, v, 3);
	assert_int_equal(poll_run(&p), 0);
	assert_int_equal(p.end, POLL_MATCHED);
	assert_true(p.reads == 3 && p.value == 0x2);
	assert_int_equal(f.sleeps, 0);		/* interval 0: a tight loop */
}

/*
 * Reads at 0, 10, ..., 40 ms find the deadline (50 ms) ahead; the read at
 * 50 ms begins at it: the last one, and it gives up
 */
static void test_timeout(void **state)
{
	static const uint64_t v[] = { 0x1 };
	struct poll_loop p;
	struct fake f;
	unsigned int i;

	(void)state;
	setup(&p, &f, v, 1);
	assert_int_equal(poll_run(&p), 0);
	assert_int_equal(p.end, POLL_TIMED_OUT);
	assert_true(p.reads == 6 && p.value == 0x1);
	for (i = 0; i < 6; i++)
		assert_true(f.read_at[i] == 1000 * MS + i * 10 * MS);
	assert_true(p.elapsed_ns == 60 * MS);
}

/* The value that arrives on the read after the deadline still counts */
static void test_match_on_last_read(void **state)
{
	static const uint64_t v[] = { 1, 1, 1, 1, 1, 0 };
	struct poll_loop p;
	struct fake f;

	(void)state;
	setup(&p, &f, v, 6);
	assert_int_equal(poll_run(&p), 0);
	assert_int_equal(p.end, POLL_MATCHED);
	assert_true(p.reads == 6 && p.value == 0);
}

/* A read slower than the timeout: one read before, one after the deadline */
static void test_slow_read(void **state)
{
	static const uint64_t v[] = { 1 };
	struct poll_loop p;
	struct fake f;

	(void)state;
	setup(&p, &f, v, 1);
	f.read_cost = 200 * MS;
	assert_int_equal(poll_run(&p), 0);
	assert_int_equal(p.end, POLL_TIMED_OUT);
	assert_true(p.reads == 2);
	assert_true(f.read_at[1] >= 1000 * MS + 50 * MS);
}

/* --timeout=0s: the first read is already the last */
static void test_zero_timeout(void **state)
{
	static const uint64_t v[] = { 1, 0 };
	struct poll_loop p;
	struct fake f;

	(void)state;
	setup(&p, &f, v, 2);
	p.timeout_ns = 0;
	assert_int_equal(poll_run(&p), 0);
	assert_int_equal(p.end, POLL_TIMED_OUT);
	assert_true(p.reads == 1 && p.value == 1);
}

static void test_not(void **state)
{
	static const uint64_t v[] = { 0x10, 0x12, 0x11 };
	struct poll_loop p;
	struct fake f;

	(void)state;
	setup(&p, &f, v, 3);
	p.not = true;
	p.mask = 0x3;
	p.want = 0x0;
	assert_int_equal(poll_run(&p), 0);
	assert_int_equal(p.end, POLL_MATCHED);
	assert_true(p.reads == 2 && p.value == 0x12);
	/* and it times out while the bits stay equal */
	setup(&p, &f, v, 1);
	p.not = true;
	p.mask = 0x3;
	assert_int_equal(poll_run(&p), 0);
	assert_int_equal(p.end, POLL_TIMED_OUT);
	assert_true(p.value == 0x10);
}

/* An interval that would end past the deadline (50 ms after 1000 ms) */
static void interval_cut(uint64_t interval)
{
	static const uint64_t v[] = { 1 };
	struct poll_loop p;
	struct fake f;

	setup(&p, &f, v, 1);
	p.interval_ns = interval;
	print_message("interval %llu ns\n", (unsigned long long)interval);
	assert_int_equal(poll_run(&p), 0);
	assert_int_equal(p.end, POLL_TIMED_OUT);
	assert_int_equal(f.sleeps, 1);
	assert_true(f.slept_to[0] == 1050 * MS);
	assert_true(p.reads == 2 && f.read_at[1] == 1050 * MS);
	assert_true(p.elapsed_ns == 60 * MS);
}

/*
 * interval 15 ms, reads of 10: reads at 0, 25, 50 ms (each sleep to the
 * read's end + 15), the read at 50 gives up. An interval of 100 ms, which
 * would end at 110, is cut at the deadline: reads at 0 and 50. So is a
 * sleep that would end just past it, at 51 (interval 41).
 */
static void test_interval(void **state)
{
	static const uint64_t v[] = { 1 };
	struct poll_loop p;
	struct fake f;

	(void)state;
	setup(&p, &f, v, 1);
	p.interval_ns = 15 * MS;
	assert_int_equal(poll_run(&p), 0);
	assert_int_equal(p.end, POLL_TIMED_OUT);
	assert_true(p.reads == 3);
	assert_true(f.read_at[1] == 1025 * MS && f.read_at[2] == 1050 * MS);
	assert_int_equal(f.sleeps, 2);
	assert_true(f.slept_to[0] == 1025 * MS && f.slept_to[1] == 1050 * MS);

	interval_cut(100 * MS);
	interval_cut(41 * MS);
}

/* forever: the clock is read at the start and the end, never in the loop */
static void test_forever(void **state)
{
	static const uint64_t v[] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 };
	struct poll_loop p;
	struct fake f;

	(void)state;
	setup(&p, &f, v, 11);
	p.timeout_ns = DURATION_FOREVER;
	assert_int_equal(poll_run(&p), 0);
	assert_int_equal(p.end, POLL_MATCHED);
	assert_true(p.reads == 11);
	assert_int_equal(f.nows, 2);
	/* with a deadline: one clock read per loop, plus start and end */
	setup(&p, &f, v + 8, 3);
	p.timeout_ns = 1000 * MS;
	assert_int_equal(poll_run(&p), 0);
	assert_int_equal(f.nows, 2 + 3);
}

static void test_stop(void **state)
{
	static const uint64_t v[] = { 1 };
	struct poll_loop p;
	struct fake f;

	(void)state;
	setup(&p, &f, v, 1);
	p.timeout_ns = DURATION_FOREVER;
	f.stop_at = 2;
	assert_int_equal(poll_run(&p), 0);
	assert_int_equal(p.end, POLL_STOPPED);
	assert_true(p.reads == 3 && p.value == 1);
	/* a match on the read that saw the signal comes first */
	setup(&p, &f, (const uint64_t[]){ 0 }, 1);
	f.stop_at = 0;
	assert_int_equal(poll_run(&p), 0);
	assert_int_equal(p.end, POLL_MATCHED);
	/* a signal before the loop: still one read, so a last value */
	setup(&p, &f, v, 1);
	p.timeout_ns = DURATION_FOREVER;
	f.stop = 15;
	assert_int_equal(poll_run(&p), 0);
	assert_int_equal(p.end, POLL_STOPPED);
	assert_true(p.reads == 1 && p.value == 1);
}

static void test_read_fails(void **state)
{
	static const uint64_t v[] = { 1 };
	struct poll_loop p;
	struct fake f;

	(void)state;
	setup(&p, &f, v, 1);
	f.fail_at = 1;
	assert_int_equal(poll_run(&p), EXIT_FAULT);
	assert_int_equal(p.end, POLL_FAILED);
	assert_true(p.reads == 1 && f.reads == 2);
}

static void test_deadline(void **state)
{
	(void)state;
	assert_true(poll_deadline(5, 10) == 15);
	assert_true(poll_deadline(5, DURATION_FOREVER) == UINT64_MAX);
	assert_true(poll_deadline(UINT64_MAX - 5, 10) == UINT64_MAX);
	assert_true(poll_deadline(UINT64_MAX - 10, 9) == UINT64_MAX - 1);
}

static void duration_is(uint64_t ns, const char *want)
{
	char buf[32], err[REGION_ERR_MAX];
	uint64_t back;

	format_duration(buf, sizeof(buf), ns);
	print_message("format_duration(%llu)\n", (unsigned long long)ns);
	assert_string_equal(buf, want);
	/* and parse_duration reads it back */
	assert_int_equal(parse_duration(buf, true, &back, err, sizeof(err)), 0);
	assert_true(back == ns);
}

static void test_format_duration(void **state)
{
	(void)state;
	duration_is(0, "0s");
	duration_is(1, "1ns");
	duration_is(1000, "1us");
	duration_is(1001, "1001ns");
	duration_is(50 * MS, "50ms");
	duration_is(1500 * MS, "1500ms");
	duration_is(1000 * MS, "1s");
	duration_is(3600 * 1000 * MS, "3600s");
	duration_is(1000000000000000001ULL, "1000000000000000001ns");
	duration_is(DURATION_FOREVER, "forever");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_immediate),
		cmocka_unit_test(test_third_read),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_match_on_last_read),
		cmocka_unit_test(test_slow_read),
		cmocka_unit_test(test_zero_timeout),
		cmocka_unit_test(test_not),
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_forever),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_read_fails),
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_format_duration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

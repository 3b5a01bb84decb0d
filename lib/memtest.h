/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The memory test engine behind `pfnmap memtest`: U-Boot's data-bus and
 * address-bus tests (cmd/mem.c, mem_test_alt), memtester's tests and a
 * moving-inversions (March C-) test, over one mapped region. Every access
 * is one volatile load or store of exactly the width (the 8- and 16-bit
 * write tests add their narrower stores), inside [base, base + size) and
 * nowhere else. The engine never prints: failures, test boundaries and
 * progress go to callbacks, and a summary names the failing data bits and
 * address lines.
 */
#ifndef PFNMAP_MEMTEST_H
#define PFNMAP_MEMTEST_H

#include <stddef.h>
#include <stdint.h>

enum memtest_result {
	MEMTEST_PASS,
	MEMTEST_FAIL,
	MEMTEST_SKIP,		/* not applicable at this width */
	MEMTEST_STOPPED,	/* max errors reached or progress said stop */
};

struct memtest_run;

struct memtest_test {
	const char *name;	/* as --tests=LIST names it */
	int slow;		/* left out of the default set */
	/* MEMTEST_SKIP or MEMTEST_PASS (the engine sees the failures) */
	enum memtest_result (*fn)(struct memtest_run *r);
	/* bytes it accesses, for the progress total (0: too few to count) */
	uint64_t (*cost)(const struct memtest_run *r);
	unsigned int arg;	/* for fn: operation, pattern or width */
};

extern const struct memtest_test memtest_tests[];
extern const unsigned int memtest_ntests;

/* The index of the test called name, or -1 */
int memtest_find(const char *name);
/* A set of tests: bit i for memtest_tests[i]. All but the slow ones. */
uint64_t memtest_default_set(void);
/*
 * "name,name,..." (also "all" and "default") into *set. -1 and a message
 * in err (naming the bad word and listing the valid names) on an unknown
 * name or an empty list.
 */
int memtest_parse_list(const char *list, uint64_t *set, char *err,
		       size_t errlen);

struct memtest_callbacks {
	/* One mismatch: the test, where, what was written, what was read */
	void (*failure)(void *ctx, const char *test, uint64_t phys,
			uint64_t expected, uint64_t actual);
	void (*test_start)(void *ctx, const char *test);
	void (*test_end)(void *ctx, const char *test,
			 enum memtest_result res, double seconds);
	/* bytes accessed so far of total; non-zero return: stop the run */
	int (*progress)(void *ctx, uint64_t done, uint64_t total);
	void *ctx;
};

struct memtest_params {
	volatile void *base;	/* the mapped region, width-aligned */
	uint64_t phys;		/* its physical address, for reports */
	size_t size;		/* bytes: a multiple of 2 * width */
	unsigned int width;	/* 1, 2, 4 or 8 */
	uint64_t tests;		/* set of memtest_tests[] to run */
	unsigned int loops;	/* 0 is 1 */
	uint64_t seed;		/* same seed, same random values */
	uint64_t max_errors;	/* stop at this many failures; 0: never */
};

#define MEMTEST_MAX_LINES 64

struct memtest_summary {
	unsigned int width;
	uint64_t failures;	/* mismatches seen */
	unsigned int tests_run, tests_failed;
	int stopped;
	/* data bits: read 0 where 1 was written, read 1 where 0 was */
	uint64_t bits_low, bits_high;
	/*
	 * Address lines (bit n: An, of the byte offset in the region) that
	 * the address-bus test found stuck, or shorted to another line
	 * (short_to[n], the lowest such). A stuck-high and a stuck-low line
	 * both make the cells at x and x ^ 2^n one cell: no test in the
	 * region can tell which, so they are one finding.
	 */
	uint64_t addr_stuck, addr_shorted;
	unsigned char short_to[MEMTEST_MAX_LINES];
};

/* NULL, or why p cannot be run (a sentence without a period) */
const char *memtest_check(const struct memtest_params *p);
/*
 * Runs p->tests over the region, p->loops times, filling *s. 0: every test
 * passed (or was skipped); 1: failures; -1: p is not valid (memtest_check)
 */
int memtest_run(const struct memtest_params *p,
		const struct memtest_callbacks *cb, struct memtest_summary *s);
/*
 * The summary in words, a line each ("data bit 5 stuck at 0 or failing",
 * "address line A12 shorted to A13"); snprintf's return
 */
int memtest_summary_text(const struct memtest_summary *s, char *buf,
			 size_t len);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line parsed: the options every command and batch line carry.
 */
#ifndef PFNMAP_H
#define PFNMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uapi/pfnmap.h"
#include "status.h"

/* --progress, --no-progress: the last one given counts */
enum progress_mode {
	PROGRESS_AUTO,		/* on a terminal, unless -q */
	PROGRESS_ON,
	PROGRESS_OFF,
};

enum sum_algo {
	SUM_CRC32,
	SUM_SHA256,
};

/* Which command-specific options the command line gave */
#define OPT_GIVEN_POLL		0x1	/* --timeout, --interval, --not */
#define OPT_GIVEN_DIFFS		0x2	/* --max-diffs */
#define OPT_GIVEN_SUM		0x4	/* --algo, --expect */
#define OPT_GIVEN_JSON		0x8	/* --json */
#define OPT_GIVEN_BATCH		0x10	/* --keep-going */
#define OPT_GIVEN_MEMTEST	0x20	/* --tests, --loops, --seed, --max-errors */

struct command;

struct options {
	const struct command *cmd;	/* the command these are given to */
	unsigned int width;		/* access width in bytes: 1, 2, 4, 8 */
	bool width_set;
	enum pfnmap_cache cache;
	const char *output;
	const char *device;
	const char *module;
	bool no_load;
	bool dry_run;
	bool checking;			/* batch's check: dry_run, no lines */
	bool force;
	int verbose;
	bool quiet;
	enum progress_mode progress;
	bool machine;			/* bars: the machine-readable form */
	bool sysfs;			/* BARs through sysfs resourceN files */
	/* poll */
	uint64_t timeout_ns;		/* --timeout; DURATION_FOREVER */
	uint64_t interval_ns;		/* --interval; 0: a tight loop */
	bool poll_not;			/* --not: until the value differs */
	/* cmp */
	uint64_t max_diffs;		/* --max-diffs */
	/* sum */
	enum sum_algo algo;		/* --algo */
	const char *expect_sum;		/* --expect=HEX, checked by sum */
	bool json;			/* --json: one JSON object a result */
	bool keep_going;		/* batch --keep-going */
	/* memtest */
	uint64_t mt_tests;		/* --tests: a set of memtest_tests[] */
	uint64_t loops;			/* --loops */
	uint64_t seed;			/* --seed */
	bool seed_set;
	uint64_t max_errors;		/* --max-errors; 0: no limit */
	unsigned int given;		/* OPT_GIVEN_* of the options above */
	const char *pci_method;		/* -A */
	char *pci_params[16];		/* -O NAME=VALUE */
	unsigned int n_pci_params;
};

#endif

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

/*
 * The options that belong to some commands, not to all, in sets: an argp
 * child each, defined in the file of the command (or the part) that owns
 * it, with its values in a slot of struct options (commands.h)
 */
enum option_set_id {
	OPTS_POLL,		/* cmd_poll.c: --timeout, --interval, --not */
	OPTS_CMP,		/* cmd_cmp.c: --max-diffs */
	OPTS_SUM,		/* cmd_sum.c: --algo, --expect */
	OPTS_JSON,		/* json.c: --json */
	OPTS_BATCH,		/* batch.c: --keep-going */
	OPTS_MEMTEST,		/* cmd_memtest.c: --tests, --loops, --seed, ... */
	OPTION_SETS
};

#define OPTION_SET_SIZE	48

struct option_slot {
	bool given;			/* one of the set's options was given */
	union {
		uint64_t align;
		unsigned char bytes[OPTION_SET_SIZE];
	} values;
};

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
	const char *pci_method;		/* -A */
	char *pci_params[16];		/* -O NAME=VALUE */
	unsigned int n_pci_params;
	struct option_slot sets[OPTION_SETS];
};

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The commands, their properties, and what they share before mapping */
#ifndef PFNMAP_COMMANDS_H
#define PFNMAP_COMMANDS_H

#include <argp.h>

#include "open.h"
#include "pfnmap.h"
#include "session.h"
#include "target.h"

/* printf's "%0*llx" arguments for a value of w bytes: 2 * w hex digits */
#define HEX(w, v)	(2 * (int)(w)), (unsigned long long)(v)

/* What a command is, for main.c's checks and --help */
#define CMD_OUTPUT	0x1	/* writes to -o FILE */
/* takes the option set id (pfnmap.h) */
#define CMD_OPT_SHIFT	8
#define CMD_TAKES(id)	(1U << (CMD_OPT_SHIFT + (id)))
#define CMD_TAKES_ALL	(((1U << OPTION_SETS) - 1) << CMD_OPT_SHIFT)

/*
 * A set of options that some commands take: its argp (options of group
 * 6, merged into --help's "Checks and scripts"), whose parser's input is
 * the set's slot in struct options (option_given()); the defaults
 */
struct option_set {
	enum option_set_id id;
	const struct argp *argp;
	const char *names;	/* "--timeout, --interval and --not" */
	void (*init)(void *values);
};

/* The values of set id in o, of the set's own struct */
#define OPTION_VALUES(o, id, type) \
	((const type *)(const void *)(o)->sets[id].values.bytes)

/* In a set's argp parser, for one of its options: the set, given */
static inline void *option_given(struct argp_state *state)
{
	struct option_slot *slot = state->input;

	slot->given = true;
	return slot->values.bytes;
}

/* A set of one flag (--json, --keep-going): its parser, off by default */
static inline error_t option_flag(int key, int flag, struct argp_state *state)
{
	if (key != flag)
		return ARGP_ERR_UNKNOWN;
	*(bool *)option_given(state) = true;
	return 0;
}

static inline void option_flag_off(void *values)
{
	*(bool *)values = false;
}

/* The option sets, each the part's that owns it */
extern const struct option_set poll_option_set, cmp_option_set,
	sum_option_set, json_option_set, batch_option_set, memtest_option_set;

struct command {
	const char *name;
	const char *args;	/* usage */
	const char *doc;	/* one line for --help */
	int min_args;
	int max_args;
	unsigned int flags;	/* CMD_* */
	int (*run)(struct options *o, char **argv);
};

/* A command line parsed: its options, its command and that one's arguments */
struct parsed {
	struct options o;
	const struct command *cmd;
	char **args;
	int nargs;
};

/*
 * main.c's argp parser over argv, starting from the options in p; flags
 * as argp_parse's (batch: ARGP_NO_EXIT). 0 or argp's error.
 */
int parse_command_line(int argc, char **argv, unsigned int flags,
		       struct parsed *p);

/* The commands, each defined in its own file (cmd_*.c) */
extern const struct command dump_command,
	hexdump_command,
	fill_command,
	load_command,
	read_command,
	write_command,
	set_command,
	clear_command,
	expect_command,
	info_command,
	bars_command,
	cmp_command,
	sum_command,
	copy_command,
	poll_command,
	memtest_command,
	batch_command;

#define REGION_NEED_SIZE	1	/* a plain START is an error */
#define REGION_WRITES		2	/* the command writes into it */
#define REGION_NO_CONFIG	4	/* configuration space is refused */

/* REGION argument of cmd: physical or a PCI location, resolved */
int region_arg(const struct options *o, const char *text, unsigned int flags,
	       struct extent *x);

/* An ADDR argument: a plain START or a BAR offset, aligned to the width */
int addr_arg(const struct options *o, const char *text, unsigned int flags,
	     struct extent *x);

/*
 * The second REGION of cmp and copy, as long as first: a region of exactly
 * that size, or a start (a BAR or config offset without +SIZE) with room
 * for it before the end of the BAR or configuration space
 */
int second_region_arg(const struct options *o, const char *text,
		      unsigned int flags, const struct extent *first,
		      struct extent *x);

/* A VALUE argument of --width */
int value_arg(const char *cmd, const char *text, unsigned int width,
	      uint64_t *v);

/* VALUE or VALUE:MASK of --width; no MASK: all ones of the width */
int masked_arg(const char *cmd, const char *text, unsigned int width,
	       uint64_t *v, uint64_t *mask);

/* One read, then one write of (old & ~mask) | (value & mask), at x */
int rmw_value(const struct options *o, const struct extent *x, uint64_t value,
	      uint64_t mask);

/* -v and -n: say what will be done; returns 1 when it was a dry run */
int announce(const struct options *o, const struct extent *x);

/*
 * The core's session for a command run with options o: one for the run,
 * its settings o's
 */
struct pf_session *session_for(const struct options *o);

/* A BAR's vendor and device names (pci.ids), until the next call */
const char *device_names(const struct pci_bar *b);

/* check_width_aligned() for o's --width */
int width_aligned(const struct options *o, const struct extent *x,
		  const char *why);

/*
 * What a data command does with its extent: open a mapping of it, run op
 * over it, close it. progress: a progress line over the extent's size.
 */
struct job {
	const struct extent *x;
	bool write;			/* the command stores into x */
	bool progress;
	int (*op)(struct mapping *m, void *ctx);
	void *ctx;
};

/* Opens j's extent, runs j's op over it, closes it; op's status */
int run_job(const struct options *o, const struct job *j);

#endif

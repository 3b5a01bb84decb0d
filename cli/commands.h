/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The commands, and what they share before anything is mapped */
#ifndef PFNMAP_COMMANDS_H
#define PFNMAP_COMMANDS_H

#include "pfnmap.h"
#include "target.h"

struct command {
	const char *name;
	const char *args;
	int min_args;
	int max_args;
	int (*run)(struct options *o, char **argv);
};

extern const struct command commands[];

int cmd_dump(struct options *o, char **argv);
int cmd_hexdump(struct options *o, char **argv);
int cmd_fill(struct options *o, char **argv);
int cmd_load(struct options *o, char **argv);
int cmd_read(struct options *o, char **argv);
int cmd_write(struct options *o, char **argv);
int cmd_info(struct options *o, char **argv);
int cmd_bars(struct options *o, char **argv);

#define REGION_NEED_SIZE	1	/* a plain START is an error */
#define REGION_WRITES		2	/* the command writes into it */

/* REGION argument of cmd: physical or a PCI BAR identifier */
int region_arg(struct options *o, const char *cmd, const char *text,
	       unsigned int flags, struct region *r);

/* An ADDR argument: a plain START or a BAR offset, aligned to the width */
int addr_arg(struct options *o, const char *cmd, const char *text,
	     unsigned int flags, struct region *r);

/* start and size multiples of the width, or a message and EXIT_USAGE */
int check_width_aligned(const char *cmd, const struct region *r,
			unsigned int width, const char *why);

/* -v and -n: say what will be done; returns 1 when it was a dry run */
int announce(const struct options *o, const char *cmd,
	     const struct region *r);

#endif

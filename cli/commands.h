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
	bool writes;
	int (*run)(const struct options *o, char **argv);
};

extern const struct command commands[];

int cmd_dump(const struct options *o, char **argv);
int cmd_hexdump(const struct options *o, char **argv);
int cmd_fill(const struct options *o, char **argv);
int cmd_load(const struct options *o, char **argv);
int cmd_read(const struct options *o, char **argv);
int cmd_write(const struct options *o, char **argv);
int cmd_info(const struct options *o, char **argv);

/* REGION argument of cmd; need_size: a plain START is an error */
int region_arg(const char *cmd, const char *text, bool need_size,
	       struct region *r);

/* An ADDR argument: a plain START, aligned to the width */
int addr_arg(const char *cmd, const char *text, const struct options *o,
	     struct region *r);

/* start and size multiples of the width, or a message and EXIT_USAGE */
int check_width_aligned(const char *cmd, const struct region *r,
			unsigned int width, const char *why);

/* -v and -n: say what will be done; returns 1 when it was a dry run */
int announce(const struct options *o, const char *cmd,
	     const struct region *r);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pfnmap: what every part shares: the options, cache types, exit codes.
 */
#ifndef PFNMAP_H
#define PFNMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit status; documented in --help, README and pfnmap(8) */
enum pfnmap_exit {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* I/O on input or output failed, short input */
	EXIT_REFUSED = 2,	/* the helper, the kernel or a rule refused it */
	EXIT_NOHELPER = 3,	/* /dev/pfnmap missing and the module not loadable */
	EXIT_FAULT = 4,		/* bus error or fault touching the mapping */
	EXIT_MISMATCH = 5,	/* a check that does not hold (expect) */
	EXIT_USAGE = 64,	/* bad command line (argp's own code) */
};

enum cache_type {
	CACHE_AUTO,
	CACHE_UC,
	CACHE_WC,
	CACHE_WB,
};

struct options {
	unsigned int width;		/* access width in bytes: 1, 2, 4, 8 */
	bool width_set;
	enum cache_type cache;
	const char *output;
	const char *device;
	const char *module;
	bool no_load;
	bool dry_run;
	bool force;
	int verbose;
	bool quiet;
	bool machine;			/* bars: the machine-readable form */
	bool sysfs;			/* BARs through sysfs resourceN files */
	const char *pci_method;		/* -A */
	char *pci_params[16];		/* -O NAME=VALUE */
	unsigned int n_pci_params;
};

extern const char *cache_names[];

#endif

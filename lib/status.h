/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every core function returns: 0, or the exit status the CLI passes
 * on (documented in --help, README and pfnmap(8)).
 */
#ifndef PFNMAP_STATUS_H
#define PFNMAP_STATUS_H

enum pfnmap_exit {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* I/O on input or output failed, short input */
	EXIT_REFUSED = 2,	/* the helper, the kernel or a rule refused it */
	EXIT_NOHELPER = 3,	/* /dev/pfnmap missing and the module not loadable */
	EXIT_FAULT = 4,		/* bus error or fault touching the mapping */
	EXIT_MISMATCH = 5,	/* a check that does not hold (expect) */
	EXIT_USAGE = 64,	/* bad command line (argp's own code) */
};

#endif

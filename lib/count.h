/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bytes done of a long job, counted where its loop runs (window.c and
 * config.c for reads and fills that walk a whole extent; the commands'
 * own loops). Counting is an addition and a comparison; when done reaches
 * check_at, progress_due() runs: the application's (the CLI draws its
 * progress line), which sets the next check_at. One job at a time.
 */
#ifndef PFNMAP_COUNT_H
#define PFNMAP_COUNT_H

#include <stdint.h>

struct progress_count {
	uint64_t done;		/* bytes */
	uint64_t check_at;	/* progress_due() runs when done reaches it */
};

extern struct progress_count progress_count;
extern void (*progress_due)(void);

static inline void progress_advance(uint64_t bytes)
{
	progress_count.done += bytes;
	if (progress_count.done >= progress_count.check_at)
		progress_due();
}

#endif

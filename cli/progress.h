/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The progress line of a long job (dump, hexdump, fill, load, cmp, sum,
 * copy, memtest) on standard error: bytes done of the total, the average rate, the
 * time left. On a terminal it appears once the job has run for a second,
 * is redrawn in place four times a second and is cleared at the end;
 * elsewhere only with --progress, a line of its own each second.
 *
 * Counting is an addition and a comparison: the clock is read only every
 * so many bytes (what the rate so far moves in a quarter of the time
 * between lines, 4 KiB to 64 MiB), never per byte or per element.
 * Whoever runs a job's loop counts its steps: window.c (and config.c) for
 * map_read and map_fill, which walk the whole extent themselves; load, cmp
 * and copy in their own loops. One job at a time.
 */
#ifndef PFNMAP_PROGRESS_H
#define PFNMAP_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "count.h"
#include "pfnmap.h"

/*
 * The clock, CLOCK_MONOTONIC in ns. A pointer only so that the unit tests
 * can run the line's timing and the retuning of the stride on a fake one:
 * the CLI tests draw a line at every step (no delay), which skips both.
 */
extern uint64_t (*progress_now)(void);

/*
 * A job of total bytes, named label ("dump") on its line. Nothing at all
 * unless o asks for it (--progress) or allows it (not --no-progress, -q
 * or -n, and standard error a terminal).
 */
void progress_start(const struct options *o, uint64_t total,
		    const char *label);
/* Reads the clock; draws the line when it is due */
void progress_check(void);

/*
 * Takes the line off the terminal before a message (msg.c) goes there;
 * the next line due draws it again
 */
void progress_clear(void);
/* The same, before text on standard output when that is a terminal too */
void progress_before_stdout(void);
/* The end of the job: the line cleared (a last line when not a terminal) */
void progress_end(void);

/*
 * The line, without \r or newline, for done of total bytes after secs
 * seconds (total not 0); snprintf's return
 */
int progress_format(char *buf, size_t size, const char *label,
		    uint64_t done, uint64_t total, double secs);

#endif

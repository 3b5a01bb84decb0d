/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * poll's loop, apart from the mapping and the clock so that the unit tests
 * can drive it with a fake register and a fake clock: the semantics of the
 * kernel's read_poll_timeout() (include/linux/iopoll.h).
 */
#ifndef PFNMAP_POLL_H
#define PFNMAP_POLL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NS_PER_S	1000000000ULL

enum poll_end {
	POLL_MATCHED,		/* (value & mask) == want, or != with --not */
	POLL_TIMED_OUT,		/* the read after the deadline did not match */
	POLL_STOPPED,		/* *stop was set (SIGINT, SIGTERM) */
	POLL_FAILED,		/* read returned an error */
};

struct poll_loop {
	uint64_t mask, want;
	bool not;			/* --not: until (value & mask) != want */
	uint64_t timeout_ns;		/* DURATION_FOREVER: no deadline */
	uint64_t interval_ns;		/* 0: read again at once */
	/* the world: the register, CLOCK_MONOTONIC in ns, sleeping */
	int (*read)(void *ctx, uint64_t *value);
	uint64_t (*now)(void *ctx);
	void (*sleep_until)(void *ctx, uint64_t t);
	volatile sig_atomic_t *stop;	/* nonzero: stop after the next read */
	void *ctx;
	/* what happened */
	enum poll_end end;
	uint64_t value;			/* the last value read */
	uint64_t reads;			/* reads that returned a value */
	uint64_t elapsed_ns;		/* from before the first read to the end */
};

/* Whether value ends the poll */
static inline bool poll_matches(const struct poll_loop *p, uint64_t value)
{
	return ((value & p->mask) == p->want) != p->not;
}

/* start + timeout, saturating; DURATION_FOREVER: UINT64_MAX, never */
uint64_t poll_deadline(uint64_t start, uint64_t timeout);

/*
 * Reads until the value matches or a read that began at or after the
 * deadline did not; sleeps interval_ns between reads, never past the
 * deadline. Returns 0, or what read returned (end POLL_FAILED).
 */
int poll_run(struct poll_loop *p);

/*
 * ns in the largest unit that states it exactly, as parse_duration reads
 * it back: 0s, 1s, 1500ms, 20us, 7ns; forever for DURATION_FOREVER
 */
void format_duration(char *buf, size_t len, uint64_t ns);

#endif

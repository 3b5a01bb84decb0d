/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What regions are mapped through: the helper's /dev/pfnmap, or any file
 * whose offsets are physical addresses (--device). And the windows of a
 * region mapped through it.
 */
#ifndef PFNMAP_TARGET_H
#define PFNMAP_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uapi/pfnmap.h"
#include "pfnmap.h"

#define PFNMAP_DEV	"/dev/" PFNMAP_DEVICE_NAME

struct target {
	int fd;
	const char *path;
	bool helper;			/* /dev/pfnmap: the ioctls work */
	bool regular;			/* a regular file (--device) */
	bool writable;
	enum cache_type cache;		/* requested */
	uint64_t file_base;		/* physical address of offset 0 */
	unsigned int page_shift;
	struct pfnmap_info info;	/* helper only */
};

/* Opens the helper (loading it) or the --device file; prints why not */
int target_open(struct target *t, const struct options *o, bool write);
void target_close(struct target *t);

/* GET_INFO on an already-open helper */
int helper_info(struct target *t);

/* Loads the helper with libkmod: from path, or by name. Prints why not. */
int helper_load(const char *path, const struct options *o);

/* Why the helper refused an mmap, in words; returns EXIT_REFUSED */
int explain_mmap_error(const struct target *t, int errnum, uint64_t start,
		       uint64_t size);

/* A piece of a region, mapped page-aligned underneath */
struct window {
	uint64_t phys;			/* first byte asked for */
	size_t len;			/* bytes asked for */
	unsigned char *p;		/* where phys is mapped */
	void *base;			/* the mapping */
	size_t maplen;
	uint64_t map_phys;		/* physical address of base */
	enum pfnmap_cache applied;	/* the cache type the kernel applied */
	bool exact;			/* exact-width accesses only */
};

/* Default window: 64 MiB of address space at a time */
#define WINDOW_SIZE	(64ULL << 20)

typedef int (*window_fn)(struct window *w, void *ctx);

/*
 * Map [start, start + size) window by window and call fn on each, with the
 * bus-error guard armed. Stops at the first non-zero return and gives it back.
 */
int for_each_window(struct target *t, uint64_t start, uint64_t size,
		    window_fn fn, void *ctx);

/*
 * Called after a fault, with the guard disarmed, before the fault is
 * reported: what was read before it reaches the output ahead of the message.
 */
typedef void (*salvage_fn)(void *ctx);

/* for_each_window, and salvage(ctx) when a fault ends the walk */
int for_each_window_salvage(struct target *t, uint64_t start, uint64_t size,
			    window_fn fn, salvage_fn salvage, void *ctx);

const char *applied_name(enum pfnmap_cache c);

#endif

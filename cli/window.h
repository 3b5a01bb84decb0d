/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An extent accessed through a target: mapped a page-aligned window at a
 * time, with the bus-error guard armed around every access. The first
 * window settles, once for the whole extent, the cache type the kernel
 * applied and so the kind of access: exact-width (uncached, write-combined:
 * each access exactly --width wide, in address order, each address once)
 * or bulk (write-back memory). Commands go through the entry points below
 * and never touch a mapping themselves. An extent of PCI configuration
 * space (is_config) maps nothing: the same entry points hand it to
 * config.h's backend, libpci, exact-width too.
 */
#ifndef PFNMAP_WINDOW_H
#define PFNMAP_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "target.h"

/* The granularity of a fault: what is read before one reaches the sink */
#define PIECE		4096
/* Address space mapped at a time */
#define WINDOW_SIZE	(64ULL << 20)

/* Where map_read delivers the extent's bytes, in address order */
struct sink {
	/* A piece read whole: 0 to go on, else it ends the walk and is returned */
	int (*put)(struct sink *s, const void *buf, size_t len);
	/*
	 * Optional: write-back memory handed over in place, a window at a
	 * time, for write(2). SINK_EFAULT, with taken set, when the kernel
	 * could not read it; the rest then comes through put.
	 */
	int (*put_in_place)(struct sink *s, const void *buf, size_t len);
	size_t taken;
};

#define SINK_EFAULT	(-3)

/* Where map_write_in_place gets its bytes from */
struct source {
	/*
	 * Up to len bytes read straight into buf, write-back memory in a
	 * window: how many (fewer only at the end of the input), or -1
	 * after a message. efault set: the kernel could not write buf, and
	 * what was not counted was not taken from the input.
	 */
	ssize_t (*take)(struct source *s, void *buf, size_t len);
	bool efault;
};

/* map_write_in_place: nothing more in place; map_write does the rest */
#define MAP_NOT_IN_PLACE	(-4)

struct mapping {
	struct target *t;
	const char *cmd;
	const struct extent *x;
	unsigned int width;
	bool single;			/* one access: read or write a value */
	bool whole;			/* map_whole: exact-width on any type */
	/* the window mapped now */
	unsigned char *base;
	size_t maplen;
	uint64_t map_phys;
	/* settled by the first window */
	bool settled;
	enum pfnmap_cache applied;
	bool exact;
	/* the fault that ended an access */
	bool faulted;
	int fault_sig;
	uint64_t fault_phys;
	bool fault_inside;		/* fault_phys is where it hit */
	/* config space (config.c): fault_phys is the offset */
	bool fault_store;
	char fault_why[160];		/* libpci's words, or "" */
	unsigned char bounce[PIECE];
};

void mapping_init(struct mapping *m, struct target *t, const char *cmd,
		  const struct extent *x, unsigned int width);
/*
 * Unmaps; when r is EXIT_FAULT, reports the fault (after the command has
 * written out what it read before it). Returns r.
 */
int mapping_end(struct mapping *m, int r);

/* The whole extent into s */
int map_read(struct mapping *m, struct sink *s);
/*
 * len bytes at offset off into the extent, into dst, in address order;
 * exact: off and len whole units (the caller checks)
 */
int map_read_at(struct mapping *m, uint64_t off, void *dst, size_t len);
/* len bytes at offset off into the extent; exact: whole units only */
int map_write(struct mapping *m, uint64_t off, const void *src, size_t len,
	      size_t *done);
/*
 * Up to len bytes at offset off into the extent, read by src straight into
 * write-back memory: one copy, not a read into a buffer and another from
 * it. *done: how many (fewer at the end of the input). MAP_NOT_IN_PLACE
 * when the extent wants exact-width stores or src->efault is set; -1
 * when src failed.
 */
int map_write_in_place(struct mapping *m, uint64_t off, size_t len,
		       struct source *src, size_t *done);
/* value, of the mapping's width, over the whole extent */
int map_fill(struct mapping *m, uint64_t value);
/*
 * The whole extent mapped at once (not a window at a time) and fn called
 * with its first byte, the bus-error guard armed, every access exact-width
 * whatever the cache type; *ret is what fn returned. memtest.
 */
int map_whole(struct mapping *m, int (*fn)(void *ctx, volatile void *p),
	      void *ctx, int *ret);
/* One access of the mapping's width at the extent's start */
int map_read_value(struct mapping *m, uint64_t *value);
int map_write_value(struct mapping *m, uint64_t value);

/*
 * batch: mapping_end keeps the last window of each target mapped, and the
 * next mapping through the same target uses it when it covers the window
 * asked for. window_release_all unmaps them, before target_release_all.
 */
extern bool window_keep;
void window_release_all(void);

/* start and size multiples of width, or a message and EXIT_USAGE */
int check_width_aligned(const char *cmd, const struct extent *x,
			unsigned int width, const char *why);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An extent accessed through a backend, chosen once when it is opened (as
 * pciutils' pci_methods are): window.h maps physical memory a window at a
 * time through a target (the helper, a --device file, a sysfs resourceN
 * file); config.h reaches a device's configuration space through libpci.
 * Every access is exact-width (uncached, write-combined, config space:
 * each access exactly the mapping's width, in address order, each address
 * once) or bulk (write-back memory). Commands go through the entry points
 * below and never touch a mapping themselves. A new backend is one file
 * with a struct backend and a line in mapping_open() (open.h).
 */
#ifndef PFNMAP_MAPPING_H
#define PFNMAP_MAPPING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "session.h"
#include "target.h"

/* The granularity of a fault: what is read before one reaches the sink */
#define PIECE		4096

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

struct mapping;

/* What a region is backed by: the entry points below, one each */
struct backend {
	int (*read)(struct mapping *m, struct sink *s);
	int (*read_at)(struct mapping *m, uint64_t off, void *dst, size_t len);
	int (*write)(struct mapping *m, uint64_t off, const void *src,
		     size_t len, size_t *done);
	int (*write_in_place)(struct mapping *m, uint64_t off, size_t len,
			      struct source *src, size_t *done);
	int (*fill)(struct mapping *m, uint64_t value);
	int (*whole)(struct mapping *m, int (*fn)(void *ctx, volatile void *p),
		     void *ctx, int *ret);
	int (*read_value)(struct mapping *m, uint64_t *value);
	int (*write_value)(struct mapping *m, uint64_t value);
	/* reports a fault that ended an access (r EXIT_FAULT), releases */
	void (*end)(struct mapping *m, int r);
};

struct mapping {
	const struct backend *ops;
	struct pf_session *s;
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
	void *fault_addr;
	/* config space (config.c): fault_phys is the offset */
	bool fault_store;
	char fault_why[160];		/* libpci's words, or "" */
	unsigned char bounce[PIECE];
};

/*
 * Unmaps; when r is EXIT_FAULT, reports the fault (after the command has
 * written out what it read before it). Returns r.
 */
static inline int mapping_end(struct mapping *m, int r)
{
	m->ops->end(m, r);
	return r;
}

/* The whole extent into s */
static inline int map_read(struct mapping *m, struct sink *s)
{
	return m->ops->read(m, s);
}

/*
 * len bytes at offset off into the extent, into dst, in address order;
 * exact: off and len whole units (the caller checks)
 */
static inline int map_read_at(struct mapping *m, uint64_t off, void *dst,
			      size_t len)
{
	return m->ops->read_at(m, off, dst, len);
}

/* len bytes at offset off into the extent; exact: whole units only */
static inline int map_write(struct mapping *m, uint64_t off, const void *src,
			    size_t len, size_t *done)
{
	return m->ops->write(m, off, src, len, done);
}

/*
 * Up to len bytes at offset off into the extent, read by src straight into
 * write-back memory: one copy, not a read into a buffer and another from
 * it. *done: how many (fewer at the end of the input). MAP_NOT_IN_PLACE
 * when the extent wants exact-width stores or src->efault is set; -1
 * when src failed.
 */
static inline int map_write_in_place(struct mapping *m, uint64_t off,
				     size_t len, struct source *src,
				     size_t *done)
{
	*done = 0;
	if (!m->ops->write_in_place)
		return MAP_NOT_IN_PLACE;
	return m->ops->write_in_place(m, off, len, src, done);
}

/* value, of the mapping's width, over the whole extent */
static inline int map_fill(struct mapping *m, uint64_t value)
{
	return m->ops->fill(m, value);
}

/*
 * The whole extent mapped at once (not a window at a time) and fn called
 * with its first byte, the bus-error guard armed, every access exact-width
 * whatever the cache type; *ret is what fn returned. memtest.
 */
static inline int map_whole(struct mapping *m,
			    int (*fn)(void *ctx, volatile void *p), void *ctx,
			    int *ret)
{
	return m->ops->whole(m, fn, ctx, ret);
}

/* One access of the mapping's width at the extent's start */
static inline int map_read_value(struct mapping *m, uint64_t *value)
{
	return m->ops->read_value(m, value);
}

static inline int map_write_value(struct mapping *m, uint64_t value)
{
	return m->ops->write_value(m, value);
}

#endif

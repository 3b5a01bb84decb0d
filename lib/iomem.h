/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Who owns a physical range, from /proc/iomem */
#ifndef PFNMAP_IOMEM_H
#define PFNMAP_IOMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct iomem_entry {
	uint64_t start;
	uint64_t end;		/* inclusive */
	unsigned int depth;	/* nesting, as the indentation shows it */
	char name[96];
};

struct iomem {
	struct iomem_entry *e;
	size_t n;
	bool hidden;		/* every address reads 0: not root */
};

enum ram_state {
	RAM_NONE,
	RAM_ALL,
	RAM_MIXED,
};

/* path NULL: $PFNMAP_IOMEM, else /proc/iomem. -1 with errno when unreadable */
int iomem_load(const char *path, struct iomem *io);
void iomem_free(struct iomem *io);

/* The i-th entry at or after *pos that overlaps [start, end]; NULL at the end */
const struct iomem_entry *iomem_next_overlap(const struct iomem *io, size_t *pos,
					     uint64_t start, uint64_t end);

/* How much of [start, end] top-level "System RAM" covers */
enum ram_state iomem_ram(const struct iomem *io, uint64_t start, uint64_t end);

#endif

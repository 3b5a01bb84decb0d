// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/iomem: "  start-end : name", two spaces of indentation a level.
 * Without CAP_SYS_ADMIN the kernel prints every address as 0.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iomem.h"

static int parse_line(const char *line, struct iomem_entry *e)
{
	unsigned int depth = 0;
	int name_at = 0;

	while (line[depth] == ' ')
		depth++;
	if (sscanf(line + depth, "%" SCNx64 "-%" SCNx64 " : %n", &e->start,
		   &e->end, &name_at) < 2 || !name_at)
		return -1;
	e->depth = depth / 2;
	snprintf(e->name, sizeof(e->name), "%.*s",
		 (int)strcspn(line + depth + name_at, "\n"),
		 line + depth + name_at);
	return 0;
}

int iomem_load(const char *path, struct iomem *io)
{
	char line[256];
	size_t cap = 0;
	FILE *f;

	memset(io, 0, sizeof(*io));
	if (!path)
		path = getenv("PFNMAP_IOMEM");
	f = fopen(path ? path : "/proc/iomem", "re");
	if (!f)
		return -1;
	io->hidden = true;
	while (fgets(line, sizeof(line), f)) {
		struct iomem_entry e;

		if (parse_line(line, &e))
			continue;
		if (io->n == cap) {
			cap = cap ? 2 * cap : 64;
			io->e = realloc(io->e, cap * sizeof(*io->e));
			if (!io->e) {
				fclose(f);
				errno = ENOMEM;
				return -1;
			}
		}
		if (e.start || e.end)
			io->hidden = false;
		io->e[io->n++] = e;
	}
	fclose(f);
	return 0;
}

void iomem_free(struct iomem *io)
{
	free(io->e);
	io->e = NULL;
	io->n = 0;
}

const struct iomem_entry *iomem_next_overlap(const struct iomem *io, size_t *pos,
					     uint64_t start, uint64_t end)
{
	while (*pos < io->n) {
		const struct iomem_entry *e = &io->e[(*pos)++];

		if (e->start <= end && e->end >= start)
			return e;
	}
	return NULL;
}

enum ram_state iomem_ram(const struct iomem *io, uint64_t start, uint64_t end)
{
	uint64_t covered = 0, want = end - start;
	size_t i;

	for (i = 0; i < io->n; i++) {
		const struct iomem_entry *e = &io->e[i];
		uint64_t lo, hi;

		if (e->depth || strcmp(e->name, "System RAM") ||
		    e->start > end || e->end < start)
			continue;
		lo = e->start > start ? e->start : start;
		hi = e->end < end ? e->end : end;
		covered += hi - lo + 1;
	}
	if (!covered)
		return RAM_NONE;
	return covered - 1 >= want ? RAM_ALL : RAM_MIXED;
}

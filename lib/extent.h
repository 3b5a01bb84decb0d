/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A region resolved (region.h parses it, pci.h resolves a PCI location):
 * the physical bytes asked for and the plan of how to map them, or a
 * device's configuration space. What every command works on, before
 * anything is opened (target.h).
 */
#ifndef PFNMAP_EXTENT_H
#define PFNMAP_EXTENT_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "uapi/pfnmap.h"
#include "session.h"

/* A PCI memory BAR, as libpci and sysfs describe it */
struct pci_bar {
	char slot[16];			/* dddd:bb:dd.f */
	unsigned int vendor, device;
	char driver[64];		/* bound driver, "" for none */
	unsigned int index;		/* N of barN */
	uint64_t start, size;
	bool is64, prefetch;
};

/* How a range is to be mapped, decided before anything is opened */
struct map_plan {
	char file[PATH_MAX + 8];	/* sysfs resourceN[_wc]; "" otherwise */
	uint64_t file_base;		/* physical address at offset 0 of file */
	enum pfnmap_cache cache;		/* asked, or what auto means here */
};

struct pci_dev;

/*
 * A region resolved: the physical bytes asked for and how to map them; or,
 * is_config, offsets into a device's configuration space, which window.h
 * accesses through libpci (config.c) instead of a mapping
 */
struct extent {
	const char *text;		/* as the user wrote it */
	uint64_t start, size;		/* size > 0, no wrap */
	bool has_size;			/* the text gave a size */
	bool is_bar;
	struct pci_bar bar;		/* is_bar; is_config: slot, driver */
	bool is_config;
	struct pci_dev *config_dev;	/* is_config only */
	uint64_t config_size;		/* is_config: 256 or 4096 */
	struct map_plan plan;
};

/* start and size multiples of width, or a message and EXIT_USAGE */
int check_width_aligned(struct pf_session *s, const char *cmd,
			const struct extent *x, unsigned int width,
			const char *why);

#endif /* PFNMAP_EXTENT_H */

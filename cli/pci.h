/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCI BAR identifiers -> regions, and the `bars` listing, through libpci:
 *   [DOMAIN:]BUS:DEV.FN/barN[@OFFSET][+SIZE]
 *   VENDOR:DEVICE[#INDEX]/barN[@OFFSET][+SIZE]
 */
#ifndef PFNMAP_PCI_H
#define PFNMAP_PCI_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "pfnmap.h"

struct bar {
	char slot[16];			/* dddd:bb:dd.f */
	unsigned int vendor, device;
	char names[192];		/* vendor and device names (pci.ids) */
	char driver[64];		/* bound driver, "" for none */
	unsigned int index;		/* N of barN */
	uint64_t start, size;
	bool is64, prefetch;
	char file[PATH_MAX];		/* sysfs resourceN */
};

/* Whether text names a BAR (has "/bar") rather than a physical range */
bool is_bar_id(const char *text);

/*
 * Resolve a BAR identifier into r (r->bar points at the BAR). Sets the
 * cache type from the BAR when o->cache is auto, and --sysfs's device file.
 * writes: the command writes, which a bound driver forbids without --force.
 */
int bar_region(struct options *o, const char *cmd, const char *text,
	       bool writes, struct region *r);

#endif

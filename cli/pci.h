/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCI through libpci: a PCI location (region.h) becomes a physical range
 * plus a mapping plan (the bars command: cmd_bars.c).
 */
#ifndef PFNMAP_PCI_H
#define PFNMAP_PCI_H

#include <stdbool.h>

#include "pfnmap.h"
#include "region.h"
#include "target.h"

/*
 * Resolve a BAR location into x: the physical range, the BAR, and how to
 * map it (--sysfs: its resourceN file; auto cache: after the BAR's
 * prefetchable bit). writes: the command writes, which a bound driver
 * forbids without --force. Prints why not; returns an exit status. Warns,
 * once a run for each device, when its memory decoding is off.
 */
int pci_locate(const struct options *o, const char *cmd,
	       const struct region *loc, bool writes, struct extent *x);

/*
 * libpci's last warning since the last call (why an access failed), or
 * NULL; the next call starts afresh
 */
const char *pci_last_warning(void);

/* A BAR's vendor and device names (pci.ids), valid until the next call */
const char *pci_names(const struct pci_bar *b);

#endif

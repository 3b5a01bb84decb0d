/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCI through libpci, a scan of the bus a session: a PCI location
 * (region.h) becomes a physical range plus a mapping plan, or a device's
 * configuration space; and what the bars command lists.
 */
#ifndef PFNMAP_PCI_H
#define PFNMAP_PCI_H

#include <stdbool.h>
#include <pci/pci.h>

#include "devspec.h"
#include "extent.h"
#include "region.h"
#include "session.h"

#define MAX_MATCHES	256

/* What COMMAND's memory space bit says; unknown when config is unreadable */
enum decoding {
	DECODE_UNKNOWN,
	DECODE_OFF,
	DECODE_ON,
};

/* libpci's scan of the bus for session s (pci_method, pci_params) */
int pci_start(struct pf_session *s);
/* libpci's end; the extents resolved through it are no longer valid */
void pci_end(struct pf_session *s);

/*
 * Resolve a location into x: the physical range, the BAR, and how to map
 * it (sysfs: its resourceN file; auto cache: after the BAR's prefetchable
 * bit); or offsets into configuration space, accessed width bytes at a
 * time. writes: the command writes, which a bound driver forbids without
 * force. Reports why not; returns a status. Warns, once a session for
 * each device, when its memory decoding is off.
 */
int pci_locate(struct pf_session *s, const char *cmd,
	       const struct region *loc, unsigned int width, bool writes,
	       struct extent *x);

/*
 * libpci's last warning since the last call (why an access failed), or
 * NULL; the next call starts afresh
 */
const char *pci_last_warning(void);

/* A BAR's vendor and device names (pci.ids), valid until the next call */
const char *pci_names(struct pf_session *s, const struct pci_bar *b);

/* The matches of spec, in slot order, at most max into out; how many */
int pci_matches(struct pf_session *s, const struct devspec *spec,
		struct pci_dev **out, int max);

/* b's slot, IDs and bound driver, from d */
void pci_fill_device(struct pf_session *s, struct pci_dev *d,
		     struct pci_bar *b);

bool bar_io(struct pci_dev *d, int i);
bool bar_64(struct pci_dev *d, int i);
bool bar_prefetch(struct pci_dev *d, int i);
enum decoding mem_decoding(struct pci_dev *d);

#endif

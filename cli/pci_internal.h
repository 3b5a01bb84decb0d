/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What pci.c shares with the bars command (cmd_bars.c) only: libpci's
 * session, the devices a spec matches, and what a BAR is.
 */
#ifndef PFNMAP_PCI_INTERNAL_H
#define PFNMAP_PCI_INTERNAL_H

#include <stdbool.h>
#include <pci/pci.h>

#include "devspec.h"
#include "pfnmap.h"
#include "target.h"

#define MAX_MATCHES	256

/* What COMMAND's memory space bit says; unknown when config is unreadable */
enum decoding {
	DECODE_UNKNOWN,
	DECODE_OFF,
	DECODE_ON,
};

/* libpci's one scan of the bus for the process (-A, -O); an exit status */
int pci_start(const struct options *o);

/* The matches of spec, in slot order, at most max into out; how many */
int pci_matches(const struct devspec *spec, struct pci_dev **out, int max);

/* b's slot, IDs and bound driver, from d */
void pci_fill_device(struct pci_dev *d, struct pci_bar *b);

bool bar_io(struct pci_dev *d, int i);
bool bar_64(struct pci_dev *d, int i);
bool bar_prefetch(struct pci_dev *d, int i);
enum decoding mem_decoding(struct pci_dev *d);

#endif

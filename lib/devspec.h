/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCI device specs, as lspci -s and -d take them, for BAR and config
 * locations and for the `bars` filter alike:
 *   [[[[DOMAIN]:]BUS]:][DEV][.[FUNC]]   a slot (lspci -s), * for any part
 *   [VENDOR]:[DEVICE]                   IDs (lspci -d), * or empty for any
 * either followed by #N: the Nth match in slot order, from 0. BUS:DEV and
 * VENDOR:DEVICE look alike; IDs are told apart by their digits: a side of
 * more than two characters (1af4:1110, 8086:, :1110) makes it IDs.
 * No I/O: parsing needs no PCI access.
 */
#ifndef PFNMAP_DEVSPEC_H
#define PFNMAP_DEVSPEC_H

#include <pci/pci.h>
#include <stdbool.h>
#include <stddef.h>

#define DEVSPEC_MAX	64
#define DEVSPEC_GRAMMAR	"[[DOMAIN:]BUS:]DEV[.FN] (as lspci -s) or " \
			"VENDOR:DEVICE (as lspci -d), then #N for the Nth match"

struct devspec {
	struct pci_filter filter;
	bool by_id;			/* VENDOR:DEVICE, not a slot */
	int index;			/* #N; -1: none given */
	char text[DEVSPEC_MAX];		/* as written, for messages */
};

/* The len characters at text; errors as one sentence in err */
int devspec_parse(const char *text, size_t len, struct devspec *d, char *err,
		  size_t errlen);

#endif

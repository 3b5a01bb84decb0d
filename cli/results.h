/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Results in JSON (json.h's conventions): --json, and the fields of
 * pfnmap's own things that several commands print
 */
#ifndef PFNMAP_RESULTS_H
#define PFNMAP_RESULTS_H

#include <stdbool.h>
#include <stdint.h>

#include "extent.h"

struct json_object;
struct options;

/* --json was given (or a batch gave it) */
bool json_wanted(const struct options *o);
/* batch: --json is not for this line's command */
void json_unwanted(struct options *o);

/*
 * A new object with the fields of one value at an ADDR (read, expect,
 * poll): "addr" as given, "phys" its physical address and "config_offset"
 * (jout_where), "width" in bits, "value"; width is in bytes, as struct
 * options has it
 */
struct json_object *jout_value(const struct extent *x, unsigned int width,
			       uint64_t value);

/*
 * "KEY": addr, an address in x, as hex, then "config_offset": null; in
 * config space "KEY": null, then "config_offset": addr
 */
void jout_where(struct json_object *j, const char *key,
		const struct extent *x, uint64_t addr);

/*
 * A PCI device's facts as bars --json and info --json name them: "slot",
 * "vendor", "device" (4 hex digits), "class" when class is not negative,
 * "names", "driver" (null for none)
 */
void jout_pci_device(struct json_object *j, const struct pci_bar *b,
		     int class, const char *names);

#endif

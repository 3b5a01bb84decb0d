/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCI configuration space as a backend of window.h: an extent with
 * is_config is read and written through libpci, one access of the
 * mapping's width (8, 16 or 32 bits) per value, in offset order, each
 * offset once. Nothing is mapped. And the capability names, as setpci
 * spells them.
 */
#ifndef PFNMAP_CONFIG_H
#define PFNMAP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "window.h"

/* Standard and extended configuration space sizes */
#define CONFIG_SIZE		256
#define CONFIG_EXT_SIZE		4096

int config_read(struct mapping *m, struct sink *s);
/* len bytes from offset off of the extent, whole values of the width */
int config_read_at(struct mapping *m, uint64_t off, void *dst, size_t len);
int config_write(struct mapping *m, uint64_t off, const void *src,
		 size_t len, size_t *done);
int config_fill(struct mapping *m, uint64_t value);
int config_read_value(struct mapping *m, uint64_t *value);
int config_write_value(struct mapping *m, uint64_t value);

/*
 * A capability name as setpci spells it (CAP_EXP, ECAP_AER; any case):
 * extended or not, and its ID. false when the name is unknown.
 */
bool config_cap_lookup(const char *name, size_t len, bool *extended,
		       unsigned int *id);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Configuration space's sizes and its capability names, as setpci's */
#ifndef PFNMAP_CAPNAMES_H
#define PFNMAP_CAPNAMES_H

#include <stdbool.h>
#include <stddef.h>

/* Standard and extended configuration space sizes */
#define CONFIG_SIZE		256
#define CONFIG_EXT_SIZE		4096

/*
 * A capability name as setpci spells it (CAP_EXP, ECAP_AER; any case):
 * extended or not, and its ID. false when the name is unknown.
 */
bool config_cap_lookup(const char *name, size_t len, bool *extended,
		       unsigned int *id);

#endif

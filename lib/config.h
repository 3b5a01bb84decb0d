/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PCI configuration space as a backend (mapping.h): an extent with
 * is_config is read and written through libpci, one access of the
 * mapping's width (8, 16 or 32 bits) per value, in offset order, each
 * offset once. Nothing is mapped.
 */
#ifndef PFNMAP_CONFIG_H
#define PFNMAP_CONFIG_H

#include "mapping.h"

extern const struct backend config_backend;

#endif

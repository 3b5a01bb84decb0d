/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding and loading the helper module through libkmod */
#ifndef PFNMAP_KMODLOAD_H
#define PFNMAP_KMODLOAD_H

#include "session.h"

/*
 * Loads the helper: from the session's module path, or by name from the
 * kernel's module tree. Reports why not; returns 0 or EXIT_NOHELPER.
 */
int helper_load(struct pf_session *s);

/* The kernel's lockdown mode ("integrity", ...), or NULL for none */
const char *kernel_lockdown(void);

/* uname -r */
const char *kernel_release(void);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The mmap backend (mapping.h): an extent mapped a page-aligned window at
 * a time through its target, with the bus-error guard armed around every
 * access. The first window settles, once for the whole extent, the cache
 * type the kernel applied and so the kind of access: exact-width or bulk.
 * A SIGBUS or SIGSEGV while touching a window ends the access with the
 * physical address it hit, not a core dump.
 */
#ifndef PFNMAP_WINDOW_H
#define PFNMAP_WINDOW_H

#include "mapping.h"

/* Address space mapped at a time */
#define WINDOW_SIZE	(64ULL << 20)

extern const struct backend window_backend;

/* The bus-error guard's handler, installed once before the first access */
void window_guard_install(void);

/*
 * session keep: a mapping's end keeps the last window of each target
 * mapped, and the next mapping through the same target uses it when it
 * covers the window asked for. window_release_all unmaps them, before
 * target_release_all.
 */
void window_release_all(struct pf_session *s);

#endif

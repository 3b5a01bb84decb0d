/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The top of the core: a mapping opened through the backend its extent
 * needs, and the end of what a session kept open. Nothing below calls up
 * here.
 */
#ifndef PFNMAP_OPEN_H
#define PFNMAP_OPEN_H

#include <stdbool.h>

#include "mapping.h"
#include "session.h"

/*
 * Opens x's target (none for config space) and a mapping of x through the
 * backend that x needs, for cmd's accesses of width bytes
 */
int mapping_open(struct pf_session *s, const char *cmd,
		 const struct extent *x, unsigned int width, bool write,
		 struct target *t, struct mapping *m);

/* The kept windows and targets closed; libpci's scan stays */
void session_release(struct pf_session *s);
/* All the session opened closed: windows, targets, libpci */
void session_end(struct pf_session *s);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small helpers every part may use */
#ifndef PFNMAP_UTIL_H
#define PFNMAP_UTIL_H

/* The number of elements of an array (not a pointer) */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#endif

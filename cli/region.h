/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The region grammar: text -> {physical start, size}. No I/O.
 * Errors come back as one sentence in the caller's buffer.
 */
#ifndef PFNMAP_REGION_H
#define PFNMAP_REGION_H

#include <stddef.h>
#include <stdint.h>

#include "pfnmap.h"

#define REGION_ERR_MAX	256

/* A number: 0x hex or decimal, with an optional K/M/G/T(iB) suffix */
int parse_number(const char *text, const char *what, uint64_t *val,
		 char *err, size_t errlen);

/* START+SIZE, START-END (END inclusive) or START */
int region_parse(const char *text, struct region *r, char *err, size_t errlen);

/* A value of width bytes: 0x hex or decimal, no suffix */
int parse_value(const char *text, unsigned int width, uint64_t *val,
		char *err, size_t errlen);

/* Width in bits (8, 16, 32, 64) -> bytes */
int parse_width(const char *text, unsigned int *bytes, char *err, size_t errlen);

/* Page frame arithmetic for a region */
struct pfn_span {
	uint64_t first_pfn;
	uint64_t last_pfn;
	uint64_t pages;
	uint64_t offset;	/* of start inside its first page */
};

void region_pfns(const struct region *r, unsigned int page_shift,
		 struct pfn_span *s);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The region grammar, the one parser of addresses, sizes and values:
 *   START+SIZE, START-END (END inclusive), START      physical memory
 *   DEVICE/barN[@OFFSET][+SIZE]                       inside a PCI BAR
 *   DEVICE/config[@OFFSET][+SIZE]                     PCI config space
 *   DEVICE/config@CAP[+OFFSET][+SIZE]                 a capability in it
 * DEVICE as devspec.h. Numbers are 0x hex or decimal; addresses and sizes
 * take K, M, G, T or KiB, MiB, GiB, TiB (powers of 1024), values do not.
 * No I/O: a PCI location is resolved by pci.c. Errors come back as one
 * sentence in the caller's buffer.
 */
#ifndef PFNMAP_REGION_H
#define PFNMAP_REGION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "devspec.h"

#define REGION_ERR_MAX	256

enum region_kind {
	REGION_PHYS,
	REGION_BAR,
	REGION_CONFIG,
};

struct region {
	enum region_kind kind;
	const char *text;	/* as the user wrote it, for messages */
	/*
	 * REGION_PHYS: the physical range; size 1 for a plain START.
	 * PCI: offset and size inside the BAR or config space; size 0
	 * when not given (up to the end).
	 */
	uint64_t start;
	uint64_t size;
	bool has_size;		/* the text gave a size or an end */
	unsigned int bar;	/* REGION_BAR: N of barN */
	/*
	 * REGION_CONFIG: @NAME (CAP_EXP, ECAP_AER, ...), NAME_LEN characters
	 * into text, resolved by pci.c; start is then the offset after it
	 */
	const char *cap;
	size_t cap_len;
	struct devspec dev;	/* PCI only */
};

int region_parse(const char *text, struct region *r, char *err, size_t errlen);

/* An address or size: what names it in messages ("size", "offset") */
int parse_number(const char *text, const char *what, uint64_t *val,
		 char *err, size_t errlen);

/* A value of width bytes: 0x hex or decimal, no suffix */
int parse_value(const char *text, unsigned int width, uint64_t *val,
		char *err, size_t errlen);

/*
 * VALUE or VALUE:MASK, both of width bytes; no MASK: all ones of the
 * width. Bits of VALUE outside MASK are accepted, as setpci does, and
 * masked off by whoever uses them.
 */
int parse_masked(const char *text, unsigned int width, uint64_t *val,
		 uint64_t *mask, char *err, size_t errlen);

/* Read-modify-write: the bits of mask from value, the others from old */
static inline uint64_t masked_merge(uint64_t old, uint64_t value,
				    uint64_t mask)
{
	return (old & ~mask) | (value & mask);
}

/* Width in bits (8, 16, 32, 64) -> bytes */
int parse_width(const char *text, unsigned int *bytes, char *err, size_t errlen);

/* A duration "forever" stands for */
#define DURATION_FOREVER	UINT64_MAX

/*
 * A duration with its unit, in nanoseconds: NUMBER[.FRACTION]UNIT, UNIT
 * one of ns, us, ms, s ("10ms", "1.5s"); a bare number is an error.
 * forever_ok: "forever" is accepted as DURATION_FOREVER.
 */
int parse_duration(const char *text, bool forever_ok, uint64_t *ns,
		   char *err, size_t errlen);

/* Page frame arithmetic for size > 0 bytes at start */
struct pfn_span {
	uint64_t first_pfn;
	uint64_t last_pfn;
	uint64_t pages;
	uint64_t offset;	/* of start inside its first page */
};

void region_pfns(uint64_t start, uint64_t size, unsigned int page_shift,
		 struct pfn_span *s);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The canonical hex+ASCII formatter (the output of `hexdump -C`), with
 * physical addresses in the offset column. No I/O: bytes in, text out.
 */
#ifndef PFNMAP_HEXDUMP_H
#define PFNMAP_HEXDUMP_H

#include <stddef.h>
#include <stdint.h>

/* Upper bound of the text one 16-byte row (or the final line) produces */
#define HEXDUMP_ROW_MAX		96

/* Text produced by feeding len bytes, plus the final line, at most */
#define HEXDUMP_OUT_MAX(len)	(((len) / 16 + 3) * HEXDUMP_ROW_MAX)

/* The code that formats full rows, narrowest first */
enum hexdump_code { HEXDUMP_PORTABLE, HEXDUMP_SSE2, HEXDUMP_SSSE3 };

struct hexdump {
	uint64_t addr;			/* address of row[0] */
	unsigned char row[16];		/* the row being collected */
	unsigned int fill;		/* bytes in row */
	unsigned char prev[16];		/* last row printed or squeezed */
	int have_prev;
	int squeezing;			/* a '*' was printed for this run */
	enum hexdump_code code;
};

/*
 * The code is the widest the CPU runs, or PFNMAP_HEXDUMP_CODE in the
 * environment (portable, sse2 or ssse3) where that is narrower: for tests
 * of every path on one machine.
 */
void hexdump_init(struct hexdump *h, uint64_t start);

/*
 * Format len bytes that follow what was fed before. Writes at most
 * HEXDUMP_OUT_MAX(len) bytes to out and returns how many it wrote.
 * src may be a mapping: it is read once, in ascending order.
 */
size_t hexdump_feed(struct hexdump *h, const void *src, size_t len, char *out);

/* The last partial row, if any, and the final address line */
size_t hexdump_finish(struct hexdump *h, char *out);

#endif

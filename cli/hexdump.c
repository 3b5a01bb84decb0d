/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The canonical hex+ASCII formatter, byte for byte what util-linux
 * `hexdump -C -s START -n LEN` prints, with 64-bit addresses:
 *
 *  - a row is the address (at least 8 lowercase hex digits), two spaces,
 *    16 times "xx " with an extra space after the 8th, " |", the bytes
 *    0x20..0x7e as themselves and all others as '.', "|\n";
 *  - a full row equal to the last printed row is not printed; the first
 *    of a run of such rows prints "*\n" instead, also at the end of input;
 *  - a partial last row is always printed, even when it equals a prefix
 *    of the previous row: its missing bytes are three spaces each in the
 *    hex columns and nothing in the ASCII column;
 *  - the last line is the address after the last byte, unless no byte
 *    was fed at all: then nothing is printed.
 *
 * Addresses wrap modulo 2^64 (hexdump itself stops at 2^63).
 *
 * The hot path is table driven: every byte is one 4-byte copy of "xx  "
 * (the next copy overwrites the 4th byte); the ASCII column is one SSE2
 * select where there is SSE2, else a table look-up per byte.
 */
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "hexdump.h"

#define HX(d)		((d) < 10 ? '0' + (d) : 'a' - 10 + (d))
#define H1(n)		{ HX((n) >> 4), HX((n) & 15), ' ', ' ' }
#define H4(n)		H1(n), H1((n) + 1), H1((n) + 2), H1((n) + 3)
#define H16(n)		H4(n), H4((n) + 4), H4((n) + 8), H4((n) + 12)
#define H64(n)		H16(n), H16((n) + 16), H16((n) + 32), H16((n) + 48)

/* "xx  " for every byte value */
static const char hex_tab[256][4] = { H64(0), H64(64), H64(128), H64(192) };

#define A1(n)		((n) >= 0x20 && (n) < 0x7f ? (n) : '.')
#define A4(n)		A1(n), A1((n) + 1), A1((n) + 2), A1((n) + 3)
#define A16(n)		A4(n), A4((n) + 4), A4((n) + 8), A4((n) + 12)
#define A64(n)		A16(n), A16((n) + 16), A16((n) + 32), A16((n) + 48)

/* The ASCII column's character for every byte value */
static const char asc_tab[256] = { A64(0), A64(64), A64(128), A64(192) };

/* The ASCII column of a full row */
static inline void put_ascii16(char *p, const unsigned char *r)
{
#ifdef __SSE2__
	__m128i v = _mm_loadu_si128((const __m128i *)r);
	__m128i ok = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(0x1f)),
				   _mm_cmplt_epi8(v, _mm_set1_epi8(0x7f)));

	v = _mm_or_si128(_mm_and_si128(ok, v),
			 _mm_andnot_si128(ok, _mm_set1_epi8('.')));
	_mm_storeu_si128((__m128i *)p, v);
#else
	unsigned int i;

	for (i = 0; i < 16; i++)
		p[i] = asc_tab[r[i]];
#endif
}

/* Address of 9 to 16 digits, then two spaces */
static char *put_long_addr(char *p, uint64_t addr)
{
	unsigned int digits = (64 - __builtin_clzll(addr) + 3) / 4;
	unsigned int i;

	for (i = digits; i-- > 0; addr >>= 4)
		p[i] = HX((unsigned int)addr & 15);
	p[digits] = ' ';
	p[digits + 1] = ' ';
	return p + digits + 2;
}

/* Address, then two spaces */
static inline char *put_addr(char *p, uint64_t addr)
{
	uint32_t a = (uint32_t)addr;

	if (addr >> 32)
		return put_long_addr(p, addr);
	memcpy(p, hex_tab[a >> 24], 4);
	memcpy(p + 2, hex_tab[(a >> 16) & 255], 4);
	memcpy(p + 4, hex_tab[(a >> 8) & 255], 4);
	memcpy(p + 6, hex_tab[a & 255], 4);
	return p + 10;
}

/* One full row */
static inline char *put_row(char *p, uint64_t addr, const unsigned char *r)
{
	unsigned int i;

	p = put_addr(p, addr);
	for (i = 0; i < 8; i++)
		memcpy(p + 3 * i, hex_tab[r[i]], 4);
	for (i = 8; i < 16; i++)
		memcpy(p + 1 + 3 * i, hex_tab[r[i]], 4);
	p += 49;
	p[0] = ' ';
	p[1] = '|';
	put_ascii16(p + 2, r);
	p[18] = '|';
	p[19] = '\n';
	return p + 20;
}

/* The partial last row of n (1..15) bytes */
static char *put_partial(char *p, uint64_t addr, const unsigned char *r,
			 unsigned int n)
{
	unsigned int i;

	p = put_addr(p, addr);
	memset(p, ' ', 50);
	for (i = 0; i < n; i++)
		memcpy(p + 3 * i + (i >= 8), hex_tab[r[i]], 3);
	p += 50;
	*p++ = '|';
	for (i = 0; i < n; i++)
		*p++ = asc_tab[r[i]];
	*p++ = '|';
	*p++ = '\n';
	return p;
}

/* Whole rows from s: print each, or squeeze it */
static char *full_rows(struct hexdump *h, const unsigned char *s, size_t rows,
		       char *p)
{
	uint64_t addr = h->addr;
	unsigned char r[16];

	for (; rows; rows--, s += 16, addr += 16) {
		memcpy(r, s, 16);
		if (h->have_prev && !memcmp(r, h->prev, 16)) {
			if (!h->squeezing) {
				*p++ = '*';
				*p++ = '\n';
				h->squeezing = 1;
			}
			continue;
		}
		p = put_row(p, addr, r);
		memcpy(h->prev, r, 16);
		h->have_prev = 1;
		h->squeezing = 0;
	}
	h->addr = addr;
	return p;
}

/*
 * The bytes of a row that is not whole: one by one, in ascending order, as
 * hexdump.h promises (memcpy may load the end first), so that a fault is
 * reported at the first byte it hits.
 */
static void take_bytes(unsigned char *dst, const unsigned char *src, size_t n)
{
	const volatile unsigned char *s = src;
	size_t i;

	for (i = 0; i < n; i++)
		dst[i] = s[i];
}

void hexdump_init(struct hexdump *h, uint64_t start)
{
	memset(h, 0, sizeof(*h));
	h->addr = start;
}

size_t hexdump_feed(struct hexdump *h, const void *src, size_t len, char *out)
{
	const unsigned char *s = src;
	char *p = out;
	size_t n;

	if (!len)
		return 0;
	if (h->fill) {
		n = 16 - h->fill < len ? 16 - h->fill : len;
		take_bytes(h->row + h->fill, s, n);
		h->fill += n;
		s += n;
		len -= n;
		if (h->fill < 16)
			return 0;
		p = full_rows(h, h->row, 1, p);
		h->fill = 0;
	}
	p = full_rows(h, s, len / 16, p);
	s += len & ~(size_t)15;
	h->fill = len & 15;
	take_bytes(h->row, s, h->fill);
	return p - out;
}

size_t hexdump_finish(struct hexdump *h, char *out)
{
	char *p = out;

	if (!h->fill && !h->have_prev)
		return 0;
	if (h->fill) {
		p = put_partial(p, h->addr, h->row, h->fill);
		h->addr += h->fill;
		h->fill = 0;
	}
	p = put_addr(p, h->addr);
	p[-2] = '\n';
	return p - 1 - out;
}

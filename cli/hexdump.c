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
 * Full rows take the fast path: each row is built with stores at fixed
 * positions; its address is copied, made anew only every 16 rows (SWAR
 * arithmetic on 64-bit words). Where there is SSE2 (always on x86-64) the
 * hex and ASCII columns are computed 16 bytes at a time, with SSSE3's
 * pshufb where the CPU has it (asked at run time), else by shifts and
 * masks; elsewhere each byte is a 4-byte copy of "xx  " from a table (the
 * next copy overwrites the 4th byte) and the ASCII column a SWAR select.
 * PFNMAP_HEXDUMP_CODE narrows the choice, so that the tests run every path
 * on every build. Partial rows and the final line are rare: plain code
 * serves them.
 */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#include <tmmintrin.h>
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

/* The text of a row after the address: "  ", hex, "  |", ASCII, "|\n" */
#define ROW_BODY	69

#define ONES		0x0101010101010101ULL

/* 8 lowercase hex digits of v, the most significant first in memory */
static inline void put_hex8(char *p, uint32_t v)
{
	uint64_t x = v;

	/* one nibble a byte, the least significant in the lowest byte */
	x = (x | x << 16) & 0x0000ffff0000ffffULL;
	x = (x | x << 8) & 0x00ff00ff00ff00ffULL;
	x = (x | x << 4) & 0x0f0f0f0f0f0f0f0fULL;
	/* '0' + n, and 'a' - '0' - 10 more where n > 9 (n + 6 carries) */
	x += 0x30 * ONES + 39 * (((x + 6 * ONES) >> 4) & ONES);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	x = __builtin_bswap64(x);
#endif
	memcpy(p, &x, 8);
}

/* Digits of a row address: at least 8, as hexdump's %08.8_Ax */
static inline unsigned int addr_digits(uint64_t addr)
{
	if (!(addr >> 32))
		return 8;
	return (64 - __builtin_clzll(addr) + 3) / 4;
}

/*
 * The address at p, in 16 bytes of which the digits are the first; returns
 * where its two spaces go. The 16 - digits bytes after them are scratch for
 * the caller to overwrite.
 */
static inline char *put_addr16(char *p, uint64_t addr)
{
	unsigned int digits = addr_digits(addr);

	addr <<= 4 * (16 - digits);
	put_hex8(p, (uint32_t)(addr >> 32));
	put_hex8(p + 8, (uint32_t)addr);
	return p + digits;
}

/*
 * Row addresses of a run of rows: all but the last two digits change once
 * every 16 rows, so they are made then and copied, the last two come from
 * hex_tab
 */
struct addr_text {
	uint64_t high;			/* addr >> 8 of text, + 1; 0: none */
	unsigned int digits;
	char text[16];
};

static inline char *put_row_addr(struct addr_text *a, char *p, uint64_t addr)
{
	if (a->high != (addr >> 8) + 1) {
		a->high = (addr >> 8) + 1;
		a->digits = put_addr16(a->text, addr) - a->text;
	}
	memcpy(p, a->text, 16);
	memcpy(p + a->digits - 2, hex_tab[addr & 255], 2);
	return p + a->digits;
}

/* A full row's address and the two spaces after it; returns their end */
static inline char *put_row_head(struct addr_text *a, char *p, uint64_t addr)
{
	p = put_row_addr(a, p, addr);
	memcpy(p, "  ", 2);
	return p + 2;
}

/* Address, then two spaces */
static char *put_addr(char *p, uint64_t addr)
{
	char buf[16];
	unsigned int n = put_addr16(buf, addr) - buf;

	memcpy(p, buf, n);
	p[n] = ' ';
	p[n + 1] = ' ';
	return p + n + 2;
}

/* The ASCII column of 8 bytes, SWAR: 0x20..0x7e as themselves, others '.' */
static inline uint64_t ascii8(uint64_t v)
{
	const uint64_t high = 0x80 * ONES;
	uint64_t x = v & ~high;		/* no carry between bytes */
	/* bit 7: x >= 0x20, x <= 0x7e, and v < 0x80 */
	uint64_t ok = (x + 0x60 * ONES) & ~(x + ONES) & ~v & high;
	uint64_t keep = (ok >> 7) * 0xff;

	return (v & keep) | ('.' * ONES & ~keep);
}

/* One full row, portable */
static char *put_row_portable(struct addr_text *a, char *p, uint64_t addr,
			      const unsigned char *r)
{
	uint64_t lo, hi;
	unsigned int i;

	p = put_row_head(a, p, addr);
	for (i = 0; i < 8; i++)
		memcpy(p + 3 * i, hex_tab[r[i]], 4);
	for (i = 8; i < 16; i++)
		memcpy(p + 1 + 3 * i, hex_tab[r[i]], 4);
	p += 49;
	p[0] = ' ';
	p[1] = '|';
	memcpy(&lo, r, 8);
	memcpy(&hi, r + 8, 8);
	lo = ascii8(lo);
	hi = ascii8(hi);
	memcpy(p + 2, &lo, 8);
	memcpy(p + 10, &hi, 8);
	p[18] = '|';
	p[19] = '\n';
	return p + 20;
}

#ifdef __SSE2__
/* Nibbles 0..15 to '0'..'9', 'a'..'f' */
static __attribute__((always_inline)) inline __m128i hex_digits(__m128i n)
{
	__m128i letter = _mm_cmpgt_epi8(n, _mm_set1_epi8(9));

	return _mm_add_epi8(_mm_add_epi8(n, _mm_set1_epi8('0')),
			    _mm_and_si128(letter, _mm_set1_epi8('a' - '0' - 10)));
}

/*
 * Four units "xx  " to "xx xx xx xx " and 4 spaces: each 64-bit half
 * first closes up its own pair, then the halves close up (shifts and
 * masks: SSE2 has no byte shuffle)
 */
static __attribute__((always_inline)) inline __m128i close_up(__m128i w)
{
	const __m128i lo3 = _mm_set_epi32(0, 0xffffff, 0, 0xffffff);
	const __m128i hi4 = _mm_set_epi32(-1, 0, -1, 0);
	const __m128i first6 = _mm_set_epi32(0, 0, 0xffff, -1);
	const __m128i tail = _mm_set_epi32(0x20202000, 0, 0, 0);
	__m128i x = _mm_or_si128(_mm_and_si128(w, lo3),
				 _mm_srli_epi64(_mm_and_si128(w, hi4), 8));

	x = _mm_or_si128(_mm_and_si128(x, first6),
			 _mm_andnot_si128(first6, _mm_srli_si128(x, 2)));
	return _mm_or_si128(x, tail);
}

/* The ASCII column: 0x20..0x7e as themselves, others '.' */
static __attribute__((always_inline)) inline __m128i ascii16(__m128i v)
{
	__m128i ok = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(0x1f)),
				   _mm_cmplt_epi8(v, _mm_set1_epi8(0x7f)));

	return _mm_or_si128(_mm_and_si128(ok, v),
			    _mm_andnot_si128(ok, _mm_set1_epi8('.')));
}

/* One full row, SSE2: 16 bytes of stores at fixed offsets */
static __attribute__((always_inline)) inline char *
put_row_sse2(struct addr_text *a, char *p, uint64_t addr, __m128i v)
{
	const __m128i sp = _mm_set1_epi8(' ');
	const __m128i low = _mm_set1_epi8(15);
	__m128i hi = hex_digits(_mm_and_si128(_mm_srli_epi16(v, 4), low));
	__m128i lo = hex_digits(_mm_and_si128(v, low));
	__m128i p0 = _mm_unpacklo_epi8(hi, lo);
	__m128i p1 = _mm_unpackhi_epi8(hi, lo);
	char *b = put_row_head(a, p, addr);

	/* each store's last 4 bytes are spaces: the next one overwrites them */
	_mm_storeu_si128((__m128i *)b, close_up(_mm_unpacklo_epi16(p0, sp)));
	_mm_storeu_si128((__m128i *)(b + 12),
			 close_up(_mm_unpackhi_epi16(p0, sp)));
	_mm_storeu_si128((__m128i *)(b + 25),
			 close_up(_mm_unpacklo_epi16(p1, sp)));
	_mm_storeu_si128((__m128i *)(b + 37),
			 close_up(_mm_unpackhi_epi16(p1, sp)));
	_mm_storeu_si128((__m128i *)(b + 51), ascii16(v));
	b[50] = '|';
	memcpy(b + 67, "|\n", 2);
	return b + 69;
}

#if defined(__x86_64__) || defined(__i386__)
#define HAVE_SSSE3_PATH	1
#define SSSE3		__attribute__((target("ssse3")))

/* pshufb's index for "a byte of the source, else 0" */
#define Z		(-128)

/*
 * One full row with SSSE3's byte shuffle: hex digits by table look-up,
 * the hex column in four overlapping shuffled stores; the CPU is asked at
 * run time
 */
static SSSE3 __attribute__((always_inline)) inline char *
put_row_ssse3(struct addr_text *a, char *p, uint64_t addr, __m128i v)
{
	const __m128i digits = _mm_setr_epi8('0', '1', '2', '3', '4', '5',
		'6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f');
	const __m128i low = _mm_set1_epi8(15);
	/*
	 * b[0..15], b[8..23] from bytes 0..7, b[24..39], b[37..52] from 8..15
	 * (the last ends in "  |" and 2 bytes the ASCII column overwrites)
	 */
	const __m128i i0 = _mm_setr_epi8(0, 1, Z, 2, 3, Z, 4, 5, Z, 6, 7, Z,
					 8, 9, Z, 10);
	const __m128i s0 = _mm_setr_epi8(0, 0, ' ', 0, 0, ' ', 0, 0, ' ', 0, 0,
					 ' ', 0, 0, ' ', 0);
	const __m128i i1 = _mm_setr_epi8(Z, 6, 7, Z, 8, 9, Z, 10, 11, Z, 12,
					 13, Z, 14, 15, Z);
	const __m128i s1 = _mm_setr_epi8(' ', 0, 0, ' ', 0, 0, ' ', 0, 0, ' ',
					 0, 0, ' ', 0, 0, ' ');
	const __m128i i2 = _mm_setr_epi8(Z, 0, 1, Z, 2, 3, Z, 4, 5, Z, 6, 7,
					 Z, 8, 9, Z);
	const __m128i i3 = _mm_setr_epi8(8, 9, Z, 10, 11, Z, 12, 13, Z, 14, 15,
					 Z, Z, Z, Z, Z);
	const __m128i s3 = _mm_setr_epi8(0, 0, ' ', 0, 0, ' ', 0, 0, ' ', 0, 0,
					 ' ', ' ', '|', 0, 0);
	__m128i hi = _mm_shuffle_epi8(digits,
				      _mm_and_si128(_mm_srli_epi16(v, 4), low));
	__m128i lo = _mm_shuffle_epi8(digits, _mm_and_si128(v, low));
	__m128i p0 = _mm_unpacklo_epi8(hi, lo);
	__m128i p1 = _mm_unpackhi_epi8(hi, lo);
	char *b = put_row_head(a, p, addr);

	_mm_storeu_si128((__m128i *)b,
			 _mm_or_si128(_mm_shuffle_epi8(p0, i0), s0));
	_mm_storeu_si128((__m128i *)(b + 8),
			 _mm_or_si128(_mm_shuffle_epi8(p0, i1), s1));
	_mm_storeu_si128((__m128i *)(b + 24),
			 _mm_or_si128(_mm_shuffle_epi8(p1, i2), s1));
	_mm_storeu_si128((__m128i *)(b + 37),
			 _mm_or_si128(_mm_shuffle_epi8(p1, i3), s3));
	_mm_storeu_si128((__m128i *)(b + 51), ascii16(v));
	memcpy(b + 67, "|\n", 2);
	return b + 69;
}
#undef Z
#endif

/*
 * Whole rows from s, 16 bytes at a time: print each with PUT_ROW, or
 * squeeze it. A macro, so that each row function is inlined in a loop of
 * its own, compiled for its instruction set.
 */
#define VECTOR_ROWS(NAME, PUT_ROW, ATTR)				\
static ATTR char *NAME(struct hexdump *h, const unsigned char *s,	\
		       size_t rows, char *p)				\
{									\
	__m128i prev = _mm_loadu_si128((const __m128i *)h->prev);	\
	uint64_t addr = h->addr;					\
	int have_prev = h->have_prev, squeezing = h->squeezing;	\
	struct addr_text a = { 0 };					\
	__m128i v;							\
									\
	for (; rows; rows--, s += 16, addr += 16) {			\
		v = _mm_loadu_si128((const __m128i *)s);		\
		if (have_prev &&					\
		    _mm_movemask_epi8(_mm_cmpeq_epi8(v, prev)) == 0xffff) { \
			if (!squeezing) {				\
				memcpy(p, "*\n", 2);			\
				p += 2;					\
				squeezing = 1;				\
			}						\
			continue;					\
		}							\
		p = PUT_ROW(&a, p, addr, v);				\
		prev = v;						\
		have_prev = 1;						\
		squeezing = 0;						\
	}								\
	_mm_storeu_si128((__m128i *)h->prev, prev);			\
	h->have_prev = have_prev;					\
	h->squeezing = squeezing;					\
	h->addr = addr;							\
	return p;							\
}

VECTOR_ROWS(full_rows_sse2, put_row_sse2, )
#ifdef HAVE_SSSE3_PATH
VECTOR_ROWS(full_rows_ssse3, put_row_ssse3, SSSE3)
#endif
#endif

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

/* Whether two rows are equal: two 64-bit compares, no library call */
static inline int same_row(const unsigned char *a, const unsigned char *b)
{
	uint64_t a0, a1, b0, b1;

	memcpy(&a0, a, 8);
	memcpy(&a1, a + 8, 8);
	memcpy(&b0, b, 8);
	memcpy(&b1, b + 8, 8);
	return !((a0 ^ b0) | (a1 ^ b1));
}

/* Whole rows from s, portable: print each, or squeeze it */
static char *full_rows_portable(struct hexdump *h, const unsigned char *s,
				size_t rows, char *p)
{
	struct addr_text a = { 0 };
	uint64_t addr = h->addr;
	unsigned char r[16];

	for (; rows; rows--, s += 16, addr += 16) {
		memcpy(r, s, 16);
		if (h->have_prev && same_row(r, h->prev)) {
			if (!h->squeezing) {
				memcpy(p, "*\n", 2);
				p += 2;
				h->squeezing = 1;
			}
			continue;
		}
		p = put_row_portable(&a, p, addr, r);
		memcpy(h->prev, r, 16);
		h->have_prev = 1;
		h->squeezing = 0;
	}
	h->addr = addr;
	return p;
}

static char *full_rows(struct hexdump *h, const unsigned char *s, size_t rows,
		       char *p)
{
	switch (h->code) {
#ifdef HAVE_SSSE3_PATH
	case HEXDUMP_SSSE3:
		return full_rows_ssse3(h, s, rows, p);
#endif
#ifdef __SSE2__
	case HEXDUMP_SSE2:
		return full_rows_sse2(h, s, rows, p);
#endif
	default:
		return full_rows_portable(h, s, rows, p);
	}
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

/* The widest code this CPU runs */
static enum hexdump_code best_code(void)
{
#ifdef HAVE_SSSE3_PATH
	if (__builtin_cpu_supports("ssse3"))
		return HEXDUMP_SSSE3;
#endif
#ifdef __SSE2__
	return HEXDUMP_SSE2;
#else
	return HEXDUMP_PORTABLE;
#endif
}

/* That, or less as PFNMAP_HEXDUMP_CODE says: read once */
static enum hexdump_code pick_code(void)
{
	static const char *const names[] = {
		[HEXDUMP_PORTABLE] = "portable",
		[HEXDUMP_SSE2] = "sse2",
		[HEXDUMP_SSSE3] = "ssse3",
	};
	static int code = -1;
	const char *e;
	int i;

	if (code >= 0)
		return code;
	code = best_code();
	e = getenv("PFNMAP_HEXDUMP_CODE");
	for (i = 0; e && i < code; i++)
		if (!strcmp(e, names[i]))
			code = i;
	return code;
}

void hexdump_init(struct hexdump *h, uint64_t start)
{
	memset(h, 0, sizeof(*h));
	h->addr = start;
	h->code = pick_code();
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

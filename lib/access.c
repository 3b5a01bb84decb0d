// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Exact-width accesses: io_load and io_store (access.h) with a hook.
 * ACCESS_TRACE lets the unit tests see every access.
 */
#include <string.h>

#include "access.h"

#ifdef ACCESS_TRACE
void access_trace(const volatile void *p, unsigned int width, int store,
		  uint64_t val);
#define TRACE(p, w, s, v)	access_trace(p, w, s, v)
#else
#define TRACE(p, w, s, v)	do { } while (0)
#endif

/* v in the CPU's byte order, as a width-byte integer at p (any alignment) */
static void put_native(void *p, uint64_t v, unsigned int width)
{
	uint8_t b = (uint8_t)v;
	uint16_t h = (uint16_t)v;
	uint32_t w = (uint32_t)v;

	switch (width) {
	case 1:
		memcpy(p, &b, 1);
		break;
	case 2:
		memcpy(p, &h, 2);
		break;
	case 4:
		memcpy(p, &w, 4);
		break;
	default:
		memcpy(p, &v, 8);
		break;
	}
}

uint64_t get_native(const void *p, unsigned int width)
{
	uint8_t b;
	uint16_t h;
	uint32_t w;
	uint64_t v;

	switch (width) {
	case 1:
		memcpy(&b, p, 1);
		return b;
	case 2:
		memcpy(&h, p, 2);
		return h;
	case 4:
		memcpy(&w, p, 4);
		return w;
	default:
		memcpy(&v, p, 8);
		return v;
	}
}

uint64_t io_read(const volatile void *p, unsigned int width)
{
	uint64_t v = io_load(p, width);

	TRACE(p, width, 0, v);
	return v;
}

void io_write(volatile void *p, uint64_t val, unsigned int width)
{
	TRACE(p, width, 1, val);
	io_store(p, val, width);
}

void io_copy_from(void *dst, const volatile void *src, size_t len,
		  unsigned int width)
{
	const volatile char *s = src;
	char *d = dst;
	size_t i;

	for (i = 0; i < len; i += width)
		put_native(d + i, io_read(s + i, width), width);
}

void io_copy_to(volatile void *dst, const void *src, size_t len,
		unsigned int width)
{
	volatile char *d = dst;
	const char *s = src;
	size_t i;

	for (i = 0; i < len; i += width)
		io_write(d + i, get_native(s + i, width), width);
}

void io_fill(volatile void *dst, uint64_t val, size_t len, unsigned int width)
{
	volatile char *d = dst;
	size_t i;

	for (i = 0; i < len; i += width)
		io_write(d + i, val, width);
}

/* val repeated to fill 8 bytes, in memory order */
static uint64_t replicate(uint64_t val, unsigned int width)
{
	unsigned char b[8];
	uint64_t v;
	unsigned int i;

	for (i = 0; i < 8; i += width)
		put_native(b + i, val, width);
	memcpy(&v, b, 8);
	return v;
}

/*
 * Plain stores, 8 bytes at a time once aligned: the compiler vectorizes the
 * loop. A copied pattern buffer would alias dst every 4 KiB and run at a
 * fraction of memory bandwidth. dst is width-aligned, so every 8-byte
 * boundary is a pattern boundary.
 */
void bulk_fill(void *dst, uint64_t val, size_t len, unsigned int width)
{
	unsigned char *d = dst;
	uint64_t v = replicate(val, width), *q;
	size_t n;

	for (; len && ((uintptr_t)d & 7); d += width, len -= width)
		put_native(d, val, width);
	q = (uint64_t *)(void *)d;
	for (n = len / 8; n; n--)
		*q++ = v;
	for (d = (unsigned char *)q, len &= 7; len; d += width, len -= width)
		put_native(d, val, width);
}

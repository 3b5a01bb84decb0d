/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Access loops over a mapping. The exact-width loops are for uncached and
 * write-combined mappings: every access is exactly `width` bytes wide, in
 * ascending address order, each address once. The bulk ones are for
 * write-back memory and may use any instruction.
 */
#ifndef PFNMAP_ACCESS_H
#define PFNMAP_ACCESS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Every 64-bit access is 8-byte aligned (the callers check it), but i386
 * aligns uint64_t to 4: say so, or the atomic may be split (and clang
 * warns that it might be).
 */
typedef uint64_t u64_aligned __attribute__((aligned(8)));

/*
 * One volatile load or store of exactly width bytes; 64-bit ones through
 * __atomic so that a 32-bit build still issues one 8-byte access (x87 or
 * SSE) instead of two 4-byte ones. Inline, for loops that pass a constant
 * width: the switch folds away (cli/memtest.c).
 */
static inline __attribute__((always_inline)) uint64_t
io_load(const volatile void *p, unsigned int width)
{
	switch (width) {
	case 1:
		return *(const volatile uint8_t *)p;
	case 2:
		return *(const volatile uint16_t *)p;
	case 4:
		return *(const volatile uint32_t *)p;
	default:
		return __atomic_load_n((const volatile u64_aligned *)p,
				       __ATOMIC_RELAXED);
	}
}

static inline __attribute__((always_inline)) void
io_store(volatile void *p, uint64_t val, unsigned int width)
{
	switch (width) {
	case 1:
		*(volatile uint8_t *)p = (uint8_t)val;
		break;
	case 2:
		*(volatile uint16_t *)p = (uint16_t)val;
		break;
	case 4:
		*(volatile uint32_t *)p = (uint32_t)val;
		break;
	default:
		__atomic_store_n((volatile u64_aligned *)p, val,
				 __ATOMIC_RELAXED);
		break;
	}
}

/* One element of width bytes at p, in host byte order, as read prints it */
uint64_t get_native(const void *p, unsigned int width);
uint64_t io_read(const volatile void *p, unsigned int width);
void io_write(volatile void *p, uint64_t val, unsigned int width);

/* len is a multiple of width; p is width-aligned */
void io_copy_from(void *dst, const volatile void *src, size_t len,
		  unsigned int width);
void io_copy_to(volatile void *dst, const void *src, size_t len,
		unsigned int width);
void io_fill(volatile void *dst, uint64_t val, size_t len, unsigned int width);

/* Write-back memory: len is a multiple of width */
void bulk_fill(void *dst, uint64_t val, size_t len, unsigned int width);

#endif

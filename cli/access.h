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

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

#if defined(__aarch64__) || defined(__arm__)
/*
 * arm64 and 32-bit ARM: one LDR or STR of the width (LDRB, LDRH; LDRD on
 * arm for 64 bits) from a plain base register, as the kernel's
 * __raw_readl() and __raw_writel() are. For a volatile access in a loop
 * the compiler may pick a pre- or post-indexed form (clang does, in
 * memtest's fills), which an emulated device's BAR cannot take in a KVM
 * guest: its abort carries no instruction syndrome (ISV is 0), so KVM
 * cannot emulate the access; QEMU then injects an external abort (a bus
 * error where there should be none), other VMMs stop. The "Q" operand
 * (a base register, no offset) names the exact bytes accessed, so the
 * compiler orders them as it would the volatile access, without a
 * "memory" clobber reloading everything in memtest's loops.
 *
 * On 32-bit ARM the generic __atomic code below would make a 64-bit load
 * an LDREXD and a 64-bit store an LDREXD/STREXD loop: exclusive accesses,
 * which Device memory need not support (one may fault, or STREXD never
 * succeed and the loop never end), and a store that reads the register
 * first, against "each address once". LDRD and STRD of an 8-byte aligned
 * address (the callers check it; ARM faults an unaligned one on Device
 * memory) are one instruction, but ARMv7 does not promise that a device
 * sees one access (QEMU's arrive as two word accesses), so window.c
 * refuses 64-bit accesses to uncached and write-combined memory there:
 * these serve memory mapped write-back (memtest) and regular files.
 */
#ifdef __aarch64__
#define IO_W(n)	"%w" #n			/* a register's 32-bit view */
#define IO_LD64	"ldr %x0, %1"
#define IO_ST64	"str %x1, %0"
#define IO_IN	"rZ"			/* wzr or xzr for a zero */
#else
#define IO_W(n)	"%" #n
#define IO_LD64	"ldrd %0, %H0, %1"	/* the pair in memory order */
#define IO_ST64	"strd %1, %H1, %0"
#define IO_IN	"r"
#endif

static inline __attribute__((always_inline)) uint64_t
io_load(const volatile void *p, unsigned int width)
{
	uint32_t v;
	uint64_t d;

	switch (width) {
	case 1:
		__asm__ volatile("ldrb " IO_W(0) ", %1" : "=r" (v)
				 : "Q" (*(const volatile uint8_t *)p));
		return v;
	case 2:
		__asm__ volatile("ldrh " IO_W(0) ", %1" : "=r" (v)
				 : "Q" (*(const volatile uint16_t *)p));
		return v;
	case 4:
		__asm__ volatile("ldr " IO_W(0) ", %1" : "=r" (v)
				 : "Q" (*(const volatile uint32_t *)p));
		return v;
	default:
		__asm__ volatile(IO_LD64 : "=r" (d)
				 : "Q" (*(const volatile u64_aligned *)p));
		return d;
	}
}

static inline __attribute__((always_inline)) void
io_store(volatile void *p, uint64_t val, unsigned int width)
{
	switch (width) {
	case 1:
		__asm__ volatile("strb " IO_W(1) ", %0"
				 : "=Q" (*(volatile uint8_t *)p)
				 : IO_IN ((uint32_t)val));
		break;
	case 2:
		__asm__ volatile("strh " IO_W(1) ", %0"
				 : "=Q" (*(volatile uint16_t *)p)
				 : IO_IN ((uint32_t)val));
		break;
	case 4:
		__asm__ volatile("str " IO_W(1) ", %0"
				 : "=Q" (*(volatile uint32_t *)p)
				 : IO_IN ((uint32_t)val));
		break;
	default:
		__asm__ volatile(IO_ST64 : "=Q" (*(volatile u64_aligned *)p)
				 : IO_IN (val));
		break;
	}
}
#undef IO_W
#undef IO_LD64
#undef IO_ST64
#undef IO_IN
#else
/*
 * One volatile load or store of exactly width bytes; 64-bit ones through
 * __atomic so that a 32-bit build still issues one 8-byte access (x87 or
 * SSE) instead of two 4-byte ones. Inline, for loops that pass a constant
 * width: the switch folds away (lib/memtest.c).
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
#endif

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

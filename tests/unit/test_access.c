// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The access loops (lib/access.c), built here with ACCESS_TRACE so that every
 * exact-width access is recorded: io_copy_from, io_copy_to, io_fill, io_read
 * and io_write must make accesses of exactly the width, in ascending order,
 * each address once, covering exactly [p, p + len), in the CPU's byte order,
 * touching no byte outside. bulk_fill must write exactly len bytes of the
 * repeated value. Linked without pfnmap_core: access.c is compiled in here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#define ACCESS_TRACE
#include "../../lib/access.c"
#include "util.h"

#define GUARD		64		/* bytes checked on each side */
#define AREA		(3 * 4096 + 256)	/* room for > one bulk pattern */
#define MAX_TRACE	(AREA + 16)
#define GUARD_BYTE	0xa5

struct access {
	uintptr_t addr;
	unsigned int width;
	int store;
	uint64_t val;
};

static struct access trace[MAX_TRACE];
static size_t ntrace;
static int trace_overflow;

void access_trace(const volatile void *p, unsigned int width, int store,
		  uint64_t val)
{
	if (ntrace == MAX_TRACE) {
		trace_overflow = 1;
		return;
	}
	trace[ntrace].addr = (uintptr_t)p;
	trace[ntrace].width = width;
	trace[ntrace].store = store;
	trace[ntrace].val = val;
	ntrace++;
}

static void trace_reset(void)
{
	ntrace = 0;
	trace_overflow = 0;
}

/* The memory under test, with guard bytes around it; 16-byte aligned */
static _Alignas(16) unsigned char mem[GUARD + AREA + GUARD];
static _Alignas(16) unsigned char buf[GUARD + AREA + GUARD];
static unsigned char pattern[AREA];

static const unsigned int widths[] = { 1, 2, 4, 8 };

static uint64_t mask_of(unsigned int width)
{
	return width == 8 ? UINT64_MAX : (1ULL << (8 * width)) - 1;
}

/* val as width bytes in the CPU's byte order, computed without memcpy */
static void cpu_bytes(uint64_t val, unsigned int width, unsigned char *out)
{
	unsigned int i;

	/*
	 * i < 8 too: width never exceeds it, but gcc 12 at -O2 (aarch64
	 * Release) cannot see that through the inlined callers and warns of
	 * a write past out[8]
	 */
	for (i = 0; i < width && i < 8; i++) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		out[width - 1 - i] = (unsigned char)(val >> (8 * i));
#else
		out[i] = (unsigned char)(val >> (8 * i));
#endif
	}
}

/* The value the CPU reads from width bytes at p */
static uint64_t cpu_value(const unsigned char *p, unsigned int width)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < width; i++) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		v = v << 8 | p[i];
#else
		v = v << 8 | p[width - 1 - i];
#endif
	}
	return v;
}

static void fill_pattern(unsigned char *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 7 + seed * 31 + 1);
}

static void guard_all(unsigned char *area)
{
	memset(area, GUARD_BYTE, GUARD + AREA + GUARD);
}

/* Every byte of area outside [off, off + len) of its inner part is a guard */
static void assert_untouched(const unsigned char *area, size_t off, size_t len)
{
	size_t i;

	for (i = 0; i < GUARD + off; i++)
		assert_int_equal(area[i], GUARD_BYTE);
	for (i = GUARD + off + len; i < GUARD + AREA + GUARD; i++)
		assert_int_equal(area[i], GUARD_BYTE);
}

/* The trace is exactly the width-sized accesses that cover [p, p + len) */
static void assert_trace(const unsigned char *p, size_t len, unsigned int width,
			 int store)
{
	size_t i;

	assert_false(trace_overflow);
	assert_int_equal(ntrace, len / width);
	for (i = 0; i < ntrace; i++) {
		assert_true(trace[i].addr == (uintptr_t)(p + i * width));
		assert_int_equal(trace[i].width, width);
		assert_int_equal(trace[i].store, store);
	}
}

static const size_t lengths[] = { 0, 8, 16, 24, 64, 200, 4096, 4104 };
static const size_t offsets[] = { 0, 8, 16, 40, 4088 };

static void check_copy_from(unsigned int width, size_t off, size_t len)
{
	unsigned char *src = mem + GUARD + off;
	size_t i;

	guard_all(mem);
	fill_pattern(mem + GUARD, AREA, (unsigned int)(off + len));
	guard_all(buf);
	trace_reset();
	io_copy_from(buf + GUARD + off, src, len, width);
	assert_trace(src, len, width, 0);
	for (i = 0; i < ntrace; i++)
		assert_true(trace[i].val == cpu_value(src + i * width, width));
	assert_memory_equal(buf + GUARD + off, src, len);
	assert_untouched(buf, off, len);
}

static void check_copy_to(unsigned int width, size_t off, size_t len)
{
	unsigned char *dst = mem + GUARD + off;
	size_t i;

	fill_pattern(pattern, len, width);
	guard_all(mem);
	trace_reset();
	io_copy_to(dst, pattern, len, width);
	assert_trace(dst, len, width, 1);
	for (i = 0; i < ntrace; i++)
		assert_true(trace[i].val ==
			    cpu_value(pattern + i * width, width));
	assert_memory_equal(dst, pattern, len);
	assert_untouched(mem, off, len);
}

static void check_fill(unsigned int width, size_t off, size_t len,
		       uint64_t val)
{
	unsigned char *dst = mem + GUARD + off, unit[8];
	size_t i;

	cpu_bytes(val, width, unit);
	guard_all(mem);
	trace_reset();
	io_fill(dst, val, len, width);
	assert_trace(dst, len, width, 1);
	for (i = 0; i < ntrace; i++)
		assert_true((trace[i].val & mask_of(width)) ==
			    (val & mask_of(width)));
	for (i = 0; i < len; i += width)
		assert_memory_equal(dst + i, unit, width);
	assert_untouched(mem, off, len);
}

/* Offsets and lengths that are multiples of the width */
#define FOR_EACH_CASE(w, o, l)						\
	for (size_t oi_ = 0; oi_ < ARRAY_SIZE(offsets); oi_++)		\
		for (size_t li_ = 0; li_ < ARRAY_SIZE(lengths); li_++)	\
			if (((o) = offsets[oi_]) % (w) == 0 &&		\
			    ((l) = lengths[li_]) % (w) == 0 &&		\
			    (o) + (l) <= AREA)

static void test_copy_from(void **state)
{
	size_t off, len;
	unsigned int i;

	(void)state;
	for (i = 0; i < 4; i++)
		FOR_EACH_CASE(widths[i], off, len)
			check_copy_from(widths[i], off, len);
	/* odd addresses for byte accesses */
	check_copy_from(1, 1, 3);
	check_copy_from(1, 4095, 2);
}

static void test_copy_to(void **state)
{
	size_t off, len;
	unsigned int i;

	(void)state;
	for (i = 0; i < 4; i++)
		FOR_EACH_CASE(widths[i], off, len)
			check_copy_to(widths[i], off, len);
	check_copy_to(1, 1, 3);
	check_copy_to(1, 4095, 2);
	check_copy_to(2, 6, 2);
}

static void test_fill(void **state)
{
	static const uint64_t vals[] = {
		0, 0x5a, 0xff, 0x1234, 0xdeadbeef, 0x0102030405060708ULL,
		UINT64_MAX,
	};
	size_t off, len, v;
	unsigned int i;

	(void)state;
	for (v = 0; v < ARRAY_SIZE(vals); v++)
		for (i = 0; i < 4; i++)
			FOR_EACH_CASE(widths[i], off, len)
				check_fill(widths[i], off, len,
					   vals[v] & mask_of(widths[i]));
	check_fill(1, 3, 5, 0x7e);
}

static void test_read_write(void **state)
{
	static const uint64_t val = 0x0102030405060708ULL;
	unsigned char want[8];
	unsigned int i;
	uint64_t got;

	(void)state;
	for (i = 0; i < 4; i++) {
		unsigned int w = widths[i];
		unsigned char *p = mem + GUARD + 8 * w;

		guard_all(mem);
		trace_reset();
		io_write(p, val & mask_of(w), w);
		assert_int_equal(ntrace, 1);
		assert_true(trace[0].addr == (uintptr_t)p);
		assert_int_equal(trace[0].width, w);
		assert_int_equal(trace[0].store, 1);
		cpu_bytes(val, w, want);
		assert_memory_equal(p, want, w);
		assert_untouched(mem, 8 * w, w);

		trace_reset();
		got = io_read(p, w);
		assert_true(got == (val & mask_of(w)));
		assert_int_equal(ntrace, 1);
		assert_true(trace[0].addr == (uintptr_t)p);
		assert_int_equal(trace[0].width, w);
		assert_int_equal(trace[0].store, 0);
		assert_true(trace[0].val == got);
		assert_untouched(mem, 8 * w, w);
	}
}

/* The byte order, spelt out for the usual little-endian CPU */
static void test_byte_order(void **state)
{
	static const unsigned char bytes[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	unsigned char *p = mem + GUARD;

	(void)state;
	memcpy(p, bytes, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	assert_true(io_read(p, 2) == 0x0102);
	assert_true(io_read(p, 4) == 0x01020304);
	assert_true(io_read(p, 8) == 0x0102030405060708ULL);
#else
	assert_true(io_read(p, 1) == 0x01);
	assert_true(io_read(p, 2) == 0x0201);
	assert_true(io_read(p, 4) == 0x04030201);
	assert_true(io_read(p, 8) == 0x0807060504030201ULL);
	io_write(p, 0x1122334455667788ULL, 8);
	assert_int_equal(p[0], 0x88);
	assert_int_equal(p[7], 0x11);
	io_write(p, 0xaabb, 2);
	assert_int_equal(p[0], 0xbb);
	assert_int_equal(p[1], 0xaa);
	assert_int_equal(p[2], 0x66);
#endif
}

static void check_bulk(unsigned int width, size_t off, size_t len,
		       uint64_t val)
{
	unsigned char *dst = mem + GUARD + off, unit[8];
	size_t i;

	print_message("bulk_fill width %u off %zu len %zu\n", width, off, len);
	cpu_bytes(val, width, unit);
	guard_all(mem);
	trace_reset();
	bulk_fill(dst, val, len, width);
	for (i = 0; i < len; i += width)
		assert_memory_equal(dst + i, unit, width);
	assert_untouched(mem, off, len);
}

static void test_bulk_fill(void **state)
{
	static const size_t blens[] = {
		0, 8, 16, 24, 4088, 4096, 4104, 8192, 2 * 4096 + 24, AREA - 8,
	};
	static const size_t boffs[] = { 0, 8, 24 };
	size_t o, l;
	unsigned int i;

	(void)state;
	for (i = 0; i < 4; i++)
		for (o = 0; o < ARRAY_SIZE(boffs); o++)
			for (l = 0; l < ARRAY_SIZE(blens); l++)
				if (boffs[o] + blens[l] <= AREA)
					check_bulk(widths[i], boffs[o],
						   blens[l],
						   0x8877665544332211ULL &
						   mask_of(widths[i]));
	/* write-back memory: any alignment */
	check_bulk(4, 3, 4100, 0xcafef00d);
	check_bulk(8, 5, 8, 0x0102030405060708ULL);
	check_bulk(1, 7, 9, 0x00);
	check_bulk(2, 1, 2 * 4096 + 2, 0xbeef);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_from),
		cmocka_unit_test(test_copy_to),
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_read_write),
		cmocka_unit_test(test_byte_order),
		cmocka_unit_test(test_bulk_fill),
	};

	return cmocka_run_group_tests_name("access", tests, NULL, NULL);
}

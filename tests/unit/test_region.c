// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The region grammar (lib/region.c): numbers, regions, values, widths and
 * page frame arithmetic. Every error case checks the return value and the
 * exact message a user would read after "pfnmap: CMD: ".
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "region.h"
#include "util.h"

#define SUFFIXES	"(K, M, G, T or KiB, MiB, GiB, TiB)"
#define NOT_NUMBER	"is not a number (0x hex or decimal)"
#define WRAPS		"wraps around the end of the 64-bit physical address space"

/* Poisoned so that a success that forgets to set something shows */
#define POISON		0x5a5a5a5a5a5a5a5aULL

static void number_ok(const char *text, uint64_t want)
{
	char err[REGION_ERR_MAX] = "";
	uint64_t v = POISON;

	print_message("parse_number(\"%s\")\n", text);
	assert_int_equal(parse_number(text, "size", &v, err, sizeof(err)), 0);
	assert_true(v == want);
	assert_string_equal(err, "");
}

static void number_err(const char *text, const char *msg)
{
	char err[REGION_ERR_MAX] = "";
	uint64_t v;

	print_message("parse_number(\"%s\")\n", text);
	assert_int_equal(parse_number(text, "size", &v, err, sizeof(err)), -1);
	assert_string_equal(err, msg);
}

static void region_ok(const char *text, uint64_t start, uint64_t size,
		      bool has_size)
{
	char err[REGION_ERR_MAX] = "";
	struct region r;

	memset(&r, 0x5a, sizeof(r));
	print_message("region_parse(\"%s\")\n", text);
	assert_int_equal(region_parse(text, &r, err, sizeof(err)), 0);
	assert_int_equal(r.kind, REGION_PHYS);
	assert_true(r.start == start);
	assert_true(r.size == size);
	assert_int_equal(r.has_size, has_size);
	assert_ptr_equal(r.text, text);
	assert_string_equal(err, "");
}

static void region_err(const char *text, const char *msg)
{
	char err[REGION_ERR_MAX] = "";
	struct region r;

	print_message("region_parse(\"%s\")\n", text);
	assert_int_equal(region_parse(text, &r, err, sizeof(err)), -1);
	assert_string_equal(err, msg);
}

static void value_ok(const char *text, unsigned int width, uint64_t want)
{
	char err[REGION_ERR_MAX] = "";
	uint64_t v = POISON;

	print_message("parse_value(\"%s\", %u)\n", text, width);
	assert_int_equal(parse_value(text, width, &v, err, sizeof(err)), 0);
	assert_true(v == want);
	assert_string_equal(err, "");
}

static void value_err(const char *text, unsigned int width, const char *msg)
{
	char err[REGION_ERR_MAX] = "";
	uint64_t v;

	print_message("parse_value(\"%s\", %u)\n", text, width);
	assert_int_equal(parse_value(text, width, &v, err, sizeof(err)), -1);
	assert_string_equal(err, msg);
}

static void test_number_plain(void **state)
{
	(void)state;
	number_ok("0", 0);
	number_ok("4096", 4096);
	number_ok("0x180000000", 0x180000000ULL);
	number_ok("0X1f", 0x1f);
	number_ok("0xABCdef", 0xabcdef);
	/* C literal, but no octal: a leading 0 is still decimal */
	number_ok("010", 10);
	number_ok("18446744073709551615", UINT64_MAX);
	number_ok("0xffffffffffffffff", UINT64_MAX);
	number_ok("0x0000000000000000000001", 1);
}

static void test_number_suffixes(void **state)
{
	(void)state;
	number_ok("4K", 4096);
	number_ok("4k", 4096);
	number_ok("4KiB", 4096);
	number_ok("1M", 1ULL << 20);
	number_ok("1MiB", 1ULL << 20);
	number_ok("3m", 3ULL << 20);
	number_ok("2G", 2ULL << 30);
	number_ok("2GiB", 2ULL << 30);
	number_ok("1T", 1ULL << 40);
	number_ok("1TiB", 1ULL << 40);
	number_ok("0x10K", 0x4000);
	number_ok("0K", 0);
	/* the largest that fit */
	number_ok("16777215T", 16777215ULL << 40);
	number_ok("0x3fffffffffffffK", 0x3fffffffffffffULL << 10);
}

static void test_number_overflow(void **state)
{
	(void)state;
	number_err("18446744073709551616",
		   "size '18446744073709551616' does not fit in 64 bits");
	number_err("99999999999999999999",
		   "size '99999999999999999999' does not fit in 64 bits");
	number_err("0x1ffffffffffffffff",
		   "size '0x1ffffffffffffffff' does not fit in 64 bits");
	number_err("0x10000000000000000",
		   "size '0x10000000000000000' does not fit in 64 bits");
	number_err("0xffffffffffffffffK",
		   "size '0xffffffffffffffffK' does not fit in 64 bits");
	number_err("0x40000000000000K",
		   "size '0x40000000000000K' does not fit in 64 bits");
	number_err("16777216T", "size '16777216T' does not fit in 64 bits");
	number_err("17179869184GiB",
		   "size '17179869184GiB' does not fit in 64 bits");
}

static void test_number_junk(void **state)
{
	(void)state;
	number_err("", "size '' " NOT_NUMBER);
	number_err("abc", "size 'abc' " NOT_NUMBER);
	number_err(" 4", "size ' 4' " NOT_NUMBER);
	number_err("K", "size 'K' " NOT_NUMBER);
	number_err("4Q", "size '4Q': 'Q' is not a size suffix " SUFFIXES);
	number_err("4KB", "size '4KB': 'KB' is not a size suffix " SUFFIXES);
	number_err("4Ki", "size '4Ki': 'Ki' is not a size suffix " SUFFIXES);
	number_err("4Kx", "size '4Kx': 'Kx' is not a size suffix " SUFFIXES);
	number_err("4 K", "size '4 K': ' K' is not a size suffix " SUFFIXES);
	number_err("0x", "size '0x': 'x' is not a size suffix " SUFFIXES);
	number_err("0x1g0", "size '0x1g0': 'g0' is not a size suffix "
		   SUFFIXES);
	number_err("12abc", "size '12abc': 'abc' is not a size suffix "
		   SUFFIXES);
	/* a whole number with more after it: parse_number wants one number */
	number_err("4K+1", "size '4K+1': unexpected '+1' after the number");
	number_err("4-", "size '4-': unexpected '-' after the number");
}

static void test_number_what(void **state)
{
	char err[REGION_ERR_MAX];
	uint64_t v;

	(void)state;
	assert_int_equal(parse_number("x", "offset", &v, err, sizeof(err)), -1);
	assert_string_equal(err, "offset 'x' " NOT_NUMBER);
	/* a short buffer truncates the message, never overruns it */
	memset(err, 'Z', sizeof(err));
	assert_int_equal(parse_number("x", "offset", &v, err, 8), -1);
	assert_string_equal(err, "offset ");
	assert_int_equal(err[8], 'Z');
}

static void test_region_size(void **state)
{
	(void)state;
	region_ok("0x180000000+4M", 0x180000000ULL, 4ULL << 20, true);
	region_ok("0x180000000+0x10", 0x180000000ULL, 16, true);
	region_ok("4G+4K", 4ULL << 30, 4096, true);
	region_ok("4096+1", 4096, 1, true);
	region_ok("0x1003+5", 0x1003, 5, true);
	region_ok("0+0xffffffffffffffff", 0, UINT64_MAX, true);
	region_ok("1+0xffffffffffffffff", 1, UINT64_MAX, true);
	region_ok("0xffffffffffffffff+1", UINT64_MAX, 1, true);
	region_ok("0xfffffffffffff000+4K", 0xfffffffffffff000ULL, 4096, true);
	region_ok("1T+1TiB", 1ULL << 40, 1ULL << 40, true);
}

static void test_region_end(void **state)
{
	(void)state;
	region_ok("0xfed00000-0xfed003ff", 0xfed00000, 0x400, true);
	region_ok("0x1000-0x1000", 0x1000, 1, true);
	region_ok("1K-2K", 1024, 1025, true);
	region_ok("0x17ffffff0-0x18000000f", 0x17ffffff0ULL, 0x20, true);
	region_ok("1-0xffffffffffffffff", 1, UINT64_MAX, true);
	region_ok("0-0xfffffffffffffffe", 0, UINT64_MAX, true);
	region_ok("0xffffffffffffffff-0xffffffffffffffff", UINT64_MAX, 1,
		  true);
}

static void test_region_plain(void **state)
{
	(void)state;
	region_ok("0x180000000", 0x180000000ULL, 1, false);
	region_ok("0", 0, 1, false);
	region_ok("4G", 4ULL << 30, 1, false);
	region_ok("0xffffffffffffffff", UINT64_MAX, 1, false);
}

static void test_region_errors(void **state)
{
	(void)state;
	region_err("", "empty region; write START+SIZE, START-END or START");
	region_err("0x1000+0", "region '0x1000+0': the size is zero");
	region_err("0x1000+0K", "region '0x1000+0K': the size is zero");
	region_err("0x2000-0x1fff", "region '0x2000-0x1fff': end 0x1fff lies "
		   "before start 0x2000 (END is inclusive)");
	region_err("4G-0", "region '4G-0': end 0x0 lies before start "
		   "0x100000000 (END is inclusive)");
	region_err("0xffffffffffffffff+2",
		   "region '0xffffffffffffffff+2': " WRAPS);
	region_err("0xfffffffffffff000+1M",
		   "region '0xfffffffffffff000+1M': " WRAPS);
	region_err("1+0xffffffffffffffff0", "size '0xffffffffffffffff0' does "
		   "not fit in 64 bits");
	region_err("2+0xffffffffffffffff",
		   "region '2+0xffffffffffffffff': " WRAPS);
	/* 2^64 bytes: END inclusive makes it expressible, a size not */
	region_err("0-0xffffffffffffffff", "region '0-0xffffffffffffffff': "
		   "2^64 bytes do not fit in a size");
	region_err("0+16777216T", "size '16777216T' does not fit in 64 bits");
	region_err("0x1ffffffffffffffff+1",
		   "start '0x1ffffffffffffffff' does not fit in 64 bits");
	region_err("18446744073709551616",
		   "start '18446744073709551616' does not fit in 64 bits");
	region_err("0xffffffffffffffffK+1",
		   "start '0xffffffffffffffffK' does not fit in 64 bits");
	region_err("0-0x1ffffffffffffffff",
		   "end '0x1ffffffffffffffff' does not fit in 64 bits");
}

static void test_region_syntax(void **state)
{
	(void)state;
	region_err("abc", "start 'abc' " NOT_NUMBER);
	region_err("+4K", "start '' " NOT_NUMBER);
	region_err("-5", "start '' " NOT_NUMBER);
	region_err("0x1000+", "size '' " NOT_NUMBER);
	region_err("0x1000-", "end '' " NOT_NUMBER);
	region_err("0x1000+x", "size 'x' " NOT_NUMBER);
	region_err("0x1000++4", "size '' " NOT_NUMBER);
	region_err("0x1000x", "start '0x1000x': 'x' is not a size suffix "
		   SUFFIXES);
	region_err("0x1000+4Z", "size '4Z': 'Z' is not a size suffix "
		   SUFFIXES);
	region_err("0x1000+4KB", "size '4KB': 'KB' is not a size suffix "
		   SUFFIXES);
	region_err("1Q-2K", "start '1Q': 'Q' is not a size suffix " SUFFIXES);
	region_err("0x1000+4K+4K", "region '0x1000+4K+4K': unexpected '+4K' "
		   "after the size");
	region_err("0x1000-0x2000-1", "region '0x1000-0x2000-1': unexpected "
		   "'-1' after the end");
	region_err("0x1000+4-", "region '0x1000+4-': unexpected '-' after "
		   "the size");
	region_err("0x1000 +4", "start '0x1000 ': ' ' is not a size suffix "
		   SUFFIXES);
}

static void test_value(void **state)
{
	(void)state;
	value_ok("0", 1, 0);
	value_ok("0xff", 1, 0xff);
	value_ok("255", 1, 255);
	value_ok("0xffff", 2, 0xffff);
	value_ok("65535", 2, 65535);
	value_ok("0xffffffff", 4, 0xffffffff);
	value_ok("4294967295", 4, 0xffffffff);
	value_ok("0xffffffffffffffff", 8, UINT64_MAX);
	value_ok("18446744073709551615", 8, UINT64_MAX);
	value_ok("0x12", 8, 0x12);
	value_ok("010", 4, 10);
	value_err("0x100", 1, "value '0x100' does not fit in --width=8 "
		  "(0 to 0xff)");
	value_err("256", 1, "value '256' does not fit in --width=8 (0 to 0xff)");
	value_err("0x10000", 2, "value '0x10000' does not fit in --width=16 "
		  "(0 to 0xffff)");
	value_err("0x100000000", 4, "value '0x100000000' does not fit in "
		  "--width=32 (0 to 0xffffffff)");
	value_err("0x10000000000000000", 8, "value '0x10000000000000000' does "
		  "not fit in 64 bits");
	value_err("18446744073709551616", 8, "value '18446744073709551616' "
		  "does not fit in 64 bits");
	value_err("", 4, "value '' " NOT_NUMBER);
	value_err("-1", 4, "value '-1' " NOT_NUMBER);
	value_err("x1", 4, "value 'x1' " NOT_NUMBER);
	value_err("4K", 4, "value '4K': unexpected 'K' after the number");
	value_err("12abc", 4, "value '12abc': unexpected 'abc' after the "
		  "number");
	value_err("0x", 4, "value '0x': unexpected 'x' after the number");
	value_err("1 ", 4, "value '1 ': unexpected ' ' after the number");
}

static void masked_ok(const char *text, unsigned int width, uint64_t want,
		      uint64_t want_mask)
{
	char err[REGION_ERR_MAX];
	uint64_t v = 0, m = 0;

	print_message("parse_masked(\"%s\", %u)\n", text, width);
	assert_int_equal(parse_masked(text, width, &v, &m, err, sizeof(err)), 0);
	assert_int_equal(v, want);
	assert_int_equal(m, want_mask);
}

static void masked_err(const char *text, unsigned int width, const char *msg)
{
	char err[REGION_ERR_MAX];
	uint64_t v, m;

	print_message("parse_masked(\"%s\", %u)\n", text, width);
	assert_int_equal(parse_masked(text, width, &v, &m, err, sizeof(err)), -1);
	assert_string_equal(err, msg);
}

static void test_masked(void **state)
{
	(void)state;
	masked_ok("0x12", 1, 0x12, 0xff);
	masked_ok("0x12", 8, 0x12, UINT64_MAX);
	masked_ok("0xa0:0xf0", 1, 0xa0, 0xf0);
	/* bits outside the mask are kept here, dropped by the merge (setpci) */
	masked_ok("0xff:0x0f", 1, 0xff, 0x0f);
	masked_ok("1:0", 4, 1, 0);
	masked_ok("0xffffffffffffffff:0xffffffffffffffff", 8, UINT64_MAX,
		  UINT64_MAX);
	masked_err("0x100:1", 1, "value '0x100' does not fit in --width=8 (0 to 0xff)");
	masked_err("1:0x100", 1, "mask '0x100' does not fit in --width=8 (0 to 0xff)");
	masked_err("1:", 4, "'1:': no mask after ':'; write VALUE:MASK (0x hex or decimal)");
	masked_err(":1", 4, "value '' " NOT_NUMBER);
	masked_err("1:x", 4, "mask 'x' " NOT_NUMBER);
	masked_err("1:2:3", 4, "mask '2:3': unexpected ':3' after the number");
	masked_err("1K:1", 4, "value '1K': unexpected 'K' after the number");
}

static void test_merge(void **state)
{
	(void)state;
	assert_int_equal(masked_merge(0x0f, 0xa0, 0xf0), 0xaf);
	assert_int_equal(masked_merge(0xff, 0x00, 0x0f), 0xf0);	/* clear */
	assert_int_equal(masked_merge(0x00, 0x81, 0x81), 0x81);	/* set */
	assert_int_equal(masked_merge(0x12, 0xff, 0x0f), 0x1f);
	assert_int_equal(masked_merge(0x12, 0xff, 0), 0x12);
	assert_int_equal(masked_merge(UINT64_MAX, 0, 1ULL << 63),
			 UINT64_MAX >> 1);
}

static void test_duration(void **state)
{
	static const struct {
		const char *text;
		uint64_t ns;
	} good[] = {
		{ "0s", 0 }, { "1ns", 1 }, { "10ms", 10000000 },
		{ "1.5s", 1500000000 }, { "0.5us", 500 }, { "250us", 250000 },
		{ "0.000000001s", 1 }, { "18446744073s", 18446744073000000000ULL },
	};
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "10", "duration '10' has no unit; write ns, us, ms or s after the number (10ms)" },
		{ "", "duration '': a number and a unit: ns, us, ms or s (10ms, 1.5s)" },
		{ "forever", "duration 'forever': a number and a unit: ns, us, ms or s (10ms, 1.5s)" },
		{ "1m", "duration '1m': 'm' is not a unit; the units are ns, us, ms and s" },
		{ "1 s", "duration '1 s': ' s' is not a unit; the units are ns, us, ms and s" },
		{ "1.s", "duration '1.s': digits after the '.'" },
		{ "0.5ns", "duration '0.5ns' is finer than a nanosecond" },
		{ "0.0000000001s", "duration '0.0000000001s': at most 9 digits after the '.'" },
		{ "18446744074s", "duration '18446744074s' is too long" },
		{ "99999999999999999999ns", "duration '99999999999999999999ns' is too long" },
		{ "-1s", "duration '-1s': a number and a unit: ns, us, ms or s (10ms, 1.5s)" },
		{ "0x10ms", "duration '0x10ms': 'x10ms' is not a unit; the units are ns, us, ms and s" },
	};
	char err[REGION_ERR_MAX];
	uint64_t ns;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		print_message("parse_duration(\"%s\")\n", good[i].text);
		assert_int_equal(parse_duration(good[i].text, false, &ns, err, sizeof(err)), 0);
		assert_int_equal(ns, good[i].ns);
	}
	assert_int_equal(parse_duration("forever", true, &ns, err, sizeof(err)), 0);
	assert_true(ns == DURATION_FOREVER);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ns = 7;
		print_message("parse_duration(\"%s\")\n", bad[i].text);
		assert_int_equal(parse_duration(bad[i].text, false, &ns, err, sizeof(err)), -1);
		assert_string_equal(err, bad[i].msg);
		assert_int_equal(ns, 7);
	}
	assert_int_equal(parse_duration("1", true, &ns, err, sizeof(err)), -1);
	assert_string_equal(err,
			    "duration '1' has no unit; write ns, us, ms or s after the number "
			    "(1ms)");
	assert_int_equal(parse_duration("x", true, &ns, err, sizeof(err)), -1);
	assert_string_equal(err,
			    "duration 'x': a number and a unit: ns, us, ms or s (10ms, 1.5s), or "
			    "forever");
}

static void test_width(void **state)
{
	static const char *const bad[] = { "", "0", "1", "2", "4", "12",
					   "032", "8 ", "64K", "128", "0x20" };
	char err[REGION_ERR_MAX], want[REGION_ERR_MAX];
	unsigned int bytes = 99;
	size_t i;

	(void)state;
	assert_int_equal(parse_width("8", &bytes, err, sizeof(err)), 0);
	assert_int_equal(bytes, 1);
	assert_int_equal(parse_width("16", &bytes, err, sizeof(err)), 0);
	assert_int_equal(bytes, 2);
	assert_int_equal(parse_width("32", &bytes, err, sizeof(err)), 0);
	assert_int_equal(bytes, 4);
	assert_int_equal(parse_width("64", &bytes, err, sizeof(err)), 0);
	assert_int_equal(bytes, 8);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		bytes = 99;
		print_message("parse_width(\"%s\")\n", bad[i]);
		assert_int_equal(parse_width(bad[i], &bytes, err, sizeof(err)),
				 -1);
		snprintf(want, sizeof(want), "--width=%s: the width is 8, 16, "
			 "32 or 64 (bits)", bad[i]);
		assert_string_equal(err, want);
		assert_int_equal(bytes, 99);
	}
}


/* A PCI location: kind, BAR, offset, size, and the device spec's filter */
static void pci_ok(const char *text, enum region_kind kind, unsigned int bar,
		   uint64_t off, uint64_t size, bool has_size, const char *dev,
		   bool by_id, int index)
{
	char err[REGION_ERR_MAX] = "";
	struct region r;

	memset(&r, 0x5a, sizeof(r));
	print_message("region_parse(\"%s\")\n", text);
	assert_int_equal(region_parse(text, &r, err, sizeof(err)), 0);
	assert_int_equal(r.kind, kind);
	if (kind == REGION_BAR)
		assert_int_equal(r.bar, bar);
	assert_true(r.start == off);
	assert_true(r.size == size);
	assert_int_equal(r.has_size, has_size);
	assert_string_equal(r.dev.text, dev);
	assert_int_equal(r.dev.by_id, by_id);
	assert_int_equal(r.dev.index, index);
	assert_string_equal(err, "");
}

static void cap_ok(const char *text, const char *cap, uint64_t off,
		   uint64_t size, bool has_size);

static void test_pci_locations(void **state)
{
	(void)state;
	pci_ok("00:04.0/bar2", REGION_BAR, 2, 0, 0, false, "00:04.0", false, -1);
	pci_ok("0000:00:04.0/bar0@0x10+4", REGION_BAR, 0, 0x10, 4, true,
	       "0000:00:04.0", false, -1);
	pci_ok("1af4:1110/bar2@4K+4K", REGION_BAR, 2, 4096, 4096, true,
	       "1af4:1110", true, -1);
	pci_ok("1af4:1110#2/bar5+1M", REGION_BAR, 5, 0, 1 << 20, true,
	       "1af4:1110#2", true, 2);
	pci_ok("00:04/bar0", REGION_BAR, 0, 0, 0, false, "00:04", false, -1);
	pci_ok("00:04.0/config", REGION_CONFIG, 0, 0, 0, false, "00:04.0",
	       false, -1);
	pci_ok("00:04.0/config@0x40+4", REGION_CONFIG, 0, 0x40, 4, true,
	       "00:04.0", false, -1);
	/* @NAME: the first +N is an offset into the capability, a second +SIZE */
	cap_ok("00:03.0/config@CAP_EXP+0x12", "CAP_EXP", 0x12, 0, false);
	cap_ok("00:03.0/config@ECAP_AER+4+4", "ECAP_AER", 4, 4, true);
	cap_ok("00:03.0/config@cap_msi", "cap_msi", 0, 0, false);
	cap_ok("00:03.0/config@CAP_PM+2K", "CAP_PM", 2048, 0, false);
	cap_ok("00:03.0/config@X_1", "X_1", 0, 0, false);
	/* a number stays an offset; no name, no cap */
	cap_ok("00:03.0/config@0x40+4", NULL, 0x40, 4, true);
}

/* A capability location: the name kept as text, offset after it, size */
static void cap_ok(const char *text, const char *cap, uint64_t off,
		   uint64_t size, bool has_size)
{
	char err[REGION_ERR_MAX] = "";
	struct region r;

	memset(&r, 0x5a, sizeof(r));
	print_message("region_parse(\"%s\")\n", text);
	assert_int_equal(region_parse(text, &r, err, sizeof(err)), 0);
	assert_int_equal(r.kind, REGION_CONFIG);
	if (cap) {
		assert_int_equal(r.cap_len, strlen(cap));
		assert_memory_equal(r.cap, cap, r.cap_len);
		assert_ptr_equal(r.cap, strchr(text, '@') + 1);
	} else {
		assert_null(r.cap);
	}
	assert_true(r.start == off);
	assert_true(r.size == size);
	assert_int_equal(r.has_size, has_size);
	assert_string_equal(err, "");
}

static void test_pci_errors(void **state)
{
	(void)state;
	region_err("00:04.0/bar6", "'00:04.0/bar6': the BAR is bar0 to bar5, "
		   "optionally followed by @OFFSET and +SIZE");
	region_err("00:04.0/bar", "'00:04.0/bar': the BAR is bar0 to bar5, "
		   "optionally followed by @OFFSET and +SIZE");
	region_err("00:04.0/bar2x", "'00:04.0/bar2x': the BAR is bar0 to "
		   "bar5, optionally followed by @OFFSET and +SIZE");
	region_err("00:04.0/rom", "'00:04.0/rom': after the device comes barN "
		   "or config; the BAR is bar0 to bar5, optionally followed by "
		   "@OFFSET and +SIZE");
	region_err("00:04.0/bar0+0", "'00:04.0/bar0+0': the size is zero");
	region_err("00:04.0/bar0@zz", "'00:04.0/bar0@zz': offset 'zz' "
		   NOT_NUMBER);
	region_err("00:04.0/bar0@4+4+4", "'00:04.0/bar0@4+4+4': unexpected "
		   "'+4'; the BAR is bar0 to bar5, optionally followed by "
		   "@OFFSET and +SIZE");
	region_err("00:04.0/config@CAP_PM:4", "'00:04.0/config@CAP_PM:4': "
		   "unexpected ':4' after the capability name; config space "
		   "is DEVICE/config, optionally followed by @OFFSET or "
		   "@CAP_NAME+OFFSET, and +SIZE");
	region_err("00:04.0/config@CAP_PM+zz", "'00:04.0/config@CAP_PM+zz': "
		   "offset 'zz' " NOT_NUMBER);
	region_err("00:04.0/config@CAP_PM+4+4+4", "'00:04.0/config@CAP_PM+4"
		   "+4+4': unexpected '+4'; config space is DEVICE/config, "
		   "optionally followed by @OFFSET or @CAP_NAME+OFFSET, and "
		   "+SIZE");
	region_err("00:04.0/config@CAP_PM+4+0", "'00:04.0/config@CAP_PM+4+0': "
		   "the size is zero");
	region_err("00:04.0/bar0@CAP_PM", "'00:04.0/bar0@CAP_PM': offset "
		   "'CAP_PM' " NOT_NUMBER);
	region_err("00:04.0/config-4", "'00:04.0/config-4': after the device "
		   "comes barN or config; the BAR is bar0 to bar5, optionally "
		   "followed by @OFFSET and +SIZE");
	region_err("/bar0", "no device given; a device is " DEVSPEC_GRAMMAR);
	region_err("00:zz.0/bar0", "device '00:zz.0': Invalid slot number; "
		   "a device is " DEVSPEC_GRAMMAR);
	region_err("1af4:zz/bar0", "device '1af4:zz': Invalid device ID; "
		   "a device is " DEVSPEC_GRAMMAR);
	region_err("1af4:1110#x/bar0", "device '1af4:1110#x': #N wants a "
		   "number (0 is the first match); a device is "
		   DEVSPEC_GRAMMAR);
	region_err("1af4:1110#/bar0", "device '1af4:1110#': #N wants a number "
		   "(0 is the first match); a device is " DEVSPEC_GRAMMAR);
	/* a domain past 32 bits: libpci alone would wrap it to 0 */
	region_err("100000000:00:04.0/bar0", "device '100000000:00:04.0': "
		   "Invalid domain number; a device is " DEVSPEC_GRAMMAR);
	region_err("0fffffffff:00:04.0/bar0", "device '0fffffffff:00:04.0': "
		   "Invalid domain number; a device is " DEVSPEC_GRAMMAR);
	region_err("80000000:00:04.0/bar0", "device '80000000:00:04.0': "
		   "Invalid domain number; a device is " DEVSPEC_GRAMMAR);
}

/* Slot or IDs, as lspci -s and -d read them */
static void spec_is(const char *text, bool by_id, int domain, int bus,
		    int dev, int func, int vendor, int device, int index)
{
	char err[REGION_ERR_MAX] = "";
	struct devspec d;

	print_message("devspec_parse(\"%s\")\n", text);
	assert_int_equal(devspec_parse(text, strlen(text), &d, err,
				       sizeof(err)), 0);
	assert_int_equal(d.by_id, by_id);
	assert_int_equal(d.filter.domain, domain);
	assert_int_equal(d.filter.bus, bus);
	assert_int_equal(d.filter.slot, dev);
	assert_int_equal(d.filter.func, func);
	assert_int_equal(d.filter.vendor, vendor);
	assert_int_equal(d.filter.device, device);
	assert_int_equal(d.index, index);
}

static void test_devspec(void **state)
{
	(void)state;
	/* lspci -s: 00:04 is bus 0, device 4, any function */
	spec_is("00:04", false, -1, 0, 4, -1, -1, -1, -1);
	spec_is("00:04.0", false, -1, 0, 4, 0, -1, -1, -1);
	spec_is("0001:02:1f.7", false, 1, 2, 0x1f, 7, -1, -1, -1);
	spec_is("04", false, -1, -1, 4, -1, -1, -1, -1);
	spec_is(".3", false, -1, -1, -1, 3, -1, -1, -1);
	spec_is("*:*.0", false, -1, -1, -1, 0, -1, -1, -1);
	spec_is("00:", false, -1, 0, -1, -1, -1, -1, -1);
	spec_is("1:2", false, -1, 1, 2, -1, -1, -1, -1);
	spec_is("00:04.0#1", false, -1, 0, 4, 0, -1, -1, 1);
	/* lspci -d: a side longer than a bus or device number */
	spec_is("1af4:1110", true, -1, -1, -1, -1, 0x1af4, 0x1110, -1);
	spec_is("8086:", true, -1, -1, -1, -1, 0x8086, -1, -1);
	spec_is(":1110", true, -1, -1, -1, -1, -1, 0x1110, -1);
	spec_is("1af4:*", true, -1, -1, -1, -1, 0x1af4, -1, -1);
	spec_is("1af4:1110#0", true, -1, -1, -1, -1, 0x1af4, 0x1110, 0);
	/* leading zeros are no digits of a domain; libpci checks the rest */
	spec_is("000000000007fffffff:00:04.0", false, 0x7fffffff, 0, 4, 0,
		-1, -1, -1);
	spec_is("0000000000:00:04.0", false, 0, 0, 4, 0, -1, -1, -1);
}

static void span_is(uint64_t start, uint64_t size, unsigned int shift,
		    uint64_t first, uint64_t last, uint64_t pages,
		    uint64_t offset)
{
	struct pfn_span s;

	memset(&s, 0x5a, sizeof(s));
	print_message("region_pfns(0x%llx+0x%llx, %u)\n",
		      (unsigned long long)start, (unsigned long long)size,
		      shift);
	region_pfns(start, size, shift, &s);
	assert_true(s.first_pfn == first);
	assert_true(s.last_pfn == last);
	assert_true(s.pages == pages);
	assert_true(s.offset == offset);
}

static void test_pfns(void **state)
{
	(void)state;
	span_is(0x180000000ULL, 4ULL << 20, 12, 0x180000, 0x1803ff, 1024, 0);
	span_is(0x1000, 1, 12, 1, 1, 1, 0);
	span_is(0x1fff, 1, 12, 1, 1, 1, 0xfff);
	span_is(0x1ffe, 4, 12, 1, 2, 2, 0xffe);
	span_is(0x1003, 0x1000, 12, 1, 2, 2, 3);
	span_is(0x1000, 0x1000, 12, 1, 1, 1, 0);
	span_is(0x1000, 0x1001, 12, 1, 2, 2, 0);
	span_is(0x17ffffff0ULL, 0x20, 12, 0x17ffff, 0x180000, 2, 0xff0);
	span_is(UINT64_MAX, 1, 12, 0xfffffffffffffULL, 0xfffffffffffffULL, 1,
		0xfff);
	span_is(0, UINT64_MAX, 12, 0, 0xfffffffffffffULL, 1ULL << 52, 0);
	span_is(1, UINT64_MAX, 12, 0, 0xfffffffffffffULL, 1ULL << 52, 1);
	/* 16 KiB and 64 KiB pages */
	span_is(0x12345, 0x10000, 14, 4, 8, 5, 0x2345);
	span_is(0x12345, 0x10000, 16, 1, 2, 2, 0x2345);
	span_is(0x180000000ULL, 4ULL << 20, 16, 0x18000, 0x1803f, 64, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_number_plain),
		cmocka_unit_test(test_number_suffixes),
		cmocka_unit_test(test_number_overflow),
		cmocka_unit_test(test_number_junk),
		cmocka_unit_test(test_number_what),
		cmocka_unit_test(test_region_size),
		cmocka_unit_test(test_region_end),
		cmocka_unit_test(test_region_plain),
		cmocka_unit_test(test_region_errors),
		cmocka_unit_test(test_region_syntax),
		cmocka_unit_test(test_value),
		cmocka_unit_test(test_masked),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_pfns),
		cmocka_unit_test(test_pci_locations),
		cmocka_unit_test(test_pci_errors),
		cmocka_unit_test(test_devspec),
	};

	return cmocka_run_group_tests_name("region", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The memory test engine (lib/memtest.c), built here with MEMTEST_SIM so
 * that every access goes to a simulated memory with one injected fault.
 * Each fault must be found by the tests meant to find it, reported at the
 * right address with the right bit and named in the summary's words; a
 * fault-free memory passes every test at every width; no access falls
 * outside the region, and every one is of exactly the width (but the
 * 8/16-bit write tests' narrow stores); the same seed makes the same
 * accesses. Linked without pfnmap_core: memtest.c is compiled in here.
 *
 * Which test finds which fault (width 8, 8 KiB; the columns of
 * test_matrix, each cell fault in both halves): X found, . not found,
 * ? found only when a random value puts the opposite of the stuck value
 * in the bad cell (half the fills; test_matrix tries seeds until it does).
 * Wherever found, a cell's fault is reported at its address, with its bit.
 *
 *                     data line     one cell  address lines  coupl- reten-
 *                    at 0 at 1 flt  at 0 at 1 shorted stuck   ing    tion
 *   data-bus           X    X   X    .    .     .      .      .      .
 *   address-bus        X    X   X    .    .     X      X      .      .
 *   stuck-address      X    X   X    X    X     X      X      .      X
 *   random             X    X   X    ?    ?     X      X      .      ?
 *   xor sub mul div    X    X   X    ?    ?     X      X      X      ?
 *   or and             X    X   X    ?    ?     X      X      X      ?
 *   seqinc             X    X   .    ?    ?     X      X      .      ?
 *   solid-bits         X    X   X    X    X     .      .      .      X
 *   block-seq          X    X   .    X    X     .      .      .      X
 *   checkerboard       X    X   X    X    X     .      .      .      X
 *   bit-spread         X    X   X    X    X     .      .      .      X
 *   bit-flip           X    X   X    X    X     .      .      .      X
 *   walking-ones/zeros X    X   .    X    X     .      .      .      X
 *   8/16bit-writes     X    X   X    ?    ?     X      X      .      ?
 *   moving-inversions  X    X   X    X    X     X      X      X      X
 *
 * In words: a stuck data line fails every test, and data-bus names the
 * bit in a few accesses. A bad bit in one cell is found for certain by
 * the pattern tests, stuck-address and moving-inversions. address-bus
 * names stuck and shorted address lines (a short wired-OR or wired-AND,
 * told from two stuck lines); the other tests see the aliasing only as
 * data errors, and the pattern tests (the same value in every even word,
 * another in every odd one) not at all for a line above the width's (A6,
 * A9-A11 here). A cell flipped by each write to the word below it
 * outlives every ascending fill-then-check pass (which rewrites it after
 * the word below) and is found by moving-inversions and the
 * read-modify-write tests, which read each word just after rewriting the
 * one below. A cell that forgets (reads 0 some accesses after it was
 * written) is found by every test that writes the whole region before
 * reading it, never by the two bus tests. A floating data line (no cell
 * drives it: it reads what the bus last carried) is found by data-bus's
 * parking store, and by every test that reads a word after writing or
 * reading one that differs from it in that bit: not seqinc (a counter's
 * high bits hardly change), block-seq or the walks (one value a pass).
 *
 * Beyond the table, the simulator knows what each word should hold: every
 * read that returns something else must be reported at once, at its
 * address, with what was written and what was read (but the address-bus
 * test's wired-AND probe, under an address fault). test_pass_counts counts
 * memtester's passes over every word at every width, with and without
 * failures.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#define MEMTEST_SIM
#include "../../lib/memtest.c"
#include "util.h"

#define SIM_SIZE	(8 * 1024)
#define GUARD		64
#define GUARD_BYTE	0xa5
#define PHYS		0x40000000ULL
#define MAX_FAIL	8		/* kept of each test */

enum fault_kind {
	F_NONE,
	F_LINE0, F_LINE1,	/* a data line stuck at 0 / 1: every cell */
	F_CELL0, F_CELL1,	/* one bit of one cell stuck at 0 / 1 */
	F_SHORT,		/* address lines line and line2, wired-OR */
	F_SHORT_AND,		/* the same, wired-AND */
	F_STUCK_LOW, F_STUCK_HIGH,	/* address line line */
	F_STUCK_TWO,		/* line stuck low, line2 stuck high */
	F_COUPLING,		/* bit of off flips: aggressor written */
	F_RETENTION,		/* bit of off reads 0 delay accesses on */
	F_FLOAT,		/* a data line driven by nothing: every cell */
};

struct fault {
	enum fault_kind kind;
	size_t off;		/* the cell: byte offset of its word */
	unsigned int bit;	/* data bit of a word of the test's width */
	unsigned int line, line2;
	size_t aggressor;
	uint64_t delay;
};

static struct {
	struct fault f;
	unsigned int width;
	uint64_t clock;		/* accesses so far */
	uint64_t written[SIM_SIZE];	/* clock of each byte's last write */
	unsigned int outside;	/* accesses not inside the region */
	uint64_t loads[9], stores[9];	/* by width */
	uint64_t hash;		/* of every access, in order */
	unsigned char bus;	/* F_FLOAT: its byte lane's last value */
	/*
	 * What the test wrote (no fault), and the last read that did not
	 * return it: the engine must report it, and only it, next
	 */
	unsigned char shadow[SIM_SIZE];
	int pending, lenient;	/* lenient: it may read one unreported */
	size_t pend_off;
	uint64_t pend_want, pend_got;
} sim;

static _Alignas(64) unsigned char area[GUARD + SIM_SIZE + GUARD];
#define REGION	(area + GUARD)

static size_t bit_byte(unsigned int b, unsigned int width);

/* v as width bytes in the CPU's byte order, and back */
static void cpu_bytes(uint64_t v, unsigned int width, unsigned char *b)
{
	unsigned int i;

	for (i = 0; i < width; i++)
		b[bit_byte(8 * i, width)] = (unsigned char)(v >> (8 * i));
}

static uint64_t cpu_value(const unsigned char *b, unsigned int width)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < width; i++)
		v |= (uint64_t)b[bit_byte(8 * i, width)] << (8 * i);
	return v;
}

/* The byte of a word and the bit in it that hold data bit b */
static size_t bit_byte(unsigned int b, unsigned int width)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return width - 1 - b / 8;
#else
	(void)width;
	return b / 8;
#endif
}

/* Where the address decoder sends byte offset o */
static size_t decode(size_t o)
{
	size_t a = (size_t)1 << sim.f.line, b = (size_t)1 << sim.f.line2;

	switch (sim.f.kind) {
	case F_SHORT:
		return (o & (a | b)) ? o | a | b : o;
	case F_SHORT_AND:
		return (o & (a | b)) == (a | b) ? o : o & ~(a | b);
	case F_STUCK_LOW:
		return o & ~a;
	case F_STUCK_HIGH:
		return o | a;
	case F_STUCK_TWO:
		return (o & ~a) | b;
	default:
		return o;
	}
}

/* The fault's byte, and its bit in it, as a mask; 0 when o is not it */
static unsigned int fault_bits(size_t o)
{
	const struct fault *f = &sim.f;
	size_t byte = bit_byte(f->bit, sim.width);
	unsigned int m = 1u << (f->bit % 8);

	switch (f->kind) {
	case F_LINE0:
	case F_LINE1:
	case F_FLOAT:
		return o % sim.width == byte ? m : 0;
	case F_CELL0:
	case F_CELL1:
	case F_COUPLING:
	case F_RETENTION:
		return o == f->off + byte ? m : 0;
	default:
		return 0;
	}
}

static unsigned char cell_read(size_t o)
{
	size_t p = decode(o);
	unsigned int m = fault_bits(p);
	unsigned char v = REGION[p];

	if (sim.f.kind == F_LINE0 || sim.f.kind == F_CELL0)
		v &= (unsigned char)~m;
	if (sim.f.kind == F_LINE1 || sim.f.kind == F_CELL1)
		v |= (unsigned char)m;
	if (sim.f.kind == F_RETENTION && m &&
	    sim.clock - sim.written[p] > sim.f.delay)
		v &= (unsigned char)~m;
	/* no cell drives the line: it holds what the bus last carried */
	if (sim.f.kind == F_FLOAT && m) {
		v = (unsigned char)((v & ~m) | (sim.bus & m));
		sim.bus = v;
	}
	return v;
}

/* 1 when the aggressor's word was written */
static int cell_write(size_t o, unsigned char v)
{
	size_t p = decode(o);

	REGION[p] = v;
	sim.written[p] = sim.clock;
	if (sim.f.kind == F_FLOAT && fault_bits(p))
		sim.bus = v;
	return p / sim.width == sim.f.aggressor / sim.width;
}

static void coupling_flip(void)
{
	size_t p = sim.f.off + bit_byte(sim.f.bit, sim.width);

	REGION[p] ^= (unsigned char)(1u << (sim.f.bit % 8));
}

/* The offset of p in the region, or SIZE_MAX (counted) when outside */
static size_t sim_offset(const volatile void *p, unsigned int width)
{
	const volatile unsigned char *c = p;

	if (c < REGION || c + width > REGION + SIM_SIZE ||
	    (size_t)(c - REGION) % width) {
		sim.outside++;
		return SIZE_MAX;
	}
	return (size_t)(c - REGION);
}

static void sim_trace(size_t off, unsigned int width, int store, uint64_t v)
{
	if (store)
		sim.stores[width]++;
	else
		sim.loads[width]++;
	sim.hash = mix64(sim.hash ^ (off << 8 | width << 1 | (size_t)store));
	sim.hash = mix64(sim.hash ^ v);
	sim.clock++;
}

/* A wrong read the engine went on from without reporting it */
static void assert_reported(void)
{
	if (sim.pending && !sim.lenient)
		fail_msg("read of 0x%zx: 0x%llx, not 0x%llx, not reported",
			 sim.pend_off, (unsigned long long)sim.pend_got,
			 (unsigned long long)sim.pend_want);
	sim.pending = 0;
}

uint64_t memtest_sim_read(const volatile void *p, unsigned int width)
{
	size_t off = sim_offset(p, width);
	unsigned char b[8];
	unsigned int k;
	uint64_t v, want;

	assert_reported();
	if (off == SIZE_MAX)
		return 0;
	for (k = 0; k < width; k++)
		b[k] = cell_read(off + k);
	v = cpu_value(b, width);
	want = cpu_value(sim.shadow + off, width);
	if (v != want) {
		sim.pending = 1;
		sim.pend_off = off;
		sim.pend_want = want;
		sim.pend_got = v;
	}
	sim_trace(off, width, 0, v);
	return v;
}

void memtest_sim_write(volatile void *p, uint64_t val, unsigned int width)
{
	size_t off = sim_offset(p, width);
	unsigned char b[8];
	unsigned int k;
	int hit = 0;

	assert_reported();
	if (off == SIZE_MAX)
		return;
	cpu_bytes(val, width, b);
	memcpy(sim.shadow + off, b, width);
	for (k = 0; k < width; k++)
		hit |= cell_write(off + k, b[k]);
	if (hit && sim.f.kind == F_COUPLING)
		coupling_flip();
	sim_trace(off, width, 1, val);
}

/* ---- a run over the simulated memory ----------------------------------- */

struct failure {
	uint64_t phys, expected, actual;
};

struct outcome {
	int rc;
	enum memtest_result res[64];
	int ran[64];
	unsigned int nfail[64];	/* failures of each test */
	struct failure fail[64][MAX_FAIL];	/* the first few */
	unsigned int failures;
	uint64_t loads[64], stores[64];	/* accesses of each test */
	uint64_t loads0, stores0;	/* before the running test's */
	struct memtest_summary s;
	char text[1024];
	uint64_t done, total;
	unsigned int progress_calls, stop_after;
};

static void on_failure(void *ctx, const char *test, uint64_t phys,
		       uint64_t expected, uint64_t actual)
{
	struct outcome *o = ctx;
	int t = memtest_find(test);
	struct failure *f;

	assert_true(t >= 0);
	/* the read that went wrong, as it went wrong: no other */
	assert_true(sim.pending);
	assert_true(phys == PHYS + sim.pend_off);
	assert_true(expected == sim.pend_want && actual == sim.pend_got);
	sim.pending = 0;
	if (o->nfail[t] < MAX_FAIL) {
		f = &o->fail[t][o->nfail[t]];
		f->phys = phys;
		f->expected = expected;
		f->actual = actual;
	}
	o->nfail[t]++;
	o->failures++;
}

static uint64_t sum(const uint64_t by_width[9])
{
	return by_width[1] + by_width[2] + by_width[4] + by_width[8];
}

static int address_fault(enum fault_kind k)
{
	return k >= F_SHORT && k <= F_STUCK_TWO;
}

static void on_start(void *ctx, const char *test)
{
	struct outcome *o = ctx;

	o->loads0 = sum(sim.loads);
	o->stores0 = sum(sim.stores);
	/* its wired-AND probe reads a cell it expects may have changed */
	sim.lenient = address_fault(sim.f.kind) &&
		      !strcmp(test, "address-bus");
}

static void on_end(void *ctx, const char *test, enum memtest_result res,
		   double seconds)
{
	struct outcome *o = ctx;
	int i = memtest_find(test);

	assert_true(i >= 0);
	assert_true(seconds >= 0);
	o->res[i] = res;
	o->ran[i]++;
	o->loads[i] += sum(sim.loads) - o->loads0;
	o->stores[i] += sum(sim.stores) - o->stores0;
}

static int on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct outcome *o = ctx;

	assert_true(done > o->done);
	assert_true(done <= total);
	o->done = done;
	o->total = total;
	o->progress_calls++;
	return o->stop_after && o->progress_calls >= o->stop_after;
}

static void sim_reset(const struct fault *f, unsigned int width)
{
	memset(&sim, 0, sizeof(sim));
	if (f)
		sim.f = *f;
	sim.width = width;
	memset(area, GUARD_BYTE, sizeof(area));
	memset(sim.shadow, GUARD_BYTE, sizeof(sim.shadow));
}

/* The region run_loops tests: all of the simulated memory, or less */
static size_t run_size = SIM_SIZE;

static void run_loops(struct outcome *o, const struct fault *f,
		      unsigned int width, uint64_t tests, uint64_t seed,
		      uint64_t max_errors, unsigned int loops)
{
	struct memtest_params p = {
		.base = REGION, .phys = PHYS, .size = run_size,
		.width = width, .tests = tests, .loops = loops, .seed = seed,
		.max_errors = max_errors,
	};
	struct memtest_callbacks cb = {
		on_failure, on_start, on_end, on_progress, o,
	};
	unsigned int stop_after = o->stop_after;
	size_t i;

	memset(o, 0, sizeof(*o));
	o->stop_after = stop_after;
	sim_reset(f, width);
	o->rc = memtest_run(&p, &cb, &o->s);
	assert_reported();
	memtest_summary_text(&o->s, o->text, sizeof(o->text));
	assert_int_equal(sim.outside, 0);
	for (i = 0; i < GUARD; i++) {
		assert_int_equal(area[i], GUARD_BYTE);
		assert_int_equal(area[GUARD + SIM_SIZE + i], GUARD_BYTE);
	}
}

static void run_sim(struct outcome *o, const struct fault *f,
		    unsigned int width, uint64_t tests, uint64_t seed,
		    uint64_t max_errors)
{
	run_loops(o, f, width, tests, seed, max_errors, 1);
}

static uint64_t all_tests(void)
{
	return (1ULL << memtest_ntests) - 1;
}

static int T(const char *name)
{
	int i = memtest_find(name);

	assert_true(i >= 0);
	return i;
}

/* Every failure test t reported is at phys with exactly bit flipped */
static void assert_failures_at(const struct outcome *o, int t, uint64_t phys,
			       unsigned int bit)
{
	const struct failure *f = o->fail[t];
	unsigned int i;

	assert_true(o->nfail[t] > 0);
	for (i = 0; i < o->nfail[t] && i < MAX_FAIL; i++) {
		assert_true(f[i].phys == phys);
		assert_true((f[i].expected ^ f[i].actual) == 1ULL << bit);
	}
}

/* A fault in one cell: the bus tests do not touch it */
static void assert_bus_tests_pass(const struct outcome *o)
{
	assert_int_equal(o->res[T("data-bus")], MEMTEST_PASS);
	assert_int_equal(o->res[T("address-bus")], MEMTEST_PASS);
}

static void assert_text(const struct outcome *o, const char *want)
{
	if (!strstr(o->text, want))
		fail_msg("summary \"%s\" lacks \"%s\"", o->text, want);
}

/* ---- fault-free ------------------------------------------------------- */

static void test_fault_free(void **state)
{
	static const unsigned int widths[] = { 1, 2, 4, 8 };
	struct outcome o = { 0 };
	unsigned int i, t;

	(void)state;
	for (i = 0; i < 4; i++) {
		run_sim(&o, NULL, widths[i], all_tests(), 1, 0);
		assert_int_equal(o.rc, 0);
		assert_int_equal(o.failures, 0);
		assert_string_equal(o.text, "");
		assert_true(o.done == o.total && o.total > 0);
		for (t = 0; t < memtest_ntests; t++) {
			int narrow = !strcmp(memtest_tests[t].name,
					     "8bit-writes") ? 1 :
				     !strcmp(memtest_tests[t].name,
					     "16bit-writes") ? 2 : 0;

			assert_int_equal(o.ran[t], 1);
			assert_int_equal(o.res[t], narrow >= (int)widths[i] ?
					 MEMTEST_SKIP : MEMTEST_PASS);
		}
	}
}

/* ---- one fault each --------------------------------------------------- */

static void check_data_line(enum fault_kind k, unsigned int bit,
			    unsigned int width, const char *words)
{
	struct fault f = { .kind = k, .bit = bit };
	struct outcome o = { 0 };

	run_sim(&o, &f, width, 1ULL << T("data-bus"), 1, 0);
	assert_int_equal(o.rc, 1);
	assert_int_equal(o.res[T("data-bus")], MEMTEST_FAIL);
	assert_failures_at(&o, T("data-bus"), PHYS, bit);
	assert_text(&o, words);
	assert_true(o.s.bits_low | o.s.bits_high);
	assert_true(((o.s.bits_low | o.s.bits_high) & ~(1ULL << bit)) == 0);
}

static void test_data_line(void **state)
{
	(void)state;
	check_data_line(F_LINE0, 5, 8, "data bit 5 stuck at 0");
	check_data_line(F_LINE1, 12, 8, "data bit 12 stuck at 1");
	check_data_line(F_LINE0, 63, 8, "data bit 63 stuck at 0");
	check_data_line(F_LINE1, 0, 1, "data bit 0 stuck at 1");
	check_data_line(F_LINE0, 9, 2, "data bit 9 stuck at 0");
	check_data_line(F_LINE1, 31, 4, "data bit 31 stuck at 1");
	/* the parking word's store leaves its complement on the bus */
	check_data_line(F_FLOAT, 0, 1, "data bit 0 failing both ways");
	check_data_line(F_FLOAT, 15, 2, "data bit 15 failing both ways");
	check_data_line(F_FLOAT, 20, 4, "data bit 20 failing both ways");
	check_data_line(F_FLOAT, 63, 8, "data bit 63 failing both ways");
}

/* One bad bit in one cell: every whole-region test; not the bus tests */
static void test_cell_bit(void **state)
{
	static const char *const finders[] = {
		"stuck-address", "solid-bits", "checkerboard", "walking-ones",
		"walking-zeros", "bit-flip", "moving-inversions",
	};
	struct fault f = { .kind = F_CELL0, .off = 0x468, .bit = 33 };
	struct outcome o = { 0 };
	unsigned int i;

	(void)state;
	run_sim(&o, &f, 8, all_tests(), 1, 0);
	assert_bus_tests_pass(&o);
	for (i = 0; i < ARRAY_SIZE(finders); i++) {
		assert_int_equal(o.res[T(finders[i])], MEMTEST_FAIL);
		assert_failures_at(&o, T(finders[i]), PHYS + 0x468, 33);
	}
	assert_string_equal(o.text, "data bit 33 stuck at 0 or failing "
			    "(read 0 where 1 was written)\n");

	f.kind = F_CELL1;
	f.off = 0x1ff8;		/* the last word: data-bus parks there */
	f.bit = 2;
	run_sim(&o, &f, 8, all_tests(), 1, 0);
	assert_int_equal(o.res[T("data-bus")], MEMTEST_PASS);
	assert_failures_at(&o, T("solid-bits"), PHYS + 0x1ff8, 2);
	assert_text(&o, "data bit 2 stuck at 1");
}

/* Lines j < k shorted */
static void check_short(enum fault_kind kind, unsigned int width,
			unsigned int j, unsigned int k)
{
	struct fault f = { .kind = kind, .line = j, .line2 = k };
	struct outcome o = { 0 };
	char want[64];

	run_sim(&o, &f, width, 1ULL << T("address-bus"), 1, 0);
	assert_int_equal(o.res[T("address-bus")], MEMTEST_FAIL);
	assert_true(o.s.addr_shorted == (1ULL << j | 1ULL << k));
	assert_true(o.s.addr_stuck == 0);
	assert_int_equal(o.s.short_to[j], k);
	assert_int_equal(o.s.short_to[k], j);
	/* aliasing is not a data-bit failure */
	assert_true((o.s.bits_low | o.s.bits_high) == 0);
	snprintf(want, sizeof(want), "address line A%u shorted to A%u\n", j, k);
	assert_string_equal(o.text, want);
}

/* The lowest line of a width, A0 to A3, is one too: a short with it shows */
static void test_address_short(void **state)
{
	static const unsigned int widths[] = { 1, 2, 4, 8 };
	unsigned int i, low;

	(void)state;
	check_short(F_SHORT, 8, 9, 11);
	check_short(F_SHORT, 2, 9, 11);
	check_short(F_SHORT_AND, 8, 9, 11);
	check_short(F_SHORT_AND, 1, 9, 11);
	for (i = 0; i < 4; i++) {
		low = (unsigned int)__builtin_ctz(widths[i]);
		check_short(F_SHORT, widths[i], low, low + 1);
		check_short(F_SHORT_AND, widths[i], low, 12);
	}
}

static void check_stuck_line(enum fault_kind k, unsigned int width,
			     unsigned int line)
{
	struct fault f = { .kind = k, .line = line };
	struct outcome o = { 0 };
	char want[64];

	run_sim(&o, &f, width, 1ULL << T("address-bus"), 1, 0);
	assert_int_equal(o.res[T("address-bus")], MEMTEST_FAIL);
	assert_true(o.s.addr_stuck == 1ULL << line);
	assert_true(o.s.addr_shorted == 0);
	snprintf(want, sizeof(want), "address line A%u stuck (high or low)\n",
		 line);
	assert_string_equal(o.text, want);
}

/* Every line of every width: its lowest (A0 at 8 bits) to A12 (4 KiB) */
static void check_stuck_lines(enum fault_kind k)
{
	static const unsigned int widths[] = { 1, 2, 4, 8 };
	unsigned int i, line;

	for (i = 0; i < 4; i++)
		for (line = (unsigned int)__builtin_ctz(widths[i]); line <= 12;
		     line++)
			check_stuck_line(k, widths[i], line);
}

static void test_address_stuck(void **state)
{
	struct fault f = { .kind = F_STUCK_TWO, .line = 5, .line2 = 12 };
	struct outcome o = { 0 };

	(void)state;
	check_stuck_lines(F_STUCK_LOW);
	check_stuck_lines(F_STUCK_HIGH);
	/* two stuck lines alias offset 0 as a wired-AND short does: not one */
	run_sim(&o, &f, 8, 1ULL << T("address-bus"), 1, 0);
	assert_true(o.s.addr_stuck == (1ULL << 5 | 1ULL << 12));
	assert_true(o.s.addr_shorted == 0);
	assert_string_equal(o.text, "address line A5 stuck (high or low)\n"
			    "address line A12 stuck (high or low)\n");
}

/*
 * The cell above the aggressor: ascending fills write it after the
 * aggressor, so only the tests that read it after a later write to the
 * aggressor see the flip: moving inversions
 */
static void test_coupling(void **state)
{
	struct fault f = {
		.kind = F_COUPLING, .off = 0x1238, .bit = 7,
		.aggressor = 0x1230,
	};
	struct outcome o = { 0 };

	(void)state;
	run_sim(&o, &f, 8, all_tests(), 1, 0);
	assert_int_equal(o.res[T("moving-inversions")], MEMTEST_FAIL);
	assert_failures_at(&o, T("moving-inversions"), PHYS + 0x1238, 7);
	assert_int_equal(o.res[T("random")], MEMTEST_PASS);
	assert_int_equal(o.res[T("solid-bits")], MEMTEST_PASS);
	assert_int_equal(o.res[T("stuck-address")], MEMTEST_PASS);
	assert_text(&o, "data bit 7 ");
}

static void test_retention(void **state)
{
	struct fault f = {
		.kind = F_RETENTION, .off = 0x5a0, .bit = 3, .delay = 600,
	};
	struct outcome o = { 0 };

	(void)state;
	run_sim(&o, &f, 8, all_tests(), 1, 0);
	assert_bus_tests_pass(&o);
	assert_int_equal(o.res[T("solid-bits")], MEMTEST_FAIL);
	assert_failures_at(&o, T("solid-bits"), PHYS + 0x5a0, 3);
	assert_failures_at(&o, T("moving-inversions"), PHYS + 0x5a0, 3);
	assert_string_equal(o.text, "data bit 3 stuck at 0 or failing "
			    "(read 0 where 1 was written)\n");
}

/* ---- the table at the top --------------------------------------------- */

/* One column of the table: 'X' found, '.' not, '?' either */
struct column {
	struct fault f;
	const char *finds;	/* a character per test, table order */
};

static int one_cell(enum fault_kind k)
{
	return k == F_CELL0 || k == F_CELL1 || k == F_COUPLING ||
	       k == F_RETENTION;
}

/*
 * Test t's failures name the fault's bit, and its cell's address when it
 * is one cell's (the simulator checks every failure against the read that
 * went wrong; this, that it went wrong where the fault is)
 */
static void check_reports(const struct outcome *o, unsigned int t,
			  const struct fault *f)
{
	const struct failure *x = o->fail[t];
	unsigned int i;

	if (address_fault(f->kind))
		return;
	for (i = 0; i < o->nfail[t] && i < MAX_FAIL; i++) {
		if (one_cell(f->kind) && x[i].phys != PHYS + f->off)
			fail_msg("%s: fault at 0x%zx reported at 0x%llx",
				 memtest_tests[t].name, f->off,
				 (unsigned long long)x[i].phys);
		assert_true((x[i].expected ^ x[i].actual) == 1ULL << f->bit);
	}
}

/* A '?': found with some seed (each fails half the time, or more) */
static void check_maybe(const struct column *c, unsigned int t)
{
	struct outcome o = { 0 };
	uint64_t seed;

	for (seed = 1; seed <= 32; seed++) {
		run_sim(&o, &c->f, 8, 1ULL << t, seed, 0);
		check_reports(&o, t, &c->f);
		if (o.res[t] == MEMTEST_FAIL)
			return;
	}
	fail_msg("%s: fault %d never found", memtest_tests[t].name, c->f.kind);
}

static void check_column(const struct column *c)
{
	char got[64];
	struct outcome o = { 0 };
	unsigned int t;

	run_sim(&o, &c->f, 8, all_tests(), 1, 0);
	assert_int_equal(strlen(c->finds), memtest_ntests);
	for (t = 0; t < memtest_ntests; t++)
		got[t] = o.res[t] == MEMTEST_FAIL ? 'X' : '.';
	got[t] = '\0';
	for (t = 0; t < memtest_ntests; t++)
		if (c->finds[t] != '?' && c->finds[t] != got[t])
			fail_msg("fault %d: want %s, got %s", c->f.kind,
				 c->finds, got);
	for (t = 0; t < memtest_ntests; t++) {
		check_reports(&o, t, &c->f);
		if (c->finds[t] == '?')
			check_maybe(c, t);
	}
}

static void test_matrix(void **state)
{
	/*
	 * Tests: data-bus address-bus stuck-address random xor sub mul div
	 * or and seqinc solid-bits block-seq checkerboard bit-spread
	 * bit-flip walking-ones walking-zeros 8bit 16bit moving-inversions
	 */
	static const struct column cols[] = {
		{ { .kind = F_LINE0, .bit = 17 }, "XXXXXXXXXXXXXXXXXXXXX" },
		{ { .kind = F_LINE1, .bit = 40 }, "XXXXXXXXXXXXXXXXXXXXX" },
		{ { .kind = F_CELL0, .off = 0x468, .bit = 33 },
		  "..X????????XXXXXXX??X" },
		{ { .kind = F_CELL1, .off = 0x1468, .bit = 50 },
		  "..X????????XXXXXXX??X" },
		{ { .kind = F_CELL0, .off = 0x1ab0, .bit = 0 },
		  "..X????????XXXXXXX??X" },
		{ { .kind = F_CELL1, .off = 0x18, .bit = 63 },
		  "..X????????XXXXXXX??X" },
		{ { .kind = F_SHORT, .line = 9, .line2 = 11 },
		  ".XXXXXXXXXX.......XXX" },
		{ { .kind = F_STUCK_LOW, .line = 10 },
		  ".XXXXXXXXXX.......XXX" },
		{ { .kind = F_STUCK_HIGH, .line = 6 },
		  ".XXXXXXXXXX.......XXX" },
		{ { .kind = F_COUPLING, .off = 0x1238, .bit = 7,
		    .aggressor = 0x1230 }, "....XXXXXX..........X" },
		{ { .kind = F_COUPLING, .off = 0x240, .bit = 40,
		    .aggressor = 0x238 }, "....XXXXXX..........X" },
		{ { .kind = F_RETENTION, .off = 0x5a0, .bit = 3,
		    .delay = 600 }, "..X????????XXXXXXX??X" },
		{ { .kind = F_RETENTION, .off = 0x1ff0, .bit = 61,
		    .delay = 600 }, "..X????????XXXXXXX??X" },
		{ { .kind = F_FLOAT, .bit = 29 }, "XXXXXXXXXX.X.XXX..XXX" },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cols); i++)
		check_column(&cols[i]);
}

/* ---- the run itself --------------------------------------------------- */

/*
 * memtester's passes (fixed + per_bit * bits; moving inversions: two
 * backgrounds) and the loads and stores each makes of every word
 */
static const struct passes {
	const char *name;
	unsigned int fixed, per_bit, loads, stores;
} passes[] = {
	{ "stuck-address", 16, 0, 1, 1 }, { "random", 1, 0, 1, 1 },
	{ "xor", 1, 0, 2, 2 }, { "sub", 1, 0, 2, 2 }, { "mul", 1, 0, 2, 2 },
	{ "div", 1, 0, 2, 2 }, { "or", 1, 0, 2, 2 }, { "and", 1, 0, 2, 2 },
	{ "seqinc", 1, 0, 1, 1 }, { "solid-bits", 64, 0, 1, 1 },
	{ "block-seq", 256, 0, 1, 1 }, { "checkerboard", 64, 0, 1, 1 },
	{ "bit-spread", 0, 2, 1, 1 }, { "bit-flip", 0, 8, 1, 1 },
	{ "walking-ones", 0, 2, 1, 1 }, { "walking-zeros", 0, 2, 1, 1 },
	{ "moving-inversions", 2, 0, 5, 5 },
};

/* The loads and stores test t makes at width w over SIM_SIZE */
static void want_accesses(unsigned int t, unsigned int w, uint64_t *ld,
			  uint64_t *st)
{
	const char *name = memtest_tests[t].name;
	uint64_t words = SIM_SIZE / w, bits = 8 * w, lines, n, i;

	/* 8 patterns, each shifted through the bits (0xaa.. from bit 1) */
	if (!strcmp(name, "data-bus")) {
		*ld = 2 * (8 * bits - 1);
		*st = 2 * *ld;
		return;
	}
	/* offset 0 and A(log2 w) to A12: each cell written, all read */
	if (!strcmp(name, "address-bus")) {
		lines = 13 - (uint64_t)__builtin_ctz(w);
		*ld = (lines + 1) * (lines + 1);
		*st = (lines + 1) * (lines + 2);
		return;
	}
	/* two halves swapped: whole words, and narrow ones, then checked */
	if (!strcmp(name, "8bit-writes") || !strcmp(name, "16bit-writes")) {
		n = name[0] == '8' ? 1 : 2;	/* bytes a narrow store */
		*ld = w > n ? 2 * words : 0;
		*st = w > n ? words + words * w / n : 0;
		return;
	}
	for (i = 0; strcmp(passes[i].name, name); i++)
		;
	n = passes[i].fixed + passes[i].per_bit * bits;
	*ld = n * passes[i].loads * words;
	*st = n * passes[i].stores * words;
}

/* Test t at width w made its passes, every word in each */
static void check_passes(const struct outcome *o, unsigned int t,
			 unsigned int w)
{
	uint64_t ld, st;

	want_accesses(t, w, &ld, &st);
	if (o->loads[t] != ld || o->stores[t] != st)
		fail_msg("%s, width %u: %llu loads, %llu stores, not %llu, %llu",
			 memtest_tests[t].name, w,
			 (unsigned long long)o->loads[t],
			 (unsigned long long)o->stores[t],
			 (unsigned long long)ld, (unsigned long long)st);
}

/*
 * Every pass of every test, over the whole region, at every width; and
 * all of them still when each word fails: a failure cuts nothing short
 */
static void test_pass_counts(void **state)
{
	static const unsigned int widths[] = { 1, 2, 4, 8 };
	static const struct fault faults[] = {
		{ .kind = F_NONE }, { .kind = F_LINE0, .bit = 2 },
		{ .kind = F_FLOAT, .bit = 7 },
	};
	struct outcome o = { 0 };
	unsigned int i, j, t;

	(void)state;
	for (i = 0; i < 4; i++)
		for (j = 0; j < 3; j++) {
			run_sim(&o, &faults[j], widths[i], all_tests(), 5, 0);
			for (t = 0; t < memtest_ntests; t++)
				check_passes(&o, t, widths[i]);
		}
}

/*
 * Every access is one of exactly the width, but for the narrow stores of
 * the 8- and 16-bit write tests: 1 or 2 bytes, one per piece of a word
 */
static void test_access_widths(void **state)
{
	static const unsigned int widths[] = { 1, 2, 4, 8 };
	uint64_t narrow = 1ULL << T("8bit-writes") | 1ULL << T("16bit-writes");
	uint64_t half;
	struct outcome o = { 0 };
	unsigned int i, k;

	(void)state;
	for (i = 0; i < 4; i++) {
		run_sim(&o, NULL, widths[i], all_tests() & ~narrow, 1, 0);
		for (k = 1; k <= 8; k++)
			if (k != widths[i])
				assert_true(sim.loads[k] + sim.stores[k] == 0);
	}
	half = SIM_SIZE / 2 / 8;	/* words in each half at width 8 */
	run_sim(&o, NULL, 8, 1ULL << T("8bit-writes"), 1, 0);
	assert_true(sim.stores[1] == 2 * half * 8);	/* both swaps */
	assert_true(sim.stores[8] == 2 * half);
	assert_true(sim.loads[8] == 2 * 2 * half);
	assert_true(sim.loads[1] + sim.loads[2] + sim.stores[2] == 0);
	run_sim(&o, NULL, 4, 1ULL << T("16bit-writes"), 1, 0);
	half = SIM_SIZE / 2 / 4;
	assert_true(sim.stores[2] == 2 * half * 2);
	assert_true(sim.loads[1] + sim.loads[2] + sim.stores[1] == 0);
}

/*
 * Halves of an odd number of words: the pattern tests' pair loops leave
 * a last word, of each half, to their tails
 */
static void test_odd_half(void **state)
{
	static const char *const finders[] = {
		"stuck-address", "solid-bits", "checkerboard", "bit-spread",
		"walking-ones", "walking-zeros", "moving-inversions",
	};
	struct fault f = { .kind = F_CELL1, .bit = 9 };
	struct outcome o = { 0 };
	unsigned int i;

	(void)state;
	run_size = SIM_SIZE - 16;	/* 511 words a half */
	run_sim(&o, NULL, 8, all_tests(), 1, 0);
	assert_int_equal(o.rc, 0);
	f.off = run_size - 8;		/* the upper half's last */
	run_sim(&o, &f, 8, all_tests(), 1, 0);
	run_size = SIM_SIZE;
	for (i = 0; i < ARRAY_SIZE(finders); i++)
		assert_failures_at(&o, T(finders[i]), PHYS + f.off, 9);
}

/* Each loop runs each test again, with other random values */
static void test_loops(void **state)
{
	static unsigned char first[SIM_SIZE];
	uint64_t tests = 1ULL << T("random") | 1ULL << T("solid-bits");
	struct outcome o = { 0 };
	uint64_t total;

	(void)state;
	run_loops(&o, NULL, 8, tests, 3, 0, 1);
	total = o.total;
	run_loops(&o, NULL, 8, 1ULL << T("random"), 3, 0, 1);
	memcpy(first, REGION, SIM_SIZE);
	run_loops(&o, NULL, 8, tests, 3, 0, 3);
	assert_int_equal(o.ran[T("random")], 3);
	assert_int_equal(o.ran[T("solid-bits")], 3);
	assert_true(o.total == 3 * total && o.done == o.total);
	assert_int_equal(o.s.tests_run, 6);
	/* the second loop's random values are not the first's */
	run_loops(&o, NULL, 8, 1ULL << T("random"), 3, 0, 2);
	assert_int_equal(o.rc, 0);
	assert_true(memcmp(first, REGION, SIM_SIZE) != 0);
}

static void test_same_seed(void **state)
{
	struct outcome o = { 0 };
	uint64_t hash, clock;

	(void)state;
	run_sim(&o, NULL, 4, all_tests(), 7, 0);
	hash = sim.hash;
	clock = sim.clock;
	run_sim(&o, NULL, 4, all_tests(), 7, 0);
	assert_true(sim.hash == hash);
	assert_true(sim.clock == clock);
	run_sim(&o, NULL, 4, all_tests(), 8, 0);
	assert_true(sim.hash != hash);
	assert_true(sim.clock == clock);
}

static void test_max_errors(void **state)
{
	struct fault f = { .kind = F_LINE0, .bit = 5 };
	struct outcome o = { 0 };

	(void)state;
	run_sim(&o, &f, 8, all_tests(), 1, 3);
	assert_int_equal(o.failures, 3);
	assert_true(o.s.failures == 3);
	assert_true(o.s.stopped);
	assert_int_equal(o.rc, 1);
	assert_int_equal(o.res[T("data-bus")], MEMTEST_FAIL);
	assert_false(o.ran[T("address-bus")]);
}

static void test_progress_stop(void **state)
{
	struct outcome o = { 0 };

	(void)state;
	o.stop_after = 1;
	run_sim(&o, NULL, 8, 1ULL << T("solid-bits") | 1ULL << T("random"),
		1, 0);
	assert_int_equal(o.progress_calls, 1);
	assert_true(o.s.stopped);
	assert_int_equal(o.rc, 0);
	assert_int_equal(o.res[T("random")], MEMTEST_STOPPED);
	assert_false(o.ran[T("solid-bits")]);
}

static void test_check_params(void **state)
{
	struct memtest_params p = {
		.base = REGION, .size = SIM_SIZE, .width = 8, .tests = 1,
	};

	(void)state;
	assert_null(memtest_check(&p));
	p.width = 3;
	assert_non_null(memtest_check(&p));
	p.width = 8;
	p.size = SIM_SIZE - 8;
	assert_non_null(memtest_check(&p));
	p.size = SIM_SIZE;
	p.base = REGION + 4;
	assert_non_null(memtest_check(&p));
	p.base = REGION;
	p.tests = 0;
	assert_non_null(memtest_check(&p));
	p.tests = 1ULL << memtest_ntests;
	assert_non_null(memtest_check(&p));
}

/* ---- the list of tests and the words ---------------------------------- */

static void test_parse_list(void **state)
{
	char err[512];
	uint64_t set;

	(void)state;
	assert_int_equal(memtest_parse_list("xor,moving-inversions", &set,
					    err, sizeof(err)), 0);
	assert_true(set == (1ULL << T("xor") | 1ULL << T("moving-inversions")));
	assert_int_equal(memtest_parse_list("all", &set, err, sizeof(err)),
			 0);
	assert_true(set == all_tests());
	assert_int_equal(memtest_parse_list("default", &set, err,
					    sizeof(err)), 0);
	assert_true(set == memtest_default_set());
	assert_false(set & 1ULL << T("bit-flip"));
	assert_true(set & 1ULL << T("data-bus"));
	assert_int_equal(memtest_parse_list("default,bit-flip", &set, err,
					    sizeof(err)), 0);
	assert_true(set & 1ULL << T("bit-flip"));

	assert_int_equal(memtest_parse_list("xor,bogus", &set, err,
					    sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown test 'bogus'"));
	assert_non_null(strstr(err, "data-bus"));
	assert_non_null(strstr(err, ", moving-inversions"));
	assert_int_equal(memtest_parse_list("", &set, err, sizeof(err)), -1);
	assert_int_equal(memtest_parse_list("xor,", &set, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "an empty name"));
	/* a short buffer: cut, still a string */
	assert_int_equal(memtest_parse_list("bogus", &set, err, 20), -1);
	assert_int_equal(strlen(err), 19);
}

static void test_summary_text(void **state)
{
	struct memtest_summary s;
	char buf[512];
	int n;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.bits_low = 1ULL << 5 | 1ULL << 63;
	s.bits_high = 0xd0 | 1ULL << 63;
	s.addr_stuck = 1ULL << 20;
	s.addr_shorted = 1ULL << 12 | 1ULL << 13 | 1ULL << 15;
	s.short_to[12] = 13;
	s.short_to[13] = 12;
	s.short_to[15] = 12;
	n = memtest_summary_text(&s, buf, sizeof(buf));
	assert_int_equal(n, strlen(buf));
	assert_string_equal(buf,
		"address line A20 stuck (high or low)\n"
		"address line A12 shorted to A13\n"
		"address line A15 shorted to A12\n"
		"data bit 5 stuck at 0 or failing "
		"(read 0 where 1 was written)\n"
		"data bits 4, 6-7 stuck at 1 or failing "
		"(read 1 where 0 was written)\n"
		"data bit 63 failing both ways\n");
	memset(&s, 0, sizeof(s));
	s.bits_low = UINT64_MAX;
	memtest_summary_text(&s, buf, sizeof(buf));
	assert_string_equal(buf, "data bits 0-63 stuck at 0 or failing "
			    "(read 0 where 1 was written)\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fault_free),
		cmocka_unit_test(test_data_line),
		cmocka_unit_test(test_cell_bit),
		cmocka_unit_test(test_address_short),
		cmocka_unit_test(test_address_stuck),
		cmocka_unit_test(test_coupling),
		cmocka_unit_test(test_retention),
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_access_widths),
		cmocka_unit_test(test_pass_counts),
		cmocka_unit_test(test_odd_half),
		cmocka_unit_test(test_loops),
		cmocka_unit_test(test_same_seed),
		cmocka_unit_test(test_max_errors),
		cmocka_unit_test(test_progress_stop),
		cmocka_unit_test(test_check_params),
		cmocka_unit_test(test_parse_list),
		cmocka_unit_test(test_summary_text),
	};

	return cmocka_run_group_tests_name("memtest", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The memory test engine (memtest.h). The tests after U-Boot's
 * mem_test_alt (data bus, address bus) and memtester's tests.c, with two
 * differences from memtester: every test knows the value each word should
 * hold (random values come from a counter-based generator, splitmix64, so
 * the value of word i is computed again when it is checked), and so
 * reports the word that is wrong rather than a pair that differs; and the
 * operation tests (xor ... and) fill the halves themselves instead of
 * working on what the random-value test left, so that each runs alone
 * under --tests and one bad word does not fail every later test again.
 * They also check each word as they read it, and write the operation on
 * the right value: a wrong read is reported with its own bits, not
 * smeared over many by a multiply or a divide.
 *
 * Speed: the loops are written once (always_inline, width and pattern as
 * parameters) and instantiated for each constant width, so each access is
 * one load or store instruction with no call; callbacks run only between
 * chunks and on failures. MEMTEST_SIM sends every access to
 * memtest_sim_read/write instead (tests/unit/test_memtest.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "access.h"
#include "memtest.h"
#include "util.h"

#ifdef MEMTEST_SIM
uint64_t memtest_sim_read(const volatile void *p, unsigned int width);
void memtest_sim_write(volatile void *p, uint64_t val, unsigned int width);
#define LOAD(p, w)		memtest_sim_read(p, w)
#define STORE(p, v, w)		memtest_sim_write(p, v, w)
#else
#define LOAD(p, w)		io_load(p, w)
#define STORE(p, v, w)		io_store(p, v, w)
#endif

#define INLINE		static inline __attribute__((always_inline))
#define COLD		__attribute__((noinline, cold))
#define GOLDEN		0x9e3779b97f4a7c15ULL
#define ONES		UINT64_MAX
#define FIVES		0x5555555555555555ULL
/*
 * Bytes of each array between two progress calls: a few per second
 * uncached. An even number of words of any width (alt_fill's pairs).
 */
#define CHUNK		(256 * 1024)

/* BY_WIDTH(w, X): X(1), X(2), X(4) or X(8), a constant for the inliner */
#define BY_WIDTH(w, X)							\
	do {								\
		switch (w) {						\
		case 1: X(1); break;					\
		case 2: X(2); break;					\
		case 4: X(4); break;					\
		default: X(8); break;					\
		}							\
	} while (0)

enum stop { GOING, STOP_ERRORS, STOP_ASKED };

struct memtest_run {
	const struct memtest_params *p;
	const struct memtest_callbacks *cb;
	struct memtest_summary *s;
	volatile unsigned char *base;
	size_t words, half;	/* words in the region, in each half */
	unsigned int w, bits;
	uint64_t mask;		/* the width's bits */
	const struct memtest_test *cur;
	uint64_t key;		/* the running test's random key */
	uint64_t done, total;	/* progress, bytes */
	enum stop stop;
};

/* splitmix64's finaliser; word i of a random fill is mix64(key + i*GOLDEN) */
INLINE uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

INLINE uint64_t rand_at(uint64_t key, size_t i)
{
	return mix64(key + ((uint64_t)i + 1) * GOLDEN);
}

INLINE uint64_t wmask(unsigned int w)
{
	return w == 8 ? ONES : (1ULL << (8 * w)) - 1;
}

static uint64_t bit(unsigned int n)
{
	return n < 64 ? 1ULL << n : 0;
}

/* ---- failures ---------------------------------------------------------- */

/* A mismatch at byte offset off; non-zero when the run must stop */
static COLD int mismatch(struct memtest_run *r, size_t off, uint64_t e,
			 uint64_t v)
{
	const struct memtest_callbacks *cb = r->cb;

	r->s->failures++;
	if (cb->failure)
		cb->failure(cb->ctx, r->cur->name, r->p->phys + off, e, v);
	if (r->p->max_errors && r->s->failures >= r->p->max_errors)
		r->stop = STOP_ERRORS;
	return r->stop != GOING;
}

/* A data mismatch: its bits go into the per-bit summary too */
static COLD int data_fail(struct memtest_run *r, size_t off, uint64_t e,
			  uint64_t v)
{
	r->s->bits_low |= e & ~v;
	r->s->bits_high |= ~e & v;
	return mismatch(r, off, e, v);
}

/* ---- patterns ---------------------------------------------------------- */

enum pat_kind { PAT_ALT, PAT_RAND, PAT_SEQ, PAT_ADDR };
enum op { OP_NONE, OP_XOR, OP_SUB, OP_MUL, OP_DIV, OP_OR, OP_AND };

/*
 * The value of word i. ALT: a for even words, b for odd ones (both halves);
 * RAND: random with key a, then op with q; SEQ: a + i; ADDR: the word's
 * physical address a + i * w, inverted on odd i + b (the whole region).
 */
struct pat {
	enum pat_kind kind;
	enum op op;
	uint64_t a, b, q;
};

INLINE uint64_t apply(enum op op, uint64_t v, uint64_t q, uint64_t m)
{
	switch (op) {
	case OP_XOR:
		return v ^ q;
	case OP_SUB:
		return (v - q) & m;
	case OP_MUL:
		return (v * q) & m;
	case OP_DIV:
		return v / q;
	case OP_OR:
		return v | q;
	case OP_AND:
		return v & q;
	default:
		return v;
	}
}

INLINE uint64_t pat_val(enum pat_kind k, const struct pat *t, size_t i,
			unsigned int w)
{
	uint64_t m = wmask(w), addr;

	switch (k) {
	case PAT_ALT:
		return (i & 1) ? t->b : t->a;
	case PAT_RAND:
		return apply(t->op, rand_at(t->a, i) & m, t->q, m);
	case PAT_SEQ:
		return (t->a + i) & m;
	default:
		addr = t->a + (uint64_t)i * w;
		return (((t->b + i) & 1) ? ~addr : addr) & m;
	}
}

/* ---- the loops --------------------------------------------------------- */

/*
 * PAT_ALT an even and an odd word at a time (the chunks start at even
 * words): no select per word, as fast as memtester's loops
 */
INLINE void alt_fill(struct memtest_run *r, const struct pat *t, size_t i,
		     size_t n, unsigned int w)
{
	volatile unsigned char *a = r->base + i * w, *b = a + r->half * w;
	uint64_t e0 = t->a, e1 = t->b;

	for (; n >= 2; n -= 2, a += 2 * w, b += 2 * w) {
		STORE(a, e0, w);
		STORE(b, e0, w);
		STORE(a + w, e1, w);
		STORE(b + w, e1, w);
	}
	if (n) {
		STORE(a, e0, w);
		STORE(b, e0, w);
	}
}

/* One word read; non-zero when the run must stop */
INLINE int check_word(struct memtest_run *r, size_t x, uint64_t e,
		      unsigned int w)
{
	uint64_t v = LOAD(r->base + x * w, w);

	return __builtin_expect(v != e, 0) && data_fail(r, x * w, e, v);
}

INLINE void alt_check(struct memtest_run *r, const struct pat *t, size_t i,
		      size_t n, unsigned int w)
{
	uint64_t e0 = t->a, e1 = t->b;
	size_t h = r->half;

	for (n += i; i + 2 <= n; i += 2)
		if (check_word(r, i, e0, w) || check_word(r, h + i, e0, w) ||
		    check_word(r, i + 1, e1, w) ||
		    check_word(r, h + i + 1, e1, w))
			return;
	if (i < n && !check_word(r, i, e0, w))
		check_word(r, h + i, e0, w);
}

/*
 * Words [i, i + n) of both halves, word i of A then of B as memtester
 * does; of the whole region for PAT_ADDR
 */
INLINE void fill_loop(struct memtest_run *r, enum pat_kind k,
		      const struct pat *pt, size_t i, size_t n, unsigned int w)
{
	volatile unsigned char *a = r->base, *b = a + r->half * w;
	const struct pat t = *pt;	/* in registers: stores alias *pt */

	if (k == PAT_ALT) {
		alt_fill(r, &t, i, n, w);
		return;
	}
	for (n += i; i < n; i++) {
		uint64_t v = pat_val(k, &t, i, w);

		STORE(a + i * w, v, w);
		if (k != PAT_ADDR)
			STORE(b + i * w, v, w);
	}
}

INLINE void check_loop(struct memtest_run *r, enum pat_kind k,
		       const struct pat *pt, size_t i, size_t n, unsigned int w)
{
	volatile unsigned char *a = r->base, *b = a + r->half * w;
	const struct pat t = *pt;
	uint64_t v, e;

	if (k == PAT_ALT) {
		alt_check(r, &t, i, n, w);
		return;
	}
	for (n += i; i < n; i++) {
		e = pat_val(k, &t, i, w);
		v = LOAD(a + i * w, w);
		if (__builtin_expect(v != e, 0) && data_fail(r, i * w, e, v))
			return;
		if (k == PAT_ADDR)
			continue;
		v = LOAD(b + i * w, w);
		if (__builtin_expect(v != e, 0) &&
		    data_fail(r, (r->half + i) * w, e, v))
			return;
	}
}

/* Each pattern kind its own loop: no switch per word */
#define BY_KIND(loop, r, t, i, n, w)					\
	do {								\
		switch ((t)->kind) {					\
		case PAT_ALT: loop(r, PAT_ALT, t, i, n, w); break;	\
		case PAT_RAND: loop(r, PAT_RAND, t, i, n, w); break;	\
		case PAT_SEQ: loop(r, PAT_SEQ, t, i, n, w); break;	\
		default: loop(r, PAT_ADDR, t, i, n, w); break;		\
		}							\
	} while (0)

static void k_fill(struct memtest_run *r, size_t i, size_t n, const void *arg)
{
#define FILL(w) BY_KIND(fill_loop, r, (const struct pat *)arg, i, n, w)
	BY_WIDTH(r->w, FILL);
#undef FILL
}

static void k_check(struct memtest_run *r, size_t i, size_t n,
		    const void *arg)
{
#define CHECK(w) BY_KIND(check_loop, r, (const struct pat *)arg, i, n, w)
	BY_WIDTH(r->w, CHECK);
#undef CHECK
}

/*
 * Word x read, checked against e (its random value) and written with
 * e OP q: memtester's *p1++ ^= q but for the value written, the right one
 * rather than one computed from a wrong read, whose error a multiply or
 * a divide would smear over many bits and report again
 */
INLINE void rmw_word(struct memtest_run *r, enum op op, uint64_t e,
		     uint64_t q, size_t x, unsigned int w)
{
	volatile unsigned char *p = r->base + x * w;
	uint64_t v = LOAD(p, w);

	if (__builtin_expect(v != e, 0))
		data_fail(r, x * w, e, v);
	STORE(p, apply(op, e, q, wmask(w)), w);
}

INLINE void rmw_loop(struct memtest_run *r, enum op op, const struct pat *t,
		     size_t i, size_t n, unsigned int w)
{
	uint64_t key = t->a, q = t->q, e;
	size_t h = r->half;

	for (n += i; i < n && r->stop == GOING; i++) {
		e = rand_at(key, i) & wmask(w);
		rmw_word(r, op, e, q, i, w);
		rmw_word(r, op, e, q, h + i, w);
	}
}

/* op stays a switch per word: these tests are 1% of a run */
static void k_rmw(struct memtest_run *r, size_t i, size_t n, const void *arg)
{
	const struct pat *t = arg;

#define RMW(w) rmw_loop(r, t->op, t, i, n, w)
	BY_WIDTH(r->w, RMW);
#undef RMW
}

/* Piece k of the nw-byte pieces of the w-byte v, in memory order */
INLINE uint64_t piece(uint64_t v, unsigned int w, unsigned int nw,
		      unsigned int k)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return v >> (8 * (w - nw * (k + 1)));
#else
	(void)w;
	return v >> (8 * nw * k);
#endif
}

struct narrow {
	uint64_t key;
	int swap;		/* narrow stores into A, wide into B */
	unsigned int nw;
};

/* Random words: whole in one half, in nw-byte stores in the other */
INLINE void narrow_loop(struct memtest_run *r, const struct narrow *t,
			size_t i, size_t n, unsigned int w, unsigned int nw)
{
	volatile unsigned char *a = r->base, *b = a + r->half * w, *x;
	uint64_t key = t->key;
	unsigned int k;

	if (t->swap) {
		x = a;
		a = b;
		b = x;
	}
	for (n += i; i < n; i++) {
		uint64_t v = rand_at(key, i) & wmask(w);

		STORE(a + i * w, v, w);
		for (k = 0; k < w / nw; k++)
			STORE(b + i * w + k * nw, piece(v, w, nw, k), nw);
	}
}

static void k_narrow(struct memtest_run *r, size_t i, size_t n,
		     const void *arg)
{
	const struct narrow *t = arg;

#define NARROW(w)							\
	do {								\
		if (t->nw == 1)						\
			narrow_loop(r, t, i, n, w, 1);			\
		else if ((w) > 2)					\
			narrow_loop(r, t, i, n, w, 2);			\
	} while (0)
	BY_WIDTH(r->w, NARROW);
#undef NARROW
}

/* One march element over the whole region: read rv (R), write wv (W) */
enum { M_R = 1, M_W = 2 };

struct march {
	unsigned int ops;
	int down;
	uint64_t rv, wv;
};

INLINE void march_loop(struct memtest_run *r, const struct march *pt,
		       size_t i, size_t n, unsigned int w)
{
	const struct march t = *pt;
	volatile unsigned char *p;
	size_t j;
	uint64_t v;

	for (j = 0; j < n; j++) {
		p = r->base + (t.down ? i + n - 1 - j : i + j) * w;
		v = (t.ops & M_R) ? LOAD(p, w) : t.rv;
		if (__builtin_expect(v != t.rv, 0) &&
		    data_fail(r, (size_t)(p - r->base), t.rv, v))
			return;
		if (t.ops & M_W)
			STORE(p, t.wv, w);
	}
}

static void k_march(struct memtest_run *r, size_t i, size_t n,
		    const void *arg)
{
#define MARCH(w) march_loop(r, arg, i, n, w)
	BY_WIDTH(r->w, MARCH);
#undef MARCH
}

/* ---- progress ---------------------------------------------------------- */

typedef void kern_fn(struct memtest_run *r, size_t i, size_t n,
		     const void *arg);

static void advance(struct memtest_run *r, uint64_t bytes)
{
	const struct memtest_callbacks *cb = r->cb;

	r->done += bytes;
	if (cb->progress && cb->progress(cb->ctx, r->done, r->total) &&
	    r->stop == GOING)
		r->stop = STOP_ASKED;
}

/*
 * k over words [0, n) in chunks (the last first when down), progress
 * after each: bpw bytes accessed a word
 */
static void chunked(struct memtest_run *r, kern_fn *k, const void *arg,
		    size_t n, unsigned int bpw, int down)
{
	size_t step = CHUNK / r->w, i, m;

	for (i = 0; i < n && r->stop == GOING; i += m) {
		m = n - i < step ? n - i : step;
		k(r, down ? n - i - m : i, m, arg);
		advance(r, (uint64_t)m * bpw);
	}
}

/* ---- the tests --------------------------------------------------------- */

static uint64_t half_bytes(const struct memtest_run *r)
{
	return (uint64_t)r->half * r->w;
}

static void fill_check(struct memtest_run *r, const struct pat *t)
{
	size_t n = t->kind == PAT_ADDR ? r->words : r->half;
	unsigned int bpw = t->kind == PAT_ADDR ? r->w : 2 * r->w;

	chunked(r, k_fill, t, n, bpw, 0);
	chunked(r, k_check, t, n, bpw, 0);
}

/*
 * U-Boot's data-line test on the first word: a pattern, its complement
 * on a parking word (the last) to drive the bus the other way, then the
 * read; the same for the complement. One bad line fails every time.
 */
static void data_probe(struct memtest_run *r, uint64_t v)
{
	volatile unsigned char *park = r->base + r->p->size - r->w;
	uint64_t got;

	STORE(r->base, v, r->w);
	STORE(park, ~v & r->mask, r->w);
	got = LOAD(r->base, r->w);
	if (got != v)
		data_fail(r, 0, v, got);
}

static enum memtest_result t_data_bus(struct memtest_run *r)
{
	static const uint64_t pats[] = {
		1, 3, 7, 0xf, 5, 0x15, 0x55, 0xaaaaaaaaaaaaaaaaULL,
	};
	unsigned int i;
	uint64_t v;

	for (i = 0; i < ARRAY_SIZE(pats); i++)
		for (v = pats[i] & r->mask; v && r->stop == GOING;
		     v = (v << 1) & r->mask) {
			data_probe(r, v);
			data_probe(r, ~v & r->mask);
		}
	return MEMTEST_PASS;
}

/*
 * The address-bus test: cells at offset 0 and at each power of two from
 * the width up (one cell per address line). For each cell X: the pattern
 * into all, its complement into X, then every cell read. A cell Y that
 * reads back (nearer) the complement shares its storage with X: a line
 * stuck (Y or X is offset 0; stuck high and stuck low look the same) or
 * two lines shorted (wired-OR: X and Y are lines; wired-AND: both alias
 * offset 0, addr_and_short). Other wrong values are data failures.
 */
struct addr_probe {
	size_t cell[MEMTEST_MAX_LINES + 1];
	unsigned int line[MEMTEST_MAX_LINES + 1];
	unsigned int n;
	uint64_t stuck, with[MEMTEST_MAX_LINES];
};

static void addr_alias(struct addr_probe *a, unsigned int x, unsigned int y)
{
	if (!x || !y)
		a->stuck |= 1ULL << a->line[x | y];
	else
		a->with[a->line[x]] |= 1ULL << a->line[y];
}

static void addr_probe(struct memtest_run *r, struct addr_probe *a,
		       unsigned int x)
{
	uint64_t p = 0xaaaaaaaaaaaaaaaaULL & r->mask, n = ~p & r->mask;
	uint64_t v, e;
	unsigned int y;

	for (y = 0; y <= a->n; y++)
		STORE(r->base + a->cell[y], p, r->w);
	STORE(r->base + a->cell[x], n, r->w);
	for (y = 0; y <= a->n && r->stop == GOING; y++) {
		e = y == x ? n : p;
		v = LOAD(r->base + a->cell[y], r->w);
		if (v == e)
			continue;
		if (y != x && __builtin_popcountll(v ^ n) <
			      __builtin_popcountll(v ^ p)) {
			addr_alias(a, x, y);
			mismatch(r, a->cell[y], e, v);
		} else {
			data_fail(r, a->cell[y], e, v);
		}
	}
}

/*
 * Two lines j and k that both alias offset 0: both stuck, or shorted so
 * that each is high only when both are (wired-AND). The cell at
 * 2^j + 2^k tells: it is offset 0's cell too when both are stuck, a cell
 * of its own when they are shorted. (Outside the region: stuck both.)
 */
static int addr_and_short(struct memtest_run *r, unsigned int j,
			  unsigned int k)
{
	uint64_t p = 0xaaaaaaaaaaaaaaaaULL & r->mask, n = ~p & r->mask;
	size_t jk = (size_t)(bit(j) | bit(k));
	uint64_t v;

	if (jk > r->p->size - r->w)
		return 0;
	STORE(r->base, p, r->w);
	STORE(r->base + jk, n, r->w);
	v = LOAD(r->base, r->w);
	return __builtin_popcountll(v ^ p) < __builtin_popcountll(v ^ n);
}

static void addr_and_shorts(struct memtest_run *r, struct addr_probe *a)
{
	uint64_t stuck = a->stuck;
	unsigned int j, k;

	for (j = 0; j < MEMTEST_MAX_LINES; j++)
		for (k = j + 1; k < MEMTEST_MAX_LINES; k++)
			if ((stuck >> j & 1) && (stuck >> k & 1) &&
			    (a->with[j] >> k & 1) && addr_and_short(r, j, k))
				a->stuck &= ~(bit(j) | bit(k));
}

static void addr_verdict(struct memtest_summary *s,
			 const struct addr_probe *a)
{
	unsigned int k;
	uint64_t others;

	s->addr_stuck |= a->stuck;
	for (k = 0; k < MEMTEST_MAX_LINES; k++) {
		others = a->with[k] & ~a->stuck;
		if (!others || (a->stuck & (1ULL << k)))
			continue;
		s->addr_shorted |= 1ULL << k;
		s->short_to[k] = (unsigned char)__builtin_ctzll(others);
	}
}

static enum memtest_result t_address_bus(struct memtest_run *r)
{
	struct addr_probe a;
	unsigned int k, x;

	memset(&a, 0, sizeof(a));
	for (k = __builtin_ctz(r->w); k < 64 && bit(k) < r->p->size &&
	     r->p->size - bit(k) >= r->w; k++) {
		a.n++;
		a.cell[a.n] = (size_t)bit(k);
		a.line[a.n] = k;
	}
	for (x = 0; x <= a.n && r->stop == GOING; x++)
		addr_probe(r, &a, x);
	addr_and_shorts(r, &a);
	addr_verdict(r->s, &a);
	return MEMTEST_PASS;
}

/* memtester's stuck address: each word its address, inverted on odd words */
static enum memtest_result t_stuck_address(struct memtest_run *r)
{
	struct pat t = { .kind = PAT_ADDR, .a = r->p->phys };
	unsigned int j;

	for (j = 0; j < 16 && r->stop == GOING; j++) {
		t.b = j;
		fill_check(r, &t);
	}
	return MEMTEST_PASS;
}

static uint64_t c_stuck_address(const struct memtest_run *r)
{
	return 32 * (uint64_t)r->p->size;
}

static enum memtest_result t_random(struct memtest_run *r)
{
	struct pat t = { .kind = PAT_RAND, .a = r->key };

	fill_check(r, &t);
	return MEMTEST_PASS;
}

static uint64_t c_random(const struct memtest_run *r)
{
	return 4 * half_bytes(r);
}

/* Random words in both halves, word OP q, each checked */
static enum memtest_result t_op(struct memtest_run *r)
{
	struct pat t = { .kind = PAT_RAND, .a = r->key };

	chunked(r, k_fill, &t, r->half, 2 * r->w, 0);
	t.q = mix64(r->key ^ GOLDEN) & r->mask;
	t.op = (enum op)r->cur->arg;
	if (t.op == OP_DIV && !t.q)
		t.q = 1;
	chunked(r, k_rmw, &t, r->half, 4 * r->w, 0);
	chunked(r, k_check, &t, r->half, 2 * r->w, 0);
	return MEMTEST_PASS;
}

static uint64_t c_op(const struct memtest_run *r)
{
	return 8 * half_bytes(r);
}

static enum memtest_result t_seqinc(struct memtest_run *r)
{
	struct pat t = { .kind = PAT_SEQ, .a = mix64(r->key) };

	fill_check(r, &t);
	return MEMTEST_PASS;
}

/*
 * memtester's pattern tests: pass j writes even words of both halves with
 * one value, odd words with another, and checks them
 */
struct gen {
	unsigned int fixed, per_bit;	/* passes: fixed + per_bit * bits */
	void (*pair)(unsigned int j, unsigned int bits, uint64_t *even,
		     uint64_t *odd);
};

static void g_solid(unsigned int j, unsigned int bits, uint64_t *e,
		    uint64_t *o)
{
	(void)bits;
	*e = (j & 1) ? 0 : ONES;
	*o = ~*e;
}

static void g_checker(unsigned int j, unsigned int bits, uint64_t *e,
		      uint64_t *o)
{
	(void)bits;
	*e = (j & 1) ? ~FIVES : FIVES;
	*o = ~*e;
}

static void g_block(unsigned int j, unsigned int bits, uint64_t *e,
		    uint64_t *o)
{
	(void)bits;
	*e = *o = 0x0101010101010101ULL * j;
}

/* Up the bits, then back down */
static unsigned int up_down(unsigned int j, unsigned int bits)
{
	return j < bits ? j : 2 * bits - 1 - j;
}

static void g_walk1(unsigned int j, unsigned int bits, uint64_t *e,
		    uint64_t *o)
{
	*e = *o = bit(up_down(j, bits));
}

static void g_walk0(unsigned int j, unsigned int bits, uint64_t *e,
		    uint64_t *o)
{
	*e = *o = ~bit(up_down(j, bits));
}

static void g_spread(unsigned int j, unsigned int bits, uint64_t *e,
		     uint64_t *o)
{
	unsigned int n = up_down(j, bits);

	*e = bit(n) | bit(n + 2);
	*o = ~*e;
}

/* Bit j / 8, inverted 8 times: ~bit, bit, ~bit ... */
static void g_flip(unsigned int j, unsigned int bits, uint64_t *e,
		   uint64_t *o)
{
	(void)bits;
	*e = (j & 1) ? bit(j / 8) : ~bit(j / 8);
	*o = ~*e;
}

enum { G_SOLID, G_CHECKER, G_BLOCK, G_WALK1, G_WALK0, G_SPREAD, G_FLIP };

static const struct gen gens[] = {
	[G_SOLID] = { 64, 0, g_solid },
	[G_CHECKER] = { 64, 0, g_checker },
	[G_BLOCK] = { 256, 0, g_block },
	[G_WALK1] = { 0, 2, g_walk1 },
	[G_WALK0] = { 0, 2, g_walk0 },
	[G_SPREAD] = { 0, 2, g_spread },
	[G_FLIP] = { 0, 8, g_flip },
};

static unsigned int gen_passes(const struct memtest_run *r)
{
	const struct gen *g = &gens[r->cur->arg];

	return g->fixed + g->per_bit * r->bits;
}

static enum memtest_result t_pattern(struct memtest_run *r)
{
	const struct gen *g = &gens[r->cur->arg];
	struct pat t = { .kind = PAT_ALT };
	unsigned int j, n = gen_passes(r);

	for (j = 0; j < n && r->stop == GOING; j++) {
		g->pair(j, r->bits, &t.a, &t.b);
		t.a &= r->mask;
		t.b &= r->mask;
		fill_check(r, &t);
	}
	return MEMTEST_PASS;
}

static uint64_t c_pattern(const struct memtest_run *r)
{
	return gen_passes(r) * 4 * half_bytes(r);
}

/*
 * memtester's 8- and 16-bit writes: random words, whole in one half and
 * in narrower stores in the other, then the halves the other way round
 */
static enum memtest_result t_narrow(struct memtest_run *r)
{
	struct narrow t = { .nw = r->cur->arg };
	struct pat c = { .kind = PAT_RAND };
	int swap;

	if (r->w <= t.nw)
		return MEMTEST_SKIP;
	for (swap = 0; swap < 2 && r->stop == GOING; swap++) {
		t.swap = swap;
		t.key = c.a = mix64(r->key + (uint64_t)swap);
		chunked(r, k_narrow, &t, r->half, 2 * r->w, 0);
		chunked(r, k_check, &c, r->half, 2 * r->w, 0);
	}
	return MEMTEST_PASS;
}

static uint64_t c_narrow(const struct memtest_run *r)
{
	return r->w > r->cur->arg ? 8 * half_bytes(r) : 0;
}

/*
 * Moving inversions, as March C-: up (w0); up (r0, w1); up (r1, w0);
 * down (r0, w1); down (r1, w0); up (r0); 0 a background, 1 its
 * complement; backgrounds all zeros and 0x55... Each read-and-write pass
 * reads a word just after rewriting its neighbour (below going up, above
 * going down): a cell that a write to a neighbour flips (coupling) is
 * seen, where a fill-then-check pass writes it again after the neighbour.
 */
static void march(struct memtest_run *r, uint64_t bg)
{
	uint64_t z = bg & r->mask, o = ~bg & r->mask;
	const struct march el[] = {
		{ M_W, 0, z, z }, { M_R | M_W, 0, z, o },
		{ M_R | M_W, 0, o, z }, { M_R | M_W, 1, z, o },
		{ M_R | M_W, 1, o, z }, { M_R, 0, z, z },
	};
	unsigned int i, n;

	for (i = 0; i < ARRAY_SIZE(el); i++) {
		n = !!(el[i].ops & M_R) + !!(el[i].ops & M_W);
		chunked(r, k_march, &el[i], r->words, n * r->w, el[i].down);
	}
}

static enum memtest_result t_moving_inversions(struct memtest_run *r)
{
	march(r, 0);
	march(r, FIVES);
	return MEMTEST_PASS;
}

static uint64_t c_moving_inversions(const struct memtest_run *r)
{
	return 20 * (uint64_t)r->p->size;
}

static uint64_t c_none(const struct memtest_run *r)
{
	(void)r;
	return 0;
}

/*
 * The order of a run: the bus tests first (a bad bus fails everything
 * after it, and they say why in a few accesses), then memtester's order.
 * Slow: bit-flip (8 passes a data bit) and block-seq (256 passes), more
 * than half of memtester's time between them at 64 bits.
 */
const struct memtest_test memtest_tests[] = {
	{ "data-bus", 0, t_data_bus, c_none, 0 },
	{ "address-bus", 0, t_address_bus, c_none, 0 },
	{ "stuck-address", 0, t_stuck_address, c_stuck_address, 0 },
	{ "random", 0, t_random, c_random, 0 },
	{ "xor", 0, t_op, c_op, OP_XOR },
	{ "sub", 0, t_op, c_op, OP_SUB },
	{ "mul", 0, t_op, c_op, OP_MUL },
	{ "div", 0, t_op, c_op, OP_DIV },
	{ "or", 0, t_op, c_op, OP_OR },
	{ "and", 0, t_op, c_op, OP_AND },
	{ "seqinc", 0, t_seqinc, c_random, 0 },
	{ "solid-bits", 0, t_pattern, c_pattern, G_SOLID },
	{ "block-seq", 1, t_pattern, c_pattern, G_BLOCK },
	{ "checkerboard", 0, t_pattern, c_pattern, G_CHECKER },
	{ "bit-spread", 0, t_pattern, c_pattern, G_SPREAD },
	{ "bit-flip", 1, t_pattern, c_pattern, G_FLIP },
	{ "walking-ones", 0, t_pattern, c_pattern, G_WALK1 },
	{ "walking-zeros", 0, t_pattern, c_pattern, G_WALK0 },
	{ "8bit-writes", 0, t_narrow, c_narrow, 1 },
	{ "16bit-writes", 0, t_narrow, c_narrow, 2 },
	{ "moving-inversions", 0, t_moving_inversions, c_moving_inversions,
	  0 },
};

const unsigned int memtest_ntests = ARRAY_SIZE(memtest_tests);

/* ---- the list of tests ------------------------------------------------- */

int memtest_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < memtest_ntests; i++)
		if (!strcmp(memtest_tests[i].name, name))
			return (int)i;
	return -1;
}

uint64_t memtest_default_set(void)
{
	uint64_t set = 0;
	unsigned int i;

	for (i = 0; i < memtest_ntests; i++)
		if (!memtest_tests[i].slow)
			set |= 1ULL << i;
	return set;
}

/* The name list[0, len) as a set; 0 when it names none */
static uint64_t name_set(const char *name, size_t len)
{
	char buf[32];
	int i;

	if (len >= sizeof(buf))
		return 0;
	memcpy(buf, name, len);
	buf[len] = '\0';
	if (!strcmp(buf, "all"))
		return (1ULL << memtest_ntests) - 1;
	if (!strcmp(buf, "default"))
		return memtest_default_set();
	i = memtest_find(buf);
	return i < 0 ? 0 : 1ULL << i;
}

static void list_error(const char *name, size_t len, char *err,
		       size_t errlen)
{
	size_t n;
	unsigned int i;
	int k;

	if (!len)
		k = snprintf(err, errlen, "an empty name (a comma too many, or "
			     "none given); the tests are all, default");
	else
		k = snprintf(err, errlen, "unknown test '%.*s'; the tests are "
			     "all, default", (int)len, name);
	for (i = 0; i < memtest_ntests && k >= 0 && (size_t)k < errlen; i++) {
		n = (size_t)k;
		k = snprintf(err + n, errlen - n, ", %s",
			     memtest_tests[i].name);
		if (k >= 0)
			k += (int)n;
	}
}

int memtest_parse_list(const char *list, uint64_t *set, char *err,
		       size_t errlen)
{
	const char *p = list, *end;
	uint64_t one;
	size_t len;

	*set = 0;
	for (;;) {
		end = strchr(p, ',');
		len = end ? (size_t)(end - p) : strlen(p);
		one = name_set(p, len);
		if (!one) {
			list_error(p, len, err, errlen);
			return -1;
		}
		*set |= one;
		if (!end)
			return 0;
		p = end + 1;
	}
}

/* ---- a run ------------------------------------------------------------- */

const char *memtest_check(const struct memtest_params *p)
{
	unsigned int w = p->width;

	if (w != 1 && w != 2 && w != 4 && w != 8)
		return "the width is not 1, 2, 4 or 8 bytes";
	if ((uintptr_t)p->base % w || p->phys % w)
		return "the region does not start at a multiple of the width";
	if (!p->size || p->size % (2 * w))
		return "the region's size is not a multiple of twice the width";
	if (!p->tests || p->tests >> memtest_ntests)
		return "no tests, or tests that do not exist";
	return NULL;
}

static double since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) +
	       (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static void run_one(struct memtest_run *r, unsigned int i, unsigned int loop)
{
	const struct memtest_callbacks *cb = r->cb;
	uint64_t before = r->s->failures;
	enum memtest_result res;
	struct timespec t0;

	r->cur = &memtest_tests[i];
	r->key = mix64(r->p->seed +
		       ((uint64_t)loop * memtest_ntests + i + 1) * GOLDEN);
	if (cb->test_start)
		cb->test_start(cb->ctx, r->cur->name);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	res = r->cur->fn(r);
	if (r->s->failures > before)
		res = MEMTEST_FAIL;
	else if (r->stop != GOING)
		res = MEMTEST_STOPPED;
	if (res != MEMTEST_SKIP)
		r->s->tests_run++;
	if (res == MEMTEST_FAIL)
		r->s->tests_failed++;
	if (cb->test_end)
		cb->test_end(cb->ctx, r->cur->name, res, since(&t0));
}

static void run_init(struct memtest_run *r, const struct memtest_params *p,
		     const struct memtest_callbacks *cb,
		     struct memtest_summary *s)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	memset(s, 0, sizeof(*s));
	r->p = p;
	r->cb = cb;
	r->s = s;
	r->base = p->base;
	r->w = s->width = p->width;
	r->bits = 8 * r->w;
	r->mask = wmask(r->w);
	r->words = p->size / r->w;
	r->half = r->words / 2;
	for (i = 0; i < memtest_ntests; i++) {
		r->cur = &memtest_tests[i];
		if (p->tests & (1ULL << i))
			r->total += r->cur->cost(r);
	}
	r->total *= p->loops ? p->loops : 1;
}

int memtest_run(const struct memtest_params *p,
		const struct memtest_callbacks *cb, struct memtest_summary *s)
{
	struct memtest_run r;
	unsigned int loop, i;

	if (memtest_check(p))
		return -1;
	run_init(&r, p, cb, s);
	for (loop = 0; loop < (p->loops ? p->loops : 1); loop++)
		for (i = 0; i < memtest_ntests && r.stop == GOING; i++)
			if (p->tests & (1ULL << i))
				run_one(&r, i, loop);
	s->stopped = r.stop != GOING;
	return s->failures ? 1 : 0;
}

/* ---- the summary in words ---------------------------------------------- */

struct text {
	char *buf;
	size_t len, n;
};

static void put(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(t->n < t->len ? t->buf + t->n : NULL,
		      t->n < t->len ? t->len - t->n : 0, fmt, ap);
	va_end(ap);
	if (k > 0)
		t->n += (size_t)k;
}

/* "5" or "0-3, 7" */
static void put_bits(struct text *t, uint64_t bits)
{
	unsigned int b = 0, e;
	const char *sep = "";

	while (bits >> b) {
		b += (unsigned int)__builtin_ctzll(bits >> b);
		for (e = b; e < 63 && (bits >> (e + 1) & 1); e++)
			;
		if (e == b)
			put(t, "%s%u", sep, b);
		else
			put(t, "%s%u-%u", sep, b, e);
		sep = ", ";
		if (e == 63)
			break;
		b = e + 1;
	}
}

static void put_data(struct text *t, uint64_t bits, const char *what)
{
	if (!bits)
		return;
	put(t, "data bit%s ", bits & (bits - 1) ? "s" : "");
	put_bits(t, bits);
	put(t, " %s\n", what);
}

static void put_shorts(struct text *t, const struct memtest_summary *s)
{
	unsigned int k, to;

	for (k = 0; k < MEMTEST_MAX_LINES; k++) {
		if (!(s->addr_shorted >> k & 1))
			continue;
		to = s->short_to[k];
		/* a pair once; a third line on the same short still shows */
		if (to < k && s->short_to[to] == k)
			continue;
		put(t, "address line A%u shorted to A%u\n", k, to);
	}
}

int memtest_summary_text(const struct memtest_summary *s, char *buf,
			 size_t len)
{
	struct text t = { buf, len, 0 };
	uint64_t both = s->bits_low & s->bits_high;
	unsigned int k;

	if (len)
		buf[0] = '\0';
	for (k = 0; k < MEMTEST_MAX_LINES; k++)
		if (s->addr_stuck >> k & 1)
			put(&t, "address line A%u stuck (high or low)\n", k);
	put_shorts(&t, s);
	put_data(&t, s->bits_low & ~both,
		 "stuck at 0 or failing (read 0 where 1 was written)");
	put_data(&t, s->bits_high & ~both,
		 "stuck at 1 or failing (read 1 where 0 was written)");
	put_data(&t, both, "failing both ways");
	return (int)t.n;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Differential test driver for cli/hexdump.c, which it links directly.
 *
 *   driver START LEN FILE		format LEN bytes of FILE at offset
 *					START, fed in 4 KiB pieces (benchmark)
 *   driver -c SEED START LEN FILE	the same, and also fed in pseudo-random
 *					chunks of 0..~300 bytes: exit 3 when
 *					the two outputs differ
 *   driver -t START LEN FILE		only load a byte a page of LEN bytes of
 *					FILE at START (page-aligned), mapped
 *					as pfnmap maps it: the floor of any
 *					formatter fed from a mapping (benchmark)
 *   driver -g KIND LEN SEED [PRE]	write PRE bytes of 0xaa, LEN test bytes
 *					of KIND, then 16 bytes of 0xaa; KIND is
 *					random zero rows runs text sparse ramp
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hexdump.h"

#define BLOCK		(1 << 20)
#define PIECE		4096
#define FLUSH		(256 * 1024)

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void seed(uint64_t s)
{
	rng_state = s * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
	rnd();
}

static void die(const char *what)
{
	fprintf(stderr, "driver: %s: %s\n", what, strerror(errno));
	exit(2);
}

static void write_all(const char *p, size_t n)
{
	ssize_t r;

	while (n) {
		r = write(1, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			die("write");
		p += r;
		n -= r;
	}
}

/* A chunk length that is mostly small, sometimes 0, sometimes large */
static size_t chunk_len(void)
{
	switch (rnd() % 8) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 2:
		return 16;
	case 3:
		return rnd() % 300;
	default:
		return rnd() % 40;
	}
}

struct text {
	char *buf;
	size_t len, size;
};

static void reserve(struct text *t, size_t n)
{
	if (t->size - t->len >= n)
		return;
	t->size = 2 * t->size + n;
	t->buf = realloc(t->buf, t->size);
	if (!t->buf)
		die("realloc");
}

/* Format c bytes into t, checking the HEXDUMP_OUT_MAX contract */
static void feed(struct hexdump *h, struct text *t, const unsigned char *s,
		 size_t c)
{
	size_t n;

	reserve(t, HEXDUMP_OUT_MAX(c));
	n = hexdump_feed(h, s, c, t->buf + t->len);
	if (n > HEXDUMP_OUT_MAX(c)) {
		fprintf(stderr, "driver: %zu bytes of text for %zu\n", n, c);
		exit(3);
	}
	t->len += n;
}

static void finish(struct hexdump *h, struct text *t)
{
	reserve(t, 2 * HEXDUMP_ROW_MAX);
	t->len += hexdump_finish(h, t->buf + t->len);
}

static size_t read_block(int fd, unsigned char *in, size_t n, uint64_t off)
{
	ssize_t r;

	do
		r = pread(fd, in, n, off);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		die("pread");
	return r;
}

/*
 * Format len bytes at off to stdout, read in 1 MiB blocks and fed in
 * 4 KiB pieces, the text written every 256 KiB: as pfnmap hexdump does
 * (lib/window.h's PIECE, cli/cmd_dump.c's FLUSH), without the mapping
 */
static void format_blocks(int fd, uint64_t off, uint64_t len)
{
	unsigned char *in = malloc(BLOCK);
	struct text t = { NULL, 0, 0 };
	struct hexdump h;
	size_t n, i, c;

	if (!in)
		die("malloc");
	hexdump_init(&h, off);
	for (; len; len -= n, off += n) {
		n = read_block(fd, in, len < BLOCK ? len : BLOCK, off);
		if (!n)
			break;
		for (i = 0; i < n; i += c) {
			c = n - i < PIECE ? n - i : PIECE;
			feed(&h, &t, in + i, c);
			if (t.len >= FLUSH) {
				write_all(t.buf, t.len);
				t.len = 0;
			}
		}
	}
	finish(&h, &t);
	write_all(t.buf, t.len);
	free(in);
	free(t.buf);
}

/*
 * One load a page of len bytes at off, through MAP_POPULATE mappings of
 * 64 MiB (lib/window.c's): what a fresh mapping costs before any
 * formatting
 */
static void touch_pages(int fd, uint64_t off, uint64_t len)
{
	const size_t window = 64 << 20;
	unsigned int sum = 0;
	unsigned char *m;
	size_t n, i;

	for (; len; len -= n, off += n) {
		n = len < window ? len : window;
		m = mmap(NULL, n, PROT_READ, MAP_SHARED | MAP_POPULATE, fd,
			 (off_t)off);
		if (m == MAP_FAILED)
			die("mmap");
		for (i = 0; i < n; i += 4096)
			sum += *(volatile unsigned char *)(m + i);
		munmap(m, n);
	}
	printf("%u\n", sum);
}

/* Format len bytes at off one-shot and chunked, compare, print */
static int format_chunked(int fd, uint64_t off, size_t len)
{
	unsigned char *in = malloc(len + 1);
	struct text one = { NULL, 0, 0 }, chunked = { NULL, 0, 0 };
	struct hexdump h;
	size_t i, c;

	if (!in)
		die("malloc");
	len = read_block(fd, in, len, off);
	hexdump_init(&h, off);
	feed(&h, &one, in, len);
	finish(&h, &one);
	hexdump_init(&h, off);
	for (i = 0; i < len; i += c) {
		c = chunk_len();
		if (c > len - i)
			c = len - i;
		feed(&h, &chunked, in + i, c);
	}
	finish(&h, &chunked);
	write_all(one.buf, one.len);
	if (one.len != chunked.len || memcmp(one.buf, chunked.buf, one.len)) {
		fprintf(stderr, "driver: chunked feeding gives other text\n");
		return 3;
	}
	free(in);
	free(one.buf);
	free(chunked.buf);
	return 0;
}

static void fill_row(unsigned char *row, int kind)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		row[i] = kind ? rnd() : 0;
}

/* Runs of repeated rows from a few patterns, then a tail */
static void gen_runs(unsigned char *b, size_t len)
{
	unsigned char pat[3][16];
	size_t i = 0, reps;
	unsigned int k = 0;

	fill_row(pat[0], 0);
	fill_row(pat[1], 1);
	memcpy(pat[2], pat[1], 16);
	pat[2][rnd() % 16] ^= 1 << (rnd() % 8);
	while (i + 16 <= len) {
		k = rnd() % 3;
		for (reps = 1 + rnd() % 5; reps && i + 16 <= len; reps--, i += 16)
			memcpy(b + i, pat[k], 16);
	}
	/* The tail: a prefix of the last row, of another row, or random */
	if (rnd() % 3)
		memcpy(b + i, pat[k], len - i);
	else if (rnd() % 2)
		memcpy(b + i, pat[(k + 1) % 3], len - i);
	else
		for (; i < len; i++)
			b[i] = rnd();
}

static void gen(const char *kind, size_t len, size_t pre)
{
	static const unsigned char edge[] = {
		0x00, 0x1f, 0x20, 0x7e, 0x7f, 0x80, 0xa0, 0xff, 0x41, 0x7c
	};
	unsigned char *b = calloc(1, len + 16);
	unsigned char junk[16];
	unsigned char row[16];
	size_t i;

	if (!b)
		die("calloc");
	if (!strcmp(kind, "random")) {
		for (i = 0; i < len; i++)
			b[i] = rnd();
	} else if (!strcmp(kind, "rows")) {
		fill_row(row, 1);
		for (i = 0; i < len; i++)
			b[i] = row[i % 16];
	} else if (!strcmp(kind, "runs")) {
		gen_runs(b, len);
	} else if (!strcmp(kind, "text")) {
		for (i = 0; i < len; i++)
			b[i] = rnd() % 4 ? 0x20 + rnd() % 95 : edge[rnd() % 10];
	} else if (!strcmp(kind, "sparse")) {
		for (i = 0; i < len; i++)
			b[i] = rnd() % 61 ? 0 : rnd();
	} else if (!strcmp(kind, "ramp")) {
		for (i = 0; i < len; i++)
			b[i] = i;
	} else if (strcmp(kind, "zero")) {
		fprintf(stderr, "driver: unknown kind %s\n", kind);
		exit(2);
	}
	memset(junk, 0xaa, sizeof(junk));
	for (; pre > 16; pre -= 16)
		write_all((char *)junk, 16);
	write_all((char *)junk, pre);
	write_all((char *)b, len);
	write_all((char *)junk, 16);
	free(b);
}

static uint64_t num(const char *s)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || end == s) {
		fprintf(stderr, "driver: bad number %s\n", s);
		exit(2);
	}
	return v;
}

static int usage(void)
{
	fprintf(stderr, "usage: driver [-c SEED | -t] START LEN FILE\n"
		"       driver -g KIND LEN SEED [PRE]\n");
	return 2;
}

int main(int argc, char **argv)
{
	int fd;

	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "-g")) {
		seed(num(argv[4]));
		gen(argv[2], num(argv[3]), argc == 6 ? num(argv[5]) : 0);
		return 0;
	}
	if (argc != 4 && !(argc == 6 && !strcmp(argv[1], "-c")) &&
	    !(argc == 5 && !strcmp(argv[1], "-t")))
		return usage();
	fd = open(argv[argc - 1], O_RDONLY);
	if (fd < 0)
		die(argv[argc - 1]);
	if (argc == 4) {
		format_blocks(fd, num(argv[1]), num(argv[2]));
		return 0;
	}
	if (argc == 5) {
		touch_pages(fd, num(argv[2]), num(argv[3]));
		return 0;
	}
	seed(num(argv[2]));
	return format_chunked(fd, num(argv[3]), num(argv[4]));
}

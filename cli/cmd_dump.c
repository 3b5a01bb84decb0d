// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dump: raw bytes to stdout or -o FILE; hexdump: the same bytes as
 * `hexdump -C` shows them, with physical addresses. Write-back memory is
 * dumped straight from the mapping; anything else is read with exact-width
 * loads into a buffer first. Output is produced a page at a time, so that a
 * bus error still leaves everything before the faulting page on the output:
 * for hexdump, as `hexdump -C` prints input that ends there.
 */
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "commands.h"
#include "hexdump.h"
#include "out.h"

#define PIECE	4096			/* the granularity of a fault */
#define FLUSH	(256 * 1024)		/* pending output written at */
/* text of up to FLUSH + one piece, then room for the raw piece */
#define BUFSZ	(FLUSH + HEXDUMP_OUT_MAX(PIECE) + PIECE)

struct dump {
	const struct options *o;
	const char *cmd;
	const struct region *r;
	struct output out;
	struct hexdump hd;
	struct hexdump hd_piece;	/* hd before the piece being taken */
	bool hex;
	unsigned char *buf;		/* pending raw bytes or text */
	size_t pending;
};

/*
 * -v says what the kernel applied, write-back too; uc/wc only became known
 * now: the region must suit exact-width loads
 */
static int check_exact(struct dump *d, const struct window *w)
{
	if (!w->exact) {
		note(d->o, "%s: the kernel applied %s: bulk copies", d->cmd,
		     applied_name(w->applied));
		return 0;
	}
	note(d->o, "%s: the kernel applied %s: %u-bit loads", d->cmd,
	     applied_name(w->applied), 8 * d->o->width);
	return check_width_aligned(d->cmd, d->r, d->o->width, "uncached loads");
}

static int flush(struct dump *d)
{
	int r = out_write(&d->out, d->buf, d->pending);

	d->pending = 0;
	return r;
}

/* The bytes of a piece, into dst */
static void read_piece(const struct dump *d, const struct window *w,
		       void *dst, size_t off, size_t n)
{
	const volatile unsigned char *src = w->p + off;

	if (w->exact) {
		io_copy_from(dst, src, n, d->o->width);
		return;
	}
	/*
	 * a faulting page is reported at its first byte asked for, not where
	 * memcpy happens to start reading it
	 */
	(void)*src;
	memcpy(dst, w->p + off, n);
}

/*
 * One piece into the pending buffer: raw bytes or hexdump text. pending
 * grows only once the piece is whole, so a fault inside it drops it all.
 */
static void take(struct dump *d, const struct window *w, size_t off, size_t n)
{
	unsigned char *dst = d->buf + d->pending;
	/* the bytes of exact loads go just past the text they will become */
	unsigned char *raw = d->buf + BUFSZ - PIECE;

	/* a fault may leave hd half way through the piece's rows */
	d->hd_piece = d->hd;
	if (!d->hex) {
		read_piece(d, w, dst, off, n);
		d->pending += n;
	} else if (w->exact) {
		read_piece(d, w, raw, off, n);
		d->pending += hexdump_feed(&d->hd, raw, n, (char *)dst);
	} else {
		d->pending += hexdump_feed(&d->hd, w->p + off, n, (char *)dst);
	}
}

/* The window from off on, a page-sized piece at a time */
static int dump_pieces(struct dump *d, const struct window *w, size_t off)
{
	size_t n;
	int r = 0;

	for (; !r && off < w->len; off += n) {
		n = PIECE - ((w->phys + off) & (PIECE - 1));
		if (n > w->len - off)
			n = w->len - off;
		take(d, w, off, n);
		if (d->pending >= FLUSH)
			r = flush(d);
	}
	return r;
}

/*
 * Raw bytes of write-back memory: no copy of our own, until the kernel
 * cannot read the source. It then drops the whole chunk it was copying (a
 * pipe's page, not aligned with ours): the rest goes a piece at a time.
 */
static int dump_direct(struct dump *d, const struct window *w)
{
	size_t before = d->out.done;
	int r = out_write(&d->out, w->p, w->len);

	if (r == OUT_EFAULT)
		return dump_pieces(d, w, d->out.done - before);
	return r;
}

static int dump_window(struct window *w, void *ctx)
{
	struct dump *d = ctx;
	int r = check_exact(d, w);

	if (r)
		return r;
	if (w->exact || d->hex)
		return dump_pieces(d, w, 0);
	/* a window before this one may have been exact */
	if (d->pending)
		r = flush(d);
	return r ? r : dump_direct(d, w);
}

/* The end of the input: hexdump's last row and address, what is pending */
static int finish(struct dump *d)
{
	if (d->hex)
		d->pending += hexdump_finish(&d->hd, (char *)d->buf + d->pending);
	return d->pending ? flush(d) : 0;
}

/*
 * A fault ends the input at the faulting piece: what came before it goes
 * out, ahead of the message. Its status is the fault's (exit 4) either way.
 */
static void salvage(void *ctx)
{
	struct dump *d = ctx;

	d->hd = d->hd_piece;
	finish(d);
}

static int dump_region(struct dump *d, const struct region *reg)
{
	struct target t;
	int r = target_open(&t, d->o, false);

	if (!r)
		r = for_each_window_salvage(&t, reg->start, reg->size,
					    dump_window, salvage, d);
	target_close(&t);
	return r ? r : finish(d);
}

static int run(struct options *o, char **argv, const char *cmd, bool hex)
{
	struct region reg;
	struct dump d = { .o = o, .cmd = cmd, .r = &reg, .hex = hex };
	int r = region_arg(o, cmd, argv[0], REGION_NEED_SIZE, &reg);

	if (!r && (o->cache == CACHE_UC || o->cache == CACHE_WC))
		r = check_width_aligned(cmd, &reg, o->width, "uncached loads");
	if (!r && !hex)
		r = output_refuse_tty(o->output, o->force);
	/* a dry run creates no -o FILE, nor truncates it */
	if (r || announce(o, cmd, &reg))
		return r;
	r = output_open(&d.out, o->output);
	if (r)
		return r;
	d.buf = malloc(BUFSZ);
	if (!d.buf) {
		err("%s: out of memory", cmd);
		return EXIT_FAIL;
	}
	hexdump_init(&d.hd, reg.start);
	d.hd_piece = d.hd;
	r = dump_region(&d, &reg);
	free(d.buf);
	if (r == OUT_CLOSED)
		return EXIT_OK;
	if (r < 0)
		return EXIT_FAIL;
	return r ? r : output_close(&d.out);
}

int cmd_dump(struct options *o, char **argv)
{
	return run(o, argv, "dump", false);
}

int cmd_hexdump(struct options *o, char **argv)
{
	return run(o, argv, "hexdump", true);
}

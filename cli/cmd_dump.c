// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dump: raw bytes to stdout or -o FILE; hexdump: the same bytes as
 * `hexdump -C` shows them, with physical addresses. The window layer hands
 * over write-back memory in place (dump writes it straight from the
 * mapping) and anything else a page-sized piece at a time, read with
 * exact-width loads. A bus error thus still leaves everything before the
 * faulting piece on the output: for hexdump, as `hexdump -C` prints input
 * that ends there.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "hexdump.h"
#include "msg.h"
#include "out.h"
#include "progress.h"

#define FLUSH	(256 * 1024)		/* pending output written at */
/* text of up to FLUSH, then one piece's text */
#define BUFSZ	(FLUSH + HEXDUMP_OUT_MAX(PIECE))

struct dump {
	struct sink sink;
	struct output out;
	struct hexdump hd;
	bool hex;
	char *buf;			/* pending raw bytes or text */
	size_t pending;
};

static int flush(struct dump *d)
{
	int r = out_write(&d->out, d->buf, d->pending);

	d->pending = 0;
	return r;
}

/* A piece read whole: raw bytes or hexdump text, pending */
static int put(struct sink *s, const void *buf, size_t len)
{
	struct dump *d = (struct dump *)s;

	if (d->hex) {
		d->pending += hexdump_feed(&d->hd, buf, len, d->buf + d->pending);
	} else {
		memcpy(d->buf + d->pending, buf, len);
		d->pending += len;
	}
	return d->pending >= FLUSH ? flush(d) : 0;
}

/* Write-back memory, written straight from the mapping */
static int put_in_place(struct sink *s, const void *buf, size_t len)
{
	struct dump *d = (struct dump *)s;
	size_t before;
	int r = d->pending ? flush(d) : 0;

	if (r)
		return r;
	before = d->out.done;
	r = out_write(&d->out, buf, len);
	s->taken = d->out.done - before;
	return r == OUT_EFAULT ? SINK_EFAULT : r;
}

/* The end of the input: hexdump's last row and address, what is pending */
static int finish(struct dump *d)
{
	if (d->hex)
		d->pending += hexdump_finish(&d->hd, d->buf + d->pending);
	return d->pending ? flush(d) : 0;
}

static int dump_extent(const struct options *o, const char *cmd,
		       const struct extent *x, struct dump *d)
{
	struct target t;
	struct mapping m;
	int r = open_mapping(o, cmd, x, false, &t, &m);

	/* no progress line amid data written to a terminal */
	if (!r && !isatty(d->out.fd))
		progress_start(o, x->size, cmd);
	if (!r)
		r = map_read(&m, &d->sink);
	/*
	 * a fault ends the input at the faulting piece: what came before it
	 * goes out ahead of the message, its status the fault's either way
	 */
	if (!r || r == EXIT_FAULT) {
		int f = finish(d);

		r = r ? r : f;
	}
	progress_end();
	r = mapping_end(&m, r);
	target_close(&t);
	return r;
}

static int prepare(const struct options *o, const char *cmd, bool hex,
		   const char *text, struct extent *x)
{
	int r = region_arg(o, cmd, text, REGION_NEED_SIZE, x);

	if (!r && (x->plan.cache == PFNMAP_CACHE_UC || x->plan.cache == PFNMAP_CACHE_WC))
		r = width_aligned(o, cmd, x, "uncached loads");
	if (!r && !hex)
		r = output_refuse_tty(o->output, o->force);
	return r;
}

static int run(struct options *o, char **argv, const char *cmd, bool hex)
{
	struct dump d = { .sink = { .put = put }, .hex = hex };
	struct extent x;
	int r = prepare(o, cmd, hex, argv[0], &x);

	/* a dry run creates no -o FILE, nor truncates it */
	if (r || announce(o, cmd, &x))
		return r;
	r = output_open(&d.out, o->output);
	if (r)
		return r;
	d.buf = malloc(BUFSZ);
	if (!d.buf) {
		pf_error("%s: out of memory for a %u-byte buffer", cmd, (unsigned int)BUFSZ);
		return EXIT_FAIL;
	}
	if (!hex)
		d.sink.put_in_place = put_in_place;
	hexdump_init(&d.hd, x.start);
	r = dump_extent(o, cmd, &x, &d);
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

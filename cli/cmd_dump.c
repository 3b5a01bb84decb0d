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
	struct sink sink;		/* first: put() finds the dump from it */
	const struct options *o;
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

static int dump_op(struct mapping *m, void *ctx)
{
	struct dump *d = ctx;
	int r;

	/* no progress line amid data written to a terminal */
	if (!isatty(d->out.fd))
		progress_start(d->o, m->x->size, d->o->cmd->name);
	r = map_read(m, &d->sink);
	/*
	 * a fault ends the input at the faulting piece: what came before it
	 * goes out ahead of the message, its status the fault's either way
	 */
	if (!r || r == EXIT_FAULT) {
		int f = finish(d);

		r = r ? r : f;
	}
	return r;
}

static int prepare(const struct options *o, bool hex, const char *text,
		   struct extent *x)
{
	int r = region_arg(o, text, REGION_NEED_SIZE, x);

	if (!r && (x->plan.cache == PFNMAP_CACHE_UC || x->plan.cache == PFNMAP_CACHE_WC))
		r = width_aligned(o, x, "uncached loads");
	if (!r && !hex)
		r = output_refuse_tty(o->output, o->force);
	return r;
}

static int run(struct options *o, char **argv, bool hex)
{
	struct dump d = { .o = o, .sink = { .put = put }, .hex = hex };
	struct extent x;
	int r = prepare(o, hex, argv[0], &x);

	/* a dry run creates no -o FILE, nor truncates it */
	if (r || announce(o, &x))
		return r;
	r = output_open(&d.out, o->output);
	if (r)
		return r;
	d.buf = malloc(BUFSZ);
	if (!d.buf) {
		pf_error("%s: out of memory for a %u-byte buffer", o->cmd->name,
			 (unsigned int)BUFSZ);
		return EXIT_FAIL;
	}
	if (!hex)
		d.sink.put_in_place = put_in_place;
	hexdump_init(&d.hd, x.start);
	r = run_job(o, &(struct job){ .x = &x, .op = dump_op, .ctx = &d });
	free(d.buf);
	if (r == OUT_CLOSED)
		return EXIT_OK;
	if (r < 0)
		return EXIT_FAIL;
	return r ? r : output_close(&d.out);
}

static int cmd_dump(struct options *o, char **argv)
{
	return run(o, argv, false);
}

static int cmd_hexdump(struct options *o, char **argv)
{
	return run(o, argv, true);
}

const struct command dump_command = {
	.name = "dump",
	.args = "REGION",
	.doc = "raw bytes to stdout (or -o FILE)",
	.min_args = 1,
	.max_args = 1,
	.flags = CMD_OUTPUT,
	.run = cmd_dump,
};

const struct command hexdump_command = {
	.name = "hexdump",
	.args = "REGION",
	.doc = "hex and ASCII like hexdump -C, physical addresses",
	.min_args = 1,
	.max_args = 1,
	.flags = CMD_OUTPUT,
	.run = cmd_hexdump,
};

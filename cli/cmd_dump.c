// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dump: raw bytes to stdout or -o FILE; hexdump: the same bytes as
 * `hexdump -C` shows them, with physical addresses. Write-back memory goes
 * straight from the mapping; anything else through exact-width loads.
 */
#include <stdlib.h>

#include "commands.h"
#include "hexdump.h"
#include "access.h"
#include "out.h"

#define CHUNK	(256 * 1024)

struct dump {
	const struct options *o;
	const char *cmd;
	const struct region *r;
	struct output out;
	struct hexdump hd;
	bool hex;
	unsigned char *bounce;
	char *text;
};

/* uc/wc only became known now: the region must suit exact-width loads */
static int check_exact(struct dump *d, const struct window *w)
{
	if (!w->exact)
		return 0;
	note(d->o, "%s: the kernel applied %s: %u-bit loads", d->cmd,
	     applied_name(w->applied), 8 * d->o->width);
	return check_width_aligned(d->cmd, d->r, d->o->width, "uncached loads");
}

static int emit(struct dump *d, const unsigned char *p, size_t len)
{
	size_t n;

	if (!d->hex)
		return out_write(&d->out, p, len);
	n = hexdump_feed(&d->hd, p, len, d->text);
	return out_write(&d->out, d->text, n);
}

static int dump_window(struct window *w, void *ctx)
{
	struct dump *d = ctx;
	size_t off, n;
	int r = check_exact(d, w);

	for (off = 0; !r && off < w->len; off += n) {
		const unsigned char *src = w->p + off;

		n = w->len - off < CHUNK ? w->len - off : CHUNK;
		if (w->exact) {
			io_copy_from(d->bounce, src, n, d->o->width);
			src = d->bounce;
		}
		r = emit(d, src, n);
		if (r == OUT_EFAULT)
			return window_fault_at(w, w->p + off, n);
	}
	return r;
}

static int run(const struct options *o, char **argv, const char *cmd, bool hex)
{
	struct region reg;
	struct target t;
	struct dump d = { .o = o, .cmd = cmd, .r = &reg, .hex = hex };
	int r = region_arg(cmd, argv[0], true, &reg);

	if (!r && (o->cache == CACHE_UC || o->cache == CACHE_WC))
		r = check_width_aligned(cmd, &reg, o->width, "uncached loads");
	if (!r)
		r = output_open(&d.out, o->output, !hex, o->force);
	if (r || announce(o, cmd, &reg))
		return r;
	d.bounce = malloc(CHUNK);
	d.text = malloc(HEXDUMP_OUT_MAX(CHUNK));
	if (!d.bounce || !d.text) {
		err("%s: out of memory", cmd);
		return EXIT_FAIL;
	}
	hexdump_init(&d.hd, reg.start);
	r = target_open(&t, o, false);
	if (!r)
		r = for_each_window(&t, reg.start, reg.size, dump_window, &d);
	if (!r && hex)
		r = out_write(&d.out, d.text, hexdump_finish(&d.hd, d.text));
	target_close(&t);
	free(d.bounce);
	free(d.text);
	if (r == OUT_CLOSED)
		return EXIT_OK;
	if (r < 0)
		return EXIT_FAIL;
	return r ? r : output_close(&d.out);
}

int cmd_dump(const struct options *o, char **argv)
{
	return run(o, argv, "dump", false);
}

int cmd_hexdump(const struct options *o, char **argv)
{
	return run(o, argv, "hexdump", true);
}

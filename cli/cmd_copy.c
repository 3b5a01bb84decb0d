// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * copy SRC DST: region to region, as memmove. A piece (4 KiB, counted
 * from the start of the regions) is read whole from SRC into a buffer,
 * then written whole to DST, each with --width accesses in address order
 * on uncached mappings. When DST lies above SRC and they overlap, the
 * pieces go from the last to the first, so that no byte of SRC is
 * overwritten before it has been read; inside a piece the order is always
 * ascending.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "msg.h"
#include "progress.h"

struct copy {
	const struct options *o;
	struct extent src, dst;
	struct mapping *ms;		/* src's, while dst's is opened */
	bool backwards;
	unsigned char buf[PIECE];
};

static int check_aligned(const struct copy *c, const struct extent *x,
			 const char *why)
{
	if (x->plan.cache != PFNMAP_CACHE_UC && x->plan.cache != PFNMAP_CACHE_WC)
		return 0;
	return width_aligned(c->o, x, why);
}

static int prepare(struct copy *c, char **argv)
{
	int r = region_arg(c->o, argv[0], REGION_NEED_SIZE, &c->src);

	if (!r)
		r = second_region_arg(c->o, argv[1], REGION_WRITES,
				      &c->src, &c->dst);
	if (!r)
		r = check_aligned(c, &c->src, "uncached loads");
	if (!r)
		r = check_aligned(c, &c->dst, "uncached stores");
	/*
	 * memmove: backwards only when DST starts inside SRC, above it, in
	 * the same space (memory, or one device's configuration space)
	 */
	c->backwards = c->dst.is_config == c->src.is_config &&
		       (!c->src.is_config ||
			!strcmp(c->src.bar.slot, c->dst.bar.slot)) &&
		       c->dst.start > c->src.start &&
		       c->dst.start - c->src.start < c->src.size;
	return r;
}

static int copy_piece(struct copy *c, struct mapping *ms, struct mapping *md,
		      uint64_t off)
{
	size_t n = c->src.size - off < PIECE ? (size_t)(c->src.size - off)
					     : PIECE, done;
	int r = map_read_at(ms, off, c->buf, n);

	if (!r)
		r = map_write(md, off, c->buf, n, &done);
	if (!r && done != n) {
		/* exact stores take whole units; prepare made sure they fit */
		pf_error("copy: only %zu of %zu bytes at '%s' + 0x%llx could be stored at --width",
			 done, n, c->dst.text, (unsigned long long)off);
		r = EXIT_FAIL;
	}
	if (!r)
		progress_advance(n);
	return r;
}

static int copy_all(struct copy *c, struct mapping *ms, struct mapping *md)
{
	uint64_t last = (c->src.size - 1) / PIECE * PIECE, off;
	int r = 0;

	progress_start(c->o, c->src.size, "copy");
	if (!c->backwards) {
		for (off = 0; !r && off <= last; off += PIECE)
			r = copy_piece(c, ms, md, off);
	} else {
		for (off = last + PIECE; !r && off; off -= PIECE)
			r = copy_piece(c, ms, md, off - PIECE);
	}
	progress_end();
	return r;
}

static int copy_to(struct mapping *md, void *ctx)
{
	struct copy *c = ctx;

	return copy_all(c, c->ms, md);
}

static int copy_from(struct mapping *ms, void *ctx)
{
	struct copy *c = ctx;

	c->ms = ms;
	return run_job(c->o, &(struct job){ .x = &c->dst, .write = true,
			 .op = copy_to, .ctx = c });
}

static int run(struct copy *c)
{
	int r = run_job(c->o, &(struct job){ .x = &c->src, .op = copy_from,
			.ctx = c });

	if (!r)
		pf_info("copy: %llu bytes from '%s' to '%s'%s", (unsigned long long)c->src.size,
			c->src.text, c->dst.text,
			c->backwards ? ", last piece first (they overlap)" : "");
	return r;
}

static int cmd_copy(struct options *o, char **argv)
{
	static struct copy c;	/* a piece: not on the stack */
	bool dry;
	int r;

	memset(&c, 0, sizeof(c));
	c.o = o;
	r = prepare(&c, argv);
	if (r)
		return r;
	dry = announce(o, &c.src);
	dry = announce(o, &c.dst) || dry;
	return dry ? 0 : run(&c);
}

const struct command copy_command = {
	.name = "copy",
	.args = "SRC DST",
	.doc = "copy region SRC to DST (a region of its size, or a start), overlaps as memmove",
	.min_args = 2,
	.max_args = 2,
	.flags = 0,
	.run = cmd_copy,
};

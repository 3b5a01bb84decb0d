// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fill, read and write: values of --width, stored as the CPU stores them,
 * on width-aligned addresses only.
 */
#include <stdio.h>

#include "access.h"
#include "commands.h"
#include "region.h"

struct value_op {
	const struct options *o;
	uint64_t value;
};

static int value_arg(const char *cmd, const char *text,
		     const struct options *o, uint64_t *v)
{
	char msg[REGION_ERR_MAX];

	if (!parse_value(text, o->width, v, msg, sizeof(msg)))
		return 0;
	err("%s: %s", cmd, msg);
	return EXIT_USAGE;
}

static int fill_window(struct window *w, void *ctx)
{
	struct value_op *op = ctx;

	if (w->exact)
		io_fill(w->p, op->value, w->len, op->o->width);
	else
		bulk_fill(w->p, op->value, w->len, op->o->width);
	return 0;
}

static int read_window(struct window *w, void *ctx)
{
	struct value_op *op = ctx;

	op->value = io_read(w->p, op->o->width);
	return 0;
}

static int write_window(struct window *w, void *ctx)
{
	struct value_op *op = ctx;

	io_write(w->p, op->value, op->o->width);
	return 0;
}

static int run(const struct options *o, const char *cmd, bool write,
	       const struct region *reg, window_fn fn, struct value_op *op)
{
	struct target t;
	int r;

	if (announce(o, cmd, reg))
		return 0;
	r = target_open(&t, o, write);
	if (!r)
		r = for_each_window(&t, reg->start, reg->size, fn, op);
	target_close(&t);
	return r;
}

int cmd_fill(struct options *o, char **argv)
{
	struct value_op op = { .o = o };
	struct region reg;
	int r = region_arg(o, "fill", argv[0], REGION_NEED_SIZE | REGION_WRITES,
			   &reg);

	if (!r)
		r = check_width_aligned("fill", &reg, o->width, "stores");
	if (!r)
		r = value_arg("fill", argv[1], o, &op.value);
	return r ? r : run(o, "fill", true, &reg, fill_window, &op);
}

int cmd_read(struct options *o, char **argv)
{
	struct value_op op = { .o = o };
	struct region reg;
	int r = addr_arg(o, "read", argv[0], 0, &reg);

	if (!r)
		r = run(o, "read", false, &reg, read_window, &op);
	if (!r && !o->dry_run)
		printf("0x%0*llx\n", 2 * o->width, (unsigned long long)op.value);
	return r;
}

int cmd_write(struct options *o, char **argv)
{
	struct value_op op = { .o = o };
	struct region reg;
	int r = addr_arg(o, "write", argv[0], REGION_WRITES, &reg);

	if (!r)
		r = value_arg("write", argv[1], o, &op.value);
	return r ? r : run(o, "write", true, &reg, write_window, &op);
}

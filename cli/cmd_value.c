// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The commands of one value of --width at a time, stored as the CPU stores
 * them, on width-aligned addresses only: fill, read, write, the
 * read-modify-writes (write ADDR VALUE:MASK, set, clear) and expect. A
 * read-modify-write reads once through one mapping and writes back once,
 * as setpci does with VALUE:MASK: a register may have side effects on
 * read or write, so neither access is ever repeated.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "json.h"
#include "msg.h"
#include "progress.h"
#include "region.h"
#include "results.h"

static int fill_op(struct mapping *m, void *value)
{
	return map_fill(m, *(uint64_t *)value);
}

static int read_op(struct mapping *m, void *value)
{
	return map_read_value(m, value);
}

static int write_op(struct mapping *m, void *value)
{
	return map_write_value(m, *(uint64_t *)value);
}

static int cmd_fill(struct options *o, char **argv)
{
	struct extent x;
	uint64_t value;
	int r = region_arg(o, argv[0], REGION_NEED_SIZE | REGION_WRITES, &x);

	if (!r)
		r = width_aligned(o, &x, "stores");
	if (!r)
		r = value_arg("fill", argv[1], o->width, &value);
	if (r || announce(o, &x))
		return r;
	return run_job(o, &(struct job){ .x = &x, .write = true,
			 .progress = true, .op = fill_op, .ctx = &value });
}

static int cmd_read(struct options *o, char **argv)
{
	struct extent x;
	uint64_t value = 0;
	int r = addr_arg(o, argv[0], 0, &x);

	if (r || announce(o, &x))
		return r;
	r = run_job(o, &(struct job){ .x = &x, .op = read_op, .ctx = &value });
	if (r)
		return r;
	if (json_wanted(o))
		return jout_print(jout_value(&x, o->width, value));
	printf("0x%0*llx\n", 2 * o->width, (unsigned long long)value);
	return 0;
}

static int cmd_write(struct options *o, char **argv)
{
	struct extent x;
	uint64_t value;
	uint64_t mask;
	int r = addr_arg(o, argv[0], REGION_WRITES, &x);

	if (!r)
		r = masked_arg("write", argv[1], o->width, &value, &mask);
	if (r)
		return r;
	/* VALUE:MASK reads first; a plain VALUE is one store and no read */
	if (strchr(argv[1], ':'))
		return rmw_value(o, &x, value, mask);
	if (announce(o, &x))
		return 0;
	return run_job(o, &(struct job){ .x = &x, .write = true, .op = write_op,
			 .ctx = &value });
}

/* One read, one write of the merge, the old and new values kept */
struct rmw {
	uint64_t value, mask, old, new;
};

static int rmw_op(struct mapping *m, void *ctx)
{
	struct rmw *w = ctx;
	int r = map_read_value(m, &w->old);

	if (r)
		return r;
	w->new = masked_merge(w->old, w->value, w->mask);
	return map_write_value(m, w->new);
}

int rmw_value(const struct options *o, const struct extent *x, uint64_t value,
	      uint64_t mask)
{
	struct rmw w = { .value = value, .mask = mask };
	int r;

	if (announce(o, x))
		return 0;
	r = run_job(o, &(struct job){ .x = x, .write = true, .op = rmw_op,
		    .ctx = &w });
	if (!r)
		pf_info("%s: %s: old 0x%0*llx, new 0x%0*llx", o->cmd->name, x->text,
			HEX(o->width, w.old), HEX(o->width, w.new));
	return r;
}

/* set and clear: BITS is the mask; set writes ones into it, clear zeroes */
static int set_bits(struct options *o, char **argv, const char *cmd,
		    bool ones)
{
	struct extent x;
	uint64_t bits;
	int r = addr_arg(o, argv[0], REGION_WRITES, &x);

	if (!r)
		r = value_arg(cmd, argv[1], o->width, &bits);
	return r ? r : rmw_value(o, &x, ones ? bits : 0, bits);
}

static int cmd_set(struct options *o, char **argv)
{
	return set_bits(o, argv, "set", true);
}

static int cmd_clear(struct options *o, char **argv)
{
	return set_bits(o, argv, "clear", false);
}

/* expect --json: read's fields, then "expected" (VALUE within MASK) */
static int print_json(const struct options *o, const struct extent *x,
		      uint64_t got, uint64_t want, uint64_t mask, bool match)
{
	struct json_object *j = jout_value(x, o->width, got);

	jout_hex(j, "expected", want & mask, 2 * o->width);
	jout_hex(j, "mask", mask, 2 * o->width);
	jout_bool(j, "match", match);
	return jout_print(j);
}

static int cmd_expect(struct options *o, char **argv)
{
	uint64_t want, mask, got = 0;
	struct extent x;
	bool match;
	int r = addr_arg(o, argv[0], 0, &x);

	if (!r)
		r = masked_arg("expect", argv[1], o->width, &want, &mask);
	if (r || announce(o, &x))
		return r;
	r = run_job(o, &(struct job){ .x = &x, .op = read_op, .ctx = &got });
	if (r)
		return r;
	/* printed either way, so that a script can log what was there */
	match = (got & mask) == (want & mask);
	if (json_wanted(o)) {
		r = print_json(o, &x, got, want, mask, match);
		if (r)
			return r;
	} else {
		printf("0x%0*llx\n", HEX(o->width, got));
	}
	if (match)
		return 0;
	pf_error("expect: %s: read 0x%0*llx, want 0x%0*llx (mask 0x%0*llx)",
		 x.text, HEX(o->width, got), HEX(o->width, want & mask), HEX(o->width, mask));
	return EXIT_MISMATCH;
}

const struct command fill_command = {
	.name = "fill",
	.args = "REGION VALUE",
	.doc = "repeat VALUE (of --width) over REGION",
	.min_args = 2,
	.max_args = 2,
	.flags = 0,
	.run = cmd_fill,
};

const struct command read_command = {
	.name = "read",
	.args = "ADDR",
	.doc = "one value of --width, printed as 0x%0Nx",
	.min_args = 1,
	.max_args = 1,
	.flags = CMD_TAKES(OPTS_JSON),
	.run = cmd_read,
};

const struct command write_command = {
	.name = "write",
	.args = "ADDR VALUE[:MASK]",
	.doc = "store one value of --width; VALUE:MASK reads once and writes back (old "
	       "& ~MASK) | (VALUE & MASK)",
	.min_args = 2,
	.max_args = 2,
	.flags = 0,
	.run = cmd_write,
};

const struct command set_command = {
	.name = "set",
	.args = "ADDR BITS",
	.doc = "set BITS: one read, one write of --width",
	.min_args = 2,
	.max_args = 2,
	.flags = 0,
	.run = cmd_set,
};

const struct command clear_command = {
	.name = "clear",
	.args = "ADDR BITS",
	.doc = "clear BITS: one read, one write of --width",
	.min_args = 2,
	.max_args = 2,
	.flags = 0,
	.run = cmd_clear,
};

const struct command expect_command = {
	.name = "expect",
	.args = "ADDR VALUE[:MASK]",
	.doc = "read one value, print it; exit 5 unless it matches VALUE in MASK",
	.min_args = 2,
	.max_args = 2,
	.flags = CMD_TAKES(OPTS_JSON),
	.run = cmd_expect,
};

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

enum value_op { OP_FILL, OP_READ, OP_WRITE };

static int access_value(const struct options *o, const char *cmd,
			enum value_op op, const struct extent *x,
			uint64_t *value)
{
	struct target t;
	struct mapping m;
	int r;

	if (announce(o, cmd, x))
		return 0;
	r = open_mapping(o, cmd, x, op != OP_READ, &t, &m);
	if (!r && op == OP_FILL) {
		progress_start(o, x->size, cmd);
		r = map_fill(&m, *value);
		progress_end();
	} else if (!r && op == OP_READ)
		r = map_read_value(&m, value);
	else if (!r)
		r = map_write_value(&m, *value);
	r = mapping_end(&m, r);
	target_close(&t);
	return r;
}

int cmd_fill(struct options *o, char **argv)
{
	struct extent x;
	uint64_t value;
	int r = region_arg(o, "fill", argv[0], REGION_NEED_SIZE | REGION_WRITES, &x);

	if (!r)
		r = width_aligned(o, "fill", &x, "stores");
	if (!r)
		r = value_arg("fill", argv[1], o->width, &value);
	return r ? r : access_value(o, "fill", OP_FILL, &x, &value);
}

int cmd_read(struct options *o, char **argv)
{
	struct extent x;
	uint64_t value = 0;
	int r = addr_arg(o, "read", argv[0], 0, &x);

	if (!r)
		r = access_value(o, "read", OP_READ, &x, &value);
	if (r || o->dry_run)
		return r;
	if (o->json)
		return jout_print(jout_value(&x, o->width, value));
	printf("0x%0*llx\n", 2 * o->width, (unsigned long long)value);
	return 0;
}

int cmd_write(struct options *o, char **argv)
{
	struct extent x;
	uint64_t value;
	uint64_t mask;
	int r = addr_arg(o, "write", argv[0], REGION_WRITES, &x);

	if (!r)
		r = masked_arg("write", argv[1], o->width, &value, &mask);
	if (r)
		return r;
	/* VALUE:MASK reads first; a plain VALUE is one store and no read */
	if (strchr(argv[1], ':'))
		return rmw_value(o, "write", &x, value, mask);
	return access_value(o, "write", OP_WRITE, &x, &value);
}

int rmw_value(const struct options *o, const char *cmd,
	      const struct extent *x, uint64_t value, uint64_t mask)
{
	uint64_t old = 0, new;
	struct target t;
	struct mapping m;
	int r;

	if (announce(o, cmd, x))
		return 0;
	r = open_mapping(o, cmd, x, true, &t, &m);
	if (!r)
		r = map_read_value(&m, &old);
	if (!r) {
		new = masked_merge(old, value, mask);
		r = map_write_value(&m, new);
		if (!r)
			pf_info("%s: %s: old 0x%0*llx, new 0x%0*llx", cmd, x->text, HEX(o->width, old), HEX(o->width, new));
	}
	r = mapping_end(&m, r);
	target_close(&t);
	return r;
}

/* set and clear: BITS is the mask; set writes ones into it, clear zeroes */
static int set_bits(struct options *o, char **argv, const char *cmd,
		    bool ones)
{
	struct extent x;
	uint64_t bits;
	int r = addr_arg(o, cmd, argv[0], REGION_WRITES, &x);

	if (!r)
		r = value_arg(cmd, argv[1], o->width, &bits);
	return r ? r : rmw_value(o, cmd, &x, ones ? bits : 0, bits);
}

int cmd_set(struct options *o, char **argv)
{
	return set_bits(o, argv, "set", true);
}

int cmd_clear(struct options *o, char **argv)
{
	return set_bits(o, argv, "clear", false);
}

static int read_one(const struct options *o, const struct extent *x,
		    uint64_t *value)
{
	struct target t;
	struct mapping m;
	int r = open_mapping(o, "expect", x, false, &t, &m);

	if (!r)
		r = map_read_value(&m, value);
	r = mapping_end(&m, r);
	target_close(&t);
	return r;
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

int cmd_expect(struct options *o, char **argv)
{
	uint64_t want, mask, got = 0;
	struct extent x;
	bool match;
	int r = addr_arg(o, "expect", argv[0], 0, &x);

	if (!r)
		r = masked_arg("expect", argv[1], o->width, &want, &mask);
	if (r || announce(o, "expect", &x))
		return r;
	r = read_one(o, &x, &got);
	if (r)
		return r;
	/* printed either way, so that a script can log what was there */
	match = (got & mask) == (want & mask);
	if (o->json) {
		r = print_json(o, &x, got, want, mask, match);
		if (r)
			return r;
	} else {
		printf("0x%0*llx\n", HEX(o->width, got));
	}
	if (match)
		return 0;
	pf_error("expect: %s: read 0x%0*llx, want 0x%0*llx (mask 0x%0*llx)", x.text, HEX(o->width, got), HEX(o->width, want & mask), HEX(o->width, mask));
	return EXIT_MISMATCH;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fill, read and write (write VALUE:MASK: cmd_check.c): values of --width, stored as the CPU stores them,
 * on width-aligned addresses only.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "json.h"
#include "progress.h"

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
		r = check_width_aligned("fill", &x, o->width, "stores");
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

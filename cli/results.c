// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON form of pfnmap's own things (results.h): --json itself, a
 * value at an address, a place in memory or config space, a PCI device.
 * json.c, the writer underneath, knows none of them.
 */
#include <stdio.h>

#include "commands.h"
#include "json.h"
#include "results.h"

/* --json, for every command that has results to print */
enum { OPT_JSON = 0x440 };

static const struct argp_option json_argp_options[] = {
	{ "json", OPT_JSON, NULL, 0, "One JSON object a result line", 6 },
	{ NULL, 0, NULL, 0, NULL, 0 },
};

static error_t json_parse(int key, char *arg, struct argp_state *state)
{
	(void)arg;
	return option_flag(key, OPT_JSON, state);
}

static const struct argp json_argp = { .options = json_argp_options,
				       .parser = json_parse };

const struct option_set json_option_set = {
	.id = OPTS_JSON,
	.argp = &json_argp,
	.names = "--json",
	.init = option_flag_off,
};

bool json_wanted(const struct options *o)
{
	return *OPTION_VALUES(o, OPTS_JSON, bool);
}

void json_unwanted(struct options *o)
{
	*(bool *)o->sets[OPTS_JSON].values.bytes = false;
}

struct json_object *jout_value(const struct extent *x, unsigned int width,
			       uint64_t value)
{
	struct json_object *j = jout_new();

	jout_str(j, "addr", x->text);
	jout_where(j, "phys", x, x->start);
	jout_int(j, "width", 8 * width);
	jout_hex(j, "value", value, 2 * width);
	return j;
}

void jout_where(struct json_object *j, const char *key,
		const struct extent *x, uint64_t addr)
{
	/* an offset in config space is no physical address */
	if (x->is_config) {
		jout_null(j, key);
		jout_hex(j, "config_offset", addr, 0);
	} else {
		jout_hex(j, key, addr, 0);
		jout_null(j, "config_offset");
	}
}

void jout_pci_device(struct json_object *j, const struct pci_bar *b,
		     int class, const char *names)
{
	char id[8];

	jout_str(j, "slot", b->slot);
	snprintf(id, sizeof(id), "%04x", b->vendor);
	jout_str(j, "vendor", id);
	snprintf(id, sizeof(id), "%04x", b->device);
	jout_str(j, "device", id);
	if (class >= 0) {
		snprintf(id, sizeof(id), "%04x", (unsigned int)class & 0xffff);
		jout_str(j, "class", id);
	}
	jout_str(j, "names", names);
	jout_str(j, "driver", b->driver[0] ? b->driver : NULL);
}

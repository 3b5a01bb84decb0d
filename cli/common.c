// SPDX-License-Identifier: GPL-2.0-or-later
/* What every command checks before it maps anything */
#include <stdio.h>
#include <unistd.h>

#include "commands.h"
#include "pci.h"
#include "region.h"

int region_arg(struct options *o, const char *cmd, const char *text,
	       unsigned int flags, struct region *r)
{
	char msg[REGION_ERR_MAX];

	if (is_bar_id(text))
		return bar_region(o, cmd, text, flags & REGION_WRITES, r);
	if (region_parse(text, r, msg, sizeof(msg))) {
		err("%s: %s", cmd, msg);
		return EXIT_USAGE;
	}
	if ((flags & REGION_NEED_SIZE) && !r->has_size) {
		err("%s: region '%s' has no size; write START+SIZE or START-END",
		    cmd, text);
		return EXIT_USAGE;
	}
	return 0;
}

int addr_arg(struct options *o, const char *cmd, const char *text,
	     unsigned int flags, struct region *r)
{
	int ret = region_arg(o, cmd, text, flags, r);

	if (ret)
		return ret;
	if (r->has_size) {
		err("%s: '%s' is a region; %s takes one address (START, or "
		    "DEVICE/barN@OFFSET)", cmd, text, cmd);
		return EXIT_USAGE;
	}
	if (r->bar && r->size < o->width) {
		err("%s: '%s': %u bytes from there run past the end of the BAR",
		    cmd, text, o->width);
		return EXIT_USAGE;
	}
	r->size = o->width;
	if (r->start > UINT64_MAX - (o->width - 1)) {
		err("%s: address '%s' + %u bytes wraps around", cmd, text,
		    o->width);
		return EXIT_USAGE;
	}
	return check_width_aligned(cmd, r, o->width, "accesses");
}

int check_width_aligned(const char *cmd, const struct region *r,
			unsigned int width, const char *why)
{
	if (!((r->start | r->size) & (width - 1)))
		return 0;
	err("%s: '%s' is not aligned to --width=%u: %s are %u bytes wide, so "
	    "start and size must be multiples of %u (or use --width=8)", cmd,
	    r->text, 8 * width, why, width, width);
	return EXIT_USAGE;
}

int announce(const struct options *o, const char *cmd,
	     const struct region *r)
{
	unsigned long long s = r->start, e = r->start + (r->size - 1);
	long page = sysconf(_SC_PAGESIZE);

	if (!o->verbose && !o->dry_run)
		return 0;
	err("%s%s 0x%llx-0x%llx: %llu bytes, pfn 0x%llx-0x%llx (%llu pages), "
	    "offset 0x%llx, cache %s, width %u", o->dry_run ? "dry run: " : "",
	    cmd, s, e, (unsigned long long)r->size, s / page, e / page,
	    e / page - s / page + 1, s % page, cache_names[o->cache],
	    8 * o->width);
	return o->dry_run;
}

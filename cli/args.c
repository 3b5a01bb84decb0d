// SPDX-License-Identifier: GPL-2.0-or-later
/* What every command checks before it maps anything */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "open.h"
#include "msg.h"
#include "pci.h"
#include "progress.h"
#include "region.h"

/*
 * The run's one session: libpci's scan and what batch keeps open are for
 * the whole run, the settings are the running command's
 */
static struct pf_session session = {
	.report = msg_report,
	.fatal = msg_fatal,
};

struct pf_session *session_for(const struct options *o)
{
	session.set = (struct pf_settings){
		.cache = o->cache,
		.device = o->device,
		.module = o->module,
		.no_load = o->no_load,
		.force = o->force,
		.sysfs = o->sysfs,
		.checking = o->checking,
		.quiet = o->quiet,
		.verbose = o->verbose,
		.pci_method = o->pci_method,
		.pci_params = o->pci_params,
		.n_pci_params = o->n_pci_params,
	};
	return &session;
}

const char *device_names(const struct pci_bar *b)
{
	return pci_names(&session, b);
}

int width_aligned(const struct options *o, const struct extent *x,
		  const char *why)
{
	return check_width_aligned(session_for(o), o->cmd->name, x, o->width,
				   why);
}

/* A physical region maps through the helper or --device, as asked */
static void phys_extent(const struct options *o, const struct region *r,
			struct extent *x)
{
	memset(x, 0, sizeof(*x));
	x->text = r->text;
	x->start = r->start;
	x->size = r->size;
	x->has_size = r->has_size;
	x->plan.cache = o->cache;
}

int region_arg(const struct options *o, const char *text, unsigned int flags,
	       struct extent *x)
{
	const char *cmd = o->cmd->name;
	char msg[REGION_ERR_MAX];
	struct region r;

	/* callers may look at the extent after a refusal; let it be empty */
	memset(x, 0, sizeof(*x));
	if (region_parse(text, &r, msg, sizeof(msg))) {
		pf_error("%s: %s", cmd, msg);
		return EXIT_USAGE;
	}
	if (r.kind == REGION_CONFIG && (flags & REGION_NO_CONFIG)) {
		pf_error("%s: '%s' is PCI configuration space, whose registers are no memory; %s "
			 "takes memory or a BAR", cmd, text, cmd);
		return EXIT_USAGE;
	}
	if (r.kind != REGION_PHYS)
		return pci_locate(session_for(o), cmd, &r, o->width,
				  flags & REGION_WRITES, x);
	if ((flags & REGION_NEED_SIZE) && !r.has_size) {
		pf_error("%s: region '%s' has no size; write START+SIZE or START-END", cmd, text);
		return EXIT_USAGE;
	}
	phys_extent(o, &r, x);
	return 0;
}

int addr_arg(const struct options *o, const char *text, unsigned int flags,
	     struct extent *x)
{
	const char *cmd = o->cmd->name;
	int ret = region_arg(o, text, flags, x);

	if (ret)
		return ret;
	if (x->has_size) {
		pf_error("%s: '%s' is a region; %s takes one address (START, or "
			 "DEVICE/barN@OFFSET)", cmd, text, cmd);
		return EXIT_USAGE;
	}
	if ((x->is_bar || x->is_config) && x->size < o->width) {
		pf_error("%s: '%s': %u bytes from there run past the end of the %s", cmd, text,
			 o->width, x->is_bar ? "BAR" : "configuration space");
		return EXIT_USAGE;
	}
	x->size = o->width;
	if (x->start > UINT64_MAX - (o->width - 1)) {
		pf_error("%s: address '%s' + %u bytes wraps around", cmd, text, o->width);
		return EXIT_USAGE;
	}
	return width_aligned(o, x, "accesses");
}

int second_region_arg(const struct options *o, const char *text,
		      unsigned int flags, const struct extent *first,
		      struct extent *x)
{
	const char *cmd = o->cmd->name;
	uint64_t size = first->size;
	int r = region_arg(o, text, flags, x);

	if (r)
		return r;
	if (x->has_size && x->size != size) {
		pf_error("%s: '%s' is %llu bytes but '%s' is %llu bytes; the sizes must match (or "
			 "give a start, without a size)", cmd, first->text,
			 (unsigned long long)size, text, (unsigned long long)x->size);
		return EXIT_USAGE;
	}
	if (!x->has_size && (x->is_bar || x->is_config) && x->size < size) {
		pf_error("%s: '%s' is %llu bytes but only %llu are left from '%s' to the end of "
			 "the %s", cmd, first->text, (unsigned long long)size,
			 (unsigned long long)x->size, text,
			 x->is_bar ? "BAR" : "configuration space");
		return EXIT_USAGE;
	}
	if (!x->has_size && x->start > UINT64_MAX - (size - 1)) {
		pf_error("%s: '%s' + %llu bytes wraps around", cmd, text, (unsigned long long)size);
		return EXIT_USAGE;
	}
	x->size = size;
	return 0;
}

int value_arg(const char *cmd, const char *text, unsigned int width,
	      uint64_t *v)
{
	char msg[REGION_ERR_MAX];

	if (!parse_value(text, width, v, msg, sizeof(msg)))
		return 0;
	pf_error("%s: %s", cmd, msg);
	return EXIT_USAGE;
}

int masked_arg(const char *cmd, const char *text, unsigned int width,
	       uint64_t *v, uint64_t *mask)
{
	char msg[REGION_ERR_MAX];

	if (!parse_masked(text, width, v, mask, msg, sizeof(msg)))
		return 0;
	pf_error("%s: %s", cmd, msg);
	return EXIT_USAGE;
}

int announce(const struct options *o, const struct extent *x)
{
	const char *cmd = o->cmd->name;
	unsigned int shift = page_shift();
	struct pfn_span s;

	if (!o->verbose && !o->dry_run)
		return 0;
	/* what a batch line would do is worth a line only when run with -n */
	if (o->checking)
		return 1;
	if (x->is_config) {
		pf_error("%s%s %s configuration space 0x%llx-0x%llx: %llu bytes of %llu, through "
			 "libpci, width %u", o->dry_run ? "dry run: " : "", cmd, x->bar.slot,
			 (unsigned long long)x->start,
			 (unsigned long long)(x->start + (x->size - 1)),
			 (unsigned long long)x->size, (unsigned long long)x->config_size,
			 8 * o->width);
		return o->dry_run;
	}
	region_pfns(x->start, x->size, shift, &s);
	pf_error("%s%s 0x%llx-0x%llx: %llu bytes, pfn 0x%llx-0x%llx (%llu pages), offset 0x%llx, "
		 "cache %s, width %u", o->dry_run ? "dry run: " : "", cmd,
		 (unsigned long long)x->start, (unsigned long long)(x->start + (x->size - 1)),
		 (unsigned long long)x->size, (unsigned long long)s.first_pfn,
		 (unsigned long long)s.last_pfn, (unsigned long long)s.pages,
		 (unsigned long long)s.offset, cache_name(x->plan.cache), 8 * o->width);
	return o->dry_run;
}

int run_job(const struct options *o, const struct job *j)
{
	struct target t;
	struct mapping m;
	int r = mapping_open(session_for(o), o->cmd->name, j->x, o->width,
			     j->write, &t, &m);

	if (!r && j->progress)
		progress_start(o, j->x->size, o->cmd->name);
	if (!r)
		r = j->op(&m, j->ctx);
	/* a bus error may leave op by longjmp, its line still drawn */
	progress_end();
	r = mapping_end(&m, r);
	target_close(&t);
	return r;
}

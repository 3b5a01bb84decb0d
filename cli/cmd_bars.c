// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bars [FILTER]: PCI devices and their memory BARs, as libpci sees them
 * (pci.c's session), with the sizes, flags and bound drivers that decide
 * how pfnmap maps them; --json too.
 */
#include <stdio.h>
#include <string.h>
#include <pci/pci.h>

#include "commands.h"
#include "devspec.h"
#include "json.h"
#include "msg.h"
#include "pci.h"
#include "results.h"

static const char *human_size(uint64_t size, char *buf, size_t len)
{
	static const char units[] = "KMGTPE";
	int u = -1;

	while (size >= 1024 && !(size & 1023) && u < 5) {
		size >>= 10;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)size);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)size, units[u]);
	return buf;
}

static bool has_mem_bar(struct pci_dev *d)
{
	int i;

	for (i = 0; i < 6; i++)
		if (d->size[i] && !bar_io(d, i))
			return true;
	return false;
}

/* EXIT_FAIL once a bars --json object could not be printed */
static int bars_json_status;

/* bars --json: one object per BAR, the facts of -M, the names, decoding */
static void print_bar_json(struct pci_dev *d, const struct pci_bar *b, int i,
			   uint64_t start, enum decoding dec)
{
	struct json_object *j = jout_new();
	bool io = bar_io(d, i);

	jout_pci_device(j, b, d->device_class, device_names(b));
	jout_int(j, "bar", i);
	jout_hex(j, "start", start, 0);
	jout_hex(j, "size", d->size[i], 0);
	if (io) {
		jout_null(j, "bits");
		jout_null(j, "prefetchable");
	} else {
		jout_int(j, "bits", bar_64(d, i) ? 64 : 32);
		jout_bool(j, "prefetchable", bar_prefetch(d, i));
	}
	jout_str(j, "type", io ? "io" : "memory");
	if (dec == DECODE_UNKNOWN)
		jout_null(j, "memory_enabled");
	else
		jout_bool(j, "memory_enabled", dec == DECODE_ON);
	if (jout_print(j))
		bars_json_status = EXIT_FAIL;
}

static void print_bar(const struct options *o, struct pci_dev *d,
		      const struct pci_bar *b, int i, enum decoding dec)
{
	pciaddr_t base = d->base_addr[i];
	bool io = bar_io(d, i);
	uint64_t start = base & (io ? PCI_ADDR_IO_MASK : PCI_ADDR_MEM_MASK);
	const char *bits = io ? "-" : bar_64(d, i) ? "64" : "32";
	const char *pf = io ? "-" : bar_prefetch(d, i) ? "prefetchable"
							 : "non-prefetchable";
	char hs[32];

	if (json_wanted(o)) {
		print_bar_json(d, b, i, start, dec);
		return;
	}
	if (o->machine) {
		printf("%s %04x:%04x %04x bar%d 0x%llx 0x%llx %s %s %s %s\n",
		       b->slot, b->vendor, b->device, d->device_class, i,
		       (unsigned long long)start, (unsigned long long)d->size[i],
		       bits, pf, io ? "io" : "memory",
		       b->driver[0] ? b->driver : "-");
		return;
	}
	printf("  bar%d  0x%016llx-0x%016llx  %-5s %s%s%s%s%s\n", i,
	       (unsigned long long)start,
	       (unsigned long long)(start + d->size[i] - 1),
	       human_size(d->size[i], hs, sizeof(hs)),
	       io ? "" : bits, io ? "" : "-bit ", io ? "" : pf,
	       io ? "I/O ports" : " memory", start ? "" : " (unassigned)");
}

/* The text's device line; a line more only when decoding is off */
static void print_device_head(struct pci_dev *d, const struct pci_bar *b,
			      enum decoding dec)
{
	printf("%s %04x:%04x %s [%04x] driver: %s\n", b->slot, b->vendor,
	       b->device, device_names(b), d->device_class,
	       b->driver[0] ? b->driver : "none");
	if (dec == DECODE_OFF)
		printf("  memory decoding off (COMMAND bit 1 clear): "
		       "the memory BARs read as all ones\n");
}

/* Returns whether it had a memory BAR to show */
static bool print_device(const struct options *o, struct pci_dev *d)
{
	enum decoding dec = DECODE_UNKNOWN;
	struct pci_bar b;
	int i;

	pci_fill_device(session_for(o), d, &b);
	if (!has_mem_bar(d))
		return false;
	/* -M has no field for it (a guest test compares -M with sysfs) */
	if (!o->machine)
		dec = mem_decoding(d);
	if (!o->machine && !json_wanted(o))
		print_device_head(d, &b, dec);
	for (i = 0; i < 6; i++)
		if (d->size[i])
			print_bar(o, d, &b, i, dec);
	return true;
}

/* FILTER: a device spec, as for BAR locations; matching nothing is an error */
static int bars_filter(const char *text, struct devspec *spec)
{
	char msg[REGION_ERR_MAX];

	if (!text) {
		pci_filter_init(NULL, &spec->filter);
		spec->index = -1;
		return 0;
	}
	if (strchr(text, '/'))
		snprintf(msg, sizeof(msg), "'%s': the filter is a device, without /barN", text);
	else if (!devspec_parse(text, strlen(text), spec, msg, sizeof(msg)))
		return 0;
	pf_error("bars: %s", msg);
	return EXIT_USAGE;
}

static int cmd_bars(struct options *o, char **argv)
{
	struct pci_dev *found[MAX_MATCHES];
	struct devspec spec;
	int r = bars_filter(argv[0], &spec), n, i, shown = 0;

	if (!r && o->machine && json_wanted(o)) {
		pf_error("bars: -M and --json are two formats for scripts: give one");
		r = EXIT_USAGE;
	}
	if (!r)
		r = pci_start(session_for(o));
	if (r)
		return r;
	n = pci_matches(session_for(o), &spec, found, MAX_MATCHES);
	if (argv[0] && !n) {
		pf_error("bars: no PCI device matches '%s'", argv[0]);
		return EXIT_USAGE;
	}
	if (spec.index >= n) {
		pf_error("bars: '%s': only %d device%s (#0 to #%d)",
			 argv[0], n, n == 1 ? " matches" : "s match", n - 1);
		return EXIT_USAGE;
	}
	/* batch's check: the filter matches; the listing is for the run */
	if (o->checking)
		return 0;
	for (i = 0; i < n && i < MAX_MATCHES; i++)
		if (spec.index < 0 || spec.index == i)
			shown += print_device(o, found[i]);
	if (argv[0] && !shown)
		pf_warn("bars: '%s' matches %d PCI device%s, none with a memory BAR",
			argv[0], n, n == 1 ? "" : "s");
	return bars_json_status;
}

const struct command bars_command = {
	.name = "bars",
	.args = "[FILTER]",
	.doc = "PCI devices and their BARs, via libpci",
	.min_args = 0,
	.max_args = 1,
	.flags = CMD_TAKES(OPTS_JSON),
	.run = cmd_bars,
};

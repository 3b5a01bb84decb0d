// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PCI through libpci (as lspci does it): BAR identifiers become physical
 * regions inside the BAR, and `pfnmap bars` lists devices and their BARs.
 * -A METHOD and -O NAME=VALUE reach libpci unchanged, so that tests (and
 * users) can point it at another sysfs tree: -O sysfs.path=DIR.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pci/pci.h>
#include <unistd.h>

#include "commands.h"
#include "pci.h"
#include "region.h"

#define BAR_IO		0x1	/* low bits of a BAR register */
#define BAR_TYPE_64	0x4
#define BAR_PREFETCH	0x8

static struct pci_access *pacc;
static struct bar the_bar;

/*
 * The kind of BAR i: from the kernel's resource flags where libpci has them
 * (the sysfs method); a BAR register's low bits are not enough, since the
 * kernel gives legacy ranges (IDE ports) without them.
 */
static bool bar_has(struct pci_dev *d, int i, pciaddr_t kflag, pciaddr_t low)
{
	if (d->known_fields & PCI_FILL_IO_FLAGS)
		return d->flags[i] & kflag;
	return d->base_addr[i] & low;
}

static bool bar_io(struct pci_dev *d, int i)
{
	return bar_has(d, i, PCI_IORESOURCE_IO, BAR_IO);
}

static bool bar_64(struct pci_dev *d, int i)
{
	return bar_has(d, i, PCI_IORESOURCE_MEM_64, BAR_TYPE_64);
}

static bool bar_prefetch(struct pci_dev *d, int i)
{
	return bar_has(d, i, PCI_IORESOURCE_PREFETCH, BAR_PREFETCH);
}

static void PCI_NONRET pci_fatal(char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	err("libpci: %s", line);
	exit(EXIT_FAIL);
}

static void pci_quiet(char *fmt, ...)
{
	(void)fmt;
}

static int pci_start(const struct options *o)
{
	unsigned int i;

	pacc = pci_alloc();
	pacc->error = pci_fatal;
	pacc->warning = pci_quiet;
	pacc->debug = pci_quiet;
	if (o->pci_method) {
		int m = pci_lookup_method((char *)o->pci_method);

		if (m < 0) {
			err("-A %s: no such libpci access method (see lspci "
			    "-A help)", o->pci_method);
			return EXIT_USAGE;
		}
		pacc->method = m;
	}
	for (i = 0; i < o->n_pci_params; i++) {
		char *eq = strchr(o->pci_params[i], '=');

		if (!eq) {
			err("-O %s: write NAME=VALUE (see lspci -O help)",
			    o->pci_params[i]);
			return EXIT_USAGE;
		}
		*eq = 0;
		if (pci_set_param(pacc, o->pci_params[i], eq + 1)) {
			err("-O %s: no such libpci parameter (see lspci -O "
			    "help)", o->pci_params[i]);
			return EXIT_USAGE;
		}
		*eq = '=';
	}
	pci_init(pacc);
	pci_scan_bus(pacc);
	return 0;
}

static int slot_cmp(const struct pci_dev *a, const struct pci_dev *b)
{
	if (a->domain != b->domain)
		return a->domain < b->domain ? -1 : 1;
	if (a->bus != b->bus)
		return a->bus < b->bus ? -1 : 1;
	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	return a->func < b->func ? -1 : a->func > b->func;
}

/* The matches of f, in slot order; returns how many */
static int matches(struct pci_filter *f, struct pci_dev **out, int max)
{
	struct pci_dev *d;
	int n = 0, i;

	for (d = pacc->devices; d; d = d->next) {
		if (!pci_filter_match(f, d))
			continue;
		for (i = n; i > 0 && slot_cmp(d, out[i - 1]) < 0; i--)
			if (i < max)
				out[i] = out[i - 1];
		if (i < max)
			out[i] = d;
		n++;
	}
	return n;
}

/* DEVSPEC -> filter; index: #N of VENDOR:DEVICE#N, -1 for a slot */
static int parse_devspec(char *spec, struct pci_filter *f, int *index,
			 const char *cmd)
{
	char *hash = strchr(spec, '#'), *msg = NULL;

	pci_filter_init(pacc, f);
	*index = -1;
	if (strchr(spec, '.')) {
		msg = hash ? "#N selects among VENDOR:DEVICE matches only" :
			     pci_filter_parse_slot(f, spec);
	} else {
		*index = 0;
		if (hash) {
			*hash = 0;
			*index = (int)strtol(hash + 1, &msg, 10);
			msg = hash[1] && !*msg && *index >= 0 ? NULL :
			      "#N wants a number (0 is the first match)";
		}
		if (!msg)
			msg = pci_filter_parse_id(f, spec);
	}
	if (hash)
		*hash = '#';
	if (!msg)
		return 0;
	err("%s: '%s': %s; a device is [DOMAIN:]BUS:DEV.FN or "
	    "VENDOR:DEVICE[#N]", cmd, spec, msg);
	return EXIT_USAGE;
}

static int find_device(const char *cmd, char *spec, struct pci_dev **dev)
{
	struct pci_dev *found[64];
	struct pci_filter f;
	int index, n, r = parse_devspec(spec, &f, &index, cmd);

	if (r)
		return r;
	n = matches(&f, found, 64);
	if (!n) {
		err("%s: no PCI device matches '%s' (see pfnmap bars)", cmd,
		    spec);
		return EXIT_USAGE;
	}
	if (index < 0 && n > 1) {
		err("%s: '%s' matches %d PCI devices; name one by "
		    "[DOMAIN:]BUS:DEV.FN", cmd, spec, n);
		return EXIT_USAGE;
	}
	if (index >= n || index >= 64) {
		err("%s: '%s': only %d device%s (#0 to #%d)", cmd, spec,
		    n, n == 1 ? " matches" : "s match", n - 1);
		return EXIT_USAGE;
	}
	*dev = found[index < 0 ? 0 : index];
	return 0;
}

static void fill_bar_device(struct pci_dev *d, struct bar *b)
{
	char *drv;

	pci_fill_info(d, PCI_FILL_IDENT | PCI_FILL_BASES | PCI_FILL_SIZES |
		      PCI_FILL_CLASS | PCI_FILL_IO_FLAGS | PCI_FILL_DRIVER);
	snprintf(b->slot, sizeof(b->slot), "%04x:%02x:%02x.%d", d->domain,
		 d->bus, d->dev, d->func);
	b->vendor = d->vendor_id;
	b->device = d->device_id;
	pci_lookup_name(pacc, b->names, sizeof(b->names),
			PCI_LOOKUP_VENDOR | PCI_LOOKUP_DEVICE, d->vendor_id,
			d->device_id);
	drv = pci_get_string_property(d, PCI_FILL_DRIVER);
	snprintf(b->driver, sizeof(b->driver), "%s", drv ? drv : "");
}

static bool bar_is_upper(struct pci_dev *d, unsigned int i)
{
	return i > 0 && !d->size[i] && d->size[i - 1] &&
	       !bar_io(d, i - 1) && bar_64(d, i - 1);
}

static int check_bar(const char *cmd, struct pci_dev *d, struct bar *b)
{
	unsigned int i = b->index;
	pciaddr_t base = d->base_addr[i];

	if (bar_is_upper(d, i))
		err("%s: bar%u of %s is the upper half of the 64-bit bar%u; "
		    "name it bar%u", cmd, i, b->slot, i - 1, i - 1);
	else if (!d->size[i])
		err("%s: %s has no bar%u (not implemented)", cmd, b->slot, i);
	else if (bar_io(d, i))
		err("%s: bar%u of %s is an I/O-port BAR; pfnmap maps memory "
		    "BARs only", cmd, i, b->slot);
	else if (!(base & PCI_ADDR_MEM_MASK))
		err("%s: bar%u of %s has no address assigned (size 0x%llx)",
		    cmd, i, b->slot, (unsigned long long)d->size[i]);
	else
		return 0;
	return EXIT_USAGE;
}

static int resolve_bar(const char *cmd, struct pci_dev *d, struct bar *b)
{
	unsigned int i = b->index;
	int r;

	fill_bar_device(d, b);
	r = check_bar(cmd, d, b);
	if (r)
		return r;
	b->start = d->base_addr[i] & PCI_ADDR_MEM_MASK;
	b->size = d->size[i];
	b->is64 = bar_64(d, i);
	b->prefetch = bar_prefetch(d, i);
	snprintf(b->file, sizeof(b->file), "%s/devices/%s/resource%u",
		 pci_get_param(pacc, "sysfs.path"), b->slot, i);
	return 0;
}

/* "barN[@OFFSET][+SIZE]" after the slash */
static int parse_bar_part(const char *cmd, const char *text, const char *p,
			  struct bar *b, uint64_t *off, uint64_t *size)
{
	char buf[128], msg[REGION_ERR_MAX], *at, *plus, *end;
	unsigned long n = strtoul(p + 3, &end, 10);

	if (!isdigit((unsigned char)p[3]) || n > 5 ||
	    (*end && !strchr("@+", *end))) {
		err("%s: '%s': the BAR is bar0 to bar5, optionally followed "
		    "by @OFFSET and +SIZE", cmd, text);
		return EXIT_USAGE;
	}
	b->index = (unsigned int)n;
	snprintf(buf, sizeof(buf), "%s", end);
	plus = strchr(buf, '+');
	if (plus)
		*plus++ = 0;
	at = buf[0] == '@' ? buf + 1 : NULL;
	*off = 0;
	*size = 0;
	if ((at && parse_number(at, "offset", off, msg, sizeof(msg))) ||
	    (plus && parse_number(plus, "size", size, msg, sizeof(msg)))) {
		err("%s: '%s': %s", cmd, text, msg);
		return EXIT_USAGE;
	}
	if (plus && !*size) {
		err("%s: '%s': the size is zero", cmd, text);
		return EXIT_USAGE;
	}
	return 0;
}

bool is_bar_id(const char *text)
{
	return strstr(text, "/bar") != NULL;
}

static int place(const char *cmd, const char *text, const struct bar *b,
		 uint64_t off, uint64_t size, struct region *r)
{
	if (off >= b->size) {
		err("%s: '%s': offset 0x%llx lies beyond bar%u (size 0x%llx)",
		    cmd, text, (unsigned long long)off, b->index,
		    (unsigned long long)b->size);
		return EXIT_USAGE;
	}
	if (size > b->size - off) {
		err("%s: '%s': 0x%llx bytes from offset 0x%llx run past the end "
		    "of bar%u (size 0x%llx)", cmd, text,
		    (unsigned long long)size, (unsigned long long)off,
		    b->index, (unsigned long long)b->size);
		return EXIT_USAGE;
	}
	memset(r, 0, sizeof(*r));
	r->text = text;
	r->bar = b;
	r->start = b->start + off;
	r->has_size = size != 0;
	r->size = size ? size : b->size - off;
	return 0;
}

static int driver_rules(struct options *o, const char *cmd, bool writes,
			const struct bar *b)
{
	if (!b->driver[0])
		return 0;
	if (writes && !o->force) {
		err("%s: %s is bound to driver %s; writing into its BARs needs "
		    "--force", cmd, b->slot, b->driver);
		return EXIT_REFUSED;
	}
	if (!o->quiet)
		warn("%s: %s is bound to driver %s", cmd, b->slot, b->driver);
	return 0;
}

/* auto follows the BAR; --sysfs maps its resourceN file */
static void apply_bar(struct options *o, const struct bar *b)
{
	if (o->cache == CACHE_AUTO)
		o->cache = b->prefetch ? CACHE_WC : CACHE_UC;
	if (o->sysfs) {
		static char wc[PATH_MAX + 4];

		snprintf(wc, sizeof(wc), "%s_wc", b->file);
		o->device = o->cache == CACHE_WC && !access(wc, F_OK) ? wc
								      : b->file;
		/* sysfs maps the page that holds the BAR's start at offset 0 */
		o->device_base = b->start & ~(uint64_t)(sysconf(_SC_PAGESIZE) - 1);
	}
}

int bar_region(struct options *o, const char *cmd, const char *text,
	       bool writes, struct region *r)
{
	const char *slash = strstr(text, "/bar");
	struct bar *b = &the_bar;
	struct pci_dev *d;
	char spec[64];
	uint64_t off, size;
	int ret = parse_bar_part(cmd, text, slash + 1, b, &off, &size);

	if (ret)
		return ret;
	snprintf(spec, sizeof(spec), "%.*s", (int)(slash - text), text);
	ret = pci_start(o);
	if (!ret)
		ret = find_device(cmd, spec, &d);
	if (!ret)
		ret = resolve_bar(cmd, d, b);
	if (!ret)
		ret = place(cmd, text, b, off, size, r);
	if (!ret)
		ret = driver_rules(o, cmd, writes, b);
	if (!ret)
		apply_bar(o, b);
	return ret;
}

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

static void print_bar(const struct options *o, struct pci_dev *d,
		      const struct bar *b, int i)
{
	pciaddr_t base = d->base_addr[i];
	bool io = bar_io(d, i);
	uint64_t start = base & (io ? PCI_ADDR_IO_MASK : PCI_ADDR_MEM_MASK);
	const char *bits = io ? "-" : bar_64(d, i) ? "64" : "32";
	const char *pf = io ? "-" : bar_prefetch(d, i) ? "prefetchable"
							 : "non-prefetchable";
	char hs[32];

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

static void print_device(const struct options *o, struct pci_dev *d)
{
	struct bar b;
	int i;

	fill_bar_device(d, &b);
	if (!has_mem_bar(d))
		return;
	if (!o->machine)
		printf("%s %04x:%04x %s [%04x] driver: %s\n", b.slot, b.vendor,
		       b.device, b.names, d->device_class,
		       b.driver[0] ? b.driver : "none");
	for (i = 0; i < 6; i++)
		if (d->size[i])
			print_bar(o, d, &b, i);
}

int cmd_bars(struct options *o, char **argv)
{
	struct pci_dev *found[256];
	struct pci_filter f;
	char spec[64], *msg = NULL;
	int r = pci_start(o), n, i;

	if (r)
		return r;
	pci_filter_init(pacc, &f);
	if (argv[0]) {
		snprintf(spec, sizeof(spec), "%s", argv[0]);
		msg = strchr(spec, '.') || !strchr(spec, ':') ||
		      strchr(spec, ':') != strrchr(spec, ':') ?
		      pci_filter_parse_slot(&f, spec) :
		      pci_filter_parse_id(&f, spec);
	}
	if (msg) {
		err("bars: '%s': %s; the filter is a slot with its function "
		    "([DOMAIN:]BUS:DEV.FN, * for any part) or VENDOR:DEVICE",
		    argv[0], msg);
		return EXIT_USAGE;
	}
	n = matches(&f, found, 256);
	for (i = 0; i < n && i < 256; i++)
		print_device(o, found[i]);
	return 0;
}

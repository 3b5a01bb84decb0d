// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PCI through libpci (as lspci does it): BAR locations become physical
 * ranges inside the BAR with a plan of how to map them (and a warning when
 * the device does not decode them); the bars command (cmd_bars.c) lists
 * devices through the same session. -A METHOD and -O NAME=VALUE reach
 * libpci unchanged, so that tests (and users) can point it at another
 * sysfs tree: -O sysfs.path=DIR.
 * The caller's options are only read.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pci/pci.h>
#include <unistd.h>

#include "commands.h"
#include "config.h"
#include "json.h"
#include "msg.h"
#include "pci.h"
#include "pci_internal.h"

#define BAR_IO		0x1	/* low bits of a BAR register */
#define BAR_TYPE_64	0x4
#define BAR_PREFETCH	0x8

/* libpci's state: one scan of the bus for the process */
static struct pci_access *pacc;

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

bool bar_io(struct pci_dev *d, int i)
{
	return bar_has(d, i, PCI_IORESOURCE_IO, BAR_IO);
}

bool bar_64(struct pci_dev *d, int i)
{
	return bar_has(d, i, PCI_IORESOURCE_MEM_64, BAR_TYPE_64);
}

bool bar_prefetch(struct pci_dev *d, int i)
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
	pf_error("libpci: %s", line);
	exit(EXIT_FAIL);
}

static void pci_quiet(char *fmt, ...)
{
	(void)fmt;
}

/* libpci's last warning, kept to say why an access failed */
static char warning[160];

static void pci_warning(char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(warning, sizeof(warning), fmt, ap);
	va_end(ap);
}

const char *pci_last_warning(void)
{
	static char last[sizeof(warning)];

	snprintf(last, sizeof(last), "%s", warning);
	warning[0] = 0;
	return last[0] ? last : NULL;
}

/* -O NAME=VALUE, without writing into the caller's option text */
static int set_param(const char *param)
{
	char name[128], *eq;

	snprintf(name, sizeof(name), "%s", param);
	eq = strchr(name, '=');
	if (!eq || strlen(param) >= sizeof(name)) {
		pf_error("-O %s: write NAME=VALUE (see lspci -O help)", param);
		return EXIT_USAGE;
	}
	*eq = 0;
	if (pci_set_param(pacc, name, eq + 1)) {
		pf_error("-O %s: no such libpci parameter (see lspci -O help)", name);
		return EXIT_USAGE;
	}
	return 0;
}

int pci_start(const struct options *o)
{
	unsigned int i;
	int r;

	if (pacc)
		return 0;
	pacc = pci_alloc();
	pacc->error = pci_fatal;
	pacc->warning = pci_warning;
	pacc->debug = pci_quiet;
	if (o->pci_method) {
		int m = pci_lookup_method((char *)o->pci_method);

		if (m < 0) {
			pf_error("-A %s: no such libpci access method (see lspci -A help)", o->pci_method);
			return EXIT_USAGE;
		}
		pacc->method = m;
	}
	for (i = 0; i < o->n_pci_params; i++) {
		r = set_param(o->pci_params[i]);
		if (r)
			return r;
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
int pci_matches(const struct devspec *spec, struct pci_dev **out, int max)
{
	struct pci_dev *d;
	int n = 0, i;

	for (d = pacc->devices; d; d = d->next) {
		/* libpci's filter is not const, though matching only reads it */
		if (!pci_filter_match((struct pci_filter *)&spec->filter, d))
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

/* The one device spec names: the only match, or the #Nth */
static int find_device(const char *cmd, const struct devspec *spec,
		       struct pci_dev **dev)
{
	struct pci_dev *found[MAX_MATCHES];
	int n = pci_matches(spec, found, MAX_MATCHES);
	/* VENDOR:DEVICE names the first of its kind; a slot must be unique */
	int index = spec->index < 0 && spec->by_id ? 0 : spec->index;

	if (!n) {
		pf_error("%s: no PCI device matches '%s' (see pfnmap bars)", cmd, spec->text);
		return EXIT_USAGE;
	}
	if (index < 0 && n > 1) {
		pf_error("%s: '%s' matches %d PCI devices; name one by [DOMAIN:]BUS:DEV.FN, or add #N for the Nth", cmd, spec->text, n);
		return EXIT_USAGE;
	}
	if (index >= n || index >= MAX_MATCHES) {
		pf_error("%s: '%s': only %d device%s (#0 to #%d)", cmd, spec->text, n, n == 1 ? " matches" : "s match", n - 1);
		return EXIT_USAGE;
	}
	*dev = found[index < 0 ? 0 : index];
	return 0;
}

/*
 * Read from pci.ids only when printed: parsing it costs more than the
 * rest of a run that maps a BAR (in a TCG guest, 115 of 240 ms)
 */
const char *pci_names(const struct pci_bar *b)
{
	static char names[192];

	if (!pacc)
		return "";
	return pci_lookup_name(pacc, names, sizeof(names),
			       PCI_LOOKUP_VENDOR | PCI_LOOKUP_DEVICE, b->vendor,
			       b->device);
}

static void read_bar_device(struct pci_dev *d, struct pci_bar *b)
{
	char *drv;

	pci_fill_info(d, PCI_FILL_IDENT | PCI_FILL_BASES | PCI_FILL_SIZES |
		      PCI_FILL_CLASS | PCI_FILL_IO_FLAGS | PCI_FILL_DRIVER);
	snprintf(b->slot, sizeof(b->slot), "%04x:%02x:%02x.%d", d->domain,
		 d->bus, d->dev, d->func);
	b->vendor = d->vendor_id;
	b->device = d->device_id;
	drv = pci_get_string_property(d, PCI_FILL_DRIVER);
	snprintf(b->driver, sizeof(b->driver), "%s", drv ? drv : "");
}

/*
 * A device's facts are read once a run: a batch names the same device on
 * line after line, and libpci's fill costs more than the access itself.
 * (A driver bound meanwhile is seen by the next run.)
 */
#define DEV_CACHE	16
static struct {
	struct pci_dev *d;
	struct pci_bar b;
} dev_cache[DEV_CACHE];
static unsigned int dev_cached;

/* The device's part of a pci_bar; the BAR's own fields stay */
static void copy_device(struct pci_bar *to, const struct pci_bar *from)
{
	memcpy(to->slot, from->slot, sizeof(to->slot));
	to->vendor = from->vendor;
	to->device = from->device;
	memcpy(to->driver, from->driver, sizeof(to->driver));
}

void pci_fill_device(struct pci_dev *d, struct pci_bar *b)
{
	unsigned int i;

	for (i = 0; i < dev_cached; i++) {
		if (dev_cache[i].d == d) {
			copy_device(b, &dev_cache[i].b);
			return;
		}
	}
	read_bar_device(d, b);
	if (dev_cached < DEV_CACHE) {
		dev_cache[dev_cached].d = d;
		copy_device(&dev_cache[dev_cached++].b, b);
	}
}

static bool bar_is_upper(struct pci_dev *d, unsigned int i)
{
	return i > 0 && !d->size[i] && d->size[i - 1] &&
	       !bar_io(d, i - 1) && bar_64(d, i - 1);
}

static int check_bar(const char *cmd, struct pci_dev *d, struct pci_bar *b)
{
	unsigned int i = b->index;
	pciaddr_t base = d->base_addr[i];

	if (bar_is_upper(d, i))
		pf_error("%s: bar%u of %s is the upper half of the 64-bit bar%u; name it bar%u", cmd, i, b->slot, i - 1, i - 1);
	else if (!d->size[i])
		pf_error("%s: %s has no bar%u (not implemented)", cmd, b->slot, i);
	else if (bar_io(d, i))
		pf_error("%s: bar%u of %s is an I/O-port BAR; pfnmap maps memory BARs only", cmd, i, b->slot);
	else if (!(base & PCI_ADDR_MEM_MASK))
		pf_error("%s: bar%u of %s has no address assigned (size 0x%llx)", cmd, i, b->slot, (unsigned long long)d->size[i]);
	else
		return 0;
	return EXIT_USAGE;
}

static int resolve_bar(const char *cmd, struct pci_dev *d, struct pci_bar *b)
{
	unsigned int i = b->index;
	int r;

	pci_fill_device(d, b);
	r = check_bar(cmd, d, b);
	if (r)
		return r;
	b->start = d->base_addr[i] & PCI_ADDR_MEM_MASK;
	b->size = d->size[i];
	b->is64 = bar_64(d, i);
	b->prefetch = bar_prefetch(d, i);
	return 0;
}

/* OFFSET and SIZE inside the BAR; no size: up to its end */
static int place(const char *cmd, const struct region *loc, struct extent *x)
{
	const struct pci_bar *b = &x->bar;
	uint64_t off = loc->start, size = loc->size;

	if (off >= b->size) {
		pf_error("%s: '%s': offset 0x%llx lies beyond bar%u (size 0x%llx)", cmd, loc->text, (unsigned long long)off, b->index, (unsigned long long)b->size);
		return EXIT_USAGE;
	}
	if (size > b->size - off) {
		pf_error("%s: '%s': 0x%llx bytes from offset 0x%llx run past the end of bar%u (size 0x%llx)", cmd, loc->text, (unsigned long long)size, (unsigned long long)off, b->index, (unsigned long long)b->size);
		return EXIT_USAGE;
	}
	x->start = b->start + off;
	x->has_size = loc->has_size;
	x->size = loc->has_size ? size : b->size - off;
	return 0;
}

static int driver_rules(const struct options *o, const char *cmd, bool writes,
			const struct pci_bar *b, const char *space)
{
	if (!b->driver[0])
		return 0;
	if (writes && !o->force) {
		pf_error("%s: %s is bound to driver %s; writing into its %s needs --force", cmd, b->slot, b->driver, space);
		return EXIT_REFUSED;
	}
	pf_warn("%s: %s is bound to driver %s", cmd, b->slot, b->driver);
	return 0;
}

/*
 * auto follows the BAR's prefetchable bit; --sysfs maps its resourceN file
 * (resourceN_wc for wc, where the kernel offers one), whose offset 0 is the
 * page that holds the BAR's start
 */
static void plan_bar(const struct options *o, struct extent *x)
{
	struct map_plan *p = &x->plan;
	const struct pci_bar *b = &x->bar;
	char file[PATH_MAX];

	p->cache = o->cache;
	if (p->cache == CACHE_AUTO)
		p->cache = b->prefetch ? CACHE_WC : CACHE_UC;
	if (!o->sysfs)
		return;
	snprintf(file, sizeof(file), "%s/devices/%s/resource%u", pci_get_param(pacc, "sysfs.path"), b->slot, b->index);
	snprintf(p->file, sizeof(p->file), "%s_wc", file);
	if (p->cache != CACHE_WC || access(p->file, F_OK))
		snprintf(p->file, sizeof(p->file), "%s", file);
	p->file_base = b->start & ~(((uint64_t)1 << page_shift()) - 1);
}

/*
 * 4096 bytes when the extended space answers, as the kernel's
 * pci_cfg_space_size() and lspci decide: a read at 0x100 fails where there
 * is none (Linux's sysfs config file is 256 bytes long then; conventional
 * PCI methods refuse offsets past 255)
 */
static uint64_t config_size(struct pci_dev *d)
{
	unsigned char b[4];

	if (pci_read_block(d, CONFIG_SIZE, b, sizeof(b)))
		return CONFIG_EXT_SIZE;
	pci_last_warning();
	return CONFIG_SIZE;
}

/* @NAME: where the capability starts, after libpci's walk of the lists */
static int find_cap(const char *cmd, const struct region *loc,
		    struct pci_dev *d, const char *slot, uint64_t *at)
{
	unsigned int id;
	bool ext;
	struct pci_cap *c;

	if (!config_cap_lookup(loc->cap, loc->cap_len, &ext, &id)) {
		pf_error("%s: '%s': no capability is named '%.*s'; the names are setpci's, such as CAP_PM, CAP_MSI, CAP_EXP, CAP_MSIX, ECAP_AER, ECAP_SRIOV (see pfnmap(8))", cmd, loc->text, (int)loc->cap_len, loc->cap);
		return EXIT_USAGE;
	}
	pci_fill_info(d, PCI_FILL_CAPS | PCI_FILL_EXT_CAPS);
	c = pci_find_cap(d, id, ext ? PCI_CAP_EXTENDED : PCI_CAP_NORMAL);
	if (!c) {
		pf_error("%s: '%s': %s has no %.*s capability (%s ID 0x%02x)", cmd, loc->text, slot, (int)loc->cap_len, loc->cap, ext ? "extended" : "capability", id);
		return EXIT_USAGE;
	}
	*at = c->addr;
	return 0;
}

/* OFFSET and SIZE inside config space; no size: up to its end */
static int place_config(const char *cmd, const struct region *loc,
			uint64_t base, struct extent *x)
{
	uint64_t off = loc->start, size = loc->size, all = x->config_size;

	if (off >= all - base) {
		pf_error("%s: '%s': offset 0x%llx lies beyond the configuration space of %s (%llu bytes)", cmd, loc->text, (unsigned long long)(base + off), x->bar.slot, (unsigned long long)all);
		return EXIT_USAGE;
	}
	off += base;
	if (size > all - off) {
		pf_error("%s: '%s': 0x%llx bytes from offset 0x%llx run past the end of the configuration space of %s (%llu bytes)", cmd, loc->text, (unsigned long long)size, (unsigned long long)off, x->bar.slot, (unsigned long long)all);
		return EXIT_USAGE;
	}
	x->start = off;
	x->has_size = loc->has_size;
	x->size = loc->has_size ? size : all - off;
	return 0;
}

/* libpci makes accesses of 8, 16 and 32 bits */
static int check_config_width(const struct options *o, const char *cmd,
			      const struct region *loc)
{
	if (o->width <= 4)
		return 0;
	pf_error("%s: '%s': configuration space is accessed 8, 16 or 32 bits wide (libpci has no 64-bit access); not --width=%u", cmd, loc->text, 8 * o->width);
	return EXIT_USAGE;
}

static int locate_config(const struct options *o, const char *cmd,
			 const struct region *loc, bool writes,
			 struct extent *x)
{
	struct pci_dev *d;
	uint64_t base = 0;
	int r = check_config_width(o, cmd, loc);

	x->is_config = true;
	x->plan.cache = CACHE_UC;
	if (!r)
		r = pci_start(o);
	if (!r)
		r = find_device(cmd, &loc->dev, &d);
	if (r)
		return r;
	pci_fill_device(d, &x->bar);
	/*
	 * no cached registers: every access reaches the device (a poll reads
	 * a status bit that changes under it)
	 */
	pci_setup_cache(d, NULL, 0);
	x->config_dev = d;
	x->config_size = config_size(d);
	if (loc->cap)
		r = find_cap(cmd, loc, d, x->bar.slot, &base);
	if (!r)
		r = place_config(cmd, loc, base, x);
	if (!r)
		r = check_width_aligned(cmd, x, o->width, "configuration space accesses");
	if (!r)
		r = driver_rules(o, cmd, writes, &x->bar, "configuration space");
	return r;
}

enum decoding mem_decoding(struct pci_dev *d)
{
	unsigned char b[2];

	/* pci_read_word() would make a failed read all ones: bit 1 set */
	if (!pci_read_block(d, PCI_COMMAND, b, sizeof(b))) {
		pci_last_warning();
		return DECODE_UNKNOWN;
	}
	return b[0] & PCI_COMMAND_MEMORY ? DECODE_ON : DECODE_OFF;
}

/* The devices warned about: a batch names one on line after line */
static struct pci_dev *decode_warned[MAX_MATCHES];
static unsigned int n_decode_warned;

static bool decode_was_warned(struct pci_dev *d)
{
	unsigned int i;

	for (i = 0; i < n_decode_warned; i++)
		if (decode_warned[i] == d)
			return true;
	return false;
}

/*
 * Firmware leaves memory decoding off for a device no driver enabled (on
 * arm64 always): its BARs answer every read with all ones, which looks
 * like data. Said once a run, before the first access; batch's check pass
 * prints nothing, or the run would not say it.
 */
static void warn_decode_off(const struct options *o, const char *cmd,
			    struct pci_dev *d, const struct pci_bar *b)
{
	if (o->checking || msg_quiet || decode_was_warned(d) ||
	    mem_decoding(d) != DECODE_OFF)
		return;
	pf_warn("%s: %s has memory decoding off (COMMAND bit 1 clear): its memory BARs read as all ones and ignore writes; turn it on with: pfnmap %s-w 16 set %s/config@0x4 0x2", cmd, b->slot, b->driver[0] ? "--force " : "", b->slot);
	if (n_decode_warned < MAX_MATCHES)
		decode_warned[n_decode_warned++] = d;
}

int pci_locate(const struct options *o, const char *cmd,
	       const struct region *loc, bool writes, struct extent *x)
{
	struct pci_dev *d;
	int r;

	memset(x, 0, sizeof(*x));
	x->text = loc->text;
	if (loc->kind == REGION_CONFIG)
		return locate_config(o, cmd, loc, writes, x);
	x->is_bar = true;
	x->bar.index = loc->bar;
	r = pci_start(o);
	if (!r)
		r = find_device(cmd, &loc->dev, &d);
	if (!r)
		r = resolve_bar(cmd, d, &x->bar);
	if (!r)
		r = place(cmd, loc, x);
	if (!r)
		r = driver_rules(o, cmd, writes, &x->bar, "BARs");
	if (!r)
		plan_bar(o, x);
	if (!r)
		warn_decode_off(o, cmd, d, &x->bar);
	return r;
}

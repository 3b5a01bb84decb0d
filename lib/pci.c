// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PCI through libpci (as lspci does it): BAR locations become physical
 * ranges inside the BAR with a plan of how to map them (and a warning when
 * the device does not decode them); the bars command (cmd_bars.c) lists
 * devices through the same session. -A METHOD and -O NAME=VALUE reach
 * libpci unchanged, so that tests (and users) can point it at another
 * sysfs tree: -O sysfs.path=DIR.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pci/pci.h>
#include <unistd.h>

#include "capnames.h"
#include "pci.h"
#include "target.h"

#define BAR_IO		0x1	/* low bits of a BAR register */
#define BAR_TYPE_64	0x4
#define BAR_PREFETCH	0x8

/*
 * A device's facts are read once a session: a batch names the same device
 * on line after line, and libpci's fill costs more than the access itself.
 * (A driver bound meanwhile is seen by the next run.)
 */
#define DEV_CACHE	16

/* libpci's state: one scan of the bus for the session */
struct pf_pci {
	struct pci_access *pacc;
	struct {
		struct pci_dev *d;
		struct pci_bar b;
	} dev_cache[DEV_CACHE];
	unsigned int dev_cached;
	/* the devices warned about: a batch names one on line after line */
	struct pci_dev *decode_warned[MAX_MATCHES];
	unsigned int n_decode_warned;
};

/*
 * libpci's callbacks carry no context: the session that started it, for
 * its fatal errors
 */
static struct pf_session *pci_session;

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
	report_error(pci_session, "libpci: %s", line);
	if (pci_session->fatal)
		pci_session->fatal(pci_session);
	abort();	/* libpci's error callback must not return */
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
static int set_param(struct pf_session *s, struct pci_access *pacc,
		     const char *param)
{
	char name[128], *eq;

	snprintf(name, sizeof(name), "%s", param);
	eq = strchr(name, '=');
	if (!eq || strlen(param) >= sizeof(name)) {
		report_error(s, "-O %s: write NAME=VALUE (see lspci -O help)", param);
		return EXIT_USAGE;
	}
	*eq = 0;
	if (pci_set_param(pacc, name, eq + 1)) {
		report_error(s, "-O %s: no such libpci parameter (see lspci -O help)", name);
		return EXIT_USAGE;
	}
	return 0;
}

static int pci_method(struct pf_session *s, struct pci_access *pacc)
{
	const char *name = s->set.pci_method;
	int m = name ? pci_lookup_method((char *)name) : 0;

	if (m < 0) {
		report_error(s, "-A %s: no such libpci access method (see lspci -A help)", name);
		return EXIT_USAGE;
	}
	if (name)
		pacc->method = m;
	return 0;
}

int pci_start(struct pf_session *s)
{
	struct pci_access *pacc;
	unsigned int i;
	int r;

	if (s->pci)
		return 0;
	s->pci = calloc(1, sizeof(*s->pci));
	if (!s->pci) {
		report_error(s, "cannot start libpci: out of memory");
		return EXIT_FAIL;
	}
	pci_session = s;
	pacc = s->pci->pacc = pci_alloc();
	pacc->error = pci_fatal;
	pacc->warning = pci_warning;
	pacc->debug = pci_quiet;
	r = pci_method(s, pacc);
	for (i = 0; !r && i < s->set.n_pci_params; i++)
		r = set_param(s, pacc, s->set.pci_params[i]);
	if (r) {
		pci_end(s);
		return r;
	}
	pci_init(pacc);
	pci_scan_bus(pacc);
	return 0;
}

void pci_end(struct pf_session *s)
{
	if (!s->pci)
		return;
	pci_cleanup(s->pci->pacc);
	free(s->pci);
	s->pci = NULL;
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
int pci_matches(struct pf_session *s, const struct devspec *spec,
		struct pci_dev **out, int max)
{
	struct pci_dev *d;
	int n = 0, i;

	for (d = s->pci->pacc->devices; d; d = d->next) {
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
static int find_device(struct pf_session *s, const char *cmd,
		       const struct devspec *spec, struct pci_dev **dev)
{
	struct pci_dev *found[MAX_MATCHES];
	int n = pci_matches(s, spec, found, MAX_MATCHES);
	/* VENDOR:DEVICE names the first of its kind; a slot must be unique */
	int index = spec->index < 0 && spec->by_id ? 0 : spec->index;

	if (!n) {
		report_error(s, "%s: no PCI device matches '%s' (see pfnmap bars)", cmd,
			     spec->text);
		return EXIT_USAGE;
	}
	if (index < 0 && n > 1) {
		report_error(s,
			     "%s: '%s' matches %d PCI devices; name one by [DOMAIN:]BUS:DEV.FN, "
			     "or add #N for the Nth", cmd, spec->text, n);
		return EXIT_USAGE;
	}
	if (index >= n || index >= MAX_MATCHES) {
		report_error(s, "%s: '%s': only %d device%s (#0 to #%d)", cmd, spec->text, n,
			     n == 1 ? " matches" : "s match", n - 1);
		return EXIT_USAGE;
	}
	*dev = found[index < 0 ? 0 : index];
	return 0;
}

/*
 * Read from pci.ids only when printed: parsing it costs more than the
 * rest of a run that maps a BAR (in a TCG guest, 115 of 240 ms)
 */
const char *pci_names(struct pf_session *s, const struct pci_bar *b)
{
	static char names[192];

	if (!s->pci)
		return "";
	return pci_lookup_name(s->pci->pacc, names, sizeof(names),
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

/* The device's part of a pci_bar; the BAR's own fields stay */
static void copy_device(struct pci_bar *to, const struct pci_bar *from)
{
	memcpy(to->slot, from->slot, sizeof(to->slot));
	to->vendor = from->vendor;
	to->device = from->device;
	memcpy(to->driver, from->driver, sizeof(to->driver));
}

void pci_fill_device(struct pf_session *s, struct pci_dev *d,
		     struct pci_bar *b)
{
	struct pf_pci *p = s->pci;
	unsigned int i;

	for (i = 0; i < p->dev_cached; i++) {
		if (p->dev_cache[i].d == d) {
			copy_device(b, &p->dev_cache[i].b);
			return;
		}
	}
	read_bar_device(d, b);
	if (p->dev_cached < DEV_CACHE) {
		p->dev_cache[p->dev_cached].d = d;
		copy_device(&p->dev_cache[p->dev_cached++].b, b);
	}
}

static bool bar_is_upper(struct pci_dev *d, unsigned int i)
{
	return i > 0 && !d->size[i] && d->size[i - 1] &&
	       !bar_io(d, i - 1) && bar_64(d, i - 1);
}

static int check_bar(struct pf_session *s, const char *cmd, struct pci_dev *d, struct pci_bar *b)
{
	unsigned int i = b->index;
	pciaddr_t base = d->base_addr[i];

	if (bar_is_upper(d, i))
		report_error(s,
			     "%s: bar%u of %s is the upper half of the 64-bit bar%u; name it bar%u",
			     cmd, i, b->slot, i - 1, i - 1);
	else if (!d->size[i])
		report_error(s, "%s: %s has no bar%u (not implemented)", cmd, b->slot, i);
	else if (bar_io(d, i))
		report_error(s, "%s: bar%u of %s is an I/O-port BAR; pfnmap maps memory BARs only",
			     cmd, i, b->slot);
	else if (!(base & PCI_ADDR_MEM_MASK))
		report_error(s, "%s: bar%u of %s has no address assigned (size 0x%llx)", cmd, i,
			     b->slot, (unsigned long long)d->size[i]);
	else
		return 0;
	return EXIT_USAGE;
}

static int resolve_bar(struct pf_session *s, const char *cmd, struct pci_dev *d, struct pci_bar *b)
{
	unsigned int i = b->index;
	int r;

	pci_fill_device(s, d, b);
	r = check_bar(s, cmd, d, b);
	if (r)
		return r;
	b->start = d->base_addr[i] & PCI_ADDR_MEM_MASK;
	b->size = d->size[i];
	b->is64 = bar_64(d, i);
	b->prefetch = bar_prefetch(d, i);
	return 0;
}

/* OFFSET and SIZE inside the BAR; no size: up to its end */
static int place(struct pf_session *s, const char *cmd, const struct region *loc, struct extent *x)
{
	const struct pci_bar *b = &x->bar;
	uint64_t off = loc->start, size = loc->size;

	if (off >= b->size) {
		report_error(s, "%s: '%s': offset 0x%llx lies beyond bar%u (size 0x%llx)", cmd,
			     loc->text, (unsigned long long)off, b->index,
			     (unsigned long long)b->size);
		return EXIT_USAGE;
	}
	if (size > b->size - off) {
		report_error(s,
			     "%s: '%s': 0x%llx bytes from offset 0x%llx run past the end of bar%u "
			     "(size 0x%llx)", cmd, loc->text, (unsigned long long)size,
			     (unsigned long long)off, b->index, (unsigned long long)b->size);
		return EXIT_USAGE;
	}
	x->start = b->start + off;
	x->has_size = loc->has_size;
	x->size = loc->has_size ? size : b->size - off;
	return 0;
}

static int driver_rules(struct pf_session *s, const char *cmd, bool writes,
			const struct pci_bar *b, const char *space)
{
	if (!b->driver[0])
		return 0;
	if (writes && !s->set.force) {
		report_error(s, "%s: %s is bound to driver %s; writing into its %s needs --force",
			     cmd, b->slot, b->driver, space);
		return EXIT_REFUSED;
	}
	report_warn(s, "%s: %s is bound to driver %s", cmd, b->slot, b->driver);
	return 0;
}

/*
 * auto follows the BAR's prefetchable bit; --sysfs maps its resourceN file
 * (resourceN_wc for wc, where the kernel offers one), whose offset 0 is the
 * page that holds the BAR's start
 */
static void plan_bar(struct pf_session *s, struct extent *x)
{
	struct map_plan *p = &x->plan;
	const struct pci_bar *b = &x->bar;
	char file[PATH_MAX];

	p->cache = s->set.cache;
	if (p->cache == PFNMAP_CACHE_AUTO)
		p->cache = b->prefetch ? PFNMAP_CACHE_WC : PFNMAP_CACHE_UC;
	if (!s->set.sysfs)
		return;
	snprintf(file, sizeof(file), "%s/devices/%s/resource%u",
		 pci_get_param(s->pci->pacc, "sysfs.path"), b->slot, b->index);
	snprintf(p->file, sizeof(p->file), "%s_wc", file);
	if (p->cache != PFNMAP_CACHE_WC || access(p->file, F_OK))
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
static int find_cap(struct pf_session *s, const char *cmd, const struct region *loc,
		    struct pci_dev *d, const char *slot, uint64_t *at)
{
	unsigned int id;
	bool ext;
	struct pci_cap *c;

	if (!config_cap_lookup(loc->cap, loc->cap_len, &ext, &id)) {
		report_error(s,
			     "%s: '%s': no capability is named '%.*s'; the names are setpci's, "
			     "such as CAP_PM, CAP_MSI, CAP_EXP, CAP_MSIX, ECAP_AER, ECAP_SRIOV "
			     "(see pfnmap(8))", cmd, loc->text, (int)loc->cap_len, loc->cap);
		return EXIT_USAGE;
	}
	pci_fill_info(d, PCI_FILL_CAPS | PCI_FILL_EXT_CAPS);
	c = pci_find_cap(d, id, ext ? PCI_CAP_EXTENDED : PCI_CAP_NORMAL);
	if (!c) {
		report_error(s, "%s: '%s': %s has no %.*s capability (%s ID 0x%02x)", cmd,
			     loc->text, slot, (int)loc->cap_len, loc->cap,
			     ext ? "extended" : "capability", id);
		return EXIT_USAGE;
	}
	*at = c->addr;
	return 0;
}

/* OFFSET and SIZE inside config space; no size: up to its end */
static int place_config(struct pf_session *s, const char *cmd, const struct region *loc,
			uint64_t base, struct extent *x)
{
	uint64_t off = loc->start, size = loc->size, all = x->config_size;

	if (off >= all - base) {
		report_error(s,
			     "%s: '%s': offset 0x%llx lies beyond the configuration space of %s "
			     "(%llu bytes)", cmd, loc->text, (unsigned long long)(base + off),
			     x->bar.slot, (unsigned long long)all);
		return EXIT_USAGE;
	}
	off += base;
	if (size > all - off) {
		report_error(s,
			     "%s: '%s': 0x%llx bytes from offset 0x%llx run past the end of the "
			     "configuration space of %s (%llu bytes)", cmd, loc->text,
			     (unsigned long long)size, (unsigned long long)off, x->bar.slot,
			     (unsigned long long)all);
		return EXIT_USAGE;
	}
	x->start = off;
	x->has_size = loc->has_size;
	x->size = loc->has_size ? size : all - off;
	return 0;
}

/* libpci makes accesses of 8, 16 and 32 bits */
static int check_config_width(struct pf_session *s, const char *cmd,
			      const struct region *loc, unsigned int width)
{
	if (width <= 4)
		return 0;
	report_error(s,
		     "%s: '%s': configuration space is accessed 8, 16 or 32 bits wide (libpci has "
		     "no 64-bit access); not --width=%u", cmd, loc->text, 8 * width);
	return EXIT_USAGE;
}

static int locate_config(struct pf_session *s, const char *cmd,
			 const struct region *loc, unsigned int width,
			 bool writes, struct extent *x)
{
	struct pci_dev *d;
	uint64_t base = 0;
	int r = check_config_width(s, cmd, loc, width);

	x->is_config = true;
	x->plan.cache = PFNMAP_CACHE_UC;
	if (!r)
		r = pci_start(s);
	if (!r)
		r = find_device(s, cmd, &loc->dev, &d);
	if (r)
		return r;
	pci_fill_device(s, d, &x->bar);
	/*
	 * no cached registers: every access reaches the device (a poll reads
	 * a status bit that changes under it)
	 */
	pci_setup_cache(d, NULL, 0);
	x->config_dev = d;
	x->config_size = config_size(d);
	if (loc->cap)
		r = find_cap(s, cmd, loc, d, x->bar.slot, &base);
	if (!r)
		r = place_config(s, cmd, loc, base, x);
	if (!r)
		r = check_width_aligned(s, cmd, x, width,
					"configuration space accesses");
	if (!r)
		r = driver_rules(s, cmd, writes, &x->bar, "configuration space");
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

static bool decode_was_warned(struct pf_pci *p, struct pci_dev *d)
{
	unsigned int i;

	for (i = 0; i < p->n_decode_warned; i++)
		if (p->decode_warned[i] == d)
			return true;
	return false;
}

/*
 * Firmware leaves memory decoding off for a device no driver enabled (on
 * arm64 always): its BARs answer every read with all ones, which looks
 * like data. Said once a run, before the first access; batch's check pass
 * prints nothing, or the run would not say it.
 */
static void warn_decode_off(struct pf_session *s, const char *cmd,
			    struct pci_dev *d, const struct pci_bar *b)
{
	struct pf_pci *p = s->pci;

	if (s->set.checking || s->set.quiet || decode_was_warned(p, d) ||
	    mem_decoding(d) != DECODE_OFF)
		return;
	report_warn(s,
		    "%s: %s has memory decoding off (COMMAND bit 1 clear): its memory BARs read "
		    "as all ones and ignore writes; turn it on with: pfnmap %s-w 16 set "
		    "%s/config@0x4 0x2", cmd, b->slot, b->driver[0] ? "--force " : "", b->slot);
	if (p->n_decode_warned < MAX_MATCHES)
		p->decode_warned[p->n_decode_warned++] = d;
}

int pci_locate(struct pf_session *s, const char *cmd,
	       const struct region *loc, unsigned int width, bool writes,
	       struct extent *x)
{
	struct pci_dev *d;
	int r;

	memset(x, 0, sizeof(*x));
	x->text = loc->text;
	if (loc->kind == REGION_CONFIG)
		return locate_config(s, cmd, loc, width, writes, x);
	x->is_bar = true;
	x->bar.index = loc->bar;
	r = pci_start(s);
	if (!r)
		r = find_device(s, cmd, &loc->dev, &d);
	if (!r)
		r = resolve_bar(s, cmd, d, &x->bar);
	if (!r)
		r = place(s, cmd, loc, x);
	if (!r)
		r = driver_rules(s, cmd, writes, &x->bar, "BARs");
	if (!r)
		plan_bar(s, x);
	if (!r)
		warn_decode_off(s, cmd, d, &x->bar);
	return r;
}

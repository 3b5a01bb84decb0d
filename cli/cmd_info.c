// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * info: what a region is, without mapping it: PFNs and pages, who owns it in
 * /proc/iomem, whether it is RAM, and the cache type a mapping would get.
 * One "key: value" per line, for people and scripts alike.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "commands.h"
#include "iomem.h"
#include "json.h"
#include "pci.h"
#include "region.h"
#include "results.h"

static void print_owners(const struct iomem *io, const struct extent *r)
{
	uint64_t last = r->start + (r->size - 1);
	const struct iomem_entry *e;
	size_t pos = 0;
	int n = 0;

	while ((e = iomem_next_overlap(io, &pos, r->start, last))) {
		printf("iomem: %*s%llx-%llx : %s\n", 2 * e->depth, "",
		       (unsigned long long)e->start,
		       (unsigned long long)e->end, e->name);
		n++;
	}
	if (!n)
		printf("iomem: none (no resource claims this range)\n");
}

static const char *ram_words(enum ram_state s)
{
	switch (s) {
	case RAM_ALL:
		return "yes (System RAM, managed by the kernel)";
	case RAM_MIXED:
		return "partly (the range mixes System RAM and other memory)";
	default:
		return "no";
	}
}

/* What auto means for the helper: what /dev/mem does on this architecture */
#if defined(__x86_64__) || defined(__i386__)
#define AUTO_WORDS "auto: as /dev/mem: write-back where the MTRRs say so " \
		   "(RAM hidden with memmap=), uncached (uc-) for MMIO"
#elif defined(__aarch64__)
#define AUTO_WORDS "auto: as /dev/mem: uc (Device-nGnRnE) " \
		   "for all that is not the kernel's own memory (MMIO, memory beyond mem=), " \
		   "write-back for that"
#elif defined(__arm__)
#define AUTO_WORDS "auto: as /dev/mem: uc (Strongly-ordered) " \
		   "for all that is not the kernel's own memory (MMIO, memory beyond mem=), " \
		   "write-back for that"
#else
#define AUTO_WORDS "auto: as /dev/mem on this architecture (phys_mem_access_prot())"
#endif

/* The helper's types in the architecture's words; files have none */
static void print_cache(const struct options *o, const struct extent *x,
			enum ram_state s)
{
	bool helper = !o->device && !x->plan.file[0];

	if (x->plan.cache != PFNMAP_CACHE_AUTO)
		printf("cache: %s%s\n", cache_name(x->plan.cache),
		       helper ? cache_arch_words(x->plan.cache) : "");
	else if (s == RAM_ALL)
		printf("cache: auto: wb (System RAM is always write-back)\n");
	else if (o->device)
		printf("cache: auto: as the file maps: write-back for a regular file, "
		       "uncached for a device file\n");
	else if (!helper)
		printf("cache: auto: as the kernel maps the sysfs resource file: uncached, "
		       "write-combining for resourceN_wc\n");
	else
		printf("cache: %s\n", AUTO_WORDS);
}

/* Asks /dev/pfnmap for t->info; NULL, or why there is no answer */
static const char *helper_probe(struct target *t)
{
	const char *msg = NULL;

	t->path = PFNMAP_DEV;
	t->fd = open(PFNMAP_DEV, O_RDONLY | O_CLOEXEC);
	if (t->fd < 0)
		msg = errno == ENOENT ? "not loaded" : strerror(errno);
	else if (ioctl(t->fd, PFNMAP_IOC_GET_INFO, &t->info) < 0)
		msg = errno == ENOTTY &&
		      !ioctl(t->fd, PFNMAP_IOC_GET_INFO_ABI1, &t->info) ?
		      "speaks ABI 1: load the helper that came with this pfnmap" :
		      "does not answer GET_INFO";
	if (t->fd >= 0)
		close(t->fd);
	return msg;
}

static void print_helper(void)
{
	struct target t = { 0 };
	const char *msg = helper_probe(&t);

	if (msg)
		printf("helper: %s: %s\n", PFNMAP_DEV, msg);
#if defined(__x86_64__) || defined(__i386__)
	else
		printf("helper: abi %u, phys-bits %u, pat %s, allow-ram %s\n",
		       t.info.abi_version, t.info.phys_bits,
		       t.info.flags & PFNMAP_INFO_PAT ? "on" : "off",
		       t.info.policy & PFNMAP_POLICY_ALLOW_RAM ? "yes" : "no");
#else
	/* no PAT: the page table entry alone says the type */
	else
		printf("helper: abi %u, phys-bits %u, allow-ram %s\n",
		       t.info.abi_version, t.info.phys_bits,
		       t.info.policy & PFNMAP_POLICY_ALLOW_RAM ? "yes" : "no");
#endif
}

static void print_bar(const struct pci_bar *b)
{
	printf("device: %s %04x:%04x %s\n", b->slot, b->vendor, b->device,
	       device_names(b));
	printf("driver: %s\n", b->driver[0] ? b->driver : "none");
	printf("bar: bar%u 0x%llx-0x%llx, size 0x%llx, %s-bit, %s\n", b->index,
	       (unsigned long long)b->start,
	       (unsigned long long)(b->start + b->size - 1),
	       (unsigned long long)b->size, b->is64 ? "64" : "32",
	       b->prefetch ? "prefetchable" : "non-prefetchable");
}

static void print_range(const struct extent *r)
{
	unsigned int shift = page_shift();
	struct pfn_span s;

	region_pfns(r->start, r->size, shift, &s);
	printf("region: 0x%llx-0x%llx\nsize: %llu\n",
	       (unsigned long long)r->start, (unsigned long long)(r->start + (r->size - 1)),
	       (unsigned long long)r->size);
	printf("pfn: 0x%llx-0x%llx\npages: %llu\npage-size: %u\npage-offset: 0x%llx\n",
	       (unsigned long long)s.first_pfn, (unsigned long long)s.last_pfn,
	       (unsigned long long)s.pages, 1U << shift, (unsigned long long)s.offset);
}

/* Config space is no physical memory: which device, and where in it */
static int print_config(const struct extent *x)
{
	printf("device: %s %04x:%04x %s\n", x->bar.slot, x->bar.vendor,
	       x->bar.device, device_names(&x->bar));
	printf("driver: %s\n", x->bar.driver[0] ? x->bar.driver : "none");
	printf("config: 0x%llx-0x%llx, size 0x%llx, in %llu bytes of configuration space, "
	       "through libpci\n",
	       (unsigned long long)x->start,
	       (unsigned long long)(x->start + x->size - 1),
	       (unsigned long long)x->size,
	       (unsigned long long)x->config_size);
	return 0;
}

/* --json: "pci", the BAR's facts with the names bars --json gives them */
static void json_bar(struct json_object *j, const struct extent *r)
{
	const struct pci_bar *b = &r->bar;

	if (!r->is_bar && !r->is_config) {
		jout_null(j, "pci");
		return;
	}
	j = jout_object(j, "pci");
	jout_pci_device(j, b, -1, device_names(b));
	if (r->is_config) {
		/* the device's facts; config space is no BAR */
		jout_null(j, "bar");
		jout_null(j, "start");
		jout_null(j, "size");
		jout_null(j, "bits");
		jout_null(j, "prefetchable");
		return;
	}
	jout_int(j, "bar", b->index);
	jout_hex(j, "start", b->start, 0);
	jout_hex(j, "size", b->size, 0);
	jout_int(j, "bits", b->is64 ? 64 : 32);
	jout_bool(j, "prefetchable", b->prefetch);
}

static void json_range(struct json_object *j, const struct extent *r)
{
	unsigned int shift = page_shift();
	struct pfn_span s;

	region_pfns(r->start, r->size, shift, &s);
	jout_str(j, "region", r->text);
	jout_hex(j, "start", r->start, 0);
	jout_hex(j, "end", r->start + (r->size - 1), 0);
	jout_hex(j, "size", r->size, 0);
	jout_hex(j, "first_pfn", s.first_pfn, 0);
	jout_hex(j, "last_pfn", s.last_pfn, 0);
	jout_int(j, "pages", (int64_t)s.pages);
	jout_int(j, "page_size", 1 << shift);
	jout_hex(j, "page_offset", s.offset, 0);
}

/* "iomem": the entries over r, or null and "iomem_error" saying why */
static bool json_iomem(struct json_object *j, const struct extent *r,
		       enum ram_state *ram)
{
	uint64_t last = r->start + (r->size - 1);
	const struct iomem_entry *e;
	struct json_object *a, *o;
	struct iomem io;
	size_t pos = 0;
	char why[128];

	if (iomem_load(NULL, &io)) {
		snprintf(why, sizeof(why), "unreadable (%s)", strerror(errno));
	} else if (io.hidden) {
		snprintf(why, sizeof(why),
			 "/proc/iomem shows every address as 0 without root (CAP_SYS_ADMIN)");
	} else {
		a = jout_array(j, "iomem");
		while ((e = iomem_next_overlap(&io, &pos, r->start, last))) {
			o = jout_append(a);
			jout_hex(o, "start", e->start, 0);
			jout_hex(o, "end", e->end, 0);
			jout_int(o, "depth", e->depth);
			jout_str(o, "name", e->name);
		}
		jout_null(j, "iomem_error");
		*ram = iomem_ram(&io, r->start, last);
		iomem_free(&io);
		return true;
	}
	jout_null(j, "iomem");
	jout_str(j, "iomem_error", why);
	iomem_free(&io);
	return false;
}

/* "helper": null when nothing is mapped through it (-D, --sysfs) */
static void json_helper(struct json_object *j, bool needed)
{
	struct target t = { 0 };
	const char *msg = needed ? helper_probe(&t) : NULL;

	if (!needed) {
		jout_null(j, "helper");
		return;
	}
	j = jout_object(j, "helper");
	jout_str(j, "path", PFNMAP_DEV);
	jout_str(j, "error", msg);
	if (msg) {
		jout_null(j, "abi");
		jout_null(j, "phys_bits");
		jout_null(j, "pat");
		jout_null(j, "allow_ram");
		return;
	}
	jout_int(j, "abi", t.info.abi_version);
	jout_int(j, "phys_bits", t.info.phys_bits);
	jout_bool(j, "pat", t.info.flags & PFNMAP_INFO_PAT);
	jout_bool(j, "allow_ram", t.info.policy & PFNMAP_POLICY_ALLOW_RAM);
}

/* info --json of config space: print_config's facts */
static int config_json(const struct extent *r)
{
	struct json_object *j = jout_new();

	jout_str(j, "region", r->text);
	jout_str(j, "space", "config");
	json_bar(j, r);
	jout_hex(j, "config_offset", r->start, 0);
	jout_hex(j, "config_end", r->start + (r->size - 1), 0);
	jout_hex(j, "size", r->size, 0);
	jout_int(j, "config_size", (int64_t)r->config_size);
	return jout_print(j);
}

/* info --json: the facts of the text lines, in one object */
static int info_json(const struct options *o, const struct extent *r)
{
	static const char *const ram[] = {
		[RAM_NONE] = "no", [RAM_ALL] = "yes", [RAM_MIXED] = "partly",
	};
	struct json_object *j = jout_new();
	enum ram_state s = RAM_NONE;
	bool known;

	json_range(j, r);
	json_bar(j, r);
	known = json_iomem(j, r, &s);
	jout_str(j, "ram", known ? ram[s] : NULL);
	/* what auto turns into; "auto" where only the kernel knows */
	jout_str(j, "cache", r->plan.cache != PFNMAP_CACHE_AUTO ?
		 cache_name(r->plan.cache) : known && s == RAM_ALL ? "wb" :
		 "auto");
	json_helper(j, !o->device && !r->plan.file[0]);
	jout_str(j, "space", "memory");
	return jout_print(j);
}

static int cmd_info(struct options *o, char **argv)
{
	struct extent r;
	struct iomem io;
	enum ram_state ram = RAM_NONE;
	bool known = false;
	int ret = region_arg(o, argv[0], 0, &r);

	/* batch's check: the region resolves; what info says is for the run */
	if (ret || o->checking)
		return ret;
	if (r.is_config)
		return json_wanted(o) ? config_json(&r) : print_config(&r);
	if (json_wanted(o))
		return info_json(o, &r);
	if (r.is_bar)
		print_bar(&r.bar);
	print_range(&r);
	if (iomem_load(NULL, &io)) {
		printf("iomem: unreadable (%s)\n", strerror(errno));
	} else if (io.hidden) {
		printf("iomem: unknown: "
		       "/proc/iomem shows every address as 0 without root (CAP_SYS_ADMIN)\n");
	} else {
		print_owners(&io, &r);
		ram = iomem_ram(&io, r.start, r.start + (r.size - 1));
		known = true;
	}
	printf("ram: %s\n", known ? ram_words(ram) : "unknown");
	print_cache(o, &r, ram);
	/* what --device or --sysfs maps through needs no helper */
	if (!o->device && !r.plan.file[0])
		print_helper();
	iomem_free(&io);
	return 0;
}

const struct command info_command = {
	.name = "info",
	.args = "REGION",
	.doc = "PFNs, pages, /proc/iomem owner, cache type; maps nothing",
	.min_args = 1,
	.max_args = 1,
	.flags = CMD_TAKES(OPTS_JSON),
	.run = cmd_info,
};

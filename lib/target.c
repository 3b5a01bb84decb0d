// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Targets: /dev/pfnmap (loading the helper when it is missing, asking it
 * for its ABI and policy, setting the cache type), a --device file or a
 * sysfs resourceN file; and whatever the kernel refuses, in words.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kmodload.h"
#include "target.h"

static int explain_open_error(struct target *t, const char *path, int errnum)
{
	const char *lock = kernel_lockdown();

	if ((errnum == EPERM || errnum == EACCES) && lock) {
		report_error(t->s,
			     "%s: the kernel is locked down (%s): it refuses physical memory "
			     "access to everyone; boot without lockdown (lockdown=none, Secure "
			     "Boot off) to lift it", path, lock);
	} else if (errnum == EPERM || errnum == EACCES) {
		report_error(t->s,
			     "%s: permission denied: mapping physical memory needs root with "
			     "CAP_SYS_RAWIO (try sudo)", path);
	} else {
		report_error(t->s, "cannot open %s: %s", path, strerror(errnum));
	}
	return EXIT_NOHELPER;
}

/* devtmpfs creates the node as the module registers; udev may lag behind */
static int open_after_load(int flags)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	int fd = -1, i;

	for (i = 0; i < 100 && fd < 0 && errno == ENOENT; i++) {
		nanosleep(&pause, NULL);
		fd = open(PFNMAP_DEV, flags);
	}
	return fd;
}

/* /dev/pfnmap is missing: load the helper, then wait for the node */
static int load_and_open(struct target *t, int flags)
{
	int r = helper_load(t->s);

	if (r)
		return r;
	errno = ENOENT;
	t->fd = open_after_load(flags);
	if (t->fd < 0 && errno == ENOENT) {
		report_error(t->s,
			     "the helper module is loaded but %s did not appear; is devtmpfs "
			     "mounted on /dev? (see dmesg)", PFNMAP_DEV);
		return EXIT_NOHELPER;
	}
	return 0;
}

static int helper_info(struct target *t)
{
	memset(&t->info, 0, sizeof(t->info));
	if (ioctl(t->fd, PFNMAP_IOC_GET_INFO, &t->info) < 0 && errno == ENOTTY &&
	    ioctl(t->fd, PFNMAP_IOC_GET_INFO_ABI1, &t->info) == 0) {
		report_error(t->s,
			     "%s speaks ABI version %u, this pfnmap speaks %u: load the helper "
			     "that came with this pfnmap", t->path, t->info.abi_version,
			     PFNMAP_ABI_VERSION);
		return EXIT_NOHELPER;
	}
	if (t->info.size == 0) {
		report_error(t->s,
			     "%s does not answer PFNMAP_IOC_GET_INFO (%s): it is not the pfnmap "
			     "helper", t->path, strerror(errno));
		return EXIT_NOHELPER;
	}
	if (t->info.abi_version != PFNMAP_ABI_VERSION) {
		report_error(t->s,
			     "%s speaks ABI version %u, this pfnmap speaks %u: load the helper "
			     "that came with this pfnmap", t->path, t->info.abi_version,
			     PFNMAP_ABI_VERSION);
		return EXIT_NOHELPER;
	}
	return 0;
}

/* --cache, or what auto means for a BAR: asked of the helper up front */
static int set_cache(struct target *t)
{
	__u32 c = t->cache;

	if (t->cache == PFNMAP_CACHE_AUTO || !ioctl(t->fd, PFNMAP_IOC_SET_CACHE, &c))
		return 0;
	report_error(t->s, "the helper cannot map with cache type %s: %s", cache_name(t->cache),
		     errno == EOPNOTSUPP ? "x86 PAT is off (boot without nopat)" : strerror(errno));
	return EXIT_REFUSED;
}

static int open_helper(struct target *t, int flags)
{
	int r;

	t->path = PFNMAP_DEV;
	t->fd = open(PFNMAP_DEV, flags);
	if (t->fd < 0 && errno == ENOENT && !t->s->set.no_load) {
		r = load_and_open(t, flags);
		if (r)
			return r;
	} else if (t->fd < 0 && errno == ENOENT) {
		report_error(t->s,
			     "%s does not exist and --no-load forbids loading the helper; load it "
			     "(modprobe pfnmap) or drop --no-load", PFNMAP_DEV);
		return EXIT_NOHELPER;
	}
	if (t->fd < 0)
		return explain_open_error(t, PFNMAP_DEV, errno);
	t->helper = true;
	r = helper_info(t);
	if (r)
		return r;
	return set_cache(t);
}

/* A --device file, or a sysfs resourceN file from the plan */
static int open_file(struct target *t, const char *path, uint64_t base,
		     int flags)
{
	struct stat st;

	t->path = path;
	t->file_base = base;
	/* O_DSYNC: /dev/mem maps uncached then, as with the helper's uc */
	if (t->cache == PFNMAP_CACHE_UC)
		flags |= O_DSYNC;
	t->fd = open(path, flags);
	if (t->fd < 0)
		return explain_open_error(t, path, errno);
	if (fstat(t->fd, &st) == 0)
		t->regular = S_ISREG(st.st_mode);
	return 0;
}

unsigned int page_shift(void)
{
	static unsigned int shift;
	long page;

	if (!shift) {
		page = sysconf(_SC_PAGESIZE);
		while ((1L << shift) < page)
			shift++;
	}
	return shift;
}

/* The targets a session keeps; a few distinct ones at most in practice */
#define KEPT_MAX	16
struct pf_kept_targets {
	unsigned int n;
	struct kept {
		char path[PATH_MAX + 8];
		int flags;
		struct target t;
	} k[KEPT_MAX];
};

/* The session's table; NULL when it keeps none (or has no memory for it) */
static struct pf_kept_targets *kept_targets(struct pf_session *s)
{
	if (s->keep && !s->targets)
		s->targets = calloc(1, sizeof(*s->targets));
	return s->keep ? s->targets : NULL;
}

static struct kept *kept_find(struct pf_kept_targets *kt, const char *path,
			      int flags, enum pfnmap_cache cache, uint64_t base)
{
	unsigned int i;

	for (i = 0; kt && i < kt->n; i++)
		if (kt->k[i].flags == flags && kt->k[i].t.cache == cache &&
		    kt->k[i].t.file_base == base && !strcmp(kt->k[i].path, path))
			return &kt->k[i];
	return NULL;
}

/* A target just opened, kept for the next target_open of the same */
static void kept_add(struct pf_kept_targets *kt, struct target *t, int flags)
{
	struct kept *k = &kt->k[kt->n];

	if (kt->n == KEPT_MAX)
		return;		/* more than that: opened and closed each time */
	snprintf(k->path, sizeof(k->path), "%s", t->path);
	k->flags = flags;
	k->t = *t;
	k->t.path = k->path;
	kt->n++;
}

bool target_kept(const struct target *t)
{
	struct pf_kept_targets *kt = t->s ? t->s->targets : NULL;
	unsigned int i;

	for (i = 0; kt && t->s->keep && i < kt->n; i++)
		if (kt->k[i].t.fd == t->fd)
			return true;
	return false;
}

static int open_target(struct target *t, const struct map_plan *plan,
		       int flags)
{
	const char *device = t->s->set.device;

	if (device)
		return open_file(t, device, 0, flags);
	if (plan->file[0])
		return open_file(t, plan->file, plan->file_base, flags);
	return open_helper(t, flags);
}

int target_open(struct pf_session *s, struct target *t,
		const struct map_plan *plan, bool write)
{
	int flags = (write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	const char *device = s->set.device;
	const char *path = device ? device :
			   plan->file[0] ? plan->file : PFNMAP_DEV;
	uint64_t base = device ? 0 : plan->file_base;
	struct pf_kept_targets *kt = kept_targets(s);
	struct kept *k = kept_find(kt, path, flags, plan->cache, base);
	int r;

	if (k) {
		*t = k->t;
		return 0;
	}
	memset(t, 0, sizeof(*t));
	t->s = s;
	t->fd = -1;
	t->writable = write;
	t->cache = plan->cache;
	r = open_target(t, plan, flags);
	if (!r && kt)
		kept_add(kt, t, flags);
	return r;
}

void target_close(struct target *t)
{
	if (t->fd >= 0 && !target_kept(t))
		close(t->fd);
	t->fd = -1;
}

void target_release_all(struct pf_session *s)
{
	struct pf_kept_targets *kt = s->targets;

	while (kt && kt->n)
		close(kt->k[--kt->n].t.fd);
	free(kt);
	s->targets = NULL;
}

unsigned int target_phys_bits(const struct target *t)
{
	return t->helper ? t->info.phys_bits : 64;
}

const char *cache_name(enum pfnmap_cache c)
{
	switch (c) {
	case PFNMAP_CACHE_AUTO:
		return "auto";
	case PFNMAP_CACHE_UC:
		return "uc";
	case PFNMAP_CACHE_WC:
		return "wc";
	case PFNMAP_CACHE_WB:
		return "wb";
	case PFNMAP_CACHE_WT:
		return "wt";
	case PFNMAP_CACHE_WP:
		return "wp";
	case PFNMAP_CACHE_UC_STRONG:
		return "strong-uc";
	default:
		return "unknown";
	}
}

/*
 * What a type the helper applied is in the architecture's own words: on
 * arm64 the memory type in the page table entry, which the helper reads
 * back from it (uc is pgprot_noncached(), as /dev/mem's: Device-nGnRnE,
 * whose stores complete at the device, not at an early write buffer)
 */
const char *cache_arch_words(enum pfnmap_cache c)
{
#if defined(__aarch64__) || defined(__arm__)
	switch (c) {
	case PFNMAP_CACHE_UC:
#ifdef __aarch64__
		return " (Device-nGnRnE)";
#else
		return " (Strongly-ordered)";	/* ARMv7's Device-nGnRnE */
#endif
	case PFNMAP_CACHE_WC:
		return " (Normal non-cacheable)";
	case PFNMAP_CACHE_WB:
		return " (Normal write-back)";
	default:
		return "";
	}
#else
	(void)c;
	return "";
#endif
}

/*
 * Who decided the type -v reports: the kernel, as the helper read it back
 * from the page table; where the helper cannot (32-bit ARM), only what it
 * asked for is known
 */
const char *target_applied_who(const struct target *t)
{
	if (t->helper && !(t->info.flags & PFNMAP_INFO_PTE))
		return "the helper requested";
	return "the kernel applied";
}

/* What the target applied: the helper says; for a file, what was asked */
enum pfnmap_cache target_applied(struct target *t)
{
	if (t->helper && !helper_info(t) &&
	    (t->info.flags & PFNMAP_INFO_MAPPED))
		return t->info.applied_cache;
	if (t->helper)
		return PFNMAP_CACHE_UNKNOWN;
	switch (t->cache) {
	case PFNMAP_CACHE_UC:
		return PFNMAP_CACHE_UC;
	case PFNMAP_CACHE_WC:
		return PFNMAP_CACHE_WC;
	case PFNMAP_CACHE_WB:
		return PFNMAP_CACHE_WB;
	default:
		/* a file is page cache; a device file may be MMIO */
		return t->regular ? PFNMAP_CACHE_WB : PFNMAP_CACHE_UC;
	}
}

/* Did lockdown refuse the helper's last mmap? It says so (ABI 2) */
static bool helper_locked_down(const struct target *t)
{
	struct pfnmap_info info;

	memset(&info, 0, sizeof(info));
	return !ioctl(t->fd, PFNMAP_IOC_GET_INFO, &info) &&
	       (info.flags & PFNMAP_INFO_LOCKDOWN);
}

/*
 * The helper's refusals (pfnmap(4), ERRORS) in words; NULL for errors that
 * the mmap core gives for its own reasons, which strerror() words well
 */
static const char *mmap_rule(const struct target *t, int errnum)
{
	switch (errnum) {
	case EPERM:
		if (helper_locked_down(t))
			return NULL;	/* target_mmap_error() says it */
		return "it is System RAM that the kernel manages, which the helper refuses; load "
		       "pfnmap with allow_ram=1 to map it (write-back only)";
	case EADDRINUSE:
		return "a driver claimed it exclusively (IORESOURCE_EXCLUSIVE), which forbids "
		       "mapping it into user space; pfnmap info names the driver: unbind it to "
		       "map the range";
	case EXDEV:
		return "it mixes System RAM with addresses that are not System RAM; split it "
		       "where System RAM ends (see /proc/iomem)";
	case EOPNOTSUPP:
		if (t->cache == PFNMAP_CACHE_WB)
			return "write-back is refused on a device's range on ARM (the CPU may "
			       "read and write back cacheable memory when it likes); use "
			       "--cache=auto, uc or wc";
		return "System RAM can only be mapped write-back (--cache=wb or auto)";
	case ENOSPC:
		return "all mappings through the helper would cover more than its max_total; "
		       "unmap others, or raise /sys/module/pfnmap/parameters/max_total";
	case EBUSY:
#if defined(__x86_64__) || defined(__i386__)
		return "the kernel would map it with another cache type (an existing mapping or "
		       "the MTRRs decide); use the type `pfnmap info` shows, or --cache=auto";
#else
		return "the kernel mapped it with another cache type than the one asked for; use "
		       "--cache=auto";
#endif
	default:
		return NULL;
	}
}

int target_mmap_error(const struct target *t, int errnum, uint64_t start,
		      uint64_t size)
{
	const char *rule = t->helper ? mmap_rule(t, errnum) : NULL;
	const char *lock = kernel_lockdown();
	unsigned long long s = start, e = start + (size - 1);

	if (t->helper && errnum == ERANGE)
		report_error(t->s,
			     "the helper refuses 0x%llx-0x%llx: it ends beyond the %u-bit "
			     "physical addresses the helper can map (phys-bits in pfnmap info)", s,
			     e, target_phys_bits(t));
	else if (t->helper && errnum == EFBIG)
		report_error(t->s,
			     "the helper refuses 0x%llx-0x%llx: one mapping may be %llu MiB at "
			     "most, as the helper fills its page tables at once", s, e,
			     (unsigned long long)(t->info.max_map >> 20));
	else if (t->helper && errnum == EPERM && !rule)
		report_error(t->s,
			     "the helper refuses 0x%llx-0x%llx: the kernel is now locked "
			     "down%s%s%s, which refuses physical memory access to everyone, also "
			     "through a /dev/pfnmap opened before; boot without lockdown "
			     "(lockdown=none, Secure Boot off) to lift it", s, e, lock ? " (" : "",
			     lock ? lock : "", lock ? ")" : "");
	else if (rule)
		report_error(t->s, "the helper refuses 0x%llx-0x%llx: %s", s, e, rule);
	else
		report_error(t->s, "cannot map 0x%llx-0x%llx through %s: %s", s, e, t->path,
		    strerror(errnum));
	return EXIT_REFUSED;
}

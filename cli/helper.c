// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /dev/pfnmap: find it, load the helper with libkmod when it is missing,
 * ask it for its ABI and policy, set the cache type, and explain in words
 * whatever the kernel refuses.
 */
#include <errno.h>
#include <fcntl.h>
#include <libkmod.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "target.h"

static const char *lockdown_state(void)
{
	static char mode[32];
	char buf[128], *open, *close;
	FILE *f = fopen("/sys/kernel/security/lockdown", "re");

	if (!f)
		return NULL;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	open = strchr(buf, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close || !strncmp(open, "[none]", 6))
		return NULL;
	snprintf(mode, sizeof(mode), "%.*s", (int)(close - open - 1), open + 1);
	return mode;
}

static int explain_open_error(const char *path, int errnum)
{
	const char *lock = lockdown_state();

	if ((errnum == EPERM || errnum == EACCES) && lock) {
		err("%s: the kernel is locked down (%s): it refuses physical "
		    "memory access to everyone; boot without lockdown "
		    "(lockdown=none, Secure Boot off) to lift it", path, lock);
	} else if (errnum == EPERM || errnum == EACCES) {
		err("%s: permission denied: mapping physical memory needs "
		    "root with CAP_SYS_RAWIO (try sudo)", path);
	} else {
		err("cannot open %s: %s", path, strerror(errnum));
	}
	return EXIT_NOHELPER;
}

static const char *kernel_release(void)
{
	static struct utsname u;

	return uname(&u) ? "?" : u.release;
}

/* CAP_SYS_MODULE in the effective set; root may lack it (containers) */
static bool may_load_modules(void)
{
	unsigned long long caps = 0;
	bool found = false;
	char line[128];
	FILE *f = fopen("/proc/self/status", "re");

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "CapEff: %llx", &caps) == 1;
	if (f)
		fclose(f);
	if (!found)
		return geteuid() == 0;
	return caps & (1ULL << CAP_SYS_MODULE);
}

static bool modules_disabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/modules_disabled", "re");
	int c = f ? fgetc(f) : EOF;

	if (f)
		fclose(f);
	return c == '1';
}

/* In the order the kernel checks: capability, modules_disabled, lockdown */
static void explain_eperm(const char *what)
{
	const char *lock = lockdown_state();

	if (!may_load_modules())
		err("cannot load %s: loading modules needs root "
		    "(CAP_SYS_MODULE); try sudo", what);
	else if (modules_disabled())
		err("cannot load %s: module loading is disabled until the next "
		    "boot (kernel.modules_disabled=1)", what);
	else if (lock)
		err("cannot load %s: the kernel is locked down (%s) and refuses "
		    "modules without a trusted signature; sign the module with a "
		    "key the kernel trusts (see DKMS, mokutil)", what, lock);
	else
		err("cannot load %s: the kernel refuses it (a security module "
		    "or policy; see dmesg)", what);
}

static int explain_load_error(const char *what, int errnum)
{
	switch (errnum) {
	case ENOSYS:
		err("cannot load %s: this kernel has no module support "
		    "(CONFIG_MODULES is off); use --device=/dev/mem", what);
		break;
	case EPERM:
		explain_eperm(what);
		break;
	case EKEYREJECTED:
	case ENOKEY:
	case EBADMSG:
		err("cannot load %s: the kernel requires a valid module "
		    "signature (module.sig_enforce or Secure Boot); sign it with "
		    "a key the kernel trusts (see DKMS, mokutil)", what);
		break;
	case ENOEXEC:
		err("cannot load %s: it was built for another kernel than %s "
		    "(or is not a module); rebuild it against "
		    "/lib/modules/%s/build", what, kernel_release(),
		    kernel_release());
		break;
	case ENOENT:
		err("cannot load %s: no such file, or a symbol it needs is "
		    "missing from kernel %s (see dmesg)", what, kernel_release());
		break;
	default:
		err("cannot load %s: %s", what, strerror(errnum));
		break;
	}
	return EXIT_NOHELPER;
}

static int insert(struct kmod_ctx *ctx, struct kmod_module *mod,
		  const char *what, bool by_name)
{
	int r;

	if (by_name)
		r = kmod_module_probe_insert_module(mod, 0, NULL, NULL, NULL, NULL);
	else
		r = kmod_module_insert_module(mod, 0, NULL);
	(void)ctx;
	if (r == -EEXIST || r == 0)
		return 0;
	if (r > 0) {
		err("cannot load %s: it is blacklisted", what);
		return EXIT_NOHELPER;
	}
	return explain_load_error(what, -r);
}

static int lookup(struct kmod_ctx *ctx, struct kmod_module **mod)
{
	struct kmod_list *list = NULL;
	int r = kmod_module_new_from_lookup(ctx, PFNMAP_DEVICE_NAME, &list);

	if (r < 0 || !list) {
		err("the helper module %s is not installed for kernel %s; "
		    "build it and give --module=PATH/pfnmap.ko, or install "
		    "pfnmap-dkms", PFNMAP_DEVICE_NAME, kernel_release());
		return EXIT_NOHELPER;
	}
	*mod = kmod_module_get_module(list);
	kmod_module_unref_list(list);
	return 0;
}

int helper_load(const char *path, const struct options *o)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);
	struct kmod_module *mod = NULL;
	const char *what = path ? path : "the helper module " PFNMAP_DEVICE_NAME;
	int r;

	if (!ctx) {
		err("cannot load the helper: libkmod failed to start");
		return EXIT_NOHELPER;
	}
	if (path) {
		r = kmod_module_new_from_path(ctx, path, &mod);
		if (r < 0) {
			err("cannot load %s: %s", path, strerror(-r));
			r = EXIT_NOHELPER;
		}
	} else {
		r = lookup(ctx, &mod);
	}
	if (!r) {
		note(o, "loading %s", path ? path : kmod_module_get_path(mod));
		r = insert(ctx, mod, what, !path);
	}
	kmod_module_unref(mod);
	kmod_unref(ctx);
	return r;
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
static int load_and_open(struct target *t, const struct options *o, int flags)
{
	int r = helper_load(o->module, o);

	if (r)
		return r;
	errno = ENOENT;
	t->fd = open_after_load(flags);
	if (t->fd < 0 && errno == ENOENT) {
		err("the helper module is loaded but %s did not appear; "
		    "is devtmpfs mounted on /dev? (see dmesg)", PFNMAP_DEV);
		return EXIT_NOHELPER;
	}
	return 0;
}

static int open_helper(struct target *t, const struct options *o, int flags)
{
	int r;

	t->path = PFNMAP_DEV;
	t->fd = open(PFNMAP_DEV, flags);
	if (t->fd < 0 && errno == ENOENT && !o->no_load) {
		r = load_and_open(t, o, flags);
		if (r)
			return r;
	} else if (t->fd < 0 && errno == ENOENT) {
		err("%s does not exist and --no-load forbids loading the helper; "
		    "load it (modprobe pfnmap) or drop --no-load", PFNMAP_DEV);
		return EXIT_NOHELPER;
	}
	if (t->fd < 0)
		return explain_open_error(PFNMAP_DEV, errno);
	t->helper = true;
	r = helper_info(t);
	if (r)
		return r;
	if (o->cache != CACHE_AUTO) {
		__u32 c = o->cache;

		if (ioctl(t->fd, PFNMAP_IOC_SET_CACHE, &c) < 0) {
			err("the helper cannot map with cache type %s: %s",
			    cache_names[o->cache], errno == EOPNOTSUPP ?
			    "x86 PAT is off (boot without nopat)" :
			    strerror(errno));
			return EXIT_REFUSED;
		}
	}
	return 0;
}

int helper_info(struct target *t)
{
	memset(&t->info, 0, sizeof(t->info));
	if (ioctl(t->fd, PFNMAP_IOC_GET_INFO, &t->info) < 0) {
		err("%s does not answer PFNMAP_IOC_GET_INFO (%s): it is not the "
		    "pfnmap helper", t->path, strerror(errno));
		return EXIT_NOHELPER;
	}
	if (t->info.abi_version != PFNMAP_ABI_VERSION) {
		err("%s speaks ABI version %u, this pfnmap speaks %u: load the "
		    "helper that came with this pfnmap", t->path,
		    t->info.abi_version, PFNMAP_ABI_VERSION);
		return EXIT_NOHELPER;
	}
	return 0;
}

static int open_device(struct target *t, const struct options *o, int flags)
{
	struct stat st;

	t->path = o->device;
	t->file_base = o->device_base;
	/* O_DSYNC: /dev/mem maps uncached then, as with the helper's uc */
	if (o->cache == CACHE_UC)
		flags |= O_DSYNC;
	t->fd = open(o->device, flags);
	if (t->fd < 0)
		return explain_open_error(o->device, errno);
	if (fstat(t->fd, &st) == 0)
		t->regular = S_ISREG(st.st_mode);
	return 0;
}

int target_open(struct target *t, const struct options *o, bool write)
{
	int flags = (write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	int page = (int)sysconf(_SC_PAGESIZE);

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->writable = write;
	t->cache = o->cache;
	for (t->page_shift = 0; (1 << t->page_shift) < page; t->page_shift++)
		;
	return o->device ? open_device(t, o, flags) : open_helper(t, o, flags);
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

static const char *mmap_rule(int errnum)
{
	switch (errnum) {
	case EPERM:
		return "it is System RAM that the kernel manages, which the helper "
		       "refuses; load pfnmap with allow_ram=1 to map it "
		       "(write-back only)";
	case EXDEV:
		return "it mixes System RAM with other memory; split it at the "
		       "boundary /proc/iomem shows";
	case EOVERFLOW:
		return "it does not fit the physical address space";
	case ERANGE:
		return "it ends beyond the CPU's physical address width";
	case EOPNOTSUPP:
		return "System RAM can only be mapped write-back (--cache=wb or "
		       "auto)";
	case EBUSY:
		return "the kernel would map it with another cache type (an "
		       "existing mapping or the MTRRs decide); use the type "
		       "`pfnmap info` shows, or --cache=auto";
	case EAGAIN:
		return "remap_pfn_range() failed, usually because x86 PAT found "
		       "a mapping of the range with a conflicting cache type "
		       "(see dmesg); use --cache=auto or that mapping's type";
	default:
		return NULL;
	}
}

int explain_mmap_error(const struct target *t, int errnum, uint64_t start,
		       uint64_t size)
{
	const char *rule = t->helper ? mmap_rule(errnum) : NULL;
	unsigned long long s = start, e = start + (size - 1);

	if (rule)
		err("the helper refuses 0x%llx-0x%llx: %s", s, e, rule);
	else
		err("cannot map 0x%llx-0x%llx through %s: %s", s, e, t->path,
		    strerror(errnum));
	return EXIT_REFUSED;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading the helper module through libkmod, and why the kernel refused it,
 * in words. libkmod's own log goes through report_info(), one line each.
 */
#include <errno.h>
#include <libkmod.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <syslog.h>
#include <unistd.h>

#include "kmodload.h"
#include "uapi/pfnmap.h"

const char *kernel_lockdown(void)
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


const char *kernel_release(void)
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
static void explain_eperm(struct pf_session *s, const char *what)
{
	const char *lock = kernel_lockdown();

	if (!may_load_modules())
		report_error(s,
			     "cannot load %s: loading modules needs root (CAP_SYS_MODULE); try "
			     "sudo", what);
	else if (modules_disabled())
		report_error(s,
			     "cannot load %s: module loading is disabled until the next boot "
			     "(kernel.modules_disabled=1)", what);
	else if (lock)
		report_error(s,
			     "cannot load %s: the kernel is locked down (%s) and refuses modules "
			     "without a trusted signature; sign the module with a key the kernel "
			     "trusts (see DKMS, mokutil)", what, lock);
	else
		report_error(s,
			     "cannot load %s: the kernel refuses it (a security module or policy; "
			     "see dmesg)", what);
}

static int explain_load_error(struct pf_session *s, const char *what, int errnum)
{
	switch (errnum) {
	case ENOSYS:
		report_error(s,
			     "cannot load %s: this kernel has no module support (CONFIG_MODULES "
			     "is off); use --device=/dev/mem", what);
		break;
	case EPERM:
		explain_eperm(s, what);
		break;
	case EKEYREJECTED:
	case ENOKEY:
	case EBADMSG:
		report_error(s,
			     "cannot load %s: the kernel requires a valid module signature "
			     "(module.sig_enforce or Secure Boot); sign it with a key the kernel "
			     "trusts (see DKMS, mokutil)", what);
		break;
	case ENOEXEC:
		report_error(s,
			     "cannot load %s: it was built for another kernel than %s (or is not "
			     "a module); rebuild it against /lib/modules/%s/build", what,
			     kernel_release(), kernel_release());
		break;
	case ENOENT:
		report_error(s,
			     "cannot load %s: no such file, or a symbol it needs is missing from "
			     "kernel %s (see dmesg)", what, kernel_release());
		break;
	default:
		report_error(s, "cannot load %s: %s", what, strerror(errnum));
		break;
	}
	return EXIT_NOHELPER;
}

/*
 * By name, as modprobe loads a module for a device: a "blacklist pfnmap"
 * in modprobe.d is honoured. A --module path is the user's explicit choice.
 */
static int insert(struct pf_session *s, struct kmod_module *mod, const char *what,
		  bool by_name)
{
	int r;

	if (by_name)
		r = kmod_module_probe_insert_module(mod, KMOD_PROBE_APPLY_BLACKLIST, NULL, NULL,
						    NULL, NULL);
	else
		r = kmod_module_insert_module(mod, 0, NULL);
	if (r == -EEXIST || r == 0)
		return 0;
	if (r > 0) {
		report_error(s,
			     "cannot load %s: it is blacklisted in modprobe.d; load it with "
			     "modprobe pfnmap, or give --module=PATH", what);
		return EXIT_NOHELPER;
	}
	return explain_load_error(s, what, -r);
}

static int lookup(struct pf_session *s, struct kmod_ctx *ctx,
		  struct kmod_module **mod)
{
	struct kmod_list *list = NULL;
	int r = kmod_module_new_from_lookup(ctx, PFNMAP_DEVICE_NAME, &list);

	if (r < 0 || !list) {
		report_error(s,
			     "the helper module %s is not installed for kernel %s; build it and "
			     "give --module=PATH/pfnmap.ko, or install pfnmap-dkms",
			     PFNMAP_DEVICE_NAME, kernel_release());
		return EXIT_NOHELPER;
	}
	*mod = kmod_module_get_module(list);
	kmod_module_unref_list(list);
	return 0;
}

/* libkmod's own messages, in our one-line form, with -v */
static void __attribute__((format(printf, 6, 0)))
kmod_log(void *data, int priority, const char *file, int line, const char *fn,
	 const char *format, va_list args)
{
	char text[512];
	size_t n;

	(void)priority;
	(void)file;
	(void)line;
	(void)fn;
	vsnprintf(text, sizeof(text), format, args);
	n = strlen(text);
	while (n && text[n - 1] == '\n')
		text[--n] = 0;
	report_info(data, "libkmod: %s", text);
}

static struct kmod_ctx *kmod_start(struct pf_session *s)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);

	if (!ctx)
		return NULL;
	kmod_set_log_fn(ctx, kmod_log, s);
	kmod_set_log_priority(ctx, s->set.verbose > 1 ? LOG_DEBUG : LOG_ERR);
	return ctx;
}

int helper_load(struct pf_session *s)
{
	const char *path = s->set.module;
	struct kmod_ctx *ctx = kmod_start(s);
	struct kmod_module *mod = NULL;
	const char *what = path ? path : "the helper module " PFNMAP_DEVICE_NAME;
	int r;

	if (!ctx) {
		report_error(s, "cannot load the helper: libkmod failed to start");
		return EXIT_NOHELPER;
	}
	if (path) {
		r = kmod_module_new_from_path(ctx, path, &mod);
		if (r < 0) {
			report_error(s, "cannot load %s: %s", path, strerror(-r));
			r = EXIT_NOHELPER;
		}
	} else {
		r = lookup(s, ctx, &mod);
	}
	if (!r) {
		report_info(s, "loading %s", path ? path : kmod_module_get_path(mod));
		r = insert(s, mod, what, !path);
	}
	kmod_module_unref(mod);
	kmod_unref(ctx);
	return r;
}

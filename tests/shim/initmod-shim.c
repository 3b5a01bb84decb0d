// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LD_PRELOAD shim for the pfnmap tests: fakes the kernel's module loading for
 * libkmod, in the manner of kmod's own testsuite (testsuite/init_module.c,
 * testsuite/path.c, testsuite/uname.c), so that the CLI's loading path runs
 * for real on a host that cannot load modules.
 *
 * libkmod 30 calls finit_module() as syscall(__NR_finit_module, ...) and, if
 * that fails with ENOSYS, the libc symbol init_module(). Both, and the symbol
 * finit_module() that a newer libkmod might use, end up here. Every other
 * syscall() goes to libc's.
 *
 * PFNMAP_SHIM_ERRNO	what the insertion gives: 0 (or unset) for success, or
 *			an errno name (EPERM, ENOEXEC, ...) or number: -1 with
 *			that errno, as the kernel would
 * PFNMAP_SHIM_LOG	file that gets a line per insertion: the call, the
 *			module file (finit) or its modinfo name (init), the
 *			parameters and the result
 * PFNMAP_SHIM_ROOT	directory that stands in for the few paths in trapped[]
 *			(/lib/modules, /sys/module, /dev/pfnmap, ...)
 * PFNMAP_SHIM_RELEASE	the kernel release uname() reports
 */

/* Both stat() and stat64() etc. are wrapped: see kmod's testsuite/path.c */
#undef _FILE_OFFSET_BITS
#undef _TIME_BITS
#undef _FORTIFY_SOURCE
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

/* As cli/util.h has it: the shim is built without the CLI's headers */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define EXPORT __attribute__((visibility("default")))

EXPORT long syscall(long nr, ...);
EXPORT long init_module(const void *mem, unsigned long len, const char *params);
EXPORT int finit_module(int fd, const char *params, int flags);

#define E(name) { #name, name }
static const struct {
	const char *name;
	int value;
} errnos[] = {
	E(EPERM), E(ENOENT), E(ENOEXEC), E(EEXIST), E(ENOSYS), E(EKEYREJECTED),
	E(ENOKEY), E(EBADMSG), E(EINVAL), E(EACCES), E(EBUSY), E(ENOMEM),
	E(EFAULT), E(ENOSPC), E(ETXTBSY), E(EFBIG), E(EOVERFLOW), E(ENOPKG),
};

static void *next(const char *name)
{
	void *fn = dlsym(RTLD_NEXT, name);

	if (!fn) {
		fprintf(stderr, "initmod-shim: no %s after the shim\n", name);
		_exit(99);
	}
	return fn;
}

static const char *errno_name(int e)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errnos); i++)
		if (errnos[i].value == e)
			return errnos[i].name;
	return "?";
}

/* PFNMAP_SHIM_ERRNO as a number; a name it does not know ends the process */
static int shim_errno(void)
{
	const char *s = getenv("PFNMAP_SHIM_ERRNO");
	char *end;
	size_t i;
	long v;

	if (!s || !*s)
		return 0;
	for (i = 0; i < ARRAY_SIZE(errnos); i++)
		if (!strcmp(s, errnos[i].name))
			return errnos[i].value;
	v = strtol(s, &end, 0);
	if (*end || v < 0 || v > 4095) {
		fprintf(stderr, "initmod-shim: PFNMAP_SHIM_ERRNO=%s: unknown\n", s);
		_exit(99);
	}
	return (int)v;
}

static __attribute__((format(printf, 1, 2))) void shim_log(const char *fmt, ...)
{
	const char *path = getenv("PFNMAP_SHIM_LOG");
	int (*real_open)(const char *, int, ...) = next("open");
	va_list ap;
	int fd;

	if (!path || !*path)
		return;
	fd = real_open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	va_start(ap, fmt);
	vdprintf(fd, fmt, ap);
	va_end(ap);
	close(fd);
}

/* The call's result: 0, or -1 with errno set; and the log's word for it */
static long result(const char **what)
{
	int e = shim_errno();

	*what = e ? errno_name(e) : "0";
	if (!e)
		return 0;
	errno = e;
	return -1;
}

/* Where fd leads, as the program saw it: PFNMAP_SHIM_ROOT taken off */
static const char *fd_path(int fd, char *buf, size_t size)
{
	const char *root = getenv("PFNMAP_SHIM_ROOT");
	size_t rootlen = root ? strlen(root) : 0;
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, size - 1);
	if (n < 0)
		return "?";
	buf[n] = 0;
	if (rootlen && !strncmp(buf, root, rootlen) && buf[rootlen] == '/')
		return buf + rootlen;
	return buf;
}

int finit_module(int fd, const char *params, int flags)
{
	char buf[PATH_MAX];
	const char *what, *path = fd_path(fd, buf, sizeof(buf));
	long r = result(&what);
	int e = errno;

	shim_log("finit_module path=%s params=\"%s\" flags=0x%x -> %s\n", path,
		 params ? params : "(null)", (unsigned int)flags, what);
	errno = e;
	return (int)r;
}

/* The name= entry of the image's .modinfo, as the kernel would read it */
static const char *modinfo_name(const void *mem, unsigned long len, char *buf,
				size_t size)
{
	static const char key[] = "\0name=";
	const char *p = memmem(mem, len, key, sizeof(key) - 1);
	const char *end = (const char *)mem + len;
	size_t n;

	if (!p)
		return "?";
	p += sizeof(key) - 1;
	n = strnlen(p, (size_t)(end - p));
	snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), p);
	return buf;
}

long init_module(const void *mem, unsigned long len, const char *params)
{
	char buf[64];
	const char *what, *name = modinfo_name(mem, len, buf, sizeof(buf));
	long r = result(&what);
	int e = errno;

	shim_log("init_module name=%s len=%lu params=\"%s\" -> %s\n", name, len,
		 params ? params : "(null)", what);
	errno = e;
	return r;
}

/*
 * Like libc's syscall(), this takes six arguments whatever the number: the
 * caller passed as many as the syscall has, the rest are never used.
 */
long syscall(long nr, ...)
{
	static long (*real)(long, ...);
	long a[6];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == __NR_finit_module)
		return finit_module((int)a[0], (const char *)a[1], (int)a[2]);
	if (nr == __NR_init_module)
		return init_module((const void *)a[0], (unsigned long)a[1],
				   (const char *)a[2]);
	if (!real)
		real = next("syscall");
	return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

EXPORT int uname(struct utsname *u)
{
	static int (*real)(struct utsname *);
	const char *release = getenv("PFNMAP_SHIM_RELEASE");
	int r;

	if (!real)
		real = next("uname");
	r = real(u);
	if (!r && release && *release)
		snprintf(u->release, sizeof(u->release), "%s", release);
	return r;
}

/*
 * The paths libkmod and the CLI read to decide what to load and what to say:
 * with PFNMAP_SHIM_ROOT set they and everything below them are looked up
 * under it, so that the host's own modules, devices and settings never count.
 */
static const char *const trapped[] = {
	"/lib/modules", "/sys/module", "/dev/pfnmap", "/proc/self/status",
	"/proc/cmdline", "/proc/sys/kernel/modules_disabled",
	"/sys/kernel/security/lockdown", "/etc/modprobe.d", "/run/modprobe.d",
	"/lib/modprobe.d", "/usr/lib/modprobe.d", "/usr/local/lib/modprobe.d",
};

static bool is_trapped(const char *path)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(trapped); i++) {
		n = strlen(trapped[i]);
		if (!strncmp(path, trapped[i], n) &&
		    (path[n] == 0 || path[n] == '/'))
			return true;
	}
	return false;
}

static const char *trap(const char *path, char *buf, size_t size)
{
	const char *root = getenv("PFNMAP_SHIM_ROOT");

	if (!path || !root || !*root || !is_trapped(path))
		return path;
	if ((size_t)snprintf(buf, size, "%s%s", root, path) >= size)
		return "/nonexistent/path/too/long";
	return buf;
}

#define WRAP_PATH(ret, name, t2)					\
EXPORT ret name(const char *path, t2 a2)				\
{									\
	static ret (*real)(const char *, t2);				\
	char buf[PATH_MAX];						\
									\
	if (!real)							\
		real = next(#name);					\
	return real(trap(path, buf, sizeof(buf)), a2);			\
}

#define WRAP_PATH_AT(ret, name, t3)					\
EXPORT ret name(int dirfd, const char *path, t3 a3, int a4)		\
{									\
	static ret (*real)(int, const char *, t3, int);			\
	char buf[PATH_MAX];						\
									\
	if (!real)							\
		real = next(#name);					\
	return real(dirfd, trap(path, buf, sizeof(buf)), a3, a4);	\
}

/* The mode only counts, and is only there, with O_CREAT or O_TMPFILE */
#define OPEN_MODE(flags, last, mode)					\
	do {								\
		va_list ap;						\
									\
		if ((flags) & (O_CREAT | O_TMPFILE)) {			\
			va_start(ap, last);				\
			mode = va_arg(ap, mode_t);			\
			va_end(ap);					\
		}							\
	} while (0)

#define WRAP_OPEN(name)							\
EXPORT int name(const char *path, int flags, ...)			\
{									\
	static int (*real)(const char *, int, ...);			\
	char buf[PATH_MAX];						\
	mode_t mode = 0;						\
									\
	OPEN_MODE(flags, flags, mode);					\
	if (!real)							\
		real = next(#name);					\
	return real(trap(path, buf, sizeof(buf)), flags, mode);		\
}

#define WRAP_OPENAT(name)						\
EXPORT int name(int dirfd, const char *path, int flags, ...)		\
{									\
	static int (*real)(int, const char *, int, ...);		\
	char buf[PATH_MAX];						\
	mode_t mode = 0;						\
									\
	OPEN_MODE(flags, flags, mode);					\
	if (!real)							\
		real = next(#name);					\
	return real(dirfd, trap(path, buf, sizeof(buf)), flags, mode);	\
}

/* The fortified open(); not declared by the headers without -D_FORTIFY_SOURCE */
EXPORT int __open_2(const char *path, int flags);
EXPORT int __open64_2(const char *path, int flags);

WRAP_OPEN(open)
WRAP_OPEN(open64)
WRAP_OPENAT(openat)
WRAP_OPENAT(openat64)
WRAP_PATH(int, __open_2, int)
WRAP_PATH(int, __open64_2, int)
WRAP_PATH(FILE *, fopen, const char *)
WRAP_PATH(FILE *, fopen64, const char *)
WRAP_PATH(int, stat, struct stat *)
WRAP_PATH(int, stat64, struct stat64 *)
WRAP_PATH(int, lstat, struct stat *)
WRAP_PATH(int, lstat64, struct stat64 *)
WRAP_PATH_AT(int, fstatat, struct stat *)
WRAP_PATH_AT(int, fstatat64, struct stat64 *)
WRAP_PATH(int, access, int)

EXPORT DIR *opendir(const char *path)
{
	static DIR *(*real)(const char *);
	char buf[PATH_MAX];

	if (!real)
		real = next("opendir");
	return real(trap(path, buf, sizeof(buf)));
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of the pfnmap QEMU tests (tests/vm/): exercises /dev/pfnmap
 * directly, for what the CLI never does (MAP_PRIVATE, PROT_EXEC, partial
 * munmap, fork, many processes at once), and prints one "PASS: ..." or
 * "FAIL: ..." (or "SKIP: ...") line per check and "INFO: ..." facts, and
 * last "END: N checks, F failed" (run and stress only); guest/tests.sh turns
 * them into TAP lines and fails if the END line is missing (the probe
 * crashed or exited early), disagrees with the lines it saw, or the exit
 * status does not match. Adding or removing a check changes the per-guest
 * counts in run.sh (vm_expected). Built static (-m32 -D_FILE_OFFSET_BITS=64 for the
 * 686-pae guest, and as probe32 on the amd64 guests for the compat paths).
 *
 *   probe run EDU_BAR0 IVSHMEM_BAR2 E1000E_BAR0
 *                                     all checks (addresses 0 = absent);
 *                                     e1000e's driver must be bound
 *   probe hold [PHYS]                 map the hidden memory (or PHYS),
 *                                     close the fd, print HOLD-READY and
 *                                     sleep; with PHYS, SIGUSR1 reads
 *                                     PHYS + 8 and ends it
 *   probe core HEAPFILE               map the hidden memory, fill it and
 *                                     a heap page, save that, SIGABRT
 *   probe corecheck CORE HEAPFILE ADDRESS
 *                                     its core holds the heap page, not
 *                                     the mapping at ADDRESS
 *   probe stress PROCS ROUNDS         PROCS processes map, touch and unmap
 *                                     pages of the hidden memory ROUNDS
 *                                     times each, all at once
 *   probe enomem CGROUP IVSHMEM_BAR2  join the memory cgroup directory
 *                                     CGROUP, leave it no room for page
 *                                     tables and map 512 MiB: ENOMEM
 *   probe lockdown                    open, lock the kernel down
 *                                     (integrity, one-way), then mmap on
 *                                     the open file and open again
 *
 * Guest layout (see lib.sh): memmap=4M$0x180000000 hides 4 MiB of RAM,
 * mem=8000M ends System RAM at RAM_END with nothing after it up to the
 * 64-bit PCI window, QEMU's edu device (BAR0 register 0 = 0x010000ed,
 * register 4 = liveness), an ivshmem-plain device whose BAR2 is a host file
 * that starts with IVSHMEM_MARK, written there by the host before boot, and
 * an e1000e NIC whose driver claims its memory BARs exclusively.
 *
 * Checks that make the kernel log a line on purpose (a PAT refusal, a memory
 * cgroup running out) bracket it with EXPECT_BEGIN TAG and EXPECT_END TAG
 * lines in /dev/kmsg; guest/tests.sh checks those sections apart from the
 * rest, and that each of them is there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <link.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

#include "pfnmap.h"
#include "guest-report.h"
#include "guest-debugger.h"

/* As cli/util.h has it: probe.c is built with kmod/uapi on its path only */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define DEV		"/dev/pfnmap"
#define HIDDEN		0x180000000ULL
#define HIDDEN_SIZE	(4UL << 20)
#if defined(__x86_64__) || defined(__i386__)
#define ON_X86		1
#define LOW_RAM		0x100000ULL	/* System RAM on every PC guest */
#define RAM_BELOW_HIDDEN (HIDDEN - 0x1000)	/* with -m 7G: RAM page */
#define RAM_END		0x1f4000000ULL	/* mem=8000M: no resource after it */
#else
/*
 * QEMU virt (arm64, armhf): RAM from 1 GiB, mem=4G ends it at 5 GiB
 * (mem=3G: 4 GiB on armhf), and the memory above it, the hidden memory
 * included, is in no resource at all
 */
#define ON_X86		0
#define LOW_RAM		0x40000000ULL
#ifdef __aarch64__
#define RAM_END		0x140000000ULL
#else
#define RAM_END		0x100000000ULL	/* 32-bit ARM, LPAE: mem=3G */
#endif
#endif
#if ON_X86 || defined(__aarch64__)
#define READS_PTE	1
#else
#define READS_PTE	0
#endif
#define NOWHERE		0x8000000000ULL	/* 512 GiB: nothing there at all */
#define EXPECT_BEGIN	"pfnmap-expect-begin"
#define EXPECT_END	"pfnmap-expect-end"
#define PG		4096UL
#define ALLOW_RAM	"/sys/module/pfnmap/parameters/allow_ram"
#define IVSHMEM_MARK	"pfnmap-vm-host-marker"

static const char *cache_name(unsigned int c)
{
	static const char *const n[] = {
		"auto", "uc", "wc", "wb", "wt", "wp", "strong-uc"
	};

	if (c < ARRAY_SIZE(n))
		return n[c];
	return c == PFNMAP_CACHE_UNKNOWN ? "unknown" : "invalid";
}

static int kernel_64bit(void)
{
	struct utsname u;

	return !uname(&u) && (!strcmp(u.machine, "x86_64") ||
			      !strcmp(u.machine, "aarch64"));
}

static int dev_open(int flags)
{
	int fd = open(DEV, flags);

	if (fd < 0) {
		fail("open %s: %s", DEV, strerror(errno));
		exit(1);
	}
	return fd;
}

static int get_info(int fd, struct pfnmap_info *pi)
{
	memset(pi, 0xff, sizeof(*pi));
	return ioctl(fd, PFNMAP_IOC_GET_INFO, pi);
}

static int set_cache(int fd, unsigned int cache)
{
	__u32 c = cache;

	return ioctl(fd, PFNMAP_IOC_SET_CACHE, &c) ? errno : 0;
}

static unsigned int applied(int fd)
{
	struct pfnmap_info pi;

	if (get_info(fd, &pi))
		return 99;
	return pi.applied_cache;
}

/* mmap at a physical address; returns the mapping or NULL with *err set */
static void *pmap(int fd, uint64_t phys, size_t len, int prot, int flags,
		  int *err)
{
	void *p = mmap(NULL, len, prot, flags, fd, (off_t)phys);

	if (p == MAP_FAILED) {
		*err = errno;
		return NULL;
	}
	*err = 0;
	return p;
}

static void expect_map_err(const char *what, int fd, uint64_t phys,
			   size_t len, int prot, int flags, int want)
{
	int err;
	void *p = pmap(fd, phys, len, prot, flags, &err);

	if (p)
		munmap(p, len);
	check(err == want, "%s: mmap 0x%" PRIx64 "+0x%zx -> %s (want %s)",
	      what, phys, len, err_name(err), err_name(want));
}

static uint32_t rd32(volatile void *p, size_t off)
{
	return *(volatile uint32_t *)((volatile char *)p + off);
}

static void wr32(volatile void *p, size_t off, uint32_t v)
{
	*(volatile uint32_t *)((volatile char *)p + off) = v;
}

/* busybox devmem as an independent oracle through /dev/mem */
static int devmem(uint64_t phys, const char *val, uint32_t *out)
{
	char cmd[128], buf[64];
	FILE *f;
	int ok;

	snprintf(cmd, sizeof(cmd), "devmem 0x%" PRIx64 " 32 %s", phys,
		 val ? val : "");
	f = popen(cmd, "r");
	if (!f)
		return -1;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	if (pclose(f) != 0)
		return -1;
	if (out) {
		if (!ok)
			return -1;
		*out = (uint32_t)strtoul(buf, NULL, 0);
	}
	return 0;
}

static void test_node(void)
{
	struct stat st;

	if (stat(DEV, &st)) {
		fail("stat %s: %s", DEV, strerror(errno));
		return;
	}
	check(S_ISCHR(st.st_mode) && (st.st_mode & 07777) == 0600,
	      "%s is a character device with mode %04o (want 0600)", DEV,
	      (unsigned int)(st.st_mode & 07777));
}

static void test_info(int fd, struct pfnmap_info *pi)
{
	if (get_info(fd, pi)) {
		fail("GET_INFO: %s", strerror(errno));
		return;
	}
	info("GET_INFO size=%u abi=%u policy=%#x flags=%#x phys_bits=%u page_shift=%u cache=%s "
	     "applied=%s", pi->size, pi->abi_version, pi->policy, pi->flags, pi->phys_bits,
	     pi->page_shift, cache_name(pi->cache), cache_name(pi->applied_cache));
	check(pi->size == sizeof(*pi) && pi->abi_version == PFNMAP_ABI_VERSION,
	      "GET_INFO size %u abi %u", pi->size, pi->abi_version);
	check(pi->page_shift == 12 && pi->phys_bits >= 32 &&
	      pi->phys_bits <= 52, "GET_INFO page_shift %u phys_bits %u",
	      pi->page_shift, pi->phys_bits);
	check(pi->policy == 0, "GET_INFO policy %#x (allow_ram off)",
	      pi->policy);
	/*
	 * PAT is x86's; x86 and arm64 read the applied type back from the
	 * page table, 32-bit ARM reports the protection it asked for
	 */
	check(pi->flags == ((ON_X86 ? PFNMAP_INFO_PAT : 0) |
			    (READS_PTE ? PFNMAP_INFO_PTE : 0)),
	      "GET_INFO flags %#x (%s%snot MAPPED)", pi->flags,
	      ON_X86 ? "PAT, " : "", READS_PTE ? "PTE, " : "");
	check(pi->cache == PFNMAP_CACHE_AUTO &&
	      pi->applied_cache == PFNMAP_CACHE_UNKNOWN,
	      "GET_INFO cache %s applied %s before any mmap",
	      cache_name(pi->cache), cache_name(pi->applied_cache));
	check(pi->max_map == 64ULL << 30, "GET_INFO max_map %" PRIu64 " MiB (want 65536)",
	      (uint64_t)pi->max_map >> 20);
	check(pi->max_total == 256ULL << 30,
	      "GET_INFO max_total %" PRIu64 " MiB (want 262144)",
	      (uint64_t)pi->max_total >> 20);
	check(!pi->reserved[0], "GET_INFO reserved field zero");
	check(ioctl(fd, _IO(PFNMAP_IOC_MAGIC, 7)) < 0 && errno == ENOTTY,
	      "unknown ioctl -> ENOTTY");
	/* ABI 1's GET_INFO, type 0xB8, which mrvl_cn10k_dpi and mshv own */
	check(ioctl(fd, _IOR(0xB8, 0, struct pfnmap_info), pi) < 0 &&
	      errno == ENOTTY, "ABI 1's GET_INFO _IOR(0xB8, 0, ...) -> ENOTTY");
}

static void test_hidden_rw(int fd)
{
	struct pfnmap_info pi;
	size_t i, bad = 0;
	uint8_t *p;
	int err;

	p = pmap(fd, HIDDEN, HIDDEN_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		 &err);
	if (!p) {
		fail("map hidden 0x%llx+4M: %s", HIDDEN, err_name(err));
		return;
	}
	pass("map hidden 0x%llx+4M read/write (auto)", HIDDEN);
	for (i = 0; i < HIDDEN_SIZE; i += 4)
		wr32(p, i, (uint32_t)(i * 2654435761u) ^ 0x5a5a5a5a);
	for (i = 0; i < HIDDEN_SIZE; i += 4)
		bad += rd32(p, i) != ((uint32_t)(i * 2654435761u) ^ 0x5a5a5a5a);
	check(!bad, "hidden memory pattern write/read back (%zu bad words)",
	      bad);

	err = get_info(fd, &pi);
	check(!err && (pi.flags & PFNMAP_INFO_MAPPED),
	      "GET_INFO flags MAPPED after mmap (flags %#x)", pi.flags);
	info("hidden auto applied=%s", cache_name(pi.applied_cache));
	/*
	 * Auto is /dev/mem's choice: on x86 the MTRRs say write-back there;
	 * arm64's phys_mem_access_prot() gives Device memory to what is not
	 * in the kernel's linear map, as memory beyond mem= is not
	 */
	if (ON_X86)
		check(pi.applied_cache == PFNMAP_CACHE_WB,
		      "hidden memory in auto mode gets wb (MTRR write-back there)");
	else
		check(pi.applied_cache == PFNMAP_CACHE_UC,
		      "hidden memory in auto mode gets uc (not in the linear map: Device memory, as /dev/mem)");

	err = munmap(p + PG, PG) ? errno : 0;
	check(err == EINVAL, "partial munmap -> %s (want EINVAL)",
	      err_name(err));
	err = mprotect(p, PG, PROT_READ) ? errno : 0;
	check(err == EINVAL, "partial mprotect -> %s (want EINVAL)",
	      err_name(err));
	err = mprotect(p, HIDDEN_SIZE, PROT_READ | PROT_EXEC) ? errno : 0;
	check(err == EACCES, "mprotect PROT_EXEC -> %s (want EACCES)",
	      err_name(err));
	err = munmap(p, HIDDEN_SIZE) ? errno : 0;
	check(!err, "munmap whole mapping -> %s", err_name(err));
}

/*
 * busybox devmem opens /dev/mem with O_SYNC, which /dev/mem maps uncached
 * (UC-); the pfnmap mapping must use the same type (PAT refuses aliases).
 */
static void test_devmem(int fd)
{
	uint32_t v = 0;
	void *p;
	int err;

	if (!kernel_64bit() && ON_X86) {
		/*
		 * x86 devmem_is_allowed() tests iomem_is_exclusive(pagenr <<
		 * PAGE_SHIFT) in unsigned long: on a 32-bit kernel 0x180000000
		 * aliases 0x80000000 (System RAM) and /dev/mem says EPERM.
		 * 32-bit ARM's truncates too, but then asks page_is_ram() of
		 * the real PFN: the hidden memory passes.
		 */
		skip("devmem oracle above 4 GiB on a 32-bit kernel");
		return;
	}
	set_cache(fd, PFNMAP_CACHE_UC);
	p = pmap(fd, HIDDEN, HIDDEN_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		 &err);
	set_cache(fd, PFNMAP_CACHE_AUTO);
	if (!p) {
		fail("map hidden uc for devmem: %s", err_name(err));
		return;
	}
	wr32(p, 0x100, 0xc0ffee01);
	err = devmem(HIDDEN + 0x100, NULL, &v);
	check(!err && v == 0xc0ffee01,
	      "devmem reads what the mapping wrote (0x%08x)", v);
	/*
	 * Not near the end of a page: busybox 1.35 devmem adds the width in
	 * bits to the page offset and would map the next page (System RAM).
	 */
	devmem(HIDDEN + 0x3ff010, "0x600dcafe", NULL);
	v = rd32(p, 0x3ff010);
	check(v == 0x600dcafe, "mapping reads what devmem wrote (0x%08x)", v);
	munmap(p, HIDDEN_SIZE);
}

/* The largest mmap() offset a process of this build can name: 2^44 - 1 */
static int offset_nameable(uint64_t phys)
{
	return sizeof(long) == 8 || phys < 1ULL << (32 + 12);
}

/*
 * phys_bits is what this process can map: a 32-bit process names at most
 * 44 bits (mmap2()'s 32-bit page offset), a 32-bit kernel's vm_pgoff holds
 * no more, whatever the CPU's width.
 */
static void test_phys_bits(int fd, const struct pfnmap_info *pi)
{
	int rw = PROT_READ | PROT_WRITE, want, err;
	uint64_t lim = 1ULL << pi->phys_bits;
	void *p;

	check(sizeof(long) == 8 || pi->phys_bits <= 32 + 12,
	      "GET_INFO phys_bits %u: a %zu-bit process names no more than %u bits",
	      pi->phys_bits, 8 * sizeof(long), sizeof(long) == 8 ? 64 : 44);
	/*
	 * Not the last page: on a 32-bit kernel the mmap core refuses the
	 * last one, where vm_pgoff + pages reaches 2^32 (EOVERFLOW)
	 */
	p = pmap(fd, lim - 2 * PG, PG, PROT_READ, MAP_SHARED, &err);
	check(p != NULL,
	      "a page just below 2^phys_bits maps (nothing there): mmap 0x%" PRIx64 " -> %s",
	      lim - 2 * PG, err_name(err));
	if (p)
		munmap(p, PG);
	/* 2^44 itself cannot be named by a 32-bit process: glibc says EINVAL */
	expect_map_err("beyond phys_bits", fd, lim, PG, rw, MAP_SHARED,
		       offset_nameable(lim) ? ERANGE : EINVAL);
	/* a 32-bit kernel's mmap core finds vm_pgoff + pages wrapping */
	want = ERANGE;
	if (!offset_nameable(lim) && !kernel_64bit())
		want = EOVERFLOW;
	expect_map_err("last page below phys_bits limit",
		       fd, lim - PG, 2 * PG, rw, MAP_SHARED, want);
}

static void test_errnos(int fd, const struct pfnmap_info *pi)
{
	int rw = PROT_READ | PROT_WRITE;

	expect_map_err("MAP_PRIVATE", fd, HIDDEN, PG, rw, MAP_PRIVATE, EINVAL);
	expect_map_err("PROT_EXEC", fd, HIDDEN, PG, PROT_READ | PROT_EXEC,
		       MAP_SHARED, EACCES);
	expect_map_err("System RAM", fd, LOW_RAM, PG, rw, MAP_SHARED, EPERM);
#if ON_X86
	expect_map_err("RAM + reserved (0x9f000)", fd, 0x9f000, PG, rw,
		       MAP_SHARED, EXDEV);
	expect_map_err("RAM + hidden", fd, RAM_BELOW_HIDDEN, 2 * PG, rw,
		       MAP_SHARED, EXDEV);
#else
	skip("RAM + reserved in one page: QEMU virt has no such page");
	skip("RAM + hidden: memory beyond mem= starts after the hole, below");
#endif
	expect_map_err("RAM + a hole no resource covers (mem=8000M)", fd,
		       RAM_END - PG, 2 * PG, rw, MAP_SHARED, EXDEV);
	expect_map_err("the hole alone is not RAM: it maps", fd, RAM_END, PG,
		       rw, MAP_SHARED, 0);
	test_phys_bits(fd, pi);
	if (sizeof(long) == 8)
		expect_map_err("wrap around 2^64", fd, 0xfffffffffffff000ULL,
			       2 * PG, rw, MAP_SHARED, EOVERFLOW);
	check(set_cache(fd, PFNMAP_CACHE_WT) == EINVAL,
	      "SET_CACHE wt -> EINVAL");
	check(set_cache(fd, 77) == EINVAL, "SET_CACHE 77 -> EINVAL");
}

static void test_readonly(void)
{
	int fd = dev_open(O_RDONLY), err;
	void *p = pmap(fd, HIDDEN, PG, PROT_READ, MAP_SHARED, &err);

	check(p != NULL, "read-only MAP_SHARED on O_RDONLY fd -> %s",
	      err_name(err));
	if (p)
		munmap(p, PG);
	expect_map_err("PROT_WRITE on O_RDONLY fd", fd, HIDDEN, PG,
		       PROT_READ | PROT_WRITE, MAP_SHARED, EACCES);
	close(fd);
}

static void segv(int sig)
{
	(void)sig;
	_exit(42);
}

static void test_fork(int fd)
{
	int err, status = 0;
	uint32_t *p = pmap(fd, HIDDEN, PG, PROT_READ, MAP_SHARED, &err);
	pid_t pid;

	if (!p) {
		fail("fork test map: %s", err_name(err));
		return;
	}
	pid = fork();
	if (pid == 0) {
		signal(SIGSEGV, segv);
		(void)*(volatile uint32_t *)p;
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 42,
	      "mapping not inherited by fork() child (child %s)",
	      WIFEXITED(status) && WEXITSTATUS(status) == 42 ?
	      "faulted" : "could read it");
	munmap(p, PG);
}

static void test_dsync(void)
{
	int fd = dev_open(O_RDWR | O_DSYNC), err;
	void *p = pmap(fd, HIDDEN, PG, PROT_READ, MAP_SHARED, &err);

	if (p)
		munmap(p, PG);
	check(p && applied(fd) == PFNMAP_CACHE_UC,
	      "O_DSYNC auto on hidden -> %s, applied %s (want uc)",
	      err_name(err), cache_name(applied(fd)));
	close(fd);
}

/* Map with an explicit cache type; returns errno, *got = applied type */
static int map_cached(int fd, uint64_t phys, unsigned int cache,
		      unsigned int *got, uint32_t *reg0)
{
	int err = set_cache(fd, cache);
	void *p;

	if (err)
		return err;
	p = pmap(fd, phys, PG, PROT_READ | PROT_WRITE, MAP_SHARED, &err);
	*got = applied(fd);
	if (p) {
		if (reg0)
			*reg0 = rd32(p, 0);
		munmap(p, PG);
	}
	set_cache(fd, PFNMAP_CACHE_AUTO);
	return err;
}

static void test_cache_hidden(int fd)
{
	static const unsigned int want[] = {
		PFNMAP_CACHE_UC, PFNMAP_CACHE_WC, PFNMAP_CACHE_WB,
	};
	unsigned int i, got;
	int err;

	for (i = 0; i < 3; i++) {
		err = map_cached(fd, HIDDEN, want[i], &got, NULL);
		info("hidden %s applied=%s", cache_name(want[i]),
		     cache_name(got));
		check(!err && got == want[i], "hidden %s -> %s, applied %s",
		      cache_name(want[i]), err_name(err), cache_name(got));
	}
}

static void test_edu(int fd, uint64_t bar)
{
	static const unsigned int modes[] = {
		PFNMAP_CACHE_AUTO, PFNMAP_CACHE_UC, PFNMAP_CACHE_WC,
	};
	unsigned int i, got;
	uint32_t id = 0, v;
	void *p;
	int err;

	if (!bar) {
		fail("edu device not found");
		return;
	}
	for (i = 0; i < 3; i++) {
		id = 0;
		err = map_cached(fd, bar, modes[i], &got, &id);
		info("edu BAR0 0x%" PRIx64 " %s applied=%s", bar,
		     cache_name(modes[i]), cache_name(got));
		check(!err && id == 0x010000ed,
		      "edu %s -> %s, id 0x%08x, applied %s",
		      cache_name(modes[i]), err_name(err), id, cache_name(got));
	}
	p = pmap(fd, bar, PG, PROT_READ | PROT_WRITE, MAP_SHARED, &err);
	if (p) {
		wr32(p, 4, 0x12345678);
		v = rd32(p, 4);
		check(v == 0xedcba987, "edu liveness register 0x%08x", v);
		munmap(p, PG);
	}
	err = map_cached(fd, bar, PFNMAP_CACHE_WB, &got, NULL);
	info("edu wb -> %s, applied (what the kernel chose)=%s",
	     err_name(err), cache_name(got));
	/*
	 * PAT keeps the MTRRs' uncached type; ARM has nothing to lower it,
	 * and the helper refuses write-back on a device's range there
	 */
	if (ON_X86)
		check(err == EBUSY, "edu explicit wb -> %s (want EBUSY)",
		      err_name(err));
	else
		check(err == EOPNOTSUPP,
		      "edu explicit wb -> %s (want EOPNOTSUPP: a device's range on ARM)",
		      err_name(err));
	err = map_cached(fd, bar, PFNMAP_CACHE_AUTO, &got, &id);
	check(!err && id == 0x010000ed,
	      "edu auto again after EBUSY -> %s (no leaked reservation)",
	      err_name(err));
}

/* Read only: the host checks the whole file afterwards */
static void test_ivshmem(int fd, uint64_t bar)
{
	unsigned int got;
	char *p;
	int err;

	if (!bar) {
		fail("no ivshmem BAR2");
		return;
	}
	p = pmap(fd, bar, PG, PROT_READ, MAP_SHARED, &err);
	got = applied(fd);
	info("ivshmem BAR2 0x%" PRIx64 " auto applied=%s", bar,
	     cache_name(got));
	check(p != NULL, "ivshmem BAR2 (above 4 GiB) map -> %s",
	      err_name(err));
	if (p) {
		check(!memcmp(p, IVSHMEM_MARK, sizeof(IVSHMEM_MARK)),
		      "ivshmem BAR2 starts with the host's marker");
		munmap(p, PG);
	}
}

/* A line in the kernel log, to bracket what a check makes it say */
static void kmsg(const char *what, const char *tag)
{
	char line[128];
	int fd = open("/dev/kmsg", O_WRONLY);

	if (fd < 0)
		return;
	snprintf(line, sizeof(line), "%s %s\n", what, tag);
	if (write(fd, line, strlen(line)) < 0)
		perror("kmsg");
	close(fd);
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, val, strlen(val)) == (ssize_t)strlen(val) ? 0 : -1;
	close(fd);
	return ret;
}

/* The permissions /proc/self/maps shows for the mapping at p ("r--s") */
static int map_perms(const void *p, char perms[5])
{
	char line[256];
	unsigned long start;
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%lx-%*x %4s", &start, perms) == 2 &&
			start == (unsigned long)p;
	if (f)
		fclose(f);
	return found ? 0 : -1;
}

/*
 * READ_IMPLIES_EXEC (setarch -X, old binaries without PT_GNU_STACK): the
 * mmap core adds PROT_EXEC to PROT_READ. The mapping must work, without
 * execute permission, as mprotect() treats it.
 */
static void test_read_implies_exec(int fd)
{
	int status = 0, err;
	char perms[5] = "";
	void *p;
	pid_t pid = fork();

	if (pid == 0) {
		if (personality(READ_IMPLIES_EXEC) < 0)
			_exit(2);
		p = pmap(fd, HIDDEN, PG, PROT_READ, MAP_SHARED, &err);
		if (!p)
			_exit(10 + (err & 0x3f));
		if (map_perms(p, perms))
			_exit(3);
		_exit(!strcmp(perms, "r--s") ? 0 : 4);
	}
	waitpid(pid, &status, 0);
	status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	check(status == 0,
	      "READ_IMPLIES_EXEC: PROT_READ maps, not executable (child status %d%s%s)", status,
	      status >= 10 ? ", mmap " : "", status >= 10 ? err_name(status - 10) : "");
}

/* The descriptor is the capability: CAP_SYS_RAWIO counts at open() only */
static void test_fd_capability(int fd)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];
	int status = 0, err;
	void *p;
	pid_t pid = fork();

	if (pid == 0) {
		if (syscall(SYS_capget, &h, d))
			_exit(2);
		d[CAP_SYS_RAWIO / 32].effective &= ~(1U << (CAP_SYS_RAWIO % 32));
		d[CAP_SYS_RAWIO / 32].permitted &= ~(1U << (CAP_SYS_RAWIO % 32));
		if (syscall(SYS_capset, &h, d))
			_exit(3);
		if (open(DEV, O_RDWR) >= 0 || errno != EPERM)
			_exit(4);
		p = pmap(fd, HIDDEN, PG, PROT_READ, MAP_SHARED, &err);
		_exit(p ? 0 : 5);
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "without CAP_SYS_RAWIO open() fails but an inherited descriptor maps (child status %d)",
	      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* Ranges a driver claimed exclusively (IORESOURCE_EXCLUSIVE) */
static void test_exclusive(int fd, uint64_t bar)
{
	if (!bar) {
		fail("no e1000e BAR0");
		return;
	}
	expect_map_err("e1000e BAR0, claimed exclusively by its driver", fd,
		       bar, PG, PROT_READ, MAP_SHARED, EADDRINUSE);
	expect_map_err("a range that only ends in e1000e's BAR0", fd,
		       bar - PG, 2 * PG, PROT_READ, MAP_SHARED, EADDRINUSE);
}

/*
 * PAT refuses write-combining where a write-back mapping exists
 * (remap_pfn_range() says EINVAL): a conflicting cache type, EBUSY. The
 * kernel logs the refusal, between the markers.
 */
static void test_pat_conflict(int fd)
{
	const char *tag = sizeof(long) == 8 ? "pat-conflict-64" :
					      "pat-conflict-32";
	int fd2, err;
	void *p, *q;

	if (!ON_X86) {
		skip("wc over a live wb mapping: no PAT outside x86 to refuse it");
		return;
	}
	fd2 = dev_open(O_RDWR);
	set_cache(fd, PFNMAP_CACHE_WB);
	p = pmap(fd, HIDDEN, PG, PROT_READ, MAP_SHARED, &err);
	set_cache(fd, PFNMAP_CACHE_AUTO);
	if (!p) {
		fail("PAT conflict: the write-back mapping: %s", err_name(err));
		close(fd2);
		return;
	}
	set_cache(fd2, PFNMAP_CACHE_WC);
	kmsg(EXPECT_BEGIN, tag);
	q = pmap(fd2, HIDDEN, PG, PROT_READ, MAP_SHARED, &err);
	kmsg(EXPECT_END, tag);
	if (q)
		munmap(q, PG);
	check(err == EBUSY, "wc over a live wb mapping, PAT refuses -> %s (want EBUSY)",
	      err_name(err));
	munmap(p, PG);
	close(fd2);
}

/* A refused mmap() leaves the type recorded for the last good one */
static void test_applied_kept(int fd, uint64_t edu)
{
	struct pfnmap_info pi;
	unsigned int got;
	int err;

	err = map_cached(fd, HIDDEN, PFNMAP_CACHE_WB, &got, NULL);
	check(!err && got == PFNMAP_CACHE_WB, "hidden wb -> %s, applied %s",
	      err_name(err), cache_name(got));
	/* a refusal after remap_pfn_range() (PAT), else the RAM policy's */
	if (ON_X86) {
		err = map_cached(fd, edu, PFNMAP_CACHE_WB, &got, NULL);
		check(err == EBUSY, "then edu wb -> %s (want EBUSY)",
		      err_name(err));
	} else {
		err = map_cached(fd, LOW_RAM, PFNMAP_CACHE_WB, &got, NULL);
		check(err == EPERM, "then System RAM wb -> %s (want EPERM)",
		      err_name(err));
	}
	err = get_info(fd, &pi);
	check(!err && (pi.flags & PFNMAP_INFO_MAPPED) &&
	      pi.applied_cache == PFNMAP_CACHE_WB,
	      "after the refusal GET_INFO still describes the hidden mapping: applied %s (want wb)",
	      cache_name(pi.applied_cache));
}

struct race {
	int fd;
	uint64_t phys;
	int want_err;		/* a refusal: counted in refused */
	volatile int stop;
	unsigned int rounds, done, refused;	/* per mapping thread */
	unsigned int seen, bad;			/* the reader */
};

static void *race_map(void *arg)
{
	struct race *r = arg;
	unsigned int i;
	void *p;
	int err;

	for (i = 0; i < r->rounds; i++) {
		p = pmap(r->fd, r->phys, PG, PROT_READ, MAP_SHARED, &err);
		if (p) {
			munmap(p, PG);
			r->done++;
		} else if (err == r->want_err) {
			r->refused++;
		}
	}
	return NULL;
}

static void *race_read(void *arg)
{
	struct race *r = arg;
	struct pfnmap_info pi;

	while (!r->stop) {
		if (get_info(r->fd, &pi))
			r->bad++;
		else if ((pi.flags & PFNMAP_INFO_MAPPED) &&
			 pi.applied_cache != PFNMAP_CACHE_WB)
			r->bad++;
		r->seen++;
	}
	return NULL;
}

/*
 * Concurrent mmap()s on one file, all asking for wb: the hidden memory
 * gets it, edu's BAR is refused (EBUSY: PAT) on x86, System RAM (EPERM)
 * elsewhere. GET_INFO, read all the while, must only ever describe a
 * mapping that was made: applied wb.
 */
static void test_race(uint64_t edu)
{
	int fd = dev_open(O_RDWR);
	struct race ok = { .fd = fd, .phys = HIDDEN + 0x3f0000, .rounds = 200 };
	struct race no = { .fd = fd, .phys = ON_X86 ? edu : LOW_RAM,
			   .want_err = ON_X86 ? EBUSY : EPERM, .rounds = 200 };
	struct race rd = { .fd = fd };
	pthread_t a, b, c;

	set_cache(fd, PFNMAP_CACHE_WB);
	pthread_create(&c, NULL, race_read, &rd);
	pthread_create(&a, NULL, race_map, &ok);
	pthread_create(&b, NULL, race_map, &no);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	rd.stop = 1;
	pthread_join(c, NULL);
	close(fd);
	check(ok.done == ok.rounds && no.refused == no.rounds && !rd.bad &&
	      rd.seen > 0,
	      "concurrent mmaps on one file: %u of %u wb maps, %u of %u refusals, %u of %u GET_INFOs not describing a made mapping",
	      ok.done, ok.rounds, no.refused, no.rounds, rd.bad, rd.seen);
}

/* One mapping is bounded: its page tables are filled at mmap() time */
static void test_max_map(int fd, uint64_t max)
{
	if (sizeof(long) == 4) {
		skip("one mapping longer than the limit: a 32-bit process has no 64 GiB of "
		     "address space");
		return;
	}
	expect_map_err("one page more than the limit, where nothing is",
		       fd, NOWHERE, max + PG, PROT_READ, MAP_SHARED, EFBIG);
}

static int set_allow_ram(const char *v)
{
	int fd = open(ALLOW_RAM, O_WRONLY), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, v, 1) == 1 ? 0 : -1;
	close(fd);
	return ret;
}

#define UCPAGE_PFN	"/sys/module/pfnmap_ucpage/parameters/pfn"

/*
 * x86: a page of RAM that a driver made uncached (tests/vm/ucpage, loaded
 * by guest/tests.sh). PAT gives every new mapping of it that type, and
 * logs that it did; auto on System RAM means write-back, so both auto and
 * an explicit wb are refused
 */
static void test_ucpage(int fd)
{
	const char *tag = sizeof(long) == 8 ? "ucpage-64" : "ucpage-32";
	unsigned long long pfn = 0;
	FILE *f = fopen(UCPAGE_PFN, "r");
	unsigned int got;
	int err, n;

	n = f ? fscanf(f, "%llu", &pfn) : 0;
	if (f)
		fclose(f);
	if (n != 1 || !pfn) {
		fail("allow_ram: the uncached page's pfn from %s", UCPAGE_PFN);
		return;
	}
	kmsg(EXPECT_BEGIN, tag);
	err = map_cached(fd, (uint64_t)pfn * PG, PFNMAP_CACHE_AUTO, &got, NULL);
	check(err == EBUSY,
	      "allow_ram: auto on a RAM page a driver made uncached (pfn 0x%llx) -> %s (want EBUSY: RAM is write-back only)",
	      pfn, err_name(err));
	err = map_cached(fd, (uint64_t)pfn * PG, PFNMAP_CACHE_WB, &got, NULL);
	kmsg(EXPECT_END, tag);
	check(err == EBUSY, "allow_ram: wb on that page -> %s (want EBUSY)",
	      err_name(err));
}

static void test_allow_ram(int fd)
{
	struct pfnmap_info pi;
	unsigned int got;
	int err;

	if (set_allow_ram("1")) {
		fail("cannot set allow_ram");
		return;
	}
	check(!get_info(fd, &pi) && pi.policy == PFNMAP_POLICY_ALLOW_RAM,
	      "GET_INFO policy ALLOW_RAM with allow_ram=1");
	err = map_cached(fd, LOW_RAM, PFNMAP_CACHE_AUTO, &got, NULL);
	check(!err && got == PFNMAP_CACHE_WB,
	      "allow_ram: RAM auto -> %s, applied %s", err_name(err),
	      cache_name(got));
	err = map_cached(fd, LOW_RAM, PFNMAP_CACHE_WB, &got, NULL);
	check(!err && got == PFNMAP_CACHE_WB,
	      "allow_ram: RAM wb -> %s, applied %s", err_name(err),
	      cache_name(got));
	err = map_cached(fd, LOW_RAM, PFNMAP_CACHE_UC, &got, NULL);
	check(err == EOPNOTSUPP, "allow_ram: RAM uc -> %s (want EOPNOTSUPP)",
	      err_name(err));
	err = map_cached(fd, LOW_RAM, PFNMAP_CACHE_WC, &got, NULL);
	check(err == EOPNOTSUPP, "allow_ram: RAM wc -> %s (want EOPNOTSUPP)",
	      err_name(err));
#if ON_X86
	expect_map_err("allow_ram: RAM + hidden still", fd, RAM_BELOW_HIDDEN,
		       2 * PG, PROT_READ, MAP_SHARED, EXDEV);
#else
	skip("allow_ram: RAM + hidden: memory beyond mem= starts after the hole");
#endif
	expect_map_err("allow_ram: RAM + a hole still", fd, RAM_END - PG,
		       2 * PG, PROT_READ, MAP_SHARED, EXDEV);
	if (ON_X86)
		test_ucpage(fd);
	set_allow_ram("0");
}

static void test_nocap(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];
	int status = 0, fd;
	pid_t pid = fork();

	if (pid == 0) {
		if (syscall(SYS_capget, &h, d))
			_exit(2);
		d[CAP_SYS_RAWIO / 32].effective &= ~(1U << (CAP_SYS_RAWIO % 32));
		if (syscall(SYS_capset, &h, d))
			_exit(3);
		fd = open(DEV, O_RDWR);
		_exit(fd < 0 && errno == EPERM ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "open without CAP_SYS_RAWIO -> EPERM (child status %d)",
	      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

#define MAX_TOTAL	"/sys/module/pfnmap/parameters/max_total"

static uint64_t total_now(int fd)
{
	struct pfnmap_info pi;

	return get_info(fd, &pi) ? ~0ULL : pi.total;
}

/* All live mappings together are bounded by max_total (ENOSPC) */
static void test_total(int fd)
{
	struct pfnmap_info pi;
	uint64_t t0, t1;
	char lim[32];
	void *a, *b = NULL;
	int err;

	if (get_info(fd, &pi)) {
		fail("GET_INFO: %s", strerror(errno));
		return;
	}
	t0 = pi.total;
	a = pmap(fd, HIDDEN, HIDDEN_SIZE / 2, PROT_READ, MAP_SHARED, &err);
	t1 = total_now(fd);
	check(a && t1 == t0 + HIDDEN_SIZE / 2,
	      "GET_INFO total grows by a 2 MiB mapping: %" PRIu64 " -> %" PRIu64 " KiB",
	      t0 >> 10, t1 >> 10);
	snprintf(lim, sizeof(lim), "%" PRIu64, t1 + HIDDEN_SIZE / 4);
	if (write_file(MAX_TOTAL, lim)) {
		fail("cannot set max_total");
	} else {
		expect_map_err("a mapping past max_total", fd,
			       HIDDEN + HIDDEN_SIZE / 2, HIDDEN_SIZE / 2,
			       PROT_READ, MAP_SHARED, ENOSPC);
		b = pmap(fd, HIDDEN + HIDDEN_SIZE / 2, HIDDEN_SIZE / 4,
			 PROT_READ, MAP_SHARED, &err);
		check(b != NULL, "a mapping up to max_total exactly -> %s",
		      err_name(err));
	}
	if (a)
		munmap(a, HIDDEN_SIZE / 2);
	if (b)
		munmap(b, HIDDEN_SIZE / 4);
	check(total_now(fd) == t0, "GET_INFO total back to %" PRIu64 " KiB after munmap",
	      t0 >> 10);
	/* what it was before */
	snprintf(lim, sizeof(lim), "%" PRIu64, (uint64_t)pi.max_total);
	write_file(MAX_TOTAL, lim);
}

/*
 * @phys+@len mapped with nothing after it in the address space: a
 * debugger's read past the end goes on into the next VMA, if any
 */
static void *pmap_hole(int fd, uint64_t phys, size_t len, int prot, int *err)
{
	uint8_t *spot = mmap(NULL, len + PG, PROT_NONE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *p;

	if (spot == MAP_FAILED) {
		*err = errno;
		return NULL;
	}
	p = mmap(spot, len, prot, MAP_SHARED | MAP_FIXED, fd, (off_t)phys);
	if (p == MAP_FAILED) {
		*err = errno;
		munmap(spot, len + PG);
		return NULL;
	}
	munmap(spot + len, PG);
	*err = 0;
	return p;
}

struct peek_map {
	uint64_t phys;
	size_t len;
};

static uintptr_t peek_map(void *arg)
{
	const struct peek_map *m = arg;
	int fd = dev_open(O_RDWR), err;

	return (uintptr_t)pmap_hole(fd, m->phys, m->len, PROT_READ, &err);
}

/*
 * A child maps @phys+@len; its debugger peeks at @off of the mapping with
 * PTRACE_PEEKDATA: the word, or errno
 */
static int peek_child(uint64_t phys, size_t len, size_t off, long *word)
{
	struct peek_map m = { phys, len };
	uintptr_t addr;
	pid_t pid = traced_child(peek_map, &m, &addr);
	int err;

	if (pid < 0)
		return errno;
	errno = 0;
	*word = ptrace(PTRACE_PEEKDATA, pid, (void *)(addr + off), NULL);
	err = errno;
	traced_end(pid);
	return err;
}

#ifndef __arm__
/*
 * 32-bit x86: the kernel's ioremap() drops the upper half of a physical
 * address above 4 GiB, so the helper refuses debugger access there. What
 * a write would have hit instead, System RAM at the address's lower 32
 * bits, is read through an allow_ram mapping before and after.
 */
static void debugger_x86_32(volatile uint8_t *p, uintptr_t end, ssize_t n,
			    int err)
{
	uint64_t low = (HIDDEN + HIDDEN_SIZE - PG) & 0xffffffffULL;
	uint8_t before[16], w[16];
	const uint8_t *ram;
	int fd = -1;

	check(n < 0 && err == EIO,
	      "debugger: /proc/self/mem read above 4 GiB -> %s (want EIO on a 32-bit x86 kernel)",
	      n < 0 ? err_name(err) : "bytes");
	if (set_allow_ram("1") == 0)
		fd = dev_open(O_RDWR);
	ram = fd < 0 ? NULL : pmap(fd, low, PG, PROT_READ, MAP_SHARED, &err);
	set_allow_ram("0");
	if (!ram) {
		fail("debugger: map System RAM at 0x%" PRIx64 " (allow_ram): %s",
		     low, err_name(err));
		return;
	}
	memcpy(before, ram + PG - 16, 16);
	memset(w, 0x5c, sizeof(w));
	n = self_mem(1, (void *)(end - 16), w, 16, &err);
	check(n < 0 && err == EIO && !memcmp(before, ram + PG - 16, 16) &&
	      p[2 * PG - 1] == 0xaf,
	      "debugger: /proc/self/mem write above 4 GiB -> %s; System RAM at 0x%" PRIx64 " %s",
	      n < 0 ? err_name(err) : "written", low + PG - 16,
	      memcmp(before, ram + PG - 16, 16) ? "CHANGED" : "unchanged");
	munmap((void *)ram, PG);
	close(fd);
}
#endif

/*
 * Debugger access near the end of a mapping: /proc/PID/mem and ptrace()
 * ask the helper for more than is left of it, and exactly the mapping's
 * bytes may come back.  The last hidden page is followed by System RAM on
 * the PC guests (-m 7G) and by more memory outside System RAM on virt, so
 * a read past the end would hit RAM (x86: "ioremap on RAM") or a page the
 * policy never saw.  32-bit ARM has no CONFIG_HAVE_IOREMAP_PROT: the
 * kernel never asks the helper, and every such access fails with EIO.
 */
static void test_debugger(int fd)
{
	uint64_t last = HIDDEN + HIDDEN_SIZE - PG;
	uint8_t want[16], got[16];
	long word = 0, wantw = 0;
	volatile uint8_t *p;
	uintptr_t end;
	unsigned int i;
	ssize_t n;
	int err;

	p = pmap_hole(fd, last - PG, 2 * PG, PROT_READ | PROT_WRITE, &err);
	if (!p) {
		fail("debugger: map the last two hidden pages: %s", err_name(err));
		return;
	}
	end = (uintptr_t)p + 2 * PG;
	for (i = 0; i < 16; i++)
		p[2 * PG - 16 + i] = p[PG - 8 + i] = (uint8_t)(0xa0 + i);
	memset(got, 0, sizeof(got));
	n = self_mem(0, (void *)(end - 8), got, 16, &err);
	memcpy(want, (const void *)(p + 2 * PG - 8), 8);
#ifdef __arm__
	check(n < 0 && err == EIO,
	      "debugger: /proc/self/mem read -> %s (want EIO: no ->access on 32-bit ARM)",
	      n < 0 ? err_name(err) : "bytes");
#else
	if (ON_X86 && !kernel_64bit()) {
		debugger_x86_32(p, end, n, err);
		munmap((void *)p, 2 * PG);
		return;
	}
	check(n == 8 && !memcmp(got, want, 8),
	      "debugger: /proc/self/mem read of 16 bytes at 8 before the end -> %zd %s, the mapping's last 8 bytes %s",
	      n, err_name(err), memcmp(got, want, 8) ? "differ" : "exact");
	n = self_mem(0, (void *)(end - PG - 8), got, 16, &err);
	check(n == 16 && !memcmp(got, (const void *)(p + PG - 8), 16),
	      "debugger: a read across the mapping's page boundary -> %zd %s, 16 bytes",
	      n, err_name(err));
	memset(got, 0x5c, sizeof(got));
	n = self_mem(1, (void *)(end - 8), got, 16, &err);
	check(n == 8 && p[2 * PG - 8] == 0x5c && p[2 * PG - 1] == 0x5c &&
	      p[2 * PG - 9] == 0xa7,
	      "debugger: /proc/self/mem write of 16 bytes at 8 before the end -> %zd %s, the last 8 bytes written",
	      n, err_name(err));
#endif
	memcpy(&wantw, (const void *)(p + 2 * PG - sizeof(long)), sizeof(long));
	munmap((void *)p, 2 * PG);

	/* peeks through a one-page mapping of the last page */
	err = peek_child(last, PG, PG - sizeof(long), &word);
#ifdef __arm__
	check(err == EIO, "debugger: PTRACE_PEEKDATA -> %s (want EIO)",
	      err_name(err));
#else
	check(!err && word == wantw,
	      "debugger: PTRACE_PEEKDATA of the last word -> %s, 0x%lx (want 0x%lx)",
	      err_name(err), (unsigned long)word, (unsigned long)wantw);
#endif
	if (sizeof(long) == 8) {
		err = peek_child(last, PG, PG - 4, &word);
		check(err == EIO,
		      "debugger: PTRACE_PEEKDATA of 8 bytes at 4 before the end -> %s (want EIO: 4 bytes are the mapping's)",
		      err_name(err));
	} else {
		skip("debugger: PTRACE_PEEKDATA across the end: a 32-bit process peeks 4 bytes");
	}
}

static int run(uint64_t edu, uint64_t ivshmem, uint64_t e1000e)
{
	struct pfnmap_info pi;
	int fd;

	info("probe built %zu-bit, off_t %zu bytes, %s kernel",
	     sizeof(long) * 8, sizeof(off_t),
	     kernel_64bit() ? "64-bit" : "32-bit");
	test_node();
	fd = dev_open(O_RDWR);
	test_info(fd, &pi);
	test_hidden_rw(fd);
	test_devmem(fd);
	test_errnos(fd, &pi);
	test_max_map(fd, pi.max_map);
	test_read_implies_exec(fd);
	test_exclusive(fd, e1000e);
	test_readonly();
	test_fork(fd);
	test_dsync();
	test_cache_hidden(fd);
	test_pat_conflict(fd);
	test_edu(fd, edu);
	test_applied_kept(fd, edu);
	test_race(edu);
	test_ivshmem(fd, ivshmem);
	test_allow_ram(fd);
	test_total(fd);
	test_debugger(fd);
	test_nocap();
	test_fd_capability(fd);
	close(fd);
	return end();
}

/*
 * hold: map a page of the hidden memory, or of PHYS, close the file and
 * wait; given PHYS, SIGUSR1 makes it read the 32-bit word at PHYS + 8
 * through the mapping it holds and print "READ 0x..."
 */
static int hold(int argc, char **argv)
{
	uint64_t phys = argc == 3 ? strtoull(argv[2], NULL, 0) : HIDDEN;
	int fd = dev_open(O_RDWR), err, sig;
	void *p = pmap(fd, phys, PG, PROT_READ, MAP_SHARED, &err);
	sigset_t set;

	close(fd);
	if (!p) {
		fail("hold: %s", err_name(err));
		return 1;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	printf("HOLD-READY\n");
	fflush(stdout);
	if (argc != 3) {
		for (;;)
			pause();
	}
	sigwait(&set, &sig);
	printf("READ 0x%08x\n", rd32(p, 8));
	return 0;
}

/*
 * core HEAPFILE: a page of the hidden memory and a page of the heap, each
 * filled from /dev/urandom by the kernel (so that no copy of the bytes
 * lands anywhere else in this process), the heap page saved to HEAPFILE
 * the same way; then SIGABRT, and a core dump
 */
static int core(const char *heapfile)
{
	int fd = dev_open(O_RDWR), rnd = open("/dev/urandom", O_RDONLY), out;
	uint8_t *heap = malloc(PG);
	void *p;
	int err;

	p = pmap(fd, HIDDEN, PG, PROT_READ | PROT_WRITE, MAP_SHARED, &err);
	out = open(heapfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (!p || !heap || rnd < 0 || out < 0 || read(rnd, p, PG) != PG ||
	    read(rnd, heap, PG) != PG || write(out, heap, PG) != PG) {
		fail("core: prepare: %s", strerror(errno));
		return 1;
	}
	close(out);
	printf("CORE-MAP %p\n", p);
	fflush(stdout);
	abort();
}

static int memfind(const uint8_t *hay, size_t n, const uint8_t *needle,
		   size_t len)
{
	return memmem(hay, n, needle, len) != NULL;
}

/* The PT_LOAD of the core that describes @addr: its file size, or -1 */
static long long core_filesz(const uint8_t *c, size_t n, uintptr_t addr)
{
	const ElfW(Ehdr) *eh = (const void *)c;
	const ElfW(Phdr) *ph;
	unsigned int i;

	if (n < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_type != ET_CORE ||
	    eh->e_phoff + (size_t)eh->e_phnum * sizeof(*ph) > n)
		return -1;
	ph = (const void *)(c + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr == addr)
			return (long long)ph[i].p_filesz;
	return -1;
}

/*
 * corecheck CORE HEAPFILE ADDRESS: the core of "probe core" holds the
 * heap page (a real core of that process) but not the page of the hidden
 * memory, whose segment at ADDRESS it lists with no bytes (VM_DONTDUMP)
 */
static int corecheck(const char *corefile, const char *heapfile,
		     uintptr_t addr)
{
	uint8_t heap[PG], hidden[PG];
	int fd = open(corefile, O_RDONLY), hf = open(heapfile, O_RDONLY), err;
	struct stat st;
	uint8_t *c = MAP_FAILED;
	void *p;
	int dev = dev_open(O_RDWR);

	p = pmap(dev, HIDDEN, PG, PROT_READ, MAP_SHARED, &err);
	if (fd < 0 || hf < 0 || fstat(fd, &st) || !p ||
	    read(hf, heap, PG) != PG) {
		fail("corecheck: open %s, %s, map the hidden page: %s",
		     corefile, heapfile, strerror(errno));
		return end();
	}
	memcpy(hidden, p, PG);
	c = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (c == MAP_FAILED) {
		fail("corecheck: mmap %s: %s", corefile, strerror(errno));
		return end();
	}
	info("core: %lld bytes", (long long)st.st_size);
	check(memfind(c, st.st_size, heap, PG),
	      "core: holds the process's heap page (a real core of it)");
	check(!memfind(c, st.st_size, hidden, 64),
	      "core: holds no 64 bytes of the hidden page the process mapped");
	check(core_filesz(c, st.st_size, addr) == 0,
	      "core: the mapping's segment at 0x%lx is listed with no bytes (file size %lld)",
	      (unsigned long)addr, core_filesz(c, st.st_size, addr));
	munmap(c, st.st_size);
	return end();
}

/*
 * One of the stress processes: its own 256 KiB of the hidden memory (so
 * that the cache types never conflict), its own cache type, and every
 * round a fresh open(), SET_CACHE, mmap() of 1-4 pages, a store and a load
 * in each page, munmap() and close().
 */
static int stress_child(unsigned int id, unsigned int rounds)
{
	static const unsigned int modes[] = {
		PFNMAP_CACHE_UC, PFNMAP_CACHE_WC, PFNMAP_CACHE_WB,
		PFNMAP_CACHE_AUTO,
	};
	uint64_t base = HIDDEN + 0x200000 + (uint64_t)id * 0x40000;
	unsigned int r, pages, pg;
	uint32_t want;
	uint8_t *p;
	int fd, err;

	for (r = 0; r < rounds; r++) {
		fd = open(DEV, O_RDWR);
		if (fd < 0)
			return 10;
		if (set_cache(fd, modes[id % 4]))
			return 11;
		pages = 1 + r % 4;
		p = pmap(fd, base + (r % 60) * PG, pages * PG,
			 PROT_READ | PROT_WRITE, MAP_SHARED, &err);
		if (!p) {
			fprintf(stderr, "stress %u round %u: mmap %s\n", id, r,
				err_name(err));
			return 12;
		}
		for (pg = 0; pg < pages; pg++) {
			want = id << 24 | r << 8 | pg;
			wr32(p, pg * PG + 4 * (r % 1024), want);
			if (rd32(p, pg * PG + 4 * (r % 1024)) != want)
				return 13;
		}
		if (munmap(p, pages * PG) || close(fd))
			return 14;
	}
	return 0;
}

static int stress(unsigned int procs, unsigned int rounds)
{
	unsigned int i, bad = 0;
	int status;
	pid_t pid;

	for (i = 0; i < procs; i++) {
		pid = fork();
		if (pid == 0)
			_exit(stress_child(i, rounds));
		if (pid < 0)
			bad++;
	}
	while ((pid = wait(&status)) > 0) {
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			bad++;
			info("stress child %d: status %#x", (int)pid, status);
		}
	}
	check(!bad, "%u processes x %u rounds of open/mmap/touch/munmap at once (%u failed)",
	      procs, rounds, bad);
	return end();
}

/*
 * remap_pfn_range()'s own errors pass through: in a memory cgroup with no
 * room left, the page tables of 512 MiB cannot be allocated (ENOMEM). The
 * cgroup's OOM killer finds nothing to kill (oom_score_adj -1000) and
 * logs that, between the markers.
 */
static int enomem(const char *cg, uint64_t ivshmem)
{
	size_t len = 512UL << 20;
	char path[256], val[32];
	long long cur = -1;
	int fd = dev_open(O_RDWR), err = 0, joined;
	FILE *f;
	void *p = NULL;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	snprintf(val, sizeof(val), "%d", (int)getpid());
	joined = !write_file(path, val) &&
		 !write_file("/proc/self/oom_score_adj", "-1000");
	snprintf(path, sizeof(path), "%s/memory.current", cg);
	f = fopen(path, "r");
	if (f && fscanf(f, "%lld", &cur) != 1)
		cur = -1;
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "%s/memory.max", cg);
	snprintf(val, sizeof(val), "%lld", cur + (256 << 10));
	if (joined && cur > 0 && !write_file(path, val)) {
		kmsg(EXPECT_BEGIN, "memcg-oom");
		p = pmap(fd, ivshmem, len, PROT_READ, MAP_SHARED, &err);
		kmsg(EXPECT_END, "memcg-oom");
		write_file(path, "max");
		check(err == ENOMEM, "512 MiB with no room for page tables -> %s (want ENOMEM)",
		      err_name(err));
	} else {
		fail("cannot join the memory cgroup %s (memory.current %lld)",
		     cg, cur);
	}
	if (p)
		munmap(p, len);
	close(fd);
	return end();
}

/*
 * Kernel lockdown is one-way: this runs last. An open file does not
 * outlive it: mmap() checks it again, GET_INFO says so.
 */
static int lockdown(void)
{
	struct pfnmap_info pi;
	int fd = dev_open(O_RDWR), err, fd2;
	void *p = pmap(fd, HIDDEN, PG, PROT_READ, MAP_SHARED, &err);

	check(p != NULL, "before lockdown: mmap -> %s", err_name(err));
	if (p)
		munmap(p, PG);
	check(!write_file("/sys/kernel/security/lockdown", "integrity"),
	      "lockdown: integrity written to /sys/kernel/security/lockdown");
	p = pmap(fd, HIDDEN, PG, PROT_READ, MAP_SHARED, &err);
	if (p)
		munmap(p, PG);
	check(err == EPERM, "locked down: mmap on the file opened before -> %s (want EPERM)",
	      err_name(err));
	err = get_info(fd, &pi);
	check(!err && (pi.flags & PFNMAP_INFO_LOCKDOWN),
	      "locked down: GET_INFO flags LOCKDOWN (flags %#x)", pi.flags);
	fd2 = open(DEV, O_RDWR);
	err = fd2 < 0 ? errno : 0;
	check(err == EPERM, "locked down: open -> %s (want EPERM)",
	      err_name(err));
	if (fd2 >= 0)
		close(fd2);
	close(fd);
	return end();
}

int main(int argc, char **argv)
{
	if ((argc == 2 || argc == 3) && !strcmp(argv[1], "hold"))
		return hold(argc, argv);
	if (argc == 3 && !strcmp(argv[1], "core"))
		return core(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "corecheck"))
		return corecheck(argv[2], argv[3], strtoull(argv[4], NULL, 0));
	if (argc == 5 && !strcmp(argv[1], "run"))
		return run(strtoull(argv[2], NULL, 0),
			   strtoull(argv[3], NULL, 0),
			   strtoull(argv[4], NULL, 0));
	if (argc == 4 && !strcmp(argv[1], "enomem"))
		return enomem(argv[2], strtoull(argv[3], NULL, 0));
	if (argc == 2 && !strcmp(argv[1], "lockdown"))
		return lockdown();
	if (argc == 4 && !strcmp(argv[1], "stress"))
		return stress(strtoul(argv[2], NULL, 0),
			      strtoul(argv[3], NULL, 0));
	fprintf(stderr,
		"usage: %s run EDU_BAR0 IVSHMEM_BAR2 E1000E_BAR0 | hold [PHYS] | core HEAPFILE | "
		"corecheck CORE HEAPFILE ADDRESS | stress PROCS ROUNDS | enomem CGROUP "
		"IVSHMEM_BAR2 | lockdown\n", argv[0]);
	return 2;
}

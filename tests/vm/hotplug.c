// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of the hot-plug, debugger-access and soak run (tests/vm/
 * hotplug.sh, guest/hotplug.sh): exercises /dev/pfnmap directly, prints
 * "PASS: ..." / "FAIL: ..." per check, "INFO: ..." facts and, for access and
 * soak, last "END: N checks, F failed" (guest/hotplug.sh turns them into TAP
 * lines and fails when END is missing or disagrees). Built static, -m32 for
 * the 686-pae guest (lib.sh: vm_guest_cc).
 *
 *   hotplug hold PHYS SIZE [move]
 *                              map PHYS+SIZE (auto), with "move" move that
 *                              mapping elsewhere (mremap), print
 *                              HOLD-READY, sleep
 *   hotplug map PHYS SIZE      try to map PHYS+SIZE once; print MAP: ERRNO
 *   hotplug access HIDDEN      debugger access (ptrace, /proc/PID/mem) to a
 *                              System RAM mapping (allow_ram=1) and to the
 *                              hidden (non-RAM) memory at HIDDEN
 *   hotplug soak SECONDS PROCS HIDDEN HSIZE IVSHMEM ISIZE
 *                              PROCS processes map, touch, move and unmap
 *                              random ranges of their own slices of the
 *                              hidden memory and of ivshmem's BAR2 (0: none)
 *                              with random cache types, on their own files
 *                              and on files shared with a process that
 *                              keeps changing those files' cache types,
 *                              while another keeps trying to unload the
 *                              helper (delete_module(), as rmmod does).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pfnmap.h"
#include "guest-report.h"
#include "guest-debugger.h"

#define DEV		"/dev/pfnmap"
#define ALLOW_RAM	"/sys/module/pfnmap/parameters/allow_ram"
#define PG		4096UL

static int set_cache(int fd, unsigned int cache)
{
	__u32 c = cache;

	return ioctl(fd, PFNMAP_IOC_SET_CACHE, &c) ? errno : 0;
}

static void *pmap(int fd, uint64_t phys, size_t len, int prot, int *err)
{
	void *p = mmap(NULL, len, prot, MAP_SHARED, fd, (off_t)phys);

	if (p == MAP_FAILED) {
		*err = errno;
		return NULL;
	}
	*err = 0;
	return p;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ret;

	if (fd < 0)
		return -1;
	ret = write(fd, s, strlen(s)) == (ssize_t)strlen(s) ? 0 : -1;
	close(fd);
	return ret;
}

/* ---- hold, map: the host plugs memory where these map ---------------- */

static int hold(uint64_t phys, size_t size, int move)
{
	int fd = open(DEV, O_RDWR), err;
	volatile uint32_t *p;
	void *spot, *q;

	if (fd < 0) {
		printf("HOLD-FAILED open: %s\n", strerror(errno));
		return 1;
	}
	p = pmap(fd, phys, size, PROT_READ | PROT_WRITE, &err);
	close(fd);
	if (!p) {
		printf("HOLD-FAILED mmap 0x%" PRIx64 "+0x%zx: %s\n", phys, size,
		       err_name(err));
		return 1;
	}
	/*
	 * Moved: the mapping now lives in a VMA that mremap() made (vm_ops
	 * open), the one mmap() made is gone (close); the helper must still
	 * know the range is mapped.
	 */
	if (move) {
		spot = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			    -1, 0);
		q = spot == MAP_FAILED ? MAP_FAILED :
		    mremap((void *)p, size, size, MREMAP_MAYMOVE | MREMAP_FIXED,
			   spot);
		if (q == MAP_FAILED || q == (void *)p) {
			printf("HOLD-FAILED mremap: %s\n", strerror(errno));
			return 1;
		}
		p = q;
	}
	/* nothing there yet: QEMU reads all ones; only a load, no store */
	printf("HOLD-READY %d 0x%08x%s\n", (int)getpid(), (unsigned int)p[0],
	       move ? " (moved by mremap)" : "");
	fflush(stdout);
	for (;;)
		pause();
}

static int map_once(uint64_t phys, size_t size)
{
	int fd = open(DEV, O_RDWR), err;
	void *p;

	if (fd < 0) {
		printf("MAP: open %s\n", strerror(errno));
		return 1;
	}
	p = pmap(fd, phys, size, PROT_READ, &err);
	if (p)
		munmap(p, size);
	close(fd);
	printf("MAP: %s\n", err_name(err));
	return err ? 1 : 0;
}

/* ---- access: ptrace and /proc/PID/mem on the mappings ----------------- */

/* The page frame of the page at @p (root sees PFNs in pagemap) */
static uint64_t pfn_of(const void *p)
{
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);
	off_t off = (off_t)((uintptr_t)p / PG) * 8;

	if (fd < 0)
		return 0;
	if (pread(fd, &e, 8, off) != 8)
		e = 0;
	close(fd);
	if (!(e >> 63 & 1))
		return 0;
	return e & ((1ULL << 55) - 1);
}

static void fill(uint8_t *b, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(i * 131 + seed * 7 + (i >> 8));
}

static uintptr_t map_pfn(void *arg)
{
	int fd = open(DEV, O_RDWR), err;

	return fd < 0 ? 0 : (uintptr_t)pmap(fd, *(uint64_t *)arg * PG, PG,
					      PROT_READ | PROT_WRITE, &err);
}

/*
 * A child maps the page frame @pfn itself; its debugger reads and writes
 * the mapping with PTRACE_PEEKDATA/POKEDATA
 */
static void access_ptrace(uint64_t pfn, volatile uint8_t *shared)
{
	long word, want, poke = (long)0x5a5aa5a5c3c33c3cLL;
	uintptr_t addr;
	pid_t pid = traced_child(map_pfn, &pfn, &addr);
	int err;

	if (pid < 0) {
		check(0, "ptrace: a child mapping pfn 0x%" PRIx64 ", attached: %s",
		      pfn, strerror(errno));
		return;
	}
	memcpy(&want, (const uint8_t *)shared + 0x40, sizeof(want));
	errno = 0;
	word = ptrace(PTRACE_PEEKDATA, pid, (void *)(addr + 0x40), NULL);
	err = errno;
	check(!err && word == want,
	      "ptrace PEEKDATA of the RAM mapping -> %s, 0x%lx (want 0x%lx)",
	      err_name(err), (unsigned long)word, (unsigned long)want);
	err = ptrace(PTRACE_POKEDATA, pid, (void *)(addr + 0x80),
		     (void *)poke) ? errno : 0;
	memcpy(&word, (const uint8_t *)shared + 0x80, sizeof(word));
	check(!err && word == poke,
	      "ptrace POKEDATA into the RAM mapping -> %s, the page holds 0x%lx (want 0x%lx)",
	      err_name(err), (unsigned long)word, (unsigned long)poke);
	traced_end(pid);
}

static int access_tests(uint64_t hidden)
{
	uint8_t want[PG], got[PG], w[48];
	volatile uint8_t *shared;
	uint8_t *q, *r;
	uint64_t pfn;
	ssize_t n;
	int fd, err;

	/*
	 * The oracle: a page of this process's own memory (shared anonymous,
	 * so that fork() does not copy it), mapped a second time through
	 * the helper by its page frame number, which is System RAM.
	 */
	shared = mmap(NULL, PG, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
	if (shared == MAP_FAILED) {
		check(0, "anonymous page: %s", strerror(errno));
		return end();
	}
	fill(want, PG, 1);
	memcpy((void *)shared, want, PG);
	pfn = pfn_of((const void *)shared);
	info("the oracle page is pfn 0x%" PRIx64 " (%s)", pfn,
	     pfn >= 0x377fe ? "above 896 MiB: highmem on a 32-bit kernel" :
	     "low memory");
	if (!pfn) {
		check(0, "pfn of the oracle page from /proc/self/pagemap");
		return end();
	}
	if (write_file(ALLOW_RAM, "1")) {
		check(0, "set allow_ram=1: %s", strerror(errno));
		return end();
	}
	fd = open(DEV, O_RDWR);
	q = fd < 0 ? NULL : pmap(fd, pfn * PG, PG, PROT_READ | PROT_WRITE,
				 &err);
	r = fd < 0 ? NULL : pmap(fd, pfn * PG, PG, PROT_READ, &err);
	if (!q || !r) {
		check(0, "allow_ram=1: map pfn 0x%" PRIx64 ": %s", pfn,
		      err_name(err));
		write_file(ALLOW_RAM, "0");
		return end();
	}
	check(!memcmp(q, want, PG),
	      "allow_ram=1: the mapping of pfn 0x%" PRIx64 " shows the oracle page",
	      pfn);

	memset(got, 0, PG);
	n = self_mem(0, q, got, PG, &err);
	check(n == (ssize_t)PG && !memcmp(got, want, PG),
	      "/proc/self/mem read of 4096 bytes of the RAM mapping -> %zd %s, %s",
	      n, err_name(err), memcmp(got, want, PG) ? "bytes differ" :
	      "bytes exact");
	fill(w, sizeof(w), 9);
	n = self_mem(1, q + 0x123, w, sizeof(w), &err);
	memcpy(want + 0x123, w, sizeof(w));
	check(n == (ssize_t)sizeof(w) &&
	      !memcmp((const void *)shared, want, PG),
	      "/proc/self/mem write of 48 bytes at +0x123 -> %zd %s, the page %s",
	      n, err_name(err), memcmp((const void *)shared, want, PG) ?
	      "differs" : "holds them, nothing else changed");
	memcpy(want, (const void *)shared, PG);
	n = self_mem(1, r + 0x200, w, 8, &err);
	check(n < 0 && err == EIO && !memcmp((const void *)shared, want, PG),
	      "/proc/self/mem write to the read-only mapping is refused -> %s, the page unchanged",
	      n < 0 ? err_name(err) : "written");
	access_ptrace(pfn, shared);
	munmap(q, PG);
	munmap(r, PG);
	close(fd);
	write_file(ALLOW_RAM, "0");

	/* the non-RAM path (generic_access_phys()) works as before */
	fd = open(DEV, O_RDWR);
	q = fd < 0 ? NULL : pmap(fd, hidden, PG, PROT_READ | PROT_WRITE,
				 &err);
	if (!q) {
		check(0, "map the hidden memory 0x%" PRIx64 ": %s", hidden,
		      err_name(err));
	} else {
		fill(want, 64, 3);
		memcpy(q, want, 64);
		n = self_mem(0, q, got, 64, &err);
		check(n == 64 && !memcmp(got, want, 64),
		      "/proc/self/mem read of the hidden (non-RAM) mapping -> %zd %s",
		      n, err_name(err));
		munmap(q, PG);
	}
	if (fd >= 0)
		close(fd);
	munmap((void *)shared, PG);
	return end();
}

/* ---- soak ------------------------------------------------------------ */

#define SOAK_SHARED_FDS	4
#define SOAK_SLOTS	3	/* live mappings per process at most */
#define SOAK_MAX_PROCS	16

struct soak_proc {
	unsigned long maps, unmaps, moves, split_refusals, bytes, errors;
	unsigned long applied[PFNMAP_CACHE_UNKNOWN + 1];	/* own files */
	char last_error[160];
};

struct soak_state {
	volatile int stop;
	struct soak_proc proc[SOAK_MAX_PROCS];
	unsigned long sets, set_errors;
	unsigned long rmmods, rmmod_ewouldblock, rmmod_ebusy, rmmod_other;
	int rmmod_unloaded;
};

static struct soak_state *soak;

static uint64_t rnd(uint64_t *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/* write-back last: the first three are those a BAR takes everywhere */
static const unsigned int soak_modes[] = {
	PFNMAP_CACHE_AUTO, PFNMAP_CACHE_UC, PFNMAP_CACHE_WC, PFNMAP_CACHE_WB,
};

#if defined(__aarch64__) || defined(__arm__)
#define SOAK_ARM	1
#else
#define SOAK_ARM	0
#endif

struct soak_map {
	uint8_t *p;
	size_t len;
	int fd;		/* own file, or -1 */
	uint32_t tag;
};

static void soak_error(struct soak_proc *me, const char *fmt, ...)
{
	va_list ap;

	me->errors++;
	va_start(ap, fmt);
	vsnprintf(me->last_error, sizeof(me->last_error), fmt, ap);
	va_end(ap);
}

/* A store and a load in up to 8 pages of the mapping */
static void soak_touch(struct soak_proc *me, struct soak_map *m,
		       uint64_t *s)
{
	size_t pages = m->len / PG, i, n = pages < 8 ? pages : 8, off;
	volatile uint32_t *w;

	for (i = 0; i < n; i++) {
		off = (rnd(s) % pages) * PG + (rnd(s) % (PG / 4)) * 4;
		w = (volatile uint32_t *)(m->p + off);
		*w = m->tag ^ (uint32_t)off;
		if (*w != (m->tag ^ (uint32_t)off))
			soak_error(me, "word at +0x%zx reads 0x%08x", off, *w);
		me->bytes += 4;
	}
	/* the tag stored when mapped (a touch at +0 stores it again) */
	if (*(volatile uint32_t *)m->p != m->tag)
		soak_error(me, "first word 0x%08x, want 0x%08x",
			   *(volatile uint32_t *)m->p, m->tag);
}

static void soak_unmap(struct soak_proc *me, struct soak_map *m)
{
	if (munmap(m->p, m->len))
		soak_error(me, "munmap: %s", strerror(errno));
	if (m->fd >= 0)
		close(m->fd);
	m->p = NULL;
	me->unmaps++;
}

/*
 * One mapper: SOAK_SLOTS slots, each a disjoint part of this process's
 * slice, so that no two live mappings overlap (PAT would rightly refuse
 * conflicting cache types, and say so in dmesg); every round fills an
 * empty slot or empties a full one, sometimes moving the mapping
 * (mremap: vm_ops->open) or trying a partial munmap (refused) first.
 */
static int soak_mapper(int id, const int *shared_fds, uint64_t base[2],
		       size_t slice[2], int targets)
{
	struct soak_proc *me = &soak->proc[id];
	struct soak_map map[SOAK_SLOTS] = { { 0 } };
	uint64_t s = 0x9e3779b97f4a7c15ULL * (uint64_t)(id + 1) ^
		     (uint64_t)time(NULL);
	size_t part, pages, off, len;
	unsigned int k, t, round = 0;
	uint64_t phys;
	void *p, *spot;
	int fd, err, own;

	while (!soak->stop) {
		k = rnd(&s) % SOAK_SLOTS;
		round++;
		if (map[k].p) {
			soak_touch(me, &map[k], &s);
			if (rnd(&s) % 4 == 0) {
				len = map[k].len;
				spot = mmap(NULL, len, PROT_NONE,
					    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
				p = spot == MAP_FAILED ? MAP_FAILED :
				    mremap(map[k].p, len, len,
					   MREMAP_MAYMOVE | MREMAP_FIXED, spot);
				if (p == MAP_FAILED) {
					soak_error(me, "mremap: %s",
						   strerror(errno));
					if (spot != MAP_FAILED)
						munmap(spot, len);
				} else {
					map[k].p = p;
					me->moves++;
					soak_touch(me, &map[k], &s);
				}
			}
			if (map[k].len > PG && rnd(&s) % 8 == 0) {
				err = munmap(map[k].p + PG, PG) ? errno : 0;
				if (err != EINVAL)
					soak_error(me, "partial munmap -> %s",
						   err_name(err));
				else
					me->split_refusals++;
			}
			soak_unmap(me, &map[k]);
			continue;
		}
		t = targets > 1 ? rnd(&s) % targets : 0;
		/*
		 * ARM refuses write-back on a BAR: its mappings there go
		 * through own files with the other types
		 */
		own = SOAK_ARM && t == 1;
		part = slice[t] / SOAK_SLOTS / PG;
		pages = 1 + rnd(&s) % (part < 64 ? part : 64);
		off = rnd(&s) % (part - pages + 1);
		phys = base[t] + (uint64_t)id * slice[t] +
		       (uint64_t)k * part * PG + off * PG;
		len = pages * PG;
		if (!own && rnd(&s) % 2) {
			fd = shared_fds[rnd(&s) % SOAK_SHARED_FDS];
			map[k].fd = -1;
		} else {
			fd = open(DEV, O_RDWR);
			if (fd < 0) {
				soak_error(me, "open: %s", strerror(errno));
				continue;
			}
			err = set_cache(fd, soak_modes[rnd(&s) % (own ? 3 : 4)]);
			if (err)
				soak_error(me, "SET_CACHE: %s", err_name(err));
			map[k].fd = fd;
		}
		map[k].p = pmap(fd, phys, len, PROT_READ | PROT_WRITE, &err);
		if (!map[k].p) {
			soak_error(me, "mmap 0x%" PRIx64 "+0x%zx: %s", phys,
				   len, err_name(err));
			if (map[k].fd >= 0)
				close(map[k].fd);
			continue;
		}
		if (map[k].fd >= 0) {
			struct pfnmap_info pi;

			if (ioctl(fd, PFNMAP_IOC_GET_INFO, &pi) ||
			    pi.applied_cache > PFNMAP_CACHE_UNKNOWN)
				soak_error(me, "GET_INFO after mmap");
			else
				me->applied[pi.applied_cache]++;
		}
		map[k].len = len;
		map[k].tag = (uint32_t)id << 24 ^ round;
		*(volatile uint32_t *)map[k].p = map[k].tag;
		me->maps++;
		soak_touch(me, &map[k], &s);
	}
	for (k = 0; k < SOAK_SLOTS; k++)
		if (map[k].p)
			soak_unmap(me, &map[k]);
	return 0;
}

/* Keeps changing the cache type of the files the mappers share */
static int soak_setter(const int *shared_fds)
{
	uint64_t s = 0x1234567ULL ^ (uint64_t)time(NULL);
	struct pfnmap_info pi;

	while (!soak->stop) {
		if (set_cache(shared_fds[rnd(&s) % SOAK_SHARED_FDS],
			      soak_modes[rnd(&s) % 4]))
			soak->set_errors++;
		if (ioctl(shared_fds[rnd(&s) % SOAK_SHARED_FDS],
			  PFNMAP_IOC_GET_INFO, &pi))
			soak->set_errors++;
		soak->sets++;
		sched_yield();
	}
	return 0;
}

/* rmmod in a loop: it must fail while anything holds the helper */
static int soak_rmmod(void)
{
	struct timespec ts = { 0, 2000000 };

	while (!soak->stop) {
		if (!syscall(SYS_delete_module, "pfnmap", O_NONBLOCK)) {
			soak->rmmod_unloaded = 1;
			return 1;
		}
		if (errno == EWOULDBLOCK)
			soak->rmmod_ewouldblock++;
		else if (errno == EBUSY)
			soak->rmmod_ebusy++;
		else
			soak->rmmod_other++;
		soak->rmmods++;
		nanosleep(&ts, NULL);
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int soak_run(unsigned int seconds, int procs, uint64_t hidden,
		    size_t hsize, uint64_t ivshmem, size_t isize)
{
	uint64_t base[2] = { hidden, ivshmem };
	size_t slice[2];
	int shared_fds[SOAK_SHARED_FDS], i, status, targets = ivshmem ? 2 : 1;
	unsigned long maps = 0, unmaps = 0, moves = 0, splits = 0, errors = 0;
	unsigned long bytes = 0, applied[PFNMAP_CACHE_UNKNOWN + 1] = { 0 };
	pid_t pid, kids = 0;
	unsigned int c;
	int bad_exit = 0;
	double t0, t;

	if (procs < 1 || procs > SOAK_MAX_PROCS) {
		check(0, "soak: %d processes (1 to %d)", procs, SOAK_MAX_PROCS);
		return end();
	}
	slice[0] = hsize / procs / (SOAK_SLOTS * PG) * (SOAK_SLOTS * PG);
	slice[1] = isize / procs / (SOAK_SLOTS * PG) * (SOAK_SLOTS * PG);
	if (slice[0] < SOAK_SLOTS * PG || (ivshmem && slice[1] < SOAK_SLOTS * PG)) {
		check(0, "soak: ranges too small for %d processes", procs);
		return end();
	}
	soak = mmap(NULL, sizeof(*soak), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (soak == MAP_FAILED) {
		check(0, "soak: state: %s", strerror(errno));
		return end();
	}
	memset(soak, 0, sizeof(*soak));
	for (i = 0; i < SOAK_SHARED_FDS; i++) {
		shared_fds[i] = open(DEV, O_RDWR);
		if (shared_fds[i] < 0) {
			check(0, "soak: open %s: %s", DEV, strerror(errno));
			return end();
		}
	}
	t0 = now();
	for (i = 0; i < procs + 2; i++) {
		pid = fork();
		if (pid == 0) {
			if (i < procs)
				_exit(soak_mapper(i, shared_fds, base, slice,
						  targets));
			_exit(i == procs ? soak_setter(shared_fds) :
			      soak_rmmod());
		}
		if (pid < 0)
			bad_exit++;
		else
			kids++;
	}
	while ((t = now() - t0) < seconds && !soak->rmmod_unloaded)
		usleep(100000);
	soak->stop = 1;
	while ((pid = wait(&status)) > 0) {
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			bad_exit++;
			info("soak: process %d ended with status %#x",
			     (int)pid, status);
		}
	}
	t = now() - t0;
	for (i = 0; i < SOAK_SHARED_FDS; i++)
		close(shared_fds[i]);
	for (i = 0; i < procs; i++) {
		maps += soak->proc[i].maps;
		unmaps += soak->proc[i].unmaps;
		moves += soak->proc[i].moves;
		splits += soak->proc[i].split_refusals;
		bytes += soak->proc[i].bytes;
		errors += soak->proc[i].errors;
		for (c = 0; c <= PFNMAP_CACHE_UNKNOWN; c++)
			applied[c] += soak->proc[i].applied[c];
		if (soak->proc[i].errors)
			info("soak: mapper %d: %lu errors, the last: %s", i,
			     soak->proc[i].errors, soak->proc[i].last_error);
	}
	info("soak: %d mappers for %.1f s: %lu maps (%.0f/s), %lu unmaps, %lu mremap moves, %lu "
	     "partial munmaps refused, %lu words stored and loaded", procs, t, maps, maps / t,
	     unmaps, moves, splits, bytes / 4);
	info("soak: maps on their own files, by the type the kernel applied: uc %lu, wc %lu, wb %lu, other %lu",
	     applied[PFNMAP_CACHE_UC], applied[PFNMAP_CACHE_WC],
	     applied[PFNMAP_CACHE_WB], applied[PFNMAP_CACHE_AUTO] +
	     applied[PFNMAP_CACHE_WT] + applied[PFNMAP_CACHE_WP] +
	     applied[PFNMAP_CACHE_UNKNOWN]);
	info("soak: %lu cache-type changes on %d shared files, %lu rmmod attempts (%lu "
	     "EWOULDBLOCK, %lu EBUSY, %lu other)", soak->sets, SOAK_SHARED_FDS, soak->rmmods,
	     soak->rmmod_ewouldblock, soak->rmmod_ebusy, soak->rmmod_other);
	printf("SOAK-FIGURES procs=%d seconds=%.1f maps=%lu maps_per_s=%.0f moves=%lu sets=%lu "
	       "rmmods=%lu\n", procs, t, maps, maps / t, moves, soak->sets, soak->rmmods);
	check(kids == procs + 2 && !bad_exit,
	      "soak: %d mappers, the cache-type setter and the rmmod loop all ran and ended cleanly",
	      procs);
	check(t >= seconds, "soak: ran %.1f s (want at least %u)", t, seconds);
	check(maps > 0 && maps == unmaps && !errors,
	      "soak: %lu maps, as many unmaps, no failed mmap, mremap, touch or munmap (%lu errors)",
	      maps, errors);
	check(applied[PFNMAP_CACHE_UC] && applied[PFNMAP_CACHE_WC] &&
	      applied[PFNMAP_CACHE_WB],
	      "soak: the kernel applied uc, wc and wb (%lu, %lu, %lu maps on own files)",
	      applied[PFNMAP_CACHE_UC], applied[PFNMAP_CACHE_WC],
	      applied[PFNMAP_CACHE_WB]);
	check(moves > 0 && splits > 0,
	      "soak: mappings moved by mremap (%lu) and partial munmaps refused (%lu)",
	      moves, splits);
	check(soak->sets > 0 && !soak->set_errors,
	      "soak: %lu cache-type changes and info reads on shared files, %lu failed",
	      soak->sets, soak->set_errors);
	check(soak->rmmods > 0 && !soak->rmmod_unloaded &&
	      soak->rmmod_ewouldblock + soak->rmmod_ebusy == soak->rmmods,
	      "soak: every one of %lu rmmod attempts was refused (EWOULDBLOCK or EBUSY)%s",
	      soak->rmmods, soak->rmmod_unloaded ?
	      "; the helper WAS UNLOADED while in use" : "");
	return end();
}

int main(int argc, char **argv)
{
	if ((argc == 4 || (argc == 5 && !strcmp(argv[4], "move"))) &&
	    !strcmp(argv[1], "hold"))
		return hold(strtoull(argv[2], NULL, 0),
			    strtoull(argv[3], NULL, 0), argc == 5);
	if (argc == 4 && !strcmp(argv[1], "map"))
		return map_once(strtoull(argv[2], NULL, 0),
				strtoull(argv[3], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "access"))
		return access_tests(strtoull(argv[2], NULL, 0));
	if (argc == 8 && !strcmp(argv[1], "soak"))
		return soak_run(strtoul(argv[2], NULL, 0),
				(int)strtol(argv[3], NULL, 0),
				strtoull(argv[4], NULL, 0),
				strtoull(argv[5], NULL, 0),
				strtoull(argv[6], NULL, 0),
				strtoull(argv[7], NULL, 0));
	fprintf(stderr,
		"usage: %s hold PHYS SIZE [move] | map PHYS SIZE | access HIDDEN | soak SECONDS "
		"PROCS HIDDEN HSIZE IVSHMEM ISIZE\n", argv[0]);
	return 2;
}

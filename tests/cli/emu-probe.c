// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the runner of the tests' binaries (qemu-i386 in a 32-bit build on a
 * host without IA32 emulation) can do, found out without pfnmap: run.sh
 * runs this under the same runner, and skips the tests that need what it
 * lacks. A bug of pfnmap's own then fails those tests wherever the runner
 * is fine, instead of being taken for the emulator's.
 *
 *   emu-probe high DIR     mmap an 8 GiB sparse file DIR/high at offset
 *                          0x180000000 and read the marker written there
 *   emu-probe sigbus DIR   touch the page beyond the end of a 12 KiB file
 *                          DIR/short mapped 16 KiB long: SIGBUS, with
 *                          si_addr the address touched
 *
 * Exit status: 0 the runner does it right; 1 it does not (stdout says
 * what happened); 2 the probe itself could not run (stderr says why).
 * Built like pfnmap: with _FILE_OFFSET_BITS=64 (a 64-bit off_t), in the
 * 32-bit build too.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096

static int fail(const char *what, const char *path)
{
	fprintf(stderr, "emu-probe: %s %s: %s\n", what, path, strerror(errno));
	return 2;
}

static int plant(int fd, const char *path, const char *marker, off_t where)
{
	if (pwrite(fd, marker, 4, where) != 4)
		return fail("pwrite", path);
	return 0;
}

/* An offset that the low 32 bits alone would turn into the LOW marker's */
static int probe_high(const char *dir)
{
	static const off_t low = 0x80000000, high = 0x180000000;
	char path[4096], got[5] = "";
	unsigned char *p;
	int fd, rc;

	_Static_assert(sizeof(off_t) == 8, "built without _FILE_OFFSET_BITS=64");
	snprintf(path, sizeof(path), "%s/high", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return fail("open", path);
	if (ftruncate(fd, (off_t)8 << 30))
		return fail("ftruncate", path);
	rc = plant(fd, path, "LOW!", low);
	if (!rc)
		rc = plant(fd, path, "HIGH", high);
	if (rc)
		return rc;
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, high);
	if (p == MAP_FAILED) {
		printf("mmap at offset 0x%llx failed: %s\n",
		       (unsigned long long)high, strerror(errno));
		return 1;
	}
	memcpy(got, p, 4);
	if (memcmp(got, "HIGH", 4)) {
		printf("mmap offset 0x%llx read \"%.4s\"%s\n",
		       (unsigned long long)high, got, memcmp(got, "LOW!", 4) ?
		       "" : ", the bytes at 0x80000000");
		return 1;
	}
	return 0;
}

static sigjmp_buf env;
static void *volatile fault_addr;
static volatile sig_atomic_t faulted;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	fault_addr = si->si_addr;
	faulted = 1;
	siglongjmp(env, 1);
}

static int probe_sigbus(const char *dir)
{
	struct sigaction sa;
	char path[4096];
	volatile unsigned char *p, *want;
	unsigned char sink;
	int fd;

	snprintf(path, sizeof(path), "%s/short", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return fail("open", path);
	if (ftruncate(fd, 3 * PAGE))
		return fail("ftruncate", path);
	p = mmap(NULL, 4 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return fail("mmap", path);
	want = p + 3 * PAGE;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, NULL))
		return fail("sigaction", "SIGBUS");
	if (!sigsetjmp(env, 1)) {
		sink = *want;
		printf("reading beyond the end of the file gave 0x%02x, no SIGBUS\n",
		       sink);
		return 1;
	}
	if (!faulted || fault_addr != (void *)want) {
		printf("SIGBUS at %p, si_addr %p\n", (void *)want, fault_addr);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "high"))
		return probe_high(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "sigbus"))
		return probe_sigbus(argv[2]);
	fprintf(stderr, "usage: emu-probe high|sigbus DIR\n");
	return 2;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tracing hook of lib/access.c (ACCESS_TRACE) for pfnmap-traced, a
 * pfnmap whose exact-width accesses can be seen on the host: with
 * PFNMAP_ACCESS_TRACE=FILE each io_read and io_write appends a line
 *
 *	load|store BITS OFFSET VALUE
 *
 * OFFSET being where in the mapped file the access falls (from
 * /proc/self/maps, read again each time: windows come and go, and a new
 * one may take an old one's address). A bulk copy makes no line, so a
 * test tells the exact-width path from memcpy, the width and the order.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void access_trace(const volatile void *p, unsigned int width, int store,
		  uint64_t val);

/* The file offset of address a, or -1 when no file mapping holds it */
static long long file_offset(uintptr_t a)
{
	unsigned long long start, end, off;
	long long r = -1;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return -1;
	while (r < 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx %*s %llx", &start, &end, &off) == 3 &&
		    a >= start && a < end && strchr(line, '/'))
			r = (long long)(a - start + off);
	}
	fclose(f);
	return r;
}

void access_trace(const volatile void *p, unsigned int width, int store,
		  uint64_t val)
{
	static int fd = -2;
	long long off = file_offset((uintptr_t)p);
	char line[96];
	int n;

	if (fd == -2) {
		const char *path = getenv("PFNMAP_ACCESS_TRACE");

		fd = path ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
				 0644) : -1;
	}
	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%s %u %s0x%llx 0x%0*" PRIx64 "\n",
		     store ? "store" : "load", 8 * width, off < 0 ? "anon " : "",
		     off < 0 ? 0ULL : (unsigned long long)off, (int)(2 * width),
		     val);
	if (write(fd, line, (size_t)n) != n)
		abort();	/* a lost line would pass for a missing access */
}

// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A region becomes page-aligned windows over the target; each window is
 * walked with the bus-error guard armed, so that a SIGBUS or SIGSEGV while
 * touching it ends in a message with the physical address, not a core dump.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "target.h"

static sigjmp_buf guard_env;
static volatile sig_atomic_t guard_armed;
static void *volatile fault_addr;
static volatile int fault_sig;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (!guard_armed) {
		signal(sig, SIG_DFL);
		return;
	}
	fault_addr = si->si_addr;
	fault_sig = sig;
	siglongjmp(guard_env, 1);
}

static void guard_install(void)
{
	static bool installed;
	struct sigaction sa;

	if (installed)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	installed = true;
}

static int report_fault(const struct window *w)
{
	unsigned char *a = fault_addr, *b = w->base;
	const char *what = fault_sig == SIGBUS ? "bus error" : "fault";

	if (a >= b && a < b + w->maplen)
		err("%s at physical 0x%llx", what,
		    (unsigned long long)(w->map_phys + (uint64_t)(a - b)));
	else
		err("%s at physical 0x%llx-0x%llx (outside the mapping at %p)",
		    what, (unsigned long long)w->phys,
		    (unsigned long long)(w->phys + w->len - 1), (void *)a);
	return EXIT_FAULT;
}

static int guarded(struct window *w, window_fn fn, salvage_fn salvage,
		   void *ctx)
{
	int r;

	guard_install();
	if (sigsetjmp(guard_env, 1)) {
		guard_armed = 0;
		if (salvage)
			salvage(ctx);
		return report_fault(w);
	}
	guard_armed = 1;
	r = fn(w, ctx);
	guard_armed = 0;
	return r;
}

const char *applied_name(enum pfnmap_cache c)
{
	switch (c) {
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
	default:
		return "unknown";
	}
}

/* What the target applied: the helper says; for a file, what was asked */
static enum pfnmap_cache applied_cache(struct target *t)
{
	if (t->helper && !helper_info(t) &&
	    (t->info.flags & PFNMAP_INFO_MAPPED))
		return t->info.applied_cache;
	if (t->helper)
		return PFNMAP_CACHE_UNKNOWN;
	switch (t->cache) {
	case CACHE_UC:
		return PFNMAP_CACHE_UC;
	case CACHE_WC:
		return PFNMAP_CACHE_WC;
	case CACHE_WB:
		return PFNMAP_CACHE_WB;
	default:
		/* a file is page cache; a device file may be MMIO */
		return t->regular ? PFNMAP_CACHE_WB : PFNMAP_CACHE_UC;
	}
}

static int window_map(struct target *t, uint64_t phys, size_t len,
		      struct window *w)
{
	uint64_t mask = (1ULL << t->page_shift) - 1;
	int prot = PROT_READ | (t->writable ? PROT_WRITE : 0);

	w->phys = phys;
	w->len = len;
	w->map_phys = phys & ~mask;
	w->maplen = (size_t)(((phys + (len - 1)) | mask) - w->map_phys + 1);
	w->base = mmap(NULL, w->maplen, prot, MAP_SHARED | MAP_POPULATE, t->fd,
		       (off_t)(w->map_phys - t->file_base));
	if (w->base == MAP_FAILED)
		return explain_mmap_error(t, errno, w->map_phys, w->maplen);
	w->p = (unsigned char *)w->base + (phys - w->map_phys);
	w->applied = applied_cache(t);
	w->exact = w->applied != PFNMAP_CACHE_WB;
	return 0;
}

int for_each_window_salvage(struct target *t, uint64_t start, uint64_t size,
			    window_fn fn, salvage_fn salvage, void *ctx)
{
	uint64_t pos = start, last = start + (size - 1);
	unsigned int bits = t->helper ? t->info.phys_bits : 64;
	int r = 0;

	/* refused as a whole, before any window of it is mapped */
	if (bits < 64 && last >> bits)
		return explain_mmap_error(t, ERANGE, start, size);

	while (!r) {
		uint64_t wend = (pos | (WINDOW_SIZE - 1)) < last ?
				(pos | (WINDOW_SIZE - 1)) : last;
		struct window w;

		r = window_map(t, pos, (size_t)(wend - pos + 1), &w);
		if (r)
			break;
		r = guarded(&w, fn, salvage, ctx);
		munmap(w.base, w.maplen);
		if (wend == last)
			break;
		pos = wend + 1;
	}
	return r;
}

int for_each_window(struct target *t, uint64_t start, uint64_t size,
		    window_fn fn, void *ctx)
{
	return for_each_window_salvage(t, start, size, fn, NULL, ctx);
}

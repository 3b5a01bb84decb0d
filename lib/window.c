// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The mmap backend (window.h): windows over an extent, the bus-error
 * guard, and the one place that chooses between exact-width and bulk
 * access.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "access.h"
#include "count.h"
#include "window.h"

static sigjmp_buf guard_env;
static volatile sig_atomic_t guard_armed;
static void *volatile fault_addr;
static volatile int fault_sig;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (!guard_armed) {
		/* not ours: the default action, when the access is retried */
		signal(sig, SIG_DFL);
		return;
	}
	guard_armed = 0;
	fault_addr = si->si_addr;
	fault_sig = sig;
	siglongjmp(guard_env, 1);
}

/* SA_NODEFER: leaving the handler by siglongjmp leaves no signal blocked */
void window_guard_install(void)
{
	static bool installed;
	struct sigaction sa;

	if (installed)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	installed = true;
}

/* Where the fault hit, from the window it hit in; EXIT_FAULT */
static int fault_caught(struct mapping *m)
{
	unsigned char *a = fault_addr;

	m->faulted = true;
	m->fault_sig = fault_sig;
	m->fault_addr = fault_addr;
	m->fault_inside = a >= m->base && a < m->base + m->maplen;
	if (m->fault_inside)
		m->fault_phys = m->map_phys + (uint64_t)(a - m->base);
	return EXIT_FAULT;
}


static void unmap_window(struct mapping *m)
{
	if (m->base)
		munmap(m->base, m->maplen);
	m->base = NULL;
	m->maplen = 0;
}

/* The windows a session keeps, one per target's descriptor */
#define KEPT_WINDOWS	16
struct pf_kept_windows {
	unsigned int n;
	struct kept_window {
		int fd;
		unsigned char *base;
		size_t maplen;
		uint64_t map_phys;
	} w[KEPT_WINDOWS];
};

/* The session's table; NULL when it keeps none (or has no memory for it) */
static struct pf_kept_windows *kept_windows(struct pf_session *s)
{
	if (s->keep && !s->windows)
		s->windows = calloc(1, sizeof(*s->windows));
	return s->keep ? s->windows : NULL;
}

static struct kept_window *kept_window(struct pf_kept_windows *kw, int fd)
{
	unsigned int i;

	for (i = 0; kw && i < kw->n; i++)
		if (kw->w[i].fd == fd)
			return &kw->w[i];
	return NULL;
}

/* m's window, kept for the next mapping through its target */
static void keep_window(struct mapping *m, struct pf_kept_windows *kw)
{
	struct kept_window *k = kept_window(kw, m->t->fd);

	if (!k && kw->n == KEPT_WINDOWS) {
		unmap_window(m);
		return;
	}
	if (!k)
		k = &kw->w[kw->n++];
	else if (k->base)
		munmap(k->base, k->maplen);
	k->fd = m->t->fd;
	k->base = m->base;
	k->maplen = m->maplen;
	k->map_phys = m->map_phys;
	m->base = NULL;
	m->maplen = 0;
}

/* A kept window over [phys, last] (page-aligned) becomes m's */
static bool reuse_window(struct mapping *m, uint64_t phys, uint64_t last)
{
	struct kept_window *k = kept_window(kept_windows(m->s), m->t->fd);

	if (!k || !k->base || phys < k->map_phys ||
	    last - k->map_phys >= k->maplen)
		return false;
	m->base = k->base;
	m->maplen = k->maplen;
	m->map_phys = k->map_phys;
	k->base = NULL;
	return true;
}

void window_release_all(struct pf_session *s)
{
	struct pf_kept_windows *kw = s->windows;

	while (kw && kw->n) {
		kw->n--;
		if (kw->w[kw->n].base)
			munmap(kw->w[kw->n].base, kw->w[kw->n].maplen);
	}
	free(kw);
	s->windows = NULL;
}

static void window_end(struct mapping *m, int r)
{
	const char *what = m->fault_sig == SIGBUS ? "bus error" : "fault";
	struct pf_kept_windows *kw = kept_windows(m->s);

	if (r == EXIT_FAULT && m->faulted && m->fault_inside)
		report_error(m->s, "%s at physical 0x%llx", what,
			     (unsigned long long)m->fault_phys);
	else if (r == EXIT_FAULT && m->faulted)
		report_error(m->s, "%s at physical 0x%llx-0x%llx (outside the mapping at %p)",
			     what, (unsigned long long)m->map_phys,
			     (unsigned long long)(m->map_phys + m->maplen - 1), m->fault_addr);
	if (kw && m->base && target_kept(m->t))
		keep_window(m, kw);
	else
		unmap_window(m);
}

/*
 * 32-bit ARM has no 64-bit access that the bus is promised to see as one:
 * LDRD may reach the device as two 32-bit accesses (QEMU's does), which
 * write a 64-bit register as two halves, the upper one perhaps ignored,
 * and LDREXD/STREXD, the only single-copy atomic pair, are exclusives that
 * Device memory need not support. An exact 64-bit access is refused there
 * rather than done in two; memory mapped write-back and regular files,
 * where no bus sees it, are no concern.
 */
static bool no_single_64(const struct mapping *m, enum pfnmap_cache applied)
{
#ifdef __arm__
	if (m->width != 8 || applied == PFNMAP_CACHE_WB ||
	    (!m->t->helper && m->t->regular))
		return false;
	report_error(m->s,
		     "%s: --width=64 on %s memory: a 32-bit ARM CPU has no 64-bit access that the "
		     "device is sure to see as one (LDRD may arrive as two 32-bit accesses); use "
		     "--width=32, or the arm64 build on an arm64 kernel", m->cmd,
		     cache_name(applied));
	return true;
#else
	(void)m;
	(void)applied;
	return false;
#endif
}

/* The first window decides for the extent; later ones must agree */
static int settle(struct mapping *m, bool store)
{
	enum pfnmap_cache applied = target_applied(m->t);
	const char *words;

	if (m->settled && applied == m->applied)
		return 0;
	if (m->settled) {
		report_error(m->s,
			     "%s: the kernel mapped the start of '%s' %s but 0x%llx on %s; split "
			     "the region where the cache type changes (see pfnmap info)", m->cmd,
			     m->x->text, cache_name(m->applied), (unsigned long long)m->map_phys,
			     cache_name(applied));
		return EXIT_REFUSED;
	}
	m->settled = true;
	m->applied = applied;
	m->exact = applied != PFNMAP_CACHE_WB || m->whole;
	words = m->t->helper ? cache_arch_words(applied) : "";
	if (!m->exact) {
		report_info(m->s, "%s: %s %s%s: %s", m->cmd, target_applied_who(m->t),
			    cache_name(applied), words, m->single ? "one access" : "bulk copies");
		return 0;
	}
	report_info(m->s, "%s: %s %s%s: %u-bit %s", m->cmd, target_applied_who(m->t),
		    cache_name(applied), words, 8 * m->width,
		    m->whole ? "loads and stores" : store ? "stores" : "loads");
	if (no_single_64(m, applied))
		return EXIT_USAGE;
	return check_width_aligned(m->s, m->cmd, m->x, m->width,
				   m->whole ? "its accesses" :
				   store ? "uncached stores" : "uncached loads");
}

/* The extent as a whole must lie within the CPU's physical address bits */
static int check_reach(struct mapping *m)
{
	unsigned int bits = target_phys_bits(m->t);
	uint64_t last = m->x->start + (m->x->size - 1);

	if (bits < 64 && last >> bits)
		return target_mmap_error(m->t, ERANGE, m->x->start, m->x->size);
	return 0;
}

/* [first, last], both ends on page boundaries, mapped as m's window */
static int map_range(struct mapping *m, uint64_t first, uint64_t last)
{
	uint64_t len = last - first + 1;
	int prot = PROT_READ | (m->t->writable ? PROT_WRITE : 0);
	void *base;

	if (len > SIZE_MAX)
		return target_mmap_error(m->t, ENOMEM, first, len);
	m->map_phys = first;
	m->maplen = (size_t)len;
	base = mmap(NULL, m->maplen, prot, MAP_SHARED | MAP_POPULATE, m->t->fd,
		    (off_t)(first - m->t->file_base));
	if (base == MAP_FAILED) {
		m->maplen = 0;
		return target_mmap_error(m->t, errno, first, len);
	}
	m->base = base;
	return 0;
}

/*
 * The whole 64 MiB window around phys that the extent holds, not only its
 * part from phys on: copy walks an overlap backwards, and would otherwise
 * map (and populate) most of a window again for every piece
 */
static int map_window(struct mapping *m, uint64_t phys, bool store)
{
	uint64_t mask = (1ULL << page_shift()) - 1;
	uint64_t last = m->x->start + (m->x->size - 1);
	uint64_t wstart = phys & ~(WINDOW_SIZE - 1);
	uint64_t wend = phys | (WINDOW_SIZE - 1);
	int r;

	if (!m->settled && check_reach(m))
		return EXIT_REFUSED;
	if (wstart < m->x->start)
		wstart = m->x->start;
	if (wend > last)
		wend = last;
	unmap_window(m);
	if (reuse_window(m, wstart & ~mask, wend | mask))
		return settle(m, store);
	r = map_range(m, wstart & ~mask, wend | mask);
	return r ? r : settle(m, store);
}

/*
 * The address of phys in a window, mapping it when needed, and how many
 * bytes from there the window and the extent still hold
 */
static int window_at(struct mapping *m, uint64_t phys, bool store,
		     unsigned char **p, size_t *avail)
{
	uint64_t last = m->x->start + (m->x->size - 1), wlast;
	int r;

	if (!m->base || phys < m->map_phys ||
	    phys - m->map_phys >= m->maplen) {
		r = map_window(m, phys, store);
		if (r)
			return r;
	}
	wlast = m->map_phys + (m->maplen - 1);
	*p = m->base + (phys - m->map_phys);
	*avail = (size_t)((wlast < last ? wlast : last) - phys + 1);
	return 0;
}

enum touch_kind {
	COPY_FROM, COPY_TO, FILL, READ_ONE, WRITE_ONE, HAND_OVER, TAKE_IN
};

/* One access to a window: what, where, and with which bytes */
struct touch {
	enum touch_kind kind;
	unsigned char *p;		/* in the window */
	unsigned char *buf;		/* COPY_FROM, COPY_TO */
	size_t n;
	uint64_t value;			/* FILL, READ_ONE, WRITE_ONE */
	struct sink *s;			/* HAND_OVER */
	int r;				/* HAND_OVER: what the sink said */
	struct source *src;		/* TAKE_IN */
	ssize_t got;			/* TAKE_IN: what the source said */
};

/* The one place that picks exact-width or bulk access */
static void do_touch(const struct mapping *m, struct touch *t)
{
	unsigned int w = m->width;

	switch (t->kind) {
	case COPY_FROM:
		if (m->exact) {
			io_copy_from(t->buf, t->p, t->n, w);
			break;
		}
		/*
		 * a faulting page is reported at its first byte asked for, not
		 * where memcpy happens to start reading it
		 */
		(void)*(const volatile unsigned char *)t->p;
		memcpy(t->buf, t->p, t->n);
		break;
	case COPY_TO:
		if (m->exact)
			io_copy_to(t->p, t->buf, t->n, w);
		else
			memcpy(t->p, t->buf, t->n);
		break;
	case FILL:
		if (m->exact)
			io_fill(t->p, t->value, t->n, w);
		else
			bulk_fill(t->p, t->value, t->n, w);
		break;
	case READ_ONE:
		t->value = io_read(t->p, w);
		break;
	case WRITE_ONE:
		io_write(t->p, t->value, w);
		break;
	case HAND_OVER:
		/* a fault at the start is reported there; write(2) gets EFAULT */
		(void)*(const volatile unsigned char *)t->p;
		t->r = t->s->put_in_place(t->s, t->p, t->n);
		break;
	case TAKE_IN:
		/* read(2) fails with EFAULT where the kernel cannot write */
		t->got = t->src->take(t->src, t->p, t->n);
		break;
	}
}

/*
 * do_touch with the bus-error guard armed: 0, or EXIT_FAULT with the fault
 * in m. sigsetjmp without the signal mask: no system call per access.
 */
static int guarded(struct mapping *m, struct touch *t)
{
	if (sigsetjmp(guard_env, 0))
		return fault_caught(m);
	guard_armed = 1;
	do_touch(m, t);
	guard_armed = 0;
	return 0;
}

/* One piece through the bounce buffer: whole to the sink, or not at all */
static int read_piece(struct mapping *m, struct sink *s, unsigned char *p,
		      size_t n)
{
	struct touch t = { .kind = COPY_FROM, .p = p, .buf = m->bounce, .n = n };
	int r = guarded(m, &t);

	return r ? r : s->put(s, m->bounce, n);
}

/* Write-back memory in place; *n: how much the sink took */
static int read_direct(struct mapping *m, struct sink *s, unsigned char *p,
		       size_t avail, size_t *n)
{
	struct touch t = { .kind = HAND_OVER, .p = p, .n = avail, .s = s };
	int r = guarded(m, &t);

	*n = t.r == SINK_EFAULT ? s->taken : avail;
	return r ? r : t.r;
}

static int window_read(struct mapping *m, struct sink *s)
{
	uint64_t phys = m->x->start, end = m->x->start + (m->x->size - 1);
	uint64_t pieces_to = 0;		/* after an EFAULT: pieces up to here */
	unsigned char *p;
	size_t avail, n;
	int r;

	for (;;) {
		r = window_at(m, phys, false, &p, &avail);
		if (r)
			return r;
		if (!m->exact && s->put_in_place && phys >= pieces_to) {
			r = read_direct(m, s, p, avail, &n);
			if (r == SINK_EFAULT)
				pieces_to = phys + avail;
		} else {
			n = PIECE - (size_t)(phys & (PIECE - 1));
			n = n < avail ? n : avail;
			r = read_piece(m, s, p, n);
		}
		if (r && r != SINK_EFAULT)
			return r;
		progress_advance(n);
		if (n && phys + (n - 1) == end)
			return 0;
		phys += n;
	}
}

static int window_read_at(struct mapping *m, uint64_t off, void *dst,
			  size_t len)
{
	struct touch t = { .kind = COPY_FROM };
	size_t done, avail;
	int r;

	for (done = 0; done < len; done += t.n) {
		r = window_at(m, m->x->start + off + done, false, &t.p, &avail);
		if (r)
			return r;
		t.n = len - done < avail ? len - done : avail;
		t.buf = (unsigned char *)dst + done;
		r = guarded(m, &t);
		if (r)
			return r;
	}
	return 0;
}

static int window_write(struct mapping *m, uint64_t off, const void *src,
			size_t len, size_t *done)
{
	struct touch t = { .kind = COPY_TO };
	size_t avail;
	int r;

	*done = 0;
	while (*done < len) {
		r = window_at(m, m->x->start + off + *done, true, &t.p, &avail);
		if (r)
			return r;
		t.n = len - *done < avail ? len - *done : avail;
		if (m->exact)
			t.n -= t.n % m->width;	/* whole units only */
		if (!t.n)
			return 0;
		t.buf = (unsigned char *)src + *done;
		r = guarded(m, &t);
		if (r)
			return r;
		*done += t.n;
	}
	return 0;
}

static int window_write_in_place(struct mapping *m, uint64_t off,
				 size_t len, struct source *src, size_t *done)
{
	struct touch t = { .kind = TAKE_IN, .src = src };
	size_t avail;
	int r;

	*done = 0;
	while (*done < len) {
		r = window_at(m, m->x->start + off + *done, true, &t.p, &avail);
		if (r)
			return r;
		if (m->exact)
			return MAP_NOT_IN_PLACE;
		t.n = len - *done < avail ? len - *done : avail;
		r = guarded(m, &t);
		if (r)
			return r;
		if (t.got < 0)
			return -1;
		*done += (size_t)t.got;
		if (src->efault)
			return MAP_NOT_IN_PLACE;
		if ((size_t)t.got < t.n)
			return 0;
	}
	return 0;
}

/* A multiple of every width */
#define EXACT_FILL_STEP	(1U << 20)

static int window_fill(struct mapping *m, uint64_t value)
{
	struct touch t = { .kind = FILL, .value = value };
	uint64_t off;
	int r;

	for (off = 0; off < m->x->size; off += t.n) {
		r = window_at(m, m->x->start + off, true, &t.p, &t.n);
		/* exact-width stores may be slow: progress counts a MiB each */
		if (!r && m->exact && t.n > EXACT_FILL_STEP)
			t.n = EXACT_FILL_STEP;
		if (!r)
			r = guarded(m, &t);
		if (r)
			return r;
		progress_advance(t.n);
	}
	return 0;
}

/* One access of the mapping's width at the extent's start */
static int one_value(struct mapping *m, struct touch *t)
{
	size_t avail;
	int r;

	m->single = true;
	r = window_at(m, m->x->start, t->kind == WRITE_ONE, &t->p, &avail);
	return r ? r : guarded(m, t);
}

static int window_read_value(struct mapping *m, uint64_t *value)
{
	struct touch t = { .kind = READ_ONE };
	int r;

	r = one_value(m, &t);

	*value = t.value;
	return r;
}

static int window_write_value(struct mapping *m, uint64_t value)
{
	struct touch t = { .kind = WRITE_ONE, .value = value };

	return one_value(m, &t);
}

/*
 * The whole extent in one mapping, for memtest: its address-bus test
 * walks offsets up to the region's size, so every byte must be mapped at
 * once. An extent larger than the address space left fails in mmap.
 */
static int map_all(struct mapping *m)
{
	uint64_t mask = (1ULL << page_shift()) - 1;
	uint64_t last = m->x->start + (m->x->size - 1);
	int r;

	if (check_reach(m))
		return EXIT_REFUSED;
	r = map_range(m, m->x->start & ~mask, last | mask);
	return r ? r : settle(m, true);
}

static int window_whole(struct mapping *m,
			int (*fn)(void *ctx, volatile void *p), void *ctx,
			int *ret)
{
	volatile void *p;
	int r;

	m->whole = true;
	r = map_all(m);
	if (r)
		return r;
	p = m->base + (m->x->start - m->map_phys);
	if (sigsetjmp(guard_env, 0))
		return fault_caught(m);
	guard_armed = 1;
	*ret = fn(ctx, p);
	guard_armed = 0;
	return 0;
}

const struct backend window_backend = {
	.read = window_read,
	.read_at = window_read_at,
	.write = window_write,
	.write_in_place = window_write_in_place,
	.fill = window_fill,
	.whole = window_whole,
	.read_value = window_read_value,
	.write_value = window_write_value,
	.end = window_end,
};

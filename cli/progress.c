// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The progress line (progress.h). Sizes and rates in binary units (KiB,
 * MiB, GiB: the units of the region grammar), the rate averaged since the
 * start of the job, the time left at that rate.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

#define MS		1000000ULL	/* in ns */
#define DELAY		(1000 * MS)	/* before the first line */
#define TTY_INTERVAL	(250 * MS)	/* between lines on a terminal */
#define LOG_INTERVAL	(1000 * MS)	/* between lines elsewhere */
#define MIN_STRIDE	4096ULL		/* bytes between two clock reads */
#define MAX_STRIDE	(64ULL << 20)


static struct {
	bool active;
	bool tty;		/* standard error is a terminal */
	bool stdout_tty;	/* and standard output is one too */
	bool shown;		/* tty: a line is on the terminal now */
	bool printed;		/* not a tty: a line was printed */
	const char *label;
	uint64_t total;
	uint64_t start_ns, due_ns, interval_ns;
	uint64_t checked_ns, checked_done;	/* the last clock read */
	uint64_t drawn_done;	/* done on the last line */
	uint64_t stride;
	unsigned int cols;	/* the terminal's width; 0 unknown */
} pg;

/* CLOCK_MONOTONIC: a vDSO call, no system call */
static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t (*progress_now)(void) = monotonic_ns;

/* PFNMAP_PROGRESS_DELAY_MS (tests): the delay; anything but a number: 1s */
static uint64_t delay_ns(void)
{
	const char *e = getenv("PFNMAP_PROGRESS_DELAY_MS");
	unsigned long ms;
	char *end;

	if (!e || *e < '0' || *e > '9')
		return DELAY;
	errno = 0;
	ms = strtoul(e, &end, 10);
	if (*end || errno || ms > 3600 * 1000UL)
		return DELAY;
	return ms * MS;
}

static unsigned int term_cols(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) || !ws.ws_col)
		return 0;
	return ws.ws_col;
}

static bool wanted(const struct options *o)
{
	if (o->dry_run || o->progress == PROGRESS_OFF)
		return false;
	pg.tty = isatty(STDERR_FILENO);
	return o->progress == PROGRESS_ON || (pg.tty && !o->quiet);
}

void progress_start(const struct options *o, uint64_t total,
		    const char *label)
{
	uint64_t delay;

	progress_end();
	if (!total || !wanted(o))
		return;
	delay = delay_ns();
	pg.active = true;
	pg.stdout_tty = pg.tty && isatty(STDOUT_FILENO);
	pg.shown = pg.printed = false;
	pg.label = label;
	pg.total = total;
	pg.cols = pg.tty ? term_cols() : 0;
	pg.interval_ns = pg.tty ? TTY_INTERVAL : LOG_INTERVAL;
	/* a shorter delay (tests) shortens the interval too; 0: every step */
	if (pg.interval_ns > delay)
		pg.interval_ns = delay;
	pg.start_ns = pg.checked_ns = progress_now();
	pg.due_ns = pg.start_ns + delay;
	pg.checked_done = pg.drawn_done = 0;
	pg.stride = pg.interval_ns ? 16 * MIN_STRIDE : 0;
	progress_count.done = 0;
	progress_count.check_at = pg.stride;
	progress_due = progress_check;
}

/* v bytes as "512 B", "1.50 KiB", "12.3 MiB", "768 GiB" */
static void human(char *buf, size_t size, double v)
{
	static const char *const unit[] = {
		"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB",
	};
	unsigned int u = 0;

	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	if (!u)
		snprintf(buf, size, "%.0f B", v);
	else
		snprintf(buf, size, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s",
			 v, unit[u]);
}

/* Seconds as M:SS or H:MM:SS; --:-- when not known */
static void eta(char *buf, size_t size, double s)
{
	unsigned long long t;

	if (s < 0 || s > 1e8) {
		snprintf(buf, size, "--:--");
		return;
	}
	t = (unsigned long long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, size, "%llu:%02llu:%02llu", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, size, "%llu:%02llu", t / 60, t % 60);
}

/* Best effort: a progress line that cannot be written is no failure */
static void put_err(const char *s, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(STDERR_FILENO, s, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

int progress_format(char *buf, size_t size, const char *label,
		    uint64_t done, uint64_t total, double secs)
{
	double rate = secs > 0 ? (double)done / secs : 0;
	char d[16], t[16], r[16], left[32];

	human(d, sizeof(d), (double)done);
	human(t, sizeof(t), (double)total);
	human(r, sizeof(r), rate);
	eta(left, sizeof(left), rate > 0 ? (double)(total - done) / rate : -1);
	return snprintf(buf, size, "pfnmap: %s: %s of %s (%u%%), %s/s, %s left",
			label, d, t, (unsigned int)(100.0 * (double)done / (double)total), r, left);
}

static void draw(uint64_t now)
{
	uint64_t done = progress_count.done < pg.total ? progress_count.done
						       : pg.total;
	char line[160];
	int n = pg.tty;		/* after the \r */

	line[0] = '\r';
	n += progress_format(line + n, sizeof(line) - 4 - (size_t)n, pg.label,
			     done, pg.total,
			     (double)(now - pg.start_ns) / 1e9);
	if (n < (int)pg.tty || (size_t)n >= sizeof(line) - 4)
		n = (int)sizeof(line) - 5;
	/* a line longer than the terminal would wrap and never be redrawn */
	if (pg.cols && (unsigned int)n > pg.cols)
		n = (int)pg.cols;
	/* on a terminal what is left of the last line is cleared */
	memcpy(line + n, pg.tty ? "\033[K" : "\n", pg.tty ? 4 : 2);
	put_err(line, strlen(line));
	pg.shown = pg.tty;
	pg.printed = !pg.tty;
	pg.drawn_done = progress_count.done;
}

/*
 * The next clock read after what the rate since the last one moves in a
 * quarter of the interval: a line comes at most that late
 */
static void retune(uint64_t now)
{
	uint64_t dt = now - pg.checked_ns;
	uint64_t db = progress_count.done - pg.checked_done;
	double s;

	if (!pg.interval_ns)
		return;
	s = dt ? (double)db * (double)(pg.interval_ns / 4) / (double)dt
	       : 2.0 * (double)pg.stride;
	pg.stride = s < MIN_STRIDE ? MIN_STRIDE :
		    s > MAX_STRIDE ? MAX_STRIDE : (uint64_t)s;
	pg.checked_ns = now;
	pg.checked_done = progress_count.done;
}

void progress_check(void)
{
	uint64_t now;

	if (!pg.active) {
		progress_count.check_at = UINT64_MAX;
		return;
	}
	now = progress_now();
	retune(now);
	progress_count.check_at = progress_count.done + pg.stride;
	if (now < pg.due_ns)
		return;
	draw(now);
	pg.due_ns = now + pg.interval_ns;
}

void progress_clear(void)
{
	if (!pg.shown)
		return;
	put_err("\r\033[K", 4);
	pg.shown = false;
}

void progress_before_stdout(void)
{
	if (pg.stdout_tty)
		progress_clear();
}

void progress_end(void)
{
	if (!pg.active)
		return;
	if (pg.tty)
		progress_clear();
	else if (pg.printed && pg.drawn_done != progress_count.done)
		draw(progress_now());
	pg.active = false;
	progress_count.done = 0;
	progress_count.check_at = UINT64_MAX;
}

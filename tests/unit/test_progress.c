// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The progress line (cli/progress.c): its text for known counts and times
 * (units, digits, percentage, rate, time left), and on a pseudo-terminal
 * the bytes it writes: drawn with \r and ESC [ K, taken away before a
 * message so that the message starts its own line, drawn again, cleared at
 * the end; none without a terminal unless --progress, and then plain lines.
 * On a fake clock (progress_now): when lines come, their rates, and the
 * stride between clock reads, which the CLI tests (no delay) never retune.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/poll.h>	/* <poll.h> is lib/poll.h here */
#include <termios.h>
#include <unistd.h>
#include <cmocka.h>

#include "msg.h"
#include "progress.h"

#define KIB	1024ULL
#define MIB	(1024 * KIB)
#define GIB	(1024 * MIB)

static void line_is(uint64_t done, uint64_t total, double secs,
		    const char *want)
{
	char buf[160];

	progress_format(buf, sizeof(buf), "dump", done, total, secs);
	assert_string_equal(buf, want);
}

static void test_format(void **state)
{
	(void)state;
	line_is(0, 1023, 0, "pfnmap: dump: 0 B of 1023 B (0%), 0 B/s, --:-- left");
	line_is(0, 1024, 0.5, "pfnmap: dump: 0 B of 1.00 KiB (0%), 0 B/s, --:-- left");
	/* 1.5 GiB in 2.5 s: 614.4 MiB/s, 14.5 GiB left: 24.17 s */
	line_is(3 * GIB / 2, 16 * GIB, 2.5,
		"pfnmap: dump: 1.50 GiB of 16.0 GiB (9%), 614 MiB/s, 0:24 left");
	line_is(10 * KIB, 100 * MIB, 1,
		"pfnmap: dump: 10.0 KiB of 100 MiB (0%), 10.0 KiB/s, 2:50:39 left");
	line_is(MIB, 10 * GIB, 1,
		"pfnmap: dump: 1.00 MiB of 10.0 GiB (0%), 1.00 MiB/s, 2:50:39 left");
	line_is(999 * MIB, 1000 * MIB, 9.99,
		"pfnmap: dump: 999 MiB of 1000 MiB (99%), 100 MiB/s, 0:00 left");
	line_is(4 * GIB, 4 * GIB, 4,
		"pfnmap: dump: 4.00 GiB of 4.00 GiB (100%), 1.00 GiB/s, 0:00 left");
	line_is(5 * 1024 * GIB, 16 * 1024 * GIB, 100,
		"pfnmap: dump: 5.00 TiB of 16.0 TiB (31%), 51.2 GiB/s, 3:40 left");
	line_is(1, 2, 1e9, "pfnmap: dump: 1 B of 2 B (50%), 0 B/s, --:-- left");
}

static int pty_master = -1;
static int saved_stderr = -1;

static void restore_stderr(void);

/* stderr a pseudo-terminal that changes nothing of what is written */
static int pty_setup(void **state)
{
	struct termios t;
	int slave;

	(void)state;
	pty_master = posix_openpt(O_RDWR | O_NOCTTY);
	if (pty_master < 0 || grantpt(pty_master) || unlockpt(pty_master))
		return -1;
	slave = open(ptsname(pty_master), O_RDWR | O_NOCTTY);
	if (slave < 0 || tcgetattr(slave, &t))
		return -1;
	cfmakeraw(&t);
	if (tcsetattr(slave, TCSANOW, &t))
		return -1;
	fflush(stderr);
	saved_stderr = dup(STDERR_FILENO);
	if (saved_stderr < 0 || dup2(slave, STDERR_FILENO) < 0)
		return -1;
	close(slave);
	return 0;
}

static int pty_teardown(void **state)
{
	(void)state;
	restore_stderr();
	close(saved_stderr);
	close(pty_master);
	return 0;
}

/* Standard error back where it was, so that cmocka's failures show */
static void restore_stderr(void)
{
	fflush(stderr);
	dup2(saved_stderr, STDERR_FILENO);
}

#define END	"<end>"

/*
 * What fd (the terminal, a pipe) got, with each rate and time left (the
 * clock's) replaced by R and T unless exact (a fake clock's are known).
 * A pty passes the bytes on later, not in write(2): an end mark written
 * after them is waited for (5 s at most).
 */
static void got_text(int fd, char *buf, size_t size, bool exact)
{
	char raw[4096], *p, *q, *o = buf;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t len = 0;
	ssize_t n;

	assert_int_equal(write(STDERR_FILENO, END, strlen(END)), strlen(END));
	raw[0] = 0;
	while (!strstr(raw, END) && len < sizeof(raw) - 1 &&
	       poll(&pfd, 1, 5000) == 1) {
		n = read(fd, raw + len, sizeof(raw) - 1 - len);
		if (n <= 0)
			break;
		len += (size_t)n;
		raw[len] = 0;
	}
	p = strstr(raw, END);
	if (!p) {
		restore_stderr();
		fail_msg("no end mark after %s", raw);
	}
	*p = 0;
	if (exact) {
		snprintf(buf, size, "%s", raw);
		return;
	}
	for (p = raw; (q = strstr(p, "%), ")) && strstr(q, " left");
	     p = strstr(q, " left"))
		o += snprintf(o, size - (size_t)(o - buf), "%.*s%%), R, T", (int)(q - p), p);
	snprintf(o, size - (size_t)(o - buf), "%s", p);
}

static void got(int fd, char *buf, size_t size)
{
	got_text(fd, buf, size, false);
}

/* A job of total bytes done in one step */
static void one_job(const struct options *o, uint64_t total,
		    const char *label)
{
	progress_start(o, total, label);
	progress_advance(total);
	progress_end();
}

static void test_tty(void **state)
{
	struct options o = { .progress = PROGRESS_AUTO };
	char buf[4096], buf2[4096];

	(void)state;
	setenv("PFNMAP_PROGRESS_DELAY_MS", "0", 1);
	progress_start(&o, 8 * KIB, "sum");
	progress_advance(4 * KIB);
	pf_error("a message");
	progress_advance(KIB);
	progress_advance(3 * KIB);
	progress_end();
	pf_error("after the end");
	got(pty_master, buf, sizeof(buf));
	/* -q: none; --progress overrides it */
	o.quiet = true;
	one_job(&o, 4 * KIB, "sum");
	o.progress = PROGRESS_ON;
	one_job(&o, 4 * KIB, "sum");
	got(pty_master, buf2, sizeof(buf2));
	restore_stderr();
	assert_string_equal(buf,
		"\rpfnmap: sum: 4.00 KiB of 8.00 KiB (50%), R, T left\033[K"
		"\r\033[Kpfnmap: a message\n"
		"\rpfnmap: sum: 5.00 KiB of 8.00 KiB (62%), R, T left\033[K"
		"\rpfnmap: sum: 8.00 KiB of 8.00 KiB (100%), R, T left\033[K"
		"\r\033[K"
		"pfnmap: after the end\n");
	assert_string_equal(buf2,
			    "\rpfnmap: sum: 4.00 KiB of 4.00 KiB (100%), R, T left\033[K\r\033[K");
}

/* Within the first second (the real delay): nothing for a short job */
static void test_delay(void **state)
{
	struct options o = { .progress = PROGRESS_AUTO };
	char buf[4096];

	(void)state;
	unsetenv("PFNMAP_PROGRESS_DELAY_MS");
	progress_start(&o, 8 * MIB, "sum");
	progress_advance(8 * MIB);
	pf_error("a message");
	progress_end();
	got(pty_master, buf, sizeof(buf));
	restore_stderr();
	assert_string_equal(buf, "pfnmap: a message\n");
}

/* Standard error a pipe: nothing, unless --progress: lines, no \r */
static void test_pipe(void **state)
{
	struct options o = { .progress = PROGRESS_AUTO };
	char buf[4096];
	int fd[2];

	(void)state;
	setenv("PFNMAP_PROGRESS_DELAY_MS", "0", 1);
	assert_int_equal(pipe(fd), 0);
	fflush(stderr);
	saved_stderr = dup(STDERR_FILENO);
	dup2(fd[1], STDERR_FILENO);
	close(fd[1]);
	one_job(&o, 8 * KIB, "copy");
	o.progress = PROGRESS_ON;
	progress_start(&o, 8 * KIB, "copy");
	progress_advance(4 * KIB);
	pf_error("a message");
	progress_advance(4 * KIB);
	progress_end();
	got(fd[0], buf, sizeof(buf));
	restore_stderr();
	close(saved_stderr);
	close(fd[0]);
	assert_string_equal(buf,
		"pfnmap: copy: 4.00 KiB of 8.00 KiB (50%), R, T left\n"
		"pfnmap: a message\n"
		"pfnmap: copy: 8.00 KiB of 8.00 KiB (100%), R, T left\n");
}

/*
 * A fake clock from here on: no line before the delay, one exactly when
 * it is due and then one an interval after the last, the rate and time
 * left since the start; and the stride, the bytes between two clock
 * reads, what the rate since the last read moves in a quarter of the
 * interval, 4 KiB to 64 MiB. T0 is not 0: the times are from the start.
 */
#define MS	1000000ULL
#define T0	(1000000 * MS)

static uint64_t fake_ns;
static uint64_t (*real_now)(void);

static uint64_t fake_now(void)
{
	return fake_ns;
}

static int pipe_rd = -1;

/* stderr a pipe, the clock fake */
static int fake_setup(void **state)
{
	int fd[2];

	(void)state;
	if (pipe(fd))
		return -1;
	fflush(stderr);
	saved_stderr = dup(STDERR_FILENO);
	if (saved_stderr < 0 || dup2(fd[1], STDERR_FILENO) < 0)
		return -1;
	close(fd[1]);
	pipe_rd = fd[0];
	real_now = progress_now;
	progress_now = fake_now;
	return 0;
}

static int fake_teardown(void **state)
{
	(void)state;
	progress_end();
	progress_now = real_now;
	restore_stderr();
	close(saved_stderr);
	close(pipe_rd);
	return 0;
}

/* ms after T0, bytes more done */
static void at(uint64_t ms, uint64_t bytes)
{
	fake_ns = T0 + ms * MS;
	progress_advance(bytes);
}

/* The clock is read again stride bytes after now */
static void stride_is(uint64_t stride)
{
	uint64_t got = progress_count.check_at - progress_count.done;

	if (got != stride) {
		restore_stderr();
		fail_msg("done %llu: stride %llu, not %llu",
			 (unsigned long long)progress_count.done,
			 (unsigned long long)got, (unsigned long long)stride);
	}
}

/* Not a terminal, --progress: a line a second, so a quarter is 250 ms */
static void test_retune(void **state)
{
	struct options o = { .progress = PROGRESS_ON };
	char buf[4096];

	(void)state;
	unsetenv("PFNMAP_PROGRESS_DELAY_MS");
	fake_ns = T0;
	progress_start(&o, 64 * GIB, "dump");
	stride_is(64 * KIB);
	at(125, 64 * KIB);		/* 64 KiB in 125 ms: 128 KiB in 250 */
	stride_is(128 * KIB);
	at(125, 128 * KIB);		/* no time passed: twice the stride */
	stride_is(256 * KIB);
	at(126, 256 * KIB);		/* 256 KiB in 1 ms: 62.5 MiB in 250 */
	stride_is(64000 * KIB);
	at(127, 64000 * KIB);		/* 15.3 GiB in 250 ms: at most 64 MiB */
	stride_is(64 * MIB);
	at(1000000000, 64 * MIB);	/* 17 B in 250 ms: at least 4 KiB */
	stride_is(4 * KIB);
	progress_end();
	got_text(pipe_rd, buf, sizeof(buf), true);
	restore_stderr();
	/* one line: the last step was the first after the delay */
	assert_string_equal(buf,
		"pfnmap: dump: 127 MiB of 64.0 GiB (0%), 133 B/s, --:-- left\n");
}

/*
 * A delay of 2 s, and a line a second after it: steps of 64 MiB, the
 * stride's most, so that each one reads the clock
 */
static void test_lines(void **state)
{
	struct options o = { .progress = PROGRESS_ON };
	char buf[4096];

	(void)state;
	setenv("PFNMAP_PROGRESS_DELAY_MS", "2000", 1);
	fake_ns = T0;
	progress_start(&o, GIB, "dump");
	at(1000, 64 * MIB);
	at(1999, 64 * MIB);
	at(2000, 64 * MIB);		/* due */
	at(2999, 64 * MIB);
	at(3000, 64 * MIB);		/* due again */
	at(3500, 64 * MIB);
	fake_ns = T0 + 3600 * MS;	/* the end: a last line for 3500's */
	progress_end();
	got_text(pipe_rd, buf, sizeof(buf), true);
	restore_stderr();
	assert_string_equal(buf,
		"pfnmap: dump: 192 MiB of 1.00 GiB (18%), 96.0 MiB/s, 0:09 left\n"
		"pfnmap: dump: 320 MiB of 1.00 GiB (31%), 107 MiB/s, 0:07 left\n"
		"pfnmap: dump: 384 MiB of 1.00 GiB (37%), 107 MiB/s, 0:06 left\n");
}

static int pty_fake_setup(void **state)
{
	real_now = progress_now;
	progress_now = fake_now;
	return pty_setup(state);
}

static int pty_fake_teardown(void **state)
{
	progress_end();
	progress_now = real_now;
	return pty_teardown(state);
}

/* On a terminal the default delay, 1 s, then a line every 250 ms */
static void test_tty_lines(void **state)
{
	struct options o = { .progress = PROGRESS_AUTO };
	char buf[4096];

	(void)state;
	unsetenv("PFNMAP_PROGRESS_DELAY_MS");
	fake_ns = T0;
	progress_start(&o, GIB, "dump");
	at(999, 64 * MIB);
	at(1000, 64 * MIB);		/* due */
	at(1249, 64 * MIB);
	at(1250, 64 * MIB);		/* due again */
	progress_end();
	got_text(pty_master, buf, sizeof(buf), true);
	restore_stderr();
	assert_string_equal(buf,
		"\rpfnmap: dump: 128 MiB of 1.00 GiB (12%), 128 MiB/s, 0:07 left\033[K"
		"\rpfnmap: dump: 256 MiB of 1.00 GiB (25%), 205 MiB/s, 0:04 left\033[K"
		"\r\033[K");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format),
		cmocka_unit_test_setup_teardown(test_tty, pty_setup, pty_teardown),
		cmocka_unit_test_setup_teardown(test_delay, pty_setup, pty_teardown),
		cmocka_unit_test(test_pipe),
		cmocka_unit_test_setup_teardown(test_retune, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_lines, fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(test_tty_lines, pty_fake_setup,
						pty_fake_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

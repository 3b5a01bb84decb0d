/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest programs' report lines (tests/vm/probe.c, tests/vm/hotplug.c),
 * which the guest scripts turn into TAP lines: "PASS: ...", "FAIL: ...",
 * "SKIP: ...", "INFO: ..." and a last "END: N checks, F failed". Each
 * program includes this once; what one of them does not call is marked
 * unused rather than warned about.
 */
#ifndef PFNMAP_GUEST_REPORT_H
#define PFNMAP_GUEST_REPORT_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define GUEST_UNUSED __attribute__((unused))

static int failures;
static int checks;	/* PASS, FAIL and SKIP lines printed */

static void report(const char *tag, const char *fmt, va_list ap)
{
	printf("%s: ", tag);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
}

static GUEST_UNUSED __attribute__((format(printf, 1, 2)))
void pass(const char *fmt, ...)
{
	va_list ap;

	checks++;
	va_start(ap, fmt);
	report("PASS", fmt, ap);
	va_end(ap);
}

static GUEST_UNUSED __attribute__((format(printf, 1, 2)))
void fail(const char *fmt, ...)
{
	va_list ap;

	checks++;
	failures++;
	va_start(ap, fmt);
	report("FAIL", fmt, ap);
	va_end(ap);
}

static GUEST_UNUSED __attribute__((format(printf, 1, 2)))
void skip(const char *fmt, ...)
{
	va_list ap;

	checks++;
	va_start(ap, fmt);
	report("SKIP", fmt, ap);
	va_end(ap);
}

static GUEST_UNUSED __attribute__((format(printf, 1, 2)))
void info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("INFO", fmt, ap);
	va_end(ap);
}

static GUEST_UNUSED __attribute__((format(printf, 2, 3)))
void check(int ok, const char *fmt, ...)
{
	va_list ap;

	checks++;
	if (!ok)
		failures++;
	va_start(ap, fmt);
	report(ok ? "PASS" : "FAIL", fmt, ap);
	va_end(ap);
}

/* The last line: what the guest script must have seen */
static GUEST_UNUSED int end(void)
{
	printf("END: %d checks, %d failed\n", checks, failures);
	fflush(stdout);
	return failures ? 1 : 0;
}

static GUEST_UNUSED const char *err_name(int e)
{
	switch (e) {
	case 0: return "success";
	case EINVAL: return "EINVAL";
	case EACCES: return "EACCES";
	case EOVERFLOW: return "EOVERFLOW";
	case ERANGE: return "ERANGE";
	case EPERM: return "EPERM";
	case EXDEV: return "EXDEV";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EBUSY: return "EBUSY";
	case EAGAIN: return "EAGAIN";
	case ENOTTY: return "ENOTTY";
	case ENOMEM: return "ENOMEM";
	case EFBIG: return "EFBIG";
	case EADDRINUSE: return "EADDRINUSE";
	case EIO: return "EIO";
	case EFAULT: return "EFAULT";
	default: return strerror(e);
	}
}

#endif

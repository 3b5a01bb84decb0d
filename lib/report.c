// SPDX-License-Identifier: GPL-2.0-or-later
/* The core's messages: formatted once, handed to the application. */
#include <stdarg.h>
#include <stdio.h>

#include "session.h"

static void vreport(struct pf_session *s, enum pf_level level,
		    const char *fmt, va_list ap)
{
	char line[sizeof(s->error)];

	vsnprintf(line, sizeof(line), fmt, ap);
	if (level == PF_ERROR)
		snprintf(s->error, sizeof(s->error), "%s", line);
	if (s->report)
		s->report(s, level, line);
}

void report_error(struct pf_session *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(s, PF_ERROR, fmt, ap);
	va_end(ap);
}

void report_warn(struct pf_session *s, const char *fmt, ...)
{
	va_list ap;

	if (s->set.quiet)
		return;
	va_start(ap, fmt);
	vreport(s, PF_WARN, fmt, ap);
	va_end(ap);
}

void report_info(struct pf_session *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->set.verbose)
		return;
	va_start(ap, fmt);
	vreport(s, PF_INFO, fmt, ap);
	va_end(ap);
}

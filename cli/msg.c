// SPDX-License-Identifier: GPL-2.0-or-later
/* Messages on stderr: one line each, "pfnmap: " first. */
#include <stdarg.h>
#include <stdio.h>

#include "msg.h"

bool msg_quiet;
int msg_verbose;

static void vmsg(const char *fmt, va_list ap)
{
	char line[1024];

	vsnprintf(line, sizeof(line), fmt, ap);
	fprintf(stderr, "pfnmap: %s\n", line);
}

void pf_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void pf_warn(const char *fmt, ...)
{
	va_list ap;

	if (msg_quiet)
		return;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void pf_info(const char *fmt, ...)
{
	va_list ap;

	if (!msg_verbose)
		return;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

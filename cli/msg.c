// SPDX-License-Identifier: GPL-2.0-or-later
/* Messages on stderr: one line each, "pfnmap: " first. */
#include <stdarg.h>
#include <stdio.h>

#include "pfnmap.h"

const char *cache_names[] = {
	[CACHE_AUTO] = "auto",
	[CACHE_UC] = "uc",
	[CACHE_WC] = "wc",
	[CACHE_WB] = "wb",
};

static void vmsg(const char *fmt, va_list ap)
{
	char line[1024];

	vsnprintf(line, sizeof(line), fmt, ap);
	fprintf(stderr, "pfnmap: %s\n", line);
}

void err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void note(const struct options *o, const char *fmt, ...)
{
	va_list ap;

	if (!o->verbose)
		return;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

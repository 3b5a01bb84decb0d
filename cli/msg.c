// SPDX-License-Identifier: GPL-2.0-or-later
/* Messages on stderr: one line each, "pfnmap: " first. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "msg.h"
#include "progress.h"

bool msg_quiet;
int msg_verbose;

/* batch's check of a line: its first error only; no warning, no info */
static bool checking, check_said;
const char *msg_prefix = "";
unsigned int msg_line;

/*
 * Messages quote what the user typed, file names and devices' names: a
 * newline or a terminal escape in them must neither split the line nor
 * reach the terminal. Control bytes are written as \xNN.
 */
static void vmsg(const char *fmt, va_list ap)
{
	char line[1024], out[4 * sizeof(line)], *o = out;
	const unsigned char *p;
	int n = msg_line ? snprintf(line, sizeof(line), "%s:%u: ", msg_prefix, msg_line)
			 : snprintf(line, sizeof(line), "%s", msg_prefix);

	if (n < 0 || (size_t)n >= sizeof(line))
		n = 0;
	vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	for (p = (const unsigned char *)line; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			o += sprintf(o, "\\x%02x", *p);
		else
			*o++ = (char)*p;
	}
	*o = 0;
	/* never in the middle of the progress line */
	progress_clear();
	fprintf(stderr, "pfnmap: %s\n", out);
}

/* A line the core formatted, said as the CLI's own of its level */
void msg_report(struct pf_session *s, enum pf_level level, const char *line)
{
	(void)s;
	if (level == PF_ERROR)
		pf_error("%s", line);
	else if (level == PF_WARN)
		pf_warn("%s", line);
	else
		pf_info("%s", line);
}

void msg_check_begin(void)
{
	checking = true;
	check_said = false;
}

bool msg_check_end(void)
{
	checking = false;
	return check_said;
}

void msg_fatal(struct pf_session *s)
{
	(void)s;
	exit(EXIT_FAIL);
}

void pf_error(const char *fmt, ...)
{
	va_list ap;

	if (checking && check_said)
		return;
	check_said = checking;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void pf_warn(const char *fmt, ...)
{
	va_list ap;

	if (msg_quiet || checking)
		return;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void pf_info(const char *fmt, ...)
{
	va_list ap;

	if (!msg_verbose || checking)
		return;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Messages on standard error: one line each, "pfnmap: " first. Named so
 * that they do not shadow err(3) and warn(3).
 */
#ifndef PFNMAP_MSG_H
#define PFNMAP_MSG_H

#include <stdbool.h>

#include "session.h"

/* -q and -v, set once by main() */
extern bool msg_quiet;
extern int msg_verbose;
/*
 * Put after "pfnmap: ": msg_prefix as it is, or, while msg_line is not 0,
 * "msg_prefix:msg_line: " (batch's FILE:N: while line N runs)
 */
extern const char *msg_prefix;
extern unsigned int msg_line;

/* Always printed: the reason a command fails */
void pf_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Printed unless -q */
void pf_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Printed with -v only */
void pf_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * batch's check of a line: from begin to end only its first error is
 * said, no warning and no info; end tells whether an error was said
 */
void msg_check_begin(void);
bool msg_check_end(void);

/* A session's report and fatal callbacks: the core's messages, its end */
void msg_report(struct pf_session *s, enum pf_level level, const char *line);
void msg_fatal(struct pf_session *s) __attribute__((noreturn));

#endif

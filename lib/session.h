/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A session: the core's context, as libpci's struct pci_access is. It
 * holds how regions are reached (the access, helper and PCI settings),
 * libpci's handle, the targets and windows kept open when keep is set
 * (batch), and the application's callbacks. The core never prints, never
 * exits and never reads the command line: it returns a status and says
 * why through report(), one line without "pfnmap: ", the last error also
 * kept in error[].
 */
#ifndef PFNMAP_SESSION_H
#define PFNMAP_SESSION_H

#include <stdbool.h>

#include "uapi/pfnmap.h"
#include "status.h"

enum pf_level {
	PF_ERROR,		/* why a call fails: always reported */
	PF_WARN,		/* unless quiet */
	PF_INFO,		/* with verbose only */
};

/* How regions are reached; the CLI's access, helper and PCI options */
struct pf_settings {
	enum pfnmap_cache cache;	/* asked for; AUTO: the region decides */
	const char *device;		/* a file whose offsets are physical */
	const char *module;		/* the helper's .ko; NULL: modprobe's */
	bool no_load;			/* never load the helper */
	bool force;			/* write where a driver is bound */
	bool sysfs;			/* BARs through their resourceN files */
	bool checking;			/* resolving only: no device is read */
	bool quiet;			/* no warnings */
	int verbose;			/* 1: what is done; 2: libkmod's words */
	const char *pci_method;		/* libpci's -A */
	char *const *pci_params;	/* libpci's -O NAME=VALUE */
	unsigned int n_pci_params;
};

struct pf_pci;			/* pci.c: libpci's handle and what it read */
struct pf_kept_targets;		/* target.c */
struct pf_kept_windows;		/* window.c */

struct pf_session {
	struct pf_settings set;
	/* the application's: every message, one line, level filtered */
	void (*report)(struct pf_session *s, enum pf_level level,
		       const char *line);
	/*
	 * libpci's error callback must not return (out of memory, a method
	 * that cannot start): after report(), this ends the program
	 */
	void (*fatal)(struct pf_session *s) __attribute__((noreturn));
	void *app;			/* the application's own */
	/* targets and the last window of each stay open until released */
	bool keep;
	char error[1024];		/* the last PF_ERROR line */
	struct pf_pci *pci;
	struct pf_kept_targets *targets;
	struct pf_kept_windows *windows;
};

void report_error(struct pf_session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void report_warn(struct pf_session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void report_info(struct pf_session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* session_end() and session_release() are open.h's: the top of the core */

#endif

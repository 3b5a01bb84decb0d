/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a range is mapped through, and with which policy: the helper's
 * /dev/pfnmap, a --device file whose offsets are physical addresses, or a
 * PCI BAR's sysfs resourceN file (--sysfs). A target is opened once for a
 * command; window.h maps ranges through it.
 */
#ifndef PFNMAP_TARGET_H
#define PFNMAP_TARGET_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uapi/pfnmap.h"
#include "extent.h"
#include "session.h"

#define PFNMAP_DEV	"/dev/" PFNMAP_DEVICE_NAME

/* ABI 1's GET_INFO, before the ioctl type moved from 0xB8 to 0xB9 */
#define PFNMAP_IOC_GET_INFO_ABI1	_IOR(0xB8, 0, struct pfnmap_info)

struct target {
	struct pf_session *s;
	int fd;
	const char *path;
	bool helper;			/* /dev/pfnmap: the ioctls work */
	bool regular;			/* a regular file (--device) */
	bool writable;
	enum pfnmap_cache cache;		/* requested */
	uint64_t file_base;		/* physical address of offset 0 */
	struct pfnmap_info info;	/* helper only */
};

/* The page size's shift, the one place it is computed */
unsigned int page_shift(void);

/*
 * Opens what plan says in session s: its device file, else plan's sysfs
 * file, else the helper (loading it unless no_load)
 */
int target_open(struct pf_session *s, struct target *t,
		const struct map_plan *plan, bool write);
void target_close(struct target *t);

/*
 * A session that keeps (batch): targets stay open, one per path, flags
 * and cache type, and target_open hands out the open one again;
 * target_close leaves them open. target_release_all closes them.
 */
void target_release_all(struct pf_session *s);
/* t is one of the targets kept open */
bool target_kept(const struct target *t);

/* Physical address bits the target can reach: the helper knows the CPU's */
unsigned int target_phys_bits(const struct target *t);

/* The cache type the kernel applied to the last mapping through t */
enum pfnmap_cache target_applied(struct target *t);

/* Why an mmap of [start, start + size) failed, in words; EXIT_REFUSED */
int target_mmap_error(const struct target *t, int errnum, uint64_t start,
		      uint64_t size);

const char *cache_name(enum pfnmap_cache c);
const char *cache_arch_words(enum pfnmap_cache c);
const char *target_applied_who(const struct target *t);

#endif

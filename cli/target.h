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
#include "pfnmap.h"

#define PFNMAP_DEV	"/dev/" PFNMAP_DEVICE_NAME

/* ABI 1's GET_INFO, before the ioctl type moved from 0xB8 to 0xB9 */
#define PFNMAP_IOC_GET_INFO_ABI1	_IOR(0xB8, 0, struct pfnmap_info)

/* A PCI memory BAR, as libpci and sysfs describe it */
struct pci_bar {
	char slot[16];			/* dddd:bb:dd.f */
	unsigned int vendor, device;
	char driver[64];		/* bound driver, "" for none */
	unsigned int index;		/* N of barN */
	uint64_t start, size;
	bool is64, prefetch;
};

/* How a range is to be mapped, decided before anything is opened */
struct map_plan {
	char file[PATH_MAX + 8];	/* sysfs resourceN[_wc]; "" otherwise */
	uint64_t file_base;		/* physical address at offset 0 of file */
	enum cache_type cache;		/* asked, or what auto means here */
};

struct pci_dev;

/*
 * A region resolved: the physical bytes asked for and how to map them; or,
 * is_config, offsets into a device's configuration space, which window.h
 * accesses through libpci (config.c) instead of a mapping
 */
struct extent {
	const char *text;		/* as the user wrote it */
	uint64_t start, size;		/* size > 0, no wrap */
	bool has_size;			/* the text gave a size */
	bool is_bar;
	struct pci_bar bar;		/* is_bar; is_config: slot, driver */
	bool is_config;
	struct pci_dev *config_dev;	/* is_config only */
	uint64_t config_size;		/* is_config: 256 or 4096 */
	struct map_plan plan;
};

struct target {
	int fd;
	const char *path;
	bool helper;			/* /dev/pfnmap: the ioctls work */
	bool regular;			/* a regular file (--device) */
	bool writable;
	enum cache_type cache;		/* requested */
	uint64_t file_base;		/* physical address of offset 0 */
	struct pfnmap_info info;	/* helper only */
};

/* The page size's shift, the one place it is computed */
unsigned int page_shift(void);

/* Opens what plan says (the helper, loading it; --device; sysfs file) */
int target_open(struct target *t, const struct options *o,
		const struct map_plan *plan, bool write);
void target_close(struct target *t);

/*
 * batch: targets stay open, one per path, flags and cache type, and
 * target_open hands out the open one again; target_close leaves them open.
 * target_release_all closes them.
 */
extern bool target_keep;
void target_release_all(void);
/* t is one of the targets kept open */
bool target_kept(const struct target *t);

/* Physical address bits the target can reach: the helper knows the CPU's */
unsigned int target_phys_bits(const struct target *t);

/* The cache type the kernel applied to the last mapping through t */
enum pfnmap_cache target_applied(struct target *t);

/* Why an mmap of [start, start + size) failed, in words; EXIT_REFUSED */
int target_mmap_error(const struct target *t, int errnum, uint64_t start,
		      uint64_t size);

const char *applied_name(enum pfnmap_cache c);
const char *cache_arch_words(enum pfnmap_cache c);
const char *target_applied_who(const struct target *t);

#endif

/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * pfnmap: the ABI of /dev/pfnmap, shared by the helper module and the CLI.
 *
 * mmap(2) on /dev/pfnmap with offset = physical address maps that range;
 * the kernel sees vm_pgoff = PFN. Only MAP_SHARED, never PROT_EXEC.
 * Every struct here has the same layout for 32- and 64-bit processes.
 */
#ifndef _UAPI_LINUX_PFNMAP_H
#define _UAPI_LINUX_PFNMAP_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define PFNMAP_ABI_VERSION	2
#define PFNMAP_DEVICE_NAME	"pfnmap"

/* Cache types, per open file (PFNMAP_IOC_SET_CACHE) */
enum pfnmap_cache {
	PFNMAP_CACHE_AUTO = 0,	/* as /dev/mem: write-back unless PAT/MTRR say otherwise */
	PFNMAP_CACHE_UC = 1,	/* uncached: pgprot_noncached(), UC- on x86 (pfnmap(4)) */
	PFNMAP_CACHE_WC = 2,	/* write-combining */
	PFNMAP_CACHE_WB = 3,	/* write-back */
	PFNMAP_CACHE_WT = 4,	/* write-through: reported only, never requested */
	PFNMAP_CACHE_WP = 5,	/* write-protect: reported only */
	PFNMAP_CACHE_UC_STRONG = 6,	/* x86 strong UC: reported only */
	PFNMAP_CACHE_UNKNOWN = 15,
};

/* pfnmap_info.policy */
#define PFNMAP_POLICY_ALLOW_RAM	(1U << 0)	/* module parameter allow_ram=1 */

/* pfnmap_info.flags */
#define PFNMAP_INFO_PAT		(1U << 0)	/* x86 PAT is enabled */
/* kernel lockdown refused an mmap on this file */
#define PFNMAP_INFO_LOCKDOWN	(1U << 1)
#define PFNMAP_INFO_MAPPED	(1U << 2)	/* applied_cache describes a mapping */
/*
 * applied_cache is read from the page table (x86, arm64), not the
 * protection asked for
 */
#define PFNMAP_INFO_PTE		(1U << 3)

struct pfnmap_info {
	__u32 size;		/* out: sizeof(struct pfnmap_info) of the helper */
	__u32 abi_version;	/* out: PFNMAP_ABI_VERSION */
	__u32 policy;		/* out: PFNMAP_POLICY_* */
	__u32 flags;		/* out: PFNMAP_INFO_* */
	__u32 phys_bits;	/* out: ranges end below 2^phys_bits (pfnmap(4)) */
	__u32 page_shift;	/* out: PAGE_SHIFT */
	__u32 cache;		/* out: cache type requested on this file */
	__u32 applied_cache;	/* out: type applied to the last good mmap */
	__u64 max_map;		/* out: the longest one mmap may be, bytes */
	/* out: bytes all live mappings may cover (0: no bound, older helpers) */
	__u64 max_total;
	__u64 total;		/* out: bytes all live mappings cover now */
	__u64 reserved[1];
};

/*
 * 0xB9: free in Documentation/userspace-api/ioctl/ioctl-number.rst of 6.1,
 * 6.12 and mainline, where 0xB8 (ABI 1's) belongs to mrvl_cn10k_dpi (6.12)
 * and mshv, and 0xBA to liveupdate
 */
#define PFNMAP_IOC_MAGIC	0xB9
#define PFNMAP_IOC_GET_INFO	_IOR(PFNMAP_IOC_MAGIC, 0, struct pfnmap_info)
#define PFNMAP_IOC_SET_CACHE	_IOW(PFNMAP_IOC_MAGIC, 1, __u32)

/*
 * errno values of mmap(2) on /dev/pfnmap, one per rule, in the order of the
 * checks; none of them but EPERM, EINVAL and EACCES is one the mmap core
 * uses for its own reasons (see pfnmap(4)):
 *   EPERM       the kernel is locked down (PFNMAP_INFO_LOCKDOWN says so)
 *   EFBIG       longer than max_map
 *   ERANGE      the range ends at or beyond 2^phys_bits
 *   EINVAL      not MAP_SHARED
 *   EACCES      PROT_EXEC asked for (with READ_IMPLIES_EXEC, PROT_READ's
 *               implied PROT_EXEC is dropped instead)
 *   EADDRINUSE  a driver claimed part of the range exclusively
 *               (IORESOURCE_EXCLUSIVE), as /proc/iomem shows
 *   EXDEV       part of the range is System RAM, part is not
 *   EPERM       System RAM, and the module parameter allow_ram is 0
 *   EOPNOTSUPP  a cache type other than write-back asked for on System RAM,
 *               write-combining without PAT, or (ARM) write-back asked for
 *               where a resource that is not System RAM describes the range
 *   ENOSPC      all live mappings would cover more than max_total bytes
 *   EBUSY       the kernel maps it with another cache type than asked for,
 *               or x86 PAT refuses the type (an existing mapping of the
 *               range or the MTRRs decide); nothing is mapped
 *   ENOMEM      no memory for the page tables (remap_pfn_range())
 * open(2): EPERM without CAP_SYS_RAWIO or under kernel lockdown.  The open
 * file is the capability: mmap(2) checks lockdown again, not the caller's
 * capabilities.
 */

#endif /* _UAPI_LINUX_PFNMAP_H */

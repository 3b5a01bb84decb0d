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

#define PFNMAP_ABI_VERSION	1
#define PFNMAP_DEVICE_NAME	"pfnmap"

/* Cache types, per open file (PFNMAP_IOC_SET_CACHE) */
enum pfnmap_cache {
	PFNMAP_CACHE_AUTO = 0,	/* as /dev/mem: write-back unless PAT/MTRR say otherwise */
	PFNMAP_CACHE_UC = 1,	/* uncached (UC-) */
	PFNMAP_CACHE_WC = 2,	/* write-combining */
	PFNMAP_CACHE_WB = 3,	/* write-back */
	PFNMAP_CACHE_WT = 4,	/* write-through: reported only, never requested */
	PFNMAP_CACHE_WP = 5,	/* write-protect: reported only */
	PFNMAP_CACHE_UNKNOWN = 15,
};

/* pfnmap_info.policy */
#define PFNMAP_POLICY_ALLOW_RAM	(1U << 0)	/* module parameter allow_ram=1 */

/* pfnmap_info.flags */
#define PFNMAP_INFO_PAT		(1U << 0)	/* x86 PAT is enabled */
#define PFNMAP_INFO_LOCKDOWN	(1U << 1)	/* reserved: open fails under lockdown */
#define PFNMAP_INFO_MAPPED	(1U << 2)	/* applied_cache describes a mapping */

struct pfnmap_info {
	__u32 size;		/* out: sizeof(struct pfnmap_info) of the helper */
	__u32 abi_version;	/* out: PFNMAP_ABI_VERSION */
	__u32 policy;		/* out: PFNMAP_POLICY_* */
	__u32 flags;		/* out: PFNMAP_INFO_* */
	__u32 phys_bits;	/* out: CPU physical address width in bits */
	__u32 page_shift;	/* out: PAGE_SHIFT */
	__u32 cache;		/* out: cache type requested on this file */
	__u32 applied_cache;	/* out: type the kernel applied to the last mmap */
	__u64 reserved[4];
};

#define PFNMAP_IOC_MAGIC	0xB8
#define PFNMAP_IOC_GET_INFO	_IOR(PFNMAP_IOC_MAGIC, 0, struct pfnmap_info)
#define PFNMAP_IOC_SET_CACHE	_IOW(PFNMAP_IOC_MAGIC, 1, __u32)

/*
 * errno values of mmap(2) on /dev/pfnmap, one per rule:
 *   EINVAL      not MAP_SHARED
 *   EACCES      PROT_EXEC asked for
 *   EOVERFLOW   offset + length overflows or wraps the physical address space
 *   ERANGE      the range ends beyond the CPU's physical address width
 *   EPERM       System RAM, and the module parameter allow_ram is 0
 *   EXDEV       the range mixes System RAM and other memory
 *   EOPNOTSUPP  a cache type other than write-back asked for on System RAM,
 *               or write-combining without PAT
 *   EBUSY       the kernel would apply another cache type than asked for
 *               (an existing mapping or MTRR decides); nothing is mapped
 *   EAGAIN      remap_pfn_range() failed (see dmesg)
 * open(2): EPERM without CAP_SYS_RAWIO or under kernel lockdown.
 */

#endif /* _UAPI_LINUX_PFNMAP_H */

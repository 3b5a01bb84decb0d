// SPDX-License-Identifier: GPL-2.0
/*
 * pfnmap: map physical address ranges into user space through /dev/pfnmap.
 *
 * mmap(2) with offset = physical address maps that range with
 * remap_pfn_range(); vma->vm_pgoff is the page frame number.  The checks
 * follow mmap_mem() in drivers/char/mem.c, with one errno per rule (see
 * uapi/pfnmap.h), a cache type chosen per open file and, on x86, a check of
 * the cache type that PAT put into the page table entries.  Unlike
 * /dev/mem, ranges that drivers claimed are allowed, except what a driver
 * claimed exclusively (IORESOURCE_EXCLUSIVE); System RAM only on request.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/ioport.h>
#include <linux/list.h>
#include <linux/memory.h>
#include <linux/memory_hotplug.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/personality.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#ifdef CONFIG_X86
#include <asm/memtype.h>
#include <asm/processor.h>
#endif
#ifdef CONFIG_ARM64
#include <asm/cpufeature.h>
#endif

#include "compat.h"
#include "uapi/pfnmap.h"

static bool allow_ram;
module_param(allow_ram, bool, 0644);
MODULE_PARM_DESC(allow_ram,
		 "Allow mapping System RAM that the kernel manages, write-back only (default: no)");

/*
 * remap_pfn_range() fills every page table entry at mmap() time: 8 bytes a
 * page, so all live mappings together are bounded, not only each one.
 * 256 GiB of them pin 512 MiB of page tables.
 */
static unsigned long long max_total = 256ULL << 30;
module_param(max_total, ullong, 0644);
MODULE_PARM_DESC(max_total,
		 "Bytes that all live mappings may cover together (default: 256 GiB)");

/* Per open file */
struct pfnmap_file {
	/*
	 * Protects the fields below, and is held through each mmap(), so
	 * that the cache type an mmap() uses and the applied type it records
	 * belong together.  Taken under mmap_lock; never take mmap_lock (no
	 * user copies) while holding it.
	 */
	struct mutex lock;
	u32 cache;		/* requested: enum pfnmap_cache */
	u32 applied;		/* applied by the kernel to the last good mmap() */
	bool mapped;		/* an mmap() on this file has succeeded */
	bool locked_down;	/* lockdown refused an mmap() on this file */
};

/*
 * One mapping at most: remap_pfn_range() fills every page table entry at
 * mmap() time, 8 bytes a page, about 2 GiB of page tables per TiB mapped.
 * 64 GiB costs 128 MiB of them, bounded and affordable on any machine that
 * has that much to map; larger BARs are mapped in parts (the CLI maps
 * 64 MiB windows).
 */
#define PFNMAP_MAX_MAP		(64ULL << 30)

static unsigned int pfnmap_cpu_phys_bits(void)
{
#ifdef CONFIG_X86
	return boot_cpu_data.x86_phys_bits;
#elif defined(CONFIG_ARM_LPAE)
	/*
	 * LPAE's long descriptors give 40-bit output addresses; a sparsemem
	 * kernel's MAX_PHYSMEM_BITS (36) bounds its RAM, not what a PFN map
	 * reaches, and a flatmem one has none
	 */
	return 40;
#elif defined(CONFIG_ARM64)
	/*
	 * The CPU's PARange (40 bits on a Cortex-A53, 44 on an A57), within
	 * what the kernel's page tables hold (PHYS_MASK_SHIFT): beyond it an
	 * access faults and kills the process
	 */
	u64 mmfr0 = read_sanitised_ftr_reg(SYS_ID_AA64MMFR0_EL1);
	unsigned int parange = cpuid_feature_extract_unsigned_field(mmfr0,
					ID_AA64MMFR0_EL1_PARANGE_SHIFT);

	return min_t(unsigned int, PHYS_MASK_SHIFT,
		     id_aa64mmfr0_parange_to_phys_shift(parange));
#elif defined(MAX_PHYSMEM_BITS)
	return MAX_PHYSMEM_BITS;
#else
	return BITS_PER_BYTE * sizeof(phys_addr_t);
#endif
}

/*
 * Physical address bits the calling process can map: the CPU's, but no
 * more than vm_pgoff holds (a 32-bit kernel's, or mmap2()'s 32-bit page
 * offset for a 32-bit process) nor phys_addr_t.
 */
static unsigned int pfnmap_phys_bits(void)
{
	unsigned int pgoff_bits = in_compat_syscall() ? 32 : BITS_PER_LONG;
	unsigned int bits = pfnmap_cpu_phys_bits();

	bits = min(bits, pgoff_bits + PAGE_SHIFT);
	return min_t(unsigned int, bits, BITS_PER_BYTE * sizeof(phys_addr_t));
}

#ifdef CONFIG_X86
static bool pfnmap_wc_supported(void)
{
	return pat_enabled();
}

/* The cache type that x86 page protection bits (PAT, PCD, PWT) stand for */
static u32 pfnmap_prot_cache(pgprot_t prot)
{
	pgprotval_t bits = pgprot_val(prot) & _PAGE_CACHE_MASK;

	if (bits == cachemode2protval(_PAGE_CACHE_MODE_WB))
		return PFNMAP_CACHE_WB;
	if (bits == cachemode2protval(_PAGE_CACHE_MODE_UC_MINUS))
		return PFNMAP_CACHE_UC;
	if (bits == cachemode2protval(_PAGE_CACHE_MODE_UC))
		return PFNMAP_CACHE_UC_STRONG;
	if (bits == cachemode2protval(_PAGE_CACHE_MODE_WC))
		return PFNMAP_CACHE_WC;
	if (bits == cachemode2protval(_PAGE_CACHE_MODE_WT))
		return PFNMAP_CACHE_WT;
	if (bits == cachemode2protval(_PAGE_CACHE_MODE_WP))
		return PFNMAP_CACHE_WP;
	return PFNMAP_CACHE_UNKNOWN;
}
#else
static bool pfnmap_prot_eq(pgprot_t a, pgprot_t b)
{
	return pgprot_val(a) == pgprot_val(b);
}

/* asm-generic/pgtable.h makes pgprot_writecombine() uncached where absent */
static bool pfnmap_wc_supported(void)
{
	pgprot_t base = vm_get_page_prot(VM_READ | VM_WRITE | VM_SHARED);

	return !pfnmap_prot_eq(pgprot_writecombine(base),
			       pgprot_noncached(base));
}
#endif

/*
 * The range must end below 2^pfnmap_phys_bits(), as the page frame
 * number says: the mmap core has made sure vm_pgoff + pages does not wrap.
 */
static int pfnmap_check_range(struct vm_area_struct *vma, size_t size)
{
	unsigned int pfn_bits = pfnmap_phys_bits() - PAGE_SHIFT;
	unsigned long last_pfn = vma->vm_pgoff + (size >> PAGE_SHIFT) - 1;

	if ((u64)size > PFNMAP_MAX_MAP)
		return -EFBIG;
	if (pfn_bits < BITS_PER_LONG && last_pfn >> pfn_bits)
		return -ERANGE;
	return 0;
}

/*
 * Shared only, never executable, not inherited across fork().  With the
 * READ_IMPLIES_EXEC personality the mmap core makes PROT_READ executable
 * (do_mmap()); mprotect() does not where VM_MAYEXEC is clear, and neither
 * does the helper: it drops VM_EXEC then rather than refusing the mapping.
 * /dev/mem maps such a range executable.
 */
static int pfnmap_check_flags(struct vm_area_struct *vma)
{
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (vma->vm_flags & VM_EXEC) {
		if (!(current->personality & READ_IMPLIES_EXEC))
			return -EACCES;
		pfnmap_vm_flags_clear(vma, VM_EXEC);
		vma->vm_page_prot = vm_get_page_prot(vma->vm_flags);
	}
	pfnmap_vm_flags_clear(vma, VM_MAYEXEC);
	pfnmap_vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	return 0;
}

static int pfnmap_found(struct resource *res, void *arg)
{
	return 1;
}

/*
 * Does [start, end] intersect a range that must never reach user space?
 * As iomem_is_exclusive(), which is not exported: a busy resource marked
 * IORESOURCE_EXCLUSIVE (pci_request_regions_exclusive(), as e1000e does),
 * and System RAM marked exclusive even when not busy (virtio-mem).  Unlike
 * it, drivers' other busy resources are allowed (no IO_STRICT_DEVMEM), and
 * iomem=relaxed changes nothing.  region_intersects() only sees the top
 * level of the tree, where drivers' claims never are; walk_iomem_res_desc()
 * (exported on 6.1 and 6.12) walks every level under resource_lock, the
 * lock iomem_is_exclusive() takes, and calls back without it.
 */
static bool pfnmap_exclusive(phys_addr_t start, phys_addr_t end)
{
	static const unsigned long kinds[] = {
		IORESOURCE_MEM | IORESOURCE_BUSY | IORESOURCE_EXCLUSIVE,
		IORESOURCE_SYSTEM_RAM | IORESOURCE_EXCLUSIVE,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (walk_iomem_res_desc(IORES_DESC_NONE, kinds[i], start, end,
					NULL, pfnmap_found) == 1)
			return true;
	return false;
}

static int pfnmap_count_ram(struct resource *res, void *arg)
{
	*(u64 *)arg += resource_size(res);
	return 0;
}

/*
 * Bytes of System RAM in [start, end], counted as walk_system_ram_range()
 * (not exported) counts them: busy System RAM resources, at any level.
 * Addresses that no resource covers are not RAM, which region_intersects()
 * would not tell.
 */
static u64 pfnmap_ram_bytes(phys_addr_t start, phys_addr_t end)
{
	u64 bytes = 0;

	walk_iomem_res_desc(IORES_DESC_NONE,
			    IORESOURCE_SYSTEM_RAM | IORESOURCE_BUSY, start, end,
			    &bytes, pfnmap_count_ram);
	return bytes;
}

#ifdef CONFIG_X86
/* PAT and the MTRRs give a device's range the type it can take */
static bool pfnmap_wb_refused(phys_addr_t start, phys_addr_t end)
{
	return false;
}
#else
static int pfnmap_found_device(struct resource *res, void *arg)
{
	return !(res->flags & IORESOURCE_SYSRAM);
}

/*
 * ARM: write-back is Normal cacheable memory, which the CPU may read
 * speculatively and whose lines it writes back when it likes; a device's
 * registers answer that with side effects or an SError.  Nothing lowers
 * the type there as x86's MTRRs do, so an explicit write-back is refused
 * wherever a resource that is not System RAM describes the range (a BAR,
 * a bridge window, a platform device).  Memory that no resource covers,
 * RAM hidden from the kernel with mem=, may be write-back.
 */
static bool pfnmap_wb_refused(phys_addr_t start, phys_addr_t end)
{
	return walk_iomem_res_desc(IORES_DESC_NONE, IORESOURCE_MEM, start, end,
				   NULL, pfnmap_found_device) == 1;
}
#endif

/*
 * Exclusive ranges, then the System RAM policy: all of the range RAM or
 * none of it.  Cache types other than write-back on RAM are refused here,
 * before remap_pfn_range(), so that PAT has nothing to complain about.
 */
static int pfnmap_check_policy(phys_addr_t start, size_t size, u32 cache,
			       bool *ram)
{
	phys_addr_t end = start + size - 1;
	u64 ram_bytes;

	if (pfnmap_exclusive(start, end))
		return -EADDRINUSE;
	ram_bytes = pfnmap_ram_bytes(start, end);
	if (!ram_bytes) {
		*ram = false;
		if (cache == PFNMAP_CACHE_WB && pfnmap_wb_refused(start, end))
			return -EOPNOTSUPP;
		return 0;
	}
	if (ram_bytes != size)
		return -EXDEV;
	if (!READ_ONCE(allow_ram))
		return -EPERM;
	if (cache != PFNMAP_CACHE_AUTO && cache != PFNMAP_CACHE_WB)
		return -EOPNOTSUPP;
	*ram = true;
	return 0;
}

/*
 * Auto, as mmap_mem() in drivers/char/mem.c.  x86: the protection stays
 * write-back and PAT/MTRRs lower it in remap_pfn_range(); O_DSYNC asks for
 * UC- (phys_mem_access_prot_allowed()).  x86's phys_mem_access_prot() is not
 * exported; what it does, clearing the encryption bit, io_remap_pfn_range()
 * does.  Elsewhere phys_mem_access_prot() where the architecture has it,
 * else uncached.  RAM stays write-back everywhere (the policy above).
 */
static pgprot_t pfnmap_auto_prot(struct file *file,
				 struct vm_area_struct *vma, size_t size,
				 bool ram)
{
	pgprot_t prot = vma->vm_page_prot;

	if (ram)
		return prot;
#if defined(CONFIG_X86)
	if (file->f_flags & O_DSYNC)
		prot = pgprot_noncached(prot);
#elif defined(__HAVE_PHYS_MEM_ACCESS_PROT)
	prot = phys_mem_access_prot(file, vma->vm_pgoff, size, prot);
#else
	prot = pgprot_noncached(prot);
#endif
	return prot;
}

/*
 * uc is pgprot_noncached(): UC- on x86, the type of the kernel's own MMIO
 * mappings (ioremap(), sysfs resourceN, /dev/mem with O_DSYNC), so that a
 * mapping of a BAR a driver maps too never conflicts; strong UC would be
 * lowered to UC- by PAT there.  An MTRR saying WC makes UC- WC.
 */
static int pfnmap_set_prot(struct file *file, struct vm_area_struct *vma,
			   u32 cache, bool ram)
{
	pgprot_t prot = vma->vm_page_prot;
	size_t size = vma->vm_end - vma->vm_start;

	switch (cache) {
	case PFNMAP_CACHE_AUTO:
		prot = pfnmap_auto_prot(file, vma, size, ram);
		break;
	case PFNMAP_CACHE_UC:
		prot = pgprot_noncached(prot);
		break;
	case PFNMAP_CACHE_WC:
		if (!pfnmap_wc_supported())
			return -EOPNOTSUPP;
		prot = pgprot_writecombine(prot);
		break;
	case PFNMAP_CACHE_WB:
		break;
	default:
		return -EINVAL;
	}
	vma->vm_page_prot = prot;
	return 0;
}

/*
 * The cache type of the new mapping.  x86: the PAT bits of its first page
 * table entry; remap_pfn_range() gives every entry the one protection PAT
 * chose for the range (track_pfn_remap()).  That is the page's PAT type:
 * the MTRRs, which the CPU combines with it at access time, do not show.
 * arm64: the first entry's memory type too.  Elsewhere nothing changes
 * the protection the helper chose: it is read from the VMA.
 */
#ifdef CONFIG_X86
static u32 pfnmap_applied_cache(struct vm_area_struct *vma)
{
	pgprot_t prot;

	if (pfnmap_pte_prot(vma, vma->vm_start, &prot))
		return PFNMAP_CACHE_UNKNOWN;
	return pfnmap_prot_cache(prot);
}
#elif defined(CONFIG_ARM64)
/*
 * The memory type is the MAIR index (AttrIndx) in the PTE itself, which
 * the MMU uses: Normal write-back (MT_NORMAL_TAGGED with MTE),
 * Device-nGnRnE from pgprot_noncached(), Normal non-cacheable from
 * pgprot_writecombine().
 */
static u32 pfnmap_applied_cache(struct vm_area_struct *vma)
{
	pgprot_t prot;
	pteval_t attr;

	if (pfnmap_pte_prot(vma, vma->vm_start, &prot))
		return PFNMAP_CACHE_UNKNOWN;
	attr = pgprot_val(prot) & PTE_ATTRINDX_MASK;
	if (attr == PTE_ATTRINDX(MT_NORMAL) ||
	    attr == PTE_ATTRINDX(MT_NORMAL_TAGGED))
		return PFNMAP_CACHE_WB;
	if (attr == PTE_ATTRINDX(MT_DEVICE_nGnRnE))
		return PFNMAP_CACHE_UC;
	if (attr == PTE_ATTRINDX(MT_NORMAL_NC))
		return PFNMAP_CACHE_WC;
	return PFNMAP_CACHE_UNKNOWN;
}
#else
static u32 pfnmap_applied_cache(struct vm_area_struct *vma)
{
	pgprot_t base = vm_get_page_prot(vma->vm_flags);
	pgprot_t prot = vma->vm_page_prot;

	if (pfnmap_prot_eq(prot, base))
		return PFNMAP_CACHE_WB;
	if (pfnmap_prot_eq(prot, pgprot_noncached(base)))
		return PFNMAP_CACHE_UC;
	if (pfnmap_wc_supported() &&
	    pfnmap_prot_eq(prot, pgprot_writecombine(base)))
		return PFNMAP_CACHE_WC;
	return PFNMAP_CACHE_UNKNOWN;
}
#endif

/*
 * Live mappings, for the memory hot-plug notifier below: the policy checked
 * at mmap() time (System RAM or not) must stay true while the mapping
 * lives.  Memory can be hot-added where a non-RAM mapping points (a DIMM,
 * virtio-mem, dax/kmem); the kernel must not start to manage it, or the
 * mapping writes into the kernel's own pages.  /dev/mem zaps its mappings
 * instead (revoke_iomem()), but zapping a VM_PAT mapping outside munmap()
 * leaves x86 PAT unable to find its reservation at munmap() on 6.1 and
 * 6.12, so the helper refuses the online instead.
 *
 * One pfnmap_map per mmap(), shared by the VMAs that mremap() makes of it
 * (vm_ops->open); fork() copies none (VM_DONTCOPY) and splits are refused
 * (may_split), so a map always covers exactly its VMA's range.
 */
struct pfnmap_map {
	struct list_head node;	/* in pfnmap_maps */
	unsigned int users;	/* VMAs using it */
	unsigned long pfn;	/* first page frame */
	unsigned long pages;
	bool ram;		/* mapped as System RAM (allow_ram) */
	u32 cache;		/* the type the kernel applied */
	pid_t pid;		/* the process that mapped it, for messages */
	char comm[TASK_COMM_LEN];
};

/*
 * Refuse a mapping that is not what was asked for, else record what the
 * kernel applied.  Auto on System RAM asks for write-back: x86 PAT gives
 * a RAM page the memtype a driver set on it (set_memory_uc(),
 * set_memory_wc()), which the RAM policy does not allow.  A refusal
 * leaves the record of the last good mapping alone.  The record is made
 * before the mmap core has finished: should the core then fail for its
 * own reasons (no memory), it describes a mapping that never came to be
 * (pfnmap(4), GET_INFO).
 */
static int pfnmap_check_applied(struct pfnmap_file *pf,
				struct vm_area_struct *vma, u32 cache, bool ram)
{
	struct pfnmap_map *map = vma->vm_private_data;
	u32 applied = pfnmap_applied_cache(vma);

	if (ram && cache == PFNMAP_CACHE_AUTO)
		cache = PFNMAP_CACHE_WB;
	if (cache != PFNMAP_CACHE_AUTO && applied != PFNMAP_CACHE_UNKNOWN &&
	    applied != cache)
		return -EBUSY;
	map->cache = applied;
	pf->applied = applied;
	pf->mapped = true;
	return 0;
}

static LIST_HEAD(pfnmap_maps);
static DEFINE_MUTEX(pfnmap_maps_lock);	/* pfnmap_maps, pfnmap_total, ->users */
static u64 pfnmap_total;		/* bytes that pfnmap_maps cover */

static int pfnmap_check_total(size_t size)
{
	lockdep_assert_held(&pfnmap_maps_lock);
	if (pfnmap_total + size > READ_ONCE(max_total))
		return -ENOSPC;
	return 0;
}

/*
 * The System RAM policy and the entry in pfnmap_maps, in one critical
 * section.  That is what makes a concurrent hot-add safe: the hot-add
 * inserts the new "System RAM" resource (register_memory_resource())
 * before any of its blocks can go online, and the online notifier takes
 * pfnmap_maps_lock.  So either this section comes first, and the notifier
 * finds the entry and refuses the online, or the notifier's section comes
 * first, and then this one sees the resource and treats the range as RAM
 * (refused unless allow_ram).  pfnmap_maps_lock nests inside
 * mem_hotplug_lock (the notifier) and mmap_lock (mmap, open, close) and
 * takes nothing but resource_lock (walk_iomem_res_desc()) inside it, so
 * it cannot deadlock against either.
 */
static int pfnmap_track(struct vm_area_struct *vma, phys_addr_t start,
			size_t size, u32 cache, bool *ram)
{
	struct pfnmap_map *map;
	int ret;

	map = kzalloc(sizeof(*map), GFP_KERNEL);
	if (!map)
		return -ENOMEM;
	map->users = 1;
	map->pfn = vma->vm_pgoff;
	map->pages = size >> PAGE_SHIFT;
	map->pid = task_tgid_nr(current);
	get_task_comm(map->comm, current);

	mutex_lock(&pfnmap_maps_lock);
	ret = pfnmap_check_policy(start, size, cache, ram);
	if (!ret)
		ret = pfnmap_check_total(size);
	if (!ret) {
		map->ram = *ram;
		list_add(&map->node, &pfnmap_maps);
		pfnmap_total += size;
		vma->vm_private_data = map;
	}
	mutex_unlock(&pfnmap_maps_lock);
	if (ret)
		kfree(map);
	return ret;
}

static void pfnmap_map_put(struct pfnmap_map *map)
{
	mutex_lock(&pfnmap_maps_lock);
	if (--map->users == 0) {
		list_del(&map->node);
		pfnmap_total -= PFN_PHYS(map->pages);
	} else {
		map = NULL;
	}
	mutex_unlock(&pfnmap_maps_lock);
	kfree(map);
}

/* mremap() moved or copied the VMA: one more user of the same range */
static void pfnmap_vm_open(struct vm_area_struct *vma)
{
	struct pfnmap_map *map = vma->vm_private_data;

	if (!map)
		return;
	mutex_lock(&pfnmap_maps_lock);
	map->users++;
	mutex_unlock(&pfnmap_maps_lock);
}

/*
 * munmap() and exit: called after the page tables are gone and PAT has
 * dropped its reservation (unmap_vmas() comes before remove_vma()).  A VMA
 * whose mmap() failed has no map any more (pfnmap_mmap_tracked()); on
 * kernels that call close on that path too there is nothing to drop.
 */
static void pfnmap_vm_close(struct vm_area_struct *vma)
{
	struct pfnmap_map *map = vma->vm_private_data;

	vma->vm_private_data = NULL;
	if (map)
		pfnmap_map_put(map);
}

/* A failed mmap() after pfnmap_track(): no VMA will use the map */
static void pfnmap_untrack(struct vm_area_struct *vma)
{
	pfnmap_vm_close(vma);
}

/*
 * The first live mapping that overlaps @pages frames from @pfn; of non-RAM
 * only, unless @ram_too
 */
static const struct pfnmap_map *pfnmap_find(unsigned long pfn,
					    unsigned long pages, bool ram_too)
{
	const struct pfnmap_map *map;

	lockdep_assert_held(&pfnmap_maps_lock);
	list_for_each_entry(map, &pfnmap_maps, node) {
		if ((ram_too || !map->ram) && map->pfn < pfn + pages &&
		    pfn < map->pfn + map->pages)
			return map;
	}
	return NULL;
}

/*
 * Refuse to online a memory block that a non-RAM mapping overlaps, or to
 * offline one that any mapping overlaps.  A mapping taken as System RAM
 * (allow_ram) may stay through an online: that makes it nothing that
 * allow_ram did not already allow; but offlining would migrate the pages
 * away from under it, and removal hand its range to whatever comes next.
 * The range is busy only until the mapping goes, so the message says who
 * holds it.
 */
static int pfnmap_refuse(unsigned long pfn, unsigned long pages, bool online)
{
	const char *what = online ? "onlined" : "offlined";
	const struct pfnmap_map *map;
	int ret = 0;

	if (!pages)
		return 0;
	mutex_lock(&pfnmap_maps_lock);
	map = pfnmap_find(pfn, pages, !online);
	if (map) {
		pr_warn("memory [mem %#010llx-%#010llx] not %s: pid %d (%s) maps [mem %#010llx-%#010llx] through /dev/%s; %s it once that mapping is gone\n",
			(unsigned long long)PFN_PHYS(pfn),
			(unsigned long long)PFN_PHYS(pfn + pages) - 1, what,
			map->pid, map->comm,
			(unsigned long long)PFN_PHYS(map->pfn),
			(unsigned long long)PFN_PHYS(map->pfn + map->pages) - 1,
			PFNMAP_DEVICE_NAME, online ? "online" : "offline");
		ret = -EBUSY;
	}
	mutex_unlock(&pfnmap_maps_lock);
	return ret;
}

/*
 * The block's memmap, when memory_hotplug.memmap_on_memory keeps it in
 * the block's own first pages, is outside the range that MEM_GOING_ONLINE
 * and MEM_GOING_OFFLINE name (6.1: memory_block_online() onlines only the
 * rest).  It is always in the block's first section, and blocks are made
 * of whole sections: check from the start of that section.
 */
static unsigned long pfnmap_block_start(unsigned long pfn)
{
#ifdef CONFIG_MEMORY_HOTPLUG
	return ALIGN_DOWN(pfn, PAGES_PER_SECTION);
#else
	return pfn;
#endif
}

static int pfnmap_refuse_block(const struct memory_notify *mn, bool online)
{
	unsigned long start = pfnmap_block_start(mn->start_pfn);

	return pfnmap_refuse(start, mn->start_pfn + mn->nr_pages - start,
			     online);
}

/*
 * Memory hot-plug notifier.  MEM_GOING_ONLINE comes before the block's
 * pages reach the page allocator, MEM_GOING_OFFLINE before they are
 * migrated away.  Kernels that define MEM_PREPARE_ONLINE (6.12 does) send
 * it first, before they initialise a memmap kept in the block itself
 * (the altmap range), so that is refused too.  Older ones write that
 * memmap before asking, but still ask before the online (see
 * pfnmap_block_start()).  With CONFIG_MEMORY_HOTPLUG off,
 * register_memory_notifier() is an empty stub and no memory goes online
 * or offline after boot.
 */
static int pfnmap_memory_notify(struct notifier_block *nb,
				unsigned long action, void *data)
{
	const struct memory_notify *mn = data;
	int ret = 0;

	switch (action) {
#ifdef MEM_PREPARE_ONLINE
	case MEM_PREPARE_ONLINE:
		ret = pfnmap_refuse(mn->altmap_start_pfn, mn->altmap_nr_pages,
				    true);
		if (!ret)
			ret = pfnmap_refuse_block(mn, true);
		break;
#endif
	case MEM_GOING_ONLINE:
		ret = pfnmap_refuse_block(mn, true);
		break;
	case MEM_GOING_OFFLINE:
		ret = pfnmap_refuse_block(mn, false);
		break;
	}
	return notifier_from_errno(ret);
}

/* Ahead of the kernel's own callbacks (the highest is 100, KSM's on 6.12) */
static struct notifier_block pfnmap_memory_nb = {
	.notifier_call = pfnmap_memory_notify,
	.priority = 200,
};

#ifdef CONFIG_HAVE_IOREMAP_PROT
/*
 * Debugger access (ptrace(), /proc/PID/mem), where the kernel calls
 * ->access: with CONFIG_HAVE_IOREMAP_PROT (x86, arm64).  32-bit ARM lacks
 * it, and there /proc/PID/mem and ptrace() fail with EIO on any PFN map,
 * /dev/mem's too.
 *
 * __access_remote_vm() hands ->access what remains of the whole request,
 * and generic_access_phys() maps and copies all of it from the PTE's page
 * on, past the end of the mapping into whatever follows it physically: a
 * page the policy never saw.  One page of the VMA at a time here; the
 * core calls again for the next one, which then has to be in a VMA of
 * its own.
 */
static int pfnmap_access_len(struct vm_area_struct *vma, unsigned long addr,
			     int len)
{
	unsigned long room = min(PAGE_SIZE - offset_in_page(addr),
				 vma->vm_end - addr);

	return min_t(unsigned long, len, room);
}

/* The VMA maps its range linearly: splits are refused, mremap() keeps it */
static phys_addr_t pfnmap_access_phys(struct vm_area_struct *vma,
				      unsigned long addr)
{
	return PFN_PHYS(vma->vm_pgoff + ((addr - vma->vm_start) >> PAGE_SHIFT)) +
	       offset_in_page(addr);
}

/*
 * A System RAM mapping: generic_access_phys() would ioremap_prot() the
 * page, which x86 refuses for RAM with WARN_ONCE("ioremap on RAM") and
 * EIO.  Online RAM has a struct page: copy through the kernel's own
 * mapping of it (kmap: highmem too on 32-bit kernels), write-back as the
 * mapping is (pfnmap_check_applied()).
 */
static int pfnmap_access_ram(phys_addr_t phys, void *buf, int len, int write)
{
	int offset = offset_in_page(phys);
	struct page *page;
	void *kaddr;

	/* allow_ram maps offline (hot-added) System RAM too: no valid memmap */
	page = pfn_to_online_page(PHYS_PFN(phys));
	if (!page)
		return -EINVAL;
	kaddr = kmap_local_page(page);
	if (write)
		memcpy(kaddr + offset, buf, len);
	else
		memcpy(buf, kaddr + offset, len);
	kunmap_local(kaddr);
	return len;
}

#ifdef CONFIG_ARM64
/*
 * arm64's generic_access_phys() hands the user PTE's protection, PTE_USER
 * included, to ioremap_prot(): with PAN (ARMv8.1 on) the kernel's own
 * access through that mapping faults and oopses ("Unable to handle kernel
 * read from unreadable memory"), which Debian's 6.1 does.  Map the one
 * page with the mapping's own memory type instead.
 */
static int pfnmap_access_io(struct vm_area_struct *vma, unsigned long addr,
			    phys_addr_t phys, void *buf, int len, int write)
{
	const struct pfnmap_map *map = vma->vm_private_data;
	unsigned long prot;
	void __iomem *io;

	/* the kernel's own protections of pgprot_noncached() and the rest */
	switch (map->cache) {
	case PFNMAP_CACHE_UC:
		prot = PROT_DEVICE_nGnRnE;
		break;
	case PFNMAP_CACHE_WC:
		prot = PROT_NORMAL_NC;
		break;
	case PFNMAP_CACHE_WB:
		prot = PROT_NORMAL;
		break;
	default:
		return -EINVAL;
	}
	io = ioremap_prot(phys & PAGE_MASK, PAGE_SIZE, prot);
	if (!io)
		return -ENOMEM;
	if (write)
		memcpy_toio(io + offset_in_page(phys), buf, len);
	else
		memcpy_fromio(buf, io + offset_in_page(phys), len);
	iounmap(io);
	return len;
}
#else
/* The PTE's protection, the mapping's cache type: x86's ioremap_prot() */
static int pfnmap_access_io(struct vm_area_struct *vma, unsigned long addr,
			    phys_addr_t phys, void *buf, int len, int write)
{
	return generic_access_phys(vma, addr, buf, len, write);
}
#endif

static int pfnmap_access(struct vm_area_struct *vma, unsigned long addr,
			 void *buf, int len, int write)
{
	const struct pfnmap_map *map = vma->vm_private_data;
	phys_addr_t phys;

	if (!map || (write && !(vma->vm_flags & VM_WRITE)))
		return -EINVAL;
	len = pfnmap_access_len(vma, addr, len);
	phys = pfnmap_access_phys(vma, addr);
	if (map->ram)
		return pfnmap_access_ram(phys, buf, len, write);
	/* hot-added since the mmap(): System RAM now, offline or not */
	if (pfnmap_ram_bytes(phys, phys + len - 1))
		return -EINVAL;
	/*
	 * 32-bit x86: __ioremap_caller() page-aligns with PAGE_MASK, an
	 * unsigned long, which drops the upper half of a physical address
	 * above 4 GiB (Debian's 6.1 686-pae): the access would reach the
	 * page at the lower half, System RAM as likely as not
	 */
	if (IS_ENABLED(CONFIG_X86_32) && upper_32_bits(phys + len - 1))
		return -EINVAL;
	return pfnmap_access_io(vma, addr, phys, buf, len, write);
}
#endif /* CONFIG_HAVE_IOREMAP_PROT */

static int pfnmap_may_split(struct vm_area_struct *vma, unsigned long addr)
{
	return -EINVAL;
}

static const struct vm_operations_struct pfnmap_vm_ops = {
	.open = pfnmap_vm_open,
	.close = pfnmap_vm_close,
	.may_split = pfnmap_may_split,
#ifdef CONFIG_HAVE_IOREMAP_PROT
	.access = pfnmap_access,
#endif
};

/*
 * remap_pfn_range() turns every error of x86 PAT's track_pfn_remap() into
 * EINVAL: a cache type that conflicts with an existing mapping of the range
 * (the kernel logs it), the only EINVAL a VMA of this helper can meet.
 * That is EBUSY here, as when PAT applies another type; ENOMEM (page
 * tables) and anything else pass through.
 */
static int pfnmap_remap(struct vm_area_struct *vma, size_t size, bool ram)
{
	int ret;

	if (ram)
		ret = remap_pfn_range(vma, vma->vm_start, vma->vm_pgoff, size,
				      vma->vm_page_prot);
	else
		ret = io_remap_pfn_range(vma, vma->vm_start, vma->vm_pgoff,
					 size, vma->vm_page_prot);
	return ret == -EINVAL ? -EBUSY : ret;
}

/*
 * Lockdown counts at every mmap(), not only at open(): a file opened before
 * the kernel was locked down maps nothing after.  As open_port(), this
 * refusal is the kernel's EPERM; GET_INFO's PFNMAP_INFO_LOCKDOWN tells it
 * from the System RAM policy's.
 */
static int pfnmap_check_lockdown(struct pfnmap_file *pf)
{
	int ret = security_locked_down(LOCKDOWN_DEV_MEM);

	if (ret)
		pf->locked_down = true;
	return ret;
}

static int pfnmap_mmap_locked(struct file *file, struct vm_area_struct *vma,
			      struct pfnmap_file *pf)
{
	size_t size = vma->vm_end - vma->vm_start;
	phys_addr_t start = (phys_addr_t)vma->vm_pgoff << PAGE_SHIFT;
	u32 cache = pf->cache;
	bool ram;
	int ret;

	ret = pfnmap_check_lockdown(pf);
	if (ret)
		return ret;
	ret = pfnmap_check_range(vma, size);
	if (ret)
		return ret;
	ret = pfnmap_check_flags(vma);
	if (ret)
		return ret;
	ret = pfnmap_track(vma, start, size, cache, &ram);
	if (ret)
		return ret;
	ret = pfnmap_set_prot(file, vma, cache, ram);
	if (ret)
		return ret;

	vma->vm_ops = &pfnmap_vm_ops;
	ret = pfnmap_remap(vma, size, ram);
	if (!ret)
		ret = pfnmap_check_applied(pf, vma, cache, ram);
	/*
	 * The map leaves pfnmap_maps when this returns (see
	 * pfnmap_mmap_tracked()): no PTE may outlive it, or an online could
	 * slip in before the mmap core zaps them.  On x86 the zap also drops
	 * the PAT reservation (untrack_pfn() clears VM_PAT), once.
	 */
	if (ret)
		zap_vma_ptes(vma, vma->vm_start, size);
	return ret;
}

static int pfnmap_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct pfnmap_file *pf = file->private_data;
	int ret;

	mutex_lock(&pf->lock);
	ret = pfnmap_mmap_locked(file, vma, pf);
	mutex_unlock(&pf->lock);
	return ret;
}

/*
 * A refused mmap() is not unmapped through vm_ops->close on every kernel
 * (6.1 frees the VMA without calling it): drop its map here, after
 * pfnmap_mmap_locked() has zapped what pfnmap_remap() filled in.
 * Locks nest mmap_lock, then the file's lock, then pfnmap_maps_lock.
 */
static int pfnmap_mmap_tracked(struct file *file, struct vm_area_struct *vma)
{
	int ret = pfnmap_mmap(file, vma);

	if (ret)
		pfnmap_untrack(vma);
	return ret;
}

static int pfnmap_get_info(struct pfnmap_file *pf, void __user *argp)
{
	struct pfnmap_info info = {
		.size = sizeof(info),
		.abi_version = PFNMAP_ABI_VERSION,
		.phys_bits = pfnmap_phys_bits(),
		.page_shift = PAGE_SHIFT,
		.max_map = PFNMAP_MAX_MAP,
		.max_total = READ_ONCE(max_total),
	};

	if (READ_ONCE(allow_ram))
		info.policy |= PFNMAP_POLICY_ALLOW_RAM;
#ifdef CONFIG_X86
	if (pat_enabled())
		info.flags |= PFNMAP_INFO_PAT;
#endif
#if defined(CONFIG_X86) || defined(CONFIG_ARM64)
	info.flags |= PFNMAP_INFO_PTE;
#endif
	mutex_lock(&pfnmap_maps_lock);
	info.total = pfnmap_total;
	mutex_unlock(&pfnmap_maps_lock);
	mutex_lock(&pf->lock);
	info.cache = pf->cache;
	info.applied_cache = pf->applied;
	if (pf->mapped)
		info.flags |= PFNMAP_INFO_MAPPED;
	if (pf->locked_down)
		info.flags |= PFNMAP_INFO_LOCKDOWN;
	mutex_unlock(&pf->lock);

	if (copy_to_user(argp, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

static int pfnmap_set_cache(struct pfnmap_file *pf, u32 __user *argp)
{
	u32 cache;

	if (get_user(cache, argp))
		return -EFAULT;
	switch (cache) {
	case PFNMAP_CACHE_AUTO:
	case PFNMAP_CACHE_UC:
	case PFNMAP_CACHE_WB:
		break;
	case PFNMAP_CACHE_WC:
		if (!pfnmap_wc_supported())
			return -EOPNOTSUPP;
		break;
	default:
		return -EINVAL;
	}
	mutex_lock(&pf->lock);
	pf->cache = cache;
	mutex_unlock(&pf->lock);
	return 0;
}

static long pfnmap_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct pfnmap_file *pf = file->private_data;
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case PFNMAP_IOC_GET_INFO:
		return pfnmap_get_info(pf, argp);
	case PFNMAP_IOC_SET_CACHE:
		return pfnmap_set_cache(pf, argp);
	default:
		return -ENOTTY;
	}
}

static int pfnmap_open(struct inode *inode, struct file *file)
{
	struct pfnmap_file *pf;
	int ret;

	if (!capable(CAP_SYS_RAWIO))
		return -EPERM;
	ret = security_locked_down(LOCKDOWN_DEV_MEM);
	if (ret)
		return ret;

	pf = kzalloc(sizeof(*pf), GFP_KERNEL);
	if (!pf)
		return -ENOMEM;
	mutex_init(&pf->lock);
	pf->cache = PFNMAP_CACHE_AUTO;
	pf->applied = PFNMAP_CACHE_UNKNOWN;
	file->private_data = pf;
	pfnmap_set_unsigned_offset(file);
	return 0;
}

static int pfnmap_release(struct inode *inode, struct file *file)
{
	struct pfnmap_file *pf = file->private_data;

	mutex_destroy(&pf->lock);
	kfree(pf);
	return 0;
}

static const struct file_operations pfnmap_fops = {
	.owner = THIS_MODULE,
	.open = pfnmap_open,
	.release = pfnmap_release,
	.mmap = pfnmap_mmap_tracked,
	.unlocked_ioctl = pfnmap_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
#ifdef FOP_UNSIGNED_OFFSET	/* see pfnmap_set_unsigned_offset() */
	.fop_flags = FOP_UNSIGNED_OFFSET,
#endif
};

static struct miscdevice pfnmap_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = PFNMAP_DEVICE_NAME,
	.fops = &pfnmap_fops,
	.mode = 0600,
};

/* The notifier first: no mapping exists without it */
static int __init pfnmap_init(void)
{
	int ret;

	ret = register_memory_notifier(&pfnmap_memory_nb);
	if (ret)
		return ret;
	ret = misc_register(&pfnmap_misc);
	if (ret)
		unregister_memory_notifier(&pfnmap_memory_nb);
	return ret;
}
module_init(pfnmap_init);

/* Every mapping holds the module (its file's f_op->owner): none is left */
static void __exit pfnmap_exit(void)
{
	misc_deregister(&pfnmap_misc);
	unregister_memory_notifier(&pfnmap_memory_nb);
	WARN_ON(!list_empty(&pfnmap_maps));
}
module_exit(pfnmap_exit);

MODULE_DESCRIPTION("Map physical address ranges (PFNs) into user space");
MODULE_LICENSE("GPL");

// SPDX-License-Identifier: GPL-2.0
/*
 * pfnmap: map physical address ranges into user space through /dev/pfnmap.
 *
 * mmap(2) with offset = physical address maps that range with
 * remap_pfn_range(); vma->vm_pgoff is the page frame number.  The checks
 * follow mmap_mem() in drivers/char/mem.c, in the same order, with one errno
 * per rule (see uapi/pfnmap.h), a cache type chosen per open file, and a
 * check of the cache type the kernel (x86 PAT and MTRRs) really applied.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
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
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#ifdef CONFIG_X86
#include <asm/memtype.h>
#include <asm/processor.h>
#endif

#include "compat.h"
#include "uapi/pfnmap.h"

static bool allow_ram;
module_param(allow_ram, bool, 0644);
MODULE_PARM_DESC(allow_ram,
		 "Allow mapping System RAM that the kernel manages, write-back only (default: no)");

/* Per open file */
struct pfnmap_file {
	struct mutex lock;	/* protects the fields below */
	u32 cache;		/* requested: enum pfnmap_cache */
	u32 applied;		/* applied by the kernel to the last mmap() */
	bool mapped;		/* an mmap() on this file has succeeded */
};

static unsigned int pfnmap_phys_bits(void)
{
#ifdef CONFIG_X86
	return boot_cpu_data.x86_phys_bits;
#elif defined(MAX_PHYSMEM_BITS)
	return MAX_PHYSMEM_BITS;
#else
	return BITS_PER_BYTE * sizeof(phys_addr_t);
#endif
}

static bool pfnmap_wc_supported(void)
{
#ifdef CONFIG_X86
	return pat_enabled();
#else
	return true;
#endif
}

/* The cache type that page protection bits stand for */
static u32 pfnmap_prot_cache(pgprot_t prot)
{
#ifdef CONFIG_X86
	pgprotval_t bits = pgprot_val(prot) & _PAGE_CACHE_MASK;

	if (bits == cachemode2protval(_PAGE_CACHE_MODE_WB))
		return PFNMAP_CACHE_WB;
	if (bits == cachemode2protval(_PAGE_CACHE_MODE_UC_MINUS) ||
	    bits == cachemode2protval(_PAGE_CACHE_MODE_UC))
		return PFNMAP_CACHE_UC;
	if (bits == cachemode2protval(_PAGE_CACHE_MODE_WC))
		return PFNMAP_CACHE_WC;
	if (bits == cachemode2protval(_PAGE_CACHE_MODE_WT))
		return PFNMAP_CACHE_WT;
	if (bits == cachemode2protval(_PAGE_CACHE_MODE_WP))
		return PFNMAP_CACHE_WP;
#endif
	return PFNMAP_CACHE_UNKNOWN;
}

/* Offset, wrap-around and physical address width, as mmap_mem() checks */
static int pfnmap_check_range(struct vm_area_struct *vma, phys_addr_t start,
			      size_t size)
{
	unsigned int bits = pfnmap_phys_bits();
	phys_addr_t last;

	if (start >> PAGE_SHIFT != vma->vm_pgoff)
		return -EOVERFLOW;
	last = start + (phys_addr_t)size - 1;
	if (last < start)
		return -EOVERFLOW;
	if (bits < BITS_PER_BYTE * sizeof(phys_addr_t) && (last >> bits))
		return -ERANGE;
	return 0;
}

/* Shared only, never executable, not inherited across fork() */
static int pfnmap_check_flags(struct vm_area_struct *vma)
{
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (vma->vm_flags & VM_EXEC)
		return -EACCES;
	pfnmap_vm_flags_clear(vma, VM_MAYEXEC);
	pfnmap_vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	return 0;
}

/*
 * System RAM policy.  Cache types other than write-back on RAM are refused
 * here, before remap_pfn_range(), so that PAT has nothing to complain about.
 */
static int pfnmap_check_policy(phys_addr_t start, size_t size, u32 cache,
			       bool *ram)
{
	int ret;

	ret = region_intersects(start, size, IORESOURCE_SYSTEM_RAM,
				IORES_DESC_NONE);
	if (ret == REGION_DISJOINT) {
		*ram = false;
		return 0;
	}
	if (ret != REGION_INTERSECTS)
		return -EXDEV;
	if (!READ_ONCE(allow_ram))
		return -EPERM;
	if (cache != PFNMAP_CACHE_AUTO && cache != PFNMAP_CACHE_WB)
		return -EOPNOTSUPP;
	*ram = true;
	return 0;
}

/*
 * Auto leaves the protection write-back and lets PAT/MTRR lower it in
 * remap_pfn_range(), as /dev/mem does (O_DSYNC asks for uncached there).
 */
static int pfnmap_set_prot(struct file *file, struct vm_area_struct *vma,
			   u32 cache, bool ram)
{
	pgprot_t prot = vma->vm_page_prot;

	switch (cache) {
	case PFNMAP_CACHE_AUTO:
		if (!ram && (file->f_flags & O_DSYNC))
			prot = pgprot_noncached(prot);
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

/* The cache type the kernel applied to the new mapping */
static u32 pfnmap_applied_cache(struct vm_area_struct *vma, u32 cache)
{
#ifdef CONFIG_X86
	pgprot_t prot;

	if (pfnmap_pte_prot(vma, vma->vm_start, &prot))
		return PFNMAP_CACHE_UNKNOWN;
	return pfnmap_prot_cache(prot);
#else
	return cache == PFNMAP_CACHE_AUTO ? PFNMAP_CACHE_UNKNOWN : cache;
#endif
}

/*
 * Record what the kernel applied; refuse a mapping that is not what was
 * explicitly asked for.  The mmap core then unmaps the range and drops its
 * PAT reservation (unmap_region() -> untrack_pfn()).
 */
static int pfnmap_check_applied(struct pfnmap_file *pf,
				struct vm_area_struct *vma, u32 cache)
{
	u32 applied = pfnmap_applied_cache(vma, cache);
	bool ok = cache == PFNMAP_CACHE_AUTO ||
		  applied == PFNMAP_CACHE_UNKNOWN || applied == cache;

	mutex_lock(&pf->lock);
	pf->applied = applied;
	if (ok)
		pf->mapped = true;
	mutex_unlock(&pf->lock);
	return ok ? 0 : -EBUSY;
}

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
	pid_t pid;		/* the process that mapped it, for messages */
	char comm[TASK_COMM_LEN];
};

static LIST_HEAD(pfnmap_maps);
static DEFINE_MUTEX(pfnmap_maps_lock);	/* protects pfnmap_maps, ->users */

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
 * takes nothing but resource_lock (region_intersects()) inside it, so it
 * cannot deadlock against either.
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
	if (!ret) {
		map->ram = *ram;
		list_add(&map->node, &pfnmap_maps);
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
	if (--map->users == 0)
		list_del(&map->node);
	else
		map = NULL;
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

/* The first live non-RAM mapping that overlaps @pages frames from @pfn */
static const struct pfnmap_map *pfnmap_find(unsigned long pfn,
					    unsigned long pages)
{
	const struct pfnmap_map *map;

	lockdep_assert_held(&pfnmap_maps_lock);
	list_for_each_entry(map, &pfnmap_maps, node) {
		if (!map->ram && map->pfn < pfn + pages &&
		    pfn < map->pfn + map->pages)
			return map;
	}
	return NULL;
}

/*
 * Refuse to online a memory block that a non-RAM mapping overlaps.  A
 * mapping taken as System RAM (allow_ram) may stay: onlining makes it
 * nothing that allow_ram did not already allow.  The range is busy only
 * until the mapping goes, so the message says who holds it.
 */
static int pfnmap_refuse_online(unsigned long pfn, unsigned long pages)
{
	const struct pfnmap_map *map;
	int ret = 0;

	if (!pages)
		return 0;
	mutex_lock(&pfnmap_maps_lock);
	map = pfnmap_find(pfn, pages);
	if (map) {
		pr_warn("memory [mem %#010llx-%#010llx] not onlined: pid %d (%s) maps [mem %#010llx-%#010llx] through /dev/%s; online it once that mapping is gone\n",
			(unsigned long long)PFN_PHYS(pfn),
			(unsigned long long)PFN_PHYS(pfn + pages) - 1,
			map->pid, map->comm,
			(unsigned long long)PFN_PHYS(map->pfn),
			(unsigned long long)PFN_PHYS(map->pfn + map->pages) - 1,
			PFNMAP_DEVICE_NAME);
		ret = -EBUSY;
	}
	mutex_unlock(&pfnmap_maps_lock);
	return ret;
}

/*
 * Memory hot-plug notifier.  MEM_GOING_ONLINE comes before the block's
 * pages reach the page allocator.  Kernels that define MEM_PREPARE_ONLINE
 * (6.12 does) send it first, before they initialise a memmap kept in the
 * block itself (memory_hotplug.memmap_on_memory: the altmap range), so
 * that is refused too; older ones write that memmap before asking.  With
 * CONFIG_MEMORY_HOTPLUG off, register_memory_notifier() is an empty stub
 * and no memory goes online after boot.
 */
static int pfnmap_memory_notify(struct notifier_block *nb,
				unsigned long action, void *data)
{
	const struct memory_notify *mn = data;
	int ret = 0;

	switch (action) {
#ifdef MEM_PREPARE_ONLINE
	case MEM_PREPARE_ONLINE:
		ret = pfnmap_refuse_online(mn->altmap_start_pfn,
					   mn->altmap_nr_pages);
		if (!ret)
			ret = pfnmap_refuse_online(mn->start_pfn,
						   mn->nr_pages);
		break;
#endif
	case MEM_GOING_ONLINE:
		ret = pfnmap_refuse_online(mn->start_pfn, mn->nr_pages);
		break;
	}
	return notifier_from_errno(ret);
}

/* Ahead of the kernel's own callbacks (the highest is 100, KSM's on 6.12) */
static struct notifier_block pfnmap_memory_nb = {
	.notifier_call = pfnmap_memory_notify,
	.priority = 200,
};

/*
 * Debugger access (ptrace(), /proc/PID/mem) to a System RAM mapping.
 * generic_access_phys() would ioremap_prot() the page, which x86 refuses
 * for RAM with WARN_ONCE("ioremap on RAM") and EIO.  Online RAM has a
 * struct page: copy through the kernel's own mapping of it (kmap: highmem
 * too on 32-bit kernels), whose cache type is the one PAT gave the user
 * mapping (a RAM mapping gets the page's memtype).
 */
static int pfnmap_access_ram(struct vm_area_struct *vma, unsigned long addr,
			     void *buf, int len, int write)
{
	unsigned long pfn = vma->vm_pgoff +
			    ((addr - vma->vm_start) >> PAGE_SHIFT);
	int offset = offset_in_page(addr);
	struct page *page;
	void *kaddr;

	if (write && !(vma->vm_flags & VM_WRITE))
		return -EINVAL;
	/* allow_ram maps offline (hot-added) System RAM too: no valid memmap */
	page = pfn_to_online_page(pfn);
	if (!page)
		return -EINVAL;
	len = min_t(int, len, PAGE_SIZE - offset);
	kaddr = kmap_local_page(page);
	if (write)
		memcpy(kaddr + offset, buf, len);
	else
		memcpy(buf, kaddr + offset, len);
	kunmap_local(kaddr);
	return len;
}

static int pfnmap_access(struct vm_area_struct *vma, unsigned long addr,
			 void *buf, int len, int write)
{
	const struct pfnmap_map *map = vma->vm_private_data;

	if (map && map->ram)
		return pfnmap_access_ram(vma, addr, buf, len, write);
#ifdef CONFIG_HAVE_IOREMAP_PROT
	return generic_access_phys(vma, addr, buf, len, write);
#else
	return -EINVAL;
#endif
}

static int pfnmap_may_split(struct vm_area_struct *vma, unsigned long addr)
{
	return -EINVAL;
}

static const struct vm_operations_struct pfnmap_vm_ops = {
	.open = pfnmap_vm_open,
	.close = pfnmap_vm_close,
	.may_split = pfnmap_may_split,
	.access = pfnmap_access,
};

static int pfnmap_remap(struct vm_area_struct *vma, size_t size, bool ram)
{
	int ret;

	if (ram)
		ret = remap_pfn_range(vma, vma->vm_start, vma->vm_pgoff, size,
				      vma->vm_page_prot);
	else
		ret = io_remap_pfn_range(vma, vma->vm_start, vma->vm_pgoff,
					 size, vma->vm_page_prot);
	return ret ? -EAGAIN : 0;
}

static int pfnmap_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct pfnmap_file *pf = file->private_data;
	size_t size = vma->vm_end - vma->vm_start;
	phys_addr_t start = (phys_addr_t)vma->vm_pgoff << PAGE_SHIFT;
	u32 cache;
	bool ram;
	int ret;

	mutex_lock(&pf->lock);
	cache = pf->cache;
	mutex_unlock(&pf->lock);

	ret = pfnmap_check_range(vma, start, size);
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
	if (ret)
		return ret;
	return pfnmap_check_applied(pf, vma, cache);
}

/*
 * A refused mmap() is not unmapped through vm_ops->close on every kernel
 * (6.1 frees the VMA without calling it): drop its map here.  The core
 * zaps what pfnmap_remap() filled in only after this returns; the VMA was
 * never inserted into the process, and the address range is one that
 * mmap() has not returned, so no user of the mapping is left to notice.
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
	};

	if (READ_ONCE(allow_ram))
		info.policy |= PFNMAP_POLICY_ALLOW_RAM;
#ifdef CONFIG_X86
	if (pat_enabled())
		info.flags |= PFNMAP_INFO_PAT;
#endif
	mutex_lock(&pf->lock);
	info.cache = pf->cache;
	info.applied_cache = pf->applied;
	if (pf->mapped)
		info.flags |= PFNMAP_INFO_MAPPED;
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

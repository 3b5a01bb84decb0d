/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pfnmap: the few differences between the kernels the helper builds on
 * (Debian 12's 6.1 and bookworm-backports' 6.12), in one place.
 *
 * Feature checks where the kernel offers one: Kbuild greps the kernel's
 * include/linux/mm.h and passes PFNMAP_HAVE_VM_FLAGS_SET,
 * PFNMAP_HAVE_FOLLOW_PFNMAP and PFNMAP_HAVE_FOLLOW_PTE_VMA;
 * FOP_UNSIGNED_OFFSET is a macro.
 */
#ifndef _PFNMAP_COMPAT_H
#define _PFNMAP_COMPAT_H

#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>

/* vm_flags became read-only with vm_flags_set()/vm_flags_clear() in 6.3 */
#ifdef PFNMAP_HAVE_VM_FLAGS_SET
static inline void pfnmap_vm_flags_set(struct vm_area_struct *vma,
				       vm_flags_t flags)
{
	vm_flags_set(vma, flags);
}

static inline void pfnmap_vm_flags_clear(struct vm_area_struct *vma,
					 vm_flags_t flags)
{
	vm_flags_clear(vma, flags);
}
#else
static inline void pfnmap_vm_flags_set(struct vm_area_struct *vma,
				       vm_flags_t flags)
{
	vma->vm_flags |= flags;
}

static inline void pfnmap_vm_flags_clear(struct vm_area_struct *vma,
					 vm_flags_t flags)
{
	vma->vm_flags &= ~flags;
}
#endif

/*
 * Physical addresses above 4 GiB from a 32-bit process on a 32-bit PAE
 * kernel: file_mmap_ok() refuses pgoff > ULONG_MAX >> PAGE_SHIFT unless the
 * file opts into unsigned offsets.  6.12 has FOP_UNSIGNED_OFFSET (set in
 * file_operations.fop_flags by pfnmap.c), older kernels FMODE_UNSIGNED_OFFSET
 * in f_mode at open().
 */
#ifdef FOP_UNSIGNED_OFFSET
static inline void pfnmap_set_unsigned_offset(struct file *file)
{
}
#else
static inline void pfnmap_set_unsigned_offset(struct file *file)
{
	file->f_mode |= FMODE_UNSIGNED_OFFSET;
}
#endif

/*
 * x86 and arm64 read the type back from the PTE; 32-bit ARM has no
 * pte_pgprot()
 */
#if defined(CONFIG_X86) || defined(CONFIG_ARM64)
/*
 * The page protection of the PTE that maps @addr in the PFN map @vma.
 * remap_pfn_range() hands the cache type PAT chose only to the PTEs, not to
 * vma->vm_page_prot, so the PTE is the one place that tells.
 * 6.12: follow_pfnmap_start(); 6.10, 6.11: follow_pte(vma, ...);
 * before: follow_pte(mm, ...).  Caller holds mmap_lock.
 */
#ifdef PFNMAP_HAVE_FOLLOW_PFNMAP
static inline int pfnmap_pte_prot(struct vm_area_struct *vma,
				  unsigned long addr, pgprot_t *prot)
{
	struct follow_pfnmap_args args = { .vma = vma, .address = addr };
	int ret;

	ret = follow_pfnmap_start(&args);
	if (ret)
		return ret;
	*prot = args.pgprot;
	follow_pfnmap_end(&args);
	return 0;
}
#else
static inline int pfnmap_pte_prot(struct vm_area_struct *vma,
				  unsigned long addr, pgprot_t *prot)
{
	spinlock_t *ptl;
	pte_t *ptep;
	int ret;

#ifdef PFNMAP_HAVE_FOLLOW_PTE_VMA
	ret = follow_pte(vma, addr, &ptep, &ptl);
#else
	ret = follow_pte(vma->vm_mm, addr, &ptep, &ptl);
#endif
	if (ret)
		return ret;
	*prot = pte_pgprot(ptep_get(ptep));
	pte_unmap_unlock(ptep, ptl);
	return 0;
}
#endif
#endif /* CONFIG_X86 || CONFIG_ARM64 */

#endif /* _PFNMAP_COMPAT_H */

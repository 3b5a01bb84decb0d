// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only module for the x86 QEMU guests (tests/vm/run.sh): one page of
 * System RAM that the kernel maps uncached with set_memory_uc(), as a
 * driver does for memory a device reads without snooping the caches.  PAT
 * then gives every new mapping of the page that type, and the helper must
 * refuse to map it in auto mode, where System RAM means write-back.  The
 * page frame is in /sys/module/pfnmap_ucpage/parameters/pfn.
 */
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <asm/set_memory.h>

static unsigned long pfn;
module_param(pfn, ulong, 0444);
MODULE_PARM_DESC(pfn, "The page frame of the uncached page");

static struct page *ucpage;

/* GFP_KERNEL: low memory, which set_memory_uc() needs an address of */
static int __init ucpage_init(void)
{
	int ret;

	ucpage = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!ucpage)
		return -ENOMEM;
	ret = set_memory_uc((unsigned long)page_address(ucpage), 1);
	if (ret) {
		__free_page(ucpage);
		return ret;
	}
	pfn = page_to_pfn(ucpage);
	return 0;
}
module_init(ucpage_init);

static void __exit ucpage_exit(void)
{
	set_memory_wb((unsigned long)page_address(ucpage), 1);
	__free_page(ucpage);
}
module_exit(ucpage_exit);

MODULE_DESCRIPTION("pfnmap guest tests: a page of System RAM mapped uncached");
MODULE_LICENSE("GPL");

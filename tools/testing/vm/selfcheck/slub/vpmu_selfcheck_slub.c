// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_selfcheck_slub - harness self-check injector: a module whose init
 * writes to a slab object after freeing it.  On a kernel booted with
 * slub_debug=FZPU the next allocation from the cache finds the poison
 * overwritten and SLUB reports "BUG vpmu_selfcheck_slub (...): Poison
 * overwritten"; tools/testing/vm/selfcheck.sh checks that the harness
 * counts that line as a splat of its own.  Never part of a normal run.
 */
#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/slab.h>

#define NR_OBJS 64

static int __init vpmu_selfcheck_slub_init(void)
{
	static void *objs[NR_OBJS];
	struct kmem_cache *cache;
	u8 *obj;
	int i;

	/* A cache of its own, so no other user trips over the corruption. */
	cache = kmem_cache_create("vpmu_selfcheck_slub", 64, 0, 0, NULL);
	if (!cache)
		return -ENOMEM;
	obj = kmem_cache_alloc(cache, GFP_KERNEL);
	if (!obj) {
		kmem_cache_destroy(cache);
		return -ENOMEM;
	}
	kmem_cache_free(cache, obj);
	/* The deliberate use after free. */
	WRITE_ONCE(obj[8], 0x42);
	/*
	 * SLUB's debug path checks the poison of every object it hands out;
	 * taking more objects than a slab holds is sure to reach this one.
	 */
	for (i = 0; i < NR_OBJS; i++)
		objs[i] = kmem_cache_alloc(cache, GFP_KERNEL);
	for (i = 0; i < NR_OBJS; i++)
		if (objs[i])
			kmem_cache_free(cache, objs[i]);
	kmem_cache_destroy(cache);
	return 0;
}

static void __exit vpmu_selfcheck_slub_exit(void)
{
}

module_init(vpmu_selfcheck_slub_init);
module_exit(vpmu_selfcheck_slub_exit);
MODULE_DESCRIPTION("vpmu harness self-check: deliberate slab use after free");
MODULE_LICENSE("GPL");

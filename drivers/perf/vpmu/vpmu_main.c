// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu - a perf PMU backed by an emulated microcoded processor.
 *
 * Module entry points: validate the built-in microcode, then bring the
 * parts up in order and tear them down in reverse.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "vpmu.h"
#include "vpmu_engine.h"

/* The image every engine runs until another is loaded. */
static struct vpmu_ucode *vpmu_default;

/*
 * The default image is assembled from ucode/default.vus at build time.  It
 * goes through the same validator as any image a user loads: a module
 * whose built-in microcode does not validate refuses to load.
 */
static int vpmu_load_default(void)
{
	const struct vpmu_image_header *h;
	struct vpmu_verr verr;
	int ret;

	ret = vpmu_ucode_load(&vpmu_default, vpmu_default_ucode,
			      vpmu_default_ucode_len, VPMU_CS_MAX, &verr);
	if (ret) {
		pr_err("built-in microcode rejected: %s\n", verr.msg);
		return ret;
	}
	h = vpmu_ucode_header(vpmu_default);
	pr_info("built-in microcode \"%s\" version %u, %u microwords\n",
		h->name, h->image_version, h->cs_words);
	return 0;
}

static int __init vpmu_init(void)
{
	int ret;

	ret = vpmu_load_default();
	if (ret)
		return ret;

	ret = vpmu_pmu_register();
	if (ret)
		goto out_free_default;

	pr_info("loaded\n");
	return 0;

out_free_default:
	vpmu_ucode_free(vpmu_default);
	return ret;
}

static void __exit vpmu_exit(void)
{
	vpmu_pmu_unregister();
	vpmu_ucode_free(vpmu_default);
	pr_info("unloaded\n");
}

module_init(vpmu_init);
module_exit(vpmu_exit);

MODULE_DESCRIPTION("perf PMU backed by an emulated microcoded processor");
MODULE_LICENSE("GPL");

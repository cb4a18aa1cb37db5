// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu - a perf PMU backed by an emulated microcoded processor.
 *
 * Module entry points: check the parameters, validate the built-in
 * microcode, then bring the parts up in order and tear them down in
 * reverse.  Documentation/vpmu/module.rst describes the parameters.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "vpmu.h"
#include "vpmu_engine.h"

unsigned int vpmu_nr_counters = 3;
module_param_named(nr_counters, vpmu_nr_counters, uint, 0444);
MODULE_PARM_DESC(nr_counters, "programmable counters per engine, 1..16 (default 3)");

/* The 21164's narrow counters: wraps are frequent, as they are meant to be. */
static unsigned int vpmu_widths[VPMU_NR_COUNTERS_MAX] = { 16, 16, 14 };
static unsigned int vpmu_nr_widths = 3;
module_param_array_named(counter_widths, vpmu_widths, uint, &vpmu_nr_widths,
			 0444);
MODULE_PARM_DESC(counter_widths,
		 "counter widths in bits, 1..64; later counters take the last (default 16,16,14)");

unsigned int vpmu_cs_size = VPMU_CS_MAX;
module_param_named(cs_size, vpmu_cs_size, uint, 0444);
MODULE_PARM_DESC(cs_size, "control-store words per engine, 64..4096 (default 4096)");

/*
 * The one copy of the histogram interval K, also read and written as
 * uhist/interval.  Read by every run chunk without a lock, so stored with
 * WRITE_ONCE; the engines pick a new value up at their next chunk
 * (vpmu_cpu_engine_get()), and sample only while uhist/state is running
 * (vpmu_uhist.c).
 */
static unsigned int vpmu_uhist;

static int vpmu_uhist_set(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int ret;

	ret = kstrtouint(val, 0, &v);
	if (ret)
		return ret;
	WRITE_ONCE(*(unsigned int *)kp->arg, v);
	return 0;
}

static const struct kernel_param_ops vpmu_uhist_ops = {
	.set	= vpmu_uhist_set,
	.get	= param_get_uint,
};
module_param_cb(uhist_interval, &vpmu_uhist_ops, &vpmu_uhist, 0644);
MODULE_PARM_DESC(uhist_interval,
		 "micro-PC histogram sampling interval in cycles; nonzero at load starts sampling (default 0)");

u32 vpmu_uhist_interval(void)
{
	return READ_ONCE(vpmu_uhist);
}

/* uhist/interval writes the same variable as the parameter. */
void vpmu_uhist_interval_write(u32 interval)
{
	WRITE_ONCE(vpmu_uhist, interval);
}

/* Counters past the counter_widths list take its last width. */
unsigned int vpmu_counter_width(unsigned int idx)
{
	return vpmu_widths[min(idx, vpmu_nr_widths - 1)];
}

static int __init vpmu_check_params(void)
{
	unsigned int i;

	if (vpmu_nr_counters < 1 || vpmu_nr_counters > VPMU_NR_COUNTERS_MAX) {
		pr_err("nr_counters=%u: must be 1..%u\n", vpmu_nr_counters,
		       VPMU_NR_COUNTERS_MAX);
		return -EINVAL;
	}
	if (!vpmu_nr_widths) {
		pr_err("counter_widths: at least one width is needed\n");
		return -EINVAL;
	}
	for (i = 0; i < vpmu_nr_widths; i++) {
		if (vpmu_widths[i] < 1 || vpmu_widths[i] > 64) {
			pr_err("counter_widths: width %u of counter %u must be 1..64\n",
			       vpmu_widths[i], i);
			return -EINVAL;
		}
	}
	if (vpmu_cs_size < 64 || vpmu_cs_size > VPMU_CS_MAX) {
		pr_err("cs_size=%u: must be 64..%lu\n", vpmu_cs_size,
		       VPMU_CS_MAX);
		return -EINVAL;
	}
	return 0;
}

/**
 * vpmu_builtin_load() - validate and decode the built-in image
 * @out: the decoded image, owned by the caller
 * @verr: why it was rejected
 *
 * The default image is assembled from ucode/default.vus at build time.  It
 * goes through the same validator, with the same control-store limit, as
 * any image a user loads; ucode/load_default decodes it afresh each time,
 * so every installed image owns its decoded copy.
 *
 * Return: 0 or the validator's negative errno.
 */
int vpmu_builtin_load(struct vpmu_ucode **out, struct vpmu_verr *verr)
{
	return vpmu_ucode_load(out, vpmu_default_ucode, vpmu_default_ucode_len,
			       vpmu_cs_size, verr);
}

/*
 * A module whose built-in microcode does not validate refuses to load; one
 * whose microcode does not fit cs_size blames the parameter.
 */
static int __init vpmu_load_default(struct vpmu_ucode **out)
{
	const struct vpmu_image_header *h;
	struct vpmu_verr verr;
	int ret;

	ret = vpmu_builtin_load(out, &verr);
	if (ret == -EFBIG && verr.code == VPMU_VERR_TOO_BIG) {
		pr_err("cs_size=%u: too small for the built-in microcode: %s\n",
		       vpmu_cs_size, verr.msg);
		return -EINVAL;
	}
	if (ret) {
		pr_err("built-in microcode rejected: %s\n", verr.msg);
		return ret;
	}
	h = vpmu_ucode_header(*out);
	pr_info("built-in microcode \"%s\" version %u, %u microwords\n",
		h->name, h->image_version, h->cs_words);
	return 0;
}

static int __init vpmu_init(void)
{
	struct vpmu_ucode *uc;
	int ret;

	ret = vpmu_check_params();
	if (ret)
		return ret;

	ret = vpmu_load_default(&uc);
	if (ret)
		return ret;

	/* Takes @uc, even when it fails. */
	ret = vpmu_core_init(uc);
	if (ret)
		return ret;

	ret = vpmu_uhist_init();
	if (ret)
		goto out_core_exit;

	/*
	 * The PMU comes last: once registered, events can be opened on it,
	 * and nothing may fail after that (a module whose init fails is
	 * freed whatever still refers to it).  /dev/vpmu is registered
	 * before it but refuses opens until the module is up.
	 */
	ret = vpmu_cdev_register();
	if (ret)
		goto out_uhist_exit;

	ret = vpmu_pmu_register();
	if (ret)
		goto out_cdev_unregister;

	vpmu_cdev_enable();
	pr_info("loaded\n");
	return 0;

out_cdev_unregister:
	/* A failed registration may have shown ucode/ for a moment. */
	vpmu_loader_exit();
	vpmu_cdev_unregister();
out_uhist_exit:
	vpmu_uhist_exit();
out_core_exit:
	vpmu_core_exit();
	return ret;
}

static void __exit vpmu_exit(void)
{
	vpmu_pmu_unregister();
	vpmu_cdev_unregister();
	/* The sysfs files are gone: nothing can stage an image any more. */
	vpmu_loader_exit();
	vpmu_uhist_exit();
	vpmu_core_exit();
	pr_info("unloaded\n");
}

module_init(vpmu_init);
module_exit(vpmu_exit);

MODULE_DESCRIPTION("perf PMU backed by an emulated microcoded processor");
MODULE_LICENSE("GPL");

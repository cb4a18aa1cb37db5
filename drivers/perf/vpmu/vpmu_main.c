// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu - a perf PMU backed by an emulated microcoded processor.
 *
 * Module entry points: check the parameters, validate the built-in
 * microcode, then bring the parts up in order and tear them down in
 * reverse.  Documentation/admin-guide/perf/vpmu.rst, "Module parameters",
 * describes the parameters.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "vpmu.h"
#include "vpmu_engine.h"
#include "vpmu_machine.h"
/* VPMU_MODULE_VERSION, the driver's version (generated outside Kbuild). */
#include "vpmu_version.h"

#ifdef VPMU_BENCH_PAD
/*
 * A benchmark builds the module again with -DVPMU_BENCH_PAD=n: this
 * function's n bytes move the code linked after this file, the engine's
 * loops among it, by n bytes.  Under TCG, where code sits changes what it
 * costs, and one placement alone can mislead.  Never called.
 */
static void __used vpmu_bench_pad(void)
{
	asm volatile(".skip " __stringify(VPMU_BENCH_PAD) ", 0x90");
}
#endif

static unsigned int vpmu_nr_counters = 3;
module_param_named(nr_counters, vpmu_nr_counters, uint, 0444);
MODULE_PARM_DESC(nr_counters, "programmable counters per engine, 1..16 (default 3)");

/* The 21164's narrow counters: wraps are frequent, as they are meant to be. */
static unsigned int vpmu_widths[VPMU_NR_COUNTERS_MAX] = { 16, 16, 14 };
static unsigned int vpmu_nr_widths = 3;
module_param_array_named(counter_widths, vpmu_widths, uint, &vpmu_nr_widths,
			 0444);
MODULE_PARM_DESC(counter_widths,
		 "counter widths in bits, 1..64; later counters take the last (default 16,16,14)");

static unsigned int vpmu_cs_size = VPMU_CS_MAX;
module_param_named(cs_size, vpmu_cs_size, uint, 0444);
MODULE_PARM_DESC(cs_size, "control-store words per engine, 64..4096 (default 4096)");

static bool vpmu_tc = true;
module_param_named(tc, vpmu_tc, bool, 0444);
MODULE_PARM_DESC(tc, "translate macro instructions: the translation cache (default 1; 0 interprets every microword, with the same counts)");

/*
 * 128 KiB, not the engine's default (VPMU_TC_POOL_DEFAULT, 512 KiB, which
 * holds the benchmarks' long workload): every page of a CPU's first-run
 * allocation is a site the fault tier fails in turn, and at 512 KiB its
 * run_first_on_cpu case outgrew its time.  Larger hot code is evicted
 * from, never wrong; tc_pool_kb=512 holds the workload.
 */
static unsigned int vpmu_tc_pool_kb = 128;
module_param_named(tc_pool_kb, vpmu_tc_pool_kb, uint, 0444);
MODULE_PARM_DESC(tc_pool_kb, "translation pool per engine in KiB, 4..16384 (default 128); the oldest translations make room when it is full");

/*
 * The histogram interval K, which the machine keeps: uhist/interval reads
 * and writes it too, and the engines take a new value at their next chunk
 * (they sample only while uhist/state is running, vpmu_uhist.c).  The
 * parameter holds the value given at load until vpmu_init() hands it to
 * the machine; from then on it reads and writes the machine's, until
 * unload takes the value back.  Its callbacks run under
 * kernel_param_lock(), which the handing over takes too.
 */
static unsigned int vpmu_uhist;
static struct vpmu_machine *vpmu_uhist_machine;

static int vpmu_uhist_set(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int ret;

	ret = kstrtouint(val, 0, &v);
	if (ret)
		return ret;
	if (vpmu_uhist_machine)
		vpmu_machine_uhist_set_interval(vpmu_uhist_machine, v);
	else
		vpmu_uhist = v;
	return 0;
}

/* Shown as any uint parameter is. */
static int vpmu_uhist_get(char *buf, const struct kernel_param *kp)
{
	struct kernel_param p = *kp;
	unsigned int v = vpmu_uhist;

	if (vpmu_uhist_machine)
		v = vpmu_machine_uhist_interval(vpmu_uhist_machine);
	p.arg = &v;
	return param_get_uint(buf, &p);
}

static const struct kernel_param_ops vpmu_uhist_ops = {
	.set	= vpmu_uhist_set,
	.get	= vpmu_uhist_get,
};
module_param_cb(uhist_interval, &vpmu_uhist_ops, NULL, 0644);
MODULE_PARM_DESC(uhist_interval,
		 "micro-PC histogram sampling interval in cycles; nonzero at load starts sampling (default 0)");

/* The device, from module init to exit. */
static struct vpmu *vpmu_device;

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
	if (vpmu_tc_pool_kb < VPMU_TC_POOL_MIN / 256 ||
	    vpmu_tc_pool_kb > VPMU_TC_POOL_MAX / 256) {
		pr_err("tc_pool_kb=%u: must be %u..%u\n", vpmu_tc_pool_kb,
		       VPMU_TC_POOL_MIN / 256, VPMU_TC_POOL_MAX / 256);
		return -EINVAL;
	}
	return 0;
}

/*
 * The device, its machine described by the parameters.  Counters past the
 * counter_widths list take its last width.
 */
static struct vpmu *__init vpmu_alloc(void)
{
	struct vpmu *vpmu = kzalloc(sizeof(*vpmu), GFP_KERNEL);
	struct vpmu_machine *m;
	unsigned int i;

	if (!vpmu)
		return NULL;
	m = &vpmu->machine;
	m->nr_counters = vpmu_nr_counters;
	m->cs_size = vpmu_cs_size;
	m->tc_words = vpmu_tc ? vpmu_tc_pool_kb * 256 : 0;
	for (i = 0; i < VPMU_NR_COUNTERS_MAX; i++)
		m->widths[i] = vpmu_widths[min(i, vpmu_nr_widths - 1)];
	return vpmu;
}

/*
 * Hand the uhist_interval parameter's value down to @m: from now on the
 * parameter reads and writes the machine's interval.  Before the front
 * ends come up (vpmu_uhist_init() reads it).
 */
static void __init vpmu_uhist_give(struct vpmu_machine *m)
{
	kernel_param_lock(THIS_MODULE);
	vpmu_machine_uhist_set_interval(m, vpmu_uhist);
	vpmu_uhist_machine = m;
	kernel_param_unlock(THIS_MODULE);
}

/* Take it back, with the machine's last value, before the machine goes. */
static void vpmu_uhist_take(void)
{
	kernel_param_lock(THIS_MODULE);
	vpmu_uhist = vpmu_machine_uhist_interval(vpmu_uhist_machine);
	vpmu_uhist_machine = NULL;
	kernel_param_unlock(THIS_MODULE);
}

/*
 * A module whose built-in microcode does not validate refuses to load; one
 * whose microcode does not fit cs_size blames the parameter.
 */
static int __init vpmu_load_default(struct vpmu_machine *m,
				    struct vpmu_ucode **out)
{
	const struct vpmu_image_header *h;
	struct vpmu_verr verr;
	int ret;

	ret = vpmu_machine_builtin_load(m, out, &verr);
	if (ret == -EFBIG && verr.code == VPMU_VERR_TOO_BIG) {
		pr_err("cs_size=%u: too small for the built-in microcode: %s\n",
		       m->cs_size, verr.msg);
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

/* The PMU device's sysfs groups, one per front end but /dev/vpmu. */
static void __init vpmu_attr_groups_fill(struct vpmu *vpmu)
{
	const struct attribute_group **g = vpmu->attr_groups;

	*g++ = &vpmu_format_group;
	*g++ = &vpmu_events_group;
	*g++ = &vpmu_ucode_group;
	*g++ = &vpmu_caps_group;
	*g++ = &vpmu->uhist.group;
	*g++ = &vpmu->hu.group;
	*g = NULL;
}

/*
 * The parts come up in order: the machine (engines, image, interrupt
 * lines), the sysfs groups' state, /dev/vpmu, and the PMU last.
 */
static int __init vpmu_init(void)
{
	struct vpmu_ucode *uc;
	struct vpmu *vpmu;
	int ret;

	ret = vpmu_check_params();
	if (ret)
		return ret;
	vpmu = vpmu_alloc();
	if (!vpmu)
		return -ENOMEM;

	ret = vpmu_load_default(&vpmu->machine, &uc);
	if (ret)
		goto out_free;
	/* Takes @uc, even when it fails. */
	ret = vpmu_machine_init(&vpmu->machine, uc);
	if (ret)
		goto out_free;
	vpmu_uhist_give(&vpmu->machine);

	vpmu_loader_init(vpmu);
	ret = vpmu_uhist_init(vpmu);
	if (ret)
		goto out_machine_exit;
	vpmu_hu_init(vpmu);
	vpmu_attr_groups_fill(vpmu);

	/*
	 * The PMU comes last: once registered, events can be opened on it,
	 * and nothing may fail after that (a module whose init fails is
	 * freed whatever still refers to it).  /dev/vpmu is registered
	 * before it but refuses opens until the module is up.
	 */
	ret = vpmu_cdev_register(vpmu);
	if (ret)
		goto out_uhist_exit;

	ret = vpmu_pmu_register(vpmu);
	if (ret)
		goto out_cdev_unregister;

	vpmu_cdev_enable(vpmu);
	vpmu_device = vpmu;
	pr_info("version %s loaded\n", VPMU_MODULE_VERSION);
	return 0;

out_cdev_unregister:
	/* A failed registration may have shown ucode/ for a moment. */
	vpmu_loader_exit(vpmu);
	vpmu_cdev_unregister(vpmu);
out_uhist_exit:
	vpmu_uhist_exit(vpmu);
out_machine_exit:
	vpmu_uhist_take();
	vpmu_machine_exit(&vpmu->machine);
out_free:
	kfree(vpmu);
	return ret;
}

static void __exit vpmu_exit(void)
{
	struct vpmu *vpmu = vpmu_device;

	vpmu_pmu_unregister(vpmu);
	vpmu_cdev_unregister(vpmu);
	/* The sysfs files are gone: nothing can stage an image any more. */
	vpmu_loader_exit(vpmu);
	vpmu_uhist_exit(vpmu);
	vpmu_uhist_take();
	vpmu_machine_exit(&vpmu->machine);
	vpmu_device = NULL;
	kfree(vpmu);
	pr_info("unloaded\n");
}

module_init(vpmu_init);
module_exit(vpmu_exit);

MODULE_DESCRIPTION("perf PMU backed by an emulated microcoded processor");
MODULE_LICENSE("GPL");
MODULE_VERSION(VPMU_MODULE_VERSION);

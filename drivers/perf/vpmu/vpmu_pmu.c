// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_pmu.c - perf glue: registers the "vpmu" PMU.
 *
 * Events are added when the engine lands; until then every event aimed at
 * this PMU is refused with -EOPNOTSUPP, and events for other PMUs with
 * -ENOENT so the core keeps looking.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/perf_event.h>

#include "vpmu.h"
#include "vpmu_compat.h"

static int vpmu_event_init(struct perf_event *event)
{
	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	return -EOPNOTSUPP;
}

static int vpmu_add(struct perf_event *event, int flags)
{
	return -EOPNOTSUPP;
}

static void vpmu_del(struct perf_event *event, int flags)
{
}

static void vpmu_start(struct perf_event *event, int flags)
{
}

static void vpmu_stop(struct perf_event *event, int flags)
{
}

static void vpmu_read(struct perf_event *event)
{
}

/* NULL-terminated; the format/ and events/ groups join when events do. */
static const struct attribute_group *vpmu_attr_groups[] = {
	&vpmu_ucode_group,
	&vpmu_caps_group,
	NULL,
};

static struct pmu vpmu_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= VPMU_TASK_CTX,
	.attr_groups	= vpmu_attr_groups,
	.event_init	= vpmu_event_init,
	.add		= vpmu_add,
	.del		= vpmu_del,
	.start		= vpmu_start,
	.stop		= vpmu_stop,
	.read		= vpmu_read,
};

int vpmu_pmu_register(void)
{
	int ret;

	ret = perf_pmu_register(&vpmu_pmu, "vpmu", -1);
	if (ret)
		pr_err("perf_pmu_register failed: %d\n", ret);
	return ret;
}

void vpmu_pmu_unregister(void)
{
	perf_pmu_unregister(&vpmu_pmu);
}

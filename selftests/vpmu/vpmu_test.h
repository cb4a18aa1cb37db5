/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_test.h - helpers shared by the vpmu selftests.
 */
#ifndef VPMU_TEST_H
#define VPMU_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>

#define VPMU_SYSFS	"/sys/bus/event_source/devices/vpmu"
#define VPMU_KO_DEFAULT	"/opt/vpmu/vpmu.ko"

static inline int vpmu_present(void)
{
	struct stat st;

	return stat(VPMU_SYSFS, &st) == 0;
}

/* The PMU's dynamic type from sysfs, or -1. */
static inline long vpmu_type(void)
{
	char buf[32], *end;
	long type;
	FILE *f;

	f = fopen(VPMU_SYSFS "/type", "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	errno = 0;
	type = strtol(buf, &end, 10);
	if (errno || end == buf || (*end != '\n' && *end != '\0'))
		return -1;
	return type;
}

static inline int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid,
				      int cpu, int group_fd, unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

#endif /* VPMU_TEST_H */

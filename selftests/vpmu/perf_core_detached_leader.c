// SPDX-License-Identifier: GPL-2.0
/*
 * perf_core_detached_leader - a perf core use-after-free that needs no
 * vpmu: a member joins a group whose leader the core has already taken
 * apart (found by vpmu_stress).
 *
 * Two core paths remove an event from its context with DETACH_GROUP and
 * leave it alive, its fd still usable as a group_fd: taking its CPU
 * offline (__perf_event_exit_context(), every event of the CPU context)
 * and an exec of its task (perf_event_remove_on_exec(), events with
 * attr.remove_on_exec).  The leader loses PERF_ATTACH_GROUP.  Nothing in
 * perf_event_open() checks that a group leader is still attached, so a
 * new event may join it (after the CPU is back online, or in the exec'd
 * task): perf_group_attach() links the member onto the leader's
 * sibling_list.  Closing the leader then calls perf_group_detach() on
 * it, which returns at once ("double detach due to exit/hot-unplug +
 * close"), so the member is never promoted and keeps group_leader and
 * sibling_list pointing into the freed leader.  Closing the member reads
 * the freed leader (KASAN: use-after-free in perf_event_update_time(),
 * from __perf_effective_state()) and unlinks itself from the freed list
 * (slub_debug: "list_del corruption. prev->next should be ..., but was
 * 6b6b6b6b6b6b6b6b").
 *
 * Software events only, so the bug is the perf core's whatever the PMU.
 * It crashes the kernels vpmu supports, so it is in no test tier: it is
 * installed beside the tests (TEST_GEN_FILES, which no runner runs) and
 * run on purpose.
 *
 *   perf_core_detached_leader hotplug|exec [ROUNDS]
 *
 * hotplug needs root and /sys/devices/system/cpu/cpu1/online; exec needs
 * only per-task events on a child (perf_event_paranoid <= 2), and lets
 * the member join only where the core lacks mainline's fa091f46c383 and
 * its stable backports (6.1.192; Debian's 6.12 from 6.12.111 on refuses a
 * leader in state EXIT as a group_fd: ENODEV, printed, no splat).  Prints
 * TAP; exit 0 when every round ran (the failure is the kernel's splat),
 * 4 (skip) when the case cannot run here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/perf_event.h>

#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

static int cpu1_set(const char *v)
{
	int fd = open(CPU1_ONLINE, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, v, 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
}

static int sw_open(pid_t pid, int cpu, int group, int remove_on_exec)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = cpu >= 0 ? PERF_COUNT_SW_CPU_CLOCK : PERF_COUNT_SW_TASK_CLOCK;
	a.remove_on_exec = remove_on_exec;
	return syscall(__NR_perf_event_open, &a, pid, cpu, group,
		       PERF_FLAG_FD_CLOEXEC);
}

/* Close the leader, let RCU free it, then close the member. */
static void close_leader_first(int leader, int member)
{
	close(leader);		/* perf_group_detach() does nothing */
	usleep(200000);		/* the leader is freed after a grace period */
	if (member >= 0)
		close(member);	/* touches the freed leader */
}

/* A CPU-wide leader on CPU 1, which goes offline and online again. */
static int round_hotplug(int i)
{
	int leader = sw_open(-1, 1, -1, 0), member, ret;

	if (leader < 0) {
		printf("# leader: %s\n", strerror(errno));
		return -1;
	}
	ret = cpu1_set("0");
	if (!ret)
		ret = cpu1_set("1");
	if (ret) {
		printf("# hotplug: %s\n", strerror(-ret));
		close(leader);
		return -1;
	}
	member = sw_open(-1, 1, leader, 0);
	printf("# round %d: member of the leader CPU hotplug detached: %s\n",
	       i, member < 0 ? strerror(errno) : "accepted");
	fflush(stdout);
	close_leader_first(leader, member);
	return 0;
}

/*
 * A remove_on_exec leader on a child that execs: the child's context
 * lives on, with the leader detached from it.
 */
static int round_exec(int i, const char *self)
{
	int go[2], done[2], leader, member, status;
	pid_t child;
	char c;

	if (pipe(go) || pipe2(done, O_CLOEXEC))
		return -1;
	child = fork();
	if (child < 0)
		return -1;
	if (!child) {
		close(go[1]);
		close(done[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		/* done[1] closes on exec: the parent's read returns 0 */
		execl(self, self, "--sleep", (char *)NULL);
		_exit(1);
	}
	close(go[0]);
	close(done[1]);
	leader = sw_open(child, -1, -1, 1);
	if (leader < 0) {
		printf("# leader: %s\n", strerror(errno));
		kill(child, SIGKILL);
		waitpid(child, &status, 0);
		return -1;
	}
	if (write(go[1], "g", 1) != 1 || read(done[0], &c, 1) != 0)
		printf("# the child did not exec\n");
	member = sw_open(child, -1, leader, 0);
	printf("# round %d: member of the leader exec detached: %s\n", i,
	       member < 0 ? strerror(errno) : "accepted");
	fflush(stdout);
	close_leader_first(leader, member);
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	close(go[1]);
	close(done[0]);
	return 0;
}

int main(int argc, char **argv)
{
	int rounds, i, hotplug;

	if (argc > 1 && !strcmp(argv[1], "--sleep")) {
		sleep(10);
		return 0;
	}
	if (argc < 2 || (strcmp(argv[1], "hotplug") && strcmp(argv[1], "exec"))) {
		fprintf(stderr, "usage: %s hotplug|exec [ROUNDS]\n", argv[0]);
		return 2;
	}
	hotplug = !strcmp(argv[1], "hotplug");
	rounds = argc > 2 ? atoi(argv[2]) : 3;
	printf("TAP version 13\n1..1\n");
	if (hotplug && access(CPU1_ONLINE, W_OK)) {
		printf("ok 1 # SKIP no writable %s\n", CPU1_ONLINE);
		return 4;
	}
	if (hotplug)
		cpu1_set("1");
	for (i = 0; i < rounds; i++) {
		if (hotplug ? round_hotplug(i) : round_exec(i, "/proc/self/exe")) {
			printf("not ok 1 %s: round %d could not run\n", argv[1], i);
			return 1;
		}
	}
	printf("ok 1 %s: %d rounds ran (a kernel splat is the failure)\n",
	       argv[1], rounds);
	return 0;
}

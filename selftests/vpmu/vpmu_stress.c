// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_stress - a seeded random stress of the vpmu PMU, its /dev/vpmu,
 * its microcode loader, its histograms and CPU hotplug, with exact
 * invariants.
 *
 *   vpmu_stress [--seed N] [--seconds S] [--ops N] [--workers N]
 *               [--log DIR] [--verbose] [--keep-module]
 *
 * The module is reloaded with parameters drawn from the seed (counters
 * and their widths), then --workers processes run at once until
 * --seconds pass or each has done --ops operations:
 *
 *   perf    random perf_event_open() events built from format/ and
 *           events/ (counting, sampling, groups of 1-5 with freeze
 *           triggers, ctr pins, exclude_*, inherit; on itself, on a child
 *           or CPU-wide), closed in random orders (leaders first more
 *           often than not), every ioctl, reads, rings, affinity, fork,
 *           and hostile attributes that must fail cleanly;
 *   exact   groups, sampling events, inherit and child-pid events on known
 *           programs whose counts must come out exact, and samples + lost
 *           = floor(count / period);
 *   sys     microcode reloads, hist/ and uhist/ controls and reads
 *           (uhist files read in pieces must be one snapshot), CPU 1
 *           offline and online;
 *   runner  programs through /dev/vpmu on every CPU, results checked.
 *
 * At the end every worker has exited, this process holds no perf event,
 * the module unloads and loads again with default parameters.
 *
 * Each worker logs every operation to DIR/wN.log ("w2 op 17: ...");
 * --verbose copies them to stdout.  A failure prints the seed, worker
 * and operation number, then the end of that worker's log.  The same
 * --seed (and --workers) replays each worker's operations in the same
 * order; --ops bounds them exactly.  Exit status 0: no failure.
 *
 * The files, each using only the ones below it (no global state: main()
 * owns the struct vt_stress_info and hands it to every worker in its struct
 * vt_stress_worker):
 *
 *   vpmu_stress.c           options, workers and the end checks
 *   vpmu_stress_perf.c      the perf worker
 *   vpmu_stress_hostile.c   its hostile attributes
 *   vpmu_stress_exact.c     the exact worker: groups, inherit, child pids
 *   vpmu_stress_sampling.c  the exact worker's sampling checks
 *   vpmu_stress_sys.c       the sys worker (microcode, histograms, CPU
 *                           hotplug) and the runners
 *   vpmu_stress_pmu.[ch]    what the PMU says about itself, and the
 *                           configs built from it
 *   vpmu_stress_lib.[ch]    the generator, struct vt_stress_info, a worker, its
 *                           logging and failures, runs and sample rings
 *
 * vpmu_stress_ops.h declares the roles' operations, which this file and
 * the role files call.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "vpmu_stress_ops.h"
#include "vpmu_stress_pmu.h"

/* ---- workers ------------------------------------------------------------- */

struct vt_stress_opts {
	uint64_t seed;
	unsigned int seconds, workers;
	uint64_t ops;
	const char *logdir;
	bool verbose, keep_module;
};

static enum vt_stress_role role_of(unsigned int i)
{
	static const enum vt_stress_role order[] = {
		VT_STRESS_ROLE_EXACT, VT_STRESS_ROLE_PERF, VT_STRESS_ROLE_SYS,
		VT_STRESS_ROLE_RUNNER, VT_STRESS_ROLE_EXACT, VT_STRESS_ROLE_PERF,
		VT_STRESS_ROLE_RUNNER, VT_STRESS_ROLE_PERF,
	};

	return i < ARRAY_SIZE(order) ? order[i] :
		(i % 2 ? VT_STRESS_ROLE_PERF : VT_STRESS_ROLE_RUNNER);
}

static uint64_t op_seed(uint64_t seed, int worker, uint64_t op)
{
	struct vt_stress_rng r = { seed * 0x100000001b3ull ^ ((uint64_t)worker << 48) ^ op };

	vt_stress_rnd(&r);
	return vt_stress_rnd(&r);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void worker_main(const struct vt_stress_opts *o, const struct vt_stress_info *info,
			int id, double end)
{
	struct vt_stress_worker w;
	char path[512];

	memset(&w, 0, sizeof(w));
	w.id = id;
	w.role = role_of(id);
	w.info = info;
	w.seed = o->seed;
	w.verbose = o->verbose;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	snprintf(path, sizeof(path), "%s/w%d.log", o->logdir, id);
	w.log = fopen(path, "w");
	if (w.log)
		setvbuf(w.log, NULL, _IOLBF, 0);
	if (posix_memalign((void **)&w.mem, 8, vt_stress_mem_size(info)))
		_exit(2);
	w.dev = open(VT_DEV, O_RDWR | O_CLOEXEC);
	if (w.dev < 0) {
		vt_stress_fail(&w, "open %s: %s", VT_DEV, vt_stress_errname(errno));
		_exit(1);
	}
	vt_stress_log(&w, "%s worker, seed %llu", vt_stress_role_names[w.role],
		      (unsigned long long)o->seed);
	w.r.s = op_seed(o->seed, id, ~0ull);
	if (w.role == VT_STRESS_ROLE_PERF)
		vt_stress_perf_init(&w);
	for (w.op = 1; w.op <= o->ops && now() < end; w.op++) {
		w.r.s = op_seed(o->seed, id, w.op);
		w.s.ops++;
		if (w.role == VT_STRESS_ROLE_PERF)
			vt_stress_perf_op(&w);
		else if (w.role == VT_STRESS_ROLE_EXACT)
			vt_stress_exact_op(&w);
		else if (w.role == VT_STRESS_ROLE_SYS)
			vt_stress_sys_op(&w);
		else
			vt_stress_runner_op(&w);
		if (w.failures >= 1000) {
			vt_stress_log(&w, "1000 failures: stopping this worker");
			break;
		}
	}
	w.op = 0;
	if (w.role == VT_STRESS_ROLE_PERF)
		vt_stress_perf_fini(&w);
	if (w.role == VT_STRESS_ROLE_SYS)
		vt_stress_sys_fini(&w);
	printf("# w%d %s: %llu ops, %llu opens (%llu refused), %llu closes, %llu ioctls, %llu reads, %llu runs, %llu samples, %llu lost, exact %llu (+%llu not fully on the counters), %llu sample checks, %llu ucode, %llu uhist, %llu hotplug, %llu hostile, %d failures\n",
	       id, vt_stress_role_names[w.role], (unsigned long long)w.s.ops,
	       (unsigned long long)w.s.opens, (unsigned long long)w.s.open_fail,
	       (unsigned long long)w.s.closes, (unsigned long long)w.s.ioctls,
	       (unsigned long long)w.s.reads, (unsigned long long)w.s.runs,
	       (unsigned long long)w.s.samples, (unsigned long long)w.s.lost,
	       (unsigned long long)w.s.exact_full,
	       (unsigned long long)w.s.exact_partial,
	       (unsigned long long)w.s.sample_checks,
	       (unsigned long long)w.s.ucode, (unsigned long long)w.s.uhist,
	       (unsigned long long)w.s.hotplug, (unsigned long long)w.s.hostile,
	       w.failures);
	fflush(stdout);
	if (w.log)
		fclose(w.log);
	_exit(w.failures ? 1 : 0);
}

/* ---- module parameters, drawn from the seed ------------------------------ */

static void module_params(uint64_t seed, char *buf, size_t size)
{
	static const char *const widths[] = {
		"16,16,14", "16,8,3,64", "64", "12,10,8,6,4", "32,16,5",
		"16,16,14,7",
	};
	static const int counters[] = { 3, 4, 8, 16 };
	struct vt_stress_rng r = { seed ^ 0x6d6f64756c65ull };

	snprintf(buf, size, "nr_counters=%d counter_widths=%s",
		 counters[vt_stress_below(&r, 4)], widths[vt_stress_below(&r, 6)]);
}

static int perf_fds_open(void)
{
	char link[300], target[128];
	struct dirent *e;
	int n = 0;
	DIR *d = opendir("/proc/self/fd");

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		ssize_t len;

		snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
		len = readlink(link, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = '\0';
		if (strstr(target, "perf_event"))
			n++;
	}
	closedir(d);
	return n;
}

static void tail_log(const char *path)
{
	char *text, *p, *fail, op[48] = "";
	size_t len;
	int lines = 0, n;

	text = (char *)vt_read_file(path, &len);
	if (!text)
		return;
	/* the whole operation that failed first: "wN op M: " */
	fail = strstr(text, ": FAIL (seed");
	if (fail) {
		for (p = fail; p > text && p[-1] != '\n'; p--)
			;
		n = strchr(p, ':') - p;
		if (n > 0 && n < (int)sizeof(op) - 2)
			snprintf(op, sizeof(op), "%.*s: ", n, p);
	}
	if (*op) {
		printf("# ---- the first failed operation in %s:\n", path);
		for (p = text; (p = strstr(p, op)); p++)
			if (p == text || p[-1] == '\n')
				printf("#   %.*s\n", (int)strcspn(p, "\n"), p);
	}
	for (p = text + len; p > text; p--)
		if (p[-1] == '\n' && ++lines > 40)
			break;
	printf("# ---- last operations of %s:\n", path);
	for (char *l = strtok(p, "\n"); l; l = strtok(NULL, "\n"))
		printf("#   %s\n", l);
	free(text);
}

static void print_usage(void)
{
	fprintf(stderr,
		"usage: vpmu_stress [--seed N] [--seconds S] [--ops N] [--workers N] [--log DIR] [--verbose] [--keep-module]\n");
	exit(2);
}

static void restore_sysfs(const struct vt_stress_info *info)
{
	if (info->have_hotplug)
		vt_write_file(VT_CPU1_ONLINE, "1");
	if (info->have_uhist)
		vt_write_file(VT_PMU_DIR "/uhist/control", "stop");
	if (info->have_hist) {
		struct vpmu_hu_program off = { .size = sizeof(off) };
		int fd = open(VT_DEV, O_RDWR | O_CLOEXEC);

		if (fd >= 0) {
			ioctl(fd, VPMU_IOC_HU_PROGRAM, &off);
			close(fd);
		}
	}
	vt_load_default();
}

static void parse_opts(int argc, char **argv, struct vt_stress_opts *o)
{
	unsigned int i;

	for (i = 1; i < (unsigned int)argc; i++) {
		const char *a = argv[i], *v = i + 1 < (unsigned int)argc ?
					       argv[i + 1] : NULL;

		if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
			o->verbose = true;
			continue;
		}
		if (!strcmp(a, "--keep-module")) {
			o->keep_module = true;
			continue;
		}
		if (!v)
			print_usage();
		i++;
		if (!strcmp(a, "--seed"))
			o->seed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--seconds"))
			o->seconds = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--ops"))
			o->ops = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--workers"))
			o->workers = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--log"))
			o->logdir = v;
		else
			print_usage();
	}
	if (!o->workers || o->workers > VT_STRESS_MAX_WORKERS)
		print_usage();
}

/*
 * The module reloaded with @params (unless --keep-module, or built in),
 * and what its sysfs files say about it in @info.  Returns 0, or the exit
 * status: 4 to skip, 1 if the reload failed.
 */
static int setup(struct vt_stress_opts *o, const char *params,
		 struct vt_stress_info *info)
{
	int ret;

	if (!vt_module_loaded() || access(VT_DEV, F_OK)) {
		printf("# SKIP: vpmu is not loaded\n");
		return 4;
	}
	if (geteuid()) {
		printf("# SKIP: needs root\n");
		return 4;
	}
	if (!o->keep_module && vt_module_builtin()) {
		printf("# " VT_BUILTIN_REASON ": the module stays as it is\n");
		o->keep_module = true;
	}
	if (!o->keep_module) {
		ret = vt_rmmod_retry();
		if (!ret)
			ret = vt_insmod(params);
		if (ret) {
			printf("# FAIL (seed %llu): reloading the module with %s: %s\n",
			       (unsigned long long)o->seed, params,
			       vt_stress_errname(ret));
			vt_insmod("");
			return 1;
		}
	}
	memset(info, 0, sizeof(*info));
	if (vt_stress_read_info(info) || vt_stress_read_images(info)) {
		printf("# SKIP: cannot read the PMU's sysfs files or $VPMU_SHARE/build\n");
		return 4;
	}
	printf("# PMU type %d, %d counters, %d format fields, %d aliases, %d CPUs\n",
	       info->type, info->nr_counters, info->nfield, info->nalias,
	       info->ncpus);
	return 0;
}

/* Worker @i has ended with @status: a failure unless it exited with 0. */
static int worker_ended(const struct vt_stress_opts *o, unsigned int i,
			int status)
{
	char path[512];

	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	printf("# FAIL (seed %llu): worker %u (%s) %s %d\n",
	       (unsigned long long)o->seed, i,
	       vt_stress_role_names[role_of(i)],
	       WIFEXITED(status) ? "exit status" : "killed by signal",
	       WIFEXITED(status) ? WEXITSTATUS(status) :
				   WTERMSIG(status));
	snprintf(path, sizeof(path), "%s/w%u.log", o->logdir, i);
	tail_log(path);
	return 1;
}

/*
 * Wait for the workers @pids; one still there 60 s after @end is hung,
 * and all that are left are killed.  Returns the number of failures.
 */
static int wait_workers(const struct vt_stress_opts *o, pid_t *pids,
			double end)
{
	unsigned int i, left;
	int failures = 0;

	for (left = o->workers; left;) {
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);

		if (pid <= 0) {
			if (now() > end + 60) {
				printf("# FAIL (seed %llu): %u workers hung after the end; killing them\n",
				       (unsigned long long)o->seed, left);
				failures++;
				for (i = 0; i < o->workers; i++)
					if (pids[i] > 0)
						kill(pids[i], SIGKILL);
				while (wait(NULL) > 0)
					;
				break;
			}
			usleep(50000);
			continue;
		}
		for (i = 0; i < o->workers; i++) {
			if (pids[i] != pid)
				continue;
			pids[i] = 0;
			left--;
			failures += worker_ended(o, i, status);
		}
	}
	return failures;
}

/*
 * The end: nothing open, unload, load with default parameters.  Returns
 * the number of failures.
 */
static int end_checks(const struct vt_stress_opts *o,
		      const struct vt_stress_info *info)
{
	int failures = 0, ret;

	restore_sysfs(info);
	if (perf_fds_open()) {
		printf("# FAIL (seed %llu): %d perf event fds still open in the parent\n",
		       (unsigned long long)o->seed, perf_fds_open());
		failures++;
	}
	if (!o->keep_module) {
		ret = vt_rmmod_retry();
		if (ret) {
			printf("# FAIL (seed %llu): rmmod vpmu at the end: %s\n",
			       (unsigned long long)o->seed, vt_stress_errname(ret));
			failures++;
		}
		ret = vt_insmod("");
		if (ret && !vt_module_loaded()) {
			printf("# FAIL (seed %llu): insmod %s at the end: %s\n",
			       (unsigned long long)o->seed, vt_ko(),
			       vt_stress_errname(ret));
			failures++;
		}
	}
	return failures;
}

int main(int argc, char **argv)
{
	struct vt_stress_opts o = { .seed = 1, .seconds = 20, .workers = 6,
			     .ops = ~0ull, .logdir = NULL };
	struct vt_stress_info info;
	pid_t pids[VT_STRESS_MAX_WORKERS];
	char params[128], logdir[256];
	unsigned int i;
	int failures = 0, ret;
	double end, start = now();

	parse_opts(argc, argv, &o);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!o.logdir) {
		snprintf(logdir, sizeof(logdir), "/tmp/vpmu_stress-%llu",
			 (unsigned long long)o.seed);
		o.logdir = logdir;
	}
	mkdir(o.logdir, 0755);
	module_params(o.seed, params, sizeof(params));
	printf("# vpmu_stress --seed %llu --seconds %u --workers %u%s: module %s, logs in %s\n",
	       (unsigned long long)o.seed, o.seconds, o.workers,
	       o.ops != ~0ull ? " (--ops bound)" : "",
	       o.keep_module ? "as loaded" : params, o.logdir);
	ret = setup(&o, params, &info);
	if (ret)
		return ret;

	end = start + o.seconds;
	for (i = 0; i < o.workers; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			printf("# FAIL: fork: %s\n", strerror(errno));
			return 1;
		}
		if (!pids[i])
			worker_main(&o, &info, i, end);
	}
	failures += wait_workers(&o, pids, end);
	failures += end_checks(&o, &info);
	printf("# seed %llu: %s after %.1f s (%d failures)\n",
	       (unsigned long long)o.seed, failures ? "FAIL" : "pass",
	       now() - start, failures);
	return failures ? 1 : 0;
}

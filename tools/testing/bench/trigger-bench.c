// SPDX-License-Identifier: GPL-2.0
/*
 * trigger-bench - the guest-side program of make feature-bench: runs a
 * program file through /dev/vpmu (VPMU_IOC_RUN) RUNS times, with or
 * without a perf event counting vpmu_uops, and prints the wall time of
 * the runs alone (opening the event and reading the file are not timed).
 *
 *   trigger-bench [OPTION]... MODE PROGRAM.vprg
 *
 *   plain     no event
 *   count     one vpmu_uops event, enabled at open: it counts everything
 *   trigger   one vpmu_uops event, enabled at open, with attr.config1 =
 *             trig_mark | frozen: it counts only from a mark to the next
 *   ioctl     one vpmu_uops event, disabled at open and without a
 *             trigger; every run is bracketed by PERF_EVENT_IOC_ENABLE
 *             and PERF_EVENT_IOC_DISABLE
 *
 *   -n RUNS       runs (default 1)
 *   -e ENTRY      entry address instead of the file's
 *   -b BUDGET     cycle budget of each run (default 10^9)
 *   -C CYCLES     every run must use exactly CYCLES cycles
 *   -c COUNT      the event's final count must be exactly COUNT
 *
 * Every run must stop with the same reason and cycles as the first (and
 * -C's cycles).  Prints "time SECONDS", "runs N", "stop REASON cycles N"
 * (of each run) and, with an event, "count N".  Exit status 0, or 1 with
 * a message on stderr when anything fails or does not match: a
 * benchmark whose counts are wrong measures nothing.
 *
 * The bit positions of trig_mark and frozen and the event number of
 * vpmu_uops are read from the PMU's format/ and events/ files, so the
 * program follows the driver's layout.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <linux/vpmu.h>

#define PMU_DIR	"/sys/bus/event_source/devices/vpmu/"
#define DEV	"/dev/vpmu"

static const char *prog_name = "trigger-bench";

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void __attribute__((noreturn)) usage(void)
{
	fprintf(stderr,
		"Usage: %s [-n RUNS] [-e ENTRY] [-b BUDGET] [-C CYCLES] [-c COUNT]\n"
		"       plain|count|trigger|ioctl PROGRAM.vprg\n", prog_name);
	exit(2);
}

/* The first line of a sysfs file, without its newline. */
static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		die("%s: %s", path, strerror(errno));
	if (!fgets(buf, len, f))
		die("%s: empty", path);
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* A format/ file that names one bit of config1: "config1:N". */
static uint64_t config1_bit(const char *field)
{
	char path[256], buf[64];
	unsigned int bit;
	int end = 0;

	snprintf(path, sizeof(path), PMU_DIR "format/%s", field);
	if (access(path, F_OK))
		die("%s: %s (a module without triggers?)", path,
		    strerror(errno));
	read_line(path, buf, sizeof(buf));
	if (sscanf(buf, "config1:%u%n", &bit, &end) != 1 || buf[end] ||
	    bit > 63)
		die("%s: \"%s\" is not one bit of config1", path, buf);
	return 1ull << bit;
}

static uint64_t parse_u64(const char *s, const char *what)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		die("bad %s: %s", what, s);
	return v;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *stop_name(unsigned int stop)
{
	static const char *const names[] = {
		[VPMU_RUN_BUDGET] = "budget", [VPMU_RUN_HALT] = "halt",
		[VPMU_RUN_TRAP] = "trap", [VPMU_RUN_FAULT] = "fault",
		[VPMU_RUN_SIGNAL] = "signal",
	};

	return stop < sizeof(names) / sizeof(names[0]) ? names[stop] : "?";
}

/* The program file: header checked, memory image allocated. */
struct prog {
	uint8_t *mem;
	uint32_t mem_size, entry, mode;
};

static void load_prog(const char *path, struct prog *p)
{
	struct vpmu_program_header h;
	FILE *f = fopen(path, "rb");

	if (!f)
		die("%s: %s", path, strerror(errno));
	if (fread(&h, sizeof(h), 1, f) != 1)
		die("%s: too short", path);
	if (h.magic != VPMU_PROG_MAGIC || h.version != VPMU_PROG_VERSION ||
	    h.header_size != sizeof(h) || h.load_size > h.mem_size ||
	    h.mem_size > VPMU_PROG_MEM_MAX || h.mem_size % 4 ||
	    h.total_size != h.header_size + h.load_size)
		die("%s: not a vpmu program file", path);
	p->mem = aligned_alloc(8, h.mem_size + 8);
	if (!p->mem)
		die("out of memory");
	memset(p->mem, 0, h.mem_size);
	if (fread(p->mem, 1, h.load_size, f) != h.load_size)
		die("%s: truncated", path);
	fclose(f);
	p->mem_size = h.mem_size;
	p->entry = h.entry;
	p->mode = h.flags & VPMU_PROG_F_SUPER ? VPMU_MODE_SUPER :
		  VPMU_MODE_USER;
}

static int open_uops(uint64_t config1, bool disabled)
{
	struct perf_event_attr attr;
	char buf[64];
	unsigned int type, ev;
	int end = 0, fd;

	read_line(PMU_DIR "type", buf, sizeof(buf));
	if (sscanf(buf, "%u", &type) != 1)
		die(PMU_DIR "type: \"%s\"", buf);
	read_line(PMU_DIR "events/vpmu_uops", buf, sizeof(buf));
	if (sscanf(buf, "event=%x%n", &ev, &end) != 1 || buf[end])
		die(PMU_DIR "events/vpmu_uops: \"%s\"", buf);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = ev;
	attr.config1 = config1;
	attr.disabled = disabled;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		die("perf_event_open(vpmu_uops, config1 %#" PRIx64 "): %s",
		    config1, strerror(errno));
	return fd;
}

enum mode { PLAIN, COUNT, TRIGGER, IOCTL };

int main(int argc, char **argv)
{
	uint64_t runs = 1, budget = 1000000000, want_cycles = 0;
	uint64_t want_count = 0, count = 0, i;
	bool have_cycles = false, have_count = false, have_entry = false;
	struct vpmu_run r, first;
	uint32_t entry = 0;
	struct prog p;
	enum mode mode;
	int c, dev, ev = -1;
	double t0, t;

	while ((c = getopt(argc, argv, "n:e:b:C:c:h")) != -1) {
		switch (c) {
		case 'n':
			runs = parse_u64(optarg, "runs");
			break;
		case 'e':
			entry = parse_u64(optarg, "entry");
			have_entry = true;
			break;
		case 'b':
			budget = parse_u64(optarg, "budget");
			break;
		case 'C':
			want_cycles = parse_u64(optarg, "cycles");
			have_cycles = true;
			break;
		case 'c':
			want_count = parse_u64(optarg, "count");
			have_count = true;
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2 || !runs)
		usage();
	if (!strcmp(argv[optind], "plain"))
		mode = PLAIN;
	else if (!strcmp(argv[optind], "count"))
		mode = COUNT;
	else if (!strcmp(argv[optind], "trigger"))
		mode = TRIGGER;
	else if (!strcmp(argv[optind], "ioctl"))
		mode = IOCTL;
	else
		usage();
	if (have_count && mode == PLAIN)
		die("-c needs an event (count, trigger or ioctl)");

	load_prog(argv[optind + 1], &p);
	if (have_entry)
		p.entry = entry;
	dev = open(DEV, O_RDWR | O_CLOEXEC);
	if (dev < 0)
		die(DEV ": %s", strerror(errno));
	if (mode == COUNT)
		ev = open_uops(0, false);
	else if (mode == TRIGGER)
		ev = open_uops(config1_bit("trig_mark") | config1_bit("frozen"),
			       false);
	else if (mode == IOCTL)
		ev = open_uops(0, true);

	memset(&r, 0, sizeof(r));
	r.size = sizeof(r);
	r.mem = (uintptr_t)p.mem;
	r.mem_size = p.mem_size;
	r.entry = p.entry;
	r.budget = budget;
	r.mode = p.mode;
	memset(&first, 0, sizeof(first));

	t0 = now();
	for (i = 0; i < runs; i++) {
		if (mode == IOCTL && ioctl(ev, PERF_EVENT_IOC_ENABLE, 0))
			die("PERF_EVENT_IOC_ENABLE: %s", strerror(errno));
		if (ioctl(dev, VPMU_IOC_RUN, &r))
			die("run %" PRIu64 ": VPMU_IOC_RUN: %s", i,
			    strerror(errno));
		if (mode == IOCTL && ioctl(ev, PERF_EVENT_IOC_DISABLE, 0))
			die("PERF_EVENT_IOC_DISABLE: %s", strerror(errno));
		if (!i)
			first = r;
		else if (r.stop != first.stop || r.cycles != first.cycles)
			break;
	}
	t = now() - t0;

	if (i < runs)
		die("run %" PRIu64 " stopped (%s) after %llu cycles, run 0 (%s) after %llu",
		    i, stop_name(r.stop), (unsigned long long)r.cycles,
		    stop_name(first.stop), (unsigned long long)first.cycles);
	if (have_cycles && first.cycles != want_cycles)
		die("the runs took %llu cycles, not %" PRIu64,
		    (unsigned long long)first.cycles, want_cycles);
	if (first.stop == VPMU_RUN_SIGNAL)
		die("interrupted by a signal");
	printf("time %.6f\nruns %" PRIu64 "\nstop %s cycles %llu\n", t, runs,
	       stop_name(first.stop), (unsigned long long)first.cycles);
	if (ev >= 0) {
		if (read(ev, &count, sizeof(count)) != sizeof(count))
			die("reading the event: %s", strerror(errno));
		printf("count %" PRIu64 "\n", count);
		if (have_count && count != want_count)
			die("%s: counted %" PRIu64 " vpmu_uops, not %" PRIu64,
			    argv[optind], count, want_count);
	}
	return 0;
}

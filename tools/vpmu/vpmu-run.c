// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu-run - run a machine-code program on the kernel's engine through
 * /dev/vpmu (VPMU_IOC_RUN), print the results and optionally check them
 * against a sample's .expect file.  A static RV32 ELF program runs as
 * vpmu-sim runs it, its ecalls served here between VPMU_RUN_F_RESUME
 * calls (Documentation/vpmu/rv32.rst).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "vpmu_elf.h"
#include "vpmu_runner.h"

#define DEFAULT_BUDGET	1000000000ull
#define DEFAULT_DEVICE	"/dev/vpmu"
#define UCODE_IMAGE	"/sys/bus/event_source/devices/vpmu/ucode/image"

static const char *prog_name = "vpmu-run";

static void usage(FILE *f)
{
	fprintf(f,
"Usage: %s [OPTION]... PROGRAM.vprg\n"
"       %s [-m RV32IM-IMAGE] [OPTION]... PROGRAM.elf\n"
"Run a vpmu program file (from vpmu-as -m) on the engine of the calling\n"
"CPU through /dev/vpmu, and print each run's stop reason, cycles, image\n"
"generation and non-zero registers.\n"
"\n"
"A static RV32 ELF executable runs under the module's current image (load\n"
"rv32im.vpmu first) as vpmu-sim and qemu-riscv32 run it: its PT_LOAD\n"
"segments at their addresses, sp (x2) at the top of memory, the ecall\n"
"trap served as a Linux system call (write 64 to fd 1 or 2, exit 93,\n"
"exit_group 94) and the run resumed.  The program's exit status is\n"
"vpmu-run's; a program that stops otherwise exits 124 (budget), 132\n"
"(illegal instruction), 133 (ebreak) or 139 (fault).\n"
"\n"
"  -n, --runs=N          run N times, each from a fresh copy of the file's\n"
"                        memory (default 1)\n"
"  -b, --budget=CYCLES   cycle budget of each run (default 1G = 10^9; up to\n"
"                        2^40; suffixes k M G T, Ki Mi Gi Ti, or 2^N)\n"
"  -s, --super           start in supervisor mode (default: the file's mode)\n"
"  -x, --ext             assert the external signal line (microcode\n"
"                        condition EXT) from the start of each run\n"
"      --ext-at=CYCLES   flip the line once, at the first microword\n"
"                        boundary after CYCLES cycles of the run\n"
"  -e, --expect=FILE     check every run against FILE (.expect: stop, reg,\n"
"                        mem and \"event cycles\" lines; other event lines\n"
"                        are perf's and are skipped); exit 1 on a mismatch\n"
"  -t, --time            also print wall time and cycles per second\n"
"  -v, --verbose         print all 32 registers\n"
"  -q, --quiet           print only errors and mismatches\n"
"  -d, --device=PATH     the character device (default " DEFAULT_DEVICE ")\n"
"  -m, --image=IMAGE     ELF: refuse to run unless IMAGE is the module's\n"
"                        current image (checked when its image file is\n"
"                        readable: root)\n"
"      --mem=BYTES       memory of an ELF program (default 1 MiB, at most\n"
"                        16 MiB)\n"
"      --stats           ELF: print on stderr how the program stopped, its\n"
"                        cycles and x0..x31 (after an exit: as the exit\n"
"                        ecall found them); perf counts the other events\n"
"  -h, --help            this text\n"
"\n"
"Exit status: 0 every run completed (and matched FILE), 1 a run failed or\n"
"did not match, 2 bad usage or an unreadable or invalid program file.\n",
		prog_name, prog_name);
}

/* What an ioctl errno means, from Documentation/vpmu/module.rst. */
static const char *run_errno_meaning(int err)
{
	switch (err) {
	case EFAULT:
		return "the run structure or the program memory is not accessible";
	case EINVAL:
		return "the kernel refused the run's parameters (size, flags, "
		       "memory, entry point, budget or mode; --ext needs a "
		       "module that knows VPMU_RUN_F_EXT)";
	case E2BIG:
		return "struct vpmu_run is larger than a page";
	case ENOTTY:
		return "the device does not know VPMU_IOC_RUN (not vpmu, or a "
		       "module without the run ioctl)";
	case ENOMEM:
		return "the kernel could not allocate memory for the program";
	default:
		return "unexpected error";
	}
}

/*
 * Warn when the program was assembled for another image than the current
 * one.  Reading the image is root-only; without access, say nothing.
 */
static void check_image(const struct vpmu_prog_view *v, const char *path)
{
	struct vpmu_image_header h;
	int fd;

	if (!v->h.image_checksum)
		return;
	fd = open(UCODE_IMAGE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (read(fd, &h, sizeof(h)) == (ssize_t)sizeof(h) &&
	    h.magic == VPMU_IMAGE_MAGIC && h.checksum != v->h.image_checksum)
		fprintf(stderr, "%s: warning: %s was assembled for image "
			"0x%08x, the current image is \"%.*s\" (0x%08x)\n",
			prog_name, path, v->h.image_checksum,
			VPMU_IMAGE_NAME_LEN, h.name, h.checksum);
	close(fd);
}

struct opts {
	struct vpmu_runner_opts com;
	const char *device;
	const char *image;	/* -m, ELF programs */
	uint64_t mem;		/* --mem, ELF programs */
	bool stats;		/* --stats, ELF programs */
};

enum { OPT_MEM = 256, OPT_STATS };

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lopts[] = {
		VPMU_RUNNER_LONGOPTS,
		{ "device", required_argument, NULL, 'd' },
		{ "image", required_argument, NULL, 'm' },
		{ "mem", required_argument, NULL, OPT_MEM },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	int c;

	while ((c = getopt_long(argc, argv, VPMU_RUNNER_OPTSTRING "d:m:h",
				lopts, NULL)) != -1) {
		switch (vpmu_runner_opt(&o->com, c, optarg, prog_name,
					VPMU_RUN_BUDGET_MAX)) {
		case 1:
			continue;
		case -1:
			return -1;
		}
		switch (c) {
		case 'd':
			o->device = optarg;
			break;
		case 'm':
			o->image = optarg;
			break;
		case OPT_MEM:
			if (vpmu_elf_parse_mem(prog_name, optarg, &o->mem))
				return -1;
			break;
		case OPT_STATS:
			o->stats = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "%s: %s\n", prog_name, optind < argc ?
			"one program file at a time" : "no program file given");
		usage(stderr);
		return -1;
	}
	return 0;
}

/* Load the program file; returns 0, or 2 (already reported). */
static int load_prog(const char *path, struct vpmu_buf *file,
		     struct vpmu_prog_view *v)
{
	struct vpmu_buf diag = { 0 };

	if (vpmu_read_file(path, file)) {
		fprintf(stderr, "%s: %s: %s\n", prog_name, path, strerror(errno));
		return 2;
	}
	if (vpmu_prog_view(v, file->p, file->len, &diag)) {
		/* diag reads "error: why\n" */
		fprintf(stderr, "%s: %s: not a valid vpmu program file: %s",
			prog_name, path,
			strncmp(diag.p, "error: ", 7) ? diag.p : diag.p + 7);
		vpmu_buf_free(&diag);
		return 2;
	}
	return 0;
}

/* ---- static RV32 ELF programs ------------------------------------------ */

/*
 * -m IMAGE: 0 if IMAGE is the current image or the current one cannot be
 * read (not root); 2 after saying why not.
 */
static int check_elf_image(const char *image)
{
	struct vpmu_image_header want, cur;
	struct vpmu_buf file = { 0 };
	int fd, ret = 0;

	if (vpmu_read_file(image, &file)) {
		fprintf(stderr, "%s: %s: %s\n", prog_name, image, strerror(errno));
		return 2;
	}
	memset(&want, 0, sizeof(want));
	if (file.len >= sizeof(want))
		memcpy(&want, file.p, sizeof(want));
	vpmu_buf_free(&file);
	if (want.magic != VPMU_IMAGE_MAGIC) {
		fprintf(stderr, "%s: %s: not a vpmu image\n", prog_name, image);
		return 2;
	}
	fd = open(UCODE_IMAGE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (read(fd, &cur, sizeof(cur)) == (ssize_t)sizeof(cur) &&
	    cur.magic == VPMU_IMAGE_MAGIC && cur.checksum != want.checksum) {
		fprintf(stderr, "%s: %s is not the current image (\"%.*s\"): "
			"load it first (vpmu-load %s)\n", prog_name, image,
			VPMU_IMAGE_NAME_LEN, cur.name, image);
		ret = 2;
	}
	close(fd);
	return ret;
}

/*
 * Run the ELF program in @mem from @entry to its exit or another stop,
 * serving its ecalls between calls that resume it; the budget covers the
 * whole program.  Returns its exit status, or -1 after an ioctl error
 * (reported).
 */
static int elf_run(int fd, uint8_t *mem, uint32_t mem_size, uint32_t entry,
		   const struct opts *o)
{
	struct vpmu_sys_res res = { 0 };
	uint64_t left = o->com.budget, cycles = 0;
	struct vpmu_run r = {
		.size = sizeof(r), .flags = VPMU_RUN_F_REGS,
		.mem = (uintptr_t)mem, .mem_size = mem_size, .entry = entry,
		.mode = VPMU_MODE_USER, .regs[2] = mem_size & ~15u,
	};

	for (;;) {
		r.budget = left < VPMU_RUN_BUDGET_MAX ? left : VPMU_RUN_BUDGET_MAX;
		if (ioctl(fd, VPMU_IOC_RUN, &r)) {
			int err = errno;

			fprintf(stderr, "%s: VPMU_IOC_RUN: %s: %s\n", prog_name,
				strerror(err), run_errno_meaning(err));
			return -1;
		}
		cycles += r.cycles;
		left -= r.cycles < left ? r.cycles : left;
		/* A handled signal or a budget above one call's: go on. */
		if ((r.stop == VPMU_RUN_SIGNAL || r.stop == VPMU_RUN_BUDGET) &&
		    left) {
			r.flags = VPMU_RUN_F_RESUME;
			continue;
		}
		if (r.stop != VPMU_RUN_TRAP || r.code != VPMU_RV_TRAP_ECALL)
			break;
		vpmu_sys_call(r.regs, mem, mem_size, &res);
		if (res.exited)
			break;
		if (!left) {
			r.stop = VPMU_RUN_BUDGET;
			break;
		}
		r.regs[10] = res.a0;
		r.flags = VPMU_RUN_F_REGS | VPMU_RUN_F_RESUME;
	}
	if (o->stats) {
		vpmu_elf_print_end(stderr, res.exited, res.status, r.stop,
				   r.code, r.ipc);
		fprintf(stderr, "event cycles %llu\n", (unsigned long long)cycles);
		vpmu_elf_print_regs(stderr, r.regs, r.pc);
	}
	if (!res.exited && !o->com.quiet)
		vpmu_elf_report_stop(prog_name, r.stop, r.code, r.ipc);
	return res.exited ? res.status : vpmu_elf_status(r.stop, r.code);
}

static int elf_main(const struct opts *o, const char *path,
		    const struct vpmu_buf *file)
{
	uint32_t mem_size = o->mem ? o->mem : VPMU_ELF_MEM_DEFAULT, entry;
	struct vpmu_buf diag = { 0 };
	uint8_t *mem;
	int fd, ret;

	if (o->image && check_elf_image(o->image))
		return 2;
	if (posix_memalign((void **)&mem, 8, mem_size))
		abort();
	if (vpmu_elf_load(file->p, file->len, mem, mem_size, &entry, &diag)) {
		fprintf(stderr, "%s: %s: %.*s\n", prog_name, path,
			(int)diag.len, diag.p);
		vpmu_buf_free(&diag);
		free(mem);
		return 2;
	}
	fd = open(o->device, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog_name, o->device,
			strerror(errno));
		free(mem);
		return 1;
	}
	ret = elf_run(fd, mem, mem_size, entry, o);
	close(fd);
	free(mem);
	return ret < 0 ? 1 : ret;
}

/* Returns 0 on a completed run, 1 on an ioctl error (reported). */
static int run_once(int fd, const struct vpmu_prog_view *v, uint8_t *mem,
		    const struct opts *o, struct vpmu_run *r, double *secs)
{
	double t0;

	memset(mem, 0, v->h.mem_size);
	memcpy(mem, v->data, v->h.load_size);
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	r->mem = (uintptr_t)mem;
	r->mem_size = v->h.mem_size;
	r->entry = v->h.entry;
	r->budget = o->com.budget;
	r->flags = o->com.ext ? VPMU_RUN_F_EXT : 0;
	r->ext_at = o->com.ext_at;
	r->mode = o->com.super || v->h.flags & VPMU_PROG_F_SUPER ?
		  VPMU_MODE_SUPER : VPMU_MODE_USER;
	t0 = vpmu_now();
	if (ioctl(fd, VPMU_IOC_RUN, r)) {
		int err = errno;

		fprintf(stderr, "%s: VPMU_IOC_RUN: %s: %s\n", prog_name,
			strerror(err), run_errno_meaning(err));
		return 1;
	}
	*secs = vpmu_now() - t0;
	return 0;
}

/* Compare the architectural results of two runs (generation aside). */
static bool same_run(const struct vpmu_run *a, const struct vpmu_run *b)
{
	return a->cycles == b->cycles && a->stop == b->stop &&
	       a->code == b->code && a->addr == b->addr && a->pc == b->pc &&
	       a->upc == b->upc && a->mode_out == b->mode_out &&
	       !memcmp(a->regs, b->regs, sizeof(a->regs));
}

int main(int argc, char **argv)
{
	struct opts o = { .com = { .runs = 1, .budget = DEFAULT_BUDGET },
			  .device = DEFAULT_DEVICE };
	struct vpmu_buf file = { 0 }, exp = { 0 }, diag = { 0 };
	struct vpmu_run r, first;
	struct vpmu_prog_view v;
	uint64_t i, total_cycles = 0;
	double secs, total_secs = 0;
	bool differ = false;
	uint8_t *mem = NULL;
	int fd, ret = 0;

	if (argc > 0 && strrchr(argv[0], '/'))
		prog_name = strrchr(argv[0], '/') + 1;
	if (parse_args(argc, argv, &o))
		return 2;
	if (vpmu_read_file(argv[optind], &file) == 0 &&
	    vpmu_is_elf(file.p, file.len)) {
		ret = elf_main(&o, argv[optind], &file);
		vpmu_buf_free(&file);
		return ret;
	}
	vpmu_buf_free(&file);
	if (load_prog(argv[optind], &file, &v))
		return 2;
	if (o.com.expect && vpmu_read_file(o.com.expect, &exp)) {
		fprintf(stderr, "%s: %s: %s\n", prog_name, o.com.expect,
			strerror(errno));
		return 2;
	}
	fd = open(o.device, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		fprintf(stderr, "%s: %s: %s%s\n", prog_name, o.device,
			strerror(err), err == ENOENT ?
			" (is vpmu.ko loaded, with the run device?)" : "");
		return 1;
	}
	check_image(&v, argv[optind]);
	if (posix_memalign((void **)&mem, 8, v.h.mem_size ? v.h.mem_size : 8))
		abort();
	for (i = 0; i < o.com.runs; i++) {
		char prefix[32] = "";

		if (run_once(fd, &v, mem, &o, &r, &secs)) {
			ret = 1;
			break;
		}
		total_cycles += r.cycles;
		total_secs += secs;
		if (o.com.runs > 1)
			snprintf(prefix, sizeof(prefix), "run %llu: ",
				 (unsigned long long)i + 1);
		if (!o.com.quiet) {
			vpmu_run_print(stdout, prefix, &r, true, o.com.verbose);
			if (o.com.timed)
				printf("%stime %.6f s, %.0f cycles/s\n", prefix,
				       secs, secs > 0 ? r.cycles / secs : 0);
		}
		if (i == 0)
			first = r;
		else if (!same_run(&first, &r))
			differ = true;
		if (o.com.expect) {
			struct vpmu_expect_res res;

			vpmu_expect_check(exp.p, o.com.expect, &r, mem, v.h.mem_size,
					  NULL, NULL, &res, &diag);
			if (res.failed) {
				fprintf(stderr, "%s%s", prefix, diag.p);
				ret = 1;
			} else if (!o.com.quiet) {
				printf("%sexpect %s: %u checks passed, %u event lines skipped\n",
				       prefix, o.com.expect, res.checked, res.skipped);
			}
			diag.len = 0;
		}
	}
	if (o.com.runs > 1 && !o.com.quiet && !ret)
		printf("runs %llu, results %s\n", (unsigned long long)o.com.runs,
		       differ ? "DIFFER between runs" : "identical");
	if (o.com.timed && !o.com.quiet && total_secs > 0)
		printf("total %llu cycles in %.6f s: %.0f cycles/s\n",
		       (unsigned long long)total_cycles, total_secs,
		       total_cycles / total_secs);
	close(fd);
	free(mem);
	vpmu_buf_free(&file);
	vpmu_buf_free(&exp);
	vpmu_buf_free(&diag);
	return ret;
}

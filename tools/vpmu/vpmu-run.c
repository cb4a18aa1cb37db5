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

#include "vpmu_buf.h"
#include "vpmu_cli.h"
#include "vpmu_elf.h"
#include "vpmu_gdb_dev.h"
#include "vpmu_gdb_net.h"
#include "vpmu_runner.h"
#include "vpmu_tool.h"

#define DEFAULT_BUDGET	1000000000ull
#define DEFAULT_DEVICE	"/dev/vpmu"
#define UCODE_IMAGE	"/sys/bus/event_source/devices/vpmu/ucode/image"

static void usage(void)
{
	printf(
"Usage: %s [OPTION]... PROGRAM.vprg\n"
"       %s [-m RV32IM-IMAGE] [OPTION]... PROGRAM.elf\n"
"Run a vpmu program file (from vpmu-as -m) on the engine of the calling\n"
"CPU through /dev/vpmu, and print each run's stop reason, cycles, image\n"
"generation and non-zero registers.\n"
"\n"
"An ELF file is mapped into vpmu-run's address space where the samples of\n"
"perf record point, so that perf names them with its symbols: a program\n"
"(an RV32 ELF executable, or a program written by vpmu-as -f elf) at\n"
"0x100000000000 plus its addresses, a microcode ELF file given with -m at\n"
"0x200000000000 plus its micro-addresses (for the format term sample_upc).\n"
"\n"
"A static RV32 ELF executable runs under the module's current image (load\n"
"rv32im.vpmu first) as vpmu-sim and qemu-riscv32 run it: its PT_LOAD\n"
"segments at their addresses, sp (x2) at the top of memory, the ecall\n"
"trap served as a Linux system call (write 64 to fd 1 or 2, exit 93,\n"
"exit_group 94) and the run resumed.  The program's exit status is\n"
"vpmu-run's; a program that stops otherwise exits 124 (budget), 132\n"
"(illegal instruction), 133 (ebreak) or 139 (fault).\n"
"\n"
"  -r, --repeat=N        run N times, each from a fresh copy of the file's\n"
"                        memory (default 1), as perf stat -r; also\n"
"                        --runs=N\n"
"      --budget=CYCLES   cycle budget of each run (default 1G = 10^9; up to\n"
"                        2^40; suffixes k M G T, Ki Mi Gi Ti, or 2^N)\n"
"  -s, --super           start in supervisor mode (default: the file's mode)\n"
"      --ext             assert the external signal line (microcode\n"
"                        condition EXT) from the start of each run\n"
"      --ext-at=CYCLES   flip the line once, at the first microword\n"
"                        boundary after CYCLES cycles of the run\n"
"      --expect=FILE     check every run against FILE (.expect: stop, reg,\n"
"                        mem and \"event cycles\" lines; other event lines\n"
"                        are perf's and are skipped); exit 1 on a mismatch\n"
"      --time            also print wall time and cycles per second\n"
"  -v, --verbose         print all 32 registers\n"
"  -q, --quiet           print only errors and mismatches\n"
"  -j, --json            print each run, its .expect result and the totals\n"
"                        as JSON, an object a line (ELF: --stats and -t,\n"
"                        on stderr)\n"
"      --device=PATH     the character device (default " DEFAULT_DEVICE ")\n"
"  -m, --image=IMAGE     refuse to run unless IMAGE (a .vpmu image or a\n"
"                        microcode ELF file, which is mapped) is the\n"
"                        module's current image (checked when its image\n"
"                        file is readable: root)\n"
"      --mem=BYTES       memory of an ELF program (default 1 MiB, at most\n"
"                        16 MiB)\n"
"      --stats           ELF: print on stderr how the program stopped, its\n"
"                        cycles and x0..x31 (after an exit: as the exit\n"
"                        ecall found them); perf counts the other events\n"
"      --gdb=PORT        ELF: wait for gdb on localhost:PORT (or\n"
"                        --gdb=unix:PATH, a Unix socket) and run the\n"
"                        program as it says (GDB remote protocol): the\n"
"                        kernel stops it at gdb's breakpoints and steps,\n"
"                        and counts it as a run gdb did not stop\n"
"  -h, --help            this text\n"
"      --version         show the version and exit\n"
"\n"
"The short forms -n (--runs), -b, -x, -e, -t and -d still work, for\n"
"scripts; --help leaves them out because perf stat's -n, -b, -x, -e, -t\n"
"and -d mean other things.\n"
"\n"
"Exit status: 0 every run completed (and matched FILE); 1 a run did not\n"
"match FILE, or runs differed; an ELF program's own exit status, or 124\n"
"if it ran out of budget, 132 illegal instruction, 133 ebreak, 139\n"
"fault; 125 vpmu-run failed: bad usage, an unreadable or invalid image\n"
"or .expect file, output that cannot be written, no /dev/vpmu or a run\n"
"the kernel refused; 126 PROGRAM cannot be run (unreadable, or not a\n"
"program), 127 there is no PROGRAM.\n",
		vpmu_prog, vpmu_prog);
	exit(VPMU_EXIT_OK);
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
		vpmu_warn(path, "assembled for image 0x%08x, the current image "
			  "is \"%.*s\" (0x%08x)", v->h.image_checksum,
			  VPMU_IMAGE_NAME_LEN, h.name, h.checksum);
	close(fd);
}

struct opts {
	struct vpmu_runner_opts com;
	const char *device;
	const char *image;	/* -m */
	uint64_t mem;		/* --mem, ELF programs */
	bool stats;		/* --stats, ELF programs */
	const char *gdb;	/* --gdb, ELF programs; NULL: none */
};

enum { OPT_MEM = 256, OPT_STATS, OPT_GDB };

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lopts[] = {
		VPMU_RUNNER_LONGOPTS,
		{ "device", required_argument, NULL, 'd' },
		{ "image", required_argument, NULL, 'm' },
		{ "mem", required_argument, NULL, OPT_MEM },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "gdb", required_argument, NULL, OPT_GDB },
		{ "help", no_argument, NULL, 'h' },
		VPMU_VERSION_LONGOPT,
		{ }
	};
	int c;

	while ((c = getopt_long(argc, argv, ":" VPMU_RUNNER_OPTSTRING "d:m:h",
				lopts, NULL)) != -1) {
		if (vpmu_runner_opt(&o->com, c, optarg, vpmu_prog,
				    VPMU_RUN_BUDGET_MAX))
			continue;
		switch (c) {
		case 'd':
			o->device = optarg;
			break;
		case 'm':
			o->image = optarg;
			break;
		case OPT_MEM:
			vpmu_elf_parse_mem(vpmu_prog, optarg, &o->mem);
			break;
		case OPT_STATS:
			o->stats = true;
			break;
		case OPT_GDB:
			if (vpmu_gdb_check_where(optarg))
				vpmu_usage_error("bad --gdb '%s'", optarg);
			o->gdb = optarg;
			break;
		case 'h':
			usage();
			break;
		case VPMU_OPT_VERSION:
			vpmu_version();
			break;
		default:
			vpmu_bad_option(argv, c);
		}
	}
	/* one run, the ext line as it starts: gdb's stops cut no run */
	if (o->gdb && (o->com.runs != 1 || o->com.ext_at))
		vpmu_usage_error("--gdb runs once, with no --ext-at");
	if (optind == argc)
		vpmu_usage_error("no program file given");
	if (optind != argc - 1)
		vpmu_usage_error("one program file at a time");
}

/*
 * Map the ELF file @path for perf, at @base (vpmu_map_elf()); a failure
 * only costs the names, and is said unless --quiet.
 */
static void map_elf(const struct opts *o, const char *path,
		    const struct vpmu_buf *file, uint64_t base)
{
	struct vpmu_buf diag = { 0 };

	if (vpmu_map_elf(path, file->p, file->len, base, &diag) &&
	    !o->com.quiet)
		vpmu_warn(path, "not mapped for perf, which will not name its "
			  "samples: %s", diag.p);
	vpmu_buf_free(&diag);
}

/*
 * -m IMAGE: read it (a microcode ELF file is mapped for perf), and return
 * VPMU_EXIT_OK if it is the current image or the current one cannot be
 * read (not root); VPMU_EXIT_TOOL after saying why not.
 */
static int check_current(const struct opts *o)
{
	struct vpmu_image_header want, cur;
	struct vpmu_buf file = { 0 }, diag = { 0 };
	int fd, ret = 0;

	if (vpmu_read_file(o->image, &file)) {
		vpmu_err_errno(o->image);
		return VPMU_EXIT_TOOL;
	}
	ret = vpmu_elf_section(file.p, file.len, VPMU_ELF_IMAGE,
			       &(const void *){ NULL }, &(size_t){ 0 }, &diag);
	if (ret > 0)
		map_elf(o, o->image, &file, VPMU_SAMPLE_UPC_BASE);
	if (ret && vpmu_elf_unwrap(&file, VPMU_ELF_IMAGE, &diag) < 0) {
		vpmu_err_diag(o->image, NULL, &diag);
		vpmu_buf_free(&file);
		return VPMU_EXIT_TOOL;
	}
	if (vpmu_img_check(file.p, file.len, &diag)) {
		vpmu_err_diag(o->image, NULL, &diag);
		vpmu_buf_free(&file);
		return VPMU_EXIT_TOOL;
	}
	memcpy(&want, file.p, sizeof(want));
	vpmu_buf_free(&file);
	ret = VPMU_EXIT_OK;
	fd = open(UCODE_IMAGE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return VPMU_EXIT_OK;
	if (read(fd, &cur, sizeof(cur)) == (ssize_t)sizeof(cur) &&
	    cur.magic == VPMU_IMAGE_MAGIC && cur.checksum != want.checksum) {
		vpmu_err(o->image, 0, "not the current image (\"%.*s\"): load "
			 "it first (vpmu-load %s)", VPMU_IMAGE_NAME_LEN,
			 cur.name, o->image);
		ret = VPMU_EXIT_TOOL;
	}
	close(fd);
	return ret;
}

static void run_error(int err)
{
	vpmu_err(NULL, 0, "VPMU_IOC_RUN: %s: %s", strerror(err),
		 run_errno_meaning(err));
}

/* /dev/vpmu, or -1 after saying why not. */
static int open_device(const struct opts *o)
{
	int fd = open(o->device, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		int err = errno;

		vpmu_err(o->device, 0, "%s%s", strerror(err), err == ENOENT ?
			 " (is vpmu.ko loaded, with the run device?)" : "");
	}
	return fd;
}

/* ---- static RV32 ELF programs ------------------------------------------ */

/* The kernel's engine for vpmu_elf_loop(): one VPMU_IOC_RUN a call. */
struct elf_dev {
	int fd;
	struct vpmu_run r;
};

static int dev_run(void *ctx, uint64_t left, struct vpmu_elf_stop *st)
{
	struct elf_dev *d = ctx;
	struct vpmu_run *r = &d->r;

	r->budget = left < VPMU_RUN_BUDGET_MAX ? left : VPMU_RUN_BUDGET_MAX;
	if (ioctl(d->fd, VPMU_IOC_RUN, r)) {
		run_error(errno);
		return -1;
	}
	*st = (struct vpmu_elf_stop){
		.stop = r->stop, .code = r->code, .addr = r->addr,
		.ipc = r->ipc, .cycles = r->cycles,
		/* a handled signal, or a budget above one call's */
		.more = r->stop == VPMU_RUN_SIGNAL ||
			r->stop == VPMU_RUN_BUDGET,
	};
	r->flags = VPMU_RUN_F_RESUME;
	return 0;
}

static void dev_regs(void *ctx, uint32_t x[32])
{
	const struct elf_dev *d = ctx;

	memcpy(x, d->r.regs, sizeof(d->r.regs));
}

static bool dev_ecall_return(void *ctx, uint32_t a0, uint64_t left)
{
	struct elf_dev *d = ctx;

	if (!left)
		return false;
	d->r.regs[10] = a0;
	d->r.flags = VPMU_RUN_F_REGS | VPMU_RUN_F_RESUME;
	return true;
}

/* --stats on stderr: how it ended, its cycles, its registers. */
static void elf_stats(const struct elf_dev *d, const struct vpmu_elf_end *end,
		      bool json)
{
	struct vpmu_json j;

	if (json) {
		vpmu_json_begin(&j, stderr);
		vpmu_elf_json_end(&j, end);
		vpmu_json_open(&j, "events");
		vpmu_json_u64(&j, "cycles", end->cycles);
		vpmu_json_close(&j);
		vpmu_elf_json_regs(&j, d->r.regs, d->r.pc);
		vpmu_json_end(&j);
		return;
	}
	vpmu_elf_print_end(stderr, end);
	fprintf(stderr, "event cycles %llu\n", (unsigned long long)end->cycles);
	vpmu_elf_print_regs(stderr, d->r.regs, d->r.pc);
}

/*
 * --gdb: the program @r (not started) run as gdb says
 * (vpmu_gdb_dev_run()).  0, -1 after an ioctl error (reported), or the
 * exit status when gdb killed it or could not connect.
 */
static int elf_gdb(struct vpmu_run *r, int fd, const struct opts *o,
		   struct vpmu_elf_end *end)
{
	const struct vpmu_gdb_dev_target t = {
		.where = o->gdb, .fd = fd, .r = r, .budget = o->com.budget,
		.run_error = run_error,
	};
	int ret = vpmu_gdb_dev_run(&t, end);

	if (ret == VPMU_GDB_KILLED && !o->com.quiet)
		vpmu_err(NULL, 0, "killed by gdb");
	if (ret == VPMU_GDB_KILLED)
		return VPMU_GDB_EXIT_KILLED;
	return ret < 0 ? -1 : 0;
}

/*
 * Run the ELF program in @mem from @entry to its exit or another stop
 * (vpmu_elf_loop(), or gdb's with --gdb); the budget covers the whole
 * program.  Returns its exit status, or -1 after an ioctl error
 * (reported) or when gdb could not connect.
 */
static int elf_run(int fd, uint8_t *mem, uint32_t mem_size, uint32_t entry,
		   const struct opts *o, const char *path)
{
	struct elf_dev d = {
		.fd = fd,
		.r = {
			.size = sizeof(d.r), .flags = VPMU_RUN_F_REGS,
			.mem = (uintptr_t)mem, .mem_size = mem_size,
			.entry = entry, .mode = VPMU_MODE_USER,
			.regs[2] = mem_size & ~15u,
		},
	};
	const struct vpmu_elf_ops ops = {
		.run = dev_run, .regs = dev_regs,
		.ecall_return = dev_ecall_return, .ctx = &d,
	};
	struct vpmu_elf_end end;
	int ret;

	if (o->gdb) {
		ret = elf_gdb(&d.r, fd, o, &end);
		if (ret)
			return ret;
	} else if (vpmu_elf_loop(&ops, mem, mem_size, o->com.budget, &end)) {
		return -1;
	}
	if (o->stats)
		elf_stats(&d, &end, o->com.json);
	return vpmu_elf_exit(path, &end, o->com.quiet);
}

static int elf_main(const struct opts *o, const char *path,
		    const struct vpmu_buf *file)
{
	uint32_t mem_size = o->mem ? o->mem : VPMU_ELF_MEM_DEFAULT, entry;
	struct vpmu_buf diag = { 0 };
	uint8_t *mem;
	int fd, ret;

	if (posix_memalign((void **)&mem, 8, mem_size))
		abort();
	if (vpmu_elf_load(file->p, file->len, mem, mem_size, &entry, &diag)) {
		vpmu_err_diag(path, NULL, &diag);
		vpmu_buf_free(&diag);
		free(mem);
		return VPMU_EXIT_CANNOT_RUN;
	}
	fd = open_device(o);
	if (fd < 0) {
		free(mem);
		return VPMU_EXIT_TOOL;
	}
	ret = elf_run(fd, mem, mem_size, entry, o, path);
	close(fd);
	free(mem);
	return ret < 0 ? VPMU_EXIT_TOOL : ret;
}

/* ---- program files ----------------------------------------------------- */

/* A program file's runs: vpmu_runner_loop()'s context. */
struct prog_run {
	const struct opts *o;
	const struct vpmu_prog_view *v;
	uint8_t *mem;
	int fd;
};

/* One run (struct vpmu_runner.run): 0, or -1 on an ioctl error (reported). */
static int run_once(void *ctx, struct vpmu_run *r, double *secs)
{
	const struct prog_run *pr = ctx;
	const struct vpmu_prog_view *v = pr->v;
	const struct opts *o = pr->o;
	double t0;

	memset(pr->mem, 0, v->h.mem_size);
	memcpy(pr->mem, v->data, v->h.load_size);
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	r->mem = (uintptr_t)pr->mem;
	r->mem_size = v->h.mem_size;
	r->entry = v->h.entry;
	r->budget = o->com.budget;
	r->flags = o->com.ext ? VPMU_RUN_F_EXT : 0;
	r->ext_at = o->com.ext_at;
	r->mode = o->com.super || v->h.flags & VPMU_PROG_F_SUPER ?
		  VPMU_MODE_SUPER : VPMU_MODE_USER;
	t0 = vpmu_now();
	if (ioctl(pr->fd, VPMU_IOC_RUN, r)) {
		run_error(errno);
		return -1;
	}
	*secs = vpmu_now() - t0;
	return 0;
}

static int prog_main(const struct opts *o, const char *path,
		     const struct vpmu_buf *file)
{
	struct vpmu_buf exp = { 0 };
	struct vpmu_prog_view v;
	struct prog_run pr = { .o = o, .v = &v };
	struct vpmu_runner rn = {
		.o = &o->com, .path = path, .show_gen = true,
		.compare = true, .show_skipped = true,
		.run = run_once, .ctx = &pr,
	};
	int ret;

	if (o->gdb) {
		vpmu_err(path, 0, "--gdb: RV32 ELF programs only (vpmu-sim --gdb debugs program files)");
		return VPMU_EXIT_TOOL;
	}
	ret = vpmu_runner_read(&rn, file, &v, &exp);
	if (ret)
		return ret;
	pr.fd = open_device(o);
	if (pr.fd < 0)
		return VPMU_EXIT_TOOL;
	check_image(&v, path);
	if (posix_memalign((void **)&pr.mem, 8,
			   v.h.mem_size ? v.h.mem_size : 8))
		abort();
	rn.mem = pr.mem;
	ret = vpmu_runner_loop(&rn);
	close(pr.fd);
	free(pr.mem);
	vpmu_buf_free(&exp);
	return ret;
}

int main(int argc, char **argv)
{
	struct opts o = { .com = { .runs = 1, .budget = DEFAULT_BUDGET },
			  .device = DEFAULT_DEVICE };
	struct vpmu_buf file = { 0 }, diag = { 0 };
	const char *path;
	const void *data;
	size_t size;
	int ret;

	vpmu_cli_init(argv[0], "vpmu-run");
	parse_args(argc, argv, &o);
	path = argv[optind];
	if (vpmu_read_file(path, &file))
		return vpmu_runner_unreadable(path);
	if (o.image) {
		ret = check_current(&o);
		if (ret)
			return ret;
	}
	if (!vpmu_is_elf(file.p, file.len)) {
		ret = prog_main(&o, path, &file);
		vpmu_buf_free(&file);
		return ret;
	}
	/* An RV32 program, or a vpmu program vpmu-as wrote as ELF. */
	ret = vpmu_elf_section(file.p, file.len, VPMU_ELF_PROG, &data, &size,
			       &diag);
	if (ret < 0) {
		vpmu_err_diag(path, NULL, &diag);
		return VPMU_EXIT_CANNOT_RUN;
	}
	map_elf(&o, path, &file, VPMU_SAMPLE_PC_BASE);
	if (ret) {
		struct vpmu_buf prog = { 0 };

		vpmu_buf_put(&prog, data, size);
		ret = prog_main(&o, path, &prog);
		vpmu_buf_free(&prog);
	} else {
		ret = elf_main(&o, path, &file);
	}
	vpmu_buf_free(&file);
	return ret;
}

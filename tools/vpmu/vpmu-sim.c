// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu-sim - run a machine-code program on the engine core built as host
 * C: the same engine the module runs, with no kernel involved.  Prints
 * what vpmu-run prints, plus every event total with --events, and checks
 * a whole .expect file (event lines included).  With --hu, the engine's
 * histogram unit runs a program and its buckets are printed at the end.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_buf.h"
#include "vpmu_cli.h"
#include "vpmu_elf.h"
#include "vpmu_gdb.h"
#include "vpmu_runner.h"
#include "vpmu_tool.h"
#include "vpmu_engine.h"
#include "vpmu_hu_text.h"

#define DEFAULT_BUDGET	1000000000ull

/*
 * The built-in images: the default microcode, as in the module
 * (build/vpmu_default_image.c), and RV32IM (share/ucode/rv32im.vus,
 * build/vpmu_rv32im_image.c) for an RV32 ELF given without -m.
 */
extern const u8 vpmu_default_image[];
extern const size_t vpmu_default_image_len;
extern const u8 vpmu_rv32im_image[];
extern const size_t vpmu_rv32im_image_len;

struct builtin_image {
	const char *name;
	const u8 *p;
	const size_t *len;
};

static const struct builtin_image default_image = {
	"built-in image", vpmu_default_image, &vpmu_default_image_len,
};
static const struct builtin_image rv32im_image = {
	"built-in RV32IM image", vpmu_rv32im_image, &vpmu_rv32im_image_len,
};

static void usage(void)
{
	printf(
"Usage: %s [OPTION]... PROGRAM.vprg\n"
"       %s [OPTION]... PROGRAM.elf\n"
"Run a vpmu program file on the engine core built as host C (no kernel),\n"
"and print each run's stop reason, cycles and non-zero registers, as\n"
"vpmu-run does.  PROGRAM and IMAGE may be the ELF files vpmu-as -f elf\n"
"writes.\n"
"\n"
"A static RV32 ELF executable runs as qemu-riscv32 runs it: its PT_LOAD\n"
"segments are loaded at their addresses, sp (x2) is set to the top of\n"
"memory, and the microcode's ecall trap (code 2) is served as a Linux\n"
"system call: write (64) to fd 1 or 2, exit (93) and exit_group (94).\n"
"The program's exit status is vpmu-sim's; a program that stops otherwise\n"
"exits 124 (budget), 132 (illegal instruction), 133 (ebreak) or 139\n"
"(fault).\n"
"\n"
"  -m, --image=IMAGE     microcode image (default: the built-in default\n"
"                        microcode, as in the module; for an RV32 ELF,\n"
"                        the built-in RV32IM microcode, share/ucode's\n"
"                        rv32im.vus)\n"
"  -r, --repeat=N        run N times, each from a fresh copy of the file's\n"
"                        memory (default 1), as perf stat -r; also\n"
"                        --runs=N\n"
"      --budget=CYCLES   cycle budget of each run (default 1G = 10^9;\n"
"                        suffixes k M G T, Ki Mi Gi Ti, or 2^N)\n"
"  -s, --super           start in supervisor mode (default: the file's mode)\n"
"      --ext             assert the external signal line (microcode\n"
"                        condition EXT) from the start of each run\n"
"      --ext-at=CYCLES   flip the line once, at the first microword\n"
"                        boundary after CYCLES cycles of the run\n"
"      --expect=FILE     check every run against FILE (every line, events\n"
"                        included); exit 1 on a mismatch\n"
"  -E, --events          print every basic event and tags 1..8\n"
"      --hu=PROGRAM      program the histogram unit (text as vpmu-hist\n"
"                        --set-program takes it; ';' separates entries),\n"
"                        and print its buckets after the last run, even\n"
"                        with --quiet, as \"hist C<b> <count>\" lines (the\n"
"                        runs add up)\n"
"      --hu-file=FILE    the same, the program read from FILE\n"
"      --time            also print wall time and cycles per second (ELF:\n"
"                        on stderr, with instructions per second)\n"
"  -v, --verbose         print all 32 registers\n"
"  -q, --quiet           print only errors and mismatches\n"
"  -j, --json            print each run, its .expect result and the totals\n"
"                        as JSON, an object a line (ELF: --stats and -t,\n"
"                        on stderr)\n"
"      --mem=BYTES       memory of an ELF program (default 1 MiB, at most\n"
"                        16 MiB)\n"
"      --stats           ELF: print on stderr how the program stopped,\n"
"                        every non-zero event and tag total, and x0..x31\n"
"                        (after an exit: as the exit ecall found them),\n"
"                        and what the translation cache did\n"
"      --no-tc           interpret every microword: no translation cache\n"
"                        (the results are the same, slower)\n"
"      --chunk=CYCLES    ELF: run in pieces of at most CYCLES cycles, as\n"
"                        /dev/vpmu does in the kernel, translating between\n"
"                        them (the same results)\n"
"      --sample=PERIOD   ELF: a counter of cycles that interrupts every\n"
"                        PERIOD cycles, as perf record -c PERIOD samples\n"
"                        (the run stops and goes on at each; --stats\n"
"                        counts them; the same results)\n"
"      --sample-event=EVENT  that counter's event, a basic event as -E\n"
"                        names it (default cycles; insns: as perf record\n"
"                        -e vpmu/vpmu_insns/ -c PERIOD)\n"
"      --tc-pool=KIB     the translation pool, 4..16384 KiB (default 512;\n"
"                        the module's tc_pool_kb, 128 by default): when it\n"
"                        is full the oldest translations make room (the\n"
"                        same results)\n"
"      --gdb=PORT        wait for gdb on localhost:PORT (or\n"
"                        --gdb=unix:PATH, a Unix socket) and run the\n"
"                        program as it says (GDB remote protocol); gdb\n"
"                        sees a .vprg as a riscv:rv32 target (r0..r31 as\n"
"                        x0..x31, the engine's registers beside them):\n"
"                        its x/i is RISC-V's, 'monitor dis' vpmu32's\n"
"  -h, --help            this text\n"
"      --version         show the version and exit\n"
"\n"
"The short forms -n (--runs), -b, -x, -e and -t still work, for scripts;\n"
"--help leaves them out because perf stat's -n, -b, -x, -e and -t mean\n"
"other things.\n"
"\n"
"Exit status: 0 every run completed (and matched FILE); 1 a run did not\n"
"match FILE; an ELF program's own exit status, or 124 if it ran out of\n"
"budget, 132 illegal instruction, 133 ebreak, 139 fault; 125 vpmu-sim\n"
"failed: bad usage, an unreadable or invalid image, .expect or\n"
"histogram-unit program file, output that cannot be written; 126\n"
"PROGRAM cannot be run (unreadable, or not a program), 127 there is no\n"
"PROGRAM.\n",
		vpmu_prog, vpmu_prog);
	exit(VPMU_EXIT_OK);
}

struct opts {
	struct vpmu_runner_opts com;
	bool events;
	const char *image;
	const char *hu;		/* --hu text */
	const char *hu_file;	/* --hu-file */
	uint64_t mem;		/* --mem, ELF programs */
	bool stats;		/* --stats, ELF programs */
	bool no_tc;		/* --no-tc */
	uint64_t chunk;		/* --chunk, ELF programs; 0: none */
	uint32_t tc_pool_kb;	/* --tc-pool; 0: the engine's default */
	uint64_t sample;	/* --sample, ELF programs; 0: none */
	uint16_t sample_ev;	/* --sample-event */
	const char *gdb;	/* --gdb; NULL: none */
};

enum {
	OPT_HU = 256, OPT_HU_FILE, OPT_MEM, OPT_STATS, OPT_NO_TC, OPT_CHUNK,
	OPT_TC_POOL, OPT_SAMPLE, OPT_SAMPLE_EV, OPT_GDB
};

/*
 * The basic event @name names as -E and .expect files do (perf's alias
 * "vpmu_NAME" without "vpmu_"), or VPMU_EV_NR_BASIC.
 */
static uint16_t basic_event(const char *name)
{
	uint16_t i;

	for (i = 0; i < VPMU_EV_NR_BASIC; i++)
		if (!strcmp(vpmu_event_info[i].name + 5, name))
			break;
	return i;
}

/* --sample-event's */
static uint16_t parse_event(const char *arg)
{
	uint16_t ev = basic_event(arg);

	if (ev == VPMU_EV_NR_BASIC)
		vpmu_usage_error("bad sample event '%s'", arg);
	return ev;
}

/* --tc-pool's KiB, in the range the module's tc_pool_kb takes */
static uint32_t parse_pool_kb(const char *arg)
{
	uint64_t kb;

	if (vpmu_parse_count(arg, &kb) || kb < VPMU_TC_POOL_MIN / 256 ||
	    kb > VPMU_TC_POOL_MAX / 256)
		vpmu_usage_error("bad translation pool '%s' (KiB, %u..%u)", arg,
				 VPMU_TC_POOL_MIN / 256, VPMU_TC_POOL_MAX / 256);
	return (uint32_t)kb;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lopts[] = {
		{ "image", required_argument, NULL, 'm' },
		VPMU_RUNNER_LONGOPTS,
		{ "events", no_argument, NULL, 'E' },
		{ "hu", required_argument, NULL, OPT_HU },
		{ "hu-file", required_argument, NULL, OPT_HU_FILE },
		{ "mem", required_argument, NULL, OPT_MEM },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "no-tc", no_argument, NULL, OPT_NO_TC },
		{ "chunk", required_argument, NULL, OPT_CHUNK },
		{ "tc-pool", required_argument, NULL, OPT_TC_POOL },
		{ "sample", required_argument, NULL, OPT_SAMPLE },
		{ "sample-event", required_argument, NULL, OPT_SAMPLE_EV },
		{ "gdb", required_argument, NULL, OPT_GDB },
		{ "help", no_argument, NULL, 'h' },
		VPMU_VERSION_LONGOPT,
		{ }
	};
	int c;

	while ((c = getopt_long(argc, argv, ":m:" VPMU_RUNNER_OPTSTRING "Eh",
				lopts, NULL)) != -1) {
		if (vpmu_runner_opt(&o->com, c, optarg, vpmu_prog, UINT64_MAX))
			continue;
		switch (c) {
		case 'm':
			o->image = optarg;
			break;
		case 'E':
			o->events = true;
			break;
		case OPT_HU:
			o->hu = optarg;
			o->hu_file = NULL;
			break;
		case OPT_HU_FILE:
			o->hu_file = optarg;
			o->hu = NULL;
			break;
		case OPT_MEM:
			vpmu_elf_parse_mem(vpmu_prog, optarg, &o->mem);
			break;
		case OPT_STATS:
			o->stats = true;
			break;
		case OPT_NO_TC:
			o->no_tc = true;
			break;
		case OPT_CHUNK:
			if (vpmu_parse_count(optarg, &o->chunk) || !o->chunk)
				vpmu_usage_error("bad chunk '%s'", optarg);
			break;
		case OPT_TC_POOL:
			o->tc_pool_kb = parse_pool_kb(optarg);
			break;
		case OPT_SAMPLE:
			if (vpmu_parse_count(optarg, &o->sample) || !o->sample ||
			    o->sample >> 32)
				vpmu_usage_error("bad sample period '%s'",
						 optarg);
			break;
		case OPT_SAMPLE_EV:
			o->sample_ev = parse_event(optarg);
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

/* An engine, its translation pool as --tc-pool asks. */
static struct vpmu_engine *sim_engine(const struct opts *o)
{
	struct vpmu_engine *e = vpmu_engine_create(VPMU_CS_MAX);
	struct vpmu_engine_mem *m;

	if (!e || !o->tc_pool_kb)
		return e;
	m = vpmu_engine_mem_alloc(VPMU_CS_MAX, o->tc_pool_kb * 256);
	if (!m) {
		vpmu_engine_destroy(e);
		return NULL;
	}
	/* an engine with no ucode yet: nothing to fold */
	vpmu_engine_mem_free(vpmu_engine_mem_set(e, m));
	return e;
}

/* The image in @path, or @builtin without one. */
static struct vpmu_ucode *load_image(const char *path,
				     const struct builtin_image *builtin)
{
	struct vpmu_buf file = { 0 }, diag = { 0 };
	struct vpmu_ucode *uc = NULL;
	struct vpmu_verr err;
	const void *img = builtin->p;
	size_t len = *builtin->len;

	if (path) {
		if (vpmu_read_file(path, &file)) {
			vpmu_err_errno(path);
			return NULL;
		}
		if (vpmu_elf_unwrap(&file, VPMU_ELF_IMAGE, &diag) < 0) {
			vpmu_err_diag(path, NULL, &diag);
			vpmu_buf_free(&file);
			return NULL;
		}
		img = file.p;
		len = file.len;
	}
	if (vpmu_ucode_load(&uc, img, len, VPMU_CS_MAX, &err)) {
		vpmu_img_rejected(&diag, &err);
		vpmu_err_diag(path ? path : builtin->name, NULL, &diag);
		uc = NULL;
	}
	vpmu_buf_free(&diag);
	vpmu_buf_free(&file);
	return uc;
}

/* The counter that measures supervisor-mode cycles ("super cycles"). */
#define SUPER_CTR	0

/* A program file's runs on the engine: vpmu_runner_loop()'s context. */
struct sim {
	const struct opts *o;
	const struct vpmu_prog_view *v;
	uint8_t *mem;
	struct vpmu_engine *e;
	struct vpmu_hu_prog hu;	/* --hu, --hu-file; n = 0: none */
	const struct vpmu_ucode *uc;	/* the image, for --gdb's monitor */
	bool killed;		/* --gdb: gdb killed the run */
};

/* The event counts .expect lines check (struct vpmu_runner.event). */
static bool sim_event(void *ctx, const char *name, uint64_t *val)
{
	struct vpmu_engine *e = ((struct sim *)ctx)->e;
	uint16_t ev;

	if (!strcmp(name, "super cycles")) {
		*val = vpmu_engine_ctr_read(e, SUPER_CTR);
		return true;
	}
	if (!strncmp(name, "tag", 3)) {
		char *end;
		unsigned long k = strtoul(name + 3, &end, 10);

		if (*end || !k || k > VPMU_TAG_MAX)
			return false;
		*val = vpmu_engine_event_total(e, VPMU_EV_TAG(k));
		return true;
	}
	ev = basic_event(name);
	if (ev == VPMU_EV_NR_BASIC)
		return false;
	*val = vpmu_engine_event_total(e, ev);
	return true;
}

/*
 * Tag @k's name in @buf (VPMU_TAG_NAME_MAX bytes): the one @uc gives it,
 * else (or with no @uc) "tagK".
 */
static const char *tag_name(const struct vpmu_ucode *uc, unsigned int k,
			    char *buf)
{
	const char *name = uc ? vpmu_ucode_tag_name(uc, k) : NULL;

	if (name)
		return name;
	snprintf(buf, VPMU_TAG_NAME_MAX, "tag%u", k);
	return buf;
}

/*
 * The "events" object of --json: the basic events, then tags 1..@ntags,
 * all of them or (@counted) those that counted, as the text lines have
 * them (-E every tag of eight as tagK, --stats the ones that counted,
 * under @uc's names).
 */
static void events_json(struct vpmu_engine *e, const struct vpmu_ucode *uc,
			struct vpmu_json *j, unsigned int ntags, bool counted)
{
	char tag[VPMU_TAG_NAME_MAX];
	unsigned int i;
	u64 v;

	vpmu_json_open(j, "events");
	for (i = 0; i < VPMU_EV_NR_BASIC; i++)
		vpmu_json_u64(j, vpmu_event_info[i].name + 5,
			      vpmu_engine_event_total(e, i));
	for (i = 1; i <= ntags; i++) {
		v = vpmu_engine_event_total(e, VPMU_EV_TAG(i));
		if (v || !counted)
			vpmu_json_u64(j, tag_name(uc, i, tag), v);
	}
	vpmu_json_close(j);
}

/* --events: a run's event totals (struct vpmu_runner.print). */
static void print_events(void *ctx, const char *prefix, struct vpmu_json *j)
{
	struct vpmu_engine *e = ((struct sim *)ctx)->e;
	unsigned int i;

	if (j) {
		events_json(e, NULL, j, 8, false);
		vpmu_json_u64(j, "super_cycles",
			      vpmu_engine_ctr_read(e, SUPER_CTR));
		return;
	}
	for (i = 0; i < VPMU_EV_NR_BASIC; i++)
		printf("%sevent %s %llu\n", prefix, vpmu_event_info[i].name + 5,
		       (unsigned long long)vpmu_engine_event_total(e, i));
	for (i = 1; i <= 8; i++)
		printf("%sevent tag%u %llu\n", prefix, i, (unsigned long long)
		       vpmu_engine_event_total(e, VPMU_EV_TAG(i)));
	printf("%ssuper cycles %llu\n", prefix,
	       (unsigned long long)vpmu_engine_ctr_read(e, SUPER_CTR));
}

/*
 * Parse the --hu or --hu-file program into @p; 0, or -1 after saying why.
 * No option: p->n = 0 (off).
 */
static int load_hu(const struct opts *o, struct vpmu_hu_prog *p)
{
	struct vpmu_buf file = { 0 };
	char err[VPMU_HU_ERR_MAX];
	const char *text = o->hu, *what = "--hu";
	size_t len;
	int ret;

	memset(p, 0, sizeof(*p));
	if (!o->hu && !o->hu_file)
		return 0;
	if (o->hu_file) {
		if (vpmu_read_file(o->hu_file, &file)) {
			vpmu_err_errno(o->hu_file);
			return -1;
		}
		text = file.p;
		len = file.len;
		what = o->hu_file;
	} else {
		len = strlen(text);
	}
	ret = vpmu_hu_parse(text, len, p, err);
	if (ret)
		vpmu_err(what, 0, "bad histogram-unit program: %s", err);
	vpmu_buf_free(&file);
	return ret ? -1 : 0;
}

/*
 * --hu: the buckets after the last run (struct vpmu_runner.done); with
 * --json, a line {"hist": {"C1": N, ...}}.
 */
static void print_hu(void *ctx, bool json)
{
	const struct sim *sim = ctx;
	const struct vpmu_hu_prog *p = &sim->hu;
	u64 c[VPMU_HU_MAX];
	struct vpmu_json j;
	char name[8];
	unsigned int b;

	vpmu_engine_hu_read(sim->e, c, p->n);
	if (json) {
		vpmu_json_begin(&j, stdout);
		vpmu_json_open(&j, "hist");
		for (b = 0; b < p->n; b++) {
			snprintf(name, sizeof(name), "C%u", b + 1);
			vpmu_json_u64(&j, name, c[b]);
		}
		vpmu_json_end(&j);
		return;
	}
	for (b = 0; b < p->n; b++)
		printf("hist C%u %llu\n", b + 1, (unsigned long long)c[b]);
}

/*
 * The engine's run of at most @budget cycles with the ext line as --ext
 * and --ext-at say, flipped between two runs as the kernel flips it
 * between two chunks (struct vpmu_run.ext_at).
 */
static void sim_run(struct vpmu_engine *e, const struct opts *o,
		    struct vpmu_stop *stop)
{
	uint64_t budget = o->com.budget, used;

	vpmu_engine_set_ext(e, o->com.ext);
	if (!o->com.ext_at || o->com.ext_at >= budget) {
		vpmu_engine_run(e, budget, stop);
		return;
	}
	vpmu_engine_run(e, o->com.ext_at, stop);
	used = stop->cycles;
	if (stop->reason != VPMU_STOP_BUDGET || used >= budget)
		return;
	vpmu_engine_set_ext(e, !o->com.ext);
	vpmu_engine_run(e, budget - used, stop);
	stop->cycles += used;
}

/*
 * --gdb: the run as gdb says (vpmu_gdb_run()), the program file's HALT
 * its exit; how it stopped in @stop, as sim_run() says it.  0, or -1
 * after saying why not: gdb could not connect, or killed it (@sim->killed).
 */
static int prog_gdb(struct sim *sim, struct vpmu_stop *stop)
{
	const struct opts *o = sim->o;
	struct vpmu_gdb_target t = {
		.where = o->gdb, .e = sim->e, .mem = sim->mem,
		.mem_size = sim->v->h.mem_size, .budget = o->com.budget,
		.prog = true,
	};
	struct vpmu_elf_end end;
	int ret;

	t.img = vpmu_ucode_bytes(sim->uc, &t.img_len);	/* for the monitor */
	vpmu_engine_set_ext(sim->e, o->com.ext);
	ret = vpmu_gdb_run(&t, &end);
	if (ret) {
		sim->killed = ret == VPMU_GDB_KILLED;
		if (sim->killed && !o->com.quiet)
			vpmu_err(NULL, 0, "killed by gdb");
		return -1;
	}
	memset(stop, 0, sizeof(*stop));
	stop->reason = end.st.stop;
	stop->code = end.st.code;
	stop->addr = end.st.addr;
	stop->ipc = end.st.ipc;
	stop->cycles = end.cycles;
	/* the next microword, or the one that stopped it (HALT, TRAP, FAULT) */
	stop->upc = vpmu_engine_upc(sim->e);
	return 0;
}

/*
 * One run from fresh memory (struct vpmu_runner.run); fills @r as the
 * kernel would.  0, or with --gdb -1 if it did not end (prog_gdb()).
 */
static int run_once(void *ctx, struct vpmu_run *r, double *secs)
{
	struct sim *sim = ctx;
	const struct vpmu_prog_view *v = sim->v;
	const struct opts *o = sim->o;
	struct vpmu_engine *e = sim->e;
	struct vpmu_stop stop;
	unsigned int i;
	double t0;

	memset(sim->mem, 0, v->h.mem_size);
	memcpy(sim->mem, v->data, v->h.load_size);
	memset(r, 0, sizeof(*r));
	if (o->com.expect || o->events)
		vpmu_engine_ctr_write(e, SUPER_CTR, 0);
	vpmu_engine_start(e, sim->mem, v->h.mem_size, v->h.entry,
			  o->com.super || v->h.flags & VPMU_PROG_F_SUPER ?
			  VPMU_MODE_SUPER : VPMU_MODE_USER);
	t0 = vpmu_now();
	if (o->gdb) {
		if (prog_gdb(sim, &stop))
			return -1;
	} else {
		sim_run(e, o, &stop);
	}
	*secs = vpmu_now() - t0;
	r->cycles = stop.cycles;
	r->stop = stop.reason;
	r->code = stop.code;
	r->addr = stop.addr;
	r->upc = stop.upc;
	r->ipc = stop.ipc;
	r->pc = vpmu_engine_reg(e, VPMU_OPND_PC);
	r->mode_out = vpmu_engine_mode(e);
	for (i = 0; i < 32; i++)
		r->regs[i] = vpmu_engine_reg(e, VPMU_OPND_R0 + i);
	return 0;
}

/* ---- static RV32 ELF programs ------------------------------------------ */

/* The translation cache's statistics, as --stats names them. */
#define TC_NSTATS	17
static const char *const tc_stat_names[TC_NSTATS] = {
	"translated", "none", "words", "ops", "flushes", "exits", "links",
	"checks", "stale", "pool", "blocks", "evicted", "yields", "resumed",
	"armed", "turned", "warm",
};

static void tc_stats(struct vpmu_engine *e, u64 v[TC_NSTATS])
{
	struct vpmu_tc_stats tc;

	vpmu_engine_tc_stats(e, &tc);
	v[0] = tc.translated;
	v[1] = tc.none;
	v[2] = tc.words;
	v[3] = tc.ops;
	v[4] = tc.flushes;
	v[5] = tc.exits;
	v[6] = tc.links;
	v[7] = tc.checks;
	v[8] = tc.stale;
	v[9] = tc.pool_used;
	v[10] = tc.blocks_used;
	v[11] = tc.evicted;
	v[12] = tc.yields;
	v[13] = tc.resumed;
	v[14] = tc.armed;
	v[15] = tc.turned;
	v[16] = tc.yields_warm;
}

/* The host's engine for vpmu_elf_loop(): a chunk of the run a call. */
struct elf_sim {
	struct vpmu_engine *e;
	uint64_t chunk;		/* --chunk, 0: none */
	uint64_t period;	/* --sample, 0: none */
	uint64_t samples;	/* its counter's interrupts */
};

/*
 * --stats --json: one object on stderr: how the program ended, "events"
 * (the basic ones, and the tags that counted), "regs", "pc" and "tc",
 * the translation cache's statistics.
 */
static void elf_stats_json(struct vpmu_engine *e, const struct vpmu_ucode *uc,
			   const struct vpmu_elf_end *end,
			   const struct elf_sim *sampled)
{
	struct vpmu_json j;
	u64 tc[TC_NSTATS];
	uint32_t x[32];
	unsigned int i;

	vpmu_json_begin(&j, stderr);
	vpmu_elf_json_end(&j, end);
	events_json(e, uc, &j, VPMU_TAG_MAX, true);
	for (i = 0; i < 32; i++)
		x[i] = vpmu_engine_reg(e, VPMU_OPND_R0 + i);
	vpmu_elf_json_regs(&j, x, vpmu_engine_reg(e, VPMU_OPND_PC));
	tc_stats(e, tc);
	vpmu_json_open(&j, "tc");
	for (i = 0; i < TC_NSTATS; i++)
		vpmu_json_u64(&j, tc_stat_names[i], tc[i]);
	if (sampled) {
		vpmu_json_close(&j);
		vpmu_json_open(&j, "samples");
		vpmu_json_u64(&j, "count", sampled->samples);
		vpmu_json_u64(&j, "period", sampled->period);
	}
	vpmu_json_end(&j);
}

/*
 * The engine's stop reasons are the uapi's (VPMU_RUN_*).  Tags under the
 * names @uc, the image run, gives them.
 */
static void elf_stats(struct vpmu_engine *e, const struct vpmu_ucode *uc,
		      const struct vpmu_elf_end *end, bool json,
		      const struct elf_sim *sampled)
{
	char tag[VPMU_TAG_NAME_MAX];
	u64 v, tc[TC_NSTATS];
	uint32_t x[32];
	unsigned int i;

	if (json) {
		elf_stats_json(e, uc, end, sampled);
		return;
	}
	vpmu_elf_print_end(stderr, end);
	for (i = 0; i < VPMU_EV_NR_BASIC; i++)
		fprintf(stderr, "event %s %llu\n", vpmu_event_info[i].name + 5,
			(unsigned long long)vpmu_engine_event_total(e, i));
	for (i = 1; i <= VPMU_TAG_MAX; i++) {
		v = vpmu_engine_event_total(e, VPMU_EV_TAG(i));
		if (v)
			fprintf(stderr, "event %s %llu\n", tag_name(uc, i, tag),
				(unsigned long long)v);
	}
	for (i = 0; i < 32; i++)
		x[i] = vpmu_engine_reg(e, VPMU_OPND_R0 + i);
	vpmu_elf_print_regs(stderr, x, vpmu_engine_reg(e, VPMU_OPND_PC));
	tc_stats(e, tc);
	fputs("tc", stderr);
	for (i = 0; i < TC_NSTATS; i++)
		fprintf(stderr, " %s %llu", tc_stat_names[i],
			(unsigned long long)tc[i]);
	fputc('\n', stderr);
	if (sampled)
		fprintf(stderr, "samples %llu period %llu\n",
			(unsigned long long)sampled->samples,
			(unsigned long long)sampled->period);
}

/*
 * --time for an ELF program, on stderr as --stats (stdout is the
 * program's): the whole run's wall time, ecalls served included, its
 * cycles and RV32 instructions (the decode tag, tag1), and their rates.
 */
static void elf_time(struct vpmu_engine *e, double secs, bool json)
{
	u64 cycles = vpmu_engine_event_total(e, VPMU_EV_CYCLES);
	u64 insns = vpmu_engine_event_total(e, VPMU_EV_TAG(1));
	struct vpmu_json j;

	if (json) {
		vpmu_json_begin(&j, stderr);
		vpmu_json_open(&j, "time");
		vpmu_json_double(&j, "seconds", secs);
		vpmu_json_u64(&j, "cycles", cycles);
		vpmu_json_double(&j, "cycles_per_second",
				 secs > 0 ? cycles / secs : 0);
		vpmu_json_u64(&j, "instructions", insns);
		vpmu_json_double(&j, "instructions_per_second",
				 secs > 0 ? insns / secs : 0);
		vpmu_json_end(&j);
		return;
	}

	fprintf(stderr, "time %.6f s, %llu cycles, %.0f cycles/s, %llu instructions, %.0f instructions/s\n",
		secs, (unsigned long long)cycles, secs > 0 ? cycles / secs : 0,
		(unsigned long long)insns, secs > 0 ? insns / secs : 0);
}

/* Translations after a chunk, at most: as the module (vpmu_machine_run.c) */
#define VPMU_SIM_CHUNK_TRANSLATE	2

/*
 * --sample: counter SAMPLE_CTR counts @ev (cycles by default) and
 * interrupts when it wraps, armed to wrap every @period events.  A
 * stalling microword may take a counter of cycles past its wrap by more
 * than a period: each period completed is a sample, and what it counted
 * past the last one is kept, as perf keeps period_left.
 */
#define SAMPLE_CTR	0

static void sample_start(struct vpmu_engine *e, uint64_t period, uint16_t ev)
{
	const struct vpmu_ctr_cfg c = {
		.event = ev, .width = 64,
		.flags = VPMU_CTR_USER | VPMU_CTR_SUPER | VPMU_CTR_INT,
	};

	if (vpmu_engine_ctr_config(e, SAMPLE_CTR, &c))
		abort();
	vpmu_engine_ctr_write(e, SAMPLE_CTR, -period);
}

/* It wrapped: the samples taken, the counter re-armed. */
static uint64_t sample_take(struct vpmu_engine *e, uint64_t period)
{
	uint64_t past = vpmu_engine_ctr_read(e, SAMPLE_CTR);

	vpmu_engine_ovf_clear(e, 1u << SAMPLE_CTR);
	vpmu_engine_ctr_write(e, SAMPLE_CTR, -(period - past % period));
	return 1 + past / period;
}

static int sim_elf_run(void *ctx, uint64_t left, struct vpmu_elf_stop *st)
{
	struct elf_sim *es = ctx;
	struct vpmu_stop s;

	vpmu_engine_run(es->e, es->chunk && es->chunk < left ? es->chunk : left,
			&s);
	if (s.reason == VPMU_STOP_OVERFLOW)	/* samples: on */
		es->samples += sample_take(es->e, es->period);
	if (es->chunk)
		vpmu_engine_tc_work(es->e, VPMU_SIM_CHUNK_TRANSLATE);
	*st = (struct vpmu_elf_stop){
		.stop = s.reason, .code = s.code, .addr = s.addr,
		.ipc = s.ipc, .cycles = s.cycles,
		/* the next chunk */
		.more = s.reason == VPMU_STOP_BUDGET ||
			s.reason == VPMU_STOP_OVERFLOW,
	};
	return 0;
}

static void sim_elf_regs(void *ctx, uint32_t x[32])
{
	const struct elf_sim *es = ctx;
	unsigned int i;

	for (i = 0; i < 32; i++)
		x[i] = vpmu_engine_reg(es->e, VPMU_OPND_R0 + i);
}

static bool sim_ecall_return(void *ctx, uint32_t a0, uint64_t left)
{
	const struct elf_sim *es = ctx;

	vpmu_engine_mem_written(es->e);	/* a read() may have */
	vpmu_engine_set_reg(es->e, VPMU_OPND_R0 + 10, a0);
	return !vpmu_engine_trap_return(es->e) && left;
}

/*
 * --gdb: the program run as gdb says (vpmu_gdb_run()).  0, or the exit
 * status when gdb killed it or could not connect.
 */
static int elf_gdb(struct vpmu_engine *e, const struct vpmu_ucode *uc,
		   uint8_t *mem, uint32_t mem_size, const struct opts *o,
		   struct vpmu_elf_end *end)
{
	struct vpmu_gdb_target t = {
		.where = o->gdb, .e = e, .mem = mem, .mem_size = mem_size,
		.budget = o->com.budget,
	};
	int ret;

	t.img = vpmu_ucode_bytes(uc, &t.img_len);	/* for the monitor */
	ret = vpmu_gdb_run(&t, end);

	if (ret == VPMU_GDB_KILLED && !o->com.quiet)
		vpmu_err(NULL, 0, "killed by gdb");
	return ret < 0 ? VPMU_EXIT_TOOL : ret ? VPMU_GDB_EXIT_KILLED : 0;
}

/*
 * Run the program on @e until it exits or stops otherwise
 * (vpmu_elf_loop(), or gdb's --gdb); the budget covers the whole run.  Returns the exit
 * status.
 */
static int elf_run(struct vpmu_engine *e, const struct vpmu_ucode *uc,
		   uint8_t *mem, uint32_t mem_size, const struct opts *o,
		   const char *path)
{
	struct elf_sim es = { .e = e, .chunk = o->chunk, .period = o->sample };
	const struct vpmu_elf_ops ops = {
		.run = sim_elf_run, .regs = sim_elf_regs,
		.ecall_return = sim_ecall_return, .ctx = &es,
	};
	double t0 = vpmu_now();
	struct vpmu_elf_end end;
	int ret;

	/*
	 * Chunks translate between them and yield at a block that does not
	 * fit, as the module's do (vpmu_elf_loop() runs the rest)
	 */
	vpmu_engine_tc_defer(e, o->chunk != 0);
	vpmu_engine_tc_yield(e, o->chunk && !o->gdb);
	if (o->sample)
		sample_start(e, o->sample, o->sample_ev);
	if (o->gdb) {
		ret = elf_gdb(e, uc, mem, mem_size, o, &end);
		if (ret)
			return ret;
	} else {
		vpmu_elf_loop(&ops, mem, mem_size, o->com.budget, &end);
	}
	if (o->com.timed && !o->com.quiet)
		elf_time(e, vpmu_now() - t0, o->com.json);
	if (o->stats)
		elf_stats(e, uc, &end, o->com.json, o->sample ? &es : NULL);
	return vpmu_elf_exit(path, &end, o->com.quiet);
}

static int elf_main(const struct opts *o, const char *path,
		    const struct vpmu_buf *file)
{
	uint32_t mem_size = o->mem ? o->mem : VPMU_ELF_MEM_DEFAULT, entry;
	struct vpmu_buf diag = { 0 };
	struct vpmu_engine *e;
	struct vpmu_ucode *uc;
	uint8_t *mem;
	int ret;

	mem = calloc(1, mem_size);
	if (!mem)
		abort();
	if (vpmu_elf_load(file->p, file->len, mem, mem_size, &entry, &diag)) {
		vpmu_err_diag(path, NULL, &diag);
		vpmu_buf_free(&diag);
		free(mem);
		return VPMU_EXIT_CANNOT_RUN;
	}
	uc = load_image(o->image, &rv32im_image);
	e = uc ? sim_engine(o) : NULL;
	if (!e || vpmu_engine_attach(e, uc)) {
		ret = VPMU_EXIT_TOOL;
		goto out;
	}
	vpmu_engine_tc_enable(e, !o->no_tc);
	vpmu_engine_start(e, mem, mem_size, entry, VPMU_MODE_USER);
	vpmu_engine_set_reg(e, VPMU_OPND_R0 + 2, mem_size & ~15u);
	ret = elf_run(e, uc, mem, mem_size, o, path);
out:
	if (e)
		vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	free(mem);
	return ret;
}

/* ---- program files ----------------------------------------------------- */

static int prog_main(const struct opts *o, const char *path,
		     const struct vpmu_buf *file)
{
	struct vpmu_buf exp = { 0 };
	struct vpmu_ctr_cfg super = {
		.event = VPMU_EV_CYCLES, .width = 64, .flags = VPMU_CTR_SUPER,
	};
	struct vpmu_prog_view v;
	struct sim sim = { .o = o, .v = &v };
	struct vpmu_runner rn = {
		.o = &o->com, .path = path, .run = run_once,
		.print = o->events ? print_events : NULL, .event = sim_event,
		.ctx = &sim,
	};
	struct vpmu_ucode *uc;
	int ret;

	ret = vpmu_runner_read(&rn, file, &v, &exp);
	if (ret)
		return ret;
	if (load_hu(o, &sim.hu))
		return VPMU_EXIT_TOOL;
	uc = load_image(o->image, &default_image);
	if (!uc)
		return VPMU_EXIT_TOOL;
	sim.e = sim_engine(o);
	if (!sim.e || vpmu_engine_attach(sim.e, uc)) {
		vpmu_err(NULL, 0, "cannot create the engine");
		return VPMU_EXIT_TOOL;
	}
	vpmu_engine_tc_enable(sim.e, !o->no_tc);
	if (sim.hu.n && vpmu_engine_hu_set(sim.e, &sim.hu)) {
		vpmu_err(o->hu_file, 0, "the engine refused the histogram-unit "
			 "program");
		return VPMU_EXIT_TOOL;
	}
	/* Only when asked: a counter costs a little engine time. */
	if (o->com.expect || o->events)
		vpmu_engine_ctr_config(sim.e, SUPER_CTR, &super);
	sim.mem = calloc(1, v.h.mem_size ? v.h.mem_size : 8);
	if (!sim.mem)
		abort();
	rn.mem = sim.mem;
	rn.done = sim.hu.n ? print_hu : NULL;
	sim.uc = uc;
	ret = vpmu_runner_loop(&rn);
	if (sim.killed)
		ret = VPMU_GDB_EXIT_KILLED;
	vpmu_engine_destroy(sim.e);
	vpmu_ucode_free(uc);
	free(sim.mem);
	vpmu_buf_free(&exp);
	return ret;
}

int main(int argc, char **argv)
{
	struct opts o = { .com = { .runs = 1, .budget = DEFAULT_BUDGET } };
	struct vpmu_buf file = { 0 }, diag = { 0 };
	const char *path;
	const void *data;
	size_t size;
	int ret;

	vpmu_cli_init(argv[0], "vpmu-sim");
	parse_args(argc, argv, &o);
	path = argv[optind];
	if (vpmu_read_file(path, &file))
		return vpmu_runner_unreadable(path);
	/* An RV32 program, or a vpmu program vpmu-as wrote as ELF. */
	ret = vpmu_elf_section(file.p, file.len, VPMU_ELF_PROG, &data, &size,
			       &diag);
	if (ret < 0) {
		vpmu_err_diag(path, NULL, &diag);
		return VPMU_EXIT_CANNOT_RUN;
	}
	if (!ret && vpmu_is_elf(file.p, file.len)) {
		ret = elf_main(&o, path, &file);
	} else {
		if (ret)
			vpmu_elf_unwrap(&file, VPMU_ELF_PROG, &diag);
		ret = prog_main(&o, path, &file);
	}
	vpmu_buf_free(&file);
	vpmu_buf_free(&diag);
	return ret;
}

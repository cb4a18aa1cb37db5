// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_runner.c - printing runs and checking them against .expect files,
 * and the loop that runs a program file that way, for vpmu-run and
 * vpmu-sim; the loop that runs a static RV32 ELF program on either's
 * engine, serving its system calls.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "vpmu_cli.h"
#include "vpmu_elf.h"
#include "vpmu_runner.h"
#include "vpmu_tool.h"

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

static const char *const stop_names[] = {
	[VPMU_RUN_BUDGET] = "budget",
	[VPMU_RUN_HALT] = "halt",
	[VPMU_RUN_TRAP] = "trap",
	[VPMU_RUN_FAULT] = "fault",
	[VPMU_RUN_SIGNAL] = "signal",
};

/* enum vpmu_fault in drivers/perf/vpmu/engine/vpmu_engine.h. */
static const char *const fault_names[] = {
	"none", "load", "store", "align", "fetch", "ustack", "noucode",
};

/* The rv32im microcode's trap codes (VPMU_RV_TRAP_*). */
static const char *const rv_trap_names[] = {
	[VPMU_RV_TRAP_ILLEGAL] = "illegal instruction",
	[VPMU_RV_TRAP_ECALL] = "ecall",
	[VPMU_RV_TRAP_EBREAK] = "ebreak",
};

const char *vpmu_stop_name(unsigned int stop)
{
	return stop < ARRAY_LEN(stop_names) ? stop_names[stop] : NULL;
}

const char *vpmu_fault_name(unsigned int code)
{
	return code < ARRAY_LEN(fault_names) ? fault_names[code] : NULL;
}

void vpmu_run_print(FILE *f, const char *prefix, const struct vpmu_run *r,
		    bool show_gen, bool all_regs)
{
	const char *name = vpmu_stop_name(r->stop);
	unsigned int i;

	fprintf(f, "%sstop %s", prefix, name ? name : "?");
	if (!name)
		fprintf(f, " (%u)", r->stop);
	if (r->stop == VPMU_RUN_TRAP)
		fprintf(f, " %u", r->code);
	if (r->stop == VPMU_RUN_FAULT) {
		name = vpmu_fault_name(r->code);
		fprintf(f, " %u (%s at 0x%x)", r->code, name ? name : "?",
			r->addr);
	}
	fprintf(f, "\n%scycles %llu\n", prefix, (unsigned long long)r->cycles);
	if (show_gen)
		fprintf(f, "%sgeneration %llu\n", prefix,
			(unsigned long long)r->generation);
	fprintf(f, "%spc 0x%x ipc 0x%x upc 0x%x mode %s\n", prefix, r->pc,
		r->ipc, r->upc, r->mode_out == VPMU_MODE_SUPER ? "super" : "user");
	for (i = 0; i < 32; i++)
		if (all_regs || r->regs[i])
			fprintf(f, "%sreg r%u %u\n", prefix, i, r->regs[i]);
}

void vpmu_run_json(struct vpmu_json *j, const struct vpmu_run *r,
		   bool show_gen, bool all_regs)
{
	const char *name = vpmu_stop_name(r->stop);
	char reg[8];
	unsigned int i;

	vpmu_json_str(j, "stop", name ? name : "?");
	if (r->stop == VPMU_RUN_TRAP || r->stop == VPMU_RUN_FAULT)
		vpmu_json_u64(j, "code", r->code);
	if (r->stop == VPMU_RUN_FAULT) {
		name = vpmu_fault_name(r->code);
		vpmu_json_str(j, "fault", name ? name : "?");
		vpmu_json_u64(j, "addr", r->addr);
	}
	vpmu_json_u64(j, "cycles", r->cycles);
	if (show_gen)
		vpmu_json_u64(j, "generation", r->generation);
	vpmu_json_u64(j, "pc", r->pc);
	vpmu_json_u64(j, "ipc", r->ipc);
	vpmu_json_u64(j, "upc", r->upc);
	vpmu_json_str(j, "mode",
		      r->mode_out == VPMU_MODE_SUPER ? "super" : "user");
	vpmu_json_open(j, "regs");
	for (i = 0; i < 32; i++) {
		if (!all_regs && !r->regs[i])
			continue;
		snprintf(reg, sizeof(reg), "r%u", i);
		vpmu_json_u64(j, reg, r->regs[i]);
	}
	vpmu_json_close(j);
}

/* strtoull that takes the whole word; negative values wrap to 64 bits. */
static int parse_num(const char *s, uint64_t *v)
{
	char *end;

	if (!*s)
		return -1;
	errno = 0;
	if (*s == '-')
		*v = (uint64_t)strtoll(s, &end, 0);
	else
		*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

struct line_ctx {
	const char *fname;
	unsigned int lineno;
	struct vpmu_buf *diag;
	struct vpmu_expect_res *res;
};

static void mismatch(struct line_ctx *c, const char *what, uint64_t got,
		     uint64_t want)
{
	vpmu_buf_printf(c->diag, "%s:%u: %s: got %llu, want %llu\n", c->fname,
			c->lineno, what, (unsigned long long)got,
			(unsigned long long)want);
	c->res->failed++;
}

static int malformed(struct line_ctx *c, const char *why)
{
	vpmu_buf_printf(c->diag, "%s:%u: malformed line: %s\n", c->fname,
			c->lineno, why);
	c->res->failed++;
	return -1;
}

static int check_stop(struct line_ctx *c, char **w, int n,
		      const struct vpmu_run *r)
{
	const char *got = vpmu_stop_name(r->stop);
	uint64_t want;
	unsigned int i;

	c->res->checked++;
	if (!got || strcmp(w[1], got)) {
		vpmu_buf_printf(c->diag, "%s:%u: stop: got %s, want %s\n",
				c->fname, c->lineno, got ? got : "?", w[1]);
		c->res->failed++;
		return 0;
	}
	if (n < 3)
		return 0;
	if (r->stop == VPMU_RUN_FAULT)
		for (i = 0; i < ARRAY_LEN(fault_names); i++)
			if (!strcmp(w[2], fault_names[i])) {
				if (r->code != i)
					mismatch(c, "stop fault kind", r->code, i);
				return 0;
			}
	if (parse_num(w[2], &want))
		return malformed(c, "bad stop code");
	if (r->code != want)
		mismatch(c, "stop code", r->code, want);
	return 0;
}

static int check_line(struct line_ctx *c, char **w, int n,
		      const struct vpmu_run *r, const uint8_t *mem,
		      uint32_t mem_size, vpmu_event_fn event, void *ctx)
{
	uint64_t want, got;
	char what[64];

	if (!strcmp(w[0], "stop"))
		return n < 2 ? malformed(c, "stop without a reason") :
			       check_stop(c, w, n, r);
	if (n != 3)
		return malformed(c, "expected three words");
	if (parse_num(w[2], &want))
		return malformed(c, "bad number");
	snprintf(what, sizeof(what), "%s %s", w[0], w[1]);
	if (!strcmp(w[0], "reg")) {
		char *end;
		unsigned long i;

		if (w[1][0] != 'r' || !isdigit((unsigned char)w[1][1]))
			return malformed(c, "bad register");
		i = strtoul(w[1] + 1, &end, 10);
		if (*end || i > 31)
			return malformed(c, "bad register");
		got = r->regs[i];
		want &= 0xffffffffu;
	} else if (!strcmp(w[0], "mem")) {
		uint64_t addr;

		if (parse_num(w[1], &addr) || addr % 4)
			return malformed(c, "bad address");
		if (addr >= mem_size || mem_size - addr < 4) {
			vpmu_buf_printf(c->diag, "%s:%u: mem %s: outside the %u-byte memory\n",
					c->fname, c->lineno, w[1], mem_size);
			c->res->checked++;
			c->res->failed++;
			return 0;
		}
		got = vpmu_get32(mem + addr);
		want &= 0xffffffffu;
	} else if (!strcmp(w[0], "event") && !strcmp(w[1], "cycles")) {
		got = r->cycles;
	} else if (!strcmp(w[0], "event") || !strcmp(w[0], "super")) {
		char key[64];

		snprintf(key, sizeof(key), "%s%s",
			 strcmp(w[0], "super") ? "" : "super ", w[1]);
		if (!event || !event(ctx, key, &got)) {
			c->res->skipped++;
			return 0;
		}
	} else {
		return malformed(c, "unknown keyword");
	}
	c->res->checked++;
	if (got != want)
		mismatch(c, what, got, want);
	return 0;
}

int vpmu_expect_check(const char *text, const char *fname,
		      const struct vpmu_run *r, const uint8_t *mem,
		      uint32_t mem_size, vpmu_event_fn event, void *ctx,
		      struct vpmu_expect_res *res, struct vpmu_buf *diag)
{
	struct line_ctx c = { fname, 0, diag, res };
	char *copy = strdup(text), *line, *next, *w[4];
	int ret = 0, n;

	if (!copy)
		abort();
	memset(res, 0, sizeof(*res));
	for (line = copy; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		c.lineno++;
		if (strchr(line, '#'))
			*strchr(line, '#') = '\0';
		for (n = 0; n < 4; n++) {
			w[n] = strtok(n ? NULL : line, " \t\r");
			if (!w[n])
				break;
		}
		if (!n)
			continue;
		if (n > 3) {
			malformed(&c, "too many words");
			ret = -1;
			continue;
		}
		if (check_line(&c, w, n, r, mem, mem_size, event, ctx))
			ret = -1;
	}
	free(copy);
	return ret;
}

int vpmu_runner_opt(struct vpmu_runner_opts *o, int c, const char *arg,
		    const char *prog, uint64_t budget_max)
{
	switch (c) {
	case 'r':	/* perf stat's -r, --repeat */
	case 'n':
		if (vpmu_parse_count(arg, &o->runs) || !o->runs) {
			vpmu_usage_error("bad run count '%s'", arg);
		}
		return 1;
	case 'b':
		if (vpmu_parse_count(arg, &o->budget) || !o->budget ||
		    o->budget > budget_max) {
			if (budget_max == UINT64_MAX)
				vpmu_usage_error("bad budget '%s'", arg);
			/* only /dev/vpmu has a limit: 2^40 */
			vpmu_usage_error("bad budget '%s' (1..2^40 cycles)", arg);
		}
		return 1;
	case 's':
		o->super = true;
		return 1;
	case 'x':
		o->ext = true;
		return 1;
	case VPMU_RUNNER_OPT_EXT_AT: {
		uint64_t v;

		if (vpmu_parse_count(arg, &v) || !v || v > UINT32_MAX) {
			vpmu_usage_error("bad --ext-at '%s' (1..2^32-1 cycles)",
					 arg);
		}
		o->ext_at = v;
		return 1;
	}
	case 'e':
		o->expect = arg;
		return 1;
	case 't':
		o->timed = true;
		return 1;
	case 'v':
		o->verbose = true;
		return 1;
	case 'q':
		o->quiet = true;
		return 1;
	case VPMU_RUNNER_OPT_JSON:
	case 'j':	/* perf stat's -j, --json-output */
		o->json = true;
		return 1;
	}
	return 0;
}

int vpmu_parse_count(const char *s, uint64_t *val)
{
	static const struct { const char *sfx; uint64_t mul; } sfx[] = {
		{ "", 1 }, { "k", 1000 }, { "M", 1000000 },
		{ "G", 1000000000 }, { "T", 1000000000000ull },
		{ "Ki", 1ull << 10 }, { "Mi", 1ull << 20 },
		{ "Gi", 1ull << 30 }, { "Ti", 1ull << 40 },
	};
	unsigned long long v;
	unsigned int i;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno)
		return -1;
	if (end[0] == '^') {
		unsigned long long e;

		if (v != 2 || !isdigit((unsigned char)end[1]))
			return -1;
		e = strtoull(end + 1, &end, 10);
		if (*end || e > 63)
			return -1;
		*val = 1ull << e;
		return 0;
	}
	for (i = 0; i < ARRAY_LEN(sfx); i++) {
		if (strcmp(end, sfx[i].sfx))
			continue;
		if (v > UINT64_MAX / sfx[i].mul)
			return -1;
		*val = v * sfx[i].mul;
		return 0;
	}
	return -1;
}

double vpmu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- the run loop ------------------------------------------------------ */

/* Compare the architectural results of two runs (generation aside). */
static bool same_run(const struct vpmu_run *a, const struct vpmu_run *b)
{
	return a->cycles == b->cycles && a->stop == b->stop &&
	       a->code == b->code && a->addr == b->addr && a->pc == b->pc &&
	       a->upc == b->upc && a->mode_out == b->mode_out &&
	       !memcmp(a->regs, b->regs, sizeof(a->regs));
}

/* --json: run @index's object, on a line of its own. */
static void runner_print_json(const struct vpmu_runner *rn, uint64_t index,
			      const struct vpmu_run *r, double secs)
{
	struct vpmu_json j;

	vpmu_json_begin(&j, stdout);
	vpmu_json_u64(&j, "run", index);
	vpmu_run_json(&j, r, rn->show_gen, rn->o->verbose);
	if (rn->print)
		rn->print(rn->ctx, "", &j);
	if (rn->o->timed) {
		vpmu_json_double(&j, "seconds", secs);
		vpmu_json_double(&j, "cycles_per_second",
				 secs > 0 ? r->cycles / secs : 0);
	}
	vpmu_json_end(&j);
}

/*
 * Unless --quiet: run @r's lines (run @index of the loop, from 1), the
 * runner's own, its --time line; with --json, its object.
 */
static void runner_print(const struct vpmu_runner *rn, uint64_t index,
			 const char *prefix, const struct vpmu_run *r,
			 double secs)
{
	const struct vpmu_runner_opts *o = rn->o;

	if (o->quiet)
		return;
	if (o->json) {
		runner_print_json(rn, index, r, secs);
		return;
	}
	vpmu_run_print(stdout, prefix, r, rn->show_gen, o->verbose);
	if (rn->print)
		rn->print(rn->ctx, prefix, NULL);
	if (o->timed)
		printf("%stime %.6f s, %.0f cycles/s\n", prefix, secs,
		       secs > 0 ? r->cycles / secs : 0);
}

/* --json: the checks of run @index that passed, a line of their own. */
static void expect_json(uint64_t index, const char *path,
			const struct vpmu_expect_res *res, bool show_skipped)
{
	struct vpmu_json j;

	vpmu_json_begin(&j, stdout);
	vpmu_json_u64(&j, "run", index);
	vpmu_json_open(&j, "expect");
	vpmu_json_str(&j, "file", path);
	vpmu_json_u64(&j, "passed", res->checked);
	if (show_skipped)
		vpmu_json_u64(&j, "event_lines_skipped", res->skipped);
	vpmu_json_close(&j);
	vpmu_json_end(&j);
}

/*
 * Check run @r against the .expect text: VPMU_EXIT_OK if it matches,
 * _DIFFER after reporting the mismatches, _TOOL after reporting a
 * malformed line.
 */
static int runner_expect(const struct vpmu_runner *rn, uint64_t index,
			 const char *prefix, const struct vpmu_run *r)
{
	const struct vpmu_runner_opts *o = rn->o;
	struct vpmu_buf diag = { 0 };
	struct vpmu_expect_res res;
	int ret = VPMU_EXIT_OK;

	if (vpmu_expect_check(rn->expect, o->expect, r, rn->mem, rn->mem_size,
			      rn->event, rn->ctx, &res, &diag))
		ret = VPMU_EXIT_TOOL;
	else if (res.failed)
		ret = VPMU_EXIT_DIFFER;
	else if (!o->quiet && o->json)
		expect_json(index, o->expect, &res, rn->show_skipped);
	else if (!o->quiet && rn->show_skipped)
		printf("%sexpect %s: %u checks passed, %u event lines skipped\n",
		       prefix, o->expect, res.checked, res.skipped);
	else if (!o->quiet)
		printf("%sexpect %s: %u checks passed\n", prefix, o->expect,
		       res.checked);
	vpmu_err_diag(o->expect, prefix, &diag);
	vpmu_buf_free(&diag);
	return ret;
}

/* "runs N, results identical" (or differ), or its --json object. */
static void compare_print(const struct vpmu_runner_opts *o, bool differ)
{
	struct vpmu_json j;

	if (!o->json) {
		printf("runs %llu, results %s\n", (unsigned long long)o->runs,
		       differ ? "DIFFER between runs" : "identical");
		return;
	}
	vpmu_json_begin(&j, stdout);
	vpmu_json_u64(&j, "runs", o->runs);
	vpmu_json_bool(&j, "identical", !differ);
	vpmu_json_end(&j);
}

/* With @rn->compare: say whether the runs differed; the new status. */
static int runner_compare(const struct vpmu_runner *rn, bool differ, int ret)
{
	const struct vpmu_runner_opts *o = rn->o;

	if (o->runs > 1 && !o->quiet && !ret)
		compare_print(o, differ);
	if (differ && !ret) {
		vpmu_err(rn->path, 0, "the results differ between runs");
		ret = VPMU_EXIT_DIFFER;
	}
	return ret;
}

int vpmu_runner_read(struct vpmu_runner *rn, const struct vpmu_buf *file,
		     struct vpmu_prog_view *v, struct vpmu_buf *exp)
{
	const char *expect = rn->o->expect;
	struct vpmu_buf diag = { 0 };

	if (vpmu_prog_view(v, file->p, file->len, &diag)) {
		vpmu_err_diag(rn->path, NULL, &diag);
		return VPMU_EXIT_CANNOT_RUN;
	}
	if (expect && vpmu_read_file(expect, exp)) {
		vpmu_err_errno(expect);
		return VPMU_EXIT_TOOL;
	}
	rn->expect = exp->p;
	rn->mem_size = v->h.mem_size;
	return 0;
}

/* -t's "total ..." line after the runs, or its --json object. */
static void total_print(const struct vpmu_runner_opts *o, uint64_t cycles,
			double secs)
{
	struct vpmu_json j;

	if (!o->json) {
		printf("total %llu cycles in %.6f s: %.0f cycles/s\n",
		       (unsigned long long)cycles, secs, cycles / secs);
		return;
	}
	vpmu_json_begin(&j, stdout);
	vpmu_json_open(&j, "total");
	vpmu_json_u64(&j, "cycles", cycles);
	vpmu_json_double(&j, "seconds", secs);
	vpmu_json_double(&j, "cycles_per_second", cycles / secs);
	vpmu_json_end(&j);
}

int vpmu_runner_loop(const struct vpmu_runner *rn)
{
	const struct vpmu_runner_opts *o = rn->o;
	uint64_t i, total_cycles = 0;
	double secs, total_secs = 0;
	struct vpmu_run r, first;
	bool differ = false, failed = false;
	int ret = VPMU_EXIT_OK;

	for (i = 0; i < o->runs && ret != VPMU_EXIT_TOOL; i++) {
		char prefix[32] = "";

		if (rn->run(rn->ctx, &r, &secs)) {
			ret = VPMU_EXIT_TOOL;
			failed = true;
			break;
		}
		total_cycles += r.cycles;
		total_secs += secs;
		if (o->runs > 1)
			snprintf(prefix, sizeof(prefix), "run %llu: ",
				 (unsigned long long)i + 1);
		runner_print(rn, i + 1, prefix, &r, secs);
		if (i == 0)
			first = r;
		else if (!same_run(&first, &r))
			differ = true;
		if (o->expect) {
			int e = runner_expect(rn, i + 1, prefix, &r);

			ret = e > ret ? e : ret;
		}
	}
	if (rn->compare)
		ret = runner_compare(rn, differ, ret);
	/*
	 * a run that failed (killed by gdb, or gdb never came) left the
	 * state done reports half made, or never began it
	 */
	if (rn->done && !failed)
		rn->done(rn->ctx, o->json);
	if (o->timed && !o->quiet && total_secs > 0)
		total_print(o, total_cycles, total_secs);
	return ret;
}

int vpmu_runner_unreadable(const char *path)
{
	int err = errno;

	vpmu_err_errno(path);
	return err == ENOENT || err == ENOTDIR ? VPMU_EXIT_NOT_FOUND :
	       VPMU_EXIT_CANNOT_RUN;
}

int vpmu_elf_loop(const struct vpmu_elf_ops *ops, uint8_t *mem,
		  uint32_t mem_size, uint64_t budget, struct vpmu_elf_end *end)
{
	struct vpmu_elf_stop *st = &end->st;
	uint64_t left = budget;
	uint32_t x[32];

	memset(end, 0, sizeof(*end));
	end->budget = budget;
	for (;;) {
		if (ops->run(ops->ctx, left, st))
			return -1;
		end->cycles += st->cycles;
		left -= st->cycles < left ? st->cycles : left;
		if (st->more && left)
			continue;
		if (st->stop != VPMU_RUN_TRAP || st->code != VPMU_RV_TRAP_ECALL)
			return 0;
		ops->regs(ops->ctx, x);
		vpmu_sys_call(x, mem, mem_size, &end->res);
		if (end->res.exited)
			return 0;
		if (!ops->ecall_return(ops->ctx, end->res.a0, left)) {
			st->stop = VPMU_RUN_BUDGET;
			return 0;
		}
	}
}

int vpmu_elf_exit(const char *path, const struct vpmu_elf_end *end,
		  bool quiet)
{
	const struct vpmu_elf_stop *st = &end->st;

	if (end->res.exited)
		return end->res.status;
	if (!quiet)
		vpmu_elf_report_stop(path, end);
	return vpmu_elf_status(st->stop, st->code);
}

int vpmu_elf_status(unsigned int stop, unsigned int code)
{
	if (stop == VPMU_RUN_BUDGET)
		return VPMU_EXIT_BUDGET;
	if (stop == VPMU_RUN_TRAP && code == VPMU_RV_TRAP_EBREAK)
		return VPMU_EXIT_SIGTRAP;
	if (stop == VPMU_RUN_TRAP || stop == VPMU_RUN_HALT)
		return VPMU_EXIT_SIGILL;
	return VPMU_EXIT_SIGSEGV;
}

void vpmu_elf_print_end(FILE *f, const struct vpmu_elf_end *end)
{
	const struct vpmu_elf_stop *st = &end->st;
	const char *name = vpmu_stop_name(st->stop);

	if (end->res.exited) {
		fprintf(f, "exit %d\n", end->res.status);
		return;
	}
	fprintf(f, "stop %s", name ? name : "?");
	if (st->stop == VPMU_RUN_TRAP)
		fprintf(f, " %u", st->code);
	if (st->stop == VPMU_RUN_FAULT)
		fprintf(f, " %u (%s at 0x%x)", st->code,
			vpmu_fault_name(st->code) ? vpmu_fault_name(st->code) :
			"?", st->addr);
	fprintf(f, " at pc 0x%x\n", st->ipc);
}

void vpmu_elf_json_end(struct vpmu_json *j, const struct vpmu_elf_end *end)
{
	const struct vpmu_elf_stop *st = &end->st;
	const char *fault = vpmu_fault_name(st->code);

	if (end->res.exited) {
		vpmu_json_int(j, "exit", end->res.status);
		return;
	}
	vpmu_json_str(j, "stop", vpmu_stop_name(st->stop) ?
		      vpmu_stop_name(st->stop) : "?");
	vpmu_json_u64(j, "code", st->code);
	vpmu_json_u64(j, "ipc", st->ipc);
	if (st->stop != VPMU_RUN_FAULT)
		return;
	vpmu_json_str(j, "fault", fault ? fault : "?");
	vpmu_json_u64(j, "addr", st->addr);
}

void vpmu_elf_json_regs(struct vpmu_json *j, const uint32_t x[32],
			uint32_t pc)
{
	char name[8];
	unsigned int i;

	vpmu_json_open(j, "regs");
	for (i = 0; i < 32; i++) {
		snprintf(name, sizeof(name), "x%u", i);
		vpmu_json_u64(j, name, x[i]);
	}
	vpmu_json_close(j);
	vpmu_json_u64(j, "pc", pc);
}

void vpmu_elf_print_regs(FILE *f, const uint32_t x[32], uint32_t pc)
{
	unsigned int i;

	for (i = 0; i < 32; i++)
		fprintf(f, "x%u 0x%08x\n", i, x[i]);
	fprintf(f, "pc 0x%08x\n", pc);
}

int vpmu_elf_parse_mem(const char *prog, const char *arg, uint64_t *mem)
{
	if (vpmu_parse_count(arg, mem) || !*mem || *mem % 4 ||
	    *mem > VPMU_PROG_MEM_MAX)
		vpmu_usage_error("bad memory size '%s'", arg);
	return 0;
}

void vpmu_elf_report_stop(const char *path, const struct vpmu_elf_end *end)
{
	unsigned int stop = end->st.stop, code = end->st.code;
	uint32_t addr = end->st.addr, ipc = end->st.ipc;
	const char *name = vpmu_stop_name(stop) ? vpmu_stop_name(stop) : "?";
	const char *what = NULL;

	if (stop == VPMU_RUN_TRAP && code < ARRAY_LEN(rv_trap_names))
		what = rv_trap_names[code];
	else if (stop == VPMU_RUN_FAULT)
		what = vpmu_fault_name(code);

	if (stop == VPMU_RUN_FAULT)
		vpmu_err(path, 0, "program stopped: %s %u (%s) at pc 0x%x, "
			 "address 0x%x", name, code, what ? what : "?", ipc,
			 addr);
	else if (stop == VPMU_RUN_TRAP)
		vpmu_err(path, 0, "program stopped: %s %u%s%s%s at pc 0x%x",
			 name, code, what ? " (" : "", what ? what : "",
			 what ? ")" : "", ipc);
	else if (stop == VPMU_RUN_BUDGET)
		vpmu_err(path, 0,
			 "program stopped: its cycle budget of %llu cycles is used up at pc 0x%x (--budget raises it)",
			 (unsigned long long)end->budget, ipc);
	else
		vpmu_err(path, 0, "program stopped: %s at pc 0x%x", name, ipc);
}

/* mkdir -p @path (a buffer's text), each directory made mode 0700. */
static int perf_mkdirs(char *path)
{
	char *p;

	for (p = strchr(path + 1, '/'); ; p = strchr(p + 1, '/')) {
		if (p)
			*p = 0;
		if (mkdir(path, 0700) && errno != EEXIST)
			return -1;
		if (!p)
			return 0;
		*p = '/';
	}
}

/*
 * The directory of perf copies, into @dir: $XDG_CACHE_HOME/vpmu/perf, else
 * $HOME/.cache/vpmu/perf, made if need be, if that directory is this user's
 * (not a user's home under sudo, where root's files would stay); else
 * (or if it cannot be made) ${TMPDIR:-/tmp}/vpmu-perf-UID, a directory
 * of this user's alone.  -1 if there is none to be had.
 */
static int perf_copy_dir(struct vpmu_buf *dir)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	const char *tmp = getenv("TMPDIR");
	struct stat st;

	if (xdg && *xdg == '/' &&
	    (stat(xdg, &st) ? errno == ENOENT : st.st_uid == geteuid()))
		vpmu_buf_printf(dir, "%s/vpmu/perf", xdg);
	else if (!(xdg && *xdg == '/') && home && *home == '/' &&
		 strcmp(home, "/") && !stat(home, &st) &&
		 st.st_uid == geteuid())
		vpmu_buf_printf(dir, "%s/.cache/vpmu/perf", home);
	if (dir->len && !perf_mkdirs(dir->p))
		return 0;
	dir->len = 0;
	vpmu_buf_printf(dir, "%s/vpmu-perf-%u", tmp && *tmp == '/' ? tmp :
			"/tmp", (unsigned int)geteuid());
	if (mkdir(dir->p, 0700) && errno != EEXIST)
		return -1;
	return lstat(dir->p, &st) || !S_ISDIR(st.st_mode) ||
	       st.st_uid != geteuid() || (st.st_mode & 077) ? -1 : 0;
}

/*
 * The file perf is to read for the ELF file @path (@len bytes at @file):
 * @path itself, or if it has RISC-V mapping symbols, a copy with them
 * hidden (vpmu_elf_hide_mapping_syms()) at DIR/HASH/NAME, DIR from
 * perf_copy_dir(), HASH the FNV-1a hash of the file's bytes, NAME its
 * own (the name perf shows); written once, kept for perf report and
 * annotate.  Into @out; the copy's failure only costs the names.
 */
static void perf_copy(const char *path, const void *file, size_t len,
		      struct vpmu_buf *out)
{
	struct vpmu_buf copy = { 0 }, dir = { 0 }, old = { 0 }, diag = { 0 };
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	uint64_t hash = 0xcbf29ce484222325ull;
	size_t i;

	vpmu_buf_put(&copy, file, len);
	if (vpmu_elf_hide_mapping_syms(copy.p, copy.len, &diag) <= 0 ||
	    perf_copy_dir(&dir))
		goto same;
	for (i = 0; i < len; i++)
		hash = (hash ^ ((const uint8_t *)file)[i]) * 0x100000001b3ull;
	vpmu_buf_printf(&dir, "/%016llx", (unsigned long long)hash);
	if (mkdir(dir.p, 0700) && errno != EEXIST)
		goto same;
	vpmu_buf_printf(out, "%s/%s", dir.p, name);
	if (!vpmu_read_file(out->p, &old) && old.len == copy.len &&
	    !memcmp(old.p, copy.p, copy.len))
		goto done;
	if (!vpmu_write_file(out->p, copy.p, copy.len))
		goto done;
	out->len = 0;
same:
	vpmu_buf_printf(out, "%s", path);
done:
	vpmu_buf_free(&copy);
	vpmu_buf_free(&dir);
	vpmu_buf_free(&old);
	vpmu_buf_free(&diag);
}

int vpmu_map_elf(const char *path, const void *file, size_t len,
		 uint64_t base, struct vpmu_buf *diag)
{
	struct vpmu_elf_seg seg[8];
	struct vpmu_buf mapped = { 0 };
	long page = sysconf(_SC_PAGESIZE);
	int n, i, fd, ret = 0;

	n = vpmu_elf_exec_segs(file, len, seg, 8, diag);
	if (n < 0)
		return -1;
	if (!strcmp(path, "-")) {
		vpmu_buf_printf(diag, "standard input cannot be mapped");
		return -1;
	}
	perf_copy(path, file, len, &mapped);
	fd = open(mapped.p, O_RDONLY | O_CLOEXEC);
	vpmu_buf_free(&mapped);
	if (fd < 0) {
		vpmu_buf_printf(diag, "%s", strerror(errno));
		return -1;
	}
	for (i = 0; i < n && !ret; i++) {
		uint64_t in_page = seg[i].vaddr % page;
		uint64_t at = base + seg[i].vaddr - in_page;
		void *p;

		if (seg[i].offset % page != in_page) {
			vpmu_buf_printf(diag, "segment %d is not page-aligned "
					"in the file", i);
			ret = -1;
			break;
		}
		p = mmap((void *)(uintptr_t)at, seg[i].filesz + in_page,
			 PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_FIXED_NOREPLACE,
			 fd, seg[i].offset - in_page);
		if (p == MAP_FAILED) {
			vpmu_buf_printf(diag, "cannot map it at 0x%llx: %s%s",
					(unsigned long long)at, strerror(errno),
					errno == EPERM || errno == EACCES ?
					" (a noexec file system?)" : "");
			ret = -1;
		} else if (p != (void *)(uintptr_t)at) {
			/* A kernel before 4.17 took it as a hint. */
			munmap(p, seg[i].filesz + in_page);
			vpmu_buf_printf(diag, "cannot map it at 0x%llx",
					(unsigned long long)at);
			ret = -1;
		}
	}
	close(fd);
	return ret;
}

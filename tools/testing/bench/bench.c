// SPDX-License-Identifier: GPL-2.0
/*
 * bench.c - run the engine for a fixed number of cycles, for callgrind.
 *
 *   bench IMAGE PROGRAM CYCLES MODE   (files from vpmu-as)
 *   bench --builtin CYCLES MODE        (a C-built image)
 *
 * MODE is uncounted, counted, counted-int, one, triggered or sample16.  Prints
 * "uops N" (microwords executed).  "counted": eight 16-bit counters on
 * UOPS, CYCLES, INSNS and tags 1..5 (the default microcode's decode, alu,
 * load, store and branch tags), both modes, no interrupts (as the perf
 * driver sets a counting event's counter).  "counted-int": the same
 * counters with VPMU_CTR_INT, as the perf driver sets a sampling event's
 * (perf record -e ... -c 65536): the run is resumed after every OVERFLOW
 * stop, its status bits cleared, until the budget is used.  "one": one 48-bit counter on UOPS.  "triggered":
 * the same counter in freeze group 1, which starts frozen and toggles on
 * microwords with the trigger bit (perf's trig_mark=1,frozen=1); it also
 * prints "counted N".  "sample16": the worst case for a run chunk's
 * interrupts-off time, sixteen 16-bit counters on CYCLES with VPMU_CTR_INT
 * preset to wrap on every cycle (perf's period 1), run in the driver's
 * chunks (VPMU_BENCH_CHUNK, default 5000 cycles) ending after
 * VPMU_BENCH_STOPS overflow stops (0: no bound, the driver before the
 * bound), re-armed at every stop as the driver's handler does; prints
 * "chunks N stops M".
 *
 * VPMU_BENCH_TC=off turns the translation cache off.
 *
 * VPMU_BENCH_HU=events|wq|seq1 also programs the histogram unit (for
 * measuring its cost by hand; make bench leaves it off): "events", 16
 * PAR entries (events, tags, UPC ranges) with periods 1000..16000; "wq",
 * the same with four WQ ranges among them; "seq1", SEQ CYCLES / UOPS /
 * WQ_STALL with 1-cycle periods.  VPMU_BENCH_UHIST=K samples the
 * micro-PC histogram every K cycles.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_test_image.h"

#define MEM_MAX	(1u << 20)

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0) {
		perror(path);
		exit(2);
	}
	rewind(f);
	p = malloc(n ? n : 1);
	if (fread(p, 1, n, f) != (size_t)n) {
		perror(path);
		exit(2);
	}
	fclose(f);
	*len = n;
	return p;
}

static void hu_bench(struct vpmu_engine *e, const char *what)
{
	struct vpmu_hu_prog h = { VPMU_HU_PAR, 16 };
	unsigned int i;

	for (i = 0; i < 16; i++) {
		struct vpmu_hu_entry x = { VPMU_HU_EVENT, i < 8 ? i :
					   VPMU_EV_TAG(i - 7), 0, 0,
					   1000 * (i + 1) };

		if (i >= 12) {
			x.kind = VPMU_HU_UPC;
			x.lo = 10 * (i - 12);
			x.hi = x.lo + 30;
		}
		if (!strcmp(what, "wq") && i >= 12) {
			x.kind = VPMU_HU_WQ;
			x.lo = i - 12;
			x.hi = i - 12;
		}
		h.ent[i] = x;
	}
	if (!strcmp(what, "seq1")) {
		h.mode = VPMU_HU_SEQ;
		h.n = 3;
		h.ent[0].event = VPMU_EV_CYCLES;
		h.ent[1].event = VPMU_EV_UOPS;
		h.ent[2].event = VPMU_EV_WQ_STALL;
		for (i = 0; i < 3; i++)
			h.ent[i].period = 1;
	}
	if (vpmu_engine_hu_set(e, &h)) {
		fprintf(stderr, "histogram unit refused %s\n", what);
		exit(2);
	}
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A loop on a C-built image for when the toolchain is not there. */
static uint8_t *builtin(size_t *len, uint8_t *mem, uint32_t *msz)
{
	struct tb_image *t = tb_new();
	uint8_t *img = malloc(65536);

	t->cs[0] = UW(EXT, T(1), T(0), 0, VPMU_EXT_IMM(0, 6)) | Q(NEXT, 0, 0) | UEV(1);
	t->cs[1] = UW(SHL, T(1), T(1), IM, 2) | Q(NEXT, 0, 0) | UEV(2);
	t->cs[2] = UW(LW, T(2), T(1), 0, 0) | Q(NEXT, 0, 0) | UEV(3);
	t->cs[3] = UW(ADD, T(2), T(2), T(0), 0) | Q(NEXT, 0, 0) | UEV(2);
	t->cs[4] = UW(SW, 0, T(1), T(2), 0) | Q(NEXT, 0, 0) | UEV(4);
	t->cs[5] = UW(ADD, T(0), T(0), IM, 1) | US | Q(NEXT, 0, 0) | UEV(2);
	t->cs[6] = NOPW | QC(AL, 0) | UEV(5);
	t->ncs = 7;
	*len = tb_build(t, img, 65536);
	free(t);
	memset(mem, 0, 256);
	*msz = 256;
	return img;
}

/*
 * sample16: vpmu_machine_run.c's vpmu_run_engine() and vpmu_run_chunk()
 * with the perf glue's engine work at each stop (fold, clear, re-arm);
 * what perf itself does per sample is not modelled (the guest measures
 * it).
 */
static __attribute__((noinline)) int sample16(struct vpmu_engine *e,
					       uint64_t cycles)
{
	uint64_t chunk = getenv("VPMU_BENCH_CHUNK") ?
		strtoull(getenv("VPMU_BENCH_CHUNK"), NULL, 0) : 5000;
	unsigned long cap = getenv("VPMU_BENCH_STOPS") ?
		strtoul(getenv("VPMU_BENCH_STOPS"), NULL, 0) : 0;
	unsigned long chunks = 0, stops = 0, n;
	struct vpmu_stop s;
	unsigned int i;
	uint64_t used;

	/* as the module's engines: translating between chunks, yielding */
	vpmu_engine_tc_defer(e, true);
	vpmu_engine_tc_yield(e, true);
	for (i = 0; i < 16; i++) {
		struct vpmu_ctr_cfg c = { VPMU_EV_CYCLES, 16, VPMU_CTR_USER |
					  VPMU_CTR_SUPER | VPMU_CTR_INT, 0 };

		vpmu_engine_ctr_config(e, i, &c);
		vpmu_engine_ctr_write(e, i, 0xffff);
	}
	while (cycles) {
		uint64_t budget = chunk < cycles ? chunk : cycles;

		chunks++;
		for (used = 0, n = 0;; n++) {
			vpmu_engine_run(e, !cap || n < cap ? budget - used : 0,
					&s);
			used += s.cycles;
			if (s.reason != VPMU_STOP_OVERFLOW)
				break;
			stops++;
			for (i = 0; i < 16; i++) {
				if (!(s.ovf & (1u << i)))
					continue;
				vpmu_engine_ovf_clear(e, 1u << i);
				vpmu_engine_ctr_write(e, i, 0xffff);
			}
		}
		if (s.reason != VPMU_STOP_BUDGET) {
			fprintf(stderr, "stopped early: reason %d\n", s.reason);
			return 1;
		}
		vpmu_engine_tc_work(e, 2);
		cycles -= used;
	}
	printf("uops %llu\nchunks %lu stops %lu\n", (unsigned long long)
	       vpmu_engine_event_total(e, VPMU_EV_UOPS), chunks, stops);
	return 0;
}

int main(int argc, char **argv)
{
	static uint8_t mem[MEM_MAX];
	static const uint16_t ev[8] = {
		VPMU_EV_UOPS, VPMU_EV_CYCLES, VPMU_EV_INSNS, VPMU_EV_TAG(1),
		VPMU_EV_TAG(2), VPMU_EV_TAG(3), VPMU_EV_TAG(4), VPMU_EV_TAG(5),
	};
	struct vpmu_ucode *uc;
	struct vpmu_engine *e;
	struct vpmu_verr err;
	struct vpmu_stop s;
	uint8_t *img;
	size_t ilen;
	uint32_t entry = 0, msz;
	uint64_t cycles, chunk;
	bool counted, intr, one, trig;
	const char *mode;
	unsigned int i;

	if (argc == 4 && !strcmp(argv[1], "--builtin")) {
		img = builtin(&ilen, mem, &msz);
		cycles = strtoull(argv[2], NULL, 0);
		mode = argv[3];
	} else if (argc == 5) {
		size_t plen;
		uint8_t *prog = slurp(argv[2], &plen);
		uint32_t hsz = le32(prog + 8), load = le32(prog + 28);

		img = slurp(argv[1], &ilen);
		entry = le32(prog + 24);
		msz = le32(prog + 32);
		if (hsz + load > plen || msz > MEM_MAX || load > msz) {
			fprintf(stderr, "%s: bad program file\n", argv[2]);
			return 2;
		}
		memcpy(mem, prog + hsz, load);
		cycles = strtoull(argv[3], NULL, 0);
		mode = argv[4];
	} else {
		fprintf(stderr, "usage: bench IMAGE PROGRAM CYCLES MODE\n"
			"       bench --builtin CYCLES MODE\n"
			"MODE: uncounted, counted, counted-int, one or triggered\n");
		return 2;
	}
	intr = !strcmp(mode, "counted-int");
	counted = intr || !strcmp(mode, "counted");
	trig = !strcmp(mode, "triggered");
	one = trig || !strcmp(mode, "one");
	if (!counted && !one && strcmp(mode, "uncounted") &&
	    strcmp(mode, "sample16")) {
		fprintf(stderr, "bad mode %s\n", mode);
		return 2;
	}
	if (vpmu_ucode_load(&uc, img, ilen, VPMU_CS_MAX, &err)) {
		fprintf(stderr, "image: %s\n", err.msg);
		return 1;
	}
	e = vpmu_engine_create(VPMU_CS_MAX);
	if (!e || vpmu_engine_attach(e, uc))
		return 1;
	/* VPMU_BENCH_TC=off: every microword interpreted */
	vpmu_engine_tc_enable(e, !getenv("VPMU_BENCH_TC") ||
				 strcmp(getenv("VPMU_BENCH_TC"), "off"));
	for (i = 0; counted && i < 8; i++) {
		struct vpmu_ctr_cfg c = { ev[i], 16,
					  VPMU_CTR_USER | VPMU_CTR_SUPER, 0 };

		if (intr)
			c.flags |= VPMU_CTR_INT;
		vpmu_engine_ctr_config(e, i, &c);
	}
	if (one) {
		struct vpmu_ctr_cfg c = { VPMU_EV_UOPS, 48,
					  VPMU_CTR_USER | VPMU_CTR_SUPER,
					  trig ? 1 : 0 };

		vpmu_engine_ctr_config(e, 0, &c);
		if (trig && vpmu_engine_fgroup_trigger(e, 1, VPMU_TRIG_MARK)) {
			fprintf(stderr, "cannot set the trigger\n");
			return 1;
		}
		vpmu_engine_freeze(e, 1, trig);
	}
	if (getenv("VPMU_BENCH_HU"))
		hu_bench(e, getenv("VPMU_BENCH_HU"));
	if (getenv("VPMU_BENCH_UHIST"))
		vpmu_engine_uhist_set(e, strtoul(getenv("VPMU_BENCH_UHIST"),
						 NULL, 0));
	if (!strcmp(mode, "sample16")) {
		vpmu_engine_start(e, mem, msz, entry, 0);
		return sample16(e, cycles);
	}
	chunk = getenv("VPMU_BENCH_CHUNK") ?
		strtoull(getenv("VPMU_BENCH_CHUNK"), NULL, 0) : 0;
	/*
	 * The driver runs 5000-cycle chunks (VPMU_BENCH_CHUNK=5000), which
	 * translate between them and yield (vpmu_machine.c)
	 */
	vpmu_engine_tc_defer(e, chunk != 0);
	vpmu_engine_tc_yield(e, chunk != 0);
	vpmu_engine_start(e, mem, msz, entry, 0);
	for (;;) {
		vpmu_engine_run(e, chunk && chunk < cycles ? chunk : cycles,
				&s);
		if (chunk)
			vpmu_engine_tc_work(e, 2);
		cycles -= s.cycles;
		if (s.reason == VPMU_STOP_BUDGET && cycles)
			continue;
		if (s.reason != VPMU_STOP_OVERFLOW || !intr)
			break;
		/* what the driver does: take the interrupt, clear, resume */
		vpmu_engine_ovf_clear(e, s.ovf);
		if (!cycles) {
			s.reason = VPMU_STOP_BUDGET;
			break;
		}
	}
	if (s.reason != VPMU_STOP_BUDGET) {
		fprintf(stderr, "stopped early: reason %d code %u upc %u\n",
			s.reason, s.code, s.upc);
		return 1;
	}
	printf("uops %llu\n", (unsigned long long)
	       vpmu_engine_event_total(e, VPMU_EV_UOPS));
	if (trig)
		printf("counted %llu\n",
		       (unsigned long long)vpmu_engine_ctr_read(e, 0));
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	free(img);
	return 0;
}

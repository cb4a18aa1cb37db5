// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_image.c - libFuzzer target for the image validator and decoder.
 *
 * Each input is loaded twice: as given (the checksum rejects nearly every
 * mutation) and resealed (so mutations reach the deeper checks).  When an
 * image is accepted, an engine runs it for a bounded budget on a small
 * memory made from the input, with counters, triggers, narrow
 * interrupting counters and the micro-PC histogram on, to exercise the
 * decoded form; the reference totals must agree with the cycles run.
 * Then the same program runs whole on one engine and in pieces through a
 * context alternating two more: stop, cycles, registers and memory must
 * be the same, the two engines' counters must add up to the first's.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_engine.h"

#define MEMSZ	256

static void exercise(struct vpmu_ucode *uc, const uint8_t *data, size_t size)
{
	struct vpmu_engine *e =
		vpmu_engine_create(vpmu_ucode_header(uc)->cs_words);
	static uint8_t mem[MEMSZ];
	struct vpmu_stop s;
	unsigned int i, calls;
	uint64_t cycles = 0;
	uint8_t k = size ? data[size - 1] : 0;

	assert(e);
	if (vpmu_engine_attach(e, uc)) {
		vpmu_engine_destroy(e);
		return;
	}
	for (i = 0; i < 8; i++) {
		static const uint16_t ev[8] = {
			VPMU_EV_CYCLES, VPMU_EV_UOPS, VPMU_EV_TAG(1),
			VPMU_EV_TAG(2), VPMU_EV_DC_MISS, VPMU_EV_WQ_STALL,
			VPMU_EV_UBR_TAKEN, VPMU_EV_INSNS,
		};
		struct vpmu_ctr_cfg c = {
			.event = ev[i], .width = (uint8_t)(2 + (k + i) % 12),
			.flags = (uint8_t)(1 + (i % 3)) |
				 ((k >> i) & 1 ? VPMU_CTR_INT : 0) |
				 (i == 5 ? VPMU_CTR_FREEZE_ON_OVF : 0),
			.fgroup = (uint8_t)(i & 3),
		};
		assert(!vpmu_engine_ctr_config(e, i, &c));
	}
	vpmu_engine_fgroup_trigger(e, 1, VPMU_TRIG_MARK);
	vpmu_engine_fgroup_trigger(e, 2, k & 1 ? VPMU_EV_TAG(3) :
					       VPMU_EV_UBR_TAKEN);
	vpmu_engine_uhist_set(e, k % 5);
	memset(mem, 0, sizeof(mem));
	memcpy(mem, data, size < MEMSZ ? size : MEMSZ);
	vpmu_engine_set_ext(e, k & 2);
	vpmu_engine_start(e, mem, MEMSZ, 0, k & 4 ? 1 : 0);
	for (calls = 0; calls < 64; calls++) {
		vpmu_engine_run(e, 97, &s);
		cycles += s.cycles;
		if (s.reason == VPMU_STOP_OVERFLOW)
			vpmu_engine_ovf_clear(e, s.ovf);
		else if (s.reason != VPMU_STOP_BUDGET)
			break;
	}
	assert(vpmu_engine_event_total(e, VPMU_EV_CYCLES) == cycles);
	vpmu_engine_destroy(e);
}

#define NCTR	4

static struct vpmu_engine *ctx_engine(struct vpmu_ucode *uc)
{
	static const uint16_t ev[NCTR] = {
		VPMU_EV_CYCLES, VPMU_EV_UOPS, VPMU_EV_UBR_TAKEN, VPMU_EV_TAG(1),
	};
	struct vpmu_engine *e =
		vpmu_engine_create(vpmu_ucode_header(uc)->cs_words);
	unsigned int i;

	assert(e && !vpmu_engine_attach(e, uc));
	for (i = 0; i < NCTR; i++) {
		struct vpmu_ctr_cfg c = {
			.event = ev[i], .width = 64,
			.flags = VPMU_CTR_USER | VPMU_CTR_SUPER,
		};

		assert(!vpmu_engine_ctr_config(e, i, &c));
	}
	return e;
}

static void exercise_ctx(struct vpmu_ucode *uc, const uint8_t *data,
			 size_t size)
{
	struct vpmu_engine *w = ctx_engine(uc);
	struct vpmu_engine *e[2] = { ctx_engine(uc), ctx_engine(uc) };
	struct vpmu_ctx *c = vpmu_ctx_create();
	static uint8_t m1[MEMSZ], m2[MEMSZ];
	uint8_t k = size ? data[size - 1] : 0;
	uint64_t budget = 3000, b = 1 + k % 41, used = 0;
	struct vpmu_stop s1, s2;
	unsigned int i, last = 0;

	assert(c);
	memset(m1, 0, sizeof(m1));
	memcpy(m1, data, size < MEMSZ ? size : MEMSZ);
	memcpy(m2, m1, sizeof(m2));
	vpmu_engine_set_ext(w, k & 2);
	vpmu_engine_set_ext(e[0], k & 2);
	vpmu_engine_start(w, m1, MEMSZ, 0, k & 4 ? 1 : 0);
	vpmu_engine_run(w, budget, &s1);
	vpmu_engine_start(e[0], m2, MEMSZ, 0, k & 4 ? 1 : 0);
	vpmu_engine_ctx_save(e[0], c);
	memset(&s2, 0, sizeof(s2));
	for (i = 0; used < budget; i++) {
		last = i & 1;
		assert(!vpmu_engine_ctx_restore(e[last], c));
		vpmu_engine_run(e[last], b < budget - used ? b : budget - used,
				&s2);
		used += s2.cycles;
		vpmu_engine_ctx_save(e[last], c);
		if (s2.reason != VPMU_STOP_BUDGET)
			break;
	}
	assert(s1.reason == s2.reason && s1.code == s2.code &&
	       s1.addr == s2.addr && s1.upc == s2.upc && s1.ipc == s2.ipc);
	assert(s1.cycles == used);
	for (i = 0; i < 47; i++)
		assert(vpmu_engine_reg(w, i) == vpmu_engine_reg(e[last], i));
	assert(vpmu_engine_mode(w) == vpmu_engine_mode(e[last]));
	assert(!memcmp(m1, m2, MEMSZ));
	for (i = 0; i < NCTR; i++)
		assert(vpmu_engine_ctr_read(w, i) ==
		       vpmu_engine_ctr_read(e[0], i) +
		       vpmu_engine_ctr_read(e[1], i));
	vpmu_ctx_destroy(c);
	vpmu_engine_destroy(w);
	vpmu_engine_destroy(e[0]);
	vpmu_engine_destroy(e[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vpmu_ucode *uc;
	struct vpmu_verr err;
	uint8_t *copy;

	if (!vpmu_ucode_load(&uc, data, size, VPMU_CS_MAX, &err)) {
		exercise(uc, data, size);
		exercise_ctx(uc, data, size);
		vpmu_ucode_free(uc);
	} else {
		assert(err.code != VPMU_VERR_OK && err.err < 0);
		assert(memchr(err.msg, 0, sizeof(err.msg)));
	}
	if (size < sizeof(struct vpmu_image_header))
		return 0;
	copy = malloc(size);
	memcpy(copy, data, size);
	vpmu_image_seal(copy, size);
	if (!vpmu_ucode_load(&uc, copy, size, VPMU_CS_MAX, &err)) {
		exercise(uc, copy, size);
		exercise_ctx(uc, copy, size);
		vpmu_ucode_free(uc);
	}
	free(copy);
	return 0;
}

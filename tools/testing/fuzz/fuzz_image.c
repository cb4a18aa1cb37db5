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
				 (i == 5 ? VPMU_CTR_FOO : 0),
			.group = (uint8_t)(i & 3),
		};
		assert(!vpmu_engine_ctr_config(e, i, &c));
	}
	vpmu_engine_group_trigger(e, 1, VPMU_TRIG_MARK);
	vpmu_engine_group_trigger(e, 2, k & 1 ? VPMU_EV_TAG(3) :
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vpmu_ucode *uc;
	struct vpmu_verr err;
	uint8_t *copy;

	if (!vpmu_ucode_load(&uc, data, size, VPMU_CS_MAX, &err)) {
		exercise(uc, data, size);
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
		vpmu_ucode_free(uc);
	}
	free(copy);
	return 0;
}

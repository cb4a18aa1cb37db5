// SPDX-License-Identifier: GPL-2.0
/*
 * gen_seeds.c - write the seed corpus for fuzz_image: valid images built
 * with the host tests' image builder, plus a few mutations.
 *
 *   gen_seeds DIR
 */
#include <stdio.h>

#include "vpmu_test_image.h"

static uint8_t img[65536];

static void emit(const char *dir, const char *name, const uint8_t *p,
		 size_t n)
{
	struct vpmu_ucode *uc;
	struct vpmu_verr err;
	char path[512];
	FILE *f;

	/* the valid seeds must load (the mutations are named so) */
	if (!strstr(name, "bad") && !strstr(name, "trunc") &&
	    vpmu_ucode_load(&uc, p, n, VPMU_CS_MAX, &err)) {
		fprintf(stderr, "%s: %s\n", name, err.msg);
		exit(1);
	}
	if (!strstr(name, "bad") && !strstr(name, "trunc"))
		vpmu_ucode_free(uc);

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n) {
		perror(path);
		exit(1);
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	struct tb_image *t;
	size_t n;

	if (argc != 2)
		return 2;

	/* a loop with loads, stores, tags, triggers, a call and a dispatch */
	t = tb_new();
	t->cs[0] = UW(MOV, T(0), 0, IM, 20) | Q(NEXT, 0, 0);
	t->cs[1] = UW(SHL, T(1), T(0), IM, 2) | Q(NEXT, 0, 0) | UEV(1);
	t->cs[2] = UW(LW, T(2), T(1), 0, 0) | QC(MISS, 3) | UEV(2);
	t->cs[3] = UW(SW, 0, T(1), T(2), 4) | Q(CALL, 0, 8) | UT;
	t->cs[4] = UW(SUB, T(0), T(0), IM, 1) | US | QC(NZ, 1);
	t->cs[5] = UW(EXT, T(3), IR, 0, VPMU_EXT_IMM(0, 2)) | Q(DISP, 1, 6);
	t->cs[6] = UW(MODE, 0, 0, 0, 0) | Q(JUMP, 0, 9);
	t->cs[7] = UW(ADD, PC, PC, IM, 4) | Q(EOI, 0, 0) | UEV(4);
	t->cs[8] = UW(ADD, ATDS, ATS1, ATS2, 0) | Q(RET, 0, 0) | UEV(8);
	t->cs[9] = NOPW | Q(HALT, 0, 0);
	t->ncs = 10;
	t->id[0] = 0;
	t->id[1] = 7;
	t->sym[t->nsym].name = tb_str(t, "loop");
	t->sym[t->nsym++].addr = 1;
	n = tb_build(t, img, sizeof(img));
	emit(argv[1], "loop.img", img, n);

	/* encoded events, r0 zero, EOI loop */
	t->ev_mode = VPMU_EVMODE_ENCODED;
	t->ev_bits = 3;
	t->flags = VPMU_IMG_F_R0_ZERO;
	t->cs[8] = UW(ADD, ATDS, ATS1, ATS2, 0) | Q(RET, 0, 0) | UEV(7);
	t->cs[3] = UW(SW, 0, T(1), T(2), 4) | Q(CALL, 0, 8) | UT;
	n = tb_build(t, img, sizeof(img));
	emit(argv[1], "encoded.img", img, n);

	/* a one-word image */
	free(t);
	t = tb_new();
	t->cs[0] = UW(ADD, PC, PC, IM, 4) | Q(EOI, 0, 0) | UEV(1) | UT;
	t->ncs = 1;
	n = tb_build(t, img, sizeof(img));
	emit(argv[1], "tiny.img", img, n);

	/* mutations: bad checksum, truncated */
	img[n - 1] ^= 0x40;
	emit(argv[1], "badsum.img", img, n);
	emit(argv[1], "truncated.img", img, n / 2);
	free(t);
	return 0;
}

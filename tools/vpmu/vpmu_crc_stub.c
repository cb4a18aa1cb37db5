// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_crc_stub.c - stand-in for vpmu_crc32() and vpmu_image_seal() until
 * drivers/perf/vpmu/vpmu_image.c exists; the Makefile builds this file
 * only when it does not.  Delete it once vpmu_image.c has landed.
 */
#include <stddef.h>

#include "vpmu_engine.h"

u32 vpmu_crc32(u32 crc, const void *buf, size_t len)
{
	const u8 *p = buf;
	int k;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

void vpmu_image_seal(void *img, size_t len)
{
	struct vpmu_image_header *h = img;

	h->checksum = 0;
	h->checksum = vpmu_crc32(0, img, len);
}

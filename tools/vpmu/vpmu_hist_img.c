// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hist_img.c - an image as vpmu-hist's reports see it: the text of
 * every microword (the disassembler's, vpmu_dis_uwords(), so there is
 * one formatter for microwords), the routine each belongs to, and
 * whether a histogram was sampled on it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_dis.h"
#include "vpmu_hist_file.h"
#include "vpmu_hist_img.h"
#include "vpmu_tool.h"

/* ---- the image: text and routines ---------------------------------------- */

static int sym_cmp(const void *pa, const void *pb)
{
	const struct vpmu_uhist_sym *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->size < b->size ? -1 : a->size > b->size;	/* table order */
}

static void find_routines(struct vpmu_uhist_img *hi)
{
	const struct vpmu_image_header *h = &hi->v.h;
	uint32_t i, j, n = 0;

	hi->sym = calloc(h->sym_count + 1, sizeof(*hi->sym));
	hi->routine = calloc(h->cs_words, sizeof(*hi->routine));
	if (!hi->sym || !hi->routine)
		abort();
	hi->sym[n++] = (struct vpmu_uhist_sym){ "-", 0, 0 };
	for (i = 0; i < h->sym_count; i++) {
		struct vpmu_image_sym s;
		const char *name;

		vpmu_img_sym(&hi->v, i, &s);
		name = vpmu_img_str(&hi->v, s.name);
		if (name && *name && s.addr < h->cs_words)
			/* size holds the table index until sorted */
			hi->sym[n++] = (struct vpmu_uhist_sym){ name, s.addr,
								i + 1 };
	}
	qsort(hi->sym, n, sizeof(*hi->sym), sym_cmp);
	/* the first symbol at each address names it ("-" only if none) */
	for (i = j = 0; i < n; i++)
		if (!j || hi->sym[i].addr != hi->sym[j - 1].addr)
			hi->sym[j++] = hi->sym[i];
		else if (!strcmp(hi->sym[j - 1].name, "-"))
			hi->sym[j - 1] = hi->sym[i];
	hi->nsym = j;
	for (i = 0; i < hi->nsym; i++)
		hi->sym[i].size = (i + 1 < hi->nsym ? hi->sym[i + 1].addr :
				   h->cs_words) - hi->sym[i].addr;
	for (i = j = 0; i < h->cs_words; i++) {
		while (j + 1 < hi->nsym && hi->sym[j + 1].addr <= i)
			j++;
		hi->routine[i] = j;
	}
}

int vpmu_uhist_img_open(struct vpmu_uhist_img *hi, const void *img, size_t len,
			struct vpmu_buf *diag)
{
	uint32_t i;
	char *p;

	memset(hi, 0, sizeof(*hi));
	if (vpmu_dis_uwords(img, len, &hi->text, diag))
		return -1;
	vpmu_img_view(&hi->v, img, len, diag);
	hi->uword = calloc(hi->v.h.cs_words + 1, sizeof(*hi->uword));
	if (!hi->uword)
		abort();
	for (i = 0, p = hi->text.p; i < hi->v.h.cs_words; i++) {
		hi->uword[i] = p;
		p = strchr(p, '\n');
		*p++ = '\0';
	}
	find_routines(hi);
	return 0;
}

void vpmu_uhist_img_close(struct vpmu_uhist_img *hi)
{
	vpmu_buf_free(&hi->text);
	free(hi->uword);
	free(hi->sym);
	free(hi->routine);
	memset(hi, 0, sizeof(*hi));
}

void vpmu_uhist_label(const struct vpmu_uhist_img *hi, uint32_t upc, char *buf,
		      size_t size)
{
	const struct vpmu_uhist_sym *s = &hi->sym[hi->routine[upc]];

	if (upc == s->addr)
		snprintf(buf, size, "%s", s->name);
	else
		snprintf(buf, size, "%s+%u", s->name, upc - s->addr);
}

int vpmu_uhist_match(const struct vpmu_uhist *hs,
		     const struct vpmu_uhist_img *hi, bool force,
		     struct vpmu_buf *diag)
{
	const struct vpmu_image_header *h = &hi->v.h;

	if (hs->h.nbuckets != h->cs_words)
		return hist_fail(diag, "%u buckets, but image \"%.*s\" has "
				 "%u microwords", hs->h.nbuckets,
				 VPMU_IMAGE_NAME_LEN, h->name, h->cs_words);
	if (hs->h.image_checksum != h->checksum) {
		vpmu_buf_printf(diag, "%s: sampled on image 0x%08x, but image "
				"\"%.*s\" is 0x%08x%s\n",
				force ? "warning" : "error",
				hs->h.image_checksum, VPMU_IMAGE_NAME_LEN,
				h->name, h->checksum, force ? "" :
				" (--force reports it anyway)");
		if (!force)
			return -1;
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_gdb_mon.c - vpmu-sim --gdb's monitor commands (vpmu_gdb_mon.h):
 *
 *   monitor upc              the micro-PC, its label, its microword
 *   monitor counters         the cycles, every basic event total (and
 *                            the tags that counted, under the image's
 *                            names) as vpmu-sim --stats prints them, each enabled counter's value
 *                            and configuration, the overflow status and
 *                            the freeze bits
 *   monitor ubreak UPC|LABEL a micro-PC breakpoint
 *   monitor udelete [UPC|LABEL]  delete one, or all
 *   monitor ustep [N]        (vpmu_gdb.c) N microwords, 1 by default
 *   monitor dis [N]          (vpmu_gdb.c) a program file's N instructions
 *                            from pc on
 */
#include <stdlib.h>
#include <string.h>

#include "vpmu_engine.h"
#include "vpmu_gdb_mon.h"

bool vpmu_gdb_mon_open(struct vpmu_gdb_mon *m, const void *img, size_t len)
{
	struct vpmu_buf diag = { 0 };

	memset(m, 0, sizeof(*m));
	m->have_img = img && !vpmu_uhist_img_open(&m->hi, img, len, &diag);
	vpmu_buf_free(&diag);
	if (m->have_img && vpmu_ucode_load(&m->uc, img, len, VPMU_CS_MAX, NULL))
		m->uc = NULL;
	return m->have_img;
}

void vpmu_gdb_mon_close(struct vpmu_gdb_mon *m)
{
	if (m->have_img)
		vpmu_uhist_img_close(&m->hi);
	m->have_img = false;
	vpmu_ucode_free(m->uc);
	m->uc = NULL;
}

bool vpmu_gdb_mon_has_ctr(const struct vpmu_gdb_mon *m)
{
	uint32_t i;

	for (i = 0; m->have_img && i < m->hi.v.h.cs_words; i++)
		if (VPMU_UW_GET(vpmu_img_uword(&m->hi.v, i), SEQ) ==
		    VPMU_SEQ_CTR)
			return true;
	return false;
}

bool vpmu_gdb_mon_ubp(const struct vpmu_gdb_mon *m, uint32_t upc)
{
	unsigned int i;

	for (i = 0; i < m->nubp; i++)
		if (m->ubp[i] == upc)
			return true;
	return false;
}

void vpmu_gdb_mon_where(const struct vpmu_gdb_mon *m, struct vpmu_engine *e,
			struct vpmu_buf *out)
{
	uint32_t upc = vpmu_engine_upc(e);
	char label[128];

	if (!m->have_img || upc >= m->hi.v.h.cs_words) {
		vpmu_buf_printf(out, "upc 0x%x\n", upc);
		return;
	}
	vpmu_uhist_label(&m->hi, upc, label, sizeof(label));
	vpmu_buf_printf(out, "upc 0x%x %s: %s\n", upc, label,
			m->hi.uword[upc]);
}

static void mon_counters(const struct vpmu_gdb_mon *m, struct vpmu_engine *e,
			 struct vpmu_buf *out)
{
	struct vpmu_engine_snap s;
	unsigned int i, n = 0;
	const char *name;
	u64 v;

	vpmu_engine_snapshot(e, &s, 0);	/* changes nothing */
	vpmu_buf_printf(out, "cycles %llu\n", (unsigned long long)s.cycles);
	for (i = 0; i < VPMU_EV_NR_BASIC; i++)
		vpmu_buf_printf(out, "event %s %llu\n",
				vpmu_event_info[i].name + 5,
				(unsigned long long)
				vpmu_engine_event_total(e, i));
	for (i = 1; i <= VPMU_TAG_MAX; i++) {
		v = vpmu_engine_event_total(e, VPMU_EV_TAG(i));
		name = m->uc ? vpmu_ucode_tag_name(m->uc, i) : NULL;
		if (v && name)
			vpmu_buf_printf(out, "event %s %llu\n", name,
					(unsigned long long)v);
		else if (v)
			vpmu_buf_printf(out, "event tag%u %llu\n", i,
					(unsigned long long)v);
	}
	for (i = 0; i < VPMU_NR_COUNTERS_MAX; i++) {
		const struct vpmu_ctr_cfg *c = &s.cfg[i];

		if (!c->event && !c->width && !c->flags && !c->fgroup)
			continue;
		n++;
		vpmu_buf_printf(out, "counter %u %llu event 0x%x width %u",
				i, (unsigned long long)s.ctr[i], c->event,
				c->width);
		vpmu_buf_printf(out, " flags 0x%x fgroup %u overflows %llu\n",
				c->flags, c->fgroup,
				(unsigned long long)s.ovf_cnt[i]);
	}
	if (!n)
		vpmu_buf_printf(out, "counters none enabled\n");
	vpmu_buf_printf(out, "ovf 0x%x\nfrozen 0x%x\n", s.ovf, s.frozen);
}

/* The micro-PC @arg names (a number, or a label), or -1 if none. */
static long mon_upc(const struct vpmu_gdb_mon *m, const char *arg)
{
	unsigned long upc;
	unsigned int i;
	char *end;

	upc = strtoul(arg, &end, 0);
	if (end == arg || *end) {
		upc = -1;
		for (i = 0; m->have_img && i < m->hi.nsym; i++)
			if (!strcmp(m->hi.sym[i].name, arg))
				upc = m->hi.sym[i].addr;
	}
	if (upc == (unsigned long)-1 ||
	    (m->have_img && upc >= m->hi.v.h.cs_words) || upc > UINT32_MAX)
		return -1;
	return upc;
}

static int mon_ubreak(struct vpmu_gdb_mon *m, const char *arg, bool insert,
		      struct vpmu_buf *out)
{
	long upc = *arg ? mon_upc(m, arg) : -1;
	unsigned int i;

	if (!insert && !*arg) {
		m->nubp = 0;
		vpmu_buf_printf(out, "micro-PC breakpoints deleted\n");
		return 0;
	}
	if (upc < 0) {
		vpmu_buf_printf(out, "no microword '%s'\n", arg);
		return -1;
	}
	for (i = 0; i < m->nubp && m->ubp[i] != upc; i++)
		;
	if (insert && i == m->nubp) {
		if (m->nubp == VPMU_GDB_NUBP) {
			vpmu_buf_printf(out, "too many micro-PC breakpoints\n");
			return -1;
		}
		m->ubp[m->nubp++] = upc;
	} else if (!insert && i < m->nubp) {
		m->ubp[i] = m->ubp[--m->nubp];
	}
	vpmu_buf_printf(out, "micro-PC breakpoint at 0x%lx %s\n", upc,
			insert ? "set" : "deleted");
	return 0;
}

int vpmu_gdb_mon_cmd(struct vpmu_gdb_mon *m, struct vpmu_engine *e,
		     const char *cmd, struct vpmu_buf *out)
{
	size_t n = strcspn(cmd, " ");
	const char *arg = cmd + n + strspn(cmd + n, " ");

	if (n == 3 && !strncmp(cmd, "upc", 3)) {
		vpmu_gdb_mon_where(m, e, out);
		return 0;
	}
	if (n == 8 && !strncmp(cmd, "counters", 8)) {
		mon_counters(m, e, out);
		return 0;
	}
	if (n == 6 && !strncmp(cmd, "ubreak", 6))
		return mon_ubreak(m, arg, true, out);
	if (n == 7 && !strncmp(cmd, "udelete", 7))
		return mon_ubreak(m, arg, false, out);
	vpmu_buf_printf(out, "monitor commands: upc, ustep [N], counters,");
	vpmu_buf_printf(out, " ubreak UPC|LABEL, udelete [UPC|LABEL], dis [N]\n");
	return strcmp(cmd, "help") ? -1 : 0;
}

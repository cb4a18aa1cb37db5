// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_dis.c - the disassembler: an image back to microcode source, a
 * program file to a listing.
 *
 * Both outputs are source that the assembler turns back into the same
 * bytes.  A microword is printed as text only when the text encodes to
 * exactly that word (every unused field zero, every operand valid in its
 * position, targets inside the control store); anything else becomes a
 * raw ".uword", so even an image the validator would reject survives the
 * round trip.  The names come from the vpmu_isa.c tables.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_dis.h"
#include "vpmu_engine.h"
#include "vpmu_isa.h"
#include "vpmu_tool.h"

struct dis {
	struct vpmu_img_view v;
	struct vpmu_buf *out, *diag;
	char (*label)[24];	/* per micro-address: "" or its label */
	bool *ref;		/* micro-addresses something refers to */
	bool warned;
};

static void warn(struct dis *d, const char *fmt, const char *arg)
{
	vpmu_buf_printf(d->diag, "warning: ");
	vpmu_buf_printf(d->diag, fmt, arg);
	vpmu_buf_printf(d->diag, "; re-assembly will not give the same "
			"bytes\n");
	d->warned = true;
}

static bool opnd_ok(unsigned int code, bool dst, bool b)
{
	const struct vpmu_opnd_info *oi = &vpmu_opnd_info[code];

	if (!oi->name)
		return false;
	if (oi->access == VPMU_ACC_BONLY)
		return b;
	return !(dst && oi->access == VPMU_ACC_RO);
}

/*
 * The ALU part of @uw: the bits its signature uses go to *keep; are its
 * operands, by field, and its immediates, by role, valid there?
 */
static bool alu_canonical(uint64_t uw, uint64_t *keep)
{
	unsigned int op = VPMU_UW_GET(uw, OP), b = VPMU_UW_GET(uw, B);
	enum vpmu_sig sig = vpmu_op_info[op].sig;
	unsigned int used = vpmu_sig_fields(sig, b), k;
	bool ok = true;

	*keep |= vpmu_uwf_bits(used);
	if (used & VPMU_UWF_DST)
		ok &= opnd_ok(VPMU_UW_GET(uw, DST), true, false);
	if (used & VPMU_UWF_A)
		ok &= opnd_ok(VPMU_UW_GET(uw, A), false, false);
	if (used & VPMU_UWF_B)
		ok &= opnd_ok(b, false, used & VPMU_UWF_BIMM);
	for (k = 0; k < VPMU_SIG_OPNDS; k++)
		ok &= vpmu_role_imm_ok(vpmu_sig_info[sig].opnd[k], op,
					VPMU_UW_GET(uw, IMM));
	return ok;
}

/*
 * The sequencer part of @uw, likewise: its targets inside the control
 * store, its dispatch width in range, the ALU result it reads there (for
 * CTR, into a register), and a next word if it goes on to one.
 */
static bool seq_canonical(const struct dis *d, uint32_t upc, uint64_t uw,
			  uint64_t *keep)
{
	unsigned int seq = VPMU_UW_GET(uw, SEQ), c = VPMU_UW_GET(uw, COND);
	unsigned int t = VPMU_UW_GET(uw, TARGET);
	enum vpmu_seqsig sig = vpmu_seq_info[seq].sig;
	const struct vpmu_seqsig_info *si = &vpmu_seqsig_info[sig];
	bool ok = true;
	unsigned int k;

	*keep |= vpmu_uwf_bits(si->fields);
	for (k = 0; k < VPMU_SEQSIG_OPNDS; k++) {
		switch ((enum vpmu_seqrole)si->opnd[k]) {
		case VPMU_SEQROLE_TARGET:
			ok &= t + vpmu_seqsig_span(sig, c) <= d->v.h.cs_words;
			break;
		case VPMU_SEQROLE_WIDTH:
			ok &= c >= 1 && c <= 8;
			break;
		case VPMU_SEQROLE_NONE:
		case VPMU_SEQROLE_COND:
		case VPMU_SEQROLE_CODE:
			break;
		}
	}
	if (vpmu_seq_reads_result(seq))
		ok &= vpmu_sig_result(vpmu_op_info[VPMU_UW_GET(uw, OP)].sig);
	if (seq == VPMU_SEQ_CTR)
		ok &= vpmu_ctr_dst_ok(VPMU_UW_GET(uw, DST));
	if (upc + 1 == d->v.h.cs_words)
		ok &= !vpmu_seq_falls_through(seq);
	return ok;
}

/*
 * The fields of @uw that its operation and sequencer operation use, as
 * the assembler would build them: if this is not @uw, @uw has no source
 * form.  Also checks that every name and target the text would hold is
 * valid there.
 */
static bool canonical(const struct dis *d, uint32_t upc, uint64_t uw)
{
	const struct vpmu_image_header *h = &d->v.h;
	unsigned int op = VPMU_UW_GET(uw, OP), seq = VPMU_UW_GET(uw, SEQ);
	unsigned int ev = VPMU_UW_GET(uw, EVENT);
	uint64_t keep = VPMU_UW_PUT(OP, op) | VPMU_UW_PUT(SEQ, seq) |
			VPMU_UW_PUT(EVENT, ev) | VPMU_UW_PUT(T, 1);
	bool ok = true;

	if (!vpmu_op_info[op].name || !vpmu_seq_info[seq].name)
		return false;
	ok &= alu_canonical(uw, &keep);
	ok &= seq_canonical(d, upc, uw, &keep);
	if (h->ev_mode == VPMU_EVMODE_ONEHOT)
		ok &= !(ev >> h->ev_bits);
	else
		ok &= !(ev >> h->ev_bits) && h->ev_mode == VPMU_EVMODE_ENCODED;
	return ok && (uw & keep) == uw;
}

static void print_opnd(struct vpmu_buf *o, unsigned int code, unsigned int imm)
{
	if (code == VPMU_OPND_IMM)
		vpmu_buf_printf(o, "#%d", (int)vpmu_uw_simm(
			VPMU_UW_PUT(IMM, imm)));
	else
		vpmu_buf_printf(o, "%s", vpmu_opnd_info[code].name);
}

/* The operand of role @role in @uw, after @sep. */
static void print_alu_opnd(struct vpmu_buf *o, uint64_t uw,
			   enum vpmu_role role, const char *sep)
{
	unsigned int op = VPMU_UW_GET(uw, OP), imm = VPMU_UW_GET(uw, IMM);
	unsigned int b = VPMU_UW_GET(uw, B);
	const char *dst = vpmu_opnd_info[VPMU_UW_GET(uw, DST)].name;
	const char *a = vpmu_opnd_info[VPMU_UW_GET(uw, A)].name;

	vpmu_buf_printf(o, "%s", sep);
	switch (role) {
	case VPMU_ROLE_DST:
		vpmu_buf_printf(o, "%s", dst);
		break;
	case VPMU_ROLE_A:
		vpmu_buf_printf(o, "%s", a);
		break;
	case VPMU_ROLE_B:
		print_opnd(o, b, imm);
		break;
	case VPMU_ROLE_BREG:
		vpmu_buf_printf(o, "%s", vpmu_opnd_info[b].name);
		break;
	case VPMU_ROLE_FIELD:
		if (vpmu_field_poslen(op))
			vpmu_buf_printf(o, "%u, %u", VPMU_EXT_POS(imm),
					VPMU_EXT_LEN(imm));
		else
			vpmu_buf_printf(o, "%u", imm + 1);
		break;
	case VPMU_ROLE_MEM:
		vpmu_buf_printf(o, "%d(%s)", (int)vpmu_uw_simm(uw), a);
		break;
	case VPMU_ROLE_MODE:
		vpmu_buf_printf(o, "#%u", imm);
		break;
	case VPMU_ROLE_NONE:
		break;
	}
}

/* The sequencer operand of role @role in @uw, after @sep. */
static void print_seq_opnd(struct dis *d, uint64_t uw,
			   enum vpmu_seqrole role, const char *sep)
{
	struct vpmu_buf *o = d->out;
	unsigned int t = VPMU_UW_GET(uw, TARGET), c = VPMU_UW_GET(uw, COND);

	vpmu_buf_printf(o, "%s", sep);
	switch (role) {
	case VPMU_SEQROLE_TARGET:
		vpmu_buf_printf(o, "%s", d->label[t]);
		break;
	case VPMU_SEQROLE_COND:
		vpmu_buf_printf(o, "%s", vpmu_cond_info[c].name);
		break;
	case VPMU_SEQROLE_WIDTH:
		vpmu_buf_printf(o, "%u", c);
		break;
	case VPMU_SEQROLE_CODE:
		vpmu_buf_printf(o, "%u", t);
		break;
	case VPMU_SEQROLE_NONE:
		break;
	}
}

static void print_uword(struct dis *d, uint64_t uw)
{
	struct vpmu_buf *o = d->out;
	unsigned int op = VPMU_UW_GET(uw, OP), seq = VPMU_UW_GET(uw, SEQ);
	unsigned int ev = VPMU_UW_GET(uw, EVENT), k;
	const struct vpmu_op_info *oi = &vpmu_op_info[op];
	const struct vpmu_sig_info *si = &vpmu_sig_info[oi->sig];
	const struct vpmu_seqsig_info *qi =
		&vpmu_seqsig_info[vpmu_seq_info[seq].sig];
	const char *sep = "";

	vpmu_buf_put(o, "\t", 1);
	if (op != VPMU_OP_NOP || seq == VPMU_SEQ_NEXT) {
		vpmu_buf_printf(o, "%s%s", oi->name,
				VPMU_UW_GET(uw, S) ? ".s" : "");
		sep = " ; ";
		for (k = 0; k < VPMU_SIG_OPNDS && si->opnd[k]; k++)
			print_alu_opnd(o, uw, si->opnd[k], k ? ", " : " ");
	}
	if (seq != VPMU_SEQ_NEXT) {
		vpmu_buf_printf(o, "%s%s", sep, vpmu_seq_info[seq].name);
		for (k = 0; k < VPMU_SEQSIG_OPNDS && qi->opnd[k]; k++)
			print_seq_opnd(d, uw, qi->opnd[k], k ? ", " : " ");
	}
	if (ev) {
		vpmu_buf_printf(o, " ; {");
		if (d->v.h.ev_mode == VPMU_EVMODE_ENCODED) {
			vpmu_buf_printf(o, "%u", ev);
		} else {
			sep = "";
			for (k = 0; k < VPMU_UW_EVENT_BITS; k++) {
				if (ev & 1u << k) {
					vpmu_buf_printf(o, "%s%u", sep, k + 1);
					sep = ", ";
				}
			}
		}
		vpmu_buf_put(o, "}", 1);
	}
	if (VPMU_UW_GET(uw, T))
		vpmu_buf_printf(o, " ; trig");
	vpmu_buf_put(o, "\n", 1);
}

static void refer(struct dis *d, uint32_t addr)
{
	if (addr < d->v.h.cs_words)
		d->ref[addr] = true;
}

/* A symbol the listing can show as a label (".L" names are its own). */
static bool is_ident(const char *s)
{
	return vpmu_label_valid(s) && strncmp(s, ".L", 2);
}

/* Label names: the first symbol at an address, else ".L<hex>". */
static void name_labels(struct dis *d)
{
	const struct vpmu_image_header *h = &d->v.h;
	uint32_t i, prev = 0;

	for (i = 0; i < h->sym_count; i++) {
		struct vpmu_image_sym s;
		const char *name;

		vpmu_img_sym(&d->v, i, &s);
		name = vpmu_img_str(&d->v, s.name);
		if (!name || !is_ident(name) || s.addr >= h->cs_words) {
			warn(d, "symbol %s is not a valid label", name ? name : "?");
			continue;
		}
		if (s.addr < prev)
			warn(d, "symbol %s is out of address order", name);
		prev = s.addr;
		if (!d->label[s.addr][0])
			snprintf(d->label[s.addr], sizeof(d->label[0]), "%s",
				 name);
	}
	for (i = 0; i < h->cs_words; i++)
		if (!d->label[i][0])
			snprintf(d->label[i], sizeof(d->label[0]), ".L%03x", i);
}

/* .tag lines, in the table's order: those the assembler can write. */
static void print_tags(struct dis *d)
{
	uint32_t i;

	for (i = 0; i < d->v.h.tag_count; i++) {
		struct vpmu_image_tag t;
		const char *name;

		vpmu_img_tag(&d->v, i, &t);
		name = vpmu_img_str(&d->v, t.name);
		if (!name || vpmu_tag_name_why(name) || t.tag < 1 ||
		    t.tag > VPMU_TAG_MAX) {
			warn(d, "tag name entry %s cannot be declared",
			     name && !vpmu_tag_name_why(name) ? name : "?");
			continue;
		}
		vpmu_buf_printf(d->out, ".tag %s, %u\n", name, t.tag);
	}
}

static void print_header(struct dis *d)
{
	const struct vpmu_image_header *h = &d->v.h;
	struct vpmu_buf *o = d->out;
	unsigned int i;

	vpmu_buf_printf(o, "// vpmu-dis: %u microwords, %u instructions, "
			"checksum 0x%08x\n\n.name \"", h->cs_words,
			h->insn_count, h->checksum);
	for (i = 0; i < VPMU_IMAGE_NAME_LEN && h->name[i]; i++) {
		unsigned char ch = h->name[i];

		if (ch == '"' || ch == '\\')
			vpmu_buf_printf(o, "\\%c", ch);
		else if (isprint(ch))
			vpmu_buf_printf(o, "%c", ch);
		else
			vpmu_buf_printf(o, "\\x%02x", ch);
	}
	vpmu_buf_printf(o, "\"\n.version %u\n", h->image_version);
	if (h->flags & VPMU_IMG_F_ALL) {
		const char *sep = ".flags ";

#define VPMU_X_FLAG(name, bit, doc)					\
		if (h->flags & (bit)) {					\
			vpmu_buf_printf(o, "%s%s", sep, name);		\
			sep = ", ";					\
		}
		VPMU_IMG_FLAG_LIST(VPMU_X_FLAG)
#undef VPMU_X_FLAG
		vpmu_buf_printf(o, "\n");
	}
	if (h->flags & ~VPMU_IMG_F_ALL)
		warn(d, "unknown image flags%s", "");
	vpmu_buf_printf(o, ".evmode %s, %u\n",
			h->ev_mode == VPMU_EVMODE_ENCODED ? "encoded" : "onehot",
			h->ev_bits);
	vpmu_buf_printf(o, ".cache %u, %u, %u\n.wqueue %u, %u\n"
			".opcode %u, %u\n", h->dc_lines, h->dc_line_size,
			h->dc_miss_penalty, h->wq_depth, h->wq_drain,
			h->op_shift, h->op_bits);
	for (i = 0; i < sizeof(h->reserved) / 4; i++)
		if (h->reserved[i])
			warn(d, "reserved header field not zero%s", "");
	print_tags(d);
}

static uint32_t insn_fields(const struct vpmu_image_insn *in)
{
	uint32_t f = 0, i;

	for (i = 0; i < in->nops && i < VPMU_INSN_MAX_OPS; i++)
		f |= vpmu_mop_mask(&in->ops[i]);
	return f;
}

/* .insn lines, .idtab for slots no instruction explains, and .default. */
static void print_decode(struct dis *d)
{
	const struct vpmu_image_header *h = &d->v.h;
	uint32_t nid = 1u << h->op_bits, i, j, best = 0, bestn = 0;
	struct vpmu_buf *o = d->out;
	uint32_t *count = calloc(h->cs_words, sizeof(*count));
	bool *named = calloc(nid, sizeof(*named));

	if (!count || !named)
		abort();
	for (i = 0; i < h->insn_count; i++) {
		struct vpmu_image_insn in;
		const char *name;
		uint32_t opc;

		vpmu_img_insn(&d->v, i, &in);
		name = vpmu_img_str(&d->v, in.name);
		if (!name || !vpmu_insn_usable(&in)) {
			warn(d, "instruction %s cannot be declared",
			     name ? name : "?");
			continue;
		}
		vpmu_buf_printf(o, ".insn %s, 0x%08x", name, in.match);
		for (j = 0; j < in.nops; j++) {
			const struct vpmu_image_operand *op = &in.ops[j];
			bool paren = op->flags & VPMU_MOPF_PAREN;

			vpmu_buf_printf(o, ", %s%s:%u:%u", paren ? "(" : "",
					vpmu_mop_name(op->kind), op->pos,
					op->width);
			if (op->shift)
				vpmu_buf_printf(o, ":%u", op->shift);
			if (paren)
				vpmu_buf_put(o, ")", 1);
		}
		if (in.mask != ~insn_fields(&in))
			vpmu_buf_printf(o, ", mask=0x%08x", in.mask);
		opc = (in.match >> h->op_shift) & (nid - 1);
		if (!named[opc] && vpmu_img_idtab(&d->v, opc) < h->cs_words) {
			named[opc] = true;
			vpmu_buf_printf(o, " => %s",
					d->label[vpmu_img_idtab(&d->v, opc)]);
		}
		vpmu_buf_put(o, "\n", 1);
	}
	for (i = 0; i < nid; i++) {
		uint32_t t = vpmu_img_idtab(&d->v, i);

		if (!named[i] && t < h->cs_words && ++count[t] > bestn) {
			bestn = count[t];
			best = t;
		}
	}
	for (i = 0; i < nid; i++) {
		uint32_t t = vpmu_img_idtab(&d->v, i);

		if (named[i] || t == best)
			continue;
		if (t < h->cs_words)
			vpmu_buf_printf(o, ".idtab %u, %s\n", i, d->label[t]);
		else
			warn(d, "ID-table entry outside the control store%s",
			     "");
	}
	if (bestn && (best || bestn < nid))
		vpmu_buf_printf(o, ".default %s\n", d->label[best]);
	free(count);
	free(named);
}

int vpmu_dis_ucode(const void *img, size_t len, struct vpmu_buf *out,
		   struct vpmu_buf *diag)
{
	struct dis d = { .out = out, .diag = diag };
	const struct vpmu_image_header *h = &d.v.h;
	uint32_t i, j, nid;
	bool *canon;

	if (vpmu_img_view(&d.v, img, len, diag))
		return -1;
	nid = 1u << h->op_bits;
	d.label = calloc(h->cs_words + 1, sizeof(*d.label));
	d.ref = calloc(h->cs_words + 1, sizeof(*d.ref));
	canon = calloc(h->cs_words + 1, sizeof(*canon));
	if (!d.label || !d.ref || !canon)
		abort();
	if (h->ev_bits < 1 || h->ev_mode > VPMU_EVMODE_ENCODED)
		warn(&d, "bad event-field mode or width%s", "");
	name_labels(&d);
	for (i = 0; i < h->cs_words; i++) {
		uint64_t uw = vpmu_img_uword(&d.v, i);

		canon[i] = canonical(&d, i, uw);
		if (canon[i] &&
		    vpmu_seqsig_takes(vpmu_seq_info[VPMU_UW_GET(uw, SEQ)].sig,
				      VPMU_SEQROLE_TARGET))
			refer(&d, VPMU_UW_GET(uw, TARGET));
	}
	for (i = 0; i < nid; i++)
		refer(&d, vpmu_img_idtab(&d.v, i));

	print_header(&d);
	print_decode(&d);
	for (i = 0; i < h->cs_words; i++) {
		bool any = false;

		for (j = 0; j < h->sym_count; j++) {
			struct vpmu_image_sym s;
			const char *name;

			vpmu_img_sym(&d.v, j, &s);
			name = vpmu_img_str(&d.v, s.name);
			if (s.addr == i && name && is_ident(name)) {
				vpmu_buf_printf(out, "%s%s:\n", any ? "" : "\n",
						name);
				any = true;
			}
		}
		if (!any && d.ref[i])
			vpmu_buf_printf(out, "%s:\n", d.label[i]);
		if (canon[i])
			print_uword(&d, vpmu_img_uword(&d.v, i));
		else
			vpmu_buf_printf(out, "\t.uword 0x%016llx\n",
					(unsigned long long)
					vpmu_img_uword(&d.v, i));
	}
	free(d.label);
	free(d.ref);
	free(canon);
	return 0;
}

/*
 * Just the microwords, for listings that annotate them (vpmu-hist): line
 * i is microword i exactly as vpmu_dis_ucode() prints it, without the
 * leading tab.  Warnings about the symbol table are not reported here.
 */
int vpmu_dis_uwords(const void *img, size_t len, struct vpmu_buf *out,
		    struct vpmu_buf *diag)
{
	struct vpmu_buf line = { 0 }, quiet = { 0 };
	struct dis d = { .out = &line, .diag = &quiet };
	uint32_t i;

	if (vpmu_img_view(&d.v, img, len, diag))
		return -1;
	d.label = calloc(d.v.h.cs_words + 1, sizeof(*d.label));
	if (!d.label)
		abort();
	name_labels(&d);
	for (i = 0; i < d.v.h.cs_words; i++) {
		uint64_t uw = vpmu_img_uword(&d.v, i);

		line.len = 0;
		if (canonical(&d, i, uw))
			print_uword(&d, uw);
		else
			vpmu_buf_printf(&line, "\t.uword 0x%016llx\n",
					(unsigned long long)uw);
		vpmu_buf_put(out, line.p + 1, line.len - 1);
	}
	free(d.label);
	vpmu_buf_free(&line);
	vpmu_buf_free(&quiet);
	return 0;
}

/* ---- programs ------------------------------------------------------------ */

struct pdis {
	struct vpmu_img_view v;
	const uint8_t *data;
	uint32_t size;		/* load_size */
	bool *ref;		/* per word: a label is wanted here */
};

static int64_t sext(uint32_t raw, unsigned int width)
{
	if (width < 32 && raw & (1u << (width - 1)))
		return (int64_t)raw - (1ll << width);
	return width == 32 ? (int32_t)raw : (int64_t)raw;
}

/* A value a PCREL or ABS operand names, for instruction @in at @addr. */
static int64_t op_value(const struct vpmu_image_operand *op, uint32_t word,
			uint32_t addr)
{
	uint32_t raw = (word & vpmu_mop_mask(op)) >> op->pos;

	switch (op->kind) {
	case VPMU_MOP_SIMM:
		return sext(raw, op->width);
	case VPMU_MOP_PCREL:
		return addr + sext(raw, op->width) * (1ll << op->shift);
	case VPMU_MOP_ABS:
		return (int64_t)raw << op->shift;
	default:
		return raw;
	}
}

/* The first declaration that encodes @word exactly, or -1. */
static int decode(const struct pdis *p, uint32_t word,
		  struct vpmu_image_insn *in)
{
	uint32_t i, j;

	for (i = 0; i < p->v.h.insn_count; i++) {
		bool ok = true;

		vpmu_img_insn(&p->v, i, in);
		if (!vpmu_insn_usable(in) || !vpmu_img_str(&p->v, in->name) ||
		    (word & in->mask) != in->match ||
		    word & ~(in->mask | insn_fields(in)))
			continue;
		for (j = 0; j < in->nops; j++)
			if (in->ops[j].kind == VPMU_MOP_REG &&
			    op_value(&in->ops[j], word, 0) > 31)
				ok = false;
		if (ok)
			return (int)i;
	}
	return -1;
}

static bool labelled(const struct pdis *p, int64_t addr)
{
	return p->ref && addr >= 0 && addr <= p->size && !(addr % 4) &&
	       p->ref[addr / 4];
}

static void print_target(struct vpmu_buf *o, const struct pdis *p, int64_t v)
{
	if (labelled(p, v))
		vpmu_buf_printf(o, "L%04llx", (long long)v);
	else if (v < 0)
		vpmu_buf_printf(o, "%lld", (long long)v);
	else
		vpmu_buf_printf(o, "0x%llx", (long long)v);
}

static void print_insn(struct vpmu_buf *o, const struct pdis *p,
		       const struct vpmu_image_insn *in, uint32_t word,
		       uint32_t addr)
{
	uint32_t j;

	vpmu_buf_printf(o, "%s", vpmu_img_str(&p->v, in->name));
	for (j = 0; j < in->nops; j++) {
		const struct vpmu_image_operand *op = &in->ops[j];
		int64_t v = op_value(op, word, addr);

		if (op->flags & VPMU_MOPF_PAREN)
			vpmu_buf_put(o, "(", 1);
		else
			vpmu_buf_printf(o, "%s", j ? ", " : " ");
		if (op->kind == VPMU_MOP_REG)
			vpmu_buf_printf(o, "r%lld", (long long)v);
		else if (op->kind == VPMU_MOP_PCREL || op->kind == VPMU_MOP_ABS)
			print_target(o, p, v);
		else
			vpmu_buf_printf(o, "%lld", (long long)v);
		if (op->flags & VPMU_MOPF_PAREN)
			vpmu_buf_put(o, ")", 1);
	}
}

/*
 * Words from @addr on that are zero and, past the first, no label's: when
 * zero is no instruction, a run of them is listed as one .space.
 */
static uint32_t zero_run(const struct pdis *p, uint32_t addr)
{
	uint32_t n = 0;

	for (; addr + 4 <= p->size; addr += 4, n++)
		if (vpmu_get32(p->data + addr) || (n && p->ref[addr / 4]))
			break;
	return n;
}

int vpmu_dis_prog(const void *prog, size_t prog_len, const void *img,
		  size_t img_len, struct vpmu_buf *out, struct vpmu_buf *diag)
{
	struct vpmu_prog_view pv;
	struct vpmu_image_insn in;
	struct pdis p = { 0 };
	uint32_t addr, j;
	bool zero_insn;

	if (vpmu_prog_view(&pv, prog, prog_len, diag) ||
	    vpmu_img_view(&p.v, img, img_len, diag))
		return -1;
	if (pv.h.image_checksum && pv.h.image_checksum != p.v.h.checksum)
		vpmu_buf_printf(diag, "warning: program was assembled for "
				"image 0x%08x, not 0x%08x\n",
				pv.h.image_checksum, p.v.h.checksum);
	p.data = pv.data;
	p.size = pv.h.load_size;
	p.ref = calloc(p.size / 4 + 1, sizeof(*p.ref));
	if (!p.ref)
		abort();
	if (pv.h.entry <= p.size)
		p.ref[pv.h.entry / 4] = true;
	for (addr = 0; addr + 4 <= p.size; addr += 4) {
		uint32_t word = vpmu_get32(p.data + addr);

		if (decode(&p, word, &in) < 0)
			continue;
		for (j = 0; j < in.nops; j++) {
			int64_t v = op_value(&in.ops[j], word, addr);

			if ((in.ops[j].kind == VPMU_MOP_PCREL ||
			     in.ops[j].kind == VPMU_MOP_ABS) &&
			    v >= 0 && v <= p.size && !(v % 4))
				p.ref[v / 4] = true;
		}
	}

	vpmu_buf_printf(out, "// vpmu-dis: program of %u bytes for image "
			"0x%08x\n\n\t.memsize 0x%x\n", p.size,
			pv.h.image_checksum, pv.h.mem_size);
	if (pv.h.flags & VPMU_PROG_F_SUPER)
		vpmu_buf_printf(out, "\t.mode super\n");
	vpmu_buf_printf(out, "\t.entry ");
	print_target(out, &p, pv.h.entry);
	vpmu_buf_put(out, "\n\n", 2);
	zero_insn = decode(&p, 0, &in) >= 0;
	for (addr = 0; addr + 4 <= p.size; addr += 4) {
		uint32_t word = vpmu_get32(p.data + addr);
		uint32_t zeros = zero_insn ? 0 : zero_run(&p, addr);
		struct vpmu_buf line = { 0 };

		if (p.ref[addr / 4])
			vpmu_buf_printf(out, "L%04x:\n", addr);
		if (zeros > 1) {
			vpmu_buf_printf(&line, ".space %u", 4 * zeros);
			vpmu_buf_printf(out, "\t%-32s// %04x: %u zero words\n",
					line.p, addr, zeros);
			vpmu_buf_free(&line);
			addr += 4 * (zeros - 1);
			continue;
		}
		if (decode(&p, word, &in) >= 0)
			print_insn(&line, &p, &in, word, addr);
		else
			vpmu_buf_printf(&line, ".word 0x%08x", word);
		vpmu_buf_printf(out, "\t%-32s// %04x: %08x\n", line.p, addr,
				word);
		vpmu_buf_free(&line);
	}
	/* Trailing bytes: a word-aligned one may still carry a label. */
	for (; addr < p.size; addr++) {
		if (addr % 4 == 0 && p.ref[addr / 4])
			vpmu_buf_printf(out, "L%04x:\n", addr);
		vpmu_buf_printf(out, "\t.byte 0x%02x\n", p.data[addr]);
	}
	if (p.size % 4 == 0 && p.ref[p.size / 4])
		vpmu_buf_printf(out, "L%04x:\n", p.size);
	free(p.ref);
	return 0;
}

int vpmu_dis_insn(const void *img, size_t img_len, uint32_t word,
		  uint32_t addr, struct vpmu_buf *out)
{
	struct vpmu_image_insn in;
	struct vpmu_buf diag = { 0 };
	struct pdis p = { 0 };	/* no labels: targets are addresses */
	int ret = -1;

	if (!vpmu_img_view(&p.v, img, img_len, &diag) &&
	    decode(&p, word, &in) >= 0) {
		print_insn(out, &p, &in, word, addr);
		ret = 0;
	}
	vpmu_buf_free(&diag);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_tool.c - what the assembler, the disassembler and the tools share
 * (vpmu_tool.h): bounds-checked views of images and program files,
 * operand-field helpers, the sequencer rules the assembler and the
 * disassembler both apply, and the C-source emitter.
 */
#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_engine.h"
#include "vpmu_tool.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	      "the tools read image structs in place: little-endian hosts only");

/* ---- image faults ------------------------------------------------------ */

/* The validator's reason for each code (its errno goes unsaid). */
static const struct {
	int err;
	const char *what;
} verr_info[VPMU_VERR_NR] = {
#define VPMU_X(name, e, m)						\
	[VPMU_VERR_##name] = { e, m },
	VPMU_VERR_LIST(VPMU_X)
#undef VPMU_X
};

void vpmu_img_rejected(struct vpmu_buf *diag, const struct vpmu_verr *err)
{
	const char *what = (unsigned int)err->code < VPMU_VERR_NR ?
			   verr_info[err->code].what : "image rejected";

	vpmu_buf_printf(diag, "error: %s (%s)\n", what, err->msg);
}

int vpmu_img_check(const void *img, size_t len, struct vpmu_buf *diag)
{
	struct vpmu_ucode *uc;
	struct vpmu_verr err;

	if (vpmu_ucode_load(&uc, img, len, VPMU_CS_MAX, &err)) {
		vpmu_img_rejected(diag, &err);
		return -1;
	}
	vpmu_ucode_free(uc);
	return 0;
}

/* ---- image view -------------------------------------------------------- */

static bool section_ok(size_t len, uint32_t off, uint64_t bytes)
{
	return off <= len && bytes <= len - off;
}

int vpmu_img_view(struct vpmu_img_view *v, const void *img, size_t len,
		  struct vpmu_buf *diag)
{
	const struct vpmu_image_header *h = &v->h;
	const char *why = NULL;

	v->base = img;
	v->len = len;
	if (len >= sizeof(*h))
		memcpy(&v->h, img, sizeof(*h));
	/* the faults the validator finds first, in its words */
	if (len < sizeof(*h) || h->magic != VPMU_IMAGE_MAGIC ||
	    h->version != VPMU_IMAGE_VERSION || h->total_size != len) {
		if (!vpmu_img_check(img, len, diag))
			abort();	/* it cannot accept what fails here */
		return -1;
	}
	if (h->cs_words > VPMU_CS_MAX || h->op_bits > VPMU_OP_BITS_MAX ||
	    h->op_shift > 31 || h->ev_bits > VPMU_UW_EVENT_BITS)
		why = "header field out of range";
	else if (!section_ok(len, h->cs_offset, (uint64_t)h->cs_words * 8) ||
		 !section_ok(len, h->id_offset, 4ull << h->op_bits) ||
		 !section_ok(len, h->sym_offset,
			     (uint64_t)h->sym_count * sizeof(struct vpmu_image_sym)) ||
		 !section_ok(len, h->insn_offset,
			     (uint64_t)h->insn_count * sizeof(struct vpmu_image_insn)) ||
		 !section_ok(len, h->str_offset, h->str_size) ||
		 !section_ok(len, h->tag_offset,
			     (uint64_t)h->tag_count * sizeof(struct vpmu_image_tag)))
		why = "section outside the image";
	else if (h->str_size && v->base[h->str_offset + h->str_size - 1])
		why = "string table not terminated";
	if (why) {
		vpmu_buf_printf(diag, "error: %s\n", why);
		return -1;
	}
	return 0;
}

uint64_t vpmu_img_uword(const struct vpmu_img_view *v, uint32_t i)
{
	const uint8_t *p = v->base + v->h.cs_offset + 8 * i;

	return vpmu_get32(p) | (uint64_t)vpmu_get32(p + 4) << 32;
}

uint32_t vpmu_img_idtab(const struct vpmu_img_view *v, uint32_t i)
{
	return vpmu_get32(v->base + v->h.id_offset + 4 * i);
}

void vpmu_img_sym(const struct vpmu_img_view *v, uint32_t i,
		  struct vpmu_image_sym *s)
{
	memcpy(s, v->base + v->h.sym_offset + sizeof(*s) * i, sizeof(*s));
}

void vpmu_img_insn(const struct vpmu_img_view *v, uint32_t i,
		   struct vpmu_image_insn *in)
{
	memcpy(in, v->base + v->h.insn_offset + sizeof(*in) * i, sizeof(*in));
}

void vpmu_img_tag(const struct vpmu_img_view *v, uint32_t i,
		  struct vpmu_image_tag *t)
{
	memcpy(t, v->base + v->h.tag_offset + sizeof(*t) * i, sizeof(*t));
}

const char *vpmu_img_str(const struct vpmu_img_view *v, uint32_t off)
{
	if (off >= v->h.str_size)
		return NULL;
	return (const char *)v->base + v->h.str_offset + off;
}

/* ---- program view ------------------------------------------------------ */

uint32_t vpmu_prog_crc(const void *prog, size_t len)
{
	static const uint8_t zero[4];
	size_t off = offsetof(struct vpmu_program_header, checksum);
	uint32_t crc;

	crc = vpmu_crc32(0, prog, off);
	crc = vpmu_crc32(crc, zero, 4);
	return vpmu_crc32(crc, (const uint8_t *)prog + off + 4, len - off - 4);
}

int vpmu_prog_view(struct vpmu_prog_view *v, const void *prog, size_t len,
		   struct vpmu_buf *diag)
{
	const struct vpmu_program_header *h = &v->h;
	const char *why = NULL;
	unsigned int i;

	if (len < sizeof(*h)) {
		vpmu_buf_printf(diag, "error: program truncated (%zu bytes)\n",
				len);
		return -1;
	}
	memcpy(&v->h, prog, sizeof(*h));
	v->data = (const uint8_t *)prog + sizeof(*h);
	for (i = 0; i < sizeof(h->reserved) / 4; i++)
		if (h->reserved[i])
			why = "reserved header field not zero";
	if (h->magic != VPMU_PROG_MAGIC)
		why = "bad magic number (not a vpmu program)";
	else if (h->version != VPMU_PROG_VERSION)
		why = "unsupported program version";
	else if (h->header_size != sizeof(*h) || h->total_size != len ||
		 (uint64_t)h->load_size + sizeof(*h) != len)
		why = "sizes do not match the file";
	else if (h->mem_size > VPMU_PROG_MEM_MAX || h->mem_size % 4 ||
		 h->load_size > h->mem_size)
		why = "bad memory size";
	else if (h->entry % 4 || h->entry >= h->mem_size)
		why = "entry point misaligned or outside memory";
	else if (h->flags & ~VPMU_PROG_F_ALL)
		why = "unknown flags";
	else if (vpmu_prog_crc(prog, len) != h->checksum)
		why = "checksum mismatch";
	if (why) {
		vpmu_buf_printf(diag, "error: %s\n", why);
		return -1;
	}
	return 0;
}

/* ---- operand fields ---------------------------------------------------- */

uint32_t vpmu_mop_mask(const struct vpmu_image_operand *op)
{
	if (!op->width || op->width > 32 || op->pos >= 32 ||
	    op->pos + op->width > 32)
		return 0;
	return (uint32_t)(0xffffffffull >> (32 - op->width)) << op->pos;
}

/*
 * A name a label may have: letters, digits, '_', '.', '$', not starting
 * with a digit, not "." alone (the location counter), at most 63 bytes.
 * Names starting with ".L" are local: the assembler keeps them out of the
 * symbol table and the disassembler makes up its own.
 */
bool vpmu_label_valid(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 63 || !strcmp(s, ".") ||
	    !(isalpha((unsigned char)*s) || *s == '_' || *s == '.' || *s == '$'))
		return false;
	for (s++; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.' &&
		    *s != '$')
			return false;
	return true;
}

bool vpmu_insn_usable(const struct vpmu_image_insn *in)
{
	uint32_t fields = 0, i;

	if (in->nops > VPMU_INSN_MAX_OPS || in->match & ~in->mask)
		return false;
	for (i = 0; i < in->nops; i++) {
		const struct vpmu_image_operand *op = &in->ops[i];

		if (!vpmu_mop_name(op->kind) || !vpmu_mop_mask(op) ||
		    op->shift > 31 || op->flags & ~VPMU_MOPF_PAREN ||
		    vpmu_mop_mask(op) & (fields | in->mask))
			return false;
		fields |= vpmu_mop_mask(op);
	}
	return true;
}

const char *vpmu_mop_name(unsigned int kind)
{
	static const char *const names[] = {
		[0] = NULL,
		[VPMU_MOP_REG] = "reg",
		[VPMU_MOP_UIMM] = "uimm",
		[VPMU_MOP_SIMM] = "simm",
		[VPMU_MOP_PCREL] = "pcrel",
		[VPMU_MOP_ABS] = "abs",
	};

	return kind < ARRAY_SIZE(names) ? names[kind] : NULL;
}

/* ---- sequencer rules ---------------------------------------------------- */

bool vpmu_seq_reads_result(unsigned int seq)
{
	return vpmu_seqsig_info[vpmu_seq_info[seq].sig].result ||
	       seq == VPMU_SEQ_CTR;
}

bool vpmu_seq_falls_through(unsigned int seq)
{
	return seq == VPMU_SEQ_NEXT || seq == VPMU_SEQ_BR ||
	       seq == VPMU_SEQ_CALL || seq == VPMU_SEQ_CTR;
}

/* ---- C source ---------------------------------------------------------- */

void vpmu_emit_c(struct vpmu_buf *out, const void *data, size_t len,
		 const char *symbol, const char *source, bool header)
{
	const uint8_t *p = data;
	size_t i;

	vpmu_buf_printf(out, "%s\n/*\n * Generated by the vpmu assembler from %s; "
			"do not edit.\n */\n#include <linux/types.h>\n\n"
			"const u8 %s[] = {", header ?
			"/* SPDX-License-Identifier: GPL-2.0 */" :
			"// SPDX-License-Identifier: GPL-2.0", source, symbol);
	for (i = 0; i < len; i++)
		vpmu_buf_printf(out, "%s0x%02x,", i % 12 ? " " : "\n\t", p[i]);
	vpmu_buf_printf(out, "\n};\n\nconst size_t %s_len = sizeof(%s);\n",
			symbol, symbol);
}

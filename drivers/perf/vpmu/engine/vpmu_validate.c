// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_validate.c - microcode image validator and decoder.
 *
 * vpmu_ucode_load() checks every byte of an image against the rules in
 * include/uapi/linux/vpmu.h before anything is kept, then decodes the
 * control store once: the header, the layout and the tables here, each
 * microword (and the rejection every check records) in
 * vpmu_validate_uword.c.  The input is hostile: every offset is checked
 * with 64-bit arithmetic before it is used, and nothing is read outside
 * the buffer.
 *
 * The order of the checks is what makes the reads safe: the header is read
 * only once the image is known to hold it; the sections are read only once
 * vpmu_check_layout() has put each inside the image; a microword's targets,
 * an ID-table entry or a symbol's address are kept only once they are
 * inside the control store.  The engine trusts what passes (its loop checks
 * no operand, target or table index), so a check missed here is a read or
 * a jump out of bounds in the kernel: every rule has a case in the host
 * unit tests, and a fuzzer feeds it random images.
 */
#include "vpmu_validate_uword.h"

/* ---- CRC-32 (IEEE, reflected: zlib's crc32()) -------------------------- */

static const u32 vpmu_crc_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
	0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
	0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

u32 vpmu_crc32(u32 crc, const void *buf, size_t len)
{
	const u8 *p = buf;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ vpmu_crc_nibble[crc & 15];
		crc = (crc >> 4) ^ vpmu_crc_nibble[crc & 15];
	}
	return ~crc;
}

#define VPMU_HDR_CSUM_OFF	offsetof(struct vpmu_image_header, checksum)

static u32 vpmu_image_crc(const u8 *img, size_t len)
{
	static const u8 zero[4];
	u32 crc;

	crc = vpmu_crc32(0, img, VPMU_HDR_CSUM_OFF);
	crc = vpmu_crc32(crc, zero, sizeof(zero));
	return vpmu_crc32(crc, img + VPMU_HDR_CSUM_OFF + 4,
			  len - VPMU_HDR_CSUM_OFF - 4);
}

void vpmu_image_seal(void *img, size_t len)
{
	u8 *p = img;

	if (len < sizeof(struct vpmu_image_header))
		return;
	vpmu_put_le32(p + VPMU_HDR_CSUM_OFF, 0);
	vpmu_put_le32(p + VPMU_HDR_CSUM_OFF, vpmu_image_crc(p, len));
}

/* ---- header and layout -------------------------------------------------- */

#define HOFF(f)		offsetof(struct vpmu_image_header, f)

static void vpmu_read_header(struct vpmu_vctx *c)
{
	const u8 *p = c->img;
	u32 *w = (u32 *)&c->h;
	unsigned int i;

	for (i = 0; i < HOFF(name) / 4; i++)
		w[i] = vpmu_get_le32(p + 4 * i);
	memcpy(c->h.name, p + HOFF(name), sizeof(c->h.name));
}

static bool is_pow2(u32 v)
{
	return v && !(v & (v - 1));
}

/*
 * The header, first: it says where everything else is.  Nothing of the
 * image is read before its length is known to hold the header; the
 * checksum covers every byte, so that a torn or corrupted write is told
 * apart from a bad image.  The machine parameters are bounded here
 * because the engine sizes its tables by them (the data cache's tags, the
 * write queue's depth, the ID table's 2^op_bits entries).
 */
static int vpmu_check_header(struct vpmu_vctx *c, u32 cs_limit)
{
	const struct vpmu_image_header *h = &c->h;
	unsigned int i;
	bool nul = false;

	if (c->len < sizeof(*h))
		return vpmu_reject(c, VPMU_VERR_TRUNCATED, 0,
				   "image is %zu bytes, header needs %zu",
				   c->len, sizeof(*h));
	vpmu_read_header(c);
	if (h->magic != VPMU_IMAGE_MAGIC)
		return vpmu_reject(c, VPMU_VERR_MAGIC, HOFF(magic),
				   "magic 0x%08x, expected 0x%08x",
				   h->magic, VPMU_IMAGE_MAGIC);
	if (h->version != VPMU_IMAGE_VERSION)
		return vpmu_reject(c, VPMU_VERR_VERSION, HOFF(version),
				   "image version %u, engine supports %u",
				   h->version, VPMU_IMAGE_VERSION);
	if (h->total_size != c->len)
		return vpmu_reject(c, VPMU_VERR_SIZE, HOFF(total_size),
				   "total_size %u but %zu bytes given",
				   h->total_size, c->len);
	if (vpmu_image_crc(c->img, c->len) != h->checksum)
		return vpmu_reject(c, VPMU_VERR_CHECKSUM, HOFF(checksum),
				   "checksum 0x%08x, computed 0x%08x",
				   h->checksum, vpmu_image_crc(c->img, c->len));
	if (h->header_size != sizeof(*h))
		return vpmu_reject(c, VPMU_VERR_HEADER, HOFF(header_size),
				   "header_size %u, expected %zu",
				   h->header_size, sizeof(*h));
	for (i = 0; i < ARRAY_SIZE(h->reserved); i++)
		if (h->reserved[i])
			return vpmu_reject(c, VPMU_VERR_HEADER,
					   HOFF(reserved) + 4 * i,
					   "header reserved[%u] is 0x%x, must be 0",
					   i, h->reserved[i]);
	if (h->flags & ~VPMU_IMG_F_ALL)
		return vpmu_reject(c, VPMU_VERR_HEADER, HOFF(flags),
				   "unknown header flags 0x%x",
				   (u32)(h->flags & ~VPMU_IMG_F_ALL));
	/* the name is printed: NUL-terminated, and nothing after the NUL */
	for (i = 0; i < sizeof(h->name); i++) {
		if (!h->name[i])
			nul = true;
		else if (nul)
			return vpmu_reject(c, VPMU_VERR_HEADER, HOFF(name) + i,
					   "name not NUL-padded at byte %u", i);
	}
	if (!nul)
		return vpmu_reject(c, VPMU_VERR_HEADER, HOFF(name),
				   "name not NUL-terminated");
	/* the engine's memory holds cs_limit microwords, no more */
	if (h->cs_words > cs_limit)
		return vpmu_reject(c, VPMU_VERR_TOO_BIG, HOFF(cs_words),
				   "cs_words %u exceeds this engine's %u",
				   h->cs_words, cs_limit);
	if (!h->cs_words)
		return vpmu_reject(c, VPMU_VERR_LAYOUT, HOFF(cs_words),
				   "cs_words is 0");
	if (h->ev_mode > VPMU_EVMODE_ENCODED)
		return vpmu_reject(c, VPMU_VERR_EVMODE, HOFF(ev_mode),
				   "ev_mode %u unknown", h->ev_mode);
	if (h->ev_bits < 1 || h->ev_bits > VPMU_UW_EVENT_BITS)
		return vpmu_reject(c, VPMU_VERR_EVMODE, HOFF(ev_bits),
				   "ev_bits %u not in 1..%u", h->ev_bits,
				   VPMU_UW_EVENT_BITS);
	if (h->op_bits < 1 || h->op_bits > VPMU_OP_BITS_MAX)
		return vpmu_reject(c, VPMU_VERR_PARAM, HOFF(op_bits),
				   "op_bits %u not in 1..%u", h->op_bits,
				   VPMU_OP_BITS_MAX);
	/* the opcode field lies inside ir */
	if (h->op_shift > 32 - h->op_bits)
		return vpmu_reject(c, VPMU_VERR_PARAM, HOFF(op_shift),
				   "op_shift %u + op_bits %u exceeds 32",
				   h->op_shift, h->op_bits);
	if (!is_pow2(h->dc_lines) || h->dc_lines > VPMU_DC_LINES_MAX)
		return vpmu_reject(c, VPMU_VERR_PARAM, HOFF(dc_lines),
				   "dc_lines %u not a power of 2 in 1..%u",
				   h->dc_lines, VPMU_DC_LINES_MAX);
	if (!is_pow2(h->dc_line_size) || h->dc_line_size < 4 ||
	    h->dc_line_size > 256)
		return vpmu_reject(c, VPMU_VERR_PARAM, HOFF(dc_line_size),
				   "dc_line_size %u not a power of 2 in 4..256",
				   h->dc_line_size);
	if (h->dc_miss_penalty > 64)
		return vpmu_reject(c, VPMU_VERR_PARAM, HOFF(dc_miss_penalty),
				   "dc_miss_penalty %u not in 0..64",
				   h->dc_miss_penalty);
	if (h->wq_depth < 1 || h->wq_depth > VPMU_WQ_DEPTH_MAX)
		return vpmu_reject(c, VPMU_VERR_PARAM, HOFF(wq_depth),
				   "wq_depth %u not in 1..%u", h->wq_depth,
				   VPMU_WQ_DEPTH_MAX);
	if (h->wq_drain < 1 || h->wq_drain > 64)
		return vpmu_reject(c, VPMU_VERR_PARAM, HOFF(wq_drain),
				   "wq_drain %u not in 1..64", h->wq_drain);
	return 0;
}

struct vpmu_section {
	const char *name;
	u32 hoff;	/* header offset of the section's offset field */
	u64 off, size;
};

/*
 * Every section inside the image, after the header, 8-byte aligned (the
 * control store is read as 64-bit words) and apart from the others; the
 * tag table only if there are tags.  The sizes come from the header's
 * counts, multiplied in 64 bits: a count of 2^32 - 1 cannot wrap the end
 * of a section back into the image.
 */
static int vpmu_check_layout(struct vpmu_vctx *c)
{
	const struct vpmu_image_header *h = &c->h;
	struct vpmu_section s[] = {
		{ "control store", HOFF(cs_offset), h->cs_offset,
		  (u64)h->cs_words * 8 },
		{ "ID table", HOFF(id_offset), h->id_offset,
		  (u64)4 << h->op_bits },
		{ "symbol table", HOFF(sym_offset), h->sym_offset,
		  (u64)h->sym_count * sizeof(struct vpmu_image_sym) },
		{ "instruction table", HOFF(insn_offset), h->insn_offset,
		  (u64)h->insn_count * sizeof(struct vpmu_image_insn) },
		{ "string table", HOFF(str_offset), h->str_offset,
		  h->str_size },
		{ "tag table", HOFF(tag_offset), h->tag_offset,
		  (u64)h->tag_count * sizeof(struct vpmu_image_tag) },
	};
	unsigned int i, j;

	/* the tag table is optional: no tags, tag_offset 0 too */
	if (h->tag_count > VPMU_TAG_MAX)
		return vpmu_reject(c, VPMU_VERR_LAYOUT, HOFF(tag_count),
				   "tag_count %u exceeds %u", h->tag_count,
				   VPMU_TAG_MAX);
	if (!h->tag_count && h->tag_offset)
		return vpmu_reject(c, VPMU_VERR_LAYOUT, HOFF(tag_offset),
				   "tag_offset %u with no tags, must be 0",
				   h->tag_offset);
	for (i = 0; i < ARRAY_SIZE(s); i++) {
		if (s[i].hoff == HOFF(tag_offset) && !s[i].size)
			continue;
		if (s[i].off & 7)
			return vpmu_reject(c, VPMU_VERR_LAYOUT, s[i].hoff,
					   "%s offset %llu not 8-byte aligned",
					   s[i].name,
					   (unsigned long long)s[i].off);
		if (s[i].off < sizeof(*h) || s[i].off + s[i].size > c->len)
			return vpmu_reject(c, VPMU_VERR_LAYOUT, s[i].hoff,
					   "%s [%llu, +%llu) outside [%zu, %zu)",
					   s[i].name,
					   (unsigned long long)s[i].off,
					   (unsigned long long)s[i].size,
					   sizeof(*h), c->len);
	}
	for (i = 0; i < ARRAY_SIZE(s); i++) {
		for (j = i + 1; j < ARRAY_SIZE(s); j++) {
			if (!s[i].size || !s[j].size)
				continue;
			if (s[i].off < s[j].off + s[j].size &&
			    s[j].off < s[i].off + s[i].size)
				return vpmu_reject(c, VPMU_VERR_LAYOUT,
						   s[j].hoff,
						   "%s overlaps %s",
						   s[j].name, s[i].name);
		}
	}
	return 0;
}

/* ---- tables ------------------------------------------------------------- */

/* Is @off a valid name: inside the string table (which ends with NUL)? */
static bool vpmu_name_ok(struct vpmu_vctx *c, u32 off)
{
	return off < c->h.str_size;
}

/*
 * The string table ends with NUL, so that any name offset inside it is a
 * terminated string: tools and the loader print names without a bound.
 */
static int vpmu_check_strings(struct vpmu_vctx *c)
{
	const struct vpmu_image_header *h = &c->h;

	if (h->str_size && c->img[h->str_offset + h->str_size - 1])
		return vpmu_reject(c, VPMU_VERR_STRING,
				   (u64)h->str_offset + h->str_size - 1,
				   "string table does not end with NUL");
	return 0;
}

/* Symbols name microwords: a name in the string table, an address inside. */
static int vpmu_check_syms(struct vpmu_vctx *c)
{
	const struct vpmu_image_header *h = &c->h;
	u32 i;

	for (i = 0; i < h->sym_count; i++) {
		u64 off = h->sym_offset + (u64)i * sizeof(struct vpmu_image_sym);
		u32 name = vpmu_get_le32(c->img + off);
		u32 addr = vpmu_get_le32(c->img + off + 4);

		if (!vpmu_name_ok(c, name))
			return vpmu_reject(c, VPMU_VERR_SYMBOL, off,
				"symbol %u: name offset %u outside string table of %u",
				i, name, h->str_size);
		if (addr >= h->cs_words)
			return vpmu_reject(c, VPMU_VERR_SYMBOL, off + 4,
				"symbol %u: address %u outside control store of %u",
				i, addr, h->cs_words);
	}
	return 0;
}

/*
 * The operands of macro-instruction declaration @i: a known kind, a field
 * inside 32 bits that overlaps neither the opcode mask nor another
 * operand, a shift only for addresses, reserved bytes zero, and unused
 * slots all zero.  The disassembler extracts and shifts by these values.
 */
static int vpmu_check_insn_ops(struct vpmu_vctx *c, u32 i, u64 off,
			       u32 mask, u32 nops)
{
	u32 used = mask;
	unsigned int k, j;

	for (k = 0; k < VPMU_INSN_MAX_OPS; k++) {
		u64 o = off + offsetof(struct vpmu_image_insn, ops) + 8 * k;
		const u8 *p = c->img + o;
		u32 fld;

		if (k >= nops) {
			for (j = 0; j < 8; j++)
				if (p[j])
					return vpmu_reject(c, VPMU_VERR_INSN, o,
						"insn %u: unused operand %u not zero",
						i, k);
			continue;
		}
		if (p[0] < VPMU_MOP_REG || p[0] > VPMU_MOP_ABS)
			return vpmu_reject(c, VPMU_VERR_INSN, o,
				"insn %u: operand %u kind %u unknown", i, k, p[0]);
		if (p[2] < 1 || p[1] + p[2] > 32)
			return vpmu_reject(c, VPMU_VERR_INSN, o,
				"insn %u: operand %u field pos %u width %u outside 32 bits",
				i, k, p[1], p[2]);
		if (p[3] > 31 || (p[3] && p[0] != VPMU_MOP_PCREL &&
				  p[0] != VPMU_MOP_ABS))
			return vpmu_reject(c, VPMU_VERR_INSN, o,
				"insn %u: operand %u shift %u invalid", i, k, p[3]);
		if (p[4] & ~VPMU_MOPF_PAREN || p[5] || p[6] || p[7])
			return vpmu_reject(c, VPMU_VERR_INSN, o,
				"insn %u: operand %u reserved bits set", i, k);
		fld = (p[2] == 32 ? ~0u : (1u << p[2]) - 1) << p[1];
		if (fld & used)
			return vpmu_reject(c, VPMU_VERR_INSN, o,
				"insn %u: operand %u field overlaps the mask or another operand",
				i, k);
		used |= fld;
	}
	return 0;
}

/* Macro-instruction declarations: for the assembler and disassembler. */
static int vpmu_check_insns(struct vpmu_vctx *c)
{
	const struct vpmu_image_header *h = &c->h;
	u32 opmask = ((1u << h->op_bits) - 1) << h->op_shift;
	u32 i;

	for (i = 0; i < h->insn_count; i++) {
		u64 off = h->insn_offset +
			  (u64)i * sizeof(struct vpmu_image_insn);
		const u8 *p = c->img + off;
		u32 name = vpmu_get_le32(p);
		u32 match = vpmu_get_le32(p + 4);
		u32 mask = vpmu_get_le32(p + 8);
		u32 nops = vpmu_get_le32(p + 12);
		int ret;

		if (!vpmu_name_ok(c, name))
			return vpmu_reject(c, VPMU_VERR_INSN, off,
				"insn %u: name offset %u outside string table of %u",
				i, name, h->str_size);
		if (match & ~mask)
			return vpmu_reject(c, VPMU_VERR_INSN, off + 4,
				"insn %u: match 0x%08x has bits outside mask 0x%08x",
				i, match, mask);
		if ((mask & opmask) != opmask)
			return vpmu_reject(c, VPMU_VERR_INSN, off + 8,
				"insn %u: mask 0x%08x does not cover the opcode 0x%08x",
				i, mask, opmask);
		if (nops > VPMU_INSN_MAX_OPS)
			return vpmu_reject(c, VPMU_VERR_INSN, off + 12,
				"insn %u: %u operands, at most %u",
				i, nops, VPMU_INSN_MAX_OPS);
		ret = vpmu_check_insn_ops(c, i, off, mask, nops);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Names a tag may not have, each with whose it is: the PMU's format/
 * fields (vpmu_pmu_sysfs.c), and the terms perf's event parser reads
 * inside pmu/.../ as its own (tools/perf/util/parse-events.l, 6.1 to
 * 7.x; those with a '-' are no identifier anyway).  The basic events'
 * names, tagN, histN and vpmu_* are checked by vpmu_tag_name_taken().
 */
static const char *const vpmu_tag_taken[][2] = {
	{ "event", "is a format/ field" }, { "tag", "is a format/ field" },
	{ "ctr", "is a format/ field" }, { "sample_upc", "is a format/ field" },
	{ "trig_ev", "is a format/ field" }, { "trig_tag", "is a format/ field" },
	{ "trig_mark", "is a format/ field" }, { "frozen", "is a format/ field" },
	{ "freeze_on_ovf", "is a format/ field" },
	{ "stop_ev", "is a format/ field" }, { "stop_tag", "is a format/ field" },
	{ "stop_mark", "is a format/ field" }, { "trig_ovf", "is a format/ field" },
	{ "stop_ovf", "is a format/ field" }, { "gate_uhist", "is a format/ field" },
	{ "gate_hu", "is a format/ field" },
	{ "config", "is a perf term" }, { "config1", "is a perf term" },
	{ "config2", "is a perf term" }, { "config3", "is a perf term" },
	{ "config4", "is a perf term" }, { "name", "is a perf term" },
	{ "period", "is a perf term" }, { "freq", "is a perf term" },
	{ "branch_type", "is a perf term" }, { "time", "is a perf term" },
	{ "nr", "is a perf term" }, { "inherit", "is a perf term" },
	{ "overwrite", "is a perf term" }, { "percore", "is a perf term" },
	{ "cpu", "is a perf term" },
};

/* Is @s @prefix followed by 1.. characters all digits (@hex: hex)? */
static bool vpmu_name_numbered(const char *s, const char *prefix, bool hex)
{
	size_t n = strlen(prefix);

	if (strncmp(s, prefix, n) || !s[n])
		return false;
	for (s += n; *s; s++)
		if (!(*s >= '0' && *s <= '9') &&
		    !(hex && *s >= 'a' && *s <= 'f'))
			return false;
	return true;
}

/* Whose name @s is, or NULL if it is free for a tag. */
static const char *vpmu_tag_name_taken(const char *s)
{
	unsigned int i;

	for (i = 0; i < VPMU_EV_NR_BASIC; i++)
		if (!strcmp(s, vpmu_event_info[i].name + 5))
			return "is a basic event";
	for (i = 0; i < ARRAY_SIZE(vpmu_tag_taken); i++)
		if (!strcmp(s, vpmu_tag_taken[i][0]))
			return vpmu_tag_taken[i][1];
	if (!strncmp(s, "vpmu_", 5) || vpmu_name_numbered(s, "tag", false) ||
	    vpmu_name_numbered(s, "hist", false))
		return "is the PMU's (tagN, histN, vpmu_*)";
	if (vpmu_name_numbered(s, "r", true) ||
	    vpmu_name_numbered(s, "r0x", true))
		return "is a raw event to perf (rNNN)";
	return NULL;
}

/* A lowercase letter, then lowercase letters, digits and '_', short. */
static bool vpmu_tag_name_ok(const char *s)
{
	size_t i;

	if (!(s[0] >= 'a' && s[0] <= 'z'))
		return false;
	for (i = 1; s[i]; i++) {
		if (i >= VPMU_TAG_NAME_MAX - 1)
			return false;
		if (!(s[i] >= 'a' && s[i] <= 'z') &&
		    !(s[i] >= '0' && s[i] <= '9') && s[i] != '_')
			return false;
	}
	return true;
}

const char *vpmu_tag_name_why(const char *name)
{
	if (!vpmu_tag_name_ok(name))
		return "is not a-z, then a-z, 0-9 or _, at most 31 long";
	return vpmu_tag_name_taken(name);
}

/*
 * Tag entry @i at @off: a valid name that is no one else's, a tag the
 * event field can select, neither given by an earlier entry.
 */
static int vpmu_check_tag(struct vpmu_vctx *c, u32 i, u64 off)
{
	const struct vpmu_image_header *h = &c->h;
	const char *strs = (const char *)c->img + h->str_offset;
	u32 name = vpmu_get_le32(c->img + off);
	u32 k = vpmu_get_le32(c->img + off + 4);
	u32 hi = h->ev_mode == VPMU_EVMODE_ENCODED ? BIT(h->ev_bits) - 1 :
		 h->ev_bits;
	const char *who;
	u32 j;

	if (!vpmu_name_ok(c, name))
		return vpmu_reject(c, VPMU_VERR_TAG, off,
			"tag entry %u: name offset %u outside string table of %u",
			i, name, h->str_size);
	/* a name that is no identifier is not printed: it may be anything */
	if (!vpmu_tag_name_ok(strs + name))
		return vpmu_reject(c, VPMU_VERR_TAG, off, "tag entry %u: name %s",
				   i, vpmu_tag_name_why(strs + name));
	who = vpmu_tag_name_why(strs + name);
	if (who)
		return vpmu_reject(c, VPMU_VERR_TAG, off,
			"tag entry %u: name '%s' %s", i, strs + name, who);
	if (k < 1 || k > hi)
		return vpmu_reject(c, VPMU_VERR_TAG, off + 4,
			"tag entry %u: tag %u not in 1..%u of the %s event field",
			i, k, hi, h->ev_mode == VPMU_EVMODE_ENCODED ?
			"encoded" : "one-hot");
	for (j = 0; j < i; j++) {
		u64 o = h->tag_offset + (u64)j * sizeof(struct vpmu_image_tag);

		if (!strcmp(strs + vpmu_get_le32(c->img + o), strs + name))
			return vpmu_reject(c, VPMU_VERR_TAG, off,
				"tag entry %u: name '%s' given twice (entry %u)",
				i, strs + name, j);
		if (vpmu_get_le32(c->img + o + 4) == k)
			return vpmu_reject(c, VPMU_VERR_TAG, off + 4,
				"tag entry %u: tag %u named twice (entry %u)",
				i, k, j);
	}
	return 0;
}

/* Tag names (struct vpmu_image_tag), once the string table is checked. */
static int vpmu_check_tags(struct vpmu_vctx *c)
{
	u32 i;
	int ret;

	for (i = 0; i < c->h.tag_count; i++) {
		ret = vpmu_check_tag(c, i, c->h.tag_offset +
				     (u64)i * sizeof(struct vpmu_image_tag));
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- load --------------------------------------------------------------- */

/*
 * Everything after the header, in the order that makes each read safe:
 * the layout first, then the microwords, the ID table (every opcode's
 * entry inside the control store: the engine dispatches through it
 * unchecked), the strings, and the tables that name into them.
 */
static int vpmu_validate(struct vpmu_vctx *c, struct vpmu_dec *dec)
{
	const struct vpmu_image_header *h = &c->h;
	u32 i;
	int ret;

	ret = vpmu_check_layout(c);
	if (ret)
		return ret;
	for (i = 0; i < h->cs_words; i++) {
		ret = vpmu_check_uword(c, i, &dec[i]);
		if (ret)
			return ret;
	}
	for (i = 0; i < 1u << h->op_bits; i++) {
		u32 off = h->id_offset + 4 * i;
		u32 a = vpmu_get_le32(c->img + off);

		if (a >= h->cs_words)
			return vpmu_reject(c, VPMU_VERR_IDTAB, off,
				"ID table entry %u: address %u outside control store of %u",
				i, a, h->cs_words);
	}
	ret = vpmu_check_strings(c);
	if (!ret)
		ret = vpmu_check_syms(c);
	if (!ret)
		ret = vpmu_check_insns(c);
	if (!ret)
		ret = vpmu_check_tags(c);
	return ret;
}

/*
 * Validate and decode: nothing is kept unless every check passes, and the
 * ucode keeps its own copy of the bytes, so that the caller's buffer may
 * change or go once this returns.
 */
int vpmu_ucode_load(struct vpmu_ucode **out, const void *img, size_t len,
		    u32 cs_limit, struct vpmu_verr *err)
{
	struct vpmu_vctx c = { .img = img, .len = len, .err = err };
	struct vpmu_ucode *uc;
	u32 i, nid;
	int ret;

	*out = NULL;
	if (err)
		memset(err, 0, sizeof(*err));
	if (cs_limit > VPMU_CS_MAX)
		cs_limit = VPMU_CS_MAX;
	ret = vpmu_check_header(&c, cs_limit);
	if (ret)
		return ret;

	uc = vpmu_zalloc(sizeof(*uc));
	if (!uc)
		return -ENOMEM;
	nid = 1u << c.h.op_bits;
	uc->dec = vpmu_zalloc(sizeof(*uc->dec) * c.h.cs_words);
	uc->idtab = vpmu_zalloc(sizeof(*uc->idtab) * nid);
	uc->bytes = vpmu_zalloc(len);
	if (!uc->dec || !uc->idtab || !uc->bytes) {
		ret = -ENOMEM;
		goto out_free;
	}
	ret = vpmu_validate(&c, uc->dec);
	if (ret)
		goto out_free;

	memcpy(uc->bytes, img, len);
	uc->len = len;
	uc->hdr = c.h;
	uc->cs_words = c.h.cs_words;
	uc->op_shift = c.h.op_shift;
	uc->op_mask = nid - 1;
	for (i = 0; i < nid; i++)
		uc->idtab[i] = vpmu_get_le32(uc->bytes + c.h.id_offset + 4 * i);
	vpmu_accept(&c);
	*out = uc;
	return 0;

out_free:
	vpmu_ucode_free(uc);
	return ret;
}

void vpmu_ucode_free(struct vpmu_ucode *uc)
{
	if (!uc)
		return;
	vpmu_free(uc->bytes);
	vpmu_free(uc->idtab);
	vpmu_free(uc->dec);
	vpmu_free(uc);
}

const struct vpmu_image_header *vpmu_ucode_header(const struct vpmu_ucode *uc)
{
	return &uc->hdr;
}

const void *vpmu_ucode_bytes(const struct vpmu_ucode *uc, size_t *len)
{
	if (len)
		*len = uc->len;
	return uc->bytes;
}

const char *vpmu_ucode_tag(const struct vpmu_ucode *uc, u32 i,
			   unsigned int *k)
{
	const u8 *p = uc->bytes + uc->hdr.tag_offset +
		      (size_t)i * sizeof(struct vpmu_image_tag);

	if (i >= uc->hdr.tag_count)
		return NULL;
	*k = vpmu_get_le32(p + 4);
	return (const char *)uc->bytes + uc->hdr.str_offset +
	       vpmu_get_le32(p);
}

const char *vpmu_ucode_tag_name(const struct vpmu_ucode *uc, unsigned int k)
{
	const char *name;
	unsigned int t;
	u32 i;

	for (i = 0; (name = vpmu_ucode_tag(uc, i, &t)); i++)
		if (t == k)
			return name;
	return NULL;
}

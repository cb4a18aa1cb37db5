// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_gdb_stub.c - the GDB remote serial protocol's core
 * (vpmu_gdb_stub.h): what each packet asks, answered from the program's
 * memory and the lists kept here, or by the backend (vpmu-sim's host
 * engine, vpmu_gdb.c; vpmu-run's /dev/vpmu, vpmu_gdb_dev.c).  The
 * connection and the packets' framing are vpmu_gdb_net.c's.
 *
 * The packets served: qSupported, qXfer:features:read (the target
 * description: org.gnu.gdb.riscv.cpu, x0..x31 and pc, and what the
 * backend adds), ?, g, G, p, P, m, M, Z0/z0 and Z1/z1 (breakpoints),
 * Z2/z2 (write watchpoints, where the backend knows the stores), s, c,
 * vCont, D, k, and qRcmd (monitor commands, the backend's).  Anything
 * else gets the empty reply (not supported).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vpmu_gdb_stub.h"

/* vpmu32's stores (Documentation/vpmu/toolchain.rst, "Encoding") */
#define V32_OP_SB	0x18
#define V32_OP_SW	0x1a

static bool gdb_has_reg(const struct vpmu_gdb_stub *g, unsigned long i)
{
	return g->ops->has_reg(g, i);
}

static uint32_t gdb_reg(const struct vpmu_gdb_stub *g, unsigned int i)
{
	return g->ops->reg(g, i);
}

static bool gdb_set_reg(struct vpmu_gdb_stub *g, unsigned int i, uint32_t v)
{
	return g->ops->set_reg(g, i, v);
}

/* A 32-bit register value as gdb has it: little-endian bytes in hex. */
static char *reg_hex(char *p, uint32_t v)
{
	uint8_t b[4] = { v, v >> 8, v >> 16, v >> 24 };

	return vpmu_gdb_tohex(p, b, 4);
}

uint32_t vpmu_gdb_le32(const uint8_t *b)
{
	return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

/*
 * A 32-bit number in hex at @s, 1 to 8 digits: the pointer after it, or
 * NULL.  strtoul() alone took a sign, blanks and any number of digits,
 * and its unsigned long went into 32 bits: m100000000,4 read address 0.
 */
static const char *hex_u32(const char *s, uint32_t *v)
{
	size_t n = strspn(s, "0123456789abcdefABCDEF");

	if (!n || n > 8)
		return NULL;
	*v = strtoul(s, NULL, 16);
	return s + n;
}

/* "ADDR,LEN" at @s: the pointer after them, or NULL if malformed. */
static const char *addr_len(const char *s, uint32_t *addr, uint32_t *len)
{
	s = hex_u32(s, addr);
	if (!s || *s != ',')
		return NULL;
	return hex_u32(s + 1, len);
}

static void cmd_regs(struct vpmu_gdb_stub *g, char *out)
{
	unsigned int i;
	char *p = out;

	for (i = 0; i <= 32; i++)
		p = reg_hex(p, gdb_reg(g, i));
}

static const char *cmd_set_regs(struct vpmu_gdb_stub *g, const char *s)
{
	uint8_t b[33 * 4];
	unsigned int i;

	if (strlen(s) < 2 * sizeof(b) || !vpmu_gdb_unhex(s, b, sizeof(b)))
		return "E01";
	for (i = 1; i <= 32; i++)
		if (!gdb_set_reg(g, i, vpmu_gdb_le32(b + 4 * i)))
			return "E01";
	return "OK";
}

/*
 * The register number in hex at @s (hex_u32()), up to @stop: *@i and
 * the end, or NULL if it is none of the target description's registers.
 * strtoul() alone took a sign, blanks, 0x and any number of digits, and
 * gdb_reg() and gdb_set_reg() an unsigned int: P100000005 wrote x5.
 */
static const char *reg_num(const struct vpmu_gdb_stub *g, const char *s, char stop,
			   unsigned int *i)
{
	uint32_t r;

	s = hex_u32(s, &r);
	if (!s || *s != stop || !gdb_has_reg(g, r))
		return NULL;
	*i = r;
	return s;
}

static const char *cmd_reg(struct vpmu_gdb_stub *g, const char *s, char *out)
{
	unsigned int i;

	if (!reg_num(g, s, 0, &i))
		return "E01";
	reg_hex(out, gdb_reg(g, i));
	return out;
}

/* "N=VALUE": VALUE the 4 bytes, in hex, as gdb sends a 32-bit register. */
static const char *cmd_set_reg(struct vpmu_gdb_stub *g, const char *s)
{
	unsigned int i;
	uint8_t b[4];

	s = reg_num(g, s, '=', &i);
	if (!s || strlen(s + 1) != 2 * sizeof(b) ||
	    !vpmu_gdb_unhex(s + 1, b, sizeof(b)) || !gdb_set_reg(g, i, vpmu_gdb_le32(b)))
		return "E01";
	return "OK";
}

bool vpmu_gdb_in_mem(const struct vpmu_gdb_stub *g, uint32_t addr, uint32_t len)
{
	return addr <= g->mem_size && len <= g->mem_size - addr;
}

static const char *cmd_mem(struct vpmu_gdb_stub *g, const char *s, char *out)
{
	uint32_t addr, len;

	if (!addr_len(s, &addr, &len) || len > VPMU_GDB_PKT_MAX)
		return "E01";
	if (!vpmu_gdb_in_mem(g, addr, len))
		return "E14";
	vpmu_gdb_tohex(out, g->mem + addr, len);
	return out;
}

static const char *cmd_set_mem(struct vpmu_gdb_stub *g, const char *s)
{
	uint32_t addr, len;

	s = addr_len(s, &addr, &len);
	if (!s || *s != ':')
		return "E01";
	if (!vpmu_gdb_in_mem(g, addr, len))
		return "E14";
	if (strlen(s + 1) < 2 * (size_t)len ||
	    !vpmu_gdb_unhex(s + 1, g->mem + addr, len))
		return "E01";
	if (g->ops->mem_written)
		g->ops->mem_written(g);
	return "OK";
}

static int bp_find(const struct vpmu_gdb_stub *g, uint32_t addr)
{
	unsigned int i;

	for (i = 0; i < g->nbp; i++)
		if (g->bp[i] == addr)
			return i;
	return -1;
}

bool vpmu_gdb_bp_at(const struct vpmu_gdb_stub *g, uint32_t addr)
{
	return bp_find(g, addr) >= 0;
}

static int wp_find(const struct vpmu_gdb_stub *g, uint32_t addr, uint32_t len)
{
	unsigned int i;

	for (i = 0; i < g->nwp; i++)
		if (g->wp[i].addr == addr && g->wp[i].len == len)
			return i;
	return -1;
}

static const char *bp_set(struct vpmu_gdb_stub *g, uint32_t addr, bool insert)
{
	int i = bp_find(g, addr);

	if (insert && i < 0) {
		if (g->nbp == g->nbp_max)
			return "E01";
		g->bp[g->nbp++] = addr;
	} else if (!insert && i >= 0) {
		g->bp[i] = g->bp[--g->nbp];
	}
	return "OK";
}

static const char *wp_set(struct vpmu_gdb_stub *g, uint32_t addr, uint32_t len,
			  bool insert)
{
	int i = wp_find(g, addr, len);

	if (insert && i < 0) {
		if (g->nwp == GDB_NWP || !len || !vpmu_gdb_in_mem(g, addr, len))
			return "E01";
		g->wp[g->nwp++] = (struct gdb_wp){ .addr = addr, .len = len };
	} else if (!insert && i >= 0) {
		g->wp[i] = g->wp[--g->nwp];
	}
	return "OK";
}

/* Z0..Z2 and z0..z2: "TYPE,ADDR,KIND". */
static const char *cmd_point(struct vpmu_gdb_stub *g, const char *s, bool insert)
{
	uint32_t addr, kind;

	if (!s[0] || s[1] != ',' || !addr_len(s + 2, &addr, &kind))
		return "E01";
	switch (s[0]) {
	case '0':
	case '1':
		return bp_set(g, addr, insert);
	case '2':
		/* stores of an instruction set the backend does not know */
		if (!g->wp_ok)
			return "";
		return wp_set(g, addr, kind, insert);
	default:
		return "";
	}
}

/*
 * The bytes the RV32 instruction @insn writes with the registers @g's
 * program has now: 0 if it is not a store (SB, SH, SW, SC.W and the
 * AMOs, C.SW, C.SWSP), else their number and *@addr.
 */
static uint32_t store_at(const struct vpmu_gdb_stub *g, uint32_t insn, uint32_t *addr)
{
	uint32_t rs1 = insn >> 15 & 31, f3 = insn >> 12 & 7;

	switch (insn & 3) {
	case 0:			/* C.SW: offset[5:3|2|6] */
		if ((insn >> 13 & 7) != 6)
			return 0;
		*addr = gdb_reg(g, 8 + (insn >> 7 & 7)) +
			((insn >> 7 & 0x38) | (insn >> 4 & 4) |
			 (insn << 1 & 0x40));
		return 4;
	case 2:			/* C.SWSP: offset[5:2|7:6] */
		if ((insn >> 13 & 7) != 6)
			return 0;
		*addr = gdb_reg(g, 2) + ((insn >> 7 & 0x3c) |
					 (insn >> 1 & 0xc0));
		return 4;
	case 1:
		return 0;
	}
	if ((insn & 0x7f) == 0x23 && f3 < 3) {	/* SB, SH, SW */
		*addr = gdb_reg(g, rs1) + (((int32_t)insn >> 20 & ~31) |
					   (insn >> 7 & 31));
		return 1u << f3;
	}
	if ((insn & 0x7f) == 0x2f && f3 == 2 && (insn >> 27) != 2) {
		*addr = gdb_reg(g, rs1);	/* SC.W, AMOs (not LR.W) */
		return 4;
	}
	return 0;
}

/*
 * The same for the vpmu32 instruction @insn: SB, SH, SW (S format:
 * imm16 at the top, rs1 in bits 11..15, a byte offset).
 */
static uint32_t v32_store_at(const struct vpmu_gdb_stub *g, uint32_t insn,
			     uint32_t *addr)
{
	uint32_t op = insn & 0x3f;

	if (op < V32_OP_SB || op > V32_OP_SW)
		return 0;
	*addr = gdb_reg(g, insn >> 11 & 31) + (int16_t)(insn >> 16);
	return 1u << (op - V32_OP_SB);
}

/*
 * True if the instruction at pc, not yet run, stores to a watched
 * location (hit_wp set): the store is decoded before it runs, as a
 * RISC-V hardware watchpoint fires before the store; gdb then removes
 * its watchpoints, steps over the store and shows the new value (a
 * vpmu32 program's as well: gdb thinks it RISC-V).
 */
bool vpmu_gdb_wp_hit(struct vpmu_gdb_stub *g)
{
	uint32_t pc = gdb_reg(g, GDB_REG_PC), insn, addr, n;
	const struct gdb_wp *w;
	unsigned int i;

	if (!vpmu_gdb_in_mem(g, pc, 4))
		return false;
	insn = vpmu_gdb_le32(g->mem + pc);
	n = g->prog ? v32_store_at(g, insn, &addr) :
		store_at(g, insn, &addr);
	for (i = 0; n && i < g->nwp; i++) {
		w = &g->wp[i];
		if (addr < w->addr + w->len && w->addr < addr + n) {
			g->hit_wp = addr > w->addr ? addr : w->addr;
			return true;
		}
	}
	return false;
}

/*
 * The count of monitor @cmd [N] at @arg, 1 without one, in *@n: 1 or
 * more in decimal.  strtoul() with base 0 alone took "010" as octal,
 * "-1" as ULONG_MAX and "foo" as 0, silently.  False after saying why
 * in @out.
 */
bool vpmu_gdb_mon_count(const char *cmd, const char *arg, unsigned long *n,
		      struct vpmu_buf *out)
{
	size_t len = strspn(arg, "0123456789");

	*n = 1;
	if (!*arg)
		return true;
	if (len && !arg[len + strspn(arg + len, " ")]) {
		errno = 0;
		*n = strtoul(arg, NULL, 10);
		if (!errno && *n)
			return true;
	}
	vpmu_buf_printf(out, "monitor %s: \"%s\" is not a count (1 or more, decimal)\n",
			cmd, arg);
	return false;
}

/* The signal a program that stopped for good reports (end->st). */
static int gdb_dead_sig(const struct vpmu_gdb_stub *g)
{
	const struct vpmu_elf_stop *st = &g->end->st;

	if (st->stop == VPMU_RUN_BUDGET)
		return GDB_SIGXCPU;
	if (!g->prog && st->stop == VPMU_RUN_TRAP &&
	    st->code == VPMU_RV_TRAP_EBREAK)
		return GDB_SIGTRAP;
	if (st->stop == VPMU_RUN_TRAP || st->stop == VPMU_RUN_HALT)
		return GDB_SIGILL;
	return GDB_SIGSEGV;
}

/* The stop reply for @r into @out. */
static const char *stop_reply(struct vpmu_gdb_stub *g, int r, char *out)
{
	switch (r) {
	case RES_EXIT:
		snprintf(out, 8, "W%02x", g->end->res.status);
		break;
	case RES_DEAD:
		g->dead = true;
		snprintf(out, 8, "T%02x", gdb_dead_sig(g));
		break;
	case RES_BP:
		strcpy(out, "T05swbreak:;");
		break;
	case RES_WP:
		snprintf(out, 32, "T05watch:%x;", g->hit_wp);
		break;
	case RES_UBP:		/* gdb's own breakpoints are not the cause */
		snprintf(out, 8, "T%02x", GDB_SIGTRAP);
		break;
	case RES_INTR:
		snprintf(out, 8, "T%02x", GDB_SIGINT);
		break;
	case RES_FAIL:		/* the runner says why, and exits */
		g->dead = true;
		snprintf(out, 8, "X%02x", GDB_SIGKILL);
		break;
	default:
		snprintf(out, 8, "T%02x", GDB_SIGTRAP);
	}
	return out;
}

/*
 * s (@step) or c: the backend's stop reply, or after a stop for good
 * "X<sig>" (an RV32 program: the runner exits as if killed by it), for a
 * program file "W00" (the runner reports that stop, and exits 0).
 */
static const char *gdb_resume(struct vpmu_gdb_stub *g, bool step, char *out)
{
	if (g->dead && g->prog)
		return "W00";
	if (g->dead) {
		snprintf(out, 8, "X%02x", gdb_dead_sig(g));
		return out;
	}
	return stop_reply(g, g->ops->resume(g, step), out);
}

static const char *const reg_names[32] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "fp", "s1",
	"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3",
	"s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
	"t5", "t6",
};

/*
 * The target description: a 32-bit RISC-V with x0..x31 and pc, and what
 * the backend adds.
 */
static void target_xml(const struct vpmu_gdb_stub *g, struct vpmu_buf *x)
{
	unsigned int i;

	vpmu_buf_printf(x, "<?xml version=\"1.0\"?>\n"
			"<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
			"<target version=\"1.0\">\n"
			"<architecture>riscv:rv32</architecture>\n");
	/*
	 * gdb single-steps a RISC-V under an OS (its default one, without an
	 * ELF file) by breakpoints after the instruction it decodes: s
	 * packets need none
	 */
	if (g->prog)
		vpmu_buf_printf(x, "<osabi>none</osabi>\n");
	vpmu_buf_printf(x, "<feature name=\"org.gnu.gdb.riscv.cpu\">\n");
	for (i = 0; i < 32; i++)
		vpmu_buf_printf(x, "<reg name=\"%s\" bitsize=\"32\" type=\"%s\" regnum=\"%u\"/>\n",
				reg_names[i], i == 2 ? "data_ptr" : "int", i);
	vpmu_buf_printf(x, "<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\" regnum=\"%u\"/>\n"
			"</feature>\n", GDB_REG_PC);
	if (g->ops->features)
		g->ops->features(g, x);
	vpmu_buf_printf(x, "</target>\n");
}

/* qXfer:features:read:target.xml:OFF,LEN */
static const char *cmd_xfer(const struct vpmu_gdb_stub *g, const char *s, char *out)
{
	static const char pre[] = "qXfer:features:read:target.xml:";
	struct vpmu_buf x = { 0 };
	uint32_t off, len;

	if (strncmp(s, pre, sizeof(pre) - 1))
		return "";
	if (!addr_len(s + sizeof(pre) - 1, &off, &len))
		return "E01";
	target_xml(g, &x);
	if (len > VPMU_GDB_PKT_MAX - 2)
		len = VPMU_GDB_PKT_MAX - 2;
	if (off >= x.len) {
		strcpy(out, "l");
	} else {
		if (len > x.len - off)
			len = x.len - off;
		out[0] = off + len < x.len ? 'm' : 'l';
		memcpy(out + 1, x.p + off, len);
		out[len + 1] = 0;
	}
	vpmu_buf_free(&x);
	return out;
}

/* Text for gdb's console: "O" packets of hex. */
static bool gdb_console(struct vpmu_gdb_stub *g, const char *p, size_t n)
{
	static char pkt[VPMU_GDB_BUF];
	size_t k;

	while (n) {
		k = n < VPMU_GDB_PKT_MAX / 2 - 8 ? n : VPMU_GDB_PKT_MAX / 2 - 8;
		pkt[0] = 'O';
		vpmu_gdb_tohex(pkt + 1, (const uint8_t *)p, k);
		if (!vpmu_gdb_put(&g->c, pkt))
			return false;
		p += k;
		n -= k;
	}
	return true;
}

/*
 * qRcmd,HEX: a monitor command, its text (or what was wrong) on gdb's
 * console; gdb would call an error reply a protocol error.
 */
static const char *cmd_rcmd(struct vpmu_gdb_stub *g, const char *s)
{
	static char cmd[VPMU_GDB_PKT_MAX];
	struct vpmu_buf out = { 0 };
	size_t n = strlen(s) / 2;

	if (n >= sizeof(cmd) || !vpmu_gdb_unhex(s, (uint8_t *)cmd, n))
		return "E01";
	cmd[n] = 0;
	g->ops->monitor(g, cmd, &out);
	gdb_console(g, out.p ? out.p : "", out.len);
	vpmu_buf_free(&out);
	return "OK";
}

static const char *cmd_query(struct vpmu_gdb_stub *g, const char *s, char *out)
{
	if (!strncmp(s, "qRcmd,", 6))
		return cmd_rcmd(g, s + 6);
	if (!strncmp(s, "qSupported", 10))
		return "PacketSize=1000;qXfer:features:read+;swbreak+;hwbreak+;vContSupported+";
	if (!strncmp(s, "qXfer:", 6))
		return cmd_xfer(g, s, out);
	if (!strcmp(s, "qAttached"))
		return "1";
	if (!strcmp(s, "qC"))
		return "QC1";
	if (!strcmp(s, "qfThreadInfo"))
		return "m1";
	if (!strcmp(s, "qsThreadInfo"))
		return "l";
	if (!strcmp(s, "qOffsets"))
		return "Text=0;Data=0;Bss=0";
	if (!strncmp(s, "qSymbol", 7))
		return "OK";
	return "";
}

/* vCont? and vCont;ACTION[:thread]...: the first action says. */
static const char *cmd_vcont(struct vpmu_gdb_stub *g, const char *s, char *out)
{
	if (!strcmp(s, "vCont?"))
		return "vCont;c;C;s;S";
	if (strncmp(s, "vCont;", 6))
		return "";
	return gdb_resume(g, s[6] == 's' || s[6] == 'S', out);
}

/*
 * One packet @s: its reply (maybe in @out), or NULL if the session ends
 * with it (k: killed, D: detached, after its OK).
 */
static const char *gdb_cmd(struct vpmu_gdb_stub *g, const char *s, char *out)
{
	switch (s[0]) {
	case '?':
		return g->dead ? stop_reply(g, RES_DEAD, out) : "S05";
	case 'g':
		cmd_regs(g, out);
		return out;
	case 'G':
		return cmd_set_regs(g, s + 1);
	case 'p':
		return cmd_reg(g, s + 1, out);
	case 'P':
		return cmd_set_reg(g, s + 1);
	case 'm':
		return cmd_mem(g, s + 1, out);
	case 'M':
		return cmd_set_mem(g, s + 1);
	case 'Z':
	case 'z':
		return cmd_point(g, s + 1, s[0] == 'Z');
	case 's':
	case 'c':
		return gdb_resume(g, s[0] == 's', out);
	case 'S':
	case 'C':
		return gdb_resume(g, s[0] == 'S', out);
	case 'v':
		return cmd_vcont(g, s, out);
	case 'q':
		return cmd_query(g, s, out);
	case 'H':
	case 'T':
		return "OK";
	case 'k':
	case 'D':
		return NULL;
	default:
		return "";
	}
}

/* Packets until the program ends or gdb ends the session. */
static int gdb_session(struct vpmu_gdb_stub *g)
{
	static char buf[VPMU_GDB_BUF], out[VPMU_GDB_BUF];
	const char *reply;

	while (vpmu_gdb_get(&g->c, buf)) {
		out[0] = 0;
		reply = gdb_cmd(g, buf, out);
		if (!reply) {
			vpmu_gdb_put(&g->c, "OK");
			if (buf[0] != 'D')
				return VPMU_GDB_KILLED;
			if (!g->dead)
				g->ops->detach(g);
			return 0;
		}
		if (!vpmu_gdb_put(&g->c, reply))
			break;
		if (reply[0] == 'W' || reply[0] == 'X') {
			vpmu_gdb_drain(&g->c);
			return 0;
		}
	}
	return VPMU_GDB_KILLED;
}

int vpmu_gdb_serve(struct vpmu_gdb_stub *g, const char *where)
{
	int ret;

	g->c.fd = vpmu_gdb_accept(where);
	if (g->c.fd < 0)
		return -1;
	ret = gdb_session(g);
	close(g->c.fd);
	return ret;
}

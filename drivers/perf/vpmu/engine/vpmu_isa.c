// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_isa.c - the operation tables, generated from the lists in
 * vpmu_isa.h.  Shared by the engine, the validator and the tools.
 */
#include "vpmu_isa.h"

const struct vpmu_op_info vpmu_op_info[VPMU_OP_NR] = {
#define VPMU_X(name, code, sig, doc) \
	[code] = { #name, doc, VPMU_SIG_##sig },
	VPMU_OP_LIST(VPMU_X)
#undef VPMU_X
};

const struct vpmu_seq_info vpmu_seq_info[VPMU_SEQ_NR] = {
#define VPMU_X(name, code, sig, doc) \
	[code] = { #name, doc, VPMU_SEQSIG_##sig },
	VPMU_SEQ_LIST(VPMU_X)
#undef VPMU_X
};

/*
 * The signatures (vpmu_isa.h): the fields each uses and its operands in
 * source order.  The operands' roles fill exactly the fields listed, but
 * for S (an ALU result) and BIMM (IMM when B is the immediate, which
 * VPMU_ROLE_B allows).
 */
#define VPMU_SIG(sig, f, ...) \
	[VPMU_SIG_##sig] = { #sig, f, { __VA_ARGS__ } }
#define F(x)	VPMU_UWF_##x
#define R(x)	VPMU_ROLE_##x

const struct vpmu_sig_info vpmu_sig_info[VPMU_SIG_NR] = {
	VPMU_SIG(NONE,	0,				R(NONE)),
	VPMU_SIG(DAB,	F(DST) | F(A) | F(B) | F(BIMM) | F(S),
		 R(DST), R(A), R(B)),
	VPMU_SIG(DB,	F(DST) | F(B) | F(BIMM) | F(S),	R(DST), R(B)),
	VPMU_SIG(DAF,	F(DST) | F(A) | F(IMM) | F(S),	R(DST), R(A), R(FIELD)),
	VPMU_SIG(LD,	F(DST) | F(A) | F(IMM),		R(DST), R(MEM)),
	VPMU_SIG(ST,	F(A) | F(B) | F(IMM),		R(BREG), R(MEM)),
	VPMU_SIG(I,	F(IMM),				R(MODE)),
};

#undef R
#define R(x)	VPMU_SEQROLE_##x
#define VPMU_SEQSIG(sig, f, result, ...) \
	[VPMU_SEQSIG_##sig] = { #sig, f, result, { __VA_ARGS__ } }

/* Sequencer signatures; DISP reads the ALU part's result. */
const struct vpmu_seqsig_info vpmu_seqsig_info[VPMU_SEQSIG_NR] = {
	VPMU_SEQSIG(NONE,	0,			0, R(NONE)),
	VPMU_SEQSIG(TARGET,	F(TARGET),		0, R(TARGET)),
	VPMU_SEQSIG(COND,	F(TARGET) | F(COND),	0, R(COND), R(TARGET)),
	VPMU_SEQSIG(DISP,	F(TARGET) | F(COND),	1, R(WIDTH), R(TARGET)),
	VPMU_SEQSIG(CODE,	F(TARGET),		0, R(CODE)),
};

#undef R
#undef F
#undef VPMU_SEQSIG
#undef VPMU_SIG

const struct vpmu_cond_info vpmu_cond_info[VPMU_COND_NR] = {
#define VPMU_X(name, code, doc) \
	[code] = { #name, doc },
	VPMU_COND_LIST(VPMU_X)
#undef VPMU_X
};

/* r0..r31 and t0..t7 take the first 40 codes, in order. */
#define VPMU_R(n)	{ "r" #n, VPMU_ACC_RW }
#define VPMU_T(n)	{ "t" #n, VPMU_ACC_RW }

const struct vpmu_opnd_info vpmu_opnd_info[1 << VPMU_UW_DST_BITS] = {
	VPMU_R(0),  VPMU_R(1),  VPMU_R(2),  VPMU_R(3),
	VPMU_R(4),  VPMU_R(5),  VPMU_R(6),  VPMU_R(7),
	VPMU_R(8),  VPMU_R(9),  VPMU_R(10), VPMU_R(11),
	VPMU_R(12), VPMU_R(13), VPMU_R(14), VPMU_R(15),
	VPMU_R(16), VPMU_R(17), VPMU_R(18), VPMU_R(19),
	VPMU_R(20), VPMU_R(21), VPMU_R(22), VPMU_R(23),
	VPMU_R(24), VPMU_R(25), VPMU_R(26), VPMU_R(27),
	VPMU_R(28), VPMU_R(29), VPMU_R(30), VPMU_R(31),
	VPMU_T(0),  VPMU_T(1),  VPMU_T(2),  VPMU_T(3),
	VPMU_T(4),  VPMU_T(5),  VPMU_T(6),  VPMU_T(7),
#define VPMU_X(name, code, acc) \
	[code] = { name, VPMU_ACC_##acc },
	VPMU_OPND_LIST(VPMU_X)
#undef VPMU_X
};

const struct vpmu_event_info vpmu_event_info[VPMU_EV_NR_BASIC] = {
#define VPMU_X(name, alias, doc) \
	[VPMU_EV_##name] = { alias, doc },
	VPMU_EVENT_LIST(VPMU_X)
#undef VPMU_X
};

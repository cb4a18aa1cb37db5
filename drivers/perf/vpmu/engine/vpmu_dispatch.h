/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_dispatch.h - how the engine's two loops, the interpreter
 * (vpmu_interp.c) and the translated-code executor (vpmu_tc_exec.c), go
 * from one handler to the next, in one place, as Lua's ljumptab.h keeps
 * its own.
 *
 * A loop is one function whose handlers are labels (GCC's labels as
 * values), one per enum constant of its handler list, named as the
 * constant; the loop's jump table maps each constant to its label.  A
 * uop or a translated op names its handler by that constant, and on the
 * host also by the label's address, which it keeps: in the kernel the
 * jump goes through the table, annotated for objtool, which can follow
 * it; on the host straight to the address, one instruction less per
 * microword.
 */
#ifndef _VPMU_DISPATCH_H
#define _VPMU_DISPATCH_H

#ifndef __annotate_jump_table
#define __annotate_jump_table
#endif

/* A loop's jump table: one label per handler of @list, X(name, ...). */
#define VPMU_JUMP_ENTRY(prefix, name)					\
	[prefix##name] = &&prefix##name,

/*
 * The same for a second handler list, whose entries follow the first's
 * @base entries in the one table of the loop (objtool follows one table
 * per indirect jump).
 */
#define VPMU_JUMP_ENTRY_AT(base, prefix, name)				\
	[(base) + prefix##name] = &&prefix##name,

/*
 * Jump to the handler @index of @table, whose label's address is
 * @label.
 */
#ifdef __KERNEL__
#define VPMU_GOTO_HANDLER(table, index, label)	goto *(table)[index]
#else
#define VPMU_GOTO_HANDLER(table, index, label)	goto *(label)
#endif

/*
 * Jump to the handler @index of the second list of @table, placed at
 * @base (VPMU_JUMP_ENTRY_AT()).  In the kernel the table's index is
 * computed in a register first, so that every jump loads its label from
 * the table's start: objtool takes the table of an indirect jump from the
 * nearest load before it, and a kernel built for size (-Os) makes one
 * indirect jump of all a function's computed gotos.
 */
#ifdef __KERNEL__
#define VPMU_GOTO_AT(table, base, index)				\
	do {								\
		unsigned long i_ = (base) + (index);			\
									\
		OPTIMIZER_HIDE_VAR(i_);					\
		goto *(table)[i_];					\
	} while (0)
#else
#define VPMU_GOTO_AT(table, base, index)	goto *(table)[(base) + (index)]
#endif

#endif /* _VPMU_DISPATCH_H */

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
 * Jump to the handler @index of @table, whose label's address is
 * @label.
 */
#ifdef __KERNEL__
#define VPMU_GOTO_HANDLER(table, index, label)	goto *(table)[index]
#else
#define VPMU_GOTO_HANDLER(table, index, label)	goto *(label)
#endif

#endif /* _VPMU_DISPATCH_H */

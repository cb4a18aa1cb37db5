// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_engine_host.c - the engine core's part the assembler needs, built
 * for the host program vpmu_mkimage: the ISA and event tables and the
 * image validator, which the assembler's output must pass.  The same files
 * are the module's objects too, so they are included here rather than
 * named twice in the Makefile (as arch/x86/boot/compressed includes
 * ../string.c).
 */
#include "../engine/vpmu_isa.c"
#include "../engine/vpmu_events.c"
#include "../engine/vpmu_validate.c"
#include "../engine/vpmu_validate_uword.c"

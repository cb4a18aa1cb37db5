# SPDX-License-Identifier: GPL-2.0
#
# asm.mk - the assembler's fuzz target, included by this directory's
# Makefile (-include asm.mk).  Appends fuzz_asm to FUZZ_TARGETS; its seed
# corpus is corpus/asm/ (the shipped sources, the samples with a mode byte
# in front, and a few error cases).  fuzz_elf, the tools' ELF readers and
# writer, links the same library; its seeds in corpus/elf/ are an RV32
# sample program and vpmu-as -f elf files.
#
#   make build/fuzz_asm && mkdir -p build/corpus-fuzz_asm &&
#   ./build/fuzz_asm build/corpus-fuzz_asm corpus/asm -max_total_time=60
#
# Both link the Makefile's objects of VPMU_ASM_SRCS (tools/vpmu/sources.mk).

FUZZ_TARGETS	+= fuzz_asm fuzz_elf

$(FUZZ_OUT)/fuzz_asm: $(CURDIR)/fuzz_asm.c $(ASM_OBJS) $(VPMU_ASM_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -DVPMU_TOP='"$(VPMU_TOP)"' -o $@ \
		$(CURDIR)/fuzz_asm.c $(ASM_OBJS)

$(FUZZ_OUT)/fuzz_elf: $(CURDIR)/fuzz_elf.c $(ASM_OBJS) $(VPMU_ASM_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(CURDIR)/fuzz_elf.c $(ASM_OBJS)

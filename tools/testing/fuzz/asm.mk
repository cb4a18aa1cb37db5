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

# Keep the including Makefile's first target ("all") the default goal.
.DEFAULT_GOAL	:= all
FUZZ_OUT	?= build
FUZZ_CC		?= clang
FUZZ_FLAGS	?= -g -O1 -fsanitize=fuzzer,address,undefined \
		   -fno-sanitize-recover=undefined
VPMU_TOOLS	:= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../../vpmu)
include $(VPMU_TOOLS)/sources.mk

FUZZ_TARGETS	+= fuzz_asm fuzz_elf

$(FUZZ_OUT)/fuzz_asm: $(CURDIR)/fuzz_asm.c $(VPMU_ASM_SRCS) $(VPMU_ASM_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(VPMU_ASM_CPPFLAGS) -DVPMU_TOP='"$(VPMU_TOP)"' \
		$(VPMU_ASM_CFLAGS) $(FUZZ_FLAGS) -o $@ \
		$(CURDIR)/fuzz_asm.c $(VPMU_ASM_SRCS)

$(FUZZ_OUT)/fuzz_elf: $(CURDIR)/fuzz_elf.c $(VPMU_ASM_SRCS) $(VPMU_ASM_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(VPMU_ASM_CPPFLAGS) $(VPMU_ASM_CFLAGS) $(FUZZ_FLAGS) -o $@ \
		$(CURDIR)/fuzz_elf.c $(VPMU_ASM_SRCS)

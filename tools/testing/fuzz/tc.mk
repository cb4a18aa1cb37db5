# SPDX-License-Identifier: GPL-2.0
#
# tc.mk - the translation cache's fuzz target, included by this
# directory's Makefile.  Appends fuzz_tc to FUZZ_TARGETS; its seed corpus
# is corpus/tc/ (written by hand: a byte of choices, a seed, machine code).
#
#   make build/fuzz_tc && mkdir -p build/corpus-fuzz_tc &&
#   ./build/fuzz_tc build/corpus-fuzz_tc corpus/tc -max_total_time=60

.DEFAULT_GOAL	:= all
FUZZ_OUT	?= build
FUZZ_CC		?= clang
FUZZ_FLAGS	?= -g -O1 -fsanitize=fuzzer,address,undefined \
		   -fno-sanitize-recover=undefined
VPMU_TOOLS	:= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../../vpmu)
include $(VPMU_TOOLS)/sources.mk

FUZZ_TARGETS	+= fuzz_tc

$(FUZZ_OUT)/fuzz_tc: $(CURDIR)/fuzz_tc.c $(VPMU_ASM_SRCS) $(VPMU_ASM_HDRS) \
		     $(TOP)/tools/testing/host/tc_pair.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(VPMU_ASM_CPPFLAGS) -I$(TOP)/tools/testing/host \
		-DVPMU_TOP='"$(VPMU_TOP)"' $(VPMU_ASM_CFLAGS) \
		-Wno-missing-field-initializers $(FUZZ_FLAGS) -o $@ \
		$(CURDIR)/fuzz_tc.c $(VPMU_ASM_SRCS)

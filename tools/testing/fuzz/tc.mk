# SPDX-License-Identifier: GPL-2.0
#
# tc.mk - the translation cache's fuzz target, included by this
# directory's Makefile.  Appends fuzz_tc to FUZZ_TARGETS; its seed corpus
# is corpus/tc/ (written by hand: a byte of choices, a seed, machine code).
#
#   make build/fuzz_tc && mkdir -p build/corpus-fuzz_tc &&
#   ./build/fuzz_tc build/corpus-fuzz_tc corpus/tc -max_total_time=60
#
# It links the Makefile's objects of VPMU_ASM_SRCS (tools/vpmu/sources.mk).

FUZZ_TARGETS	+= fuzz_tc

$(FUZZ_OUT)/fuzz_tc: $(CURDIR)/fuzz_tc.c $(ASM_OBJS) $(VPMU_ASM_HDRS) \
		     $(TOP)/tools/testing/host/tc_pair.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -I$(TOP)/tools/testing/host \
		-DVPMU_TOP='"$(VPMU_TOP)"' -Wno-missing-field-initializers \
		-o $@ $(CURDIR)/fuzz_tc.c $(ASM_OBJS)

# SPDX-License-Identifier: GPL-2.0
#
# asm.mk - the toolchain's host tests, included by this directory's
# Makefile (-include asm.mk).  Appends to HOST_TESTS:
#
#   $(B)/test_asm          library tests: round trips, errors, the sample
#                          programs on the engine with exact counts
#   $(B)/test_asm-san      the same under ASan and UBSan
#
# test_asm_cli.sh (vpmu-as / vpmu-dis command lines; it builds the tools
# in tools/vpmu itself) runs as one of the test_*.sh scripts.  All print
# TAP.  The library and the engine core are compiled here from
# the sources tools/vpmu/sources.mk lists, with this Makefile's CC/CFLAGS.

# Keep the including Makefile's first target ("all") the default goal.
.DEFAULT_GOAL	:= all
HOST_OUT	?= $(or $(B),build)
VPMU_TOOLS	:= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../../vpmu)
include $(VPMU_TOOLS)/sources.mk

HOST_TESTS	+= $(HOST_OUT)/test_asm $(HOST_OUT)/test_asm-san

ASM_TEST_SRCS	:= $(CURDIR)/test_asm.c $(VPMU_ASM_SRCS)

$(HOST_OUT)/test_asm: $(ASM_TEST_SRCS) $(VPMU_ASM_HDRS) $(CURDIR)/tap.h \
		      $(VPMU_TOOLS)/sources.mk
	@mkdir -p $(dir $@)
	$(CC) $(VPMU_ASM_CPPFLAGS) -I$(CURDIR) -DVPMU_TOP='"$(VPMU_TOP)"' \
		$(VPMU_ASM_CFLAGS) $(or $(CFLAGS),-O2 -g) \
		-o $@ $(ASM_TEST_SRCS)

$(HOST_OUT)/test_asm-san: $(ASM_TEST_SRCS) $(VPMU_ASM_HDRS) $(CURDIR)/tap.h \
			  $(VPMU_TOOLS)/sources.mk
	@mkdir -p $(dir $@)
	$(CC) $(VPMU_ASM_CPPFLAGS) -I$(CURDIR) -DVPMU_TOP='"$(VPMU_TOP)"' \
		$(VPMU_ASM_CFLAGS) $(or $(CFLAGS),-O2 -g) $(SAN) \
		-o $@ $(ASM_TEST_SRCS)

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
# TAP.  The program links the Makefile's objects of the sources
# tools/vpmu/sources.mk lists (VPMU_ASM_SRCS: the library, the engine core
# and the histogram unit's text format).

HOST_TESTS	+= $(B)/test_asm $(B)/test_asm-san
test_asm_SRCS	:= $(VPMU_ASM_SRCS)

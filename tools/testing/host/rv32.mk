# SPDX-License-Identifier: GPL-2.0
#
# rv32.mk - the RV32IM microcode's host tests, included by this
# directory's Makefile.  Appends to HOST_TESTS:
#
#   $(B)/test_rv32        every RV32IM instruction and its corner cases on
#                         the engine (test_rv32.c), rv32im.vus assembled
#                         by the toolchain library
#   $(B)/test_rv32-san    the same under ASan and UBSan
#
# test_rv32.sh (the C samples and random programs against qemu-riscv32)
# runs as one of the test_*.sh scripts.

HOST_TESTS	+= $(B)/test_rv32 $(B)/test_rv32-san
test_rv32_SRCS	:= $(CTX_SRCS)

# SPDX-License-Identifier: GPL-2.0
#
# The vpmu toolchain library's sources and flags, for the tools' Makefile
# and for the test and fuzz builds that link the assembler.  Include it
# with VPMU_TOOLS set to this directory (absolute or relative).

VPMU_TOOLS	?= $(dir $(lastword $(MAKEFILE_LIST)))
VPMU_TOP	:= $(abspath $(VPMU_TOOLS)/../..)
VPMU_CORE	:= $(VPMU_TOP)/drivers/perf/vpmu
VPMU_ENGINE	:= $(VPMU_CORE)/engine

# The engine core, shared with the module (drivers/perf/vpmu/engine/): the
# ISA tables (vpmu_isa.c), the image validator (vpmu_validate.c, which
# also has the CRC and the seal, and vpmu_validate_uword.c, a microword's
# checks) and the engine (vpmu_engine_priv.h says which file holds what).
# The module's list is drivers/perf/vpmu/Makefile's; the lint tier checks that
# the two agree.  The host tests, fuzzers and benchmarks take this one.
VPMU_CORE_SRCS	:= $(addprefix $(VPMU_ENGINE)/, \
		     vpmu_run.c vpmu_plan.c vpmu_uop_build.c vpmu_interp.c \
		     vpmu_tc_exec.c \
		     vpmu_triggers.c vpmu_counters.c vpmu_upc_hist.c \
		     vpmu_tc_pool.c vpmu_tc_cache.c vpmu_tc_translate.c \
		     vpmu_tc_emit.c vpmu_hist_unit.c \
		     vpmu_events.c vpmu_validate.c vpmu_validate_uword.c \
		     vpmu_isa.c)

# The assembler, which the module's build also runs on the host to make the
# default image from ucode/default.vus (drivers/perf/vpmu/asm/): buffers
# and whole files (vpmu_buf.c), the views and helpers the assembler and the
# disassembler share (vpmu_tool.c) and the assembler (vpmu_asm.c, and
# vpmu_asm_lex.c, vpmu_asm_ucode.c and vpmu_asm_prog.c, which share
# vpmu_asm_priv.h with it).  The toolchain library adds the disassembler
# (vpmu_dis.c) and the ELF files (vpmu_elf.c), each with its header.
VPMU_ASM_DIR	:= $(VPMU_CORE)/asm
VPMU_LIB_SRCS	:= $(addprefix $(VPMU_ASM_DIR)/, \
		     vpmu_buf.c vpmu_tool.c vpmu_asm.c vpmu_asm_lex.c \
		     vpmu_asm_ucode.c vpmu_asm_prog.c) \
		   $(addprefix $(VPMU_TOP)/tools/vpmu/, vpmu_dis.c vpmu_elf.c)
VPMU_LIB_HDRS	:= $(addprefix $(VPMU_ASM_DIR)/, \
		     vpmu_buf.h vpmu_tool.h vpmu_asm.h vpmu_asm_priv.h) \
		   $(addprefix $(VPMU_TOP)/tools/vpmu/, vpmu_dis.h vpmu_elf.h)

# vpmu-hist's library: micro-PC histogram files and the producer on the
# engine (vpmu_hist_file.c), the image as the reports see it
# (vpmu_hist_img.c), histograms of perf samples (vpmu_hist_perf.c), the
# report and the plot (vpmu_hist_report.c) and the histogram unit's
# buckets (vpmu_hist_hu.c), each with its header.
VPMU_HIST_SRCS	:= $(addprefix $(VPMU_TOP)/tools/vpmu/, \
		     vpmu_hist_file.c vpmu_hist_img.c vpmu_hist_perf.c \
		     vpmu_hist_report.c vpmu_hist_hu.c)

# vpmu_objs DIR,SOURCES - where a build that compiles each of SOURCES once
# puts its objects: the module's in DIR (the engine's in DIR/engine, the
# assembler's in DIR/asm), the tools' in DIR/tools.
vpmu_objs	= $(patsubst $(VPMU_CORE)/%.c,$(1)/%.o, \
		  $(patsubst $(VPMU_TOP)/tools/vpmu/%.c,$(1)/tools/%.o,$(2)))

# The histogram unit's program: as the uapi struct (vpmu_hu_uapi.c, shared
# with the module) and as text (vpmu_hu_text.c, the tools' own), which
# vpmu-sim and vpmu-hist take.
VPMU_HU_TEXT_SRCS := $(VPMU_CORE)/vpmu_hu_uapi.c \
		     $(VPMU_TOP)/tools/vpmu/vpmu_hu_text.c
VPMU_ASM_SRCS	:= $(VPMU_LIB_SRCS) $(VPMU_CORE_SRCS) $(VPMU_HU_TEXT_SRCS)
# Not the headers the top Makefile generates for the module
# (vpmu_default_image_data.h, vpmu_version.h): no tool includes them, and
# they are written after vpmu-as is built (the image comes from it), so
# as prerequisites they would make a second build of a fresh tree
# rebuild every object.
VPMU_GEN_HDRS	:= $(addprefix $(VPMU_CORE)/, vpmu_default_image_data.h \
		     vpmu_version.h)
VPMU_ASM_HDRS	:= $(VPMU_LIB_HDRS) \
		   $(filter-out $(VPMU_GEN_HDRS), $(wildcard $(VPMU_CORE)/*.h)) \
		   $(wildcard $(VPMU_ENGINE)/*.h) \
		   $(VPMU_TOP)/include/uapi/linux/vpmu.h
VPMU_ASM_CPPFLAGS := -I$(VPMU_TOP)/include/uapi -I$(VPMU_CORE) -I$(VPMU_ENGINE) \
		     -I$(VPMU_ASM_DIR) -I$(VPMU_TOP)/tools/vpmu
VPMU_ASM_CFLAGS	:= -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter

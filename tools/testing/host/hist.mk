# SPDX-License-Identifier: GPL-2.0
#
# hist.mk - vpmu-hist's host tests, included by this directory's Makefile
# (-include hist.mk).  Appends to HOST_TESTS:
#
#   $(B)/test_uhist        the histogram producer against the engine on
#                         every sample (K = 1 and K > 1, exact), the
#                         file round trip and sums
#   $(B)/test_uhist-san    the same under ASan and UBSan
#
# test_hist_cli.sh (the vpmu-hist command line: golden report, round trip
# through a file, error cases, --plot, and --buckets, the histogram unit's
# buckets, on hand-made files and vpmu-sim --hu output; it builds vpmu-as,
# vpmu-hist and vpmu-sim itself and installs gnuplot-nox with apt-get when
# it is missing and it may) runs as one of the test_*.sh scripts.

.DEFAULT_GOAL	:= all
HOST_OUT	?= $(or $(B),build)
VPMU_TOOLS	:= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/../../vpmu)
include $(VPMU_TOOLS)/sources.mk

HOST_TESTS	+= $(HOST_OUT)/test_uhist $(HOST_OUT)/test_uhist-san

UHIST_TEST_SRCS	:= $(CURDIR)/test_uhist.c $(VPMU_TOOLS)/vpmu_uhist.c \
		   $(VPMU_ASM_SRCS)
UHIST_TEST_DEPS	:= $(UHIST_TEST_SRCS) $(VPMU_ASM_HDRS) $(CURDIR)/tap.h \
		   $(VPMU_TOOLS)/vpmu_uhist.h $(VPMU_TOOLS)/sources.mk
UHIST_TEST_CC	= $(CC) $(VPMU_ASM_CPPFLAGS) -I$(CURDIR) \
		  -DVPMU_TOP='"$(VPMU_TOP)"' $(VPMU_ASM_CFLAGS) \
		  $(or $(CFLAGS),-O2 -g)

$(HOST_OUT)/test_uhist: $(UHIST_TEST_DEPS)
	@mkdir -p $(dir $@)
	$(UHIST_TEST_CC) -o $@ $(UHIST_TEST_SRCS)

$(HOST_OUT)/test_uhist-san: $(UHIST_TEST_DEPS)
	@mkdir -p $(dir $@)
	$(UHIST_TEST_CC) $(SAN) -o $@ $(UHIST_TEST_SRCS)

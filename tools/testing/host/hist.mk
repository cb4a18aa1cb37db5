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

HOST_TESTS	+= $(B)/test_uhist $(B)/test_uhist-san
# vpmu_hist_hu.c writes --json through vpmu_json.c.
test_uhist_SRCS	:= $(VPMU_HIST_SRCS) $(VPMU_TOP)/tools/vpmu/vpmu_json.c \
		   $(VPMU_ASM_SRCS)

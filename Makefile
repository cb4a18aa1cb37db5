# SPDX-License-Identifier: GPL-2.0
#
# Wrapper Makefile for vpmu.  Kbuild (one line) describes the module; this
# file adds the userspace parts and the test tiers.
#
#   make                    module against KDIR, plus the tools
#   make modules KDIR=...   module only, against the given kernel headers
#   make tools              vpmu-as, vpmu-dis, ... (host C)
#   make check              every test tier; ends with "N passed, N failed"
#   make host-check         host tier only (no VM)
#   make vm-check           VM tier on the stock 6.1 and 6.12 kernels
#   make debug-check        VM tier on the KASAN/lockdep/kmemleak kernel
#   make demo               boot a VM with the module and show it via perf
#   make bench              host benchmarks (callgrind instruction counts)
#   make vm-bench           in a VM: kernel engine vs its host build, image load
#   make perf-bench         in a VM: what perf counting and sampling cost
#   make feature-bench      in a VM: what triggers and the micro-PC histogram cost
#   make chunk-bench        in a VM: the longest run chunk with interrupts off

KDIR	?= /lib/modules/$(shell uname -r)/build
TOP	:= $(CURDIR)

.PHONY: all ucode modules modules_install tools selftests check host-check \
	vm-check debug-check demo bench clean

all: modules tools

# The built-in microcode: assembled by vpmu-as, included by vpmu_ucode.c.
# The header is only rewritten when its content changes, so Kbuild does not
# rebuild the module for nothing.
UCODE_H	:= drivers/perf/vpmu/vpmu_default_ucode.h

ucode:
	@$(MAKE) --no-print-directory -C tools/vpmu ucode
	@cmp -s tools/vpmu/build/vpmu_default_ucode.c $(UCODE_H) || \
		cp tools/vpmu/build/vpmu_default_ucode.c $(UCODE_H)

modules: ucode
	@test -d $(KDIR) || { echo "vpmu: no kernel headers at $(KDIR);" \
		"install linux-headers-\$$(uname -r) or pass KDIR=" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) modules

modules_install:
	$(MAKE) -C $(KDIR) M=$(TOP) modules_install

tools:
	$(MAKE) -C tools/vpmu

selftests:
	$(MAKE) -C selftests/vpmu

check:
	@tools/testing/check.sh

host-check:
	@$(MAKE) --no-print-directory -C tools/testing/host check

vm-check:
	@tools/testing/vm/vm-check.sh stock

debug-check:
	@tools/testing/vm/vm-check.sh debug

demo:
	@tools/testing/vm/demo.sh

bench:
	@$(MAKE) --no-print-directory -C tools/testing/bench bench

.PHONY: vm-bench perf-bench feature-bench chunk-bench
vm-bench:
	@tools/testing/bench/vm-bench.sh
perf-bench:
	@tools/testing/bench/perf-bench.sh
feature-bench:
	@tools/testing/bench/feature-bench.sh
chunk-bench:
	@tools/testing/bench/chunk-bench.sh

clean:
	-test -d $(KDIR) && $(MAKE) -C $(KDIR) M=$(TOP) clean
	rm -f $(UCODE_H)
	$(MAKE) -C tools/vpmu clean
	$(MAKE) -C tools/testing/host clean
	$(MAKE) -C tools/testing/fuzz clean
	$(MAKE) -C tools/testing/bench clean
	$(MAKE) -C selftests/vpmu clean

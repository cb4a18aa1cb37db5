# SPDX-License-Identifier: GPL-2.0
#
# Wrapper Makefile for vpmu.  Kbuild (one line) describes the module; this
# file adds the userspace parts and the test tiers.
#
#   make                    module against KDIR, plus the tools
#   make modules KDIR=...   module only, against the given kernel headers
#   make tools              vpmu-as, vpmu-dis, ... (host C)
#   make install            tools, man pages, bash completion, share files
#                           and the RV32 samples built (lib/vpmu) under
#                           PREFIX (default /usr/local), the
#                           module source under /usr/src/vpmu-VERSION, and,
#                           with dkms present and no DESTDIR, DKMS builds it
#                           for every kernel with headers; DESTDIR is
#                           honoured, DKMS=0 skips DKMS
#   make uninstall          the reverse (dkms remove, then the files)
#   make deb                vpmu-dkms and vpmu-tools packages in build/deb/
#   make in-tree KSRC=dir   add vpmu to a kernel source tree: the driver with
#                           its Kconfig (PERF_VPMU), the uapi header, the
#                           kselftests and the documentation
#   make series [KVER=7.3]  vpmu as a kernel patch series for Linux KVER
#                           (default: Debian's newest 7.x source) in
#                           upstream/vpmu/; SERIES_CHECK=1 also checks and
#                           builds every patch
#   make check              every test tier; ends with "N passed, N failed"
#   make host-check         host tier only (no VM)
#   make vm-check           VM tier on the stock 6.1 and 6.12 kernels
#   make debug-check        VM tier on the debug kernels (KASAN or KCSAN,
#                           lockdep, kmemleak, fault injection)
#   make demo               boot a VM with the module and show it via perf
#   make bench              host benchmarks (callgrind instruction counts)
#   make vm-bench           in a VM: kernel engine vs its host build, image load
#   make perf-bench         in a VM: what perf counting and sampling cost
#   make feature-bench      in a VM: what triggers and the micro-PC histogram cost
#   make chunk-bench        in a VM: the longest run chunk with interrupts off

KDIR	?= /lib/modules/$(shell uname -r)/build
TOP	:= $(CURDIR)

# The version is set in one place, the first line of debian/changelog
# ("vpmu (0.1.0) unstable; ..."); the packages, dkms.conf and the
# /usr/src directory all take it from there.
VERSION	:= $(shell sed -n '1s/^vpmu (\([^ ]*\)) .*/\1/p' $(TOP)/debian/changelog)

.PHONY: all ucode version-h modules modules_install tools selftests check \
	host-check vm-check debug-check demo bench clean install uninstall \
	install-tools install-dkms-src uninstall-tools deb pkg-check

all: modules tools

# The built-in microcode: assembled at build time by Kbuild's host program
# (drivers/perf/vpmu/Makefile, vpmu_mkimage), which writes
# vpmu_default_image_data.h in the build directory; "make ucode" is
# tools/vpmu's image (build/default.vpmu) and its C source.
UCODE_H	:= drivers/perf/vpmu/vpmu_default_image_data.h

ucode:
	@$(MAKE) --no-print-directory -C tools/vpmu ucode VERSION=$(VERSION)

# The version for MODULE_VERSION (modinfo, /sys/module/vpmu/version), from
# VERSION above; rewritten only when it changes, so that Kbuild does not
# rebuild the module for nothing.  The module's source copies (DKMS, a
# kernel tree) carry it: they have no debian/changelog.
VERSION_H := drivers/perf/vpmu/vpmu_version.h

version-h:
	@test -n "$(VERSION)" || { echo "vpmu: no version in debian/changelog" >&2; exit 1; }
	@printf '%s\n' '/* SPDX-License-Identifier: GPL-2.0 */' \
		'/* Generated from debian/changelog by the Makefile: do not edit. */' \
		'#define VPMU_MODULE_VERSION "$(VERSION)"' >$(VERSION_H).tmp
	@if cmp -s $(VERSION_H).tmp $(VERSION_H); then rm -f $(VERSION_H).tmp; \
	else mv $(VERSION_H).tmp $(VERSION_H); fi

# The kernel tree the module's objects were built for: its path and its
# configuration.  Kbuild names an external module's kernel headers by paths
# relative to the kernel tree, so built again against another tree (a
# different KDIR) every object would look up to date, and the module would
# link one kernel's code with another's struct module: refused at insmod
# ("section size must match the kernel's built struct module size") or
# worse.  When the kernel changes, the module's build products go first.
KDIR_STAMP := .vpmu-kdir

modules: version-h
	@test -d $(KDIR) || { echo "vpmu: no kernel headers at $(KDIR);" \
		"install linux-headers-\$$(uname -r) or pass KDIR=" >&2; exit 1; }
	@id="$$(realpath $(KDIR)) $$(cat $(KDIR)/include/config/auto.conf \
		2>/dev/null | sha256sum | cut -c1-16)"; \
	if [ "$$(cat $(KDIR_STAMP) 2>/dev/null)" != "$$id" ]; then \
		rm -rf $(KBUILD_JUNK) .tmp_versions; \
		echo "$$id" >$(KDIR_STAMP); \
	fi
	$(MAKE) -C $(KDIR) M=$(TOP) modules

modules_install:
	$(MAKE) -C $(KDIR) M=$(TOP) modules_install

tools:
	$(MAKE) -C tools/vpmu VERSION=$(VERSION)

selftests:
	$(MAKE) -C selftests/vpmu

check:
	@tools/testing/check.sh

# The host tests build in parallel (each links its own copy of the engine
# core, with and without sanitizers); they run one at a time.
host-check:
	@$(MAKE) --no-print-directory -j$(shell nproc) -C tools/testing/host check

vm-check:
	@tools/testing/vm/vm-check.sh stock

debug-check:
	@rc=0; tools/testing/vm/vm-check.sh debug || rc=1; \
	tools/testing/vm/kcsan-selfcheck.sh || rc=1; exit $$rc

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

# --- installing ------------------------------------------------------------
#
# PREFIX and DESTDIR apply to the tools, man pages, share files and RV32
# samples; the module source goes where DKMS looks for it,
# $(DESTDIR)/usr/src/vpmu-VER (dkms.conf's #MODULE_VERSION# filled in, as
# dh_dkms -V does), with the generated vpmu_version.h in it; DKMS builds
# the module with nothing but the kernel's own Kbuild, which builds the
# assembler as a host program to make the default image.

PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
MANDIR	?= $(PREFIX)/share/man
SHAREDIR ?= $(PREFIX)/share/vpmu
# The RV32 C samples built (ELF files: not in share/; SHAREDIR's build/rv32
# and build/rv32c link to them).
RV32DIR	?= $(PREFIX)/lib/vpmu
# Bash completion: one file for the six tools, under each tool's name.
COMPLETIONSDIR ?= $(PREFIX)/share/bash-completion/completions
DKMS	?= 1
DKMS_SRC := /usr/src/vpmu-$(VERSION)

VPMU_TOOLS := vpmu-as vpmu-dis vpmu-run vpmu-load vpmu-sim vpmu-hist
# vpmu-cc, a wrapper of the cross compiler: gcc's options, no completion
VPMU_SCRIPTS := vpmu-cc
MAN1	:= $(addprefix tools/vpmu/man/,$(addsuffix .1,$(VPMU_TOOLS) $(VPMU_SCRIPTS)))
MAN4	:= tools/vpmu/man/vpmu.4
# The module's sources; %.mod.c is Kbuild's output of an in-tree build.
DKMS_FILES := $(sort Kbuild dkms.conf include/uapi/linux/vpmu.h \
	      drivers/perf/vpmu/Makefile drivers/perf/vpmu/ucode/default.vus \
	      $(filter-out %.mod.c $(UCODE_H),$(wildcard drivers/perf/vpmu/*.[ch])) \
	      $(wildcard drivers/perf/vpmu/engine/*.[ch]) \
	      $(wildcard drivers/perf/vpmu/asm/*.[ch]) $(VERSION_H))

install: install-tools install-dkms-src
	@if [ -z "$(DESTDIR)" ] && [ "$(DKMS)" = 1 ] && \
	    command -v dkms >/dev/null; then \
		$(MAKE) --no-print-directory dkms-register; \
	else \
		echo "vpmu: module source in $(DESTDIR)$(DKMS_SRC); build it" \
			"with: dkms install vpmu/$(VERSION)"; \
	fi

# Register the source with DKMS and build and install the module for every
# kernel that has its headers (/lib/modules/KVER/build); later kernels get
# it from DKMS's kernel hook (AUTOINSTALL).
.PHONY: dkms-register
dkms-register:
	@dkms status -m vpmu -v $(VERSION) | grep -q . || \
		dkms add -m vpmu -v $(VERSION)
	@for b in /lib/modules/*/build; do \
		[ -d "$$b/" ] || continue; \
		k=$${b#/lib/modules/}; k=$${k%/build}; \
		dkms install -m vpmu -v $(VERSION) -k "$$k" || exit 1; \
	done

install-tools: tools
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man4
	install -m 0755 $(addprefix tools/vpmu/,$(VPMU_TOOLS) $(VPMU_SCRIPTS)) \
		$(DESTDIR)$(BINDIR)
	install -m 0644 $(MAN1) $(DESTDIR)$(MANDIR)/man1
	install -m 0644 $(MAN4) $(DESTDIR)$(MANDIR)/man4
	install -d $(DESTDIR)$(COMPLETIONSDIR)
	install -m 0644 tools/vpmu/completion/vpmu \
		$(DESTDIR)$(COMPLETIONSDIR)/vpmu-as
	for t in $(filter-out vpmu-as,$(VPMU_TOOLS)); do \
		ln -sf vpmu-as $(DESTDIR)$(COMPLETIONSDIR)/$$t || exit 1; \
	done
	$(MAKE) --no-print-directory -C tools/vpmu install-share \
		DESTDIR=$(DESTDIR) SHAREDIR=$(SHAREDIR) RV32DIR=$(RV32DIR)

install-dkms-src: version-h
	for f in $(DKMS_FILES); do \
		install -D -m 0644 $$f $(DESTDIR)$(DKMS_SRC)/$$f || exit 1; \
	done
	sed -i 's/#MODULE_VERSION#/$(VERSION)/' $(DESTDIR)$(DKMS_SRC)/dkms.conf

uninstall:
	@if [ -z "$(DESTDIR)" ] && command -v dkms >/dev/null && \
	    dkms status -m vpmu -v $(VERSION) | grep -q .; then \
		echo "dkms remove vpmu/$(VERSION) --all"; \
		dkms remove -m vpmu -v $(VERSION) --all; \
	fi
	rm -rf $(DESTDIR)$(DKMS_SRC)
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(VPMU_TOOLS) $(VPMU_SCRIPTS))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1)))
	rm -f $(DESTDIR)$(MANDIR)/man4/$(notdir $(MAN4))
	rm -f $(addprefix $(DESTDIR)$(COMPLETIONSDIR)/,$(VPMU_TOOLS))
	rm -rf $(DESTDIR)$(SHAREDIR) $(DESTDIR)$(RV32DIR)

# tools/pkg/in-tree.sh says what goes where; it makes the generated version
# header here first (the kernel tree has no debian/changelog).
.PHONY: in-tree
in-tree:
	@test -n "$(KSRC)" || { echo "vpmu: make in-tree KSRC=/path/to/linux" >&2; exit 1; }
	@tools/pkg/in-tree.sh $(KSRC)

# tools/pkg/series.sh: git format-patch output made in a git tree of
# Debian's linux-source-KVER (cached in VPMU_CACHE, not here).
.PHONY: series
series:
	@tools/pkg/series.sh $(if $(filter 1,$(SERIES_CHECK)),--check) $(KVER)

# vpmu-dkms and vpmu-tools, built with dpkg-buildpackage from a copy of the
# tree in build/deb/vpmu-VERSION/; the .deb, .changes and .buildinfo files
# land in build/deb/.  Installs the build dependencies with apt.
deb:
	@tools/pkg/make-deb.sh

# Build the packages, lint them, install them on this machine, test the
# installed tools and a DKMS build, and remove them again (root).
pkg-check:
	@tools/testing/pkg/check-pkg.sh

# Not "make -C KDIR M=. clean": Kbuild's clean deletes every *.s file under
# M, and the samples, programs and corpora here are *.s sources.  The
# module's build products are these.
KBUILD_JUNK := Module.symvers modules.order .*.cmd .module-common.o \
	       $(addprefix drivers/perf/vpmu/, *.o *.ko *.mod *.mod.c \
	       .*.cmd .*.d modules.order engine/*.o engine/.*.cmd engine/.*.d \
	       asm/*.o asm/.*.cmd asm/.*.d vpmu_mkimage $(notdir $(UCODE_H))) \
	       drivers/perf/.*.cmd drivers/perf/modules.order

clean:
	rm -rf $(KBUILD_JUNK) .tmp_versions $(KDIR_STAMP)
	rm -f $(VERSION_H)
	$(MAKE) -C tools/vpmu clean
	$(MAKE) -C tools/testing/host clean
	$(MAKE) -C tools/testing/fuzz clean
	$(MAKE) -C tools/testing/bench clean
	$(MAKE) -C selftests/vpmu clean
	rm -rf build/deb

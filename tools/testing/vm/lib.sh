# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib.sh - shared code of the vpmu VM harness (sourced, not run): the
# paths below, log and die, and the parts in lib/, one concern each,
# sourced here in this order:
#
#   lib/flavours.sh    the kernel flavours (VM_FLAVOURS) and their runs'
#                      names; first, as debug.sh reads the table
#   lib/packages.sh    the host's packages (apt), the trixie build root
#                      made from the host's Debian mirror
#   lib/kernels.sh     the stock and newest kernels: found, downloaded,
#                      extracted
#   lib/builds.sh      the work tree's copies: the module, the selftests
#                      and tools, the kselftest target in a kernel tree
#   lib/debug.sh       the debug kernels, built here
#   lib/initramfs.sh   the guest's initramfs
#   lib/guest.sh       one run (its record, VM_RUN): its kernel prepared,
#                      its guest booted under QEMU, its result; the
#                      self-check's runs
#   lib/logs.sh        the serial log's analysis: splats, the result
#
# Everything the harness downloads or builds lives under $VPMU_CACHE
# (default ~/.cache/vpmu), never in the repository:
#
#   debs/                     downloaded kernel image packages
#   kernels/<kver>/           extracted image packages (vmlinuz)
#   ksft/<srcver>/            kselftest.h, kselftest_harness.h, lib.mk and
#                             the runner of linux-source-6.1
#   ksft/include              symlink to the newest of the above
#   debug-kernel/<key>/       the debug-tier kernel build tree
#   initramfs/base-<key>.cpio.gz   busybox + perf + shared libraries
#   src/<name>/               the copy vpmu.ko is built in, one a kernel,
#                             synced from whichever work tree builds
#   ksft-tree/<srcver>/       linux-source-6.12's selftests framework
#                             with vpmu added, and its install, the same
#   sparse/                   sparse's results by content (lint.sh)
#   guest-slots/              the machine's guest slots (run_guest)
#   vm-times/<flavour>        how long its last guest ran (vm-check.sh)
#   tree/<id>/src/<name>/     one work tree's other copies (selftests and
#                             tools, the lint tier's, helper modules)
#   tree/<id>/ko/, ksft-install/   its modules and kselftest install
#   tree/<id>/out/<run>/      its serial logs and initrds of the last runs
#   out                       link to the tree/<id>/out that ran last

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$VM_DIR/../../.." && pwd)
CACHE=${VPMU_CACHE:-$HOME/.cache/vpmu}
# What a run builds from this work tree and what it leaves (tree copies,
# serial logs, initrds) is the tree's own, so that two work trees (git
# worktrees, say) can test at once with one cache: tree/<id>/src and
# tree/<id>/out, <id> a checksum of the tree's path.  $CACHE/out links to
# the out/ of the tree that ran last.  But for the module's and the
# kselftest tree's builds (src/, ksft-tree/), whose kbuild or in-tree
# copies make a new clone rebuild everything: those are every tree's,
# synced by content under a lock, their products copied out to the
# tree's own place (lib/builds.sh).
VM_TREE=$CACHE/tree/$(printf '%s' "$TOP" | cksum | cut -d' ' -f1)
VM_SRC=$VM_TREE/src
VM_OUT=$VM_TREE/out
LINUX_SRC_PKG=linux-source-6.1
LINUX_SRC_TAR=/usr/src/linux-source-6.1.tar.xz

log() { printf '%s\n' "vm: $*" >&2; }
die() { printf '%s\n' "vm: error: $*" >&2; exit 1; }

# shellcheck source=lib/flavours.sh
. "$VM_DIR/lib/flavours.sh"
# shellcheck source=lib/packages.sh
. "$VM_DIR/lib/packages.sh"
# shellcheck source=lib/kernels.sh
. "$VM_DIR/lib/kernels.sh"
# shellcheck source=lib/builds.sh
. "$VM_DIR/lib/builds.sh"
# shellcheck source=lib/debug.sh
. "$VM_DIR/lib/debug.sh"
# shellcheck source=lib/initramfs.sh
. "$VM_DIR/lib/initramfs.sh"
# shellcheck source=lib/guest.sh
. "$VM_DIR/lib/guest.sh"
# shellcheck source=lib/logs.sh
. "$VM_DIR/lib/logs.sh"

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""series_src.py - vpmu's sources as the kernel patch series carries them.

    series_src.py KVER OUTDIR

Copies the files of the series (SERIES below: the uapi header, the driver
with its engine, assembler and default microcode, the selftests, the
kernel's document and the ABI files) from this tree into OUTDIR, at their
places in this tree, and makes them what a patch for one kernel, KVER
(major.minor: 6.12, 7.3, ...), carries instead of what the out-of-tree
module needs to build on every kernel it supports:

  - vpmu_compat.h resolved for KVER: its macros replaced by what they
    expand to there, its #include lines dropped, the file left out;
  - the out-of-tree build's parts of the Makefiles dropped (M= builds,
    the uapi include path, the selftests' build outside a kernel tree and
    the host tier's program generator), and the bench-only padding;
  - vpmu_version.h kept, without the note on how this tree generates it;
  - the perf core bugs' reproducers left out of the selftests (the perf
    core series in upstream/ are their fixes).

Every edit must apply where it is written: an edit that finds nothing
(this tree changed under it) is an error, and so is any trace of the
compat header left in OUTDIR afterwards.  Nothing else changes: the
result is checked as the series (tools/pkg/series.sh) and the files
without compat code are what both build.
"""

import fnmatch
import os
import re
import shutil
import sys

TOP = os.path.realpath(os.path.join(os.path.dirname(__file__), '..', '..'))

# (directory, name patterns): the series' files in this tree, not below.
SERIES = [
    ('include/uapi/linux', ['vpmu.h']),
    ('drivers/perf/vpmu', ['*.c', '*.h', 'Kconfig', 'Makefile', '.gitignore']),
    ('drivers/perf/vpmu/engine', ['*.c', '*.h']),
    ('drivers/perf/vpmu/asm', ['*.c', '*.h']),
    ('drivers/perf/vpmu/ucode', ['default.vus']),
    ('selftests/vpmu', ['*.c', '*.h', '*.sh', 'Makefile', 'config',
                        'settings', '.gitignore']),
    ('Documentation/admin-guide/perf', ['vpmu.rst']),
    ('Documentation/ABI/testing', ['*-vpmu', '*-vpmu_hu']),
]

# Not in the series: the compat header (resolved below), Kbuild's outputs,
# the reproducers of perf core bugs (they crash or fail unfixed kernels),
# and the maker of random RV32 programs from the host tier's generator
# (which vpmu_rv32_stat.sh runs when they are there).
LEFT_OUT = {
    'drivers/perf/vpmu/vpmu_compat.h',
    'drivers/perf/vpmu/vpmu_default_image_data.h',
    'selftests/vpmu/perf_core_child_times.c',
    'selftests/vpmu/perf_core_detached_leader.c',
    'selftests/vpmu/vpmu_rv32_ref.sh',
}


def die(msg):
    sys.stderr.write('series_src: %s\n' % msg)
    sys.exit(1)


def kver_tuple(kver):
    m = re.fullmatch(r'(\d+)\.(\d+)', kver)
    if not m:
        die('KVER is major.minor (6.12, 7.3), not %r' % kver)
    return int(m.group(1)), int(m.group(2))


def compat_tokens(kver):
    """What vpmu_compat.h's names expand to on KVER (its #if branches)."""
    v = kver_tuple(kver)
    if v < (6, 12):
        # before perf_sample_save_raw_data() took the event, per-task
        # events on perf_sw_context (6.1): the series targets newer ones
        die('the series targets 6.12 or later, not %s' % kver)
    if (6, 13) <= v < (6, 16):
        die('%s names the bin_attribute members read_new/write_new: '
            'not a target of the series' % kver)
    const = 'const ' if v >= (6, 13) else ''
    # attr.config4 (PERF_ATTR_SIZE_VER9): 7.3 has it, 6.12 has not (its
    # test goes with the field).
    if v >= (7, 0):
        config4 = (r'\bVPMU_ATTR_CONFIG4\((\w+)\)', r'\1->config4')
    else:
        config4 = (r' \|\|\s+VPMU_ATTR_CONFIG4\(\w+\)', '')
    return [
        # (regex, replacement)
        (r'#include "vpmu_compat\.h"\n', ''),
        (r'\bVPMU_TASK_CTX\b', 'perf_hw_context'),
        (r'\bVPMU_ATTR_CONFIG3\((\w+)\)', r'\1->config3'),
        config4,
        (r'\bVPMU_BIN_CONST ', const),
        (r'\bVPMU_BIN_READ\b', 'read'),
        (r'\bVPMU_BIN_WRITE\b', 'write'),
        (r'\bVPMU_GROUP_BIN_ATTRS\b', 'bin_attrs'),
        # 6.12.13 and later: the event's sample_type is checked inside
        (r'\bvpmu_sample_save_raw\(', 'perf_sample_save_raw_data('),
        (r'\bVPMU_GROUP_VALIDATE && ', ''),
    ]


# Every name vpmu_compat.h defines must be one compat_tokens() resolves
# (or one the series' kernels define themselves): a name added there
# without a rule here is an error, not a compat macro left in the series.
KERNEL_HAS = {'kmalloc_obj', 'kzalloc_obj', 'VPMU_SAVE_RAW_HAS_EVENT',
              '_VPMU_COMPAT_H'}

# (file, old, new): exact edits, each of which must match once.
EDITS = [
    ('drivers/perf/vpmu/vpmu_pmu.c',
     '''	/*
	 * A group that can never be on the counters is refused, where the
	 * perf core lets event_init walk the group (VPMU_GROUP_VALIDATE);
	 * elsewhere such a group opens and never runs.
	 */
''',
     '''	/* A group that can never be on the counters is refused. */
'''),
    ('drivers/perf/vpmu/vpmu_loader.c',
     '''/* BIN_ATTR_ADMIN_RW(image, 0), with the members vpmu_compat.h names. */
static struct bin_attribute bin_attr_image = {
	.attr = { .name = "image", .mode = 0600 },
	.VPMU_BIN_READ = image_read,
	.VPMU_BIN_WRITE = image_write,
};
''',
     '''static BIN_ATTR_ADMIN_RW(image, 0);
'''),
    # the note on where this tree's version header comes from
    ('drivers/perf/vpmu/vpmu_main.c',
     re.compile(r'/\*[^\n]*\*/\n(#include "vpmu_version\.h"\n)'), r'\1'),
    ('drivers/perf/vpmu/vpmu_main.c',
     re.compile(r'#ifdef VPMU_BENCH_PAD\n.*?\n#endif\n\n', re.S), ''),
    ('drivers/perf/vpmu/vpmu_version.h',
     re.compile(r'^/\*(?! SPDX)[^\n]*\*/\n', re.M),
     '/* The release of vpmu this driver is (MODULE_VERSION). */\n'),
    # a measuring knob's description names this tree's make target
    ('drivers/perf/vpmu/vpmu_machine_run.c',
     '"make chunk-bench: time each /dev/vpmu chunk', '"time each /dev/vpmu chunk'),
    ('drivers/perf/vpmu/Makefile',
     re.compile(r'\n# vpmu_default_image\.c includes .*?\n\n', re.S),
     '''
# vpmu_default_image.c includes vpmu_default_image_data.h, which the build
# makes from ucode/default.vus with the host program vpmu_mkimage (below).

'''),
    ('drivers/perf/vpmu/Makefile',
     re.compile(r'ccflags-y \+= -I\$\(src\)/\.\./\.\./\.\./include/uapi '
                r'-I\$\(src\)/engine\n\n# In a kernel tree, .*?\nendif\n',
                re.S),
     'ccflags-y += -I$(src)/engine\n\n'),
    ('drivers/perf/vpmu/Makefile',
     '-idirafter $(src)/../../../include/uapi',
     '-idirafter $(srctree)/include/uapi'),
    ('selftests/vpmu/Makefile',
     re.compile(r'# vpmu kselftests, on the kernel\'s selftests lib\.mk\. .*?'
                r'\n#\n# Binaries are static', re.S),
     '''# vpmu kselftests, on the kernel's selftests lib.mk:
# "make -C tools/testing/selftests TARGETS=vpmu", the same with
# "install INSTALL_PATH=dir", then dir/run_kselftest.sh -c vpmu.
#
# Binaries are static'''),
    ('selftests/vpmu/Makefile',
     '#   make [KSFT_INC=dir] [OUTPUT=dir]\n',
     '#   make [OUTPUT=dir]\n'),
    ('selftests/vpmu/Makefile',
     re.compile(r'ifneq \(\$\(wildcard \$\(SELF\)/\.\./lib\.mk\),\)\n'
                r'# tools/testing/selftests/vpmu of a kernel tree\n'
                r'(KSFT_DIR := [^\n]*\nROOT\t:= [^\n]*\n)else\n.*?endif\n',
                re.S),
     r'\1'),
    ('selftests/vpmu/Makefile',
     re.compile(r'# Reproducers of perf core bugs, .*?'
                r'TEST_GEN_FILES\t\+= perf_core_child_times\n', re.S),
     ''),
    ('selftests/vpmu/Makefile',
     '\n$(OUTPUT)/perf_core_child_times: $(LIB_OBJS)\n', ''),
    ('selftests/vpmu/Makefile',
     re.compile(r'# Random RV32 programs and qemu-riscv32\'s .*?\nendif\n',
                re.S), ''),
    ('selftests/vpmu/Makefile',
     re.compile(r'ifneq \(\$\(wildcard \$\(KSFT_DIR\)/lib\.mk\),\)\n'
                r'(include \$\(KSFT_DIR\)/lib\.mk\n)else.*?\nendif\n', re.S),
     r'\1'),
    ('selftests/vpmu/Makefile',
     re.compile(r'\n\n\$\(OUTPUT\)/rv32: [^\n]*\n(\t[^\n]*\n)*'), '\n'),
    ('selftests/vpmu/Makefile',
     re.compile(r'# The library\'s files, on one line: .*?\n(LIB_SRCS)', re.S),
     "# The library's files.\n\\1"),
    ('selftests/vpmu/.gitignore', 'perf_core_detached_leader\n', ''),
    ('selftests/vpmu/.gitignore', 'perf_core_child_times\n', ''),
    ('selftests/vpmu/.gitignore', 'rv32/\n', ''),
]

# What may not be left anywhere in OUTDIR.
LEFTOVERS = re.compile(r'vpmu_compat|LINUX_VERSION_CODE|KERNEL_VERSION\(|'
                       r'VPMU_BIN_|VPMU_TASK_CTX|VPMU_GROUP_VALIDATE|'
                       r'VPMU_ATTR_CONFIG[34]|vpmu_sample_save_raw|'
                       r'VPMU_BENCH_PAD|KBUILD_EXTMOD|KSFT_INC|'
                       r'perf_core_detached_leader|perf_core_child_times|'
                       r'gen_rv32')


def series_files():
    out = []
    for d, pats in SERIES:
        names = sorted(os.listdir(os.path.join(TOP, d)))
        for n in names:
            rel = os.path.join(d, n)
            if not os.path.isfile(os.path.join(TOP, rel)) or rel in LEFT_OUT:
                continue
            if n.endswith('.mod.c') or n.endswith('.o'):
                continue
            if any(fnmatch.fnmatch(n, p) for p in pats):
                out.append(rel)
    return out


def check_compat_names(kver):
    """Each name vpmu_compat.h defines is resolved or the kernel's."""
    text = open(os.path.join(TOP, 'drivers/perf/vpmu/vpmu_compat.h')).read()
    names = set(re.findall(r'^#define\s+(\w+)', text, re.M))
    names |= set(re.findall(r'^static inline \w+ (\w+)\(', text, re.M))
    rules = ' '.join(r for r, _ in compat_tokens(kver))
    for n in sorted(names - KERNEL_HAS):
        if n not in rules:
            die('vpmu_compat.h defines %s, which compat_tokens() does not '
                'resolve' % n)


def main():
    if len(sys.argv) != 3:
        die('usage: series_src.py KVER OUTDIR')
    kver, outdir = sys.argv[1], sys.argv[2]
    check_compat_names(kver)
    tokens = compat_tokens(kver)
    files = series_files()
    texts = {f: open(os.path.join(TOP, f)).read() for f in files}

    for f, old, new in EDITS:
        if f not in texts:
            die('%s: not in the series' % f)
        if isinstance(old, str):
            n = texts[f].count(old)
            texts[f] = texts[f].replace(old, new)
        else:
            texts[f], n = old.subn(new, texts[f])
        if n != 1:
            die('%s: an edit matched %d times, not once: %.60r' %
                (f, n, old if isinstance(old, str) else old.pattern))
    for f in files:
        if f.startswith('drivers/perf/vpmu/') and f.endswith(('.c', '.h')):
            for rx, rep in tokens:
                texts[f] = re.sub(rx, rep, texts[f])

    bad = []
    for f in files:
        for i, line in enumerate(texts[f].split('\n'), 1):
            if LEFTOVERS.search(line):
                bad.append('%s:%d: %s' % (f, i, line.strip()))
    if bad:
        die('left in the series:\n  ' + '\n  '.join(bad))

    if os.path.exists(outdir):
        shutil.rmtree(outdir)
    for f in files:
        dst = os.path.join(outdir, f)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, 'w') as out:
            out.write(texts[f])
        shutil.copymode(os.path.join(TOP, f), dst)
    print('series_src: %d files for %s in %s' % (len(files), kver, outdir))


if __name__ == '__main__':
    main()

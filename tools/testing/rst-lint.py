#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""rst-lint.py FILE... - report what the kernel's documentation parser
rejects in reStructuredText files.

Each FILE is parsed with docutils (the parser Sphinx uses); every system
message of level WARNING or worse ("Malformed table", "Unexpected
indentation", "Title underline too short", ...) is printed as
"FILE:LINE: (LEVEL/N) message", and the exit status is 1 if there was one.

Sphinx adds roles and directives that docutils alone does not know
(toctree, :ref:, :doc:, the C domain, the kernel's kernel-doc and
kernel-abi, ...).  They are registered here as no-ops, so only what the
parser itself rejects is reported; their targets are not resolved, which
would need the whole kernel tree.
"""

import collections
import io
import sys

import docutils.core
import docutils.nodes
from docutils.parsers.rst import Directive, directives, roles

SPHINX_ROLES = (
    "ref doc any numref term abbr file command program option envvar kbd "
    "samp manpage menuselection guilabel download "
    "c:func c:type c:macro c:data c:member c:struct c:enum c:union c:expr "
    "c:var c:texpr"
).split()

SPHINX_DIRECTIVES = (
    "toctree only index glossary seealso versionadded versionchanged "
    "deprecated highlight literalinclude hlist tabularcolumns centered "
    "code-block sourcecode c:function c:type c:macro c:struct c:enum "
    "c:union c:member c:var c:namespace kernel-doc kernel-abi kernel-feat "
    "kernel-include kernel-figure kernel-image kernel-render flat-table "
    "cssclass"
).split()


def sphinx_role(name, rawtext, text, lineno, inliner, options=None,
                content=None):
    """A Sphinx cross-reference: kept as literal text, not resolved."""
    return [docutils.nodes.literal(rawtext, text)], []


class SphinxDirective(Directive):
    """A Sphinx directive: any arguments and options; content ignored."""
    optional_arguments = 99
    final_argument_whitespace = True
    has_content = True
    option_spec = collections.defaultdict(lambda: directives.unchanged)

    def run(self):
        return []


def register():
    for name in SPHINX_ROLES:
        roles.register_local_role(name, sphinx_role)
    for name in SPHINX_DIRECTIVES:
        directives.register_directive(name, SphinxDirective)


def lint(path):
    """The messages for @path, one per line (the first line of each)."""
    stream = io.StringIO()
    settings = {
        "report_level": 2,          # WARNING and worse
        "halt_level": 5,            # never stop
        "warning_stream": stream,
        "file_insertion_enabled": False,
        "raw_enabled": False,
    }
    with open(path, encoding="utf-8") as f:
        docutils.core.publish_doctree(f.read(), source_path=path,
                                      settings_overrides=settings)
    return [line for line in stream.getvalue().splitlines()
            if line.startswith(path + ":")]


def main(argv):
    if len(argv) < 2:
        print("usage: rst-lint.py FILE...", file=sys.stderr)
        return 2
    register()
    bad = 0
    for path in argv[1:]:
        for line in lint(path):
            print(line)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""The generated parts of README.md and doc/: made from the code, checked by a test, never
written by hand.

  algorithms     the congestion controls, from the simulator's registry (`--list-cc`: name,
                 switch queue, summary), as a Markdown table in README.md and a reStructuredText
                 table in doc/model/congestion-control.rst; a name links to its page
                 doc/cc/<name>.rst when there is one
  first-program  README.md's excerpt of examples/dcon-first.cc: from the line "// The topology"
                 to the line "Simulator::Run();", as the file has it

A block sits between two marker lines, in Markdown
    <!-- generated: NAME (/usr/bin/python3 -m scripts.doc_blocks --write) -->
    <!-- end generated: NAME -->
and in reStructuredText
    .. generated: NAME (/usr/bin/python3 -m scripts.doc_blocks --write)
    .. end generated: NAME
Everything between the markers is replaced.

Usage: /usr/bin/python3 -m scripts.doc_blocks [--check | --write] [--binary BUILD/examples/PROGRAM]
--check (the default) exits 1 and shows the differences when a block is not what the code gives
(ctest python.doc_blocks); --write rewrites the blocks. A new algorithm in the library changes
the tables: run --write once it is built.
"""
import argparse
import difflib
import os
import re
import sys

from . import cc_names

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
README = os.path.join(ROOT, "README.md")
CC_DOC = os.path.join(ROOT, "doc", "model", "congestion-control.rst")
FIRST = os.path.join(ROOT, "examples", "dcon-first.cc")
COMMAND = "/usr/bin/python3 -m scripts.doc_blocks --write"


class BlockError(RuntimeError):
    """A file lacks a block's markers, or the source of a block cannot be read."""


def cc_page(name, root=ROOT):
    """The doc page of an algorithm ("cc/<name>"), or None if it has none."""
    return f"cc/{name}" if os.path.isfile(os.path.join(root, "doc", "cc", name + ".rst")) else None


def short_type(type_name):
    """"ns3::DconQueueDisc" -> "DconQueueDisc"."""
    return type_name.split("::")[-1]


def algorithms_markdown(entries, root=ROOT):
    """The Markdown table of [(name, queue, summary)]."""
    lines = ["| `--cc` | algorithm | switch queue |", "|---|---|---|"]
    for name, queue, summary in entries:
        page = cc_page(name, root)
        cell = f"[`{name}`](doc/{page}.rst)" if page else f"`{name}`"
        lines.append(f"| {cell} | {summary.replace('|', '/')} | `{short_type(queue)}` |")
    return "\n".join(lines)


def algorithms_rst(entries, root=ROOT):
    """The reStructuredText list-table of [(name, queue, summary)]."""
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: 12 62 26", "",
             "   * - ``--cc``", "     - algorithm", "     - switch queue"]
    for name, queue, summary in entries:
        page = cc_page(name, root)
        lines.append(f"   * - :doc:`{name} </{page}>`" if page else f"   * - ``{name}``")
        lines.append(f"     - {summary}")
        lines.append(f"     - ``{short_type(queue)}``")
    return "\n".join(lines)


def first_program_excerpt(path=FIRST):
    """The README's excerpt of the first program: "// The topology" to "Simulator::Run();",
    dedented, as a fenced C++ block."""
    with open(path) as f:
        lines = f.read().split("\n")
    try:
        start = next(i for i, l in enumerate(lines) if l.strip() == "// The topology: 2 spines, "
                     "2 leaves, 4 hosts per leaf.")
        end = next(i for i, l in enumerate(lines) if i > start and l.strip() == "Simulator::Run();")
    except StopIteration:
        raise BlockError(f"{path}: no '// The topology: ...' ... 'Simulator::Run();' region")
    region = lines[start:end + 1]
    indent = min(len(l) - len(l.lstrip()) for l in region if l.strip())
    return "```cpp\n" + "\n".join(l[indent:] for l in region) + "\n```"


def markers(name, rst):
    """(begin regex, begin line, end line) of block `name` in Markdown or reStructuredText."""
    if rst:
        return (re.compile(r"^\.\. generated: " + re.escape(name) + r"\b.*$", re.M),
                f".. generated: {name} ({COMMAND})", f".. end generated: {name}")
    return (re.compile(r"^<!-- generated: " + re.escape(name) + r"\b.*-->$", re.M),
            f"<!-- generated: {name} ({COMMAND}) -->", f"<!-- end generated: {name} -->")


def replace_block(text, name, body, rst, where="text"):
    """`text` with block `name` set to `body`; BlockError if its markers are missing."""
    begin_re, begin, end = markers(name, rst)
    m = begin_re.search(text)
    e = text.find("\n" + end, m.end() if m else 0)
    if not m or e < 0:
        raise BlockError(f"{where}: no block '{name}' (a line '{begin}' ... a line '{end}')")
    sep = "\n\n" if rst else "\n"
    return text[:m.start()] + begin + sep + body + sep + text[e + 1:]


def expected(files, entries, root=ROOT):
    """{path: the file's text with every block as the code gives it}."""
    out = {}
    for path, blocks in files.items():
        with open(path) as f:
            text = f.read()
        rst = path.endswith(".rst")
        for name in blocks:
            if name == "algorithms":
                body = algorithms_rst(entries, root) if rst else algorithms_markdown(entries, root)
            elif name == "first-program":
                body = first_program_excerpt(os.path.join(root, "examples", "dcon-first.cc"))
            else:
                raise BlockError(f"unknown block {name}")
            text = replace_block(text, name, body, rst, os.path.relpath(path, root))
        out[path] = text
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description="Check or write the generated parts of README.md "
                                 "and doc/ (the algorithm tables, the first program's excerpt).")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="exit 1 if a block is stale (default)")
    mode.add_argument("--write", action="store_true", help="rewrite the blocks")
    ap.add_argument("--binary", default=cc_names.DEFAULT_BINARY,
                    help="a simulator to ask for --list-cc (default: %(default)s)")
    args = ap.parse_args(argv)
    try:
        entries = cc_names.listing(args.binary)
        want = expected({README: ["algorithms", "first-program"], CC_DOC: ["algorithms"]},
                        entries)
    except (cc_names.CcListError, BlockError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    stale = []
    for path, text in want.items():
        with open(path) as f:
            have = f.read()
        if have == text:
            continue
        rel = os.path.relpath(path, ROOT)
        if args.write:
            with open(path, "w") as f:
                f.write(text)
            print(f"wrote {rel}")
        else:
            stale.append(rel)
            sys.stdout.writelines(difflib.unified_diff(
                have.splitlines(True), text.splitlines(True), rel, rel + " (generated)"))
    if stale:
        print(f"error: stale generated blocks in {', '.join(stale)}: run {COMMAND}",
              file=sys.stderr)
        return 1
    if not args.write:
        print(f"the generated blocks of README.md and doc/ are up to date "
              f"({len(entries)} algorithms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

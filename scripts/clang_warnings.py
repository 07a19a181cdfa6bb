"""Compile dcon's sources with clang, syntax only, and fail on any warning located in dcon's files.

CI's ns-3 step builds dcon in-tree with clang 19 and fails on any compiler warning in dcon's
files (scripts/check-ns3.sh); clang warns where GCC, the standalone build's compiler, does not
(a loop variable copied from a ``const Time``, a lambda capturing a constant it need not). That
step needs the ns-3.48 tree and about half an hour; this check answers the same question in
minutes from an existing build's ``compile_commands.json`` (scripts/test.sh's ``build/``): every
translation unit is parsed again by clang with the build's own flags, ``-fsyntax-only``, plus
``-Wall -Wextra -Wno-unused-parameter`` (dcon's warning set). Warnings located in ns-3's or the
standard library's headers are not dcon's and are left out, as check-ns3.sh leaves them.

    /usr/bin/python3 -m scripts.clang_warnings                  # every file of build/
    /usr/bin/python3 -m scripts.clang_warnings --base origin/main -j 2
                        # the files changed since a commit (all of them if a header changed)

Exit status 0: no warning in dcon's files; 1: warnings (printed, with their notes' first lines);
2: bad usage (no compile_commands.json, no clang, an unknown --base).
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WARNING_FLAGS = ["-Wall", "-Wextra", "-Wno-unused-parameter"]
# A diagnostic line: PATH:LINE:COLUMN: warning: TEXT [-Wname]
DIAGNOSTIC = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<col>\d+): warning: (?P<text>.*)$")


def newest_clang():
    """The newest clang++-N on PATH (then plain clang++), or None."""
    versions = []
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        for path in glob.glob(os.path.join(directory, "clang++-*")):
            suffix = os.path.basename(path)[len("clang++-"):]
            if suffix.isdigit():
                versions.append((int(suffix), os.path.basename(path)))
    if versions:
        return max(versions)[1]
    return shutil.which("clang++") and "clang++"


def syntax_only_command(entry, compiler):
    """The clang command that parses ENTRY (a compile_commands.json entry) with its build's flags,
    syntax only and with dcon's warnings: the compiler replaced, the output (-o FILE) and -c
    dropped, GCC-only warning options tolerated."""
    args = entry["arguments"] if "arguments" in entry else shlex.split(entry["command"])
    out = [compiler]
    skip = False
    for arg in args[1:]:
        if skip:
            skip = False
        elif arg == "-o":
            skip = True
        elif arg != "-c" and not arg.startswith("-o"):
            out.append(arg)
    return out + ["-fsyntax-only", "-Wno-unknown-warning-option"] + WARNING_FLAGS


def dcon_warnings(stderr, directory, root=ROOT, build_dirs=()):
    """The warning lines of STDERR (relative paths read from DIRECTORY) located in a file under
    ROOT, outside BUILD_DIRS, symbolic links resolved (build/include/ns3/*.h link to model/ and
    helper/), as 'relative/path:line:col: warning: text'."""
    root = os.path.realpath(root)
    excluded = [os.path.realpath(b) + os.sep for b in build_dirs]
    found = []
    for line in stderr.splitlines():
        m = DIAGNOSTIC.match(line)
        if not m:
            continue
        path = os.path.realpath(os.path.join(directory, m.group("path")))
        if not path.startswith(root + os.sep) or any(path.startswith(b) for b in excluded):
            continue
        found.append("%s:%s:%s: warning: %s" % (os.path.relpath(path, root), m.group("line"),
                                                m.group("col"), m.group("text")))
    return found


def changed_files(base, root=ROOT):
    """The repository's files changed between BASE and the working tree (committed or not)."""
    out = subprocess.run(["git", "diff", "--name-only", base, "--"], cwd=root, text=True,
                         capture_output=True)
    if out.returncode != 0:
        raise ValueError("--base %s: %s" % (base, out.stderr.strip() or "git diff failed"))
    return {os.path.join(root, p) for p in out.stdout.split()}


def select_entries(entries, changed):
    """The entries to parse: all when CHANGED is None or holds a header; else those of CHANGED."""
    if changed is None or any(p.endswith((".h", ".hpp")) for p in changed):
        return list(entries)
    changed = {os.path.realpath(p) for p in changed}
    return [e for e in entries
            if os.path.realpath(os.path.join(e["directory"], e["file"])) in changed]


def check(entry, compiler, build_dir, root=ROOT):
    """The warnings of one translation unit located in ROOT's files outside BUILD_DIR (a failed
    parse is reported as one)."""
    proc = subprocess.run(syntax_only_command(entry, compiler), cwd=entry["directory"],
                          text=True, capture_output=True)
    found = dcon_warnings(proc.stderr, entry["directory"], root=root, build_dirs=[build_dir])
    if proc.returncode != 0:
        found.append("%s: error: clang could not parse it:\n%s" % (entry["file"],
                                                                   proc.stderr[-2000:]))
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="a configured build with compile_commands.json (default build/)")
    parser.add_argument("--base", help="only the files changed since this commit")
    parser.add_argument("--compiler", help="the clang to use (default: the newest clang++-N)")
    parser.add_argument("-j", "--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    database = os.path.join(args.build, "compile_commands.json")
    if not os.path.isfile(database):
        print("error: %s not found: configure the build first (scripts/test.sh)" % database,
              file=sys.stderr)
        return 2
    compiler = args.compiler or newest_clang()
    if not compiler or not shutil.which(compiler):
        print("error: no clang compiler %s(scripts/install-deps.sh clang-19)"
              % ("'%s' " % compiler if compiler else ""), file=sys.stderr)
        return 2
    if args.jobs < 1:
        print("error: --jobs %d: must be at least 1" % args.jobs, file=sys.stderr)
        return 2
    with open(database) as f:
        entries = [e for e in json.load(f)
                   if os.path.realpath(e["file"]).startswith(os.path.realpath(ROOT) + os.sep)]
    try:
        changed = changed_files(args.base) if args.base else None
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    chosen = sorted(select_entries(entries, changed), key=lambda e: e["file"])
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda e: check(e, compiler, args.build), chosen))
    found = sorted({w for r in results for w in r})
    for w in found:
        print(w)
    print("%s: %d file(s) parsed, %d warning(s) in dcon's files"
          % (compiler, len(chosen), len(found)), file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

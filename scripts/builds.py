"""Which build of dcon a sweep runs, and which build made each run.

A build is a folder holding dcon's programs. The sweeps (large_sweep, burst_sweep,
testbed_readings) take the fastest one available, in the order of BUILDS:

  build-opt/bin/   scripts/build-optimized.sh's programs (Debian's ns-3.37 source, each one
                   static executable of ns-3 and dcon, -O3 with link-time and profile-guided
                   optimization, logging and asserts compiled out, no MPI): the fastest (a
                   full-scale run in 0.75 of build-mpi's CPU time, doc/performance.rst), and its
                   outputs are build-mpi's byte for byte (no -march=native unless asked for)
  build-mpi/bin/   dcon built in-tree in an ns-3 source tree by scripts/setup-mpi.sh (Debian's
                   ns-3.37 source, release -O3, logging and asserts compiled out, with MPI): its
                   outputs are those of build/ byte for byte (no -march=native; the parallel
                   tests compare them)
  build/examples/  the standalone build against Debian's ns-3 (scripts/setup.sh, scripts/test.sh)

A build whose program is older than dcon's newest source file (model/, helper/, experiments/,
examples/, CMakeLists.txt) is passed over with a note, as it would run old code; when every one
is older, the first is taken with a warning. --build DIR chooses a build: a standalone build
folder (DIR/examples/PROGRAM), a folder with bin/PROGRAM (setup-mpi.sh's) or an ns-3 source tree
with dcon in contrib/ (DIR/build/contrib/dcon/examples/ns3.*-PROGRAM*, e.g. scripts/check-ns3.sh's
build-ns3/ns-3.48, another ns-3 version).

Each program writes run.json's "build" (experiments/program-frame.cc: build type, "debian",
"installed" or "in-tree" ns-3, dcon's git commit) next to "ns3_version"; of_run() adds the
program's path (relative to the repository, or to the dcon checkout that holds it: rel()) to
make a run's build record, which
the sweeps keep in the run's record (scripts/run_store.py) and show as a column of their tables
(label()), warning when one table mixes builds (warn_if_mixed()). The commit is recorded but is
not part of a build's label: the model versions of run_store.py say when a change of the code
changes results.
"""
import collections
import glob
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# (folder, sub-folder of the programs, what it is, the script that makes it), fastest first
BUILDS = [("build-opt", "bin", "static LTO and PGO build of scripts/build-optimized.sh",
           "scripts/build-optimized.sh"),
          ("build-mpi", "bin", "in-tree ns-3 build of scripts/setup-mpi.sh",
           "scripts/setup-mpi.sh"),
          ("build", "examples", "standalone build against Debian's ns-3", "scripts/setup.sh")]
SOURCE_DIRS = ("model", "helper", "experiments", "examples")
UNRECORDED = "unrecorded"  # the label of a run whose run.json says nothing of its build

Choice = collections.namedtuple("Choice", "binary note")


def program_in(build, program):
    """The path of `program` in build folder `build` (see the module docstring), or None."""
    candidates = [os.path.join(build, "examples", program), os.path.join(build, "bin", program)]
    candidates += sorted(glob.glob(os.path.join(build, "build", "contrib", "dcon", "examples",
                                                f"ns3*-{program}*")))
    for c in candidates:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def newest_source(root=ROOT):
    """The newest modification time of dcon's sources (0 when there are none)."""
    newest = 0.0
    paths = [os.path.join(root, "CMakeLists.txt")]
    for d in SOURCE_DIRS:
        for base, _, files in os.walk(os.path.join(root, d)):
            paths += [os.path.join(base, f) for f in files if f.endswith((".cc", ".h"))]
    for p in paths:
        try:
            newest = max(newest, os.path.getmtime(p))
        except OSError:
            pass
    return newest


def is_stale(binary, root=ROOT):
    """True when `binary` (its target, for a link) is older than dcon's newest source."""
    return os.path.getmtime(binary) < newest_source(root)


def rel(path, root=ROOT):
    """`path` relative to the repository when inside it; else relative to the dcon checkout
    that holds it (another clone or git worktree of dcon: a folder above it with a .git entry
    and this file's scripts/builds.py), so that one build has one name whichever checkout's
    scripts ran the sweep; else absolute."""
    p = os.path.abspath(path)
    r = os.path.relpath(p, root)
    if not (r == os.pardir or r.startswith(os.pardir + os.sep)):
        return r
    d = os.path.dirname(p)
    while True:
        if (os.path.exists(os.path.join(d, ".git"))
                and os.path.isfile(os.path.join(d, "scripts", "builds.py"))):
            return os.path.relpath(p, d)
        parent = os.path.dirname(d)
        if parent == d:
            return p
        d = parent


def choose(program, build=None, root=ROOT):
    """Choice(binary, note) of the simulator `program` (e.g. "dcon-large-scale"): in `build`
    when given, else in the fastest up-to-date folder of BUILDS. Never raises: a missing
    program is reported when a run needs it (sweep_runner.execute); `note` (or "") says what was
    chosen and why, and warns of a program older than the sources."""
    if build is not None:
        binary = program_in(build, program)
        if binary is None:
            return Choice(os.path.join(build, "examples", program), "")
        note = f"simulator {binary} (--build)"
        if is_stale(binary, root):
            note += (f"\nwarning: {binary} is older than dcon's sources (model/, helper/, "
                     "experiments/, examples/): rebuild it, or it runs old code")
        return Choice(binary, note)
    found = [(program_in(os.path.join(root, d), program), what, script)
             for d, _, what, script in BUILDS]
    found = [(b, what, script) for b, what, script in found if b is not None]
    if not found:
        return Choice(os.path.join(root, BUILDS[-1][0], BUILDS[-1][1], program), "")
    fresh = [f for f in found if not is_stale(f[0], root)]
    skipped = found[:found.index(fresh[0])] if fresh else []
    binary, what, _ = fresh[0] if fresh else found[0]
    here = os.path.relpath(binary)  # as before: build/examples/... from the repository root
    binary = binary if here.startswith(os.pardir) else here
    note = (f"simulator {rel(binary, root)} ({what}: the fastest build found; --build "
            "chooses another)")
    for b, _, script in skipped:
        note += (f"\nnote: {rel(b, root)} is older than dcon's sources, so not used (rebuild "
                 f"it: {script})")
    if not fresh:
        note += (f"\nwarning: {rel(binary, root)} is older than dcon's sources (model/, "
                 "helper/, experiments/, examples/): rebuild it, or it runs old code")
    return Choice(binary, note)


def of_run(run_dir, root=ROOT):
    """The build record of a finished run, from its run.json: {"path": the program (relative to
    the repository when inside it), "ns3_version", and run.json's "build" members "type",
    "ns3", "commit"}; members run.json does not have are left out (a run made before the
    programs recorded their build). None when there is no readable run.json."""
    try:
        with open(os.path.join(run_dir, "run.json")) as f:
            run = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(run, dict):
        return None
    out = {}
    cmd = run.get("command_line")
    if isinstance(cmd, list) and cmd and isinstance(cmd[0], str):
        out["path"] = rel(cmd[0], root)
    if isinstance(run.get("ns3_version"), str):
        out["ns3_version"] = run["ns3_version"]
    build = run.get("build")
    if isinstance(build, dict):
        out.update({k: build[k] for k in ("type", "ns3", "commit") if k in build})
    return out


def label(build):
    """A build's short name in tables: "FOLDER (NS3 ns-3 VERSION, TYPE)", e.g.
    "build/examples (debian ns-3 3.37, Release)"; UNRECORDED for a run without a build record
    (made before the programs wrote one). The commit is left out."""
    if not build or "type" not in build:
        return UNRECORDED
    folder = os.path.dirname(build.get("path", "")) or "?"
    return (f"{folder} ({build.get('ns3', '?')} ns-3 {build.get('ns3_version', '?')}, "
            f"{build['type']})")


def warn_if_mixed(labels, what, column="build", file=None):
    """Print a warning (to stderr) when `labels` (the build labels of a table's runs) name more
    than one build; returns the warning, or None."""
    counts = collections.Counter(labels)
    if len(counts) < 2:
        return None
    text = (f"warning: {what} mixes runs of {len(counts)} builds (see its {column} column): "
            + "; ".join(f"{n} run(s) of {b}" for b, n in counts.most_common()))
    print(text, file=file or sys.stderr)
    return text


def add_builds_column(points, runs, keys, column="build"):
    """Add to `points` (a table with one row per group of `runs` by `keys`, e.g. the mean over
    the seeds) the column `column`: the distinct build labels of the group's runs, joined by
    " + " (so a point made of two builds says so)."""
    groups = {}
    if len(runs):
        by = keys[0] if len(keys) == 1 else list(keys)
        for key, g in runs.groupby(by, sort=False, dropna=False):
            groups[key if isinstance(key, tuple) else (key,)] = " + ".join(
                dict.fromkeys(g[column].astype(str)))
    points[column] = [groups.get(tuple(row), UNRECORDED)
                      for row in points[keys].itertuples(index=False, name=None)]
    return points

"""Invariants of the lossless fabric under a randomized sweep of small dcon-large-scale runs.

Each case is a tiny leaf-spine (1-3 spines, 2-4 leaves, 1-4 hosts per leaf) with PFC on, one
--cc (every scheme the binary lists with --list-cc, in turn), a random workload
(websearch, datamining, fbhadoop; 60% of the cases with Poisson incast on top), load (host
links at 30-90%), arrival window (1, 1.5 or 2 ms), simulator seed and switch settings (buffer
2-22 MB, PFC xoff 10-400 KB and xon at least --min-hysteresis below it, RED Kmin <= Kmax <=
xoff and Pmax, DCON Q_ECN <= xoff) drawn from their valid ranges by numpy's Generator seeded
with --seed, so the same --seed draws the same cases. Link rate and delay are not drawn:
dcon-large-scale has no option for them (every link is 40 Gb/s, 5 us). A case whose Poisson
draws give no flow at all is skipped. Every finished run is checked:

  drops        summary.json "drops" and every count of drops.csv are zero;
  completion   flows_completed == flows_total == the flows of flows.txt (and of run.json);
  bytes        for every flow id i, flows.csv's size_bytes equals the size of flow i in
               flows.txt (line i + 2), and its source, destination and start agree;
  pfc          per (node, port, priority) of pfc.csv, in time order: the first frame is a
               PAUSE; a RESUME follows a PAUSE (never a RESUME while not paused); a PAUSE while
               paused is a refresh (RdmaSwitch re-sends the PAUSE every PauseRefreshRatio x
               pause time while the MMU keeps the ingress paused) and is allowed, whatever its
               spacing (a RESUME overwritten by a new PAUSE before it was sent, PfcNetDevice
               keeping one pending value per priority, also leaves one); the last frame
               is a RESUME (nothing stays paused once the fabric is empty); event and quanta
               agree (pause <=> quanta > 0); the counts equal summary.json's
               pause_frames_sent / resume_frames_sent;
  mmu          the switch buffers are empty at the end: no ingress is left paused (above), and
               summary.json's "mmu_at_end" counters, when the simulator writes them, are all 0
               (dcon-large-scale does not write them yet; see doc/usage/output.rst);
  determinism  one case (--repeat; by default the passing case with the most PFC pauses) is
               run a second time: every output file is byte-identical, except summary.json's
               wall_time_s line and run.json's command_line and options_given lines (they
               name the output folder).

A failing case prints the command line that reproduces it; its run folder is kept.

  /usr/bin/python3 -m scripts.invariants                  # 240 cases, 2 at a time, a few minutes
  /usr/bin/python3 -m scripts.invariants --cases 6 --seed 7 --jobs 1
  /usr/bin/python3 -m scripts.invariants --list           # the cases' command lines only
  /usr/bin/python3 -m scripts.invariants --check RUN_DIR  # check one run (a reproduced case)
Exit status: 0 all invariants hold, 1 a violation (or a run that failed), 2 bad usage.
"""
import argparse
import concurrent.futures as cf
import csv
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

from . import cc_names

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_BINARY = os.path.join(ROOT, "build", "examples", "dcon-large-scale")

WORKLOADS = ("websearch", "datamining", "fbhadoop")
# Every link of dcon-large-scale: 40 Gb/s (no option to change it).
LINK_RATE_BPS = 40e9
KB = 1000
# Smallest PFC hysteresis (xoff - xon) drawn by default, in bytes (--min-hysteresis). With xon
# within about one packet of xoff an ingress can pause and resume before its PAUSE is on the
# wire; PfcNetDevice used to send a RESUME that followed no PAUSE then (found by this sweep;
# fixed, doc/model/scope.rst), so such settings are drawn too.
MIN_HYSTERESIS = 0

# ------------------------------------------------------------------------------ drawing cases


def core_load_per_host_load(spines, leaves, hosts_per_leaf):
    """LeafSpineHelper::GetCoreLoadPerHostLoad with equal host and fabric link rates."""
    n = leaves * hosts_per_leaf
    if n < 2:
        return 0.0
    f = leaves * hosts_per_leaf * (n - hosts_per_leaf) / (n * (n - 1))
    return n * f / (leaves * spines)


def draw_case(rng, cc, min_hysteresis=MIN_HYSTERESIS):
    """One case: dcon-large-scale's options (name -> text, in command-line order)."""
    spines = int(rng.integers(1, 4))
    leaves = int(rng.integers(2, 5))
    hosts_per_leaf = int(rng.integers(1, 5))
    hosts = leaves * hosts_per_leaf
    # Core load; capped so that the host links' load stays <= 0.9.
    per_host = core_load_per_host_load(spines, leaves, hosts_per_leaf)
    load = float(rng.uniform(0.3, 0.9)) * min(1.0, per_host)
    duration_ms = float(rng.choice([1.0, 1.5, 2.0]))
    buffer_bytes = int(round(math.exp(rng.uniform(math.log(2e6), math.log(22e6))), -3))
    xoff = int(round(math.exp(rng.uniform(math.log(10e3), math.log(400e3))), -2))
    # PFC hysteresis xoff - xon: at least min_hysteresis, at most 70% of xoff.
    gap = float(rng.uniform(0.0, 1.0))
    lo = min(min_hysteresis, 0.7 * xoff)
    xon = xoff - int(round(lo + gap * (0.7 * xoff - lo)))
    kmin = int(rng.integers(2 * KB, xoff // 2 + 1))
    kmax = kmin if rng.random() < 0.2 else int(rng.integers(kmin, xoff + 1))
    pmax = float(rng.uniform(0.01, 1.0))
    qecn = int(rng.integers(2 * KB, min(40 * KB, xoff) + 1))
    case = {
        "cc": cc,
        "workload": str(rng.choice(WORKLOADS)),
        "spines": str(spines),
        "leaves": str(leaves),
        "hostsPerLeaf": str(hosts_per_leaf),
        "load": "%.4f" % max(load, 0.0001),
        "duration": "%gms" % duration_ms,
        "seed": str(int(rng.integers(1, 1_000_000))),
        "bufferSize": "%dB" % buffer_bytes,
        "xoff": "%dB" % xoff,
        "xon": "%dB" % xon,
        "kmin": "%dB" % kmin,
        "kmax": "%dB" % kmax,
        "pmax": "%.4f" % pmax,
        "qecn": "%dB" % qecn,
    }
    if rng.random() < 0.6:
        case["incastShare"] = "%.3f" % float(rng.uniform(0.1, 0.6))
        case["incastSenders"] = str(int(rng.integers(1, hosts)))
        case["incastBytes"] = str(int(rng.integers(4, 257)) * KB)
    return case


def draw_cases(seed, count, ccs, min_hysteresis=MIN_HYSTERESIS):
    """`count` cases from the seed; every --cc of `ccs` in turn (a fresh random order per round
    of len(ccs))."""
    rng = np.random.default_rng(seed)
    cases = []
    order = []
    for _ in range(count):
        if not order:
            order = [ccs[i] for i in rng.permutation(len(ccs))]
        cases.append(draw_case(rng, order.pop(0), min_hysteresis))
    return cases


# The options of one switch queue: dcon-large-scale refuses them in a run whose --cc uses
# another queue (an option the run does not use is an error, not a silent no-op).
QUEUE_OPTIONS = {"ns3::RedEcnQueueDisc": ("kmin", "kmax", "pmax"),
                 "ns3::DconQueueDisc": ("qecn",)}


def applicable(case, queue):
    """The case's options that its --cc's switch queue (`queue`, a TypeId name) uses; the
    thresholds of the other queues are drawn anyway, so that every case draws the same numbers."""
    unused = {o for q, opts in QUEUE_OPTIONS.items() if q != queue for o in opts}
    return {k: v for k, v in case.items() if k not in unused}


def command(binary, case, outdir):
    queues = {name: queue for name, queue, _ in cc_names.listing(binary)}
    # --drain: run on after the last completion until the fabric is empty, so that
    # summary.json's mmu_at_end must be all zero
    return ([binary]
            + ["--%s=%s" % (k, v) for k, v in applicable(case, queues.get(case["cc"])).items()]
            + ["--drain=100us", "--outdir=" + outdir])


def shell_line(argv):
    return " ".join(shlex.quote(a) for a in argv)


# ---------------------------------------------------------------------------- the checks
# Each check takes a run folder and returns a list of violations (empty: the invariant holds).


def _read_json(run_dir, name):
    with open(os.path.join(run_dir, name)) as f:
        return json.load(f)


def _read_csv(run_dir, name):
    with open(os.path.join(run_dir, name), newline="") as f:
        return list(csv.DictReader(f))


def read_flows_txt(run_dir):
    """flows.txt (HPCC format): [(src, dst, priority, dport, size, start_s)] in flow id order."""
    with open(os.path.join(run_dir, "flows.txt")) as f:
        lines = [line.split() for line in f if line.strip()]
    if not lines:
        raise ValueError("flows.txt is empty")
    n = int(lines[0][0])
    flows = [(int(s), int(d), int(p), int(dp), int(size), float(t))
             for s, d, p, dp, size, t in lines[1:]]
    if len(flows) != n:
        raise ValueError(f"flows.txt announces {n} flows and lists {len(flows)}")
    return flows


def check_drops(run_dir):
    out = []
    drops = _read_json(run_dir, "summary.json").get("drops")
    if not isinstance(drops, dict):
        out.append(f"summary.json has no drops object: {drops!r}")
    else:
        for reason, n in sorted(drops.items()):
            if n != 0:
                out.append(f"summary.json: {n} packets dropped ({reason})")
    for row in _read_csv(run_dir, "drops.csv"):
        if int(row["packets"]) != 0:
            out.append(f"drops.csv: {row['node']} dropped {row['packets']} packets "
                       f"({row['reason']})")
    return out


def check_completion(run_dir):
    out = []
    s = _read_json(run_dir, "summary.json")
    total, done = s.get("flows_total"), s.get("flows_completed")
    if done != total:
        out.append(f"summary.json: {done} of {total} flows completed")
    listed = len(read_flows_txt(run_dir))
    if total != listed:
        out.append(f"summary.json flows_total {total} != {listed} flows in flows.txt")
    run_json = os.path.join(run_dir, "run.json")
    if os.path.exists(run_json):
        generated = _read_json(run_dir, "run.json").get("flows_generated")
        if generated is not None and generated != listed:
            out.append(f"run.json flows_generated {generated} != {listed} flows in flows.txt")
    return out


def check_flow_bytes(run_dir):
    out = []
    sent = read_flows_txt(run_dir)
    rows = _read_csv(run_dir, "flows.csv")
    seen = set()
    for row in rows:
        i = int(row["flow_id"])
        if i in seen:
            out.append(f"flows.csv: flow {i} listed twice")
            continue
        seen.add(i)
        if not 0 <= i < len(sent):
            out.append(f"flows.csv: flow {i} is not in flows.txt ({len(sent)} flows)")
            continue
        src, dst, _, _, size, start = sent[i]
        if int(row["size_bytes"]) != size:
            out.append(f"flow {i}: {row['size_bytes']} bytes delivered (flows.csv), "
                       f"{size} sent (flows.txt)")
        if (row["src"], row["dst"]) != ("h%d" % src, "h%d" % dst):
            out.append(f"flow {i}: {row['src']} -> {row['dst']} in flows.csv, "
                       f"h{src} -> h{dst} in flows.txt")
        if abs(float(row["start_s"]) - start) > 0.5e-12:  # both in whole picoseconds
            out.append(f"flow {i}: starts at {row['start_s']} s in flows.csv, {start} s in "
                       f"flows.txt")
    missing = [i for i in range(len(sent)) if i not in seen]
    if missing:
        out.append(f"flows.csv: {len(missing)} flows of flows.txt missing, first ids "
                   f"{missing[:10]}")
    return out


def check_pfc(run_dir):
    """PAUSE and RESUME alternate per (node, port, priority); see the module's docstring."""
    out = []
    paused = {}
    counts = {"pause": 0, "resume": 0}
    last_time = None
    for n, row in enumerate(_read_csv(run_dir, "pfc.csv"), start=2):
        key = (row["node"], row["port"], row["priority"])
        name = "%s port %s priority %s" % key
        event, quanta, t = row["event"], int(row["quanta"]), float(row["time_s"])
        where = f"pfc.csv line {n} ({t} s)"
        if last_time is not None and t < last_time:
            out.append(f"{where}: time goes back from {last_time} s")
        last_time = t
        if event not in counts or (event == "pause") != (quanta > 0):
            out.append(f"{where}: event {event!r} with quanta {quanta}")
            continue
        counts[event] += 1
        if event == "resume" and not paused.get(key, False):
            out.append(f"{where}: {name} RESUME while not paused"
                       + ("" if key in paused else " (its first PFC frame)"))
        paused[key] = event == "pause"
    for key, p in sorted(paused.items()):
        if p:
            out.append("%s port %s priority %s is still paused at the end (no RESUME after its "
                       "last PAUSE)" % key)
    s = _read_json(run_dir, "summary.json")
    for event, field in (("pause", "pause_frames_sent"), ("resume", "resume_frames_sent")):
        if field in s and s[field] != counts[event]:
            out.append(f"summary.json {field} {s[field]} != {counts[event]} {event} frames in "
                       "pfc.csv")
    return out


def check_mmu_empty(run_dir):
    """Switch buffers empty at the end. Nothing paused is check_pfc's; this checks the
    counters summary.json's "mmu_at_end" holds when the simulator writes it (every value 0)."""
    out = []
    end = _read_json(run_dir, "summary.json").get("mmu_at_end")
    if end is None:
        return out

    def walk(value, path):
        if isinstance(value, dict):
            for k, v in sorted(value.items()):
                walk(v, path + [str(k)])
        elif value != 0:
            out.append("summary.json mmu_at_end %s = %r, not 0" % (".".join(path), value))

    walk(end, [])
    return out


CHECKS = (
    ("drops", check_drops),
    ("completion", check_completion),
    ("bytes", check_flow_bytes),
    ("pfc", check_pfc),
    ("mmu", check_mmu_empty),
)


def check_run(run_dir):
    """Every check on one run folder: a list of 'check: violation' strings."""
    out = []
    for name, check in CHECKS:
        try:
            out += ["%s: %s" % (name, v) for v in check(run_dir)]
        except (OSError, ValueError, KeyError, TypeError) as e:
            out.append("%s: cannot check (%s: %s)" % (name, type(e).__name__, e))
    return out


# The lines that differ between two runs of one case by construction: summary.json's line of
# wall time, CPU time and peak memory, run.json's command line and options (they name the output
# folder).
RUN_SPECIFIC = {"summary.json": (b'"wall_time_s"',),
                "run.json": (b'"command_line"', b'"options_given"')}


def _strip_wall_time(name, data):
    """summary.json with its wall_time_s line blanked, run.json with its command_line and
    options_given lines blanked (the line numbers stay)."""
    keys = RUN_SPECIFIC.get(name)
    if not keys:
        return data
    return b"".join(b"\n" if line.lstrip().startswith(keys) else line
                    for line in data.splitlines(keepends=True))


def compare_runs(dir_a, dir_b):
    """Differences between two runs' output files (byte by byte; summary.json's wall_time_s
    line and run.json's command line are left out). Empty: identical."""
    out = []
    names_a, names_b = set(os.listdir(dir_a)), set(os.listdir(dir_b))
    for name in sorted(names_a ^ names_b):
        out.append(f"{name} is written by only one of the two runs")
    for name in sorted(names_a & names_b):
        with open(os.path.join(dir_a, name), "rb") as f:
            a = _strip_wall_time(name, f.read())
        with open(os.path.join(dir_b, name), "rb") as f:
            b = _strip_wall_time(name, f.read())
        if a != b:
            la, lb = a.splitlines(), b.splitlines()
            first = next((i for i, (x, y) in enumerate(zip(la, lb)) if x != y),
                         min(len(la), len(lb)))
            out.append(f"{name} differs from line {first + 1}")
    return out


# ------------------------------------------------------------------------------ running


# dcon-large-scale's error when the Poisson draws give no flow at all (tiny fabric, short window,
# large mean flow size): such a case is skipped, not failed.
NO_FLOW = "the workload has no flow"


def run_case(argv, outdir, timeout):
    """Run one simulation (its output in OUTDIR.log); -> None or the reason it failed."""
    os.makedirs(outdir, exist_ok=True)
    with open(outdir + ".log", "wb") as log:
        try:
            p = subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, timeout=timeout)
        except subprocess.TimeoutExpired:
            return f"did not finish within {timeout:g} s"
    if p.returncode != 0:
        with open(outdir + ".log", "rb") as f:
            tail = f.read().decode(errors="replace").strip().splitlines()[-3:]
        if p.returncode == 2 and any(NO_FLOW in line for line in tail):
            return NO_FLOW
        return "exit status %d: %s" % (p.returncode, " | ".join(tail))
    return None


def run_facts(run_dir):
    """'N flows, P pauses' of a finished run ('' when it has no summary.json)."""
    try:
        s = _read_json(run_dir, "summary.json")
        return "%5d flows %5d pauses" % (s["flows_total"], s["pause_frames_sent"])
    except (OSError, ValueError, KeyError):
        return ""


def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="Run random small fabrics with dcon-large-scale and check the lossless "
        "fabric's invariants (see the module docstring).")
    ap.add_argument("--cases", type=int, default=240, help="number of random cases [240]")
    ap.add_argument("--seed", type=int, default=1,
                    help="seed of the case generator (numpy default_rng) [1]")
    ap.add_argument("--binary", default=DEFAULT_BINARY,
                    help="dcon-large-scale to run [build/examples/dcon-large-scale]")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                    help="simulations at a time [2]")
    ap.add_argument("--repeat", type=int, default=None,
                    help="index of the case run a second time for the determinism check "
                    "(-1: none) [the passing case with the most PFC pauses]")
    ap.add_argument("--min-hysteresis", type=int, default=MIN_HYSTERESIS, metavar="BYTES",
                    help="smallest PFC hysteresis xoff - xon drawn, in bytes (0: any xon "
                    f"<= xoff) [{MIN_HYSTERESIS}]")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per run [600]")
    ap.add_argument("--workdir", help="keep every run folder here (default: a temporary folder, "
                    "removed at the end unless a case failed)")
    ap.add_argument("--list", action="store_true", help="print the cases' commands and stop")
    ap.add_argument("--check", metavar="RUN_DIR", nargs="+",
                    help="only check these finished run folders (e.g. of a reproduced case)")
    args = ap.parse_args(argv)
    if args.cases < 1:
        ap.error(f"--cases must be >= 1, got {args.cases}")
    if args.jobs < 1:
        ap.error(f"--jobs must be >= 1, got {args.jobs}")
    if args.seed < 0:
        ap.error(f"--seed must be >= 0, got {args.seed}")
    if args.repeat is not None and not -1 <= args.repeat < args.cases:
        ap.error(f"--repeat must be in [-1, {args.cases - 1}], got {args.repeat}")
    if args.min_hysteresis < 0:
        ap.error(f"--min-hysteresis must be >= 0, got {args.min_hysteresis}")
    if not args.timeout > 0:
        ap.error(f"--timeout must be > 0, got {args.timeout}")
    return args


def pick_repeat(run_dirs):
    """The case (index into run_dirs, None for none) with the most PFC pauses, else flows."""
    best, key = None, None
    for i, run_dir in run_dirs.items():
        try:
            s = _read_json(run_dir, "summary.json")
            k = (s["pause_frames_sent"], s["flows_total"], -i)
        except (OSError, ValueError, KeyError):
            continue
        if key is None or k > key:
            best, key = i, k
    return best


def main(argv=None):
    args = parse_args(argv)
    if args.check:
        failed = 0
        for run_dir in args.check:
            problems = check_run(run_dir)
            print(f"{run_dir}: {'FAIL' if problems else 'every invariant holds'}")
            for p in problems:
                print("  " + p)
            failed += bool(problems)
        return 1 if failed else 0
    binary = os.path.abspath(args.binary)
    try:
        ccs = cc_names.names(binary)
    except cc_names.CcListError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    cases = draw_cases(args.seed, args.cases, ccs, args.min_hysteresis)
    workdir = os.path.abspath(args.workdir or tempfile.mkdtemp(prefix="dcon-invariants-"))
    outdirs = {i: os.path.join(workdir, "case%03d" % i) for i in range(len(cases))}
    if args.list:
        for i, case in enumerate(cases):
            print("case %d: %s" % (i, shell_line(command(binary, case, outdirs[i]))))
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
        return 0
    if not os.access(binary, os.X_OK):
        print(f"error: no simulator at {binary} (build it, or pass --binary)", file=sys.stderr)
        return 2
    os.makedirs(workdir, exist_ok=True)
    print(f"{len(cases)} cases (generator seed {args.seed}), {args.jobs} at a time, in {workdir}",
          flush=True)

    t0 = time.monotonic()
    failures = {}  # case index -> list of messages
    empty = set()  # cases without any flow

    def report(label, i, outdir, error):
        """Check one finished run, print its line; -> True if it holds every invariant."""
        if error == NO_FLOW:
            empty.add(i)
            print(f"  {label:>14} {cases[i]['cc']:>6} {cases[i]['workload']:>10} "
                  "no flow drawn: skipped", flush=True)
            return False
        problems = [f"run failed: {error}"] if error else check_run(outdir)
        print(f"  {label:>14} {cases[i]['cc']:>6} {cases[i]['workload']:>10} "
              f"{run_facts(outdir)}: {'FAIL' if problems else 'ok'}", flush=True)
        if problems:
            failures.setdefault(i, []).extend(
                [f"{label}: {p}" for p in problems]
                + [f"  reproduce: {shell_line(command(binary, cases[i], outdir))}",
                   f"     check: cd {shlex.quote(ROOT)} && /usr/bin/python3 -m scripts.invariants "
                   f"--check {shlex.quote(os.path.abspath(outdir))}"])
        return not problems

    passed = {}
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {}
        for i, outdir in outdirs.items():
            shutil.rmtree(outdir, ignore_errors=True)
            argv = command(binary, cases[i], outdir)
            futures[pool.submit(run_case, argv, outdir, args.timeout)] = i
        for fut in cf.as_completed(futures):
            i = futures[fut]
            if report("case %d" % i, i, outdirs[i], fut.result()):
                passed[i] = outdirs[i]

    # Determinism: one case again, every output file compared.
    repeat = pick_repeat(passed) if args.repeat is None else args.repeat
    if repeat is not None and repeat >= 0 and repeat in passed:
        again = outdirs[repeat] + "-again"
        shutil.rmtree(again, ignore_errors=True)
        error = run_case(command(binary, cases[repeat], again), again, args.timeout)
        if report("case %d again" % repeat, repeat, again, error):
            diffs = compare_runs(outdirs[repeat], again)
            if diffs:
                failures.setdefault(repeat, []).extend(
                    [f"determinism: {d}" for d in diffs]
                    + ["  reproduce (run it twice, compare the folders): "
                       + shell_line(command(binary, cases[repeat], outdirs[repeat]))])
            else:
                print(f"case {repeat} run twice: every output file identical", flush=True)
    elif repeat is not None and repeat >= 0:
        print(f"case {repeat} did not pass: no determinism check", flush=True)

    elapsed = time.monotonic() - t0
    ccs = sorted({c["cc"] for c in cases})
    print(f"{len(cases)} cases ({', '.join(ccs)}) in {elapsed:.0f} s"
          + (f"; {len(empty)} without any flow skipped" if empty else ""))
    if failures:
        print(f"{len(failures)} case(s) violate an invariant:")
        for i in sorted(failures):
            for line in failures[i]:
                print("  " + line)
        print(f"run folders kept in {workdir}")
        return 1
    print("all invariants hold")
    if not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

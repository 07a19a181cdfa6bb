#!/usr/bin/python3
"""Large-scale sweeps of the DCON paper (Fig. 9-12; dcon.md 3.3-3.4), one command per figure.

  fig9   WebSearch,  loads 0.4 0.5 0.6 0.7 0.8 x cc {dcon, dcqcn, swift, pcn}   (20 runs/seed)
  fig10  DataMining, loads 0.4 .. 0.8 x cc {dcon, dcqcn, swift, pcn}           (20 runs/seed)
  fig11  WebSearch, dcon, loads 0.4 .. 0.8 x Q_CNM {40%, 60% of the PFC threshold, dynamic},
         all at Q_ECN = 100 KB (40% of 320 KB = 128 KB is below the default Q_ECN of 200 KB)
  fig12  WebSearch, dcon, loads 0.4 .. 0.8 x CNM window T {2, 3, 4} RTT
  all    the four; runs shared between figures are computed once (65 runs/seed)

Load is the average load at the core layer (--loadType=core). Unless a figure varies them, runs
use DCON's defaults Q_CNM dynamic (--qcnmFraction=0), T = 3 RTT and Q_ECN 200 KB, so "dcon at
load 0.6" of fig9 and the T=3 point of fig12 are one run. A run directory is
  RESULTS/{workload}-{cc}-load{load}-q{qcnmFraction}-T{cnmWindowRtts}-s{seed}-d{duration}-{scale}

Each run writes into NAME.tmp, renamed to NAME only when the simulator exits 0 having written
summary.json and run.json; finished runs are skipped, so an interrupted sweep (Ctrl-C) is simply
restarted. A failed run's stderr tail is printed, the others go on, and the exit code is 1.
Then scripts/fct_stats.py writes NAME/stats.json for every finished run, the sweep writes
RESULTS/<fig>.csv (one row per run) and scripts/plot_large.py draws RESULTS/<fig>.png.

Time (measured on a 2-core VM, --jobs 2): fig9 9.5 min (a full-scale WebSearch run at load 0.8
takes about 1 min alone, 42 MiB), fig10 with --duration 20ms 20 min (DataMining's 100 MB-1 GB
flows drain for 200-300 ms of simulated time), fig11 and fig12 5-8 min each: `all` is under an
hour. --quick (scale small = 4 spines x 4 leaves x 12 hosts, 2 ms of arrivals, loads 0.4 0.6
0.8: 12 runs for fig9, 39 for all) takes about half a minute per figure. --quick writes the
same RESULTS/<fig>.csv/.png as a full sweep (its runs have their own directories): use
--results results/large-quick to keep both.

Usage: /usr/bin/python3 scripts/large_sweep.py fig9|fig10|fig11|fig12|all [--quick] [--jobs N]
         [--seeds 1 2 ..] [--duration 5ms] [--scale full] [--build build] [--results results/large]
"""
import argparse
import collections
import math
import os
import re
import sys

import pandas as pd
from tqdm import tqdm

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fct_stats  # noqa: E402
import sweep_runner  # noqa: E402

LOADS = [0.4, 0.5, 0.6, 0.7, 0.8]
QUICK_LOADS = [0.4, 0.6, 0.8]
CCS = ["dcon", "dcqcn", "swift", "pcn"]
SCALES = ["full", "small", "tiny"]
# The simulator's default Q_ECN (= ECN Kmin = Kmax), KB.
DEFAULT_QECN_KB = 200
DEFAULTS = {"cc": "dcon", "qcnm_fraction": 0.0, "cnm_window_rtts": 3, "qecn_kb": DEFAULT_QECN_KB}
# figure -> (workload, the parameter the figure varies, its values, other settings)
# Fig. 11's fixed Q_CNM are 40% and 60% of the PFC threshold (320 KB): 128 and 192 KB, below the
# default Q_ECN of 200 KB, which DCON forbids (Q_CNM >= Q_ECN); so Fig. 11 runs all three lines
# with Q_ECN = 100 KB (doc/large-scale.rst).
FIGS = {
    "fig9": ("websearch", "cc", CCS, {}),
    "fig10": ("datamining", "cc", CCS, {}),
    "fig11": ("websearch", "qcnm_fraction", [0.4, 0.6, 0.0], {"qecn_kb": 100}),
    "fig12": ("websearch", "cnm_window_rtts", [2, 3, 4], {}),
}
FIG_NAMES = list(FIGS)
BINARY = os.path.join("examples", "dcon-large-scale")
TABLE_METRICS = {  # table column -> stats.json field
    "avg_fct_s": "avg_fct_s", "p99_fct_s": "p99_fct_s", "median_fct_s": "median_fct_s",
    "pause_rate_per_s": "pause_rate_per_s", "cnps": "cnps_sent", "cnms": "cnms_received",
    "completion_ratio": "completion_ratio", "flows_completed": "flows_completed",
    "flows_total": "flows_total", "wall_time_s": "wall_time_s",
}
TIME_RE = re.compile(r"^([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(s|ms|us|ns)$")

Run = collections.namedtuple(
    "Run", "workload cc load qcnm_fraction cnm_window_rtts seed duration scale qecn_kb",
    defaults=(DEFAULT_QECN_KB,))


SweepError = sweep_runner.SweepError


def fmt_num(x):
    """Canonical short form of a number in run names: 0.4 -> '0.4', 0.0 -> '0', 3.0 -> '3'."""
    return "%g" % x


def canonical_duration(text):
    """'5ms', '5.0ms' -> '5ms'; SweepError for anything that is not <number><s|ms|us|ns> > 0."""
    m = TIME_RE.match(str(text).strip())
    if not m or float(m.group(1)) <= 0:
        raise SweepError(f"--duration must be a positive time like 5ms, 500us or 0.01s, "
                         f"got {text!r}")
    return fmt_num(float(m.group(1))) + m.group(2)


def run_name(run):
    """The run's directory name; equal parameters give equal names whatever the figure."""
    name = (f"{run.workload}-{run.cc}-load{fmt_num(run.load)}-q{fmt_num(run.qcnm_fraction)}"
            f"-T{fmt_num(run.cnm_window_rtts)}-s{run.seed}-d{run.duration}-{run.scale}")
    if run.qecn_kb != DEFAULT_QECN_KB:
        name += f"-e{fmt_num(run.qecn_kb)}KB"
    return name


def fig_runs(fig, loads, seeds, duration, scale):
    """The runs of one figure, in plotting order (value, load, seed)."""
    if fig not in FIGS:
        raise SweepError(f"unknown figure {fig!r} (choose from {', '.join(FIG_NAMES)}, all)")
    workload, key, values, other = FIGS[fig]
    out = []
    for v in values:
        p = dict(DEFAULTS, **other)
        p[key] = v
        for load in loads:
            for seed in seeds:
                out.append(Run(workload, p["cc"], float(load), float(p["qcnm_fraction"]),
                               p["cnm_window_rtts"], int(seed), duration, scale,
                               p["qecn_kb"]))
    return out


def plan(figs, loads, seeds, duration, scale):
    """{run name: Run} over the figures, each shared run once (first-figure order)."""
    runs = {}
    for fig in figs:
        for r in fig_runs(fig, loads, seeds, duration, scale):
            runs.setdefault(run_name(r), r)
    return runs


def is_complete(run_dir):
    """Finished run: has summary.json and run.json and is not a .tmp directory."""
    return fct_stats.is_complete(run_dir)


def command(binary, run, outdir):
    return [binary, f"--cc={run.cc}", f"--workload={run.workload}", f"--load={fmt_num(run.load)}",
            "--loadType=core", f"--duration={run.duration}", f"--seed={run.seed}",
            f"--outdir={outdir}", f"--scale={run.scale}",
            f"--qcnmFraction={fmt_num(run.qcnm_fraction)}",
            f"--cnmWindowRtts={fmt_num(run.cnm_window_rtts)}",
            f"--kmin={fmt_num(run.qecn_kb)}KB", f"--kmax={fmt_num(run.qecn_kb)}KB"]


def execute(runs, binary, results, jobs):
    """Run what is not finished yet (sweep_runner.execute). Returns the failure messages."""
    return sweep_runner.execute(runs, lambda run, outdir: command(binary, run, outdir), binary,
                                results, jobs, fct_stats.RUN_FILES,
                                "large-scale runs")


def collect_stats(runs, results):
    """{name: stats dict} for the finished runs; stats.json is recomputed when it is older than
    summary.json or scripts/fct_stats.py. Returns (stats, failure messages)."""
    stats, failures = {}, []
    script_mtime = os.path.getmtime(fct_stats.__file__)
    for name in tqdm(list(runs), desc="stats", unit="run", leave=False):
        d = os.path.join(results, name)
        if not is_complete(d):
            continue
        path = os.path.join(d, "stats.json")
        try:
            if (os.path.isfile(path) and os.path.getmtime(path) >= max(
                    script_mtime, os.path.getmtime(os.path.join(d, "summary.json")))):
                stats[name] = fct_stats._read_json(path)
            else:
                stats[name] = fct_stats.write_stats(d)
        except fct_stats.StatsError as e:
            failures.append(f"{name}: stats: {e}")
            tqdm.write(f"FAILED stats of {name}: {e}", file=sys.stderr)
    return stats, failures


def make_table(fig, fig_run_list, stats):
    """One row per run of `fig` that has stats: figure keys + metrics (None -> NaN)."""
    cols = ["fig", "run"] + list(Run._fields) + list(TABLE_METRICS)
    rows = []
    for r in fig_run_list:
        s = stats.get(run_name(r))
        if s is None:
            continue
        row = {"fig": fig, "run": run_name(r), **r._asdict()}
        for col, key in TABLE_METRICS.items():
            v = s.get(key)
            row[col] = math.nan if v is None else v
        rows.append(row)
    return pd.DataFrame(rows, columns=cols)


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("figure", choices=FIG_NAMES + ["all"], help="which figure's sweep")
    ap.add_argument("--quick", action="store_true",
                    help="scale small, 2 ms of arrivals, loads 0.4 0.6 0.8 (explicit --scale / "
                         "--duration still win); expected: a few minutes for all on 2 cores")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                    help="parallel runs (default: the number of CPUs, %(default)s)")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1],
                    help="seeds, i.e. ns-3 run numbers >= 1 (default 1)")
    ap.add_argument("--duration", default=None, help="arrival window (default 5ms, quick 2ms)")
    ap.add_argument("--scale", default=None, help="full|small|tiny (default full, quick small)")
    ap.add_argument("--build", default="build", help="build directory (default build)")
    ap.add_argument("--results", default=os.path.join("results", "large"),
                    help="results directory (default results/large)")
    ap.add_argument("--no-plot", action="store_true", help="write the tables but do not plot")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        raise SweepError(f"--jobs must be >= 1, got {args.jobs}")
    bad = [s for s in args.seeds if s < 1]
    if bad:
        raise SweepError(f"--seeds must be >= 1 (ns-3 run numbers), got {bad[0]}")
    args.duration = canonical_duration(args.duration or ("2ms" if args.quick else "5ms"))
    args.scale = args.scale or ("small" if args.quick else "full")
    if args.scale not in SCALES:
        raise SweepError(f"--scale must be one of {', '.join(SCALES)}, got {args.scale!r}")
    args.loads = QUICK_LOADS if args.quick else LOADS
    args.figs = FIG_NAMES if args.figure == "all" else [args.figure]
    args.seeds = list(dict.fromkeys(args.seeds))
    return args


def main(argv=None):
    try:
        args = parse_args(argv)
        runs = plan(args.figs, args.loads, args.seeds, args.duration, args.scale)
        os.makedirs(args.results, exist_ok=True)
        failures = execute(runs, os.path.join(args.build, BINARY), args.results, args.jobs)
    except SweepError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    stats, stat_failures = collect_stats(runs, args.results)
    failures += stat_failures
    for fig in args.figs:
        table = make_table(fig, fig_runs(fig, args.loads, args.seeds, args.duration, args.scale),
                           stats)
        path = os.path.join(args.results, fig + ".csv")
        table.to_csv(path, index=False)
        print(f"wrote {path} ({len(table)} runs)")
    if not args.no_plot:
        import plot_large
        plot_large.plot_dir(args.results, args.figs)
    if failures:
        print(f"{len(failures)} run(s) failed:\n  " + "\n  ".join(
            f.splitlines()[0] for f in failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

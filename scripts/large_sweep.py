"""Large-scale sweeps of the DCON paper (Fig. 9-12) and their sensitivity
runs, one command per figure, over named scheme variants (scripts/variants.py).

  fig9   WebSearch:  dcon dcqcn swift pcn dcon-raises
  fig10  DataMining: dcon dcqcn swift pcn dcon-raises
         (dcon-raises: DCON with a CNM that may raise a flow's rate, CnmRaisesRate=true, the
         reading this module had before; next to the default so that both answer the paper's
         comparisons)
  fig11  WebSearch:  dcon-q0.4 dcon-q0.6 dcon            (Q_CNM 40% / 60% of the PFC threshold,
                                                          dynamic)
  fig12  WebSearch:  dcon-T2 dcon dcon-T4                (CNM window T = 2 / 3 / 4 RTT)
  sens   WebSearch, load 0.8 only by default: dcon and DCON's readings one at a time
         (dcon-listing dcon-raises dcon-cnmrateonly dcon-tlastport dcon-hyper dcon-m1 dcon-m2
         dcon-mdesign dcon-mqecn dcon-dynpfc dcon-dynpfc-m2 dcon-markinburst dcon-dcqcnsender
         dcon-prev), dcqcn and dcqcn-dynpfc
  spread WebSearch, load 0.8 by default: dcon dcqcn swift pcn dcon-raises with --spreading
         (victim and culprit time, pause trees; run names end in -spread)
  swift  WebSearch:  swift swift-t100 swift-line swift-t100-line (a target below the base RTT,
                     e.g. 25 us, is refused: Swift's BaseTarget must exceed it)
  --add-variants V..  adds variants to every chosen figure, e.g. another algorithm:
         /usr/bin/python3 -m scripts.large_sweep fig9 --add-variants dctcp
  all    every figure above; a run shared by figures (same name) is computed once

Each figure runs its variants at the loads 0.4 0.6 0.8 (core layer; --loads to change, which
also applies to sens) with the seeds 1 2 3 (--seeds). The arrival window (--duration, warm-up
and cool-down included), the nominal warm-up (--warmup) and the cool-down left out of the
statistics (--cooldown) come from the WINDOWS table below, per workload, load and variant
(given on the command line, they apply to every run); the statistics are measured from the
warm-up found in the data (scripts/fct_stats.py), the nominal one giving the nominal_*
statistics of the old fixed window; --max-time is the simulator's safety stop. A run directory is
  RESULTS/{workload}-{variant}-load{load}-s{seed}-d{duration}-w{warmup}-{scale}[-c{cooldown}]
e.g. websearch-dcon-load0.8-s1-d60ms-w30ms-full (-c{cooldown} only when it is not 0), and its
command
  BUILD/examples/dcon-large-scale --workload=W --load=L --loadType=core --duration=D
      --warmup=WU --seed=S --scale=SC --maxTime=MT --outdir=RESULTS/NAME.tmp [--cooldown=C]
      VARIANT-ARGS...
(--list prints every name and command of the plan without running anything).

Each run writes into NAME.tmp, renamed to NAME only when the simulator exits 0 having written
summary.json and run.json; finished runs are skipped, so an interrupted sweep (Ctrl-C) is simply
restarted. A failed run's stderr tail is printed, the others go on, and the exit code is 1.
scripts/fct_stats.py writes NAME/stats.json for every finished run (measured window,
completion ratio, stationarity: see its docstring), which becomes its record in the store
(--store): with a store, as soon as the run finishes, so that a sweep cut off later keeps it.
Then the sweep writes per figure
  RESULTS/<fig>-runs.csv  one row per run: the figure keys, the run's metrics and what it
                          cost (cpu_s, max_rss_mib, host: scripts/sweep_runner.py's
                          resources.json, kept in the run's record);
  RESULTS/<fig>.csv       one row per variant and load: n seeds, mean, std and 95% confidence
                          half-width (Student's t, scripts/seed_stats.py) of avg_fct_s,
                          p99_fct_s and pause_rate_per_s and of their nominal-window values,
                          non_stationary (runs not at equilibrium), overloaded and
                          flagged_runs (each flagged run and why);
and scripts/plot_large.py draws RESULTS/<fig>.png. Per figure it prints the CPU hours of the
runs in its table and the largest peak memory per variant (over the runs that have resources).

--extend [MAX]: after the runs, every run whose verdict asks for more time (not at equilibrium:
not settled, still falling, too short, Little's law off; and an overload only when the run is
too short or only its buffered bytes grow, see wants_more_time) is run again with
twice its arrival window (same warm-up, cool-down and seed; e.g. -d150ms -> -d300ms, its own
folder and record), round after round, up to windows of MAX (default 600ms). The tables always
report each seed's longest run with statistics, extended or not (runs.csv: run, arrival_window,
extended; <fig>.csv: extended, arrival_windows), so an extension made by an earlier sweep counts
without --extend; but the runs of a load (every variant and seed of the figure) that are not at
equilibrium are reported at one arrival window, the shortest they all reached (an overload's
FCT grows with its window: reported_runs).

--quick: scale small (4 spines x 4 leaves x 12 hosts), 2 ms window with 0.5 ms of warm-up, loads
0.4 0.6 0.8 (sens 0.8), one seed; explicit options still win. Quick runs have their own
directories but the tables and figures have the same names as a full sweep's: use --results
results/large-quick to keep both.

Usage: /usr/bin/python3 -m scripts.large_sweep FIG [FIG ...]|all [--quick] [--list] [--jobs N]
         [--seeds 1 2 3] [--loads 0.4 0.6 0.8] [--duration 60ms] [--warmup 30ms]
         [--cooldown 0ms] [--max-time 200s] [--progress 60s] [--scale full] [--build DIR]
         [--scheduler ADDRESS] [--results results/large] [--extend [MAX]] [--no-plot]

The simulator is the fastest build's (build-opt/bin, else build-mpi/bin, when up to date, else
build/: see scripts/builds.py; --build DIR to choose), and each run's record and row of
<fig>-runs.csv say which build made it (the build column; <fig>.csv's build column names every
build of a point, and a table that mixes builds is warned of). --scheduler runs the sweep on a
Dask cluster (scripts/sweep_runner.py) instead of the local pool of -j processes.
"""
import argparse
import collections
import math
import os
import sys

import pandas as pd
from tqdm import tqdm

from . import builds
from . import fct_stats
from .large_figures import FIG_NAMES, FIGURES
from . import plot_large
from . import seed_stats
from . import sweep_runner
from . import run_store
from . import variants

# The arrival window of each run (its duration, warm-up and cool-down included), its nominal
# warm-up and its cool-down: the one place to tune them. The statistics are measured from the
# warm-up found in the data (scripts/fct_stats.py, Equilibrium) to the cool-down; the nominal
# warm-up is passed to the simulator and gives the nominal_* statistics (the old fixed window,
# for comparison). Keys: (workload, load, variant), None matching any; every workload needs its
# (workload, None, None) row, the other rows change some of its values. The most specific
# matching row wins each value: (workload, load, variant) over (workload, load, None) over
# (workload, None, variant) over (workload, None, None). E.g.
#   ("websearch", 0.8, None): {"duration": "150ms"},          # every scheme at load 0.8
#   ("websearch", 0.8, "dcon"): {"duration": "200ms", "warmup": "40ms"},
WINDOWS = {
    ("websearch", None, None): {"duration": "150ms", "warmup": "40ms", "cooldown": "30ms"},
    # DataMining: the fill time of its FCT law (3% of the flows hold 85% of the flow-time)
    # was 337 ms in a 150 ms run at load 0.8 (doc/validation/equilibrium.rst): the window's
    # first half must hold it, with room for FCTs that grow as the fabric fills
    ("datamining", None, None): {"duration": "1s", "warmup": "100ms", "cooldown": "30ms"},
    # ... and at load 0.6 it was 0.47 to 0.56 s in 1 s runs (seed 1, every scheme), past the
    # window's middle: the open flows still rose there by 30 to 43% (2026-11-28, the same
    # document), so from 0.6 on the window is twice as long
    ("datamining", 0.6, None): {"duration": "2s"},
    ("datamining", 0.8, None): {"duration": "2s"},
}
WINDOW_FIELDS = ("duration", "warmup", "cooldown")
MAX_TIME = "200s"  # the simulator's safety stop (--maxTime)
PROGRESS = "60s"  # wall-clock time between two progress lines of a running simulator
# DCON runs also write what DCON's queues and senders did per millisecond (dcon-timeline.csv,
# dcon-senders.csv; scripts/dcon_timeline.py): where a run's own check flags it, the records
# show which queues in which of DCON's states, and what the senders did meanwhile.
DCON_TIMELINE = ["--ns3::DconTimeline::Interval=1ms"]
LOADS = [0.4, 0.6, 0.8]
SEEDS = [1, 2, 3]
SCALES = ["full", "small", "tiny"]
QUICK = {"scale": "small", "duration": "2ms", "warmup": "0.5ms", "cooldown": "0ms", "seeds": [1]}

BINARY = os.path.join("examples", "dcon-large-scale")
RUN_METRICS = {  # <fig>-runs.csv column -> stats.json field
    "avg_fct_s": "avg_fct_s", "p99_fct_s": "p99_fct_s", "median_fct_s": "median_fct_s",
    "pause_rate_per_s": "pause_rate_per_s", "completion_ratio": "completion_ratio",
    "arrival_pause_frames": "arrival_pause_frames", "pause_frames_total": "pause_frames_total",
    "completion_ratio_measured": "completion_ratio_measured",
    "flows_measured": "flows_measured", "flows_measured_completed": "flows_measured_completed",
    "fct_count": "fct_count", "stationary": "stationary",
    "stationarity_note": "stationarity_note", "cnps": "cnps_sent", "cnms": "cnms_received",
    "flows_total": "flows_total", "flows_completed": "flows_completed",
    "wall_time_s": "wall_time_s", "complete": "complete",
    # the data-driven window and its verdict (fct_stats.py, Equilibrium)
    "measured_start_s": "measured_start_s", "measured_end_s": "measured_end_s",
    "equilibrium_start_s": "equilibrium_start_s",
    "equilibrium_too_short": "equilibrium_too_short",
    "equilibrium_more_needed_s": "equilibrium_more_needed_s", "overload": "overload",
    "active_growth_per_s": "active_growth_per_s",
    "active_growth_pct_per_10ms": "active_growth_pct_per_10ms",
    "buffer_growth_bytes_per_s": "buffer_growth_bytes_per_s",
    "buffer_growth_pct_per_10ms": "buffer_growth_pct_per_10ms",
    "mean_active_flows": "mean_active_flows", "mean_buffer_bytes": "mean_buffer_bytes",
    "little_ratio": "little_ratio",
    # the nominal (fixed, hand-set) window: the old statistics, for the comparison
    "nominal_avg_fct_s": "nominal_avg_fct_s", "nominal_p99_fct_s": "nominal_p99_fct_s",
    "nominal_pause_rate_per_s": "nominal_pause_rate_per_s",
    "nominal_stationary": "nominal_stationary",
}
TEXT_COLUMNS = {"stationarity_note", "flag", "criterion"}
CI_METRICS = ["avg_fct_s", "p99_fct_s", "pause_rate_per_s", "nominal_avg_fct_s",
              "nominal_p99_fct_s", "nominal_pause_rate_per_s"]

Run = collections.namedtuple(
    "Run", "workload variant load seed duration warmup scale max_time cooldown tag args",
    defaults=("0ms", "", ()))

SweepError = sweep_runner.SweepError


fmt_num = sweep_runner.fmt_num


canonical_time = sweep_runner.canonical_time
seconds = sweep_runner.seconds


def run_name(run):
    """The run's directory name; equal parameters give equal names whatever the figure. A
    cool-down, when not 0, is appended as -c{cooldown}."""
    return (f"{run.workload}-{run.variant}-load{fmt_num(run.load)}-s{run.seed}"
            f"-d{run.duration}-w{run.warmup}-{run.scale}"
            + (f"-c{run.cooldown}" if seconds(run.cooldown) > 0 else "")
            + (f"-{run.tag}" if run.tag else ""))


def table_window(workload, load=None, variant=None, windows=None):
    """{"duration", "warmup", "cooldown"} of a run from the WINDOWS table (or `windows`): each
    value from the most specific matching row (see WINDOWS). SweepError for a workload without
    its default row, a key that is not a triple, an unknown variant or field, or a time that is
    not one."""
    windows = WINDOWS if windows is None else windows
    if (workload, None, None) not in windows:
        raise SweepError(f"WINDOWS has no row ({workload!r}, None, None) for workload "
                         f"{workload!r}")
    for k in windows:
        if not (isinstance(k, tuple) and len(k) == 3):
            raise SweepError(f"WINDOWS: key {k!r} is not (workload, load or None, variant or "
                             f"None)")
        if k[0] == workload and k[2] is not None:
            try:
                variants.get(k[2])
            except variants.VariantError as e:
                raise SweepError(f"WINDOWS{k!r}: {e}") from None
    out = {}
    load = None if load is None else float(load)
    for key in ((workload, None, None), (workload, None, variant), (workload, load, None),
                (workload, load, variant)):
        match = [k for k in windows if k[0] == key[0]
                 and (k[1] is None if key[1] is None else k[1] is not None
                      and math.isclose(float(k[1]), key[1]))
                 and k[2] == key[2]]
        for k in match:
            row = windows[k]
            bad = [f for f in row if f not in WINDOW_FIELDS]
            if bad:
                raise SweepError(f"WINDOWS{k!r}: unknown field {bad[0]!r} (fields: "
                                 f"{', '.join(WINDOW_FIELDS)})")
            for field, value in row.items():
                out[field] = canonical_time(value, f"WINDOWS{k!r} {field}",
                                            allow_zero=field != "duration")
    missing = [f for f in WINDOW_FIELDS if f not in out]
    if missing:
        raise SweepError(f"WINDOWS[({workload!r}, None, None)] lacks {', '.join(missing)}")
    return out


def window(workload, duration=None, warmup=None, cooldown=None, load=None, variant=None):
    """(duration, warm-up, cool-down) of a run: the given ones, else the WINDOWS table's for
    its workload, load and variant; SweepError when warm-up and cool-down together are not
    shorter than the window."""
    t = table_window(workload, load, variant)
    d, w, c = duration or t["duration"], warmup or t["warmup"], cooldown or t["cooldown"]
    if seconds(w) + seconds(c) >= seconds(d):
        raise SweepError(f"the warm-up ({w}) and cool-down ({c}) must leave part of the arrival "
                         f"window ({d}) of {workload}"
                         + (f" at load {fmt_num(load)}" if load is not None else "")
                         + (f" ({variant})" if variant else "") + " to measure")
    return d, w, c


def fig_runs(fig, seeds=SEEDS, loads=None, scale="full", duration=None, warmup=None,
             max_time=MAX_TIME, cooldown=None, extra_variants=(), only_variants=None):
    """The runs of one figure, in plotting order (variant, load, seed). loads None: the
    figure's own loads, else LOADS; duration/warmup/cooldown None: the run's from the WINDOWS
    table (per workload, load and variant); extra_variants: more variants after the figure's
    own (e.g. another --cc);
    only_variants: if given, only these of the figure's variants."""
    if fig not in FIGURES:
        raise SweepError(f"unknown figure {fig!r} (choose from {', '.join(FIG_NAMES)}, all)")
    f = FIGURES[fig]
    names = list(f.variants) + [v for v in extra_variants if v not in f.variants]
    if only_variants is not None:
        names = [v for v in names if v in only_variants]
    runs = []
    for v in names:
        for load in (loads or f.loads or LOADS):
            d, w, c = window(f.workload, duration, warmup, cooldown, load, v)
            runs += [Run(f.workload, v, float(load), int(seed), d, w, scale, max_time, c, f.tag,
                         f.args) for seed in seeds]
    return runs


def plan(figs, **settings):
    """{run name: Run} over the figures, each shared run once (first-figure order)."""
    runs = {}
    for fig in figs:
        for r in fig_runs(fig, **settings):
            runs.setdefault(run_name(r), r)
    return runs


# --extend: a run whose verdict asks for more time (wants_more_time: not at equilibrium, not an
# overload that a longer window cannot change) is run again with twice its arrival window, up to
# this many (--extend MAX to change).
EXTEND_MAX = "600ms"


def extended(run):
    """The same run with twice its arrival window ('150ms' -> '300ms'; warm-up, cool-down,
    seed and settings unchanged): its own name, its own record."""
    m = sweep_runner.TIME_RE.match(run.duration)
    return run._replace(duration=canonical_time(fmt_num(2 * float(m.group(1))) + m.group(2)))


def wants_more_time(stats):
    """True when a run's statistics (data-driven window) flag it for a reason a longer window
    can settle: not at equilibrium (not settled, still falling, too short, Little's law) and
    not an overload (a backlog that keeps growing is a result: its growth rate is reported).
    Two overloads are not yet results and want more time too:
    - one in a run too short (a series reached its level only in the window's last half, or
      the fill time of its FCT law lies there): the growth then rests on a short stretch just
      after the warm-up, and a late level or a slow fill reads as growth (Swift at WebSearch
      0.6, seed 3: "overload (+4.2%/10 ms), too short" at 150 ms, at equilibrium at 300 ms;
      DataMining at 0.6 in 1 s windows, its fill time 0.52 to 0.56 s);
    - one of the buffered bytes alone, the open flows holding their level: PFC bounds a lossless
      fabric's buffers, so a backlog that lasts shows in the open flows, and buffers that
      grow while the open flows do not are moving to another level (DCON's slide toward its
      Q_ECN floor, doc/validation/equilibrium.rst) or have not yet passed the backlog on."""
    if not (stats.get("equilibrium_method") and stats.get("stationary") is False):
        return False
    if not stats.get("overload"):
        return True
    series = stats.get("equilibrium_series") or {}
    buffers_only = ("active_flows" in series
                    and (series.get("buffer_bytes") or {}).get("overload")
                    and not (series.get("active_flows") or {}).get("overload"))
    return bool(stats.get("equilibrium_too_short") or buffers_only)


def latest(run, stats):
    """The longest run of `run`'s extensions (run, extended(run), ...) that has statistics:
    what the tables report for the point (run itself when no extension has any)."""
    while run_name(extended(run)) in stats:
        run = extended(run)
    return run


def reported_runs(run_list, stats):
    """{planned run: the run the tables report for it}: each run's longest extension with
    statistics (latest), except at a load whose runs not at equilibrium (stationary not true),
    over the variants and seeds of the list, end at different arrival windows. An overload's
    FCT grows with its window, so a mean over a 300 ms run of one seed and 150 ms runs of the
    others mixes two windows (Swift at WebSearch 0.8 after ``--extend`` of seed 1 alone), and a
    scheme run 300 ms does not compare with one run 150 ms (scripts/paper_claims.py pairs only
    runs of one window). Those runs are then reported at the shortest of their windows (every
    shorter link of an extension chain has run); the runs at equilibrium keep their longest
    window."""
    chosen = {r: latest(r, stats) for r in run_list}
    points = collections.defaultdict(list)
    for r in run_list:
        points[(r.workload, r.load, r.scale)].append(r)
    for rs in points.values():
        open_ = [r for r in rs if run_name(chosen[r]) in stats
                 and stats[run_name(chosen[r])].get("stationary") is not True]
        windows = {seconds(chosen[r].duration) for r in open_}
        if len(windows) < 2:
            continue
        shortest = min(windows)
        for r in open_:
            x = r
            while seconds(x.duration) < shortest * (1 - 1e-9):
                x = extended(x)
            if run_name(x) in stats:
                chosen[r] = x
    return chosen


def with_extensions(runs, results, store=None):
    """runs plus every extension of them that has finished (a folder in results) or has a record
    in the store, following each chain while its next link exists: the runs whose statistics the
    tables may need."""
    out = dict(runs)
    for run in runs.values():
        nxt = extended(run)
        while (is_complete(os.path.join(results, run_name(nxt)))
               or (store is not None and os.path.isfile(run_store.path(store, run_name(nxt))))):
            out.setdefault(run_name(nxt), nxt)
            nxt = extended(nxt)
    return out


def extensions_due(runs, stats, max_duration=EXTEND_MAX):
    """{name: Run}: for each planned run, the extension of its longest finished run when that
    run wants more time (wants_more_time) and the extension's window is at most max_duration."""
    due = {}
    for run in runs.values():
        last = latest(run, stats)
        s = stats.get(run_name(last))
        if s is None or not wants_more_time(s):
            continue
        nxt = extended(last)
        if seconds(nxt.duration) <= seconds(max_duration) * (1 + 1e-9):
            due[run_name(nxt)] = nxt
    return due


def is_complete(run_dir):
    """Finished run: has summary.json and run.json and is not a .tmp directory."""
    return fct_stats.is_complete(run_dir)


def command(binary, run, outdir, ranks=1):
    """The simulator's argv of a run writing into outdir (under mpirun -np ranks if ranks > 1)."""
    launch = ["mpirun", "-np", str(ranks), "--bind-to", "none"] if ranks > 1 else []
    return launch + ([binary, f"--workload={run.workload}", f"--load={fmt_num(run.load)}",
             "--loadType=core", f"--duration={run.duration}", f"--warmup={run.warmup}",
             f"--seed={run.seed}", f"--scale={run.scale}", f"--maxTime={run.max_time}",
             f"--outdir={outdir}"]
            + ([f"--cooldown={run.cooldown}"] if seconds(run.cooldown) > 0 else [])
            + variants.args(run.variant) + list(run.args)
            + (DCON_TIMELINE if "--cc=dcon" in variants.args(run.variant) else []))


def execute(runs, binary, results, jobs, ranks=1, store=None, scheduler=None,
            progress=PROGRESS):
    """Run what is not finished yet (sweep_runner.execute; on the Dask scheduler `scheduler`
    when given): runs with a current record in the store count as finished, and each run that
    finishes gets its statistics and its record in the store at once (collect_stats), so that
    a sweep cut off later (a session that ends, a machine that goes) keeps every run it
    finished. The simulators print a progress line every `progress` of wall-clock time (their
    --progress; "0s": none) into RESULTS/NAME.stdout.txt while they run; it is not
    one of the arguments that define a run (run_args), so it does not touch the records.
    Returns the failure messages."""
    have = stored(runs, store)
    if have:
        print(f"{len(have)} of {len(runs)} runs have a current record in {store}")
    runs = {n: r for n, r in runs.items() if n not in have}

    def record(name):  # collect_stats has reported its failures: "NAME: stats: ..."
        return "; ".join(m.split(": ", 1)[1] for m in
                         collect_stats({name: runs[name]}, results, store)[1]) or None

    watch = [f"--progress={progress}"] if seconds(progress) > 0 else []
    return sweep_runner.execute(runs,
                                lambda run, outdir: command(binary, run, outdir, ranks) + watch,
                                binary, results, jobs, fct_stats.RUN_FILES, "large-scale runs",
                                scheduler, MPI_ENV if ranks > 1 else None,
                                on_done=record if store is not None else None)


# mpirun's permission to run as root (containers, CI)
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


# stats.json fields left out of a run's record in the store: machine paths (the CDF file, and
# run.json's record of the command line, which names the binary and the output folder), wall
# time and the per-link detail (the tables use none of them), and run.json's build (the record
# keeps the run's build record apart, with the program's path: builds.of_run).
RECORD_DROP = {"cdf_file", "command_line", "options_given", "wall_time_s", "build", "resources",
               "pause_frames_in_window_per_link", "pause_rate_per_link",
               "pause_frames_per_link_total"}
# summary.json objects kept in the record besides stats.json (DCON's queue and CNM totals).
RECORD_SUMMARY = ["dcon_queues", "cnms", "spreading"]
# <fig>-runs.csv columns from summary.json's "spreading" (runs with --spreading)
SPREAD_METRICS = ["victim_s", "culprit_s", "victim_share", "victim_hold_s", "culprit_hold_s",
                  "max_depth"]
DEFAULT_STORE = os.path.join(run_store.STORE_ROOT, "large")


def run_args(run):
    """The simulator arguments that define a run (its command without binary and outdir): what
    its record in the store is checked against."""
    return [a for a in command("BINARY", run, "OUTDIR")
            if a != "BINARY" and not a.startswith("--outdir=")]


def record_data(run_dir, stats):
    """The compact numbers of a finished run for the store: its stats without RECORD_DROP, plus
    RECORD_SUMMARY from summary.json (DCON's per-queue list left out)."""
    data = {k: v for k, v in stats.items() if k not in RECORD_DROP}
    summary = fct_stats.read_json(os.path.join(run_dir, "summary.json"))
    for key in RECORD_SUMMARY:
        if key in summary:
            obj = dict(summary[key])
            obj.pop("per_queue", None)
            data[key] = obj
    return data


def stored(runs, store):
    """{name: data} of the runs with a current record in the store (none when store is None);
    data["build"] is the record's build record (None when it has none)."""
    if store is None:
        return {}
    out = {}
    for name, run in runs.items():
        rec = run_store.current(store, name, run_args(run), record=True)
        if rec is not None:
            out[name] = dict(rec["data"], build=rec.get("build"),
                             resources=rec.get("resources"))
    return out


def outdated(stats):
    """True for statistics made by an older equilibrium criterion than fct_stats.CRITERION (a
    record without equilibrium_criterion: version 1; a fixed-window record is not outdated: it
    has no series to judge again)."""
    return (stats.get("equilibrium_method") is not None
            and stats.get("equilibrium_criterion", 1) < fct_stats.CRITERION)


def collect_stats(runs, results, store=None, restat=False):
    """{name: stats dict} for the finished runs: a current record of the store (unless it is
    outdated, by an older equilibrium criterion, and the run's folder is in results), else the
    run's folder in results (stats.json, recomputed when it is older than summary.json or
    scripts/fct_stats.py), which then becomes the run's record in the store (when one is given).
    An outdated record whose folder is gone is kept as it is (its criterion_version column
    says so). restat: every run whose folder is in results gets its statistics computed again
    and its record made again (after a change to scripts/fct_stats.py). Returns (stats,
    failure messages)."""
    stats, failures = {}, []
    script_mtime = os.path.getmtime(fct_stats.__file__)
    have = stored(runs, store)
    for name in tqdm(list(runs), desc="stats", unit="run", leave=False):
        d = os.path.join(results, name)
        if name in have and not ((restat or outdated(have[name])) and is_complete(d)):
            stats[name] = have[name]
            continue
        if not is_complete(d):
            continue
        path = os.path.join(d, "stats.json")
        try:
            if (not restat and os.path.isfile(path) and os.path.getmtime(path) >= max(
                    script_mtime, os.path.getmtime(os.path.join(d, "summary.json")))):
                stats[name] = fct_stats.read_json(path)
            else:
                stats[name] = fct_stats.write_stats(d)
            stats[name]["build"] = builds.of_run(d)
            stats[name]["resources"] = sweep_runner.read_resources(d)
            if store is not None:
                run_store.save(store, name, run_args(runs[name]), record_data(d, stats[name]),
                               build=stats[name]["build"],
                               resources=stats[name]["resources"])
        except (fct_stats.StatsError, run_store.StoreError) as e:
            failures.append(f"{name}: stats: {e}")
            tqdm.write(f"FAILED stats of {name}: {e}", file=sys.stderr)
    return stats, failures


RUN_KEYS = ["fig", "run", "workload", "variant", "label", "load", "seed", "duration", "warmup",
            "cooldown", "scale"]


def record_columns(s):
    """The RUN_METRICS of a stats.json (or a record's data), with "flag"
    (fct_stats.flag_text) and "criterion": "equilibrium" for statistics of the data-driven
    window, "fixed window" for a record made before it (whose statistics are those of its
    nominal window: its nominal_* columns are filled with them), and "criterion_version": the
    equilibrium criterion's version (fct_stats.CRITERION; 1 for a record without one, None for
    a fixed window)."""
    row = {col: s.get(key) for col, key in RUN_METRICS.items()}
    if s.get("equilibrium_method") is None and "nominal_avg_fct_s" not in s:
        row["criterion"] = "fixed window"
        for key in ("avg_fct_s", "p99_fct_s", "pause_rate_per_s", "stationary"):
            row["nominal_" + key] = s.get(key)
    else:
        row["criterion"] = "equilibrium"
    row["criterion_version"] = (s.get("equilibrium_criterion", 1)
                                if row["criterion"] == "equilibrium" else None)
    row["flag"] = fct_stats.flag_text(s)
    return row


def runs_table(fig, fig_run_list, stats):
    """One row per run of `fig` that has stats: figure keys (those of the planned run: its
    duration is the WINDOWS table's), the run actually reported (`run`: its longest extension
    with statistics, or one window for a point's runs not at equilibrium: reported_runs), its
    arrival_window, extended (True when that is an
    extension) and metrics (None -> NaN)."""
    rows = []
    reported = reported_runs(fig_run_list, stats)
    for r in fig_run_list:
        last = reported[r]
        s = stats.get(run_name(last))
        if s is None:
            continue
        row = {"fig": fig, "run": run_name(last), "label": variants.label(r.variant),
               **{k: v for k, v in r._asdict().items() if k in RUN_KEYS},
               "arrival_window": last.duration, "extended": last != r}
        for col, v in record_columns(s).items():
            row[col] = math.nan if v is None and col not in TEXT_COLUMNS else v
        spread = s.get("spreading") or {}
        for col in SPREAD_METRICS:
            row[col] = spread.get(col, math.nan)
        row["build"] = builds.label(s.get("build"))
        res = s.get("resources") or {}
        for col in RESOURCE_COLUMNS:
            row[col] = res.get(col, math.nan if col != "host" else "")
        rows.append(row)
    return pd.DataFrame(rows, columns=RUN_KEYS + ["arrival_window", "extended"]
                        + list(RUN_METRICS) + ["criterion", "criterion_version", "flag"]
                        + SPREAD_METRICS + ["build"]
                        + RESOURCE_COLUMNS)


# <fig>-runs.csv columns from the run's resources (scripts/sweep_runner.py; NaN for runs
# recorded before the sweeps measured them)
RESOURCE_COLUMNS = ["cpu_s", "max_rss_mib", "host"]


def cost_text(runs_t):
    """One line on what the reported runs of a runs_table cost: their CPU hours and the largest
    peak memory per variant, over the runs that have resources (and how many do not)."""
    if not len(runs_t):
        return "cost: no run in this table"
    cpu = pd.to_numeric(runs_t.cpu_s, errors="coerce")
    measured = runs_t[cpu.notna()]
    if not len(measured):
        return "cost: no run of this table has its resources recorded"
    peaks = (measured.assign(m=pd.to_numeric(measured.max_rss_mib, errors="coerce"))
             .groupby("variant", sort=False).m.max())
    text = (f"cost: {cpu.sum() / 3600:.2f} CPU hours over {len(measured)} run(s)"
            + (f" ({len(runs_t) - len(measured)} without resources)"
               if len(measured) < len(runs_t) else "")
            + "; peak memory " + ", ".join(f"{v} {m:.0f} MiB" if pd.notna(m) else f"{v} n/a"
                                           for v, m in peaks.items()))
    return text


SUMMARY_KEYS = ["fig", "workload", "variant", "label", "load", "duration", "warmup", "cooldown",
                "scale"]


def summary_table(runs):
    """One row per variant and load of a runs_table: n, METRIC_mean/_std/_ci95 of CI_METRICS
    (those of the measured window and of the nominal one), seeds (space-separated),
    non_stationary (runs with stationary false), overloaded (runs with overload true),
    fixed_window (runs recorded before the data-driven window), extended (runs reported from an
    extension, see --extend), arrival_windows ("/"-separated, e.g. 150ms/300ms), flagged_runs
    ("s<seed>: <flag>" of each flagged run, "; "-separated), max_equilibrium_start_s and
    min_completion_ratio_measured."""
    def extra(g):
        flags = [f"s{seed}: {flag}" for seed, flag in zip(g.seed, g["flag"].fillna(""))
                 if flag]
        return {"seeds": " ".join(map(str, g.seed)),
                "non_stationary": int((g.stationary == False).sum()),  # noqa: E712
                "overloaded": int((g.overload == True).sum()),  # noqa: E712
                "fixed_window": int((g.criterion == "fixed window").sum()),
                "extended": int((g.extended == True).sum()),  # noqa: E712
                "arrival_windows": "/".join(dict.fromkeys(g.arrival_window.astype(str))),
                "flagged_runs": "; ".join(flags),
                "max_equilibrium_start_s": pd.to_numeric(g.equilibrium_start_s,
                                                         errors="coerce").max(),
                "min_completion_ratio_measured": pd.to_numeric(
                    g.completion_ratio_measured, errors="coerce").min()}
    return seed_stats.aggregate(runs, SUMMARY_KEYS, CI_METRICS, extra)


def windows_text():
    """The WINDOWS table in one line, for --help."""
    def key(k):
        return "/".join([k[0]] + (["load " + fmt_num(k[1])] if k[1] is not None else [])
                        + ([k[2]] if k[2] else []))
    return ", ".join("%s %s" % (key(k), " ".join(f"{f[0]}{v[f]}" for f in WINDOW_FIELDS
                                                 if f in v)) for k, v in WINDOWS.items())


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("figures", nargs="+", metavar="FIG", choices=FIG_NAMES + ["all"],
                    help="figures to sweep: %s, or all" % " ".join(FIG_NAMES))
    ap.add_argument("--quick", action="store_true",
                    help="scale small, 2 ms window, 0.5 ms warm-up, one seed (explicit options "
                         "still win)")
    ap.add_argument("--list", action="store_true",
                    help="print the plan (run names and commands) and exit without running")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                    help="parallel runs (default: the number of CPUs, %(default)s)")
    ap.add_argument("--seeds", type=int, nargs="+", default=None,
                    help="seeds, i.e. ns-3 run numbers >= 1 (default 1 2 3; quick 1)")
    ap.add_argument("--loads", type=float, nargs="+", default=None,
                    help="core loads for every figure (default 0.4 0.6 0.8; sens 0.8)")
    ap.add_argument("--duration", default=None,
                    help="arrival window incl. warm-up and cool-down, for every run (default: "
                         "the WINDOWS table, per workload, load and variant: " + windows_text()
                         + "; quick 2ms)")
    ap.add_argument("--warmup", default=None,
                    help="nominal warm-up, for every run: the nominal_* statistics leave it out "
                         "(the measured window starts where the data show the equilibrium; "
                         "default: the WINDOWS table; quick 0.5ms)")
    ap.add_argument("--cooldown", default=None,
                    help="end of the window left out of the statistics, for every run (default: "
                         "the WINDOWS table); not 0: the run names end in -c<cooldown>")
    ap.add_argument("--max-time", default=MAX_TIME,
                    help="simulator safety stop (default %(default)s)")
    ap.add_argument("--progress", default=PROGRESS, metavar="WALL",
                    help="wall-clock time between two progress lines of a running simulator "
                         "(simulated time, flows done), written to RESULTS/NAME.stdout.txt "
                         "while it runs; 0s: none (default %(default)s)")
    ap.add_argument("--scale", default=None, help="full|small|tiny (default full, quick small)")
    ap.add_argument("--build", default=None,
                    help="build folder of the simulator (default: the fastest up-to-date one, "
                         "build-mpi/bin or build/; scripts/builds.py)")
    ap.add_argument("--ranks", type=int, default=1,
                    help="MPI ranks per run (> 1: mpirun -np RANKS with build-mpi/bin's program, "
                         "scripts/setup-mpi.sh; give -j so that jobs x ranks <= cores)")
    sweep_runner.add_executor_option(ap)
    ap.add_argument("--results", default=os.path.join("results", "large"),
                    help="results directory (default results/large)")
    ap.add_argument("--store", default=None,
                    help="folder of the runs' compact records, kept in the repository "
                         "(scripts/run_store.py): runs recorded there with today's arguments "
                         "and model versions are not run again, finished runs are recorded, "
                         "the tables come from the records (default %s for full-scale runs; "
                         "'none' for no store; --quick: none)" % DEFAULT_STORE)
    ap.add_argument("--tables-only", action="store_true",
                    help="run nothing: tables and plots of the runs finished so far (e.g. while "
                         "another sweep is still running)")
    ap.add_argument("--no-plot", action="store_true", help="write the tables but do not plot")
    ap.add_argument("--restat", action="store_true",
                    help="compute the statistics of every finished run whose folder is in "
                         "--results again and make its record in the store again (after a "
                         "change to scripts/fct_stats.py; a record of an older equilibrium "
                         "criterion is made again without it)")
    ap.add_argument("--extend", nargs="?", const=EXTEND_MAX, default=None, metavar="MAX",
                    help="then run again, with twice the arrival window, every run whose verdict "
                         "asks for more time (not at equilibrium; an overload only when too "
                         "short or of the buffered bytes alone), round "
                         "after round, up to windows of MAX (default %s); the tables report each "
                         "point's longest run" % EXTEND_MAX)
    ap.add_argument("--only-variants", nargs="+", default=None, metavar="VARIANT",
                    help="run (and tabulate) only these variants of the chosen figures, e.g. "
                         "the baselines after a change to DCON alone")
    ap.add_argument("--add-variants", nargs="+", default=[], metavar="VARIANT",
                    help="add these variants to every chosen figure (names of scripts/variants.py "
                         "or any --cc of dcon-large-scale --list-cc, e.g. dctcp)")
    args = ap.parse_args(argv)
    for v in args.add_variants:
        try:
            variants.get(v)
        except variants.VariantError as e:
            raise SweepError(str(e)) from e
    if args.jobs < 1:
        raise SweepError(f"--jobs must be >= 1, got {args.jobs}")
    if args.ranks < 1:
        raise SweepError(f"--ranks must be >= 1, got {args.ranks}")
    quick = QUICK if args.quick else {}
    args.seeds = list(dict.fromkeys(args.seeds or quick.get("seeds", SEEDS)))
    bad = [s for s in args.seeds if s < 1]
    if bad:
        raise SweepError(f"--seeds must be >= 1 (ns-3 run numbers), got {bad[0]}")
    if args.loads is not None:
        bad = [x for x in args.loads if not 0 < x <= 1]
        if bad:
            raise SweepError(f"--loads must be in (0, 1], got {fmt_num(bad[0])}")
        args.loads = list(dict.fromkeys(args.loads))
    duration = args.duration or quick.get("duration")
    warmup = args.warmup or quick.get("warmup")
    args.duration = canonical_time(duration, "--duration") if duration else None
    args.warmup = canonical_time(warmup, "--warmup", allow_zero=True) if warmup else None
    cooldown = args.cooldown or quick.get("cooldown")
    args.cooldown = (canonical_time(cooldown, "--cooldown", allow_zero=True)
                     if cooldown else None)
    args.max_time = canonical_time(args.max_time, "--max-time")
    args.progress = canonical_time(args.progress, "--progress", allow_zero=True)
    if args.extend is not None:
        if args.tables_only:
            raise SweepError("--extend runs simulations and --tables-only runs none: give one "
                             "of them (the tables report extensions made earlier anyway)")
        args.extend = canonical_time(args.extend, "--extend")
    args.scale = args.scale or quick.get("scale", "full")
    if args.scale not in SCALES:
        raise SweepError(f"--scale must be one of {', '.join(SCALES)}, got {args.scale!r}")
    args.figs = FIG_NAMES if "all" in args.figures else list(dict.fromkeys(args.figures))
    if args.only_variants:
        offered = list(dict.fromkeys([v for f in args.figs for v in FIGURES[f].variants]
                                     + args.add_variants))
        missing = [v for v in args.only_variants if v not in offered]
        if missing:
            # a name outside the chosen figures would silently run nothing
            raise SweepError(f"--only-variants {missing[0]!r} is not a variant of "
                             f"{', '.join(args.figs)} (they have {', '.join(offered)}); "
                             "add it with --add-variants")
    if args.store is None:
        args.store = None if args.quick or args.scale != "full" else DEFAULT_STORE
    elif args.store == "none":
        args.store = None
    args.settings = dict(seeds=args.seeds, loads=args.loads, scale=args.scale,
                         duration=args.duration, warmup=args.warmup, cooldown=args.cooldown,
                         max_time=args.max_time,
                         extra_variants=tuple(dict.fromkeys(args.add_variants)),
                         only_variants=tuple(args.only_variants) if args.only_variants else None)
    return args


def extend(runs, binary, args):
    """The statistics of the runs and their extensions (collect_stats) and its failure
    messages; with --extend (and not --tables-only), first rounds of extensions_due, each run
    after the statistics of the last, until none is due (or a round has a failed run)."""
    failures = []
    restat = args.restat  # the first round only: the extensions' own runs are new
    while True:
        stats, stat_failures = collect_stats(with_extensions(runs, args.results, args.store),
                                             args.results, args.store, restat)
        restat = False
        due = ({} if args.extend is None or args.tables_only or failures
               else extensions_due(runs, stats, args.extend))
        if not due:
            return stats, failures + stat_failures
        print(f"--extend: {len(due)} run(s) want more time: {', '.join(due)}")
        failures += execute(due, binary, args.results, args.jobs, args.ranks, args.store,
                            args.scheduler, args.progress)


def print_plan(runs, binary, results, ranks=1):
    for name, run in runs.items():
        print(name)
        print("  " + " ".join(command(binary, run, os.path.join(results, name + ".tmp"), ranks)))
    print(f"{len(runs)} runs")


def main(argv=None):
    try:
        args = parse_args(argv)
        runs = plan(args.figs, **args.settings)
        program = os.path.basename(BINARY)
        if args.ranks > 1:  # an MPI build: build-mpi/bin's program unless --build names one
            mpi = args.build or os.path.join(builds.ROOT, "build-mpi")
            choice = builds.choose(program, mpi)
        else:
            choice = builds.choose(program, args.build)
        binary = choice.binary
        if args.list:
            print_plan(runs, binary, args.results, args.ranks)
            return 0
        os.makedirs(args.results, exist_ok=True)
        if choice.note and not args.tables_only:
            print(choice.note)
        failures = ([] if args.tables_only
                    else execute(runs, binary, args.results, args.jobs, args.ranks, args.store,
                                 args.scheduler, args.progress))
    except SweepError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    try:
        stats, more_failures = extend(runs, binary, args)
    except KeyboardInterrupt:
        return 130
    failures += more_failures
    for fig in args.figs:
        runs_t = runs_table(fig, fig_runs(fig, **args.settings), stats)
        path = os.path.join(args.results, fig + "-runs.csv")
        runs_t.to_csv(path, index=False)
        summary = builds.add_builds_column(summary_table(runs_t), runs_t, SUMMARY_KEYS)
        builds.warn_if_mixed(runs_t.build, f"{fig}-runs.csv and {fig}.csv")
        summary.to_csv(os.path.join(args.results, fig + ".csv"), index=False)
        flagged = int(summary.non_stationary.sum()) if len(summary) else 0
        over = int(summary.overloaded.sum()) if len(summary) else 0
        print(f"wrote {path} ({len(runs_t)} runs) and {fig}.csv ({len(summary)} points"
              + (f"; {flagged} run(s) not at equilibrium" if flagged else "")
              + (f", {over} of them overloaded" if over else "") + ")")
        print("  " + cost_text(runs_t))
    if not args.no_plot:
        plot_large.plot_dir(args.results, args.figs)
    return sweep_runner.report_failures(failures)


if __name__ == "__main__":
    sys.exit(main())

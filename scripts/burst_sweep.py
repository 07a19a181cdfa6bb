"""Burst-intensity sweep of the DCON paper (Fig. 7).

Testbed topology; H0 -> R0 and H1 -> R1 send 200 MB each from t = 0; from 30 ms, H2..H15 each
send 30 short flows to R1 (a) 64 KB flows spaced 10..30 us, (b) 32..512 KB flows spaced 15 us.
Metric: the average FCT of all 422 flows, and of the 420 short flows, per scheme variant
(scripts/variants.py: dcon, dcqcn, swift, pcn by default, any other name too). Sizes use
1 KB = 1000 B. Every run goes until all its flows have completed, with a 30 s limit
(--stop-time): DCON can leave the two 200 MB flows at a low rate for a long time.

Each point is run with the seeds 1 2 3 (--seeds; ns-3's --RngRun, independent replications:
RED marking and ECMP are random). The table has, per point, the number of seeds n and the mean,
sample standard deviation and 95% confidence half-width (Student's t, scripts/seed_stats.py) of
the two averages; the plot draws the mean with the 95% CI as error bars.

Runs go in parallel (one process per core by default) with a progress bar (sweep_runner.py): a
run whose results exist is skipped, and each run writes into a temporary folder that is renamed
when it is complete, so an interrupted sweep never leaves half a result and can simply be
restarted. A failed run is reported with its stderr tail, the others go on, the exit code is 1.

Each finished run leaves a record in the repository (scripts/run_store.py; --store, default
data/validation/fig7): a run recorded there with today's arguments and model versions is not
run again, and the tables are made from the records.

The simulator is the fastest build's dcon-testbed (build-opt/bin or build-mpi/bin when up to
date, else build/: scripts/builds.py; --build DIR or --binary PATH to choose); each run's record
and row say which build made it (the build column; a table that mixes builds is warned of).
--scheduler runs the sweep on a Dask cluster (scripts/sweep_runner.py) instead of the local pool
of -j processes.

Usage: /usr/bin/python3 -m scripts.burst_sweep [--variants dcon dcqcn swift pcn] [--seeds 1 2 3]
         [--quick] [-j N] [--stop-time 30s] [--build DIR | --binary PATH]
         [--scheduler ADDRESS] [--outdir results/fig7]
Writes RESULTS/<panel>-<variant>-<value>-s<seed>/ (the run's CSVs), RESULTS/fig7-runs.csv (one
row per run), RESULTS/fig7.csv (one row per point) and RESULTS/fig7.png.
"""
import argparse
import collections
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from . import builds  # noqa: E402
from . import run_store  # noqa: E402
from . import seed_stats  # noqa: E402
from . import sweep_runner  # noqa: E402
from . import variants  # noqa: E402

INTERVALS_US = [10, 15, 20, 25, 30]
SIZES_KB = [32, 64, 128, 256, 512]
SEEDS = [1, 2, 3]
STOP_TIME = "30s"
VARIANTS = ["dcon", "dcqcn", "swift", "pcn"]
RUN_FILES = ("summary.json",)  # dcon-testbed writes it last
METRICS = ["avg_fct_ms", "avg_short_fct_ms"]
DEFAULT_STORE = os.path.join(run_store.STORE_ROOT, "fig7")

BurstRun = collections.namedtuple("BurstRun", "panel variant value seed extra")


def runs(variant_names, quick, seeds=(1,)):
    """{run name: BurstRun} in plotting order; the name is <panel>-<variant>-<value>-s<seed>."""
    intervals = [10, 20, 30] if quick else INTERVALS_US
    sizes = [32, 128, 512] if quick else SIZES_KB
    out = {}
    for v in variant_names:
        variants.get(v)  # VariantError for an unknown name
        for iv in intervals:
            for seed in seeds:
                out["interval-%s-%d-s%d" % (v, iv, seed)] = BurstRun(
                    "interval", v, iv, seed,
                    ["--burstInterval=%dus" % iv, "--burstFlowSize=64000"])
        for kb in sizes:
            for seed in seeds:
                out["size-%s-%d-s%d" % (v, kb, seed)] = BurstRun(
                    "size", v, kb, seed,
                    ["--burstInterval=15us", "--burstFlowSize=%d" % (kb * 1000)])
    return out


def command(binary, run, outdir, stop_time=STOP_TIME):
    """The testbed command of one point: the variant's arguments, 200 MB long flows, 30 burst
    flows per sender, run to completion (at most stop_time), seed run.seed."""
    return ([binary] + variants.args(run.variant)
            + ["--outdir=" + outdir, "--RngRun=%d" % run.seed, "--longFlowSize=200000000",
               "--burstFlowsPerHost=30", "--runToCompletion=true", "--stopTime=" + stop_time,
               "--sampleInterval=1ms"] + run.extra)


RUN_COLUMNS = ["panel", "variant", "label", "value", "seed", "flows", "flows_total",
               "avg_fct_ms", "avg_short_fct_ms", "build"]


def run_args(run, stop_time=STOP_TIME):
    """The simulator arguments that define a run (its command without binary and outdir)."""
    return [a for a in command("BINARY", run, "OUTDIR", stop_time)
            if a != "BINARY" and not a.startswith("--outdir=")]


def summarize_runs(outdir, plan, store=None, stop_time=STOP_TIME):
    """One row per finished run: average FCT of all completed flows and of the short (burst)
    flows, flow id >= 2; flows = completed flows, flows_total from summary.json; build: the
    label of the build that made the run (scripts/builds.py). A run with a current record in
    `store` (scripts/run_store.py) is taken from it; a finished run in outdir without one is
    recorded there."""
    rows = []
    for name, r in plan.items():
        args = run_args(r, stop_time)
        rec = run_store.current(store, name, args, record=True) if store else None
        data, build = (rec["data"], rec.get("build")) if rec else (None, None)
        if data is None:
            d = os.path.join(outdir, name)
            if not sweep_runner.is_complete(d, RUN_FILES):
                continue
            f = pd.read_csv(os.path.join(d, "flows.csv"))
            with open(os.path.join(d, "summary.json")) as fh:
                total = json.load(fh).get("flows_total")
            data = {"flows": len(f), "flows_total": total,
                    "avg_fct_ms": f.fct_s.mean() * 1e3,
                    "avg_short_fct_ms": f[f.flow_id >= 2].fct_s.mean() * 1e3}
            build = builds.of_run(d)
            if store:
                run_store.save(store, name, args, data, build=build,
                               resources=sweep_runner.read_resources(d))
        rows.append({"panel": r.panel, "variant": r.variant, "label": variants.label(r.variant),
                     "value": r.value, "seed": r.seed, **data, "build": builds.label(build)})
    return pd.DataFrame(rows, columns=RUN_COLUMNS)


def summarize(run_table):
    """One row per point (panel, variant, value): n seeds, mean/std/ci95 of METRICS and the
    builds of its runs."""
    keys = ["panel", "variant", "label", "value"]
    return builds.add_builds_column(seed_stats.aggregate(run_table, keys, METRICS), run_table,
                                    keys)


def plot(table, path):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    names = list(dict.fromkeys(table.variant.astype(str)))
    cols = variants.colors(names)
    for ax, panel, xlabel in ((axes[0], "interval", "burst interval (us)"),
                              (axes[1], "size", "burst flow size (KB)")):
        for v in names:
            g = table[(table.panel == panel) & (table.variant.astype(str) == v)]
            g = g.sort_values("value")
            if g.empty:
                continue
            ax.errorbar(g.value, g.avg_fct_ms_mean, yerr=g.avg_fct_ms_ci95.fillna(0),
                        marker="o", capsize=3, label=variants.label(v), color=cols[v])
        ax.set_xlabel(xlabel)
        ax.set_ylabel("average FCT of all flows (ms)")
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend()
    axes[0].set_title("(a) 64 KB flows, varying interval")
    axes[1].set_title("(b) 15 us interval, varying size")
    fig.suptitle("Fig. 7 (mean over seeds, error bars: 95% CI)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--variants", "--ccs", nargs="+", default=VARIANTS,
                    help="scheme variants (scripts/variants.py; default %(default)s)")
    ap.add_argument("--seeds", type=int, nargs="+", default=SEEDS,
                    help="ns-3 run numbers (--RngRun) >= 1 (default 1 2 3)")
    ap.add_argument("--quick", action="store_true", help="3 points per panel instead of 5")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--stop-time", default=STOP_TIME,
                    help="limit of a run (default %(default)s)")
    ap.add_argument("--build", default=None,
                    help="build folder of dcon-testbed (default: the fastest up-to-date one, "
                         "build-mpi/bin or build/; scripts/builds.py)")
    ap.add_argument("--binary", default=None, help="the simulator itself (instead of --build)")
    sweep_runner.add_executor_option(ap)
    ap.add_argument("--outdir", default="results/fig7")
    ap.add_argument("--store", default=DEFAULT_STORE,
                    help="folder of the runs' records in the repository (scripts/run_store.py; "
                         "'none': no records; default %(default)s)")
    args = ap.parse_args(argv)
    store = None if args.store == "none" else args.store
    try:
        if args.jobs < 1:
            raise sweep_runner.SweepError("--jobs must be >= 1, got %d" % args.jobs)
        bad = [s for s in args.seeds if s < 1]
        if bad:
            raise sweep_runner.SweepError("--seeds must be >= 1, got %d" % bad[0])
        try:
            plan = runs(args.variants, args.quick, list(dict.fromkeys(args.seeds)))
        except variants.VariantError as e:
            raise sweep_runner.SweepError(str(e)) from None
        os.makedirs(args.outdir, exist_ok=True)
        try:
            todo = {n: r for n, r in plan.items() if not (
                store and run_store.current(store, n, run_args(r, args.stop_time)) is not None)}
        except run_store.StoreError as e:
            raise sweep_runner.SweepError(str(e)) from None
        if len(todo) < len(plan):
            print(f"{len(plan) - len(todo)} of {len(plan)} runs have a current record in {store}")
        choice = None if args.binary else builds.choose("dcon-testbed", args.build)
        binary = args.binary or choice.binary
        if todo and choice and choice.note:
            print(choice.note)
        failures = sweep_runner.execute(
            todo, lambda run, outdir: command(binary, run, outdir, args.stop_time),
            binary, args.outdir, args.jobs, RUN_FILES, "fig7 runs", args.scheduler)
    except sweep_runner.SweepError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    try:
        run_table = summarize_runs(args.outdir, plan, store, args.stop_time)
    except run_store.StoreError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    run_table.to_csv(os.path.join(args.outdir, "fig7-runs.csv"), index=False)
    builds.warn_if_mixed(run_table.build, "fig7-runs.csv and fig7.csv")
    table = summarize(run_table)
    table.to_csv(os.path.join(args.outdir, "fig7.csv"), index=False)
    if len(table):
        plot(table, os.path.join(args.outdir, "fig7.png"))
        print("wrote %s" % os.path.join(args.outdir, "fig7.png"))
    cols = ["panel", "variant", "value", "n", "avg_fct_ms_mean", "avg_fct_ms_ci95",
            "avg_short_fct_ms_mean", "avg_short_fct_ms_ci95"]
    print(table[cols].to_string(index=False, float_format=lambda x: "%.4g" % x))
    incomplete = run_table[run_table.flows_total.notna()
                           & (run_table.flows < run_table.flows_total)]
    if len(incomplete):
        print("%d run(s) stopped before all their flows completed (raise --stop-time)"
              % len(incomplete), file=sys.stderr)
    return sweep_runner.report_failures(failures)


if __name__ == "__main__":
    sys.exit(main())

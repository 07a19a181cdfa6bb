#!/usr/bin/python3
"""Burst-intensity sweep of the DCON paper (Fig. 7; dcon.md 3.2).

Testbed topology; H0 -> R0 and H1 -> R1 send 200 MB each from t = 0; from 30 ms, H2..H15 each
send 30 short flows to R1 (a) 64 KB flows spaced 10..30 us, (b) 32..512 KB flows spaced 15 us.
Metric: the average FCT of all 422 flows, per scheme. Sizes use 1 KB = 1000 B.

Runs go in parallel (one process per core by default) with a progress bar (sweep_runner.py): a
run whose results exist is skipped, and each run writes into a temporary folder that is renamed
when it is complete, so an interrupted sweep never leaves half a result and can simply be
restarted. A failed run is reported with its stderr tail, the others go on, the exit code is 1.

Usage: /usr/bin/python3 scripts/burst_sweep.py [--ccs dcon dcqcn swift pcn] [--quick] [-j N]
Writes RESULTS/<panel>-<cc>-<value>/ (the run's CSVs), RESULTS/fig7.csv and RESULTS/fig7.png.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_runner  # noqa: E402

INTERVALS_US = [10, 15, 20, 25, 30]
SIZES_KB = [32, 64, 128, 256, 512]
LABELS = {"dcon": "DCON", "dcqcn": "DCQCN", "pcn": "PCN", "swift": "Swift", "timely": "TIMELY"}
# The same colour per scheme as scripts/plot_large.py.
COLORS = {"dcon": "tab:red", "dcqcn": "tab:blue", "swift": "tab:green", "pcn": "tab:orange",
          "timely": "tab:purple"}


RUN_FILES = ("summary.json",)  # dcon-testbed writes it last


def runs(ccs, quick):
    """{run name: (panel, cc, value, extra simulator options)} in plotting order."""
    intervals = [10, 20, 30] if quick else INTERVALS_US
    sizes = [32, 128, 512] if quick else SIZES_KB
    out = {}
    for cc in ccs:
        for iv in intervals:
            out["interval-%s-%d" % (cc, iv)] = (
                "interval", cc, iv, ["--burstInterval=%dus" % iv, "--burstFlowSize=64000"])
        for kb in sizes:
            out["size-%s-%d" % (cc, kb)] = (
                "size", cc, kb, ["--burstInterval=15us", "--burstFlowSize=%d" % (kb * 1000)])
    return out


def command(binary, run, outdir):
    """The testbed command of one point: 200 MB long flows, 30 burst flows per sender, run to
    completion."""
    _, cc, _, extra = run
    return [binary, "--cc=" + cc, "--outdir=" + outdir, "--longFlowSize=200000000",
            "--burstFlowsPerHost=30", "--runToCompletion=true", "--stopTime=2s",
            "--sampleInterval=1ms"] + extra


def summarize(outdir, plan):
    """One row per finished run: average FCT of all flows and of the short (burst) flows."""
    rows = []
    for name, (panel, cc, value, _) in plan.items():
        d = os.path.join(outdir, name)
        if not sweep_runner.is_complete(d, RUN_FILES):
            continue
        f = pd.read_csv(os.path.join(d, "flows.csv"))
        rows.append({"panel": panel, "cc": cc, "value": value, "flows": len(f),
                     "avg_fct_ms": f.fct_s.mean() * 1e3,
                     "avg_short_fct_ms": f[f.flow_id >= 2].fct_s.mean() * 1e3})
    return pd.DataFrame(rows, columns=["panel", "cc", "value", "flows", "avg_fct_ms",
                                       "avg_short_fct_ms"])


def plot(table, path):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, panel, xlabel in ((axes[0], "interval", "burst interval (us)"),
                              (axes[1], "size", "burst flow size (KB)")):
        for cc, g in table[table.panel == panel].groupby("cc", sort=True):
            ax.plot(g.value, g.avg_fct_ms, marker="o", label=LABELS.get(cc, cc),
                    color=COLORS.get(cc))
        ax.set_xlabel(xlabel)
        ax.set_ylabel("average FCT of all flows (ms)")
        ax.grid(alpha=0.3)
        ax.legend()
    axes[0].set_title("(a) 64 KB flows, varying interval")
    axes[1].set_title("(b) 15 us interval, varying size")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--ccs", nargs="+", default=["dcon", "dcqcn", "swift", "pcn"])
    ap.add_argument("--quick", action="store_true", help="3 points per panel instead of 5")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--binary", default="build/examples/dcon-testbed")
    ap.add_argument("--outdir", default="results/fig7")
    args = ap.parse_args(argv)
    plan = runs(args.ccs, args.quick)
    try:
        if args.jobs < 1:
            raise sweep_runner.SweepError("--jobs must be >= 1, got %d" % args.jobs)
        os.makedirs(args.outdir, exist_ok=True)
        failures = sweep_runner.execute(
            plan, lambda run, outdir: command(args.binary, run, outdir), args.binary,
            args.outdir, args.jobs, RUN_FILES, "fig7 runs")
    except sweep_runner.SweepError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    table = summarize(args.outdir, plan)
    table.to_csv(os.path.join(args.outdir, "fig7.csv"), index=False)
    plot(table, os.path.join(args.outdir, "fig7.png"))
    print(table.to_string(index=False))
    print("wrote %s" % os.path.join(args.outdir, "fig7.png"))
    if failures:
        print("%d run(s) failed:\n  " % len(failures)
              + "\n  ".join(f.splitlines()[0] for f in failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

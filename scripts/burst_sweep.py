#!/usr/bin/python3
"""Burst-intensity sweep of the DCON paper (Fig. 7; dcon.md 3.2).

Testbed topology; H0 -> R0 and H1 -> R1 send 200 MB each from t = 0; from 30 ms, H2..H15 each
send 30 short flows to R1 (a) 64 KB flows spaced 10..30 us, (b) 32..512 KB flows spaced 15 us.
Metric: the average FCT of all 422 flows, per scheme. Sizes use 1 KB = 1000 B.

Runs go in parallel (one process per core by default) with a progress bar; a run whose
results exist is skipped, and each run writes into a temporary folder that is renamed when it
is complete, so an interrupted sweep never leaves half a result and can simply be restarted.

Usage: /usr/bin/python3 scripts/burst_sweep.py [--ccs dcon dcqcn swift pcn] [--quick] [-j N]
Writes RESULTS/<panel>-<cc>-<value>/ (the run's CSVs), RESULTS/fig7.csv and RESULTS/fig7.png.
"""
import argparse
import concurrent.futures as cf
import os
import shutil
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from tqdm import tqdm  # noqa: E402

INTERVALS_US = [10, 15, 20, 25, 30]
SIZES_KB = [32, 64, 128, 256, 512]
LABELS = {"dcon": "DCON", "dcqcn": "DCQCN", "pcn": "PCN", "swift": "Swift", "timely": "TIMELY"}
# The same colour per scheme as scripts/plot_large.py.
COLORS = {"dcon": "tab:red", "dcqcn": "tab:blue", "swift": "tab:green", "pcn": "tab:orange",
          "timely": "tab:purple"}


def runs(ccs, quick):
    intervals = [10, 20, 30] if quick else INTERVALS_US
    sizes = [32, 128, 512] if quick else SIZES_KB
    for cc in ccs:
        for iv in intervals:
            yield ("interval", cc, iv, ["--burstInterval=%dus" % iv, "--burstFlowSize=64000"])
        for kb in sizes:
            yield ("size", cc, kb, ["--burstInterval=15us", "--burstFlowSize=%d" % (kb * 1000)])


def run_one(binary, outdir, panel, cc, value, extra):
    final = os.path.join(outdir, "%s-%s-%d" % (panel, cc, value))
    if os.path.exists(os.path.join(final, "summary.json")):
        return final, "skipped"
    tmp = final + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    cmd = [binary, "--cc=" + cc, "--outdir=" + tmp, "--longFlowSize=200000000",
           "--burstFlowsPerHost=30", "--runToCompletion=true", "--stopTime=2s",
           "--sampleInterval=1ms"] + extra
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError("run failed: %s\n%s" % (" ".join(cmd), res.stderr[-2000:]))
    shutil.rmtree(final, ignore_errors=True)
    os.rename(tmp, final)
    return final, "done"


def summarize(outdir, ccs, quick):
    rows = []
    for panel, cc, value, _ in runs(ccs, quick):
        d = os.path.join(outdir, "%s-%s-%d" % (panel, cc, value))
        f = pd.read_csv(os.path.join(d, "flows.csv"))
        rows.append({"panel": panel, "cc": cc, "value": value, "flows": len(f),
                     "avg_fct_ms": f.fct_s.mean() * 1e3,
                     "avg_short_fct_ms": f[f.flow_id >= 2].fct_s.mean() * 1e3})
    return pd.DataFrame(rows)


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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--ccs", nargs="+", default=["dcon", "dcqcn", "swift", "pcn"])
    ap.add_argument("--quick", action="store_true", help="3 points per panel instead of 5")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--binary", default="build/examples/dcon-testbed")
    ap.add_argument("--outdir", default="results/fig7")
    args = ap.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit("error: %s not found; build first (scripts/setup.sh)" % args.binary)
    os.makedirs(args.outdir, exist_ok=True)
    todo = list(runs(args.ccs, args.quick))
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_one, args.binary, args.outdir, *r) for r in todo]
        for fut in tqdm(cf.as_completed(futures), total=len(futures), desc="fig7 runs"):
            fut.result()
    table = summarize(args.outdir, args.ccs, args.quick)
    table.to_csv(os.path.join(args.outdir, "fig7.csv"), index=False)
    plot(table, os.path.join(args.outdir, "fig7.png"))
    print(table.to_string(index=False))
    print("wrote %s" % os.path.join(args.outdir, "fig7.png"))


if __name__ == "__main__":
    main()

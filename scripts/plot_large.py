#!/usr/bin/python3
"""Draw the DCON paper's large-scale figures (Fig. 9-12) from the tables of large_sweep.py.

Usage: /usr/bin/python3 scripts/plot_large.py [RESULTS_DIR (default results/large)] [--figs fig9 ..]

Reads RESULTS_DIR/<fig>.csv and writes RESULTS_DIR/<fig>.png, three panels against the core
load, as in the paper: PFC pause-frame rate (PAUSE frames per second in the arrival window,
fabric-wide), average FCT and 99th-percentile FCT.
  fig9 (WebSearch), fig10 (DataMining): one line per scheme, DCON, DCQCN, Swift, PCN (fixed colours)
  fig11: one line per Q_CNM setting (40% and 60% of the PFC threshold, dynamic)
  fig12: one line per CNM window T (2, 3, 4 RTT)
With several seeds a point is their mean, with min/max error bars. Missing points (failed or
not yet run, or no completed flow) are left out; a missing table is skipped with a message.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

COLORS = ["tab:red", "tab:blue", "tab:green", "tab:orange"]
MARKERS = ["o", "s", "^", "D"]
CC_SERIES = [("dcon", "DCON"), ("dcqcn", "DCQCN"), ("swift", "Swift"), ("pcn", "PCN")]
# figure -> (title, table column the lines differ in, [(value, legend label)] in colour order)
FIGURES = {
    "fig9": ("Fig. 9: WebSearch", "cc", CC_SERIES),
    "fig10": ("Fig. 10: DataMining", "cc", CC_SERIES),
    "fig11": ("Fig. 11: WebSearch, DCON, Q_CNM", "qcnm_fraction",
              [(0.4, "Q_CNM 40% of PFC thr."), (0.6, "Q_CNM 60% of PFC thr."),
               (0.0, "Q_CNM dynamic")]),
    "fig12": ("Fig. 12: WebSearch, DCON, CNM window T", "cnm_window_rtts",
              [(2, "T = 2 RTT"), (3, "T = 3 RTT"), (4, "T = 4 RTT")]),
}
PANELS = [  # (column, y label, scale factor)
    ("pause_rate_per_s", "PFC pause rate (frames/s)", 1.0),
    ("avg_fct_s", "average FCT (ms)", 1e3),
    ("p99_fct_s", "99th-percentile FCT (ms)", 1e3),
]


def series_rows(table, key, value):
    """Rows of `table` whose `key` column equals `value` (numeric keys compared with isclose)."""
    if key == "cc":
        return table[table[key].astype(str) == value]
    col = pd.to_numeric(table[key], errors="coerce")
    return table[np.isclose(col, float(value))]


def aggregate(rows, column):
    """Per load: mean, min, max and count over seeds of `column`, NaN values left out.
    Returns a DataFrame indexed by load (sorted); loads with no value are absent."""
    vals = rows[["load", column]].copy()
    vals[column] = pd.to_numeric(vals[column], errors="coerce")
    vals = vals.dropna()
    if vals.empty:
        return pd.DataFrame(columns=["mean", "min", "max", "n"])
    g = vals.groupby("load")[column]
    return pd.DataFrame({"mean": g.mean(), "min": g.min(), "max": g.max(),
                         "n": g.count()}).sort_index()


def subtitle(table):
    parts = []
    for col, fmt in (("scale", "scale %s"), ("duration", "%s of arrivals")):
        if col in table and table[col].nunique() > 0:
            parts.append(fmt % "/".join(map(str, sorted(table[col].astype(str).unique()))))
    if "seed" in table and len(table):
        seeds = sorted(table.seed.unique())
        parts.append(("seed " if len(seeds) == 1 else "seeds ") + ", ".join(map(str, seeds)))
    return ", ".join(parts)


def plot_fig(table, fig, path):
    """Draw one figure from its table; returns the number of points drawn (0: nothing written)."""
    title, key, series = FIGURES[fig]
    missing = [c for c in ["load", key] + [p[0] for p in PANELS] if c not in table.columns]
    if missing:
        print(f"skipping {fig}: table has no column(s) {', '.join(missing)}", file=sys.stderr)
        return 0
    fig_, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    points = 0
    for ax, (column, ylabel, factor) in zip(axes, PANELS):
        for i, (value, label) in enumerate(series):
            a = aggregate(series_rows(table, key, value), column)
            if a.empty:
                continue
            points += len(a)
            mean = a["mean"].to_numpy(float) * factor
            yerr = None
            if (a["n"] > 1).any():
                yerr = np.vstack([mean - a["min"].to_numpy(float) * factor,
                                  a["max"].to_numpy(float) * factor - mean])
            ax.errorbar(a.index.to_numpy(float), mean, yerr=yerr, color=COLORS[i % len(COLORS)],
                        marker=MARKERS[i % len(MARKERS)], capsize=3, label=label)
        ax.set_xlabel("load (core layer)")
        ax.set_ylabel(ylabel)
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)
    for ax, letter in zip(axes, "abc"):
        ax.set_title(f"({letter}) {ax.get_ylabel()}")
    sub = subtitle(table)
    fig_.suptitle(title + (f" ({sub})" if sub else ""))
    fig_.tight_layout()
    if points:
        fig_.savefig(path, dpi=120)
    plt.close(fig_)
    return points


def plot_dir(results, figs=None):
    """Plot every figure of `figs` (default all) whose table exists; returns the PNGs written."""
    written = []
    for fig in figs or list(FIGURES):
        csv = os.path.join(results, fig + ".csv")
        if not os.path.isfile(csv):
            print(f"skipping {fig}: no {csv} (run scripts/large_sweep.py {fig})", file=sys.stderr)
            continue
        try:
            table = pd.read_csv(csv)
        except (pd.errors.EmptyDataError, pd.errors.ParserError) as e:
            print(f"skipping {fig}: cannot read {csv} ({e})", file=sys.stderr)
            continue
        png = os.path.join(results, fig + ".png")
        if plot_fig(table, fig, png):
            print(f"wrote {png}")
            written.append(png)
        else:
            print(f"skipping {fig}: {csv} has no finished run to plot", file=sys.stderr)
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("results", nargs="?", default=os.path.join("results", "large"),
                    help="folder with the figN.csv tables (default results/large)")
    ap.add_argument("--figs", nargs="+", choices=list(FIGURES), help="only these figures")
    args = ap.parse_args(argv)
    if not os.path.isdir(args.results):
        print(f"error: {args.results} is not a directory", file=sys.stderr)
        return 2
    return 0 if plot_dir(args.results, args.figs) else 1


if __name__ == "__main__":
    sys.exit(main())

"""Draw the large-scale figures (DCON paper Fig. 9-12, and the sens and swift comparisons) from
the tables of large_sweep.py (the figures: large_figures.py).

Usage: /usr/bin/python3 -m scripts.plot_large [RESULTS_DIR (default results/large)] [--figs fig9 ..]

Reads RESULTS_DIR/<fig>.csv (one row per variant and load: the mean over seeds and the
half-width of its 95% confidence interval, see scripts/seed_stats.py) and writes
RESULTS_DIR/<fig>.png with three panels: PFC pause-frame rate (PAUSE frames per second in the
measured window, fabric-wide), average FCT and 99th-percentile FCT.
  fig9 .. fig12: against the core load, one line per variant (large_figures.FIGURES; DCON red,
                 DCQCN blue, Swift green, PCN orange), error bars = 95% CI;
  sens, swift:   grouped bars, one group per load, one bar per variant, error bars = 95% CI.
A point (or bar) where at least one seed's run was judged not at equilibrium (fct_stats.py) is
drawn hollow (hatched bar), and the legend says so. A point with one seed has no error bar. Missing
points (failed or not yet run, or no completed flow) are left out; a missing table is skipped
with a message.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from .large_figures import FIG_NAMES, FIGURES  # noqa: E402
from .sweep_runner import TIME_RE, fmt_num, seconds  # noqa: E402
from . import variants  # noqa: E402

MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "*"]
PANELS = [  # (metric, y label, scale factor)
    ("pause_rate_per_s", "PFC pause rate (frames/s)", 1.0),
    ("avg_fct_s", "average FCT (ms)", 1e3),
    ("p99_fct_s", "99th-percentile FCT (ms)", 1e3),
]
LINE_DODGE = 0.004  # load units between the lines' points
NON_STATIONARY_LABEL = "hollow / hatched: >= 1 seed not at equilibrium"


def series(table, variant, metric):
    """Rows of one variant with a value of `metric`, sorted by load: DataFrame with load, mean,
    ci95 (NaN where unknown: one seed) and flagged (any seed not at equilibrium)."""
    rows = table[table.variant.astype(str) == variant]
    mean = pd.to_numeric(rows[f"{metric}_mean"], errors="coerce")
    ci = pd.to_numeric(rows.get(f"{metric}_ci95", pd.Series(np.nan, index=rows.index)),
                       errors="coerce")
    flagged = pd.to_numeric(rows.get("non_stationary", pd.Series(0, index=rows.index)),
                            errors="coerce").fillna(0) > 0
    out = pd.DataFrame({"load": pd.to_numeric(rows.load, errors="coerce"), "mean": mean,
                        "ci95": ci, "flagged": flagged})
    return out.dropna(subset=["load", "mean"]).sort_values("load").reset_index(drop=True)


def subtitle(table):
    """The figure's subtitle: scale, the arrival windows of the runs it shows (a point reported
    from a --extend extension has a longer window than the planned one: arrival_windows),
    warm-up and seeds per point."""
    parts = []
    windows = table.arrival_windows if "arrival_windows" in table else None
    for col, fmt in (("scale", "scale %s"), ("duration", "%s window"), ("warmup", "%s warm-up")):
        if col == "duration" and windows is not None and windows.notna().any():
            found = {w for ws in windows.dropna().astype(str) for w in ws.split("/") if w}
            parts.append("%s arrival windows" % "/".join(sorted(
                found, key=lambda w: seconds(w) if TIME_RE.match(w) else float("inf"))))
        elif col in table and table[col].nunique() > 0:
            parts.append(fmt % "/".join(map(str, sorted(table[col].astype(str).unique()))))
    if "n" in table and len(table):
        ns = sorted(pd.to_numeric(table.n, errors="coerce").dropna().astype(int).unique())
        parts.append("seeds per point " + "/".join(map(str, ns)))
    return ", ".join(parts)


def _each_series(table, names, metric):
    """(index, variant, series) of the variants that have a value of metric."""
    for i, v in enumerate(names):
        s = series(table, v, metric)
        if not s.empty:
            yield i, v, s


def _draw_lines(ax, table, names, cols, factor, metric):
    points, flagged_any = 0, False
    for i, v, s in _each_series(table, names, metric):
        points += len(s)
        y = s["mean"].to_numpy(float) * factor
        # a small sideways shift per variant keeps overlapping error bars apart
        x = s["load"].to_numpy(float) + (i - (len(names) - 1) / 2) * LINE_DODGE
        ax.plot(x, y, color=cols[v], marker=MARKERS[i % len(MARKERS)], label=variants.label(v))
        ci = s["ci95"].to_numpy(float) * factor
        known = ~np.isnan(ci)  # one seed: no interval
        if known.any():
            ax.errorbar(x[known], y[known], yerr=ci[known], fmt="none", ecolor=cols[v],
                        capsize=3)
        f = s["flagged"].to_numpy(bool)
        if f.any():
            flagged_any = True
            ax.plot(x[f], y[f], ls="none", marker=MARKERS[i % len(MARKERS)], ms=9,
                    markerfacecolor="white", markeredgecolor=cols[v], zorder=5)
    loads = sorted(pd.to_numeric(table.load, errors="coerce").dropna().unique())
    if loads:
        ax.set_xticks(loads)
        ax.set_xlim(loads[0] - 0.05, loads[-1] + 0.05)
    ax.set_xlabel("load (core layer)")
    return points, flagged_any


def _draw_bars(ax, table, names, cols, factor, metric):
    loads = sorted(pd.to_numeric(table.load, errors="coerce").dropna().unique())
    width = 0.8 / max(1, len(names))
    points, flagged_any = 0, False
    for i, v, s in _each_series(table, names, metric):
        points += len(s)
        offset = (i - (len(names) - 1) / 2) * width
        for load, mean, ci, fl in s[["load", "mean", "ci95", "flagged"]].itertuples(index=False):
            ax.bar(loads.index(load) + offset, mean * factor, width,
                   yerr=None if np.isnan(ci) else ci * factor, capsize=2,
                   color="white" if fl else cols[v], edgecolor=cols[v],
                   hatch="//" if fl else None)
            flagged_any = flagged_any or bool(fl)
    ax.set_xticks(range(len(loads)))
    ax.set_xticklabels([f"load {fmt_num(x)}" for x in loads])
    return points, flagged_any


def plot_fig(table, fig, path):
    """Draw one figure from its table; returns the number of points drawn (0: nothing written)."""
    spec = FIGURES[fig]
    needed = ["variant", "load"] + [f"{p[0]}_mean" for p in PANELS]
    missing = [c for c in needed if c not in table.columns]
    if missing:
        print(f"skipping {fig}: table has no column(s) {', '.join(missing)}", file=sys.stderr)
        return 0
    present = set(table.variant.astype(str))
    names = [v for v in spec.variants if v in present] + sorted(present - set(spec.variants))
    cols = variants.colors(names)
    bars = spec.kind == "bars"
    fig_, axes = plt.subplots(1, 3, figsize=(16, 4.6 if bars else 4.2))
    points, flagged_any = 0, False
    draw = _draw_bars if bars else _draw_lines
    for ax, (metric, ylabel, factor) in zip(axes, PANELS):
        p, f = draw(ax, table, names, cols, factor, metric)
        points, flagged_any = points + p, flagged_any or f
        ax.set_ylabel(ylabel)
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    for ax, letter in zip(axes, "abc"):
        ax.set_title(f"({letter}) {ax.get_ylabel()}")
    handles = [(Patch(facecolor=cols[v], edgecolor=cols[v]) if bars else
                Line2D([], [], color=cols[v], marker=MARKERS[i % len(MARKERS)]), variants.label(v))
               for i, v in enumerate(names)]
    if flagged_any:
        handles.append((Patch(facecolor="white", edgecolor="k", hatch="//") if bars else
                        Line2D([], [], ls="none", marker="o", markerfacecolor="white",
                               markeredgecolor="k"), NON_STATIONARY_LABEL))
    if handles:
        fig_.legend([h for h, _ in handles], [lb for _, lb in handles], loc="lower center",
                    ncol=min(len(handles), 4), fontsize=8, frameon=False)
    sub = subtitle(table)
    fig_.suptitle(spec.title + (f" ({sub}; error bars: 95% CI over seeds)" if sub else ""))
    nrows = (len(handles) + 3) // 4
    fig_.tight_layout(rect=(0, 0.05 * nrows + 0.02, 1, 1))
    if points:
        fig_.savefig(path, dpi=120)
    plt.close(fig_)
    return points


def plot_dir(results, figs=None):
    """Plot every figure of `figs` (default all) whose table exists; returns the PNGs written."""
    written = []
    for fig in figs or FIG_NAMES:
        csv = os.path.join(results, fig + ".csv")
        if not os.path.isfile(csv):
            print(f"skipping {fig}: no {csv} (run /usr/bin/python3 -m scripts.large_sweep {fig})", file=sys.stderr)
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
                    help="folder with the <fig>.csv tables (default results/large)")
    ap.add_argument("--figs", nargs="+", choices=FIG_NAMES, help="only these figures")
    args = ap.parse_args(argv)
    if not os.path.isdir(args.results):
        print(f"error: {args.results} is not a directory", file=sys.stderr)
        return 2
    return 0 if plot_dir(args.results, args.figs) else 1


if __name__ == "__main__":
    sys.exit(main())

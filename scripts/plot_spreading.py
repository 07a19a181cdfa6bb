"""Draw congestion spreading over time from runs that measured it (--spreading of
examples/dcon-testbed, dcon-large-scale or dcon-bench: pause-trees.csv, pfc.csv, victims.csv).

One column per run directory. Top: every directed link on which a switch paused its neighbour,
one row each ("L2->S1": L2 paused S1's port toward it), the paused intervals as bars from a PAUSE
frame to the RESUME that ended it, coloured by their depth in the pause tree (1: the root switch
paused its neighbour; 2: the next hop upstream; ...). Rows are ordered by the depth at which the
link was paused longest, so a tree reads from its root downward; the label gives the depths seen.
Bottom: the culprit and victim time of the flows given with --flow-ids (e.g. the testbed's f0 and
f1: 0 1), then of the flows held longest (victims.csv).

Usage: /usr/bin/python3 -m scripts.plot_spreading RUN_DIR [RUN_DIR ...] [--labels ...]
         [--flows N] [--flow-ids ID ...] [--window T0_MS T1_MS] -o spreading.png
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

DEPTH_COLORS = ["tab:red", "tab:orange", "tab:olive", "tab:green", "tab:blue", "tab:purple"]


class SpreadingError(Exception):
    """A run directory without the files this script needs; the message names the file."""


def load(run):
    out = {}
    for name in ("pause-trees.csv", "pfc.csv", "victims.csv"):
        path = os.path.join(run, name)
        if not os.path.isfile(path):
            raise SpreadingError(f"{run} has no {name}; run the example with --spreading")
        try:
            out[name] = pd.read_csv(path)
        except (pd.errors.ParserError, pd.errors.EmptyDataError) as e:
            raise SpreadingError(f"{path}: cannot read ({e})") from None
    return out


def intervals(trees, pfc):
    """[(link label, depth, start_s, end_s)]: per (switch, port, priority), each run of PAUSE
    frames up to the RESUME frame that ends it (or the last frame if none does), with the
    deepest depth of its frames."""
    out = []
    resumes = pfc[pfc.event == "resume"]
    for (sw, port, prio), frames in trees.groupby(["switch", "port", "priority"], sort=True):
        rs = resumes[(resumes.node == sw) & (resumes.port == port) & (resumes.priority == prio)]
        ends = sorted(rs.time_s)
        frames = frames.sort_values("time_s")
        peer = frames.peer.iloc[0]
        start, depth, last = None, 0, None
        for t, d in zip(frames.time_s, frames.depth):
            if start is not None and any(start <= e < t for e in ends):
                end = min(e for e in ends if start <= e < t)
                out.append((f"{sw}->{peer}", depth, start, end))
                start = None
            if start is None:
                start, depth = t, d
            depth = max(depth, d)
            last = t
        if start is not None:
            later = [e for e in ends if e >= start]
            out.append((f"{sw}->{peer}", depth, start, later[0] if later else last))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("runs", nargs="+")
    ap.add_argument("-o", "--output", default="spreading.png")
    ap.add_argument("--labels", nargs="*")
    ap.add_argument("--flows", type=int, default=8, help="flows shown in the bottom panel")
    ap.add_argument("--flow-ids", type=int, nargs="*", default=[],
                    help="flows shown first in the bottom panel (e.g. 0 1)")
    ap.add_argument("--window", type=float, nargs=2, metavar=("T0_MS", "T1_MS"),
                    help="time window to draw (default: all pauses)")
    args = ap.parse_args(argv)
    try:
        data = [load(r) for r in args.runs]
    except SpreadingError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    ncol = len(args.runs)
    fig, axes = plt.subplots(2, ncol, figsize=(6.5 * ncol, 8), squeeze=False,
                             gridspec_kw={"height_ratios": [3, 2]})
    for c, (run, d) in enumerate(zip(args.runs, data)):
        title = args.labels[c] if args.labels and c < len(args.labels) else os.path.basename(
            os.path.normpath(run))
        ax = axes[0][c]
        iv = intervals(d["pause-trees.csv"], d["pfc.csv"])
        weight = {}  # link -> {depth: paused seconds}
        for link, depth, t0, t1 in iv:
            weight.setdefault(link, {}).setdefault(depth, 0.0)
            weight[link][depth] += t1 - t0
        main_depth = {k: max(w, key=lambda dd: (w[dd], -dd)) for k, w in weight.items()}
        rows = sorted(weight, key=lambda k: (main_depth[k], k))
        for link, depth, t0, t1 in iv:
            y = rows.index(link)
            ax.barh(y, (t1 - t0) * 1e3, left=t0 * 1e3, height=0.7,
                    color=DEPTH_COLORS[min(depth, len(DEPTH_COLORS)) - 1])
        ax.set_yticks(range(len(rows)))
        def depths(r):
            ds = sorted(weight[r])
            return f"depth {ds[0]}" if len(ds) == 1 else f"depths {ds[0]}-{ds[-1]}"
        ax.set_yticklabels([f"{r} ({depths(r)})" for r in rows], fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel("time (ms)")
        ax.set_title(f"{title}: paused links by depth in the pause tree")
        if args.window:
            ax.set_xlim(*args.window)
        handles = [plt.Rectangle((0, 0), 1, 1, color=DEPTH_COLORS[i]) for i in range(
            min(max([d for _, d, _, _ in iv], default=1), len(DEPTH_COLORS)))]
        if handles:
            ax.legend(handles, [f"depth {i + 1}" for i in range(len(handles))], fontsize=7,
                      loc="lower right")
        if not rows:
            ax.text(0.5, 0.5, "no PAUSE frame", ha="center", va="center",
                    transform=ax.transAxes)
        ax = axes[1][c]
        v = d["victims.csv"].copy()
        v["held_s"] = v.culprit_s + v.victim_s
        first = v[v.flow_id.isin(args.flow_ids)]
        rest = v[(v.held_s > 0) & ~v.flow_id.isin(args.flow_ids)].sort_values(
            "held_s", ascending=False).head(max(0, args.flows - len(first)))
        v = pd.concat([first, rest])
        labels = [f"flow {i} ({s}->{t})" for i, s, t in zip(v.flow_id, v.src, v.dst)]
        ax.barh(range(len(v)), v.culprit_s * 1e3, color="tab:gray", label="culprit")
        ax.barh(range(len(v)), v.victim_s * 1e3, left=v.culprit_s * 1e3, color="tab:red",
                label="victim")
        ax.set_yticks(range(len(v)))
        ax.set_yticklabels(labels, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel("time held by PFC pauses (ms)")
        ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

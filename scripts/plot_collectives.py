"""Draw collective runs of examples/dcon-collectives: the slowdown of each job's operation and
algorithm against its ideal time (collectives.csv), one bar per run, and the step timeline of one
iteration of one job (steps.csv): a row per rank, a bar per message it sent from its start to
the receiver's completion, coloured by step (reduce-scatter steps in reds, all-gather steps in
blues for an all-reduce).

The runs are typically one per congestion control (their labels: --labels, else run.json's cc).
The top panel groups bars by job ("name: op algo"): the mean slowdown over the job's iterations,
with a line from the fastest to the slowest iteration.

Usage: /usr/bin/python3 -m scripts.plot_collectives RUN_DIR [RUN_DIR ...] [--labels ...]
         [--job NAME] [--iteration I] [--timeline-run K] -o collectives.png
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402


class CollectivesError(Exception):
    """A run directory without what this script needs; the message names the file."""


def read_csv(run, name):
    path = os.path.join(run, name)
    if not os.path.isfile(path):
        raise CollectivesError(f"{run} has no {name} (a run of examples/dcon-collectives"
                               + (" with --steps" if name == "steps.csv" else "") + ")")
    try:
        return pd.read_csv(path)
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as e:
        raise CollectivesError(f"{path}: cannot read ({e})") from None


def label_of(run):
    """The run's congestion control (run.json), else its folder's name."""
    try:
        with open(os.path.join(run, "run.json")) as f:
            return json.load(f).get("cc") or os.path.basename(os.path.normpath(run))
    except (OSError, ValueError):
        return os.path.basename(os.path.normpath(run))


def slowdowns(collectives):
    """Per job: its key "name: op algo", mean, min and max slowdown over the completed
    iterations, and how many completed (in job order)."""
    done = collectives.dropna(subset=["slowdown"])
    rows = []
    for job, g in collectives.groupby("job", sort=True):
        first = g.iloc[0]
        d = done[done.job == job]
        rows.append({"job": int(job),
                     "key": f"{first['name']}: {first['op']} {first['algorithm']}",
                     "mean": d.slowdown.mean() if len(d) else float("nan"),
                     "min": d.slowdown.min() if len(d) else float("nan"),
                     "max": d.slowdown.max() if len(d) else float("nan"),
                     "completed": len(d), "iterations": len(g)})
    return pd.DataFrame(rows)


def timeline(steps, job_name, collectives, iteration):
    """The messages of one iteration of a job, as (src_rank, start_s, end_s, step), times from
    the iteration's first start; and the job's step count."""
    jobs = collectives.drop_duplicates("job").set_index("name")
    if job_name not in jobs.index:
        raise CollectivesError(f"no job named {job_name!r} (jobs: {', '.join(jobs.index)})")
    job = jobs.loc[job_name, "job"]
    m = steps[(steps.job == job) & (steps.iteration == iteration)]
    if m.empty:
        raise CollectivesError(f"job {job_name!r} has no iteration {iteration} in steps.csv")
    m = m.dropna(subset=["start_s", "end_s"])
    t0 = m.start_s.min()
    out = [(int(r.src_rank), r.start_s - t0, r.end_s - t0, int(r.step))
           for r in m.itertuples()]
    return out, int(steps[steps.job == job].step.max()) + 1


def step_colour(step, steps, op):
    """Reds for the reduce-scatter half of an all-reduce, blues for its all-gather half; one
    colour map over the steps otherwise."""
    if op == "allreduce" and steps > 1:
        half = steps // 2
        if step < half:
            return plt.cm.Reds(0.35 + 0.6 * step / max(half - 1, 1))
        return plt.cm.Blues(0.35 + 0.6 * (step - half) / max(steps - half - 1, 1))
    return plt.cm.viridis(step / max(steps - 1, 1))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("runs", nargs="+")
    ap.add_argument("-o", "--output", default="collectives.png")
    ap.add_argument("--labels", nargs="*", help="one per run (default: each run's cc)")
    ap.add_argument("--job", help="the job of the timeline (default: the first)")
    ap.add_argument("--iteration", type=int, default=0, help="its iteration (default 0)")
    ap.add_argument("--timeline-run", type=int, default=0,
                    help="the run (0-based, in the order given) whose timeline is drawn")
    args = ap.parse_args(argv)
    if args.labels and len(args.labels) != len(args.runs):
        print(f"error: {len(args.labels)} labels for {len(args.runs)} runs", file=sys.stderr)
        return 2
    if not 0 <= args.timeline_run < len(args.runs):
        print(f"error: --timeline-run {args.timeline_run} is not one of the "
              f"{len(args.runs)} runs", file=sys.stderr)
        return 2
    try:
        tables = [slowdowns(read_csv(r, "collectives.csv")) for r in args.runs]
        labels = args.labels or [label_of(r) for r in args.runs]
        run = args.runs[args.timeline_run]
        coll = read_csv(run, "collectives.csv")
        job = args.job or coll.name.iloc[0]
        msgs, nsteps = timeline(read_csv(run, "steps.csv"), job, coll, args.iteration)
    except CollectivesError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    op = coll[coll.name == job].op.iloc[0]

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 8.5),
                                      gridspec_kw={"height_ratios": [1, 1.4]})
    keys = list(dict.fromkeys(k for t in tables for k in t.key))
    width = 0.8 / len(tables)
    for i, (t, lab) in enumerate(zip(tables, labels)):
        xs, ys, lo, hi = [], [], [], []
        for x, k in enumerate(keys):
            row = t[t.key == k]
            if row.empty or pd.isna(row["mean"].iloc[0]):
                continue
            xs.append(x - 0.4 + width * (i + 0.5))
            ys.append(row["mean"].iloc[0])
            lo.append(row["mean"].iloc[0] - row["min"].iloc[0])
            hi.append(row["max"].iloc[0] - row["mean"].iloc[0])
        top.bar(xs, ys, width, yerr=[lo, hi], capsize=2, label=lab)
    top.axhline(1.0, color="grey", lw=0.8, ls="--")
    lows = [v for t in tables for v in t["min"] if not pd.isna(v)]
    highs = [v for t in tables for v in t["max"] if not pd.isna(v)]
    if lows:
        top.set_ylim(min(0.95, 0.98 * min(lows)), 1.02 * max(highs + [1.0]))
    top.set_xticks(range(len(keys)))
    top.set_xticklabels(keys, fontsize=8)
    top.set_ylabel("slowdown (time / ideal)")
    top.set_title("collective completion time against the analytic model")
    top.legend(fontsize=8, ncol=min(len(tables), 7))

    for rank, start, end, step in msgs:
        bottom.barh(rank, (end - start) * 1e6, left=start * 1e6, height=0.8,
                    color=step_colour(step, nsteps, op), edgecolor="none")
    bottom.set_xlabel("time since the iteration's first start (us)")
    bottom.set_ylabel("sending rank")
    bottom.invert_yaxis()
    bottom.set_title(f"{labels[args.timeline_run]}: job {job} ({op}), iteration "
                     f"{args.iteration}: each message from its start to the receiver's "
                     f"completion, by step")
    fig.tight_layout()
    fig.savefig(args.output, dpi=130)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

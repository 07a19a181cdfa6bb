"""The tables of doc/experiments/collectives.rst from the run folders of examples/dcon-collectives
(jobs.csv, run.json): per congestion control and job, the mean slowdown of the job's iterations
against the ideal time, its bus bandwidth, and (runs with --spreading) the time the job's flows
were held by another job's PFC pauses; with several seeds per congestion control, the mean over
the seeds and the range.

Usage: /usr/bin/python3 -m scripts.collectives_table RUN_DIR [RUN_DIR ...] [--job NAME ...]
Prints a reStructuredText table (rows in the order of --cc-order, default the doc's).
"""
import argparse
import json
import os
import sys

import pandas as pd

from .rst_table import simple_table

CC_ORDER = ["dcqcn", "dcon", "hpcc", "swift", "timely", "dctcp", "pcn"]


class TableError(Exception):
    """A run folder without what this script needs; the message names it."""


def load(run):
    """The run's jobs.csv rows with its cc and seed added."""
    try:
        with open(os.path.join(run, "run.json")) as f:
            meta = json.load(f)
        jobs = pd.read_csv(os.path.join(run, "jobs.csv"))
    except (OSError, ValueError, pd.errors.ParserError) as e:
        raise TableError(f"{run}: {e}") from None
    jobs["cc"] = meta.get("cc", "?")
    jobs["seed"] = meta.get("seed", 0)
    jobs["run"] = run
    return jobs


def fmt(values, digits=3, scale=1.0):
    """'mean' or 'mean (min-max)' of a column over seeds."""
    v = values.dropna() * scale
    if v.empty:
        return "-"
    if len(v) == 1 or v.min() == v.max():
        return f"{v.mean():.{digits}f}"
    return f"{v.mean():.{digits}f} ({v.min():.{digits}f}-{v.max():.{digits}f})"


def table(frames, jobs=None, order=CC_ORDER):
    """The rows: cc, job, seeds, slowdown, busbw, victim time (us) and its flow-summed form."""
    d = pd.concat(frames, ignore_index=True)
    if jobs:
        d = d[d.name.isin(jobs)]
    ccs = [c for c in order if c in set(d.cc)] + sorted(set(d.cc) - set(order))
    rows = []
    for cc in ccs:
        for name in dict.fromkeys(d.name):
            g = d[(d.cc == cc) & (d.name == name)]
            if g.empty:
                continue
            rows.append([cc, name, len(g), fmt(g.mean_slowdown), fmt(g.mean_busbw_gbps, 1),
                         fmt(g.victim_others_s, 0, 1e6), fmt(g.victim_others_hold_s, 0, 1e6)])
    return rows


HEADER = ["cc", "job", "seeds", "slowdown", "busbw (Gb/s)", "victim (us)",
          "victim, flow sum (us)"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--job", nargs="*", help="only these jobs")
    args = ap.parse_args(argv)
    try:
        frames = [load(r) for r in args.runs]
    except TableError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(simple_table(HEADER, table(frames, args.job)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The tables of doc/experiments/collectives.rst from the run folders of examples/dcon-collectives
(jobs.csv, run.json, steps.csv): per congestion control and job, the mean slowdown of the job's
iterations against the ideal time, its bus bandwidth, (runs with --spreading) the time the job's
flows were held by another job's PFC pauses and by its own, and (runs with steps.csv) the most
connections of the job that ECMP put on one link; with several seeds per congestion control, the
mean over the seeds and the range (the connection counts: one per seed).

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
    jobs["per_link"] = jobs.job.map(connections_per_link(run))
    return jobs


def connections_per_link(run):
    """{job: the most of its connections (its first step's messages) on one link} from the run's
    steps.csv ({} without it): a message's path names the switches (leaf0>spine3>leaf5), so the
    links counted are those between switches."""
    path = os.path.join(run, "steps.csv")
    if not os.path.exists(path):
        return {}
    try:
        steps = pd.read_csv(path, usecols=["job", "iteration", "step", "chunk", "path"])
    except (ValueError, pd.errors.ParserError) as e:
        raise TableError(f"{path}: {e}") from None
    first = steps[(steps.iteration == 0) & (steps.step == 0) & (steps.chunk == 0)]
    out = {}
    for job, g in first.groupby("job"):
        links = {}
        for p in g.path:
            hops = str(p).split(">")
            for link in zip(hops, hops[1:]):
                links[link] = links.get(link, 0) + 1
        out[job] = max(links.values(), default=0)
    return out


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
            links = g.per_link.dropna()
            rows.append([cc, name, len(g), fmt(g.mean_slowdown), fmt(g.mean_busbw_gbps, 1),
                         fmt(g.victim_others_s, 0, 1e6), fmt(g.victim_others_hold_s, 0, 1e6),
                         fmt(g.own_hold_s, 0, 1e6),
                         " ".join(str(int(v)) for v in links) if len(links) else "-"])
    return rows


HEADER = ["cc", "job", "seeds", "slowdown", "busbw (Gb/s)", "victim (us)",
          "victim, flow sum (us)", "own, flow sum (us)", "conn./link"]


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

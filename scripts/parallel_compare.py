"""Compare a parallel run (mpirun -np N) of a dcon program with the sequential run of the same
inputs: which output files are identical, and how far the flows' completion times differ.

Usage: /usr/bin/python3 -m scripts.parallel_compare SEQ_DIR PAR_DIR [--json OUT] [--max-rel X]

Both folders hold a program's outputs (flows.csv, pfc.csv, summary.json, ...). Prints, for every
file, "identical" or "differs"; summary.json is compared without wall_time_s, cpu_time_s,
peak_rss_mib, events_executed, simulated_time_s and DCON's dcon_queues.queue_seconds.below_qecn
(the engines count their own
events, and a parallel run that stops when its flows are done stops up to the completion-message
delay later, which the time below Q_ECN runs on to; doc/parallel.rst).
Then, over the flows completed in both runs (flows.csv, by flow_id): how many differ, the
largest absolute and relative FCT difference, and the median and p99 slowdown per size bucket of
each run (the buckets of scripts/fct_stats.py). --max-rel X exits 1 if a flow completed in only
one run or some flow's FCT differs by more than X (relative); --json writes the numbers.
Exit status: 0 (within bounds), 1 (out of bounds), 2 (bad input).
"""

import argparse
import json
import os
import sys

import numpy as np
import pandas as pd

from . import fct_stats

IGNORED_SUMMARY_KEYS = ("wall_time_s", "cpu_time_s", "peak_rss_mib", "events_executed",
                        "simulated_time_s")


# run.json's record of the command line differs (mpirun's arguments, the partition, the folder),
# and so does its record of the build when the two runs come from two builds.
IGNORED_RUN_KEYS = ("command_line", "options_given", "global_values_given", "build")


def run_without_command_line(path):
    with open(path) as f:
        r = json.load(f)
    return {k: v for k, v in r.items() if k not in IGNORED_RUN_KEYS}


# summary.json fields inside objects that run to the end of the simulation (engine-specific too):
# DCON's queue time below Q_ECN.
IGNORED_NESTED_SUMMARY_KEYS = (("dcon_queues", "queue_seconds", "below_qecn"),)


def summary_without_engine_fields(path):
    with open(path) as f:
        s = json.load(f)
    for keys in IGNORED_NESTED_SUMMARY_KEYS:
        obj = s
        for k in keys[:-1]:
            obj = obj.get(k, {}) if isinstance(obj, dict) else {}
        if isinstance(obj, dict):
            obj.pop(keys[-1], None)
    return {k: v for k, v in s.items() if k not in IGNORED_SUMMARY_KEYS}


def compare_files(seq, par):
    """{file name: "identical" | "differs" | "only in sequential" | "only in parallel"}."""
    names = sorted(set(os.listdir(seq)) | set(os.listdir(par)))
    out = {}
    for name in names:
        if name in ("parallel.json", "stats.json") or name.endswith(".log"):
            continue
        a, b = os.path.join(seq, name), os.path.join(par, name)
        if not os.path.isfile(a) or not os.path.isfile(b):
            if os.path.isfile(a) or os.path.isfile(b):
                out[name] = "only in sequential" if os.path.isfile(a) else "only in parallel"
            continue
        if name == "summary.json":
            same = summary_without_engine_fields(a) == summary_without_engine_fields(b)
        elif name == "run.json":
            same = run_without_command_line(a) == run_without_command_line(b)
        else:
            with open(a, "rb") as fa, open(b, "rb") as fb:
                same = fa.read() == fb.read()
        out[name] = "identical" if same else "differs"
    return out


def compare_flows(seq, par):
    a = pd.read_csv(os.path.join(seq, "flows.csv"))
    b = pd.read_csv(os.path.join(par, "flows.csv"))
    fct_stats.check_flows(a, "sequential flows.csv")
    fct_stats.check_flows(b, "parallel flows.csv")
    m = a.merge(b, on="flow_id", suffixes=("_seq", "_par"))
    diff = (m.fct_s_par - m.fct_s_seq).abs()
    rel = diff / m.fct_s_seq
    res = {
        "flows_sequential": int(len(a)),
        "flows_parallel": int(len(b)),
        "flows_in_both": int(len(m)),
        "flows_with_other_fct": int((diff > 0).sum()),
        "max_abs_fct_diff_s": float(diff.max()) if len(m) else 0.0,
        "max_rel_fct_diff": float(rel.max()) if len(m) else 0.0,
        "median_rel_fct_diff": float(np.median(rel)) if len(m) else 0.0,
        "p99_rel_fct_diff": float(np.percentile(rel, 99)) if len(m) else 0.0,
        "mean_fct_s": {"sequential": float(a.fct_s.mean()), "parallel": float(b.fct_s.mean())},
        "slowdown_by_size": {
            "sequential": fct_stats.slowdown_by_bucket(a),
            "parallel": fct_stats.slowdown_by_bucket(b),
        },
    }
    if len(m):
        worst = m.loc[rel.idxmax()]
        res["worst_flow"] = {
            "flow_id": int(worst.flow_id),
            "size_bytes": int(worst.size_bytes_seq),
            "fct_s_sequential": float(worst.fct_s_seq),
            "fct_s_parallel": float(worst.fct_s_par),
        }
    return res


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("seq")
    p.add_argument("par")
    p.add_argument("--json", help="write the comparison here")
    p.add_argument("--max-rel", type=float, help="largest relative FCT difference accepted")
    args = p.parse_args(argv)
    for d in (args.seq, args.par):
        if not os.path.isfile(os.path.join(d, "flows.csv")):
            print(f"error: {d} has no flows.csv", file=sys.stderr)
            return 2
    try:
        files = compare_files(args.seq, args.par)
        flows = compare_flows(args.seq, args.par)
    except (fct_stats.StatsError, ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for name, verdict in files.items():
        print(f"{name:<16} {verdict}")
    print(f"flows: {flows['flows_sequential']} sequential, {flows['flows_parallel']} parallel, "
          f"{flows['flows_with_other_fct']} of {flows['flows_in_both']} with another FCT")
    print(f"largest FCT difference: {flows['max_abs_fct_diff_s'] * 1e6:.3f} us, "
          f"{flows['max_rel_fct_diff'] * 100:.4f}% (median {flows['median_rel_fct_diff'] * 100:.4f}%, "
          f"p99 {flows['p99_rel_fct_diff'] * 100:.4f}%)")
    print("median / p99 slowdown per size bucket (sequential -> parallel):")
    for bucket, s in flows["slowdown_by_size"]["sequential"].items():
        t = flows["slowdown_by_size"]["parallel"][bucket]
        if s["count"]:
            print(f"  {bucket:<12} {s['count']:>6} flows  p50 {s['p50']:.4f} -> {t['p50']:.4f}"
                  f"  p99 {s['p99']:.4f} -> {t['p99']:.4f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"files": files, "flows": flows}, f, indent=2)
    if args.max_rel is not None:
        if flows["flows_sequential"] != flows["flows_parallel"] or \
                flows["flows_in_both"] != flows["flows_sequential"]:
            print("OUT OF BOUNDS: the runs completed different flows")
            return 1
        if flows["max_rel_fct_diff"] > args.max_rel:
            print(f"OUT OF BOUNDS: an FCT differs by more than {args.max_rel * 100:g}%")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Statistics of one run of examples/dcon-large-scale (DCON paper Fig. 9-12; dcon.md 3.3-3.4).

Usage: /usr/bin/python3 scripts/fct_stats.py RUN_DIR [RUN_DIR ...]
Reads RUN_DIR/{flows.csv, pfc.csv, summary.json, run.json} and writes RUN_DIR/stats.json.

Definitions (1 KB = 1000 B, 1 MB = 10^6 B):

* FCT statistics are over the *completed* flows (the rows of flows.csv): the mean of fct_s,
  its median and its 99th percentile. Percentiles are numpy.percentile with method="linear"
  (numpy's default): for n sorted values x[0..n-1], the p-th percentile sits at rank
  r = p/100 * (n - 1) and is x[floor(r)] + (r - floor(r)) * (x[floor(r)+1] - x[floor(r)]).
  Flows that did not finish are not in flows.csv; completion_ratio = flows_completed /
  flows_total (from summary.json) says how many are missing, and a low ratio biases the FCT
  statistics downwards (the unfinished flows are the slow ones).
* FCT slowdown (the slowdown column: fct_s / ideal_fct_s) percentiles 50, 95 and 99 per size
  bucket, by size_bytes, upper bounds inclusive: <=10KB, (10KB,100KB], (100KB,1MB], (1MB,10MB],
  >10MB. Each bucket has its count; the percentiles are null for an empty bucket.
* PFC pause-frame rate: the number of PAUSE frames (pfc.csv rows with event == "pause"; RESUME
  frames, i.e. pause quanta 0, are not counted) sent anywhere in the fabric whose time_s lies in
  the arrival window [arrival_start_s, arrival_start_s + arrival_duration_s) of run.json, divided
  by arrival_duration_s: pause frames per second, fabric-wide (pause_rate_per_s). The same per
  link "node->peer" (the sender of the frame -> the device it pauses) in pause_rate_per_link;
  every link that sent a PAUSE at any time in the run is listed (rate 0 if none was in the
  window). Refreshed PAUSE frames (sent while the port stays above X_off) count, as in the
  paper's plots. The whole-run counts (including the drain after the window) are copied from
  summary.json: pause_frames_total, pause_frames_per_link_total.
* Copied from summary.json: cnps_sent, cnms_received, ecn_marks, flows_total, flows_completed,
  wall_time_s, events_executed; drops_total is the sum of its "drops" by reason (drops_by_reason).
  Every run.json field (cc, workload, load, ...) is copied to the top level of stats.json.

A run that finished with no completed flow (an empty flows.csv) is not an error: the FCT and
slowdown statistics are null and "note" says why.
"""
import argparse
import json
import math
import os
import sys

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_runner  # noqa: E402

PERCENTILE_METHOD = "linear"
FLOW_COLUMNS = ["flow_id", "src", "dst", "size_bytes", "start_s", "end_s", "fct_s",
                "ideal_fct_s", "slowdown"]
PFC_COLUMNS = ["time_s", "node", "port", "peer", "priority", "event", "quanta"]
# (label, exclusive lower bound, inclusive upper bound) in bytes; None = unbounded.
SIZE_BUCKETS = [
    ("<=10KB", None, 10_000),
    ("10KB-100KB", 10_000, 100_000),
    ("100KB-1MB", 100_000, 1_000_000),
    ("1MB-10MB", 1_000_000, 10_000_000),
    (">10MB", 10_000_000, None),
]
SLOWDOWN_PERCENTILES = (50, 95, 99)
SUMMARY_COPY = ["cnps_sent", "cnms_received", "ecn_marks", "flows_total", "flows_completed",
                "wall_time_s", "events_executed"]
NO_FLOWS_NOTE = "no completed flows: FCT and slowdown statistics are null"


class StatsError(Exception):
    """Bad or incomplete input; the message names the file and the value."""


def _num(x):
    """A JSON-safe Python number (None for NaN/inf/None)."""
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


def _percentile(values, q):
    return float(np.percentile(np.asarray(values, dtype=float), q, method=PERCENTILE_METHOD))


def _numeric_column(df, col, what):
    """df[col] as floats; StatsError naming the first bad value."""
    vals = pd.to_numeric(df[col], errors="coerce")
    bad = vals.isna()
    if bad.any():
        i = bad.idxmax()
        raise StatsError(f"{what}: column {col} has a non-numeric value {df[col][i]!r} "
                         f"(data row {i + 1})")
    return vals.astype(float)


def check_flows(flows, what="flows.csv"):
    """Validate a flows DataFrame: required columns, numeric fct_s/size_bytes/slowdown."""
    missing = [c for c in ("size_bytes", "fct_s", "slowdown") if c not in flows.columns]
    if missing:
        raise StatsError(f"{what}: missing column(s) {', '.join(missing)} "
                         f"(have {', '.join(map(str, flows.columns))})")
    out = flows.copy()
    for col in ("size_bytes", "fct_s", "slowdown"):
        out[col] = _numeric_column(flows, col, what)
    return out


def fct_summary(flows):
    """Mean, median and 99th-percentile FCT (seconds) of the completed flows in `flows`.

    Returns {"fct_count", "avg_fct_s", "median_fct_s", "p99_fct_s", "percentile_method"};
    the three statistics are None when there is no flow."""
    fct = check_flows(flows).fct_s
    res = {"fct_count": int(len(fct)), "percentile_method": PERCENTILE_METHOD}
    if len(fct) == 0:
        res.update(avg_fct_s=None, median_fct_s=None, p99_fct_s=None)
    else:
        res.update(avg_fct_s=_num(fct.mean()), median_fct_s=_percentile(fct, 50),
                   p99_fct_s=_percentile(fct, 99))
    return res


def size_bucket(size_bytes):
    """The SIZE_BUCKETS label of a flow size (upper bounds inclusive: 10000 B is <=10KB)."""
    for label, lo, hi in SIZE_BUCKETS:
        if (lo is None or size_bytes > lo) and (hi is None or size_bytes <= hi):
            return label
    raise StatsError(f"flow size {size_bytes!r} fits no bucket")  # only NaN gets here


def slowdown_by_bucket(flows):
    """{bucket label: {"count", "min_bytes_exclusive", "max_bytes_inclusive", "p50", "p95",
    "p99"}} of the slowdown column, one entry per SIZE_BUCKETS bucket (in order)."""
    f = check_flows(flows)
    labels = f.size_bytes.map(size_bucket) if len(f) else pd.Series([], dtype=object)
    out = {}
    for label, lo, hi in SIZE_BUCKETS:
        sd = f.slowdown[labels == label]
        entry = {"count": int(len(sd)), "min_bytes_exclusive": lo, "max_bytes_inclusive": hi}
        for q in SLOWDOWN_PERCENTILES:
            entry[f"p{q}"] = _percentile(sd, q) if len(sd) else None
        out[label] = entry
    return out


def pause_rate(pfc, window_start_s, window_duration_s):
    """PFC PAUSE-frame rate in the arrival window [start, start + duration) (see module doc).

    Returns {"pause_frames_in_window", "pause_rate_per_s", "pause_rate_per_link"
    ({"node->peer": frames per second}), "pause_frames_in_window_per_link"}."""
    if not (window_duration_s is not None and float(window_duration_s) > 0):
        raise StatsError(f"arrival_duration_s must be > 0, got {window_duration_s!r}")
    start = float(window_start_s)
    end = start + float(window_duration_s)
    missing = [c for c in ("time_s", "node", "peer", "event") if c not in pfc.columns]
    if missing:
        raise StatsError(f"pfc.csv: missing column(s) {', '.join(missing)}")
    pauses = pfc[pfc.event.astype(str) == "pause"]
    t = _numeric_column(pauses, "time_s", "pfc.csv")
    links = pauses.node.astype(str) + "->" + pauses.peer.astype(str)
    inside = (t >= start) & (t < end)
    n = int(inside.sum())
    per_link_count = {link: 0 for link in sorted(links.unique())}
    for link, c in links[inside].value_counts().items():
        per_link_count[link] = int(c)
    dur = float(window_duration_s)
    return {
        "pause_frames_in_window": n,
        "pause_rate_per_s": n / dur,
        "pause_frames_in_window_per_link": per_link_count,
        "pause_rate_per_link": {k: v / dur for k, v in per_link_count.items()},
    }


def _summary_field(summary, key):
    if key not in summary:
        raise StatsError(f"summary.json: missing field {key!r}")
    return summary[key]


def compute_stats(flows, pfc, summary, run):
    """All statistics of one run as a JSON-ready dict (see the module docstring)."""
    for key in ("arrival_start_s", "arrival_duration_s"):
        if key not in run:
            raise StatsError(f"run.json: missing field {key!r}")
    stats = dict(run)  # the run.json fields, copied in
    stats["note"] = None
    stats.update(fct_summary(flows))
    stats["slowdown_by_size"] = slowdown_by_bucket(flows)
    if len(flows) == 0:
        stats["note"] = NO_FLOWS_NOTE
    stats.update(pause_rate(pfc, run["arrival_start_s"], run["arrival_duration_s"]))
    stats["pause_frames_total"] = _summary_field(summary, "pause_frames_sent")
    stats["pause_frames_per_link_total"] = summary.get("pause_frames_per_link", {})
    for key in SUMMARY_COPY:
        stats[key] = _summary_field(summary, key)
    total, done = stats["flows_total"], stats["flows_completed"]
    stats["completion_ratio"] = done / total if total else None
    drops = summary.get("drops", {}) or {}
    stats["drops_by_reason"] = drops
    stats["drops_total"] = int(sum(drops.values()))
    return stats


# The files of a finished large-scale run (the simulator writes summary.json last).
RUN_FILES = ("summary.json", "run.json")


def is_complete(run_dir):
    """A run directory is complete iff it has summary.json and run.json (the simulator writes
    summary.json last; the sweep renames DIR.tmp to DIR only after success)."""
    return sweep_runner.is_complete(run_dir, RUN_FILES)


def _read_json(path):
    try:
        with open(path) as f:
            data = json.load(f)
    except json.JSONDecodeError as e:
        raise StatsError(f"{path}: not valid JSON ({e})") from None
    except OSError as e:
        raise StatsError(f"{path}: cannot read ({e.strerror})") from None
    if not isinstance(data, dict):
        raise StatsError(f"{path}: expected a JSON object")
    return data


def _read_csv(path, columns):
    """A CSV as a DataFrame; a zero-byte file is an empty table with `columns`."""
    if not os.path.isfile(path):
        raise StatsError(f"{path}: missing")
    if os.path.getsize(path) == 0:
        return pd.DataFrame(columns=columns)
    try:
        return pd.read_csv(path)
    except (pd.errors.ParserError, UnicodeDecodeError) as e:
        raise StatsError(f"{path}: cannot parse ({e})") from None


def load_run(run_dir):
    """(flows, pfc, summary, run) of a run directory; StatsError if it is not a complete run."""
    if not os.path.isdir(run_dir):
        raise StatsError(f"{run_dir}: no such run directory")
    if not is_complete(run_dir):
        raise StatsError(f"{run_dir}: not a complete run (needs summary.json and run.json)")
    flows = _read_csv(os.path.join(run_dir, "flows.csv"), FLOW_COLUMNS)
    pfc = _read_csv(os.path.join(run_dir, "pfc.csv"), PFC_COLUMNS)
    summary = _read_json(os.path.join(run_dir, "summary.json"))
    run = _read_json(os.path.join(run_dir, "run.json"))
    return flows, pfc, summary, run


def write_stats(run_dir):
    """Compute the statistics of run_dir and write run_dir/stats.json; returns the dict."""
    flows, pfc, summary, run = load_run(run_dir)
    try:
        stats = compute_stats(flows, pfc, summary, run)
    except StatsError as e:
        raise StatsError(f"{run_dir}: {e}") from None
    except (TypeError, ValueError) as e:  # e.g. a string where summary/run.json want a number
        raise StatsError(f"{run_dir}: unexpected value in summary.json/run.json ({e})") from None
    tmp = os.path.join(run_dir, "stats.json.tmp")
    with open(tmp, "w") as f:
        json.dump(stats, f, indent=2, allow_nan=False)
        f.write("\n")
    os.replace(tmp, os.path.join(run_dir, "stats.json"))
    return stats


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("runs", nargs="+", metavar="RUN_DIR", help="output directories of "
                    "dcon-large-scale runs")
    args = ap.parse_args(argv)
    failed = 0
    for run_dir in args.runs:
        try:
            s = write_stats(run_dir)
        except StatsError as e:
            print(f"error: {e}", file=sys.stderr)
            failed += 1
            continue
        fmt = lambda x, k=1e3: "null" if x is None else "%.4g" % (x * k)  # noqa: E731
        print(f"{run_dir}: {s['fct_count']} flows, avg FCT {fmt(s['avg_fct_s'])} ms, "
              f"p99 {fmt(s['p99_fct_s'])} ms, {s['pause_rate_per_s']:.4g} PAUSE/s"
              + (f" ({s['note']})" if s["note"] else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

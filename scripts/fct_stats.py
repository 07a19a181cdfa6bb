"""Statistics of one run of examples/dcon-large-scale (DCON paper Fig. 9-12).

Usage: /usr/bin/python3 -m scripts.fct_stats RUN_DIR [RUN_DIR ...]
Reads RUN_DIR/{flows.csv, flows.txt, pfc.csv, buffer.csv, summary.json, run.json} and writes
RUN_DIR/stats.json. flows.txt and buffer.csv may be missing (older runs): the statistics that
need them are null and say so.

Definitions (1 KB = 1000 B, 1 MB = 10^6 B):

* Windows. The arrival window is [a, a + D) with a = arrival_start_s and D =
  arrival_duration_s of run.json (flows arrive only in it; the run goes on until every flow has
  completed). Its leading warm-up of W = warmup_s seconds fills the empty fabric, and its
  trailing cool-down of C = cooldown_s seconds sees arrivals about to stop (each 0 when run.json
  does not have it); the *measured window* is the rest, [a + W, a + D - C) (half-open,
  measured_duration_s = D - W - C > 0). A flow belongs to the measured window when its start_s
  lies in it. The flows outside it are still simulated: they load the fabric while the measured
  flows run.
* FCT statistics are over the *completed* flows (the rows of flows.csv) whose start_s is in the
  measured window: the mean of fct_s, its median and its 99th percentile (fct_count flows).
  Percentiles are numpy.percentile with method="linear" (numpy's default): for n sorted values
  x[0..n-1], the p-th percentile sits at rank r = p/100 * (n - 1) and is
  x[floor(r)] + (r - floor(r)) * (x[floor(r)+1] - x[floor(r)]). Unfinished flows are not in
  flows.csv, and they are the slow ones, so a low completion ratio biases the FCT statistics
  downwards: flows_measured is the number of flows of flows.txt (every generated flow, in
  flow-id order) that started in the measured window, flows_measured_completed how many of them
  are in flows.csv, completion_ratio_measured their ratio. The same over the whole run:
  whole_run_fct_count, whole_run_avg_fct_s, whole_run_median_fct_s, whole_run_p99_fct_s (every
  completed flow) and completion_ratio = flows_completed / flows_total (from summary.json).
* FCT slowdown (the slowdown column: fct_s / ideal_fct_s) percentiles 50, 95 and 99 per size
  bucket, by size_bytes, upper bounds inclusive: <=10KB, (10KB,100KB], (100KB,1MB], (1MB,10MB],
  >10MB, over the completed flows of the measured window. Each bucket has its count; the
  percentiles are null for an empty bucket.
* PFC pause-frame rate: the number of PAUSE frames (pfc.csv rows with event == "pause"; RESUME
  frames, i.e. pause quanta 0, are not counted) sent anywhere in the fabric whose time_s lies in
  the measured window, divided by its length: pause frames per second, fabric-wide
  (pause_rate_per_s, pause_frames_in_window). The same per link "node->peer" (the sender of the
  frame -> the device it pauses) in pause_rate_per_link; every link that sent a PAUSE at any
  time in the run is listed (rate 0 if none was in the window). Refreshed PAUSE frames (sent
  while the port stays above X_off) count, as in the paper's plots. Over the whole arrival
  window (warm-up and cool-down included): arrival_pause_frames, arrival_pause_rate_per_s. The whole-run counts
  (including the drain after the window) are copied from summary.json: pause_frames_total,
  pause_frames_per_link_total.
* Stationarity. The measured window is cut into 4 equal quarters [s_i, e_i). Per quarter
  (stationarity_quarters): pause_rate_per_s (PAUSE frames in the quarter / its length),
  mean_buffer_bytes (mean total_bytes of the buffer.csv samples whose time_s is in the quarter:
  bytes buffered in all switches), active_flows_at_end (flows of flows.txt with start_s <= e_i
  that had not completed by e_i, i.e. not in flows.csv or with end_s > e_i) and avg_fct_s /
  fct_count (the completed flows that started in the quarter). A run is *not stationary* (the
  offered load exceeds what the scheme drains, so its statistics depend on the window length)
  when either
    - the active flows grow: active_flows_at_end never decreases from one quarter to the next,
      and the last quarter's exceeds the first's by more than 25% and by at least 2 flows; or
    - the buffer grows: mean_buffer_bytes never decreases from one quarter to the next, and the
      last quarter's exceeds the first's by more than 50% and by at least 10 KB.
  (The absolute margins keep a nearly empty fabric from being judged on a flow or a packet.)
  stationary is true when no evaluated check fails, false when one fails (stationarity_note
  names the metric and its four values), null when neither could be evaluated (no flows.txt and
  no buffer.csv, or quarters without buffer samples); stationarity_note also says which check
  was skipped and why.
* Copied from summary.json: cnps_sent, cnms_received, ecn_marks, flows_total, flows_completed,
  wall_time_s, events_executed; drops_total is the sum of its "drops" by reason (drops_by_reason).
  Every run.json field (cc, workload, load, ...) is copied to the top level of stats.json, and
  measured_start_s, measured_end_s, measured_duration_s give the measured window.

A run that finished with no completed flow in the measured window is not an error: the FCT and
slowdown statistics are null and "note" says why.
"""
import argparse
import json
import math
import os
import sys

import numpy as np
import pandas as pd

from . import sweep_runner

PERCENTILE_METHOD = "linear"
FLOW_COLUMNS = ["flow_id", "src", "dst", "size_bytes", "start_s", "end_s", "fct_s",
                "ideal_fct_s", "slowdown"]
PFC_COLUMNS = ["time_s", "node", "port", "peer", "priority", "event", "quanta"]
BUFFER_COLUMNS = ["time_s", "total_bytes", "max_switch_bytes"]
# flows.txt (HPCC format) after its first line, the flow count; the flow id is the line order.
FLOWS_TXT_COLUMNS = ["src", "dst", "priority_group", "dport", "size_bytes", "start_s"]
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
NO_FLOWS_NOTE = "no completed flows in the measured window: FCT and slowdown statistics are null"
# The stationarity rule (module docstring): growth factors and absolute margins.
QUARTERS = 4
ACTIVE_GROWTH, ACTIVE_MIN_FLOWS = 0.25, 2
BUFFER_GROWTH, BUFFER_MIN_BYTES = 0.5, 10_000


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


def _require_columns(df, columns, what):
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise StatsError(f"{what}: missing column(s) {', '.join(missing)} "
                         f"(have {', '.join(map(str, df.columns))})")


def check_flows(flows, what="flows.csv"):
    """Validate a flows DataFrame: required columns, numeric size_bytes/fct_s/slowdown (and
    start_s, end_s, flow_id when present)."""
    _require_columns(flows, ("size_bytes", "fct_s", "slowdown"), what)
    out = flows.copy()
    for col in ("size_bytes", "fct_s", "slowdown", "start_s", "end_s", "flow_id"):
        if col in flows.columns:
            out[col] = _numeric_column(flows, col, what)
    return out


def in_window(times, start, end):
    """Boolean mask of `times` in the half-open window [start, end)."""
    return (times >= start) & (times < end)


def flows_started_in(flows, start, end):
    """The rows of a flows table whose start_s lies in [start, end)."""
    _require_columns(flows, ("start_s",), "flows.csv")
    return flows[in_window(_numeric_column(flows, "start_s", "flows.csv"), start, end)]


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


def _pause_frames(pfc):
    """(time_s, "node->peer") Series of the PAUSE frames of a pfc.csv table."""
    _require_columns(pfc, ("time_s", "node", "peer", "event"), "pfc.csv")
    pauses = pfc[pfc.event.astype(str) == "pause"]
    t = _numeric_column(pauses, "time_s", "pfc.csv")
    return t, pauses.node.astype(str) + "->" + pauses.peer.astype(str)


def pause_rate(pfc, window_start_s, window_duration_s):
    """PFC PAUSE-frame rate in the window [start, start + duration) (see module doc).

    Returns {"pause_frames_in_window", "pause_rate_per_s", "pause_rate_per_link"
    ({"node->peer": frames per second}), "pause_frames_in_window_per_link"}."""
    if not (window_duration_s is not None and float(window_duration_s) > 0):
        raise StatsError(f"window duration must be > 0, got {window_duration_s!r}")
    start = float(window_start_s)
    dur = float(window_duration_s)
    t, links = _pause_frames(pfc)
    inside = in_window(t, start, start + dur)
    per_link_count = {link: 0 for link in sorted(links.unique())}
    for link, c in links[inside].value_counts().items():
        per_link_count[link] = int(c)
    n = int(inside.sum())
    return {
        "pause_frames_in_window": n,
        "pause_rate_per_s": n / dur,
        "pause_frames_in_window_per_link": per_link_count,
        "pause_rate_per_link": {k: v / dur for k, v in per_link_count.items()},
    }


def measured_window(run):
    """(start_s, end_s) of the measured window [a + W, a + D - C) of a run.json dict; StatsError
    when a field is missing or the window is empty."""
    for key in ("arrival_start_s", "arrival_duration_s"):
        if key not in run:
            raise StatsError(f"run.json: missing field {key!r}")
    a, d = float(run["arrival_start_s"]), float(run["arrival_duration_s"])
    w = float(run.get("warmup_s") or 0.0)
    c = float(run.get("cooldown_s") or 0.0)
    if not d > 0:
        raise StatsError(f"run.json: arrival_duration_s must be > 0, got {d!r}")
    if not (w >= 0 and c >= 0 and w + c < d):
        raise StatsError(f"run.json: warmup_s ({w!r}) and cooldown_s ({c!r}) must be >= 0 and "
                         f"leave part of arrival_duration_s ({d!r}) to measure")
    return a + w, a + d - c


def completion_in_window(flows_txt, flows, start, end):
    """{"flows_measured", "flows_measured_completed", "completion_ratio_measured"}: the flows of
    flows.txt (flow id = row) that started in [start, end), and how many of them are in flows
    (completed). None values when flows_txt is None."""
    if flows_txt is None:
        return {"flows_measured": None, "flows_measured_completed": None,
                "completion_ratio_measured": None}
    ids = flows_txt.index[in_window(flows_txt.start_s, start, end)]
    done = set(check_flows(flows).flow_id.astype(int))
    n = int(len(ids))
    c = int(sum(1 for i in ids if i in done))
    return {"flows_measured": n, "flows_measured_completed": c,
            "completion_ratio_measured": c / n if n else None}


def active_flows(flows_txt, flows, t):
    """Flows of flows_txt with start_s <= t that had not completed by t (not in `flows`, or
    with end_s > t there)."""
    started = flows_txt.index[flows_txt.start_s <= t]
    f = check_flows(flows)
    done_by_t = set(f.flow_id[f.end_s <= t].astype(int))
    return int(sum(1 for i in started if i not in done_by_t))


def quarter_stats(flows, pfc, buffer, flows_txt, start, end, quarters=QUARTERS):
    """Per quarter of [start, end): {"start_s", "end_s", "pause_rate_per_s",
    "mean_buffer_bytes", "active_flows_at_end", "avg_fct_s", "fct_count"} (None where the
    input is missing: buffer None, flows_txt None, no completed flow)."""
    pause_t, _ = _pause_frames(pfc)
    if buffer is not None:
        _require_columns(buffer, ("time_s", "total_bytes"), "buffer.csv")
        buf_t = _numeric_column(buffer, "time_s", "buffer.csv")
        buf_b = _numeric_column(buffer, "total_bytes", "buffer.csv")
    out = []
    length = (end - start) / quarters
    for i in range(quarters):
        s = start + i * length
        e = end if i == quarters - 1 else start + (i + 1) * length
        q = {"start_s": s, "end_s": e,
             "pause_rate_per_s": int(in_window(pause_t, s, e).sum()) / (e - s),
             "mean_buffer_bytes": None, "active_flows_at_end": None}
        if buffer is not None:
            sel = buf_b[in_window(buf_t, s, e)]
            q["mean_buffer_bytes"] = _num(sel.mean()) if len(sel) else None
        if flows_txt is not None:
            q["active_flows_at_end"] = active_flows(flows_txt, flows, e)
        fs = fct_summary(flows_started_in(flows, s, e))
        q["avg_fct_s"], q["fct_count"] = fs["avg_fct_s"], fs["fct_count"]
        out.append(q)
    return out


def _grows(values, factor, margin):
    """Never decreasing, and the last exceeds the first by more than factor x first and by at
    least margin."""
    mono = all(b >= a for a, b in zip(values, values[1:]))
    first, last = values[0], values[-1]
    return mono and last > (1 + factor) * first and last - first >= margin


def stationarity(quarters):
    """(stationary: bool or None, note: str or None) of quarter_stats' output (module doc)."""
    checks = [  # (key, what, growth factor, margin, unit)
        ("active_flows_at_end", "active flows at the quarter ends", ACTIVE_GROWTH,
         ACTIVE_MIN_FLOWS, "flows.txt"),
        ("mean_buffer_bytes", "mean buffered bytes per quarter", BUFFER_GROWTH,
         BUFFER_MIN_BYTES, "buffer.csv"),
    ]
    failed, skipped, evaluated = [], [], 0
    for key, what, factor, margin, source in checks:
        values = [q[key] for q in quarters]
        if any(v is None for v in values):
            skipped.append(f"{what} not checked (no {source} or a quarter without data)")
            continue
        evaluated += 1
        if _grows(values, factor, margin):
            failed.append(f"{what} grow: " + ", ".join("%.6g" % v for v in values))
    stationary = None if evaluated == 0 else not failed
    note = "; ".join(failed + skipped) or None
    return stationary, note


def _summary_field(summary, key):
    if key not in summary:
        raise StatsError(f"summary.json: missing field {key!r}")
    return summary[key]


def compute_stats(flows, pfc, summary, run, flows_txt=None, buffer=None):
    """All statistics of one run as a JSON-ready dict (see the module docstring).

    flows_txt: flows.txt as read by read_flows_txt (None: unknown); buffer: buffer.csv
    (None: unknown)."""
    m_start, m_end = measured_window(run)
    stats = dict(run)  # the run.json fields, copied in
    stats["note"] = None
    stats.update(measured_start_s=m_start, measured_end_s=m_end,
                 measured_duration_s=m_end - m_start)
    measured = flows_started_in(flows, m_start, m_end)
    stats.update(fct_summary(measured))
    stats["slowdown_by_size"] = slowdown_by_bucket(measured)
    if len(measured) == 0:
        stats["note"] = NO_FLOWS_NOTE
    whole = fct_summary(flows)
    for key in ("fct_count", "avg_fct_s", "median_fct_s", "p99_fct_s"):
        stats["whole_run_" + key] = whole[key]
    stats.update(completion_in_window(flows_txt, flows, m_start, m_end))
    stats.update(pause_rate(pfc, m_start, m_end - m_start))
    arrival = pause_rate(pfc, run["arrival_start_s"], run["arrival_duration_s"])
    stats["arrival_pause_frames"] = arrival["pause_frames_in_window"]
    stats["arrival_pause_rate_per_s"] = arrival["pause_rate_per_s"]
    stats["pause_frames_total"] = _summary_field(summary, "pause_frames_sent")
    stats["pause_frames_per_link_total"] = summary.get("pause_frames_per_link", {})
    quarters = quarter_stats(flows, pfc, buffer, flows_txt, m_start, m_end)
    stats["stationarity_quarters"] = quarters
    stats["stationary"], stats["stationarity_note"] = stationarity(quarters)
    for key in SUMMARY_COPY:
        stats[key] = _summary_field(summary, key)
    total, done = stats["flows_total"], stats["flows_completed"]
    stats["completion_ratio"] = done / total if total else None
    # runs of the simulator before "complete" existed ran every flow to completion or said so in
    # flows_completed; a safety stop now says "complete": false with the reason
    stats["complete"] = bool(summary.get("complete", True))
    stats["incomplete_reason"] = summary.get("incomplete_reason")
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


def read_json(path):
    """A JSON object from a file; StatsError naming the file."""
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


def read_csv(path, columns, optional=False):
    """A CSV as a DataFrame; a zero-byte file is an empty table with `columns`; a missing file
    is None when optional, else a StatsError."""
    if not os.path.isfile(path):
        if optional:
            return None
        raise StatsError(f"{path}: missing")
    if os.path.getsize(path) == 0:
        return pd.DataFrame(columns=columns)
    try:
        return pd.read_csv(path)
    except (pd.errors.ParserError, UnicodeDecodeError) as e:
        raise StatsError(f"{path}: cannot parse ({e})") from None


def read_flows_txt(path):
    """flows.txt (HPCC format: the flow count, then `src dst pg dport size start_s` per flow)
    as a DataFrame indexed by flow id (the row order); None when the file does not exist."""
    if not os.path.isfile(path):
        return None
    try:
        with open(path) as f:
            lines = [ln.split() for ln in f if ln.strip()]
    except (OSError, UnicodeDecodeError) as e:
        raise StatsError(f"{path}: cannot read ({e})") from None
    if not lines or len(lines[0]) != 1 or not lines[0][0].isdigit():
        raise StatsError(f"{path}: the first line must be the flow count")
    count, rows = int(lines[0][0]), lines[1:]
    if count != len(rows):
        raise StatsError(f"{path}: says {count} flows but has {len(rows)}")
    for i, r in enumerate(rows):
        if len(r) != len(FLOWS_TXT_COLUMNS):
            raise StatsError(f"{path}: flow {i} has {len(r)} fields, expected "
                             f"{len(FLOWS_TXT_COLUMNS)}: {' '.join(r)!r}")
    df = pd.DataFrame(rows, columns=FLOWS_TXT_COLUMNS)
    for col in ("size_bytes", "start_s"):
        df[col] = _numeric_column(df, col, path)
    return df


def load_run(run_dir):
    """(flows, pfc, summary, run, flows_txt, buffer) of a run directory (flows_txt and buffer
    None when the file is missing); StatsError if it is not a complete run."""
    if not os.path.isdir(run_dir):
        raise StatsError(f"{run_dir}: no such run directory")
    if not is_complete(run_dir):
        raise StatsError(f"{run_dir}: not a complete run (needs summary.json and run.json)")
    flows = read_csv(os.path.join(run_dir, "flows.csv"), FLOW_COLUMNS)
    pfc = read_csv(os.path.join(run_dir, "pfc.csv"), PFC_COLUMNS)
    summary = read_json(os.path.join(run_dir, "summary.json"))
    run = read_json(os.path.join(run_dir, "run.json"))
    flows_txt = read_flows_txt(os.path.join(run_dir, "flows.txt"))
    buffer = read_csv(os.path.join(run_dir, "buffer.csv"), BUFFER_COLUMNS, optional=True)
    return flows, pfc, summary, run, flows_txt, buffer


def write_stats(run_dir):
    """Compute the statistics of run_dir and write run_dir/stats.json; returns the dict."""
    flows, pfc, summary, run, flows_txt, buffer = load_run(run_dir)
    try:
        stats = compute_stats(flows, pfc, summary, run, flows_txt, buffer)
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
        ratio = s["completion_ratio_measured"]
        print(f"{run_dir}: {s['fct_count']} measured flows, avg FCT {fmt(s['avg_fct_s'])} ms, "
              f"p99 {fmt(s['p99_fct_s'])} ms, {s['pause_rate_per_s']:.4g} PAUSE/s, completed "
              f"{'n/a' if ratio is None else '%.1f%%' % (100 * ratio)}, stationary "
              f"{ {True: 'yes', False: 'NO', None: 'n/a'}[s['stationary']] }"
              + (f" ({s['stationarity_note']})" if s["stationary"] is False else "")
              + (f" ({s['note']})" if s["note"] else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Statistics of one run of examples/dcon-large-scale (DCON paper Fig. 9-12).

Usage: /usr/bin/python3 -m scripts.fct_stats RUN_DIR [RUN_DIR ...]
Reads RUN_DIR/{flows.csv, flows.txt, pfc.csv, buffer.csv, summary.json, run.json} and writes
RUN_DIR/stats.json. flows.txt and buffer.csv may be missing (older runs): the statistics that
need them are null and say so.

Definitions (1 KB = 1000 B, 1 MB = 10^6 B):

* Windows. The arrival window is [a, a + D) with a = arrival_start_s and D =
  arrival_duration_s of run.json (flows arrive only in it; the run goes on until every flow has
  completed). Its trailing cool-down of C = cooldown_s seconds sees arrivals about to stop (0
  when run.json does not have it) and is never measured. The *measured window* is
  [T, a + D - C) (half-open, measured_start_s, measured_end_s, measured_duration_s) with T =
  equilibrium_start_s, the end of the warm-up found in the data (Equilibrium, below). The
  *nominal window* [a + W, a + D - C), with W = warmup_s the warm-up set by hand (0 when
  absent), is the window of the records made before the data-driven warm-up; its statistics
  are kept, prefixed nominal_ (below). A flow belongs to a window when its start_s lies in it.
  The flows outside it are still simulated: they load the fabric while the measured flows run.
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
  window (warm-up and cool-down included): arrival_pause_frames, arrival_pause_rate_per_s. The
  whole-run counts (including the drain after the window) are copied from summary.json:
  pause_frames_total, pause_frames_per_link_total.
* Series. The active flows N(t): the flows of flows.txt started by t and not completed by t
  (not in flows.csv, or end_s > t), a step function known exactly (+1 at each start, -1 at each
  end). The buffered bytes B(t): buffer.csv's total_bytes (bytes in all switches), each sample
  holding until the next. [a, a + D - C) is cut into n = max(20, round((D - C) / 0.5 ms))
  batches of equal length (0.5 ms unless the window is shorter than 10 ms) and each series is
  reduced to its exact time average over each batch. A run that stopped before a + D - C
  (summary.json's simulated_time_s: a safety stop) is analysed up to where it stopped.
* Equilibrium (the data-driven warm-up). For each series x_0 .. x_{n-1} of batch means: its
  level L is the mean of the last half (k >= n/2); y_k is the mean of x_k .. x_{k+4} (2.5 ms
  with 0.5 ms batches); sd is the standard deviation of such 5-batch means in the last half,
  estimated from the successive differences d of its non-overlapping 5-batch means as
  median(|d|) / (0.6745 sqrt 2) (a trend or a jump in the last half moves it little), for N at
  least sqrt(L) (the standard deviation of a Poisson count of mean L: slow fluctuations of the
  number of long flows that a short stretch does not show); the band half-width is
  max(5% of |L|, 2 sd, 2 flows or 10 KB). The series' warm-up ends at the first batch k whose
  y_k lies in L +- band (equilibrium_series.<series>.truncation_s, with level and band), and
  the run's at the later of the two series (equilibrium_start_s; equilibrium_method names the
  rule and the series used). Why a band and not MSER-5 (White 1997, the minimum of the
  truncated mean's squared standard error on batch means, reported as mser5_s for
  comparison): MSER's criterion has no scale, and on series as autocorrelated as these (N's
  lag-1 autocorrelation of 0.5 ms means is 0.95 to 0.98: long flows) it truncates after any
  slow excursion; on a 20 ms ramp followed by AR(1) noise of lag-1 correlation 0.92 per batch
  (140 ms) it put the truncation in the last half in 20 of 100 series, the band in none
  (scripts/equilibrium_mc.py, which checks every number of this paragraph).
  The fill floor: the start found so is moved, when later, to a + t_f rounded up to a batch
  edge, t_f (fill_time_s) the M/G/infinity fill time of the FCTs W of the flows started from
  the band's start (fill_time: the least t with E[min(W, t)] >= 95% of E[W]; an unfinished
  flow counts as in Little's law, below). Flows arriving at a constant rate from a with FCTs
  of that law have lambda E[min(W, t - a)] of them open at t, against lambda E[W] in
  equilibrium: t_f is when they reach 95% of it, an independent check of the band from the
  FCT law itself, which weighs the long flows that the band's short stretches may not yet
  show (heavy tails such as DataMining's, where 3% of the flows hold 85% of the flow-time).
  It is computed once (from the band's window), from at least 100 FCTs (else fill_time_s is
  null), and applied only when the band's window shows no overload (a backlog has no
  equilibrium FCT law: its verdict stands on the band's window, and the note says "not
  applied"); the verdict below is then made on the moved window. An overload whose fill time
  lies in the window's last half is too short all the same: the open flows of a stationary
  FCT law are still rising there, so the growth may be the fill (DataMining at load 0.6 in
  1 s windows, doc/validation/equilibrium.rst). A warm-up (band or fill
  floor) that ends in the last half of the window (also when no y_k is in the band) means the
  run is too short to show its equilibrium:
  equilibrium_too_short is true, the measured window is then the last half, and
  equilibrium_more_needed_s estimates the arrival time still needed, 2 (t_cut - a) - (D - C)
  (t_cut the band's cut or a + t_f, in the first half; a lower bound), when the late series
  has settled (not overloaded, no change beyond its threshold, below, in the last half of the
  measured window), null otherwise.
* Stationarity verdict, on the measured window (criterion version 2, equilibrium_criterion;
  version 1 had the 10-batch test alone). For each series, the measured window and its last
  half are each tested for a linear trend twice: the 10-batch test (cut into 10 equal
  batches, a least-squares line fitted to their means: the slope b, its standard error s_b,
  t = b / s_b against t(0.995, 8) = 3.355, a two-sided 1% test) and the weighed test (the line
  through the 0.5 ms batch means, s_b multiplied by sqrt(tau), tau the integrated
  autocorrelation time of the residuals in batches, integrated_time; df = min(8, n_eff - 2),
  n_eff = the window / corr_time_s, corr_time_s = tau x 0.5 ms; no test below n_eff = 3),
  and the fitted change b x length. A trend is significant when both tests find it. It is
  *flagged* when it is significant and the change exceeds the threshold: for N
  max(10% of its mean, 3 sqrt(2 x mean), 2 flows) (3 standard deviations of the difference of
  two independent Poisson counts: what N of an M/G/infinity system in equilibrium wanders
  across a window; no flag in 100 such systems over 300 or 500 ms with 208,000 arrivals/s and
  the WebSearch sizes at a rate giving 6 ms FCTs, where the 10-batch t-test alone finds 13%),
  for B max(20% of its mean, 10 KB) (stationary AR(1) noise over 140 ms: 0 to 4% flagged for
  correlation times up to 1 ms, 3 to 8% at 3 ms, 15 to 25% at 10 ms). A flagged growth that
  the 10-batch test still finds in the last half is an *overload*; one that stopped is "not
  settled"; a flagged fall is "still falling". A series with a trend of the 10-batch test
  that its correlation explains (the weighed test is not significant: "slow") and no flagged
  trend, or whose window holds fewer than N_EFF_MIN = 5 correlation times while its spread (2
  sd of the 0.5 ms means around the line) exceeds its threshold (too_short_for_corr), makes
  the run too short: "too short for its correlation" (equilibrium_more_needed_s: 5
  correlation times minus the window for the second, not known for the first). On slow
  stationary buffers (8 MB, AR(1) of 30% with e-folding times of 100 and 300 ms, 1 s
  windows) version 1 called a trend in 26 and 40% of the series, version 2 in 10 and 10%
  (too short: 16 and 35%); scripts/equilibrium_mc.py, experiment slow, measures this and the
  power lost. Growth rates are reported from the measured window's fit
  (its last half's when only that one is flagged): active_growth_per_s (flows/s),
  buffer_growth_bytes_per_s (B/s), and both as % of the window's mean per 10 ms
  (active_growth_pct_per_10ms, buffer_growth_pct_per_10ms); the fits themselves are in
  equilibrium_series.<series>.trend and .trend_last_half (mean, slope_per_s, change,
  change_share, pct_per_10ms, t, t_crit, significant, significant_batches, threshold,
  flagged, corr_time_s, n_eff, spread, t_corr, t_corr_crit, slow), with the series'
  corr_time_s, n_eff and too_short_for_corr beside them. mean_active_flows
  and mean_buffer_bytes are the series' time averages over the measured window.
* Little's law, on the measured window [T, E): mean_active_flows against lambda x W, lambda =
  little_lambda_per_s the flows of flows.txt started in the window per second, W = little_w_s
  the mean FCT of those flows (one that did not complete counts with summary.json's
  simulated_time_s - start_s, a lower bound; little_unfinished of them). little_ratio = mean N /
  (lambda W) is 1 in equilibrium up to its edge terms (the flow-time in the window of flows
  started before it, minus the flow-time after it of flows started in it), whose standard
  deviation with Poisson arrivals is little_edge_sd = sqrt(2 lambda E[FCT^3] / 3) / (lambda W
  (E - T)); little_tolerance = max(15%, 3 little_edge_sd) (15% is 3 to 5 edge standard
  deviations, 2.7 to 5.7%, in the 40 to 140 ms windows of small-fabric runs at load 0.8;
  widened for short windows of long flows).
* The input check (input_check; descriptive, it does not change the verdict): the active
  flows N(t) against P(t), the M/G/infinity count that the run's own arrivals predict with the
  measured window's FCT law, per size class (predicted_active_series: every flow of
  flows.txt, its FCT drawn from the FCTs of its class, 4 classes per decade of size, started
  in the window). Arrivals whose rate or size mix changes (a swell of the input: DataMining's
  heavy flows cluster in time) move P as they would move the open flows of a system whose FCT
  law holds still; a backlog, whose FCTs keep lengthening, moves N and not P. Both P and the
  excess N - P are tested for a trend like N, with N's threshold: input_check holds
  predicted_mean, predicted_change (P's fitted change across the window),
  predicted_change_share, predicted_flagged, excess_change, excess_change_share, excess_t,
  excess_t_corr, excess_significant, excess_flagged, threshold and input_share (P's change /
  N's). When the active flows are flagged, the note says how much of their change the input
  predicts and whether the excess is flagged ("it grows more than the input explains") or
  not ("no growth beyond the input's is established"), and flag_text adds the share. A
  flagged excess with an input that swells is still not proof of a backlog: a system at
  equilibrium serves slower while its load is higher, which a fixed FCT law does not
  predict; only a longer window tells the two apart. scripts/equilibrium_mc.py, experiment
  input, measures the check on synthetic swells and backlogs. null without flows.txt or with
  fewer than FILL_MIN_FLOWS FCTs in the window.
* stationary is false when a trend is flagged, the run is too short or |little_ratio - 1| >
  little_tolerance; true otherwise; null without flows.txt and buffer.csv (the nominal window
  is then measured). overload: a series is overloaded. stationarity_note says, with the
  numbers, what failed, where the equilibrium starts, each series' mean and growth (%/10 ms,
  per second, t) and Little's ratio; flag_text() gives the short form the sweep tables show.
* Start bins (start_bins, for comparisons over a common window): the arrival window [a, a + D)
  cut into bins of min(10 ms, D / 100) from a (the last one may be shorter), with per bin the flows of
  flows.txt started in it (flows; null without flows.txt), the completed ones (completed) and
  the sum of their FCTs (fct_sum_s), and the PAUSE frames sent in it (pause_frames). Any window
  of whole bins has its average FCT (sum / count, over completed flows as above), completion
  ratio and PAUSE rate from them (bins_window): schemes run on the same seed replay the same
  flows, so their averages over one window compare the same flows (scripts/common_window.py).
* Per quarter of the measured window (stationarity_quarters, descriptive): pause_rate_per_s,
  mean_buffer_bytes (mean total_bytes of the buffer.csv samples in it), active_flows_at_end
  (N at its end), avg_fct_s / fct_count (the completed flows that started in it) and
  mean_slowdown_by_bucket (per SIZE_BUCKETS label, the mean slowdown of those flows: a backlog
  slows the later arrivals of every size, while a quarter's average FCT also moves with its
  size mix).
* The nominal window's statistics (nominal_start_s, nominal_end_s, nominal_duration_s,
  nominal_fct_count, nominal_avg_fct_s, nominal_median_fct_s, nominal_p99_fct_s,
  nominal_flows_measured, nominal_flows_measured_completed, nominal_completion_ratio_measured,
  nominal_pause_frames_in_window, nominal_pause_rate_per_s) and its old verdict, the quarter
  rule (nominal_stationarity_quarters, nominal_stationary, nominal_stationarity_note): a run was
  not stationary when the active flows at the quarter ends never decrease and the last exceeds
  the first by more than 25% and 2 flows, or the quarters' mean buffered bytes never decrease
  and the last exceeds the first by more than 50% and 10 KB; null when neither was evaluable.
* Copied from summary.json: cnps_sent, cnms_received, ecn_marks, flows_total, flows_completed,
  wall_time_s, events_executed; drops_total is the sum of its "drops" by reason (drops_by_reason).
  Every run.json field (cc, workload, load, ...) is copied to the top level of stats.json.

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


def nominal_window(run):
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
    return int(active_flow_series(flows_txt, flows).value(t))


def mean_slowdown_by_bucket(flows):
    """{SIZE_BUCKETS label: the mean slowdown of the completed flows of that size, None for
    none}: how fast flows were served, size class by size class (an average FCT mixes the
    sizes, and a few large flows move it)."""
    sizes = flows.size_bytes.to_numpy(dtype=float)
    slow = flows.slowdown.to_numpy(dtype=float)
    out = {}
    for label, lo, hi in SIZE_BUCKETS:
        m = np.ones(len(sizes), bool)
        if lo is not None:
            m &= sizes > lo
        if hi is not None:
            m &= sizes <= hi
        out[label] = _num(slow[m].mean()) if m.any() else None
    return out


def quarter_stats(flows, pfc, buffer, flows_txt, start, end, quarters=QUARTERS):
    """Per quarter of [start, end): {"start_s", "end_s", "pause_rate_per_s",
    "mean_buffer_bytes", "active_flows_at_end", "avg_fct_s", "fct_count",
    "mean_slowdown_by_bucket"} (None where the input is missing: buffer None, flows_txt None,
    no completed flow)."""
    pause_t, _ = _pause_frames(pfc)
    if buffer is not None:
        _require_columns(buffer, ("time_s", "total_bytes"), "buffer.csv")
        buf_t = _numeric_column(buffer, "time_s", "buffer.csv")
        buf_b = _numeric_column(buffer, "total_bytes", "buffer.csv")
    active = active_flow_series(flows_txt, flows) if flows_txt is not None else None
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
        if active is not None:
            q["active_flows_at_end"] = int(active.value(e))
        started = flows_started_in(flows, s, e)
        fs = fct_summary(started)
        q["avg_fct_s"], q["fct_count"] = fs["avg_fct_s"], fs["fct_count"]
        q["mean_slowdown_by_bucket"] = mean_slowdown_by_bucket(started)
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


# ---------------------------------------------------------------------------------------------
# Equilibrium: the data-driven warm-up and the stationarity verdict (module docstring)

BATCH_S = 0.5e-3          # length of a batch of the active-flow and buffer series
MIN_BATCHES = 20          # a window shorter than 20 batches of 0.5 ms gets 20 shorter ones
SMOOTH_BATCHES = 5        # the band test compares the means of 5 batches (2.5 ms)
BAND_SHARE = 0.05         # band half-width: the largest of 5% of the level,
BAND_SDS = 2.0            # 2 standard deviations of the 5-batch means over the tail,
SERIES_FLOOR = {"active_flows": 2.0, "buffer_bytes": 10_000.0}  # and an absolute floor
SERIES_WHAT = {"active_flows": "active flows", "buffer_bytes": "buffered bytes"}
# A trend (a line fitted to the means of TREND_BATCHES equal batches) flags the run when it is
# significant (two-sided 1%, Student's t with TREND_BATCHES - 2 degrees of freedom) and its
# fitted change across the window exceeds this share of the window's mean (and the floor above;
# for the active flows also POISSON_SDS x sqrt(2 x mean)).
TREND_SHARE = {"active_flows": 0.10, "buffer_bytes": 0.20}
TREND_BATCHES = 10
# t(0.995, df) for df = 1..30 (two-sided 1%); 2.576 (the normal quantile) beyond.
T995 = [63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169,
        3.106, 3.055, 3.012, 2.977, 2.947, 2.921, 2.898, 2.878, 2.861, 2.845,
        2.831, 2.819, 2.807, 2.797, 2.787, 2.779, 2.771, 2.763, 2.756, 2.750]
Z995 = 2.576
POISSON_SDS = 3.0         # the active flows' trend must exceed 3 sd of a Poisson N's change
LITTLE_TOLERANCE = 0.15   # |mean N / (lambda W) - 1| above this flags the run (or above
LITTLE_SDS = 3.0          # 3 standard deviations of its edge terms, when that is larger)
EQUILIBRIUM_METHOD = "level band (5% / 2 sd of 2.5 ms means) on "  # + the series
FILL_SHARE = 0.95         # the measured window starts no earlier than the M/G/inf fill time
FILL_METHOD = ", not before the M/G/inf fill time (95%)"
FILL_MIN_FLOWS = 100      # fewer FCTs than this in the window: no law to take a fill time from
# The version of the equilibrium criterion (stats.json's equilibrium_criterion; a record without
# it was made by version 1). Version 2 weighs each series' correlation time: a trend must also
# pass a t-test whose standard error and degrees of freedom use the series' integrated
# autocorrelation time (integrated_time), and a window holding fewer than N_EFF_MIN of them is
# too short (module docstring, Stationarity).
CRITERION = 2
N_EFF_MIN = 5.0           # independent stretches a window needs for a verdict (t-test df >= 3)


def t995(df):
    """The 0.995 quantile of Student's t with floor(df) >= 1 degrees of freedom."""
    df = int(math.floor(df))
    if df < 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {df}")
    return T995[df - 1] if df <= len(T995) else Z995


class StepFunction:
    """A right-continuous step function of time, 0 before its first change, integrated exactly.

    Built from change times and the change at each (both 1-D; a time may repeat):
    value(t) = sum of the changes at times <= t; integral(t) = its integral from -inf to t =
    sum over changes c_k at times t_k < t of c_k (t - t_k). Changes at +inf are left out."""

    def __init__(self, times, changes):
        t = np.asarray(times, dtype=float)
        c = np.asarray(changes, dtype=float)
        keep = np.isfinite(t)
        order = np.argsort(t[keep], kind="stable")
        self.times = t[keep][order]
        c = c[keep][order]
        self._cum = np.concatenate([[0.0], np.cumsum(c)])
        self._cum_t = np.concatenate([[0.0], np.cumsum(c * self.times)])

    def value(self, t):
        return self._cum[np.searchsorted(self.times, t, "right")]

    def integral(self, t):
        i = np.searchsorted(self.times, t, "left")
        return self._cum[i] * np.asarray(t, dtype=float) - self._cum_t[i]

    def means(self, edges):
        """The time averages over the intervals [edges[k], edges[k+1])."""
        edges = np.asarray(edges, dtype=float)
        return np.diff(self.integral(edges)) / np.diff(edges)

    def mean(self, start, end):
        return float(self.means([start, end])[0])


def flow_ends(flows_txt, flows):
    """The end time of every flow of flows_txt (flow id = row), +inf for a flow that did not
    complete (not in flows.csv); StatsError for a flows.csv id that flows.txt does not have."""
    f = check_flows(flows)
    _require_columns(f, ("flow_id", "end_s"), "flows.csv")
    ends = np.full(len(flows_txt), np.inf)
    ids = f.flow_id.to_numpy(dtype=float)
    bad = (ids < 0) | (ids >= len(flows_txt)) | (ids != np.floor(ids))
    if bad.any():
        raise StatsError(f"flows.csv: flow_id {f.flow_id[bad].iloc[0]:g} is not a flow of "
                         f"flows.txt (which has {len(flows_txt)} flows)")
    ends[ids.astype(int)] = f.end_s.to_numpy(dtype=float)
    return ends


def active_flow_series(flows_txt, flows):
    """N(t), the flows of flows_txt started by t and not completed by t (an unfinished flow
    stays active), as a StepFunction: +1 at each start_s, -1 at each end_s of flows.csv."""
    starts = flows_txt.start_s.to_numpy(dtype=float)
    ends = flow_ends(flows_txt, flows)
    return StepFunction(np.concatenate([starts, ends]),
                        np.concatenate([np.ones(len(starts)), -np.ones(len(ends))]))


def buffer_series(buffer):
    """buffer.csv's total_bytes as a StepFunction (each sample holds until the next one, 0
    before the first); StatsError for a time that goes back."""
    _require_columns(buffer, ("time_s", "total_bytes"), "buffer.csv")
    t = _numeric_column(buffer, "time_s", "buffer.csv").to_numpy()
    b = _numeric_column(buffer, "total_bytes", "buffer.csv").to_numpy()
    back = np.diff(t) < 0
    if back.any():
        i = int(np.argmax(back)) + 1
        raise StatsError(f"buffer.csv: time_s goes back at data row {i + 1} ({t[i]!r})")
    return StepFunction(t, np.diff(np.concatenate([[0.0], b])))


def batch_edges(start, end):
    """Edges of the batches of [start, end): n = max(MIN_BATCHES, round((end - start) /
    BATCH_S)) batches of equal length (0.5 ms for any window of at least 10 ms that is a whole
    number of half milliseconds)."""
    n = max(MIN_BATCHES, int(round((end - start) / BATCH_S)))
    return start + (end - start) * np.arange(n + 1) / n


def _moving_means(x, width):
    """y[k] = mean of x[k .. k + width - 1] (len(x) - width + 1 values)."""
    c = np.concatenate([[0.0], np.cumsum(x)])
    return (c[width:] - c[:-width]) / width


def _difference_sd(x, width):
    """The standard deviation of the means of `width` batches of x, estimated from the
    successive differences d of the non-overlapping means: median(|d|) / (0.6745 x sqrt(2))
    (for normal noise; a jump or a trend among them moves the median little)."""
    m = len(x) // width
    d = np.diff(np.asarray(x[:m * width], dtype=float).reshape(m, width).mean(axis=1))
    return float(np.median(np.abs(d))) / (0.6745 * math.sqrt(2)) if len(d) else 0.0


def integrated_time(x):
    """The integrated autocorrelation time of a series x (in samples, at least 1): tau = 1 +
    2 sum_k rho_k, the factor by which its correlation inflates the variance of a mean (or of a
    fitted slope) over independent samples, so a stretch of n samples holds about n / tau
    independent ones. Estimated with Geyer's (1992) initial monotone sequence: the sample
    autocorrelations rho_k of x - mean(x), summed in pairs Gamma_m = rho_2m + rho_2m+1 up to
    the first pair that is not positive, each pair capped by the one before (Gamma decreases for
    a reversible process), tau = 2 sum_m Gamma_m - 1. For an exponential correlation exp(-t /
    theta) sampled every dt it is about 2 theta / dt. The caller passes the residuals of the
    fit it tests (a trend left in x would read as correlation)."""
    x = np.asarray(x, dtype=float)
    n = len(x)
    z = x - x.mean() if n else x
    if n < 4 or not np.any(np.abs(z) > 1e-12 * max(1.0, float(np.max(np.abs(x))))):
        return 1.0
    f = np.fft.rfft(z, 2 * n)
    acf = np.fft.irfft(f * np.conj(f))[:n]
    acf = acf / acf[0]
    m = (n - 1) // 2
    pairs = acf[0:2 * m:2] + acf[1:2 * m:2]
    stop = pairs <= 0
    k = int(np.argmax(stop)) if stop.any() else len(pairs)
    return max(1.0, float(2 * np.minimum.accumulate(pairs[:k]).sum() - 1))


def truncation(x, floor=0.0, poisson=False):
    """The end of the warm-up of a series of batch means x (module docstring, Equilibrium):
    the first batch k whose SMOOTH_BATCHES-batch mean lies within the band level +- band, with
    level = the mean of the last half of x and band = max(BAND_SHARE x |level|, BAND_SDS x sd,
    floor), sd the standard deviation of the 5-batch means of the last half (_difference_sd;
    for a count, poisson=True, at least sqrt(level)).

    Returns {"batch", "level", "band", "too_short"} (too_short: k in the last half, or no mean
    in the band at all, when batch is the last 5-batch mean's)."""
    x = np.asarray(x, dtype=float)
    n = len(x)
    if n < 2 * SMOOTH_BATCHES:
        raise StatsError(f"a series of {n} batches is too short for the band test "
                         f"(needs {2 * SMOOTH_BATCHES})")
    half = n // 2
    y = _moving_means(x, SMOOTH_BATCHES)
    level = float(x[half:].mean())
    sd = _difference_sd(x[half:], SMOOTH_BATCHES)
    if poisson:  # a count: at least the standard deviation of a Poisson count of that mean
        sd = max(sd, math.sqrt(abs(level)))
    band = max(BAND_SHARE * abs(level), BAND_SDS * sd, floor)
    inside = np.abs(y - level) <= band
    k = int(np.argmax(inside)) if inside.any() else len(y) - 1
    return {"batch": k, "level": level, "band": band,
            "too_short": bool(k >= half or not inside.any())}


def fill_time(fct, share=FILL_SHARE):
    """The M/G/infinity fill time of a law of FCTs: the least t with E[min(W, t)] >= share x
    E[W], W drawn from fct (seconds). Arrivals at a constant rate lambda from time 0 whose
    FCTs follow that law have lambda E[min(W, t)] flows open at t, against lambda E[W] in
    equilibrium (Little), so the open flows reach the share `share` of their equilibrium
    level at this time. None for no FCTs (or a zero mean)."""
    w = np.sort(np.asarray(fct, dtype=float))
    n = len(w)
    if n == 0 or not w.sum() > 0:
        return None
    target = share * float(w.mean())
    # g(t) = E[min(W, t)] is piecewise linear: at w[k], (sum of w[:k+1] + (n - k - 1) w[k]) / n
    g = (np.cumsum(w) + (n - 1 - np.arange(n)) * w) / n
    # the first sorted FCT at which g reaches the target (the last one, against rounding)
    k = min(int(np.searchsorted(g, target)), n - 1)
    lo, glo = (0.0, 0.0) if k == 0 else (float(w[k - 1]), float(g[k - 1]))
    return lo + (target - glo) * n / (n - k)  # slope of g on [w[k-1], w[k]]: (n - k) / n


def window_fcts(flows_txt, flows, start, end, sim_end=None):
    """The FCTs of the flows of flows_txt started in [start, end), from flows.csv's ends; a
    flow that did not complete counts with sim_end - start_s (a lower bound) when sim_end is
    given, else is left out. Returns (fcts, number of unfinished flows)."""
    starts = flows_txt.start_s.to_numpy(dtype=float)
    ends = flow_ends(flows_txt, flows)
    sel = (starts >= start) & (starts < end)
    fct = ends[sel] - starts[sel]
    unfinished = int(np.isinf(fct).sum())
    if unfinished and sim_end is not None:
        fct = np.where(np.isinf(fct), np.maximum(float(sim_end) - starts[sel], 0.0), fct)
    return fct[np.isfinite(fct)], unfinished


INPUT_CLASSES_PER_DECADE = 4  # the input check's size classes: 4 per decade of flow size
INPUT_CLASS_MIN = 30          # a class with fewer FCTs in the window joins the next larger
INPUT_GRID = 10               # the predicted count is computed on 1/10 of a batch (0.05 ms)


class _Difference:
    """The difference a - b of two series with means(edges) (StepFunction)."""

    def __init__(self, a, b):
        self.a, self.b = a, b

    def means(self, edges):
        return self.a.means(edges) - self.b.means(edges)


def size_classes(sizes, counted, per_decade=INPUT_CLASSES_PER_DECADE, least=INPUT_CLASS_MIN):
    """The input check's size class of every flow (0, 1, ... by size): classes of 1 /
    per_decade of a decade of size_bytes (from 1 B), each with at least `least` of the flows
    marked `counted` (those whose FCTs give the law): a class with fewer joins the next larger
    one, the largest the one below; one class when there are fewer than `least` in all."""
    sizes = np.asarray(sizes, dtype=float)
    raw = np.floor(per_decade * np.log10(np.maximum(sizes, 1.0))).astype(int)
    labels = np.unique(raw)
    n = np.array([int(np.sum(counted & (raw == c))) for c in labels])
    group, acc, groups = 0, 0, []
    for k in range(len(labels)):
        groups.append(group)
        acc += n[k]
        if acc >= least:
            group, acc = group + 1, 0
    groups = np.array(groups, dtype=int)
    # a last group below `least` joins the one before it (when there is one)
    last = int(groups.max()) if len(groups) else 0
    if last > 0 and n[groups == last].sum() < least:
        groups[groups == last] = last - 1
    return groups[np.searchsorted(labels, raw)]


def _mean_min(w_sorted, u):
    """G(u) = E[min(W, u)] for W uniform over the sorted values w_sorted, at every u >= 0."""
    n = len(w_sorted)
    c = np.concatenate([[0.0], np.cumsum(w_sorted)])
    k = np.searchsorted(w_sorted, u, "left")  # values below u
    return (c[k] + u * (n - k)) / n


def predicted_active_series(flows_txt, flows, start, end, sim_end=None):
    """The active flows that the run's own input predicts: the M/G/infinity count of every
    flow of flows_txt (its start_s) with an FCT drawn from the FCT law of its size class
    (size_classes) over the flows of that class started in [start, end), as a StepFunction on
    a grid of 1 / INPUT_GRID of a batch from the first arrival to `end`; None with fewer than
    FILL_MIN_FLOWS such FCTs, one law for every flow when flows.txt has no sizes.

    For a grid bin [t_j, t_j + h) the count is sum over arrival bins l <= j of the arrivals
    A_l of [t_l, t_l + h) (taken at t_l) times the mean of the law's survival S(u) = P(W > u)
    over u in [(j - l) h, (j - l + 1) h), (G((j - l + 1) h) - G((j - l) h)) / h with G(u) =
    E[min(W, u)], one convolution per class (exact up to placing arrivals at their bin's
    start). A flow that did not complete counts with sim_end - start_s (a lower bound, as in
    Little's law), or is left out of the law without sim_end. Arrivals whose rate or size mix
    changes move this count as they would move a system whose FCT law holds still: an
    active-flow trend that it shows too follows the input."""
    starts = flows_txt.start_s.to_numpy(dtype=float)
    ends = flow_ends(flows_txt, flows)
    if sim_end is not None:
        ends = np.where(np.isinf(ends), np.maximum(float(sim_end), starts), ends)
    sel = (starts >= start) & (starts < end) & np.isfinite(ends)
    if sel.sum() < FILL_MIN_FLOWS or end <= start:
        return None
    sizes = (flows_txt.size_bytes.to_numpy(dtype=float) if "size_bytes" in flows_txt
             else np.ones(len(starts)))
    cls = size_classes(sizes, sel)
    edges = batch_edges(start, end)
    h = float(edges[1] - edges[0]) / INPUT_GRID
    before = int(math.ceil((start - min(float(starts.min()), start)) / h))
    m = before + int(round((end - start) / h))
    t0 = start - before * h
    grid = t0 + h * np.arange(m + 1)
    grid[-1] = end
    counts = np.zeros(m)
    lags = h * np.arange(m + 1)
    for c in np.unique(cls):
        # (the bin of an arrival on a bin edge but for rounding is the one it starts)
        k = np.floor((starts[cls == c] - t0) / h + 1e-6).astype(int)
        a = np.bincount(np.clip(k, 0, m), minlength=m + 1)[:m]
        w = np.sort(ends[sel & (cls == c)] - starts[sel & (cls == c)])
        if not len(w):  # only when no class has enough: size_classes merged them all
            continue
        sbar = np.diff(_mean_min(w, lags)) / h
        nfft = 1 << int(math.ceil(math.log2(2 * m)))
        conv = np.fft.irfft(np.fft.rfft(a, nfft) * np.fft.rfft(sbar, nfft), nfft)[:m]
        counts += conv
    counts = np.maximum(counts, 0.0)
    return StepFunction(np.concatenate([grid[:-1], [end]]),
                        np.diff(np.concatenate([[0.0], counts, [0.0]])))


def input_check(active, predicted, start, end, n_trend):
    """The stats.json input_check: the active flows N against what the input predicts, P
    (predicted_active_series), over [start, end), n_trend being N's series_trend there (its
    threshold is used for P and for N - P, whose mean is near 0). predicted_mean,
    predicted_change (P's fitted change across the window) and predicted_change_share (/ N's
    mean), predicted_flagged (P's own trend flagged: the input moves), the excess N - P's
    excess_change, excess_change_share, excess_t (10 batch means), excess_t_corr (0.5 ms means
    weighed by their correlation), excess_significant and excess_flagged (both tests, beyond
    the threshold), threshold, and input_share (P's change / N's, None when N has none). A
    flagged active-flow growth whose excess is not flagged follows the input."""
    threshold = n_trend["threshold"]
    p = series_trend("active_flows", predicted, start, end, threshold=threshold)
    x = series_trend("active_flows", _Difference(active, predicted), start, end,
                     threshold=threshold)
    mean = n_trend["mean"]
    share = (lambda v: v / abs(mean)) if mean else (lambda v: None)
    return {"predicted_mean": p["mean"], "predicted_change": p["change"],
            "predicted_change_share": share(p["change"]), "predicted_flagged": p["flagged"],
            "excess_change": x["change"], "excess_change_share": share(x["change"]),
            "excess_t": x["t"], "excess_t_corr": x["t_corr"],
            "excess_significant": x["significant"], "excess_flagged": x["flagged"],
            "threshold": threshold,
            "input_share": p["change"] / n_trend["change"] if n_trend["change"] else None}


def mser5(x):
    """MSER-5 (White 1997) on batch means x (batches of 5 samples of 0.1 ms when x has 0.5 ms
    batches): the d in [0, n - 5] that minimises sum_{i >= d} (x_i - mean(x[d:]))^2 / (n - d)^2.
    Computed beside the band test, for comparison only (module docstring)."""
    x = np.asarray(x, dtype=float)
    n = len(x)
    z = x - x.mean()
    s1 = np.cumsum(z[::-1])[::-1]
    s2 = np.cumsum((z * z)[::-1])[::-1]
    k = n - np.arange(n)
    stat = (s2 - s1 * s1 / k) / (k * k)
    return int(np.argmin(stat[:max(1, n - 4)]))


def trend(x, length_s, floor=0.0, share=0.1, tau=1.0):
    """The linear trend of n equal batch means x of a window of length_s seconds, with a t-test
    that weighs their correlation: the least-squares slope b, its standard error s_b = the
    classical one x sqrt(tau), tau the integrated autocorrelation time of x in batches (1 for
    independent means; integrated_time), and t = b / s_b against t(0.995, df) (two-sided 1%),
    df = min(TREND_BATCHES - 2, n / tau - 2) (n / tau the independent batches; no more degrees
    of freedom than the 10-batch test of criterion version 1, since tau is itself estimated).
    With n / tau < 3 there is no test (testable false: not significant, not flagged).

    Returns {"mean", "slope_per_s", "change", "change_share" (change / |mean|),
    "pct_per_10ms", "t", "t_crit", "significant", "threshold", "flagged", "n_eff",
    "testable"} with change = b x length_s (the fitted change across the window), n_eff = n /
    tau and threshold = max(share x |mean|, floor); flagged: significant and |change| >
    threshold."""
    x = np.asarray(x, dtype=float)
    n = len(x)
    if n < 3:
        raise StatsError(f"a trend needs at least 3 batches, got {n}")
    if not tau >= 1:
        raise StatsError(f"an integrated autocorrelation time must be >= 1 batch, got {tau!r}")
    tt = (np.arange(n) - (n - 1) / 2) * (length_s / n)
    mean = float(x.mean())
    slope = float(np.sum(tt * (x - mean)) / np.sum(tt * tt))
    if np.ptp(x) <= 1e-12 * max(1.0, abs(mean)):  # flat but for rounding
        slope = 0.0
    res = x - mean - slope * tt
    se = math.sqrt(float(np.sum(res * res)) / (n - 2) / float(np.sum(tt * tt)) * tau)
    t = slope / se if se > 0 else (0.0 if slope == 0 else math.copysign(math.inf, slope))
    n_eff = n / tau
    testable = n_eff >= 3
    crit = t995(min(TREND_BATCHES - 2, n_eff - 2)) if testable else None
    change = slope * length_s
    threshold = max(share * abs(mean), floor)
    significant = testable and abs(t) > crit
    return {"mean": mean, "slope_per_s": slope, "change": change,
            "change_share": change / abs(mean) if mean != 0 else None,
            "pct_per_10ms": None if mean == 0 else 100 * slope * 0.01 / abs(mean),
            "t": _num(t), "t_crit": crit, "significant": bool(significant),
            "threshold": threshold, "flagged": bool(significant and abs(change) > threshold),
            "n_eff": n_eff, "testable": bool(testable)}


def little(active, flows_txt, flows, start, end, sim_end=None):
    """Little's law over [start, end): mean_active_flows (the time average of N(t), exact),
    little_lambda_per_s (flows of flows_txt started in the window per second), little_w_s (the
    mean FCT of those flows; a flow that did not complete counts with sim_end - start_s, a lower
    bound, when sim_end is given, else is left out), little_unfinished (how many did not
    complete), little_ratio = mean_active_flows / (lambda x W), little_edge_sd (the standard
    deviation of that ratio's edge terms in equilibrium, sqrt(2 lambda E[FCT^3] / 3) / (lambda
    W x window)) and little_tolerance = max(LITTLE_TOLERANCE, 3 x little_edge_sd)."""
    fct, unfinished = window_fcts(flows_txt, flows, start, end, sim_end)
    starts = flows_txt.start_s.to_numpy(dtype=float)
    mean_n = active.mean(start, end)
    length = end - start
    lam = int(((starts >= start) & (starts < end)).sum()) / length
    w = float(fct.mean()) if len(fct) else None
    out = {"mean_active_flows": mean_n, "little_lambda_per_s": lam, "little_w_s": w,
           "little_unfinished": unfinished, "little_ratio": None, "little_edge_sd": None,
           "little_tolerance": None}
    if w and lam > 0:
        edge_sd = math.sqrt(2 * lam * max(float(np.mean(fct ** 3)), 0.0) / 3) / (lam * w * length)
        out.update(little_ratio=mean_n / (lam * w), little_edge_sd=edge_sd,
                   little_tolerance=max(LITTLE_TOLERANCE, LITTLE_SDS * edge_sd))
    return out


def _fmt(x, name):
    """A value of a series for a note: bytes in KB/MB, flows as integers."""
    if name == "buffer_bytes":
        return "%.3g MB" % (x / 1e6) if abs(x) >= 1e6 else "%.3g KB" % (x / 1e3)
    return "{:,.0f}".format(x) if abs(x) >= 100 else "%.3g" % x


def _rate(x, name):
    """A growth rate for a note."""
    if name == "buffer_bytes":
        return "%+.3g MB/s" % (x / 1e6)
    return "%+.3g flows/s" % x


def _pct(x):
    """A signed percentage for a note."""
    if x is None:
        return "n/a"
    return "%+.1f%%" % x if abs(x) < 10 else "%+.0f%%" % x


def series_trend(name, series, start, end, corr_time_s=None, threshold=None):
    """The trend of a series (a StepFunction) over [start, end), by two t-tests (module
    docstring, Stationarity): trend() of its TREND_BATCHES batch means (criterion version 1),
    and trend() of its 0.5 ms batch means (batch_edges) weighed by its integrated correlation
    time corr_time_s (seconds; when None, integrated_time of the residuals of that fit). Both
    have the series' threshold: TREND_SHARE of its mean, at least SERIES_FLOOR, and for the
    active flows at least POISSON_SDS x sqrt(2 x mean).

    Returns the 10-batch trend's fields with "significant" and "flagged" requiring both tests,
    plus "significant_batches" (the 10-batch test's alone), "corr_time_s", "n_eff" (the window's length / corr_time_s), "spread" (2 standard
    deviations of the 0.5 ms means around the weighed test's line), "t_corr" and
    "t_corr_crit" (the weighed test's t and critical value, None when it has fewer than 3
    independent batches) and "slow": the 10-batch test flags a trend that the series'
    correlation explains (the weighed test is not significant). threshold, when given,
    replaces the series' own (for a difference of series, whose mean is near 0)."""
    x10 = series.means(np.linspace(start, end, TREND_BATCHES + 1))
    floor = SERIES_FLOOR[name]
    share = TREND_SHARE[name]
    if threshold is not None:
        floor, share = threshold, 0.0
    elif name == "active_flows":
        floor = max(floor, POISSON_SDS * math.sqrt(2 * max(float(x10.mean()), 0.0)))
    out = trend(x10, end - start, floor, share)
    edges = batch_edges(start, end)
    x = series.means(edges)
    batch = float(edges[1] - edges[0])
    tt = np.arange(len(x)) - (len(x) - 1) / 2
    res = x - x.mean() - tt * float(np.sum(tt * (x - x.mean())) / np.sum(tt * tt))
    if corr_time_s is None:
        corr_time_s = integrated_time(res) * batch
    fine = trend(x, end - start, floor, share, max(1.0, corr_time_s / batch))
    significant = out["significant"] and fine["significant"]
    out.update(significant_batches=out["significant"], corr_time_s=corr_time_s,
               n_eff=(end - start) / corr_time_s,
               spread=2 * float(np.std(res)), t_corr=fine["t"],
               t_corr_crit=fine["t_crit"], slow=bool(out["flagged"] and not significant),
               significant=bool(significant), flagged=bool(out["flagged"] and significant))
    return out


def equilibrium(run, flows_txt=None, flows=None, buffer=None, sim_end=None):
    """The data-driven measured window and the stationarity verdict of a run (module docstring,
    Equilibrium and Stationarity). flows_txt None: no active-flow series; buffer None: no
    buffer series; with neither, the nominal window is used and the verdict is null.

    Returns the stats.json fields equilibrium_start_s, equilibrium_method, equilibrium_batch_s,
    equilibrium_series ({series: truncation_s, level, band, too_short, mser5_s, and trend: the
    trend of the measured window}), equilibrium_too_short, equilibrium_more_needed_s,
    fill_time_s, the growth rates, mean_active_flows, mean_buffer_bytes, the Little's law
    fields, stationary, overload and stationarity_note."""
    a = float(run["arrival_start_s"])
    nominal_start, end = nominal_window(run)
    # a run stopped early (a safety stop) is analysed up to where it stopped
    stopped = sim_end is not None and float(sim_end) < end
    if stopped:
        end = float(sim_end)
    series = {}
    if end > a:
        if flows_txt is not None:
            series["active_flows"] = active_flow_series(flows_txt, flows)
        if buffer is not None and len(buffer):
            series["buffer_bytes"] = buffer_series(buffer)
    edges = batch_edges(a, end) if end > a else np.array([a, a])
    batch = float(edges[1] - edges[0])
    out = {"equilibrium_criterion": CRITERION,
           "equilibrium_start_s": nominal_start, "equilibrium_method": None,
           "equilibrium_batch_s": batch, "equilibrium_series": {},
           "equilibrium_too_short": None, "equilibrium_more_needed_s": None,
           "fill_time_s": None, "active_growth_per_s": None, "active_growth_pct_per_10ms": None,
           "buffer_growth_bytes_per_s": None, "buffer_growth_pct_per_10ms": None,
           "mean_active_flows": None, "mean_buffer_bytes": None, "little_lambda_per_s": None,
           "little_w_s": None, "little_unfinished": None, "little_ratio": None,
           "little_edge_sd": None, "little_tolerance": None, "input_check": None,
           "stationary": None, "overload": None}
    if not series:
        why = ("the run stopped at %.6g s, before its arrivals" % end if end <= a
               else "no flows.txt and no buffer.csv")
        out["equilibrium_method"] = "nominal warm-up (%s)" % why
        out["stationarity_note"] = "not checked: %s (the nominal window is measured)" % why
        return out
    cuts = {}
    for name, s in series.items():
        x = s.means(edges)
        cuts[name] = truncation(x, SERIES_FLOOR[name], poisson=name == "active_flows")
        cuts[name]["truncation_s"] = float(edges[cuts[name]["batch"]])
        cuts[name]["mser5_s"] = float(edges[mser5(x)])
    # a warm-up that ends in the last half makes the run too short; it is then measured over
    # the last half
    half = (len(edges) - 1) // 2
    k = min(max(c["batch"] for c in cuts.values()), half)
    # the fill floor: the M/G/inf fill time of the FCTs of the flows started from there on
    # (one pass). Applied only to a run that is not overloaded (a backlog has no equilibrium
    # FCT law, and its verdict stands on the band's window): the start moves to it, rounded up
    # to a batch edge, and the verdict is made again on that window; a fill time in the last
    # half makes the run too short (measured over the last half), overloaded or not.
    fill = None
    if "active_flows" in series:
        fcts = window_fcts(flows_txt, flows, float(edges[k]), end, sim_end)[0]
        fill = fill_time(fcts) if len(fcts) >= FILL_MIN_FLOWS else None
    method = (EQUILIBRIUM_METHOD + " and ".join(SERIES_WHAT[n] for n in series)
              + (", the later" if len(series) > 1 else "")
              + (FILL_METHOD if "active_flows" in series else ""))
    base = dict(out, equilibrium_method=method, fill_time_s=fill)
    # the first batch edge at or after the fill time (None without one)
    kf = (None if fill is None
          else int(np.searchsorted(edges, a + fill - 1e-12 * max(1.0, abs(a + fill)))))
    args = (series, cuts, edges, a, end, flows_txt, flows, sim_end, stopped)
    out = _verdict(dict(base), k, fill, kf, False, *args)
    if kf is not None and kf > k:
        if not out["overload"]:
            out = _verdict(dict(base), min(kf, half), fill, kf, kf > half, *args)
        elif kf > half:
            # an overload seen in a window whose first half does not hold the fill time: the
            # growth may be the fill itself (the open flows of a stationary FCT law still
            # rising), so the run is too short to tell; the window stays the band's
            out = _verdict(dict(base), k, fill, kf, True, *args)
    return out


def _input_sentence(ic):
    """The note's words on the input check of flagged active flows (input_check's fields)."""
    return ("; the input's own M/G/inf count (mean %s) changes %s of the active flows across the "
            "measured window, the excess over it %s (t = %.3g, %s): %s" % (
                _fmt(ic["predicted_mean"], "active_flows"),
                _pct(100 * ic["predicted_change_share"]), _pct(100 * ic["excess_change_share"]),
                ic["excess_t"],
                "flagged" if ic["excess_flagged"] else "not flagged",
                "it grows more than the input explains" if ic["excess_flagged"]
                else "no growth beyond the input's is established"))


def _verdict(out, k, fill, kf, fill_late, series, cuts, edges, a, end, flows_txt, flows,
             sim_end, stopped):
    """equilibrium()'s verdict on the window [edges[k], end): the series' trends, too short
    (a band's cut in the last half, or fill_late: the fill time's batch kf in the last half),
    Little's law and the note, into out."""
    start = float(edges[k])
    out.update(equilibrium_start_s=start,
               equilibrium_too_short=fill_late or any(c["too_short"] for c in cuts.values()))
    failed, info, overloaded = [], [], set()
    out["overload"] = False
    out["equilibrium_series"] = {}
    # the input check (descriptive): the active flows against the M/G/inf count of the run's
    # own arrivals with the window's FCT law; said in the note when the active flows are flagged
    ic = None
    for name, s in series.items():
        whole = series_trend(name, s, start, end)
        # the last half is weighed by the whole window's correlation time (better estimated)
        last = series_trend(name, s, (start + end) / 2, end, whole["corr_time_s"])
        c = cuts[name]
        out["equilibrium_series"][name] = {
            "truncation_s": c["truncation_s"], "level": c["level"], "band": c["band"],
            "too_short": c["too_short"], "mser5_s": c["mser5_s"], "trend": whole,
            "trend_last_half": last, "overload": False, "corr_time_s": whole["corr_time_s"],
            "n_eff": whole["n_eff"],
            "too_short_for_corr": bool(whole["n_eff"] < N_EFF_MIN
                                       and whole["spread"] > whole["threshold"]
                                       and not (whole["flagged"] or last["flagged"]))}
        # the growth reported: the measured window's, or its last half's when only that one is
        # flagged (a backlog that began to grow late in the window)
        tr, where = ((last, "its last half") if last["flagged"] and not whole["flagged"]
                     else (whole, "the measured window"))
        if name == "active_flows":
            out.update(active_growth_per_s=tr["slope_per_s"],
                       active_growth_pct_per_10ms=tr["pct_per_10ms"])
            pred = predicted_active_series(flows_txt, flows, start, end, sim_end)
            ic = None if pred is None else input_check(s, pred, start, end, whole)
        else:
            out.update(buffer_growth_bytes_per_s=tr["slope_per_s"],
                       buffer_growth_pct_per_10ms=tr["pct_per_10ms"])
        out["mean_" + name] = whole["mean"]
        text = "%s %s (%s/10 ms, %s, t = %s vs %.3g; correlation time %.3g ms)" % (
            SERIES_WHAT[name], _fmt(tr["mean"], name), _pct(tr["pct_per_10ms"]),
            _rate(tr["slope_per_s"], name), "inf" if tr["t"] is None else "%.3g" % tr["t"],
            tr["t_crit"], 1e3 * whole["corr_time_s"])
        if tr["flagged"]:
            # overload: it grows, and still does in the last half (significantly, by the
            # 10-batch test: the growth itself is established by both tests on the window,
            # and the last half, with half the independent stretches, only tells whether it
            # goes on); a change that stopped before is a transient the window did not leave out
            grows = tr["slope_per_s"] > 0
            overload = grows and last["significant_batches"] and last["slope_per_s"] > 0
            out["overload"] = bool(out["overload"] or overload)
            if overload:
                overloaded.add(name)
            out["equilibrium_series"][name]["overload"] = overload
            failed.append("%s: %s; %s across %s (threshold %s)%s" % (
                "overload" if overload else "not settled" if grows else "still falling",
                text, _pct(100 * tr["change_share"]) if tr["change_share"] is not None
                else _fmt(tr["change"], name), where, _fmt(tr["threshold"], name),
                _input_sentence(ic) if name == "active_flows" and ic is not None else ""))
        else:
            info.append(text)
    if "active_flows" in series:
        out["input_check"] = ic
    # too short for a series' correlation: its window holds fewer than N_EFF_MIN correlation
    # times, or a trend of the 10-batch test is within what its correlation explains (slow);
    # the arrival time still needed is known only for the first
    slow = [n for n in series if out["equilibrium_series"][n]["too_short_for_corr"]
            or (any(out["equilibrium_series"][n][k]["slow"] for k in ("trend", "trend_last_half"))
                and not any(out["equilibrium_series"][n][k]["flagged"]
                            for k in ("trend", "trend_last_half")))]
    if slow:
        out["equilibrium_too_short"] = True
        short = [n for n in slow if out["equilibrium_series"][n]["too_short_for_corr"]]
        need = (None if len(short) < len(slow) else
                max(N_EFF_MIN * out["equilibrium_series"][n]["corr_time_s"] - (end - start)
                    for n in slow))
        out["equilibrium_more_needed_s"] = need
        texts = []
        for n in slow:
            e = out["equilibrium_series"][n]
            what = ("%s' integrated correlation time is %.3g ms, the %.4g ms window holds "
                    "%.2g of them" % (SERIES_WHAT[n], 1e3 * e["corr_time_s"],
                                      1e3 * (end - start), e["n_eff"]))
            if e["too_short_for_corr"]:
                texts.append("%s (needs %g)" % (what, N_EFF_MIN))
            else:
                tr = e["trend"] if e["trend"]["slow"] else e["trend_last_half"]
                texts.append("%s, and a trend of %s across %s (t = %.3g of 10 batch means) "
                             "is within what it explains (t = %.3g vs %s)" % (
                                 what, _pct(100 * tr["change_share"])
                                 if tr["change_share"] is not None else _fmt(tr["change"], n),
                                 "the measured window" if e["trend"]["slow"] else "its last half",
                                 tr["t"], tr["t_corr"], "none" if tr["t_corr_crit"] is None
                                 else "%.3g" % tr["t_corr_crit"]))
        failed.append("too short for %s: %s; %s" % (
            "their correlation" if len(slow) > 1 else "its correlation", "; ".join(texts),
            "the length needed is not known" if need is None
            else "at least about %.2g ms more arrivals needed" % (1e3 * need)))
    late = [n for n, c in cuts.items() if c["too_short"]]
    if late or fill_late:
        window = end - a
        # the length needed is estimated only when the series has settled: not overloaded,
        # and no change beyond the threshold (significant or not) in the last half of the
        # measured window; the truncation (or the fill time) must then lie in the first half
        # (a lower bound: the level may still move)
        changing = (fill_late and bool(overloaded)) or any(
            n in overloaded or abs(out["equilibrium_series"][n]["trend_last_half"]["change"])
            > out["equilibrium_series"][n]["trend_last_half"]["threshold"] for n in late)
        cut = max([cuts[n]["truncation_s"] - a for n in late] + [fill if fill_late else 0.0])
        need = None if changing else 2 * cut - window
        if need is not None and slow:  # the correlation's need (None: not known) too
            slow_need = out["equilibrium_more_needed_s"]
            need = None if slow_need is None else max(need, slow_need)
        out["equilibrium_more_needed_s"] = need
        failed.append("too short: %s in the last half of the %.3g ms window (%s)" % (
            ", ".join(["%s reach their level (%s) only at %.5g ms" % (
                SERIES_WHAT[n], _fmt(cuts[n]["level"], n), 1e3 * cuts[n]["truncation_s"])
                for n in late] + (["the M/G/inf fill time of the window's FCTs is %.4g ms%s"
                                   % (1e3 * fill, ", so the growth may be the fill"
                                      if overloaded else "")] if fill_late else [])),
            1e3 * window,
            "still changing: the length needed is not known" if need is None
            else "at least about %.2g ms more arrivals needed" % (1e3 * need)))
    if "active_flows" in series:
        lit = little(series["active_flows"], flows_txt, flows, start, end, sim_end)
        out.update(lit)
        if lit["little_ratio"] is not None:
            text = ("Little's law: mean active flows %s vs lambda x W = %s/s x %.3g ms = %s "
                    "(ratio %.3f, tolerance +-%.0f%%)" % (
                        _fmt(lit["mean_active_flows"], "active_flows"),
                        "{:,.0f}".format(lit["little_lambda_per_s"]), 1e3 * lit["little_w_s"],
                        _fmt(lit["little_lambda_per_s"] * lit["little_w_s"], "active_flows"),
                        lit["little_ratio"], 100 * lit["little_tolerance"]))
            if abs(lit["little_ratio"] - 1) > lit["little_tolerance"]:
                failed.append(text)
            else:
                info.append(text)
    else:
        info.append("active flows and Little's law not checked (no flows.txt)")
    if "buffer_bytes" not in series:
        info.append("buffered bytes not checked (no buffer.csv)")
    out["stationary"] = not failed
    head = "equilibrium from %.5g ms (%s)" % (1e3 * start, ", ".join(
        ["%s %.5g ms" % (SERIES_WHAT[n], 1e3 * c["truncation_s"]) for n, c in cuts.items()]
        + (["fill time %.4g ms after the arrivals start%s" % (
            1e3 * fill, " (not applied: overload)" if out["overload"] and k < kf else "")]
           if fill is not None else [])))
    if stopped:
        info.append("series up to %.4g ms, where the run stopped (before the end of the "
                    "arrivals and cool-down)" % (1e3 * end))
    out["stationarity_note"] = "; ".join(failed + [head] + info)
    return out


def flag_text(stats):
    """A short text of why a run's statistics are flagged, "" when they are not (or unknown):
    "overload (active flows +x%/10 ms (s% of it the input's, excess not flagged), buffered
    bytes +y%/10 ms)" (the input's share and its excess: input_check), "not settled", "still
    falling", "too short (+Z ms needed)", "Little ratio R"; for a record made before the
    data-driven window (no equilibrium_method), "not stationary (old quarter rule)"."""
    if stats.get("stationary") is not False:
        return ""
    if not stats.get("equilibrium_method"):
        return "not stationary (old quarter rule)"
    parts = []
    series = stats.get("equilibrium_series") or {}
    flagged = [t for e in series.values() if not e.get("overload")
               for t in (e.get("trend"), e.get("trend_last_half")) if t and t.get("flagged")]
    if stats.get("overload"):
        ic = stats.get("input_check")
        inp = ("" if not ic or ic.get("input_share") is None else
               " (%.0f%% of it the input's, %s)" % (
                   100 * ic["input_share"], "excess flagged" if ic["excess_flagged"]
                   else "excess not flagged"))
        parts.append("overload (%s)" % ", ".join(
            "%s %s/10 ms%s" % (what, _pct(stats.get(key)), inp if name == "active_flows"
                                else "") for name, key, what in (
                ("active_flows", "active_growth_pct_per_10ms", "active flows"),
                ("buffer_bytes", "buffer_growth_pct_per_10ms", "buffered bytes"))
            if (series.get(name) or {}).get("overload")))
    if any(t["slope_per_s"] > 0 for t in flagged):
        parts.append("not settled")
    if any(t["slope_per_s"] < 0 for t in flagged):
        parts.append("still falling")
    if stats.get("equilibrium_too_short"):
        need = stats.get("equilibrium_more_needed_s")
        parts.append("too short" + ("" if need is None else " (+%.2g ms needed)" % (1e3 * need)))
    ratio, tol = stats.get("little_ratio"), stats.get("little_tolerance")
    if ratio is not None and tol is not None and abs(ratio - 1) > tol:
        parts.append("Little ratio %.2f" % ratio)
    return ", ".join(parts)


def _summary_field(summary, key):
    if key not in summary:
        raise StatsError(f"summary.json: missing field {key!r}")
    return summary[key]


def window_stats(flows, pfc, flows_txt, start, end):
    """The FCT, slowdown, completion and PAUSE-rate statistics of the window [start, end)."""
    measured = flows_started_in(flows, start, end)
    out = fct_summary(measured)
    out["slowdown_by_size"] = slowdown_by_bucket(measured)
    out.update(completion_in_window(flows_txt, flows, start, end))
    out.update(pause_rate(pfc, start, end - start))
    return out


# The statistics of the nominal window kept, prefixed nominal_, for the comparison of the old
# (hand-set warm-up) and the new (data-driven) windows.
NOMINAL_KEYS = ["fct_count", "avg_fct_s", "median_fct_s", "p99_fct_s", "flows_measured",
                "flows_measured_completed", "completion_ratio_measured",
                "pause_frames_in_window", "pause_rate_per_s"]


START_BIN_S = 0.01  # the bins of start_bins: 10 ms of the arrival window, or 1% of a shorter one


def start_bins(flows, pfc, run, flows_txt=None, bin_s=None):
    """The arrival window [a, a + D) in bins of bin_s seconds (default min(START_BIN_S, D /
    100); the last one may be shorter),
    counted per bin (module docstring, Start bins): "flows" (flows of flows_txt started in it;
    None without flows_txt), "completed" and "fct_sum_s" (the completed flows of flows.csv
    started in it and the sum of their FCTs, rounded to the nanosecond) and "pause_frames"
    (PAUSE frames sent in it). Returns {"bin_s", "start_s": a, "end_s": a + D, and those
    lists}."""
    a = float(run["arrival_start_s"])
    d = float(run["arrival_duration_s"])
    if bin_s is None:
        bin_s = min(START_BIN_S, d / 100)
    if not bin_s > 0:
        raise StatsError(f"a start bin must be longer than 0 s, got {bin_s!r}")
    n = max(1, int(math.ceil(d / bin_s - 1e-9)))
    edges = a + bin_s * np.arange(n + 1)
    edges[-1] = a + d

    def count(times, weights=None):
        t = np.asarray(times, dtype=float)
        keep = (t >= a) & (t < a + d)
        w = None if weights is None else np.asarray(weights, dtype=float)[keep]
        return np.histogram(t[keep], bins=edges, weights=w)[0]

    f = check_flows(flows)
    started = (None if flows_txt is None
               else [int(x) for x in count(flows_txt.start_s.to_numpy(dtype=float))])
    pause_times = _pause_frames(pfc)[0]
    return {"bin_s": bin_s, "start_s": a, "end_s": a + d, "flows": started,
            "completed": [int(x) for x in count(f.start_s)],
            "fct_sum_s": [round(float(x), 9) for x in count(f.start_s, f.fct_s)],
            "pause_frames": [int(x) for x in count(pause_times)]}


def bins_window(bins, start, end):
    """The statistics of the whole start bins inside [start, end) (start rounded up, end down
    to a bin edge; module docstring, Start bins): {"start_s", "end_s" (the bins' span),
    "fct_count", "avg_fct_s" (sum of FCTs / completed flows; None for none), "flows",
    "completion_ratio" (None without flows), "pause_frames", "pause_rate_per_s"}; StatsError
    when no whole bin fits."""
    a, w = float(bins["start_s"]), float(bins["bin_s"])
    n = len(bins["completed"])
    edges = np.minimum(a + w * np.arange(n + 1), float(bins["end_s"]))
    tol = 1e-9 * max(1.0, abs(a))
    i = int(np.searchsorted(edges, start - tol, "left"))
    j = int(np.searchsorted(edges, end + tol, "right")) - 1
    if j <= i:
        raise StatsError(f"no whole start bin of {1e3 * w:g} ms in [{start!r}, {end!r})")
    done = int(sum(bins["completed"][i:j]))
    fct = float(sum(bins["fct_sum_s"][i:j]))
    started = None if bins.get("flows") is None else int(sum(bins["flows"][i:j]))
    frames = int(sum(bins["pause_frames"][i:j]))
    span = float(edges[j] - edges[i])
    return {"start_s": float(edges[i]), "end_s": float(edges[j]), "fct_count": done,
            "avg_fct_s": fct / done if done else None, "flows": started,
            "completion_ratio": done / started if started else None,
            "pause_frames": frames, "pause_rate_per_s": frames / span}


def compute_stats(flows, pfc, summary, run, flows_txt=None, buffer=None):
    """All statistics of one run as a JSON-ready dict (see the module docstring).

    flows_txt: flows.txt as read by read_flows_txt (None: unknown); buffer: buffer.csv
    (None: unknown)."""
    n_start, m_end = nominal_window(run)
    stats = dict(run)  # the run.json fields, copied in
    stats["note"] = None
    eq = equilibrium(run, flows_txt, flows, buffer, summary.get("simulated_time_s"))
    m_start = eq["equilibrium_start_s"]
    stats.update(measured_start_s=m_start, measured_end_s=m_end,
                 measured_duration_s=m_end - m_start)
    win = window_stats(flows, pfc, flows_txt, m_start, m_end)
    stats.update(win)
    if win["fct_count"] == 0:
        stats["note"] = NO_FLOWS_NOTE
    whole = fct_summary(flows)
    for key in ("fct_count", "avg_fct_s", "median_fct_s", "p99_fct_s"):
        stats["whole_run_" + key] = whole[key]
    arrival = pause_rate(pfc, run["arrival_start_s"], run["arrival_duration_s"])
    stats["arrival_pause_frames"] = arrival["pause_frames_in_window"]
    stats["arrival_pause_rate_per_s"] = arrival["pause_rate_per_s"]
    stats["pause_frames_total"] = _summary_field(summary, "pause_frames_sent")
    stats["pause_frames_per_link_total"] = summary.get("pause_frames_per_link", {})
    stats.update(eq)
    stats["stationarity_quarters"] = quarter_stats(flows, pfc, buffer, flows_txt, m_start, m_end)
    stats["start_bins"] = start_bins(flows, pfc, run, flows_txt)
    # the nominal window [a + warm-up, a + D - cool-down): the old statistics and verdict
    nominal = (win if n_start == m_start
               else window_stats(flows, pfc, flows_txt, n_start, m_end))
    stats.update(nominal_start_s=n_start, nominal_end_s=m_end,
                 nominal_duration_s=m_end - n_start)
    for key in NOMINAL_KEYS:
        stats["nominal_" + key] = nominal[key]
    quarters = quarter_stats(flows, pfc, buffer, flows_txt, n_start, m_end)
    stats["nominal_stationarity_quarters"] = quarters
    stats["nominal_stationary"], stats["nominal_stationarity_note"] = stationarity(quarters)
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
        ms = lambda x: "%.6g" % (1e3 * x)  # noqa: E731
        print(f"{run_dir}: measured from {ms(s['measured_start_s'])} ms "
              f"({s['equilibrium_method'] or 'nominal'}) to {ms(s['measured_end_s'])} ms: "
              f"{s['fct_count']} measured flows, avg FCT {fmt(s['avg_fct_s'])} ms "
              f"(nominal window {fmt(s['nominal_avg_fct_s'])}), "
              f"p99 {fmt(s['p99_fct_s'])} ms, {s['pause_rate_per_s']:.4g} PAUSE/s, completed "
              f"{'n/a' if ratio is None else '%.1f%%' % (100 * ratio)}, at equilibrium "
              f"{ {True: 'yes', False: 'NO', None: 'n/a'}[s['stationary']] }"
              + (f" ({flag_text(s)})" if s["stationary"] is False else "")
              + (f" ({s['note']})" if s["note"] else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

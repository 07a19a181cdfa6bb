"""Monte Carlo checks of the equilibrium criterion of scripts/fct_stats.py (the data-driven
warm-up and the stationarity verdict): the numbers that its docstring and the large-scale
chapter of doc/ quote. Nothing is simulated by ns-3; each experiment builds series whose answer
is known and counts how often the criterion gets it wrong.

  ramp    a ramp over 20 ms to a level, then AR(1) noise (lag-1 correlation 0.92 per 0.5 ms
          batch, standard deviation 3% of the level), 140 ms measured: the share of series
          whose warm-up is put in the last half (wrongly "too short") and the median warm-up,
          by the band test of fct_stats.truncation and by MSER-5 (fct_stats.mser5).
  mginf   the active flows of an M/G/infinity system (Poisson arrivals, independent FCTs), which
          reaches its equilibrium without any congestion: per arrival window, the runs flagged
          by the verdict, too short, and those whose trend the 10-batch t-test alone would
          call significant (and the t-test weighed by the correlation too). FCTs are
          the WebSearch sizes (data/cdf/websearch.txt) at a fixed rate giving a mean FCT of
          6 ms (like the full-scale runs at load 0.8), or resampled from --run's flows.csv.
  buffer  a stationary buffer (a ramp to 10 MB over 20 ms, then AR(1) noise with correlation
          times 0.1 to 10 ms and standard deviations of 10% and 30%), 140 ms measured: the
          share flagged.
  slow    criterion version 2's correlation weighing: a buffer of 8 MB level whose AR(1)
          noise has correlation times (e-folding) of 10 to 300 ms and a standard deviation of
          30% (DataMining's buffers at load 0.4), measured over 1 s and 2 s (arrivals from 0,
          a 20 ms ramp), sampled every 0.5 ms: the share at equilibrium, flagged for a trend
          (not settled, still falling or overload), called a trend by the 10-batch test alone
          (criterion version 1: the trend shares plus the "slow" ones), and too short; with
          a growth of 40% of the level across the window added (--growth), how often it is
          flagged and how (the test's power); then with a growth confined to the window's
          last 40% (--late-growth, 100% of the level: a fill that starts late, like DCON's
          at WebSearch 0.8), and in every pass the share that would be judged at
          equilibrium if the last half's "slow" trends did not make a run too short (what
          that part of the rule costs on stationary series and buys against late growth).

  input   fct_stats.input_check, the active flows against the M/G/infinity count of the
          run's own arrivals with its window's FCT law: arrivals whose rate rises by 40%
          across a 300 ms window with a fixed FCT law (a swell of the input, which the open
          flows follow without any backlog), a constant rate with FCTs that lengthen by 80%
          (a backlog: service keeps slowing), and both: how often the verdict finds an
          overload of the active flows, and how often the excess over the input's count is
          flagged (it should be in the backlogs, not in the swell).

Usage: /usr/bin/python3 -m scripts.equilibrium_mc [--reps N] [--seed S] [--run RUN_DIR]
         [--rate FLOWS_PER_S] [--experiments ramp mginf buffer slow input]
"""
import argparse
import collections
import math
import os
import sys

import numpy as np
import pandas as pd

from . import fct_stats

CDF = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "cdf",
                   "websearch.txt")
MEAN_FCT_S = 6e-3


def ar1(n, phi, sd, rng):
    """n values of a stationary AR(1) series with lag-1 correlation phi and deviation sd."""
    e = rng.normal(0.0, sd * math.sqrt(1 - phi * phi), n)
    x = np.empty(n)
    x[0] = rng.normal(0.0, sd)
    for k in range(1, n):
        x[k] = phi * x[k - 1] + e[k]
    return x


def websearch_fcts(rng, n, mean_fct_s=MEAN_FCT_S):
    """n FCTs: WebSearch sizes (inverse of the piecewise-linear CDF) over a rate that gives the
    mean FCT mean_fct_s."""
    cdf = pd.read_csv(CDF, sep=r"\s+", comment="#", header=None, names=["size", "p"])
    sizes = np.interp(rng.uniform(size=n), cdf.p, cdf["size"])
    mean_size = float(np.sum(np.diff(cdf.p) * (cdf["size"][1:].values + cdf["size"][:-1].values)
                             / 2))
    return np.maximum(sizes, 1.0) * mean_fct_s / mean_size


def ramp(reps, rng):
    """Experiment ramp: {method: (share in the last half, median warm-up ms)}."""
    n, ramp_batches = 280, 40  # 140 ms of 0.5 ms batches, a 20 ms ramp
    late = collections.Counter()
    cuts = collections.defaultdict(list)
    for _ in range(reps):
        x = 1000 * np.minimum(np.arange(n) / ramp_batches, 1.0) + ar1(n, 0.92, 30, rng)
        band = fct_stats.truncation(x)["batch"]
        mser = fct_stats.mser5(x)
        for name, k in (("band", band), ("MSER-5", mser)):
            late[name] += k >= n // 2
            cuts[name].append(0.5 * k)
    return {m: (late[m] / reps, float(np.median(cuts[m]))) for m in ("band", "MSER-5")}


def mginf(reps, rng, rate, fcts, durations=(0.15, 0.3, 0.5)):
    """Experiment mginf: {arrival window s: Counter of flagged, too short, t-test alone,
    weighed, warm-up ms, mean N}."""
    out = {}
    for d in durations:
        c = collections.Counter()
        run = {"arrival_start_s": 0.0, "arrival_duration_s": d, "cooldown_s": 0.01}
        for _ in range(reps):
            m = rng.poisson(rate * d)
            starts = np.sort(rng.uniform(0.0, d, m))
            ends = starts + fcts(rng, m)
            txt = pd.DataFrame({"start_s": starts})
            flows = pd.DataFrame({"flow_id": np.arange(m), "end_s": ends, "size_bytes": 1.0,
                                  "fct_s": ends - starts, "slowdown": 1.0})
            eq = fct_stats.equilibrium(run, txt, flows)
            tr = eq["equilibrium_series"]["active_flows"]
            c["flagged"] += not eq["stationary"]
            c["too short"] += bool(eq["equilibrium_too_short"])
            c["t-test alone"] += (tr["trend"]["significant_batches"]
                                  or tr["trend_last_half"]["significant_batches"])
            c["weighed"] += tr["trend"]["significant"] or tr["trend_last_half"]["significant"]
            c["warm-up ms"] += 1e3 * eq["equilibrium_start_s"] / reps
            c["mean N"] += eq["mean_active_flows"] / reps
        out[d] = c
    return out


def buffer(reps, rng):
    """Experiment buffer: {(correlation time ms, relative sd): share flagged}."""
    out = {}
    t = np.arange(1500) * 1e-4
    level = 1e7 * np.minimum(t / 0.02, 1.0)
    run = {"arrival_start_s": 0.0, "arrival_duration_s": 0.15, "cooldown_s": 0.01}
    for tau_ms in (0.1, 1.0, 3.0, 10.0):
        phi = math.exp(-0.1 / tau_ms)
        for rel in (0.1, 0.3):
            flagged = 0
            for _ in range(reps):
                b = level + ar1(len(t), phi, rel * 1e7, rng) * (t >= 0.02)
                eq = fct_stats.equilibrium(run, buffer=pd.DataFrame(
                    {"time_s": t, "total_bytes": b}))
                flagged += not eq["stationary"]
            out[(tau_ms, rel)] = flagged / reps
    return out


def slow(reps, rng, thetas_ms=(10.0, 30.0, 100.0, 300.0), windows_s=(1.0, 2.0), growth=0.0,
         late=False):
    """Experiment slow: {(theta ms, window s): Counter of "stationary", "trend" (a flagged
    trend), "v1 trend" (what the 10-batch test alone flags: flagged or slow), "too short",
    "overload", "corr ms" (the mean estimated integrated correlation time of the buffer),
    "no half slow" (at equilibrium if a "slow" trend of the last half alone did not make the
    run too short)}. growth: added across the window (late=False) or across its last 40%
    (late=True), as a share of the level."""
    out = {}
    dt = 0.5e-3
    for window in windows_s:
        n = int(round(window / dt))
        t = np.arange(n) * dt
        run = {"arrival_start_s": 0.0, "arrival_duration_s": window, "cooldown_s": 0.0}
        for theta in thetas_ms:
            phi = math.exp(-dt / (1e-3 * theta))
            c = collections.Counter()
            for _ in range(reps):
                rise = (np.clip((t - 0.6 * window) / (0.4 * window), 0.0, 1.0) if late
                        else t / window)
                b = 8e6 * (np.minimum(t / 0.02, 1.0) + growth * rise
                           + ar1(n, phi, 0.3, rng) * (t >= 0.02))
                eq = fct_stats.equilibrium(run, buffer=pd.DataFrame(
                    {"time_s": t, "total_bytes": np.maximum(b, 0.0)}))
                e = eq["equilibrium_series"]["buffer_bytes"]
                trends = (e["trend"], e["trend_last_half"])
                c["stationary"] += bool(eq["stationary"])
                flagged = any(x["flagged"] for x in trends)
                c["trend"] += flagged
                c["v1 trend"] += any(x["flagged"] or x["slow"] for x in trends)
                c["too short"] += bool(eq["equilibrium_too_short"])
                c["overload"] += bool(eq["overload"])
                # the verdict's reasons for a buffer alone, but the last half's "slow"
                other = not eq["stationary"] and not eq["equilibrium_too_short"]
                c["no half slow"] += not (flagged or other or e["too_short"]
                                          or e["too_short_for_corr"] or e["trend"]["slow"])
                c["corr ms"] += 1e3 * e["corr_time_s"] / reps
            out[(theta, window)] = c
    return out


def swell_flows(rng, rate, d, fcts, swell=0.0, slowing=0.0):
    """(flows.txt, flows.csv) frames of Poisson arrivals over [0, d) at the rate rate x (1 +
    swell x t / d) (a linear rise of the input by the share swell), each flow lasting an FCT of
    fcts times (1 + slowing x t / d) (an FCT law that drifts: service that keeps slowing, as in
    a backlog)."""
    total = rate * (d + swell * d / 2)  # the integral of the rate over [0, d)
    u = np.sort(rng.uniform(0.0, total, rng.poisson(total)))
    # invert rate (t + swell t^2 / (2 d)) = u for t in [0, d)
    starts = (u / rate if swell == 0 else
              (np.sqrt(1 + 2 * swell * u / (rate * d)) - 1) * d / swell)
    ends = starts + fcts(rng, len(starts)) * (1 + slowing * starts / d)
    txt = pd.DataFrame({"start_s": starts})
    flows = pd.DataFrame({"flow_id": np.arange(len(starts)), "end_s": ends, "size_bytes": 1.0,
                          "fct_s": ends - starts, "slowdown": 1.0})
    return txt, flows


def input_swell(reps, rng, rate, fcts, d=0.3, cases=((0.4, 0.0), (0.0, 0.8), (0.4, 0.8))):
    """Experiment input: {(swell, slowing): Counter of overload (the verdict's, active flows),
    excess (the input check's excess over the input's M/G/inf count flagged), input (the
    input's own count flagged for a trend)} over arrival windows of d seconds."""
    out = {}
    run = {"arrival_start_s": 0.0, "arrival_duration_s": d, "cooldown_s": 0.01}
    for case in cases:
        c = collections.Counter()
        for _ in range(reps):
            txt, flows = swell_flows(rng, rate, d, fcts, *case)
            eq = fct_stats.equilibrium(run, txt, flows)
            ic = eq["input_check"]
            c["overload"] += bool(eq["equilibrium_series"]["active_flows"]["overload"])
            c["flagged"] += not eq["stationary"]
            c["excess"] += bool(ic["excess_flagged"])
            c["input"] += bool(ic["predicted_flagged"])
        out[case] = c
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--reps", type=int, default=100, help="series per case (default 100)")
    ap.add_argument("--seed", type=int, default=1, help="numpy seed (default 1)")
    ap.add_argument("--run", default=None,
                    help="mginf: resample the FCTs of this run directory's flows.csv")
    ap.add_argument("--rate", type=float, default=208_000.0,
                    help="mginf: arrivals per second (default 208000, WebSearch at core load "
                         "0.8 on the full fabric)")
    ap.add_argument("--experiments", nargs="+", default=["ramp", "mginf", "buffer", "slow"],
                    choices=["ramp", "mginf", "buffer", "slow", "input"])
    ap.add_argument("--growth", type=float, default=0.4,
                    help="slow: the growth across the window added in its second pass, as a "
                         "share of the level (default 0.4)")
    ap.add_argument("--late-growth", type=float, default=1.0,
                    help="slow: the growth across the window's last 40%% added in its third "
                         "pass, as a share of the level (default 1.0)")
    args = ap.parse_args(argv)
    if args.reps < 1:
        print(f"error: --reps must be >= 1, got {args.reps}", file=sys.stderr)
        return 2
    rng = np.random.default_rng(args.seed)
    if "ramp" in args.experiments:
        print("ramp + AR(1) (lag-1 0.92 per batch), 140 ms, %d series:" % args.reps)
        for m, (late, med) in ramp(args.reps, rng).items():
            print("  %-6s warm-up in the last half %5.1f%%, median %.1f ms (ramp ends at 20 ms)"
                  % (m, 100 * late, med))
    if "mginf" in args.experiments:
        if args.run:
            try:
                fct = fct_stats.read_csv(os.path.join(args.run, "flows.csv"),
                                         fct_stats.FLOW_COLUMNS).fct_s.to_numpy(dtype=float)
            except fct_stats.StatsError as e:
                print(f"error: {e}", file=sys.stderr)
                return 2
            what = "resampled from %s" % args.run
            fcts = lambda r, n: r.choice(fct, n)  # noqa: E731
        else:
            what = "WebSearch sizes at a rate giving %.0f ms on average" % (1e3 * MEAN_FCT_S)
            fcts = websearch_fcts
        sample = fcts(np.random.default_rng(0), 200_000)
        print("M/G/infinity, %s/s arrivals, FCTs %s (mean %.2f ms, p99 %.1f ms, max %.0f ms), "
              "%d runs per window:" % ("{:,.0f}".format(args.rate), what, 1e3 * sample.mean(),
                                       1e3 * np.percentile(sample, 99), 1e3 * sample.max(),
                                       args.reps))
        for d, c in mginf(args.reps, rng, args.rate, fcts).items():
            print("  arrivals %3.0f ms: flagged %d, too short %d, t-test alone %d (weighed by "
                  "the correlation too %d); mean warm-up %.0f ms, mean N %.0f" % (
                      1e3 * d, c["flagged"], c["too short"], c["t-test alone"], c["weighed"],
                      c["warm-up ms"], c["mean N"]))
    if "buffer" in args.experiments:
        print("stationary buffer (10 MB + AR(1) noise), 140 ms, %d series: flagged" % args.reps)
        for (tau, rel), share in buffer(args.reps, rng).items():
            print("  correlation time %4.1f ms, sd %2.0f%%: %5.1f%%" % (tau, 100 * rel,
                                                                      100 * share))
    if "slow" in args.experiments:
        for g, late in ((0.0, False), (args.growth, False), (args.late_growth, True)):
            print("buffer of 8 MB + AR(1) noise (sd 30%%)%s, %d series per case:" % (
                "" if g == 0 else ", growing by %.0f%% of the level across the window%s"
                % (100 * g, "'s last 40%" if late else ""), args.reps))
            for (theta, window), c in slow(args.reps, rng, growth=g, late=late).items():
                print("  theta %5.0f ms, %g s: at equilibrium %5.1f%%, trend flagged %5.1f%% "
                      "(10-batch test alone %5.1f%%), overload %5.1f%%, too short %5.1f%%; "
                      "correlation time %.0f ms (2 theta = %.0f); at equilibrium without the "
                      "last half's slow trends %5.1f%%" % (
                          theta, window, *(100 * c[k] / args.reps for k in (
                              "stationary", "trend", "v1 trend", "overload", "too short")),
                          c["corr ms"], 2 * theta, 100 * c["no half slow"] / args.reps))
    if "input" in args.experiments:
        rate = args.rate
        print("M/G/infinity input check: Poisson arrivals rising linearly by a share (swell), "
              "FCTs of WebSearch sizes (mean %.0f ms) lengthening by a share (slowing) across "
              "300 ms, %s/s at the start, %d series per case:" % (
                  1e3 * MEAN_FCT_S, "{:,.0f}".format(rate), args.reps))
        for (sw, sl), c in input_swell(args.reps, rng, rate, websearch_fcts).items():
            print("  swell %3.0f%%, slowing %3.0f%%: active flows overloaded %5.1f%%, not "
                  "stationary %5.1f%%; the input's own count flagged %5.1f%%, the excess over "
                  "it flagged %5.1f%%" % (100 * sw, 100 * sl, *(100 * c[k] / args.reps for k in (
                      "overload", "flagged", "input", "excess"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Every claim of the DCON paper's evaluation next to our numbers: the table of
doc/validation/claims.rst, computed from the tables the sweeps write (nothing is run here).

Inputs (each optional: a claim whose table is missing gets the verdict "not run"):
  LARGE/fig9-runs.csv, fig10-runs.csv, fig11-runs.csv, fig12-runs.csv   scripts/large_sweep.py
  FIG7/fig7-runs.csv                                                    scripts/burst_sweep.py
  TESTBED/readings.csv                                                  scripts/testbed_readings.py

Each comparison with the baselines (dcqcn, swift, pcn) is evaluated under two readings of DCON:
"default" (variant dcon: Algorithm 1 read with the text, a CNM only lowers a rate) and "CNM
raises" (variant dcon-raises: line 2 read as an assignment that may raise a throttled flow to
C/N). Fig. 11 and 12 compare DCON variants with each other (dcon-q0.4, dcon-q0.6, dcon-T2,
dcon-T4), under the default reading. Large-scale verdicts carry the stationarity flag of their
runs ("; k of n runs not at equilibrium (...)" with each flagged run and why: overload with its
growth rate, too short, ...; scripts/fct_stats.py). Comparisons are over the seeds that every
compared variant has at the point and at which the compared runs not at equilibrium share one
arrival window (Source.comparable: an overload's FCT grows with the window, and --extend may
have lengthened one scheme's run only); ours names the seeds used when some were left out.
Kinds of claim and their verdicts:

  lowest     "DCON has the lowest METRIC": at each point (load, burst interval or size) DCON's
             mean over the seeds is compared with each baseline's. Verdict "holds" (lowest at
             every point), "partly (k of n)" or "no"; ours lists DCON's rank at each point.
  reduction  "DCON's METRIC is P% below BASELINE's at POINT": per seed s (the same seed gives
             every scheme the same flows), r_s = 1 - DCON_s / BASELINE_s; ours is the mean of
             r_s in % with its 95% confidence half-width (Student's t over the seeds,
             scripts/seed_stats.py). Verdict "no difference shown" (0 inside the interval,
             whatever else it holds), "reproduced" (P inside the interval, 0 not), "same
             direction" (the interval above 0, P outside it; r > 0 with one seed), "opposite"
             (the interval below 0; r <= 0 with one seed).
  best       "VARIANT is best" (Fig. 11, 12): the variant has the lowest mean average FCT at
             each load; "holds" / "partly (k of n)" / "no".
  gap        "DCON's pause-rate advantage is largest on DataMining": the reductions of the mean
             pause rate, 1 - DCON / baseline, vs each baseline at load 0.8 on both workloads
             (means: a baseline may not pause at all); "holds" when every reduction is positive
             and larger on DataMining, "no" otherwise.
  facts      the testbed's facts of Fig. 2 (DCQCN) and Fig. 6 (DCON) in each configuration of
             readings.csv (burst spacing 15 or 230 us, placement ecmp or vias0, start fair or
             run): "holds" when they hold for every seed, else the facts that fail; and one row
             naming the configurations in which both figures' facts hold at once.

Usage: /usr/bin/python3 -m scripts.paper_claims [--large results/large] [--fig7 results/fig7]
         [--testbed results/testbed-readings] [--out results/claims.csv] [--tables] [--bias]
         [--figures FIG ...]
Prints the table (reStructuredText) and writes it as CSV to --out; --tables also prints, per
large-scale figure, the mean +- 95% CI over the seeds of the average FCT, p99 FCT and pause rate
of every variant and load (from LARGE/<fig>.csv), with the runs not at equilibrium and why;
--bias the old (fixed window) and new (equilibrium) means per point and the old one's bias.
"""
import argparse
import math
import os
import sys

import pandas as pd

from . import seed_stats
from .rst_table import simple_table  # noqa: F401 (tests use paper_claims.simple_table)

BASELINES = ["dcqcn", "swift", "pcn"]
READINGS = [("default", "dcon"), ("CNM raises", "dcon-raises")]
NAMES = {"dcon": "DCON", "dcon-raises": "DCON", "dcqcn": "DCQCN", "swift": "Swift",
         "pcn": "PCN"}
# The testbed configurations (testbed_readings.py), the paper's text's first.
CONFIGS = [(sp, pl, st) for sp in ("15us", "230us") for pl in ("ecmp", "vias0")
           for st in ("fair", "run")]
METRIC_NAMES = {"avg_fct_s": "average FCT", "avg_fct_ms": "average FCT of the 422 flows",
                "p99_fct_s": "p99 FCT", "pause_rate_per_s": "pause rate"}
COLUMNS = ["claim", "figure", "what", "paper", "reading", "ours", "verdict"]


class Source:
    """One sweep table: rows with a variant, a seed, a point column and metric columns."""

    def __init__(self, table, point):
        self.table = table
        self.point = point

    def points(self, variant):
        return sorted(self.table[self.table.variant == variant][self.point].unique())

    def mean(self, variant, point, metric, seeds=None):
        """Mean of metric over the variant's seeds at point (only `seeds` if given)."""
        rows = self.table[(self.table.variant == variant) & (self.table[self.point] == point)]
        if seeds is not None:
            rows = rows[rows.seed.isin(seeds)]
        return seed_stats.mean_std_ci95(rows[metric])[1]

    def seeds(self, variant, point):
        t = self.table
        return set(t[(t.variant == variant) & (t[self.point] == point)].seed)

    def comparable(self, variants, point, seeds):
        """(kept, dropped): the seeds among `seeds` at which the variants' runs that are not at
        equilibrium (the stationary column not true, or no such column) all have the same
        arrival window (the arrival_window column; every seed when there is none), and the
        others. One seed gives every scheme the same flows, but a run not at equilibrium
        (e.g. an overload, whose FCT grows with the window) compares only with runs of its own
        window, and an extension (large_sweep --extend) may have lengthened one scheme's run
        and not another's; a run at equilibrium has the same statistics in any longer window."""
        seeds = sorted(seeds)
        if "arrival_window" not in self.table.columns:
            return seeds, []
        t = self.table[(self.table[self.point] == point) & self.table.variant.isin(variants)]
        if "stationary" in t.columns:
            t = t[t.stationary.astype(str).str.lower() != "true"]
        kept = [s for s in seeds if t[t.seed == s].arrival_window.nunique() <= 1]
        return kept, [s for s in seeds if s not in kept]

    def paired(self, variant, other, point, metric):
        """([(seed, variant's value, other's value)] for the seeds both have that are
        comparable, [the seeds both have that are not])."""
        t = self.table[self.table[self.point] == point]
        a = t[t.variant == variant].set_index("seed")[metric].dropna()
        b = t[t.variant == other].set_index("seed")[metric].dropna()
        both, dropped = self.comparable([variant, other], point, set(a.index) & set(b.index))
        return [(s, float(a[s]), float(b[s])) for s in both], dropped


def stationarity_note(src, variants, points=None):
    """"; k of n runs not at equilibrium (VARIANT LOAD sSEED: FLAG, ...)" over the runs of
    `variants` (at `points`, all if None) of a source with a stationary column (and a flag
    column: scripts/large_sweep.py), then, for records made before the data-driven window
    (criterion "fixed window"), "; k of n runs measured in the fixed window (old records, j not
    stationary by the quarter rule)"; "" when every run is at equilibrium or nothing is
    known."""
    if src is None or "stationary" not in src.table.columns:
        return ""
    t = src.table[src.table.variant.isin(variants)]
    if points is not None:
        t = t[t[src.point].isin(points)]
    old = (t.criterion == "fixed window") if "criterion" in t.columns else t.variant != t.variant
    flagged = t.stationary.astype(str).str.lower() == "false"
    bad = t[flagged & ~old]
    note = ""
    if len(bad):
        note = "; %d of %d runs not at equilibrium" % (len(bad), len(t))
        if "flag" in bad.columns:
            details = ["%s %s s%s: %s" % (r.variant, fmt_point(getattr(r, src.point)), r.seed,
                                          r.flag) for r in bad.itertuples()
                       if isinstance(r.flag, str) and r.flag]
            if details:
                note += " (" + ", ".join(details) + ")"
    if old.any():
        note += "; %d of %d runs measured in the fixed window (old records, %d not stationary " \
                "by the quarter rule)" % (int(old.sum()), len(t), int((flagged & old).sum()))
    return note


def with_note(result, note):
    """(ours, verdict + note) unless the claim was not run."""
    ours, verdict = result
    return (ours, verdict if verdict == "not run" else verdict + note)


def read_table(path, point=None, filters=None):
    """A Source over the CSV at path (None when the file does not exist)."""
    if not os.path.isfile(path):
        return None
    t = pd.read_csv(path)
    for col, value in (filters or {}).items():
        t = t[t[col] == value]
    return Source(t, point)


def fmt_point(p):
    return ("%g" % p) if isinstance(p, (int, float)) else str(p)


def compare_points(src, subject, others, metric, describe):
    """(ours, verdict) of "subject has the lowest mean metric at every point of src": per point,
    the means over the seeds that every compared variant has there (the same seed gives every
    scheme the same flows; when some variant has more seeds, the text says which were used),
    and with every mean known, describe(point, means, rank) gives the text (rank 1 = no other
    mean strictly below the subject's); "holds", "partly (k of n)", "no" or "not run"."""
    if src is None or not src.points(subject):
        return "", "not run"
    parts, wins, n = [], 0, 0
    for p in src.points(subject):
        per_variant = [src.seeds(v, p) for v in [subject] + others]
        common, windows_differ = src.comparable([subject] + others, p,
                                                set.intersection(*per_variant))
        if not common:
            continue
        means = {v: src.mean(v, p, metric, common) for v in [subject] + others}
        if any(math.isnan(x) for x in means.values()):
            continue
        n += 1
        rank = 1 + sum(means[o] < means[subject] for o in others)
        wins += rank == 1
        text = describe(p, means, rank)
        if any(s != set(common) for s in per_variant):
            text += " (seed%s %s%s)" % ("s" if len(common) > 1 else "",
                                        " ".join(str(s) for s in common),
                                        windows_note(windows_differ))
        parts.append(text)
    if n == 0:
        return "", "not run"
    verdict = "holds" if wins == n else ("no" if wins == 0 else "partly (%d of %d)" % (wins, n))
    return "; ".join(parts), verdict


def claim_lowest(src, dcon, metric, unit_scale, unit):
    """(ours, verdict) of "DCON has the lowest metric (than every baseline)" at every point."""

    def describe(p, means, rank):
        best = min(BASELINES, key=lambda b: means[b])
        return "%s: %s %s (rank %d; best baseline %s %s)" % (
            fmt_point(p), fmt_value(means[dcon] * unit_scale), unit, rank, NAMES[best],
            fmt_value(means[best] * unit_scale))

    return compare_points(src, dcon, BASELINES, metric, describe)


def fmt_value(x):
    if math.isnan(x):
        return "-"
    if x == 0:
        return "0"
    if abs(x) >= 100:
        return "{:,.0f}".format(x)
    return "%.2f" % x


def paired_reduction(src, dcon, baseline, point, metric):
    """(n, mean, ci95, seeds left out because their windows differ) of the per-seed
    reductions 1 - dcon/baseline, in %."""
    pairs, dropped = src.paired(dcon, baseline, point, metric)
    n, mean, _, ci = seed_stats.mean_std_ci95([100.0 * (1.0 - a / b)
                                               for _, a, b in pairs if b > 0])
    return n, mean, ci, dropped


def fmt_interval(n, mean, ci):
    if n == 0:
        return "-"
    if n == 1 or math.isnan(ci):
        return "%+.0f%% (1 seed)" % (0.0 - mean)
    return "%+.0f%% +- %.0f" % (0.0 - mean, ci)


def windows_note(seeds):
    """"; seed(s) S ...: arrival windows differ" for the seeds left out of a comparison
    because its runs not at equilibrium have different arrival windows ("" for none)."""
    if not seeds:
        return ""
    return "; seed%s %s: arrival windows differ" % ("s" if len(seeds) > 1 else "",
                                                    " ".join(str(s) for s in seeds))


def claim_reduction(src, dcon, baseline, point, metric, paper_pct=None):
    """(ours, verdict) of "DCON's metric is paper_pct % below baseline's at point" (paper_pct
    None: "below baseline's", a claim without a published number, never "reproduced")."""
    if src is None or metric not in src.table.columns or point not in src.points(dcon):
        return "", "not run"
    n, mean, ci, differ = paired_reduction(src, dcon, baseline, point, metric)
    if n == 0:
        return "", "not run"
    ours = "%s vs %s" % (fmt_interval(n, mean, ci), NAMES[baseline])
    if differ:
        ours += " (%d seed%s%s)" % (n, "s" if n > 1 else "", windows_note(differ))
    if not math.isnan(ci) and mean - ci <= 0 <= mean + ci:
        return ours, "no difference shown"
    if paper_pct is not None and not math.isnan(ci) and abs(mean - paper_pct) <= ci:
        return ours, "reproduced"
    if mean <= 0:
        return ours, "opposite"
    return ours, "same direction"


def claim_best(src, best, others, metric="avg_fct_s"):
    """(ours, verdict) of "variant best has the lowest mean metric at every load"; ours lists
    the means in ms, the others' first."""

    def describe(p, means, rank):
        return "%s: %s" % (fmt_point(p), " / ".join(fmt_value(means[v] * 1e3)
                                                    for v in others + [best]))

    return compare_points(src, best, others, metric, describe)


def mean_reduction(src, dcon, baseline, point, metric):
    """1 - mean(DCON) / mean(baseline) in % over the seeds (0 when both means are 0, -inf
    when only the baseline's is), or NaN when a mean is missing."""
    a, b = src.mean(dcon, point, metric), src.mean(baseline, point, metric)
    if math.isnan(a) or math.isnan(b):
        return math.nan
    if b == 0:
        return 0.0 if a == 0 else -math.inf
    return 100.0 * (1.0 - a / b)


def fmt_reduction(r, baseline):
    if r == -math.inf:
        return "DCON > 0 = %s" % NAMES[baseline]
    return "%+.0f%%" % (0.0 - r)  # 0.0 - r: no "-0%"


def claim_gap(web, mine, dcon, point=0.8):
    """(ours, verdict) of "DCON's pause-rate reduction is larger on DataMining": the reductions
    of the mean pause rate vs each baseline at the point, on both workloads (means, not pairs:
    a baseline may not pause at all)."""
    if web is None or mine is None:
        return "", "not run"
    parts, holds = [], True
    for b in BASELINES:
        rw = mean_reduction(web, dcon, b, point, "pause_rate_per_s")
        rm = mean_reduction(mine, dcon, b, point, "pause_rate_per_s")
        if math.isnan(rw) or math.isnan(rm):
            return "", "not run"
        parts.append("vs %s: WebSearch %s, DataMining %s"
                     % (NAMES[b], fmt_reduction(rw, b), fmt_reduction(rm, b)))
        holds = holds and rw > 0 and rm > rw
    return "; ".join(parts), "holds" if holds else "no"


def config_rows(readings, variant, spacing="15us", placement="ecmp", start="fair"):
    """The readings.csv rows of a variant in one configuration (a table without placement or
    start columns has only ecmp and fair)."""
    t = readings[(readings.variant == variant) & (readings.spacing == spacing)]
    for col, value, default in (("placement", placement, "ecmp"), ("start", start, "fair")):
        if col in t.columns:
            t = t[t[col].fillna(default) == value]
        elif value != default:
            return t.iloc[0:0]
    return t


def config_name(spacing, placement, start):
    return "%s, %s, %s start" % (spacing, "burst by ECMP" if placement == "ecmp"
                                 else "burst via S0", "fair-share" if start == "fair"
                                 else "converged")


def claim_facts(readings, variant, fact_columns, spacing="15us", placement="ecmp",
                start="fair"):
    """(ours, verdict) of the testbed facts of one variant in one configuration."""
    if readings is None:
        return "", "not run"
    t = config_rows(readings, variant, spacing, placement, start)
    if t.empty:
        return "", "not run"
    failing = [name for col, name in fact_columns if not t[col].astype(bool).all()]
    holding = [name for col, name in fact_columns if t[col].astype(bool).all()]
    ours = "%d seed(s); hold: %s" % (len(t), ", ".join(holding) or "none")
    return ours, "holds" if not failing else "fails: " + ", ".join(failing)


def claim_victim_time(readings, dcon, spacing, placement, start):
    """(ours, verdict) of "the non-congested flow f0 is not held by pauses under DCON": f0's
    victim time (testbed runs with --spreading), mean over the seeds, DCON's and DCQCN's;
    "holds" when DCON's is 0, "less than DCQCN" when below DCQCN's, else "no"."""
    if readings is None or "f0_victim_s" not in readings.columns:
        return "", "not run"
    a = config_rows(readings, dcon, spacing, placement, start).f0_victim_s.dropna()
    b = config_rows(readings, "dcqcn", spacing, placement, start).f0_victim_s.dropna()
    if a.empty or b.empty:
        return "", "not run"
    ours = "DCON %.3f ms, DCQCN %.3f ms (%d seed(s))" % (1e3 * a.mean(), 1e3 * b.mean(), len(a))
    if a.max() == 0:
        return ours, "holds"
    return ours, "less than DCQCN" if a.mean() < b.mean() else "no"


FIG2_FACTS = [("l2_pauses_s1", "L2 pauses S1"), ("s1_pauses_l0", "S1 pauses L0"),
              ("s1_pauses_l1", "S1 pauses L1"), ("f0_collapses", "f0 collapses"),
              ("f1_collapses", "f1 collapses"), ("f0_recovers", "f0 recovers")]
FIG6_FACTS = [("l2_never_pauses_s1", "L2 never pauses S1"), ("f1_throttled", "f1 throttled"),
              ("f0_keeps_half", "f0 keeps half its rate")]


def claims(large, fig7_dir, testbed_dir):
    """The claims table (a DataFrame with COLUMNS)."""
    web = read_table(os.path.join(large, "fig9-runs.csv"), "load")
    mine = read_table(os.path.join(large, "fig10-runs.csv"), "load")
    f11 = read_table(os.path.join(large, "fig11-runs.csv"), "load")
    f12 = read_table(os.path.join(large, "fig12-runs.csv"), "load")
    fig7_path = os.path.join(fig7_dir, "fig7-runs.csv")
    f7a = read_table(fig7_path, "value", {"panel": "interval"})
    f7b = read_table(fig7_path, "value", {"panel": "size"})
    rpath = os.path.join(testbed_dir, "readings.csv")
    readings = pd.read_csv(rpath) if os.path.isfile(rpath) else None

    rows = []

    def add(claim, figure, what, paper, reading, result):
        rows.append(dict(zip(COLUMNS, [claim, figure, what, paper, reading, *result])))

    jointly = []
    for cfg in CONFIGS:
        where = config_name(*cfg)
        fig2 = claim_facts(readings, "dcqcn", FIG2_FACTS, *cfg)
        add("fig2", "Fig. 2", "DCQCN: L2 pauses S1, S1 pauses L0 and L1, f0 and f1 collapse, "
            "f0 recovers (%s)" % where, "all hold", "DCQCN", fig2)
        for reading, dcon in READINGS:
            fig6 = claim_facts(readings, dcon, FIG6_FACTS, *cfg)
            add("fig6", "Fig. 6", "DCON: L2 never pauses S1, f1 throttled, f0 keeps its rate "
                "(%s)" % where, "all hold", reading, fig6)
            if reading == READINGS[0][0] and fig2[1] == "holds" and fig6[1] == "holds":
                jointly.append(where)
    ran = readings is not None and any(
        not config_rows(readings, "dcqcn", *cfg).empty for cfg in CONFIGS)
    add("fig2+6", "Fig. 2 and 6", "both figures' facts in one configuration (DCQCN's of Fig. 2 "
        "and DCON's of Fig. 6)", "both hold", READINGS[0][0],
        ("; ".join(jointly) or "in none of %d configurations" % len(CONFIGS),
         ("holds" if jointly else "no")) if ran else ("", "not run"))
    lowest = [("fig7a", "Fig. 7a", "lowest average FCT of the 422 flows, burst interval "
               "10-30 us (us: ms)", f7a, "avg_fct_ms", 1, "ms"),
              ("fig7b", "Fig. 7b", "lowest average FCT of the 422 flows, burst flow size "
               "32-512 KB (KB: ms)", f7b, "avg_fct_ms", 1, "ms"),
              ("fig9a", "Fig. 9a", "WebSearch: lowest PFC pause rate (load: PAUSE/s)", web,
               "pause_rate_per_s", 1, "/s"),
              ("fig9b", "Fig. 9b", "WebSearch: lowest average FCT (load: ms)", web,
               "avg_fct_s", 1e3, "ms"),
              ("fig9c", "Fig. 9c", "WebSearch: lowest p99 FCT (load: ms)", web, "p99_fct_s",
               1e3, "ms"),
              ("fig10a", "Fig. 10a", "DataMining: lowest PFC pause rate (load: PAUSE/s)", mine,
               "pause_rate_per_s", 1, "/s"),
              ("fig10b", "Fig. 10b", "DataMining: lowest average FCT (load: ms)", mine,
               "avg_fct_s", 1e3, "ms"),
              ("fig10c", "Fig. 10c", "DataMining: lowest p99 FCT (load: ms)", mine,
               "p99_fct_s", 1e3, "ms")]
    reductions = {"fig7a": [("dcqcn", 20, "avg_fct_ms", 47)],
                  "fig9b": [("dcqcn", 0.8, "avg_fct_s", 55), ("swift", 0.8, "avg_fct_s", 42),
                            ("pcn", 0.8, "avg_fct_s", 20)],
                  "fig10c": [("dcqcn", 0.8, "p99_fct_s", 64), ("swift", 0.8, "p99_fct_s", 53),
                             ("pcn", 0.8, "p99_fct_s", 32)]}
    for claim, figure, what, src, metric, scale, unit in lowest:
        for reading, dcon in READINGS:
            add(claim, figure, what, "DCON lowest", reading,
                with_note(claim_lowest(src, dcon, metric, scale, unit),
                          stationarity_note(src, [dcon] + BASELINES,
                                            src.points(dcon) if src is not None else None)))
        for baseline, point, m, pct in reductions.get(claim, []):
            where = ("at %g us" % point) if claim == "fig7a" else ("at load %g" % point)
            for reading, dcon in READINGS:
                add(claim, figure, "%s, DCON vs %s %s" % (METRIC_NAMES[m], NAMES[baseline],
                                                         where), "-%d%%" % pct, reading,
                    with_note(claim_reduction(src, dcon, baseline, point, m, pct),
                              stationarity_note(src, [dcon, baseline], [point])))
        if claim == "fig10a":
            for reading, dcon in READINGS:
                add("fig10a", "Fig. 10a", "DCON's pause-rate reduction larger on DataMining "
                    "than on WebSearch (load 0.8)", "larger on DataMining", reading,
                    with_note(claim_gap(web, mine, dcon),
                              "".join(note.replace("; ", "; %s: " % name, 1) for name, note in (
                                  ("WebSearch", stationarity_note(web, [dcon] + BASELINES,
                                                                  [0.8])),
                                  ("DataMining", stationarity_note(mine, [dcon] + BASELINES,
                                                                   [0.8]))) if note)))
    for cfg in CONFIGS:
        for reading, dcon in READINGS:
            add("hol", "Fig. 6", "f0's victim time, the head-of-line blocking of the "
                "non-congested flow (ms held behind pauses it did not cause), DCON vs DCQCN "
                "(%s)" % config_name(*cfg), "none (L2 never pauses S1)", reading,
                claim_victim_time(readings, dcon, *cfg))
    spread = read_table(os.path.join(large, "spread-runs.csv"), "load")
    for reading, dcon in READINGS:
        add("hol", "Fig. 9a", "WebSearch: lowest victim time, flows held by PFC pauses they "
            "did not cause (load: flow-seconds)", "DCON lowest", reading,
            with_note(claim_lowest(spread, dcon, "victim_s", 1, "s"),
                      stationarity_note(spread, [dcon] + BASELINES)))
        add("hol", "Fig. 9a", "victim time, DCON vs DCQCN at load 0.8", "fewer", reading,
            claim_reduction(spread, dcon, "dcqcn", 0.8, "victim_s"))
    for reading, dcon in READINGS:
        add("fig9a-run", "Fig. 9a", "WebSearch: PAUSE frames of the whole run (arrivals and the drain "
            "of the last flows), DCON vs DCQCN at load 0.8", "fewer", reading,
            with_note(claim_reduction(web, dcon, "dcqcn", 0.8, "pause_frames_total"),
                      stationarity_note(web, [dcon, "dcqcn"], [0.8])))
    reading, dcon = READINGS[0]
    others = [dcon + "-q0.4", dcon + "-q0.6"]
    add("fig11", "Fig. 11", "dynamic Q_CNM gives the lowest average FCT (load: 40% / 60% "
        "/ dynamic, ms)", "dynamic best", reading,
        with_note(claim_best(f11, dcon, others), stationarity_note(f11, [dcon] + others)))
    others = [dcon + "-T2", dcon + "-T4"]
    add("fig12", "Fig. 12", "T = 3 RTT gives the lowest average FCT (load: T = 2 / 4 / 3 "
        "RTT, ms)", "3 RTT best", reading,
        with_note(claim_best(f12, dcon, others), stationarity_note(f12, [dcon] + others)))
    return pd.DataFrame(rows, columns=COLUMNS)


def figure_of(figure):
    """A claim's figure without its panel letter: 'Fig. 9b' -> 'Fig. 9', 'Testbed' as it is."""
    return figure.rstrip("abcdefgh") if figure[-1:].isalpha() and figure[-2:-1].isdigit() \
        else figure


def rst(table):
    """The table as an reStructuredText list-table."""
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: 8 30 10 10 30 12", "",
             "   * - figure", "     - claim", "     - paper", "     - reading",
             "     - ours (mean over seeds; +- 95% CI)", "     - verdict"]
    for r in table.itertuples():
        lines += ["   * - " + r.figure, "     - " + r.what, "     - " + r.paper,
                  "     - " + r.reading, "     - " + (r.ours or "-"), "     - " + r.verdict]
    return "\n".join(lines)


FIGURE_TABLES = ["fig9", "fig10", "fig11", "fig12", "sens", "swift"]
FIGURE_METRICS = [("avg_fct_s", 1e3, "%.2f"), ("p99_fct_s", 1e3, "%.1f"),
                  ("pause_rate_per_s", 1.0, "{:,.0f}")]


def fmt_cell(row, metric, scale, fmt):
    """'mean +- ci95' of one metric of a <fig>.csv row (the CI left out when unknown)."""
    mean = row[metric + "_mean"] * scale
    ci = row[metric + "_ci95"] * scale
    text = "-" if math.isnan(mean) else fmt.format(mean) if "{" in fmt else fmt % mean
    if not math.isnan(mean) and not math.isnan(ci):
        text += " +- " + (fmt.format(ci) if "{" in fmt else fmt % ci)
    return text


def figure_table(table, fig):
    """One <fig>.csv as an reStructuredText table: a row per variant and load with the average
    FCT (ms), p99 FCT (ms) and PAUSE frames per second, each mean +- 95% CI over the seeds, the
    number of seeds and how many of the point's runs were not at equilibrium (of them
    overloaded: "k (j overload)"); below it, the flagged runs and why (flagged_runs)."""
    rows, flagged = [], []
    for r in table.itertuples(index=False):
        r = r._asdict()
        bad = int(r.get("non_stationary", 0) or 0)
        over = r.get("overloaded", 0)
        over = 0 if over is None or (isinstance(over, float) and math.isnan(over)) else int(over)
        rows.append([str(r["variant"]), "%g" % r["load"]]
                    + [fmt_cell(r, m, sc, f) for m, sc, f in FIGURE_METRICS]
                    + [str(r["n"]), str(bad) + (" (%d overload)" % over if over else "")])
        text = r.get("flagged_runs")
        if isinstance(text, str) and text:
            flagged.append("%s %g: %s" % (r["variant"], r["load"], text))
    header = ["variant", "load", "avg FCT ms", "p99 FCT ms", "PAUSE/s", "seeds", "not at eq."]
    title = "%s (%s)" % (fig, ", ".join(sorted({str(w) for w in table.workload})))
    out = title + "\n\n" + simple_table(header, rows)
    if flagged:
        out += "\n\nNot at equilibrium:\n\n" + "\n".join("* " + f for f in flagged)
    return out


BIAS_METRICS = [("avg_fct_s", 1e3, "avg FCT ms", "%.2f"), ("p99_fct_s", 1e3, "p99 FCT ms", "%.1f"),
                ("pause_rate_per_s", 1.0, "PAUSE/s", "{:,.0f}")]


def bias_table(table, fig):
    """The bias of the fixed (nominal) window against the data-driven one in one <fig>.csv: a
    row per variant and load with, per metric, "old / new (bias)", the means over the seeds of
    the nominal window's and of the measured window's statistics and bias = old / new - 1. The
    seeds column says how many of them are old records ("3 (1 old)": measured in the fixed
    window only, their new values are their old ones)."""
    rows = []
    for r in table.itertuples(index=False):
        r = r._asdict()
        cells = []
        for m, scale, _, fmt in BIAS_METRICS:
            old, new = r.get("nominal_%s_mean" % m), r.get("%s_mean" % m)
            if old is None or new is None or math.isnan(old) or math.isnan(new):
                cells.append("-")
                continue
            f = (lambda x: fmt.format(x)) if "{" in fmt else (lambda x: fmt % x)
            bias = "" if new == 0 else " (%+.0f%%)" % (100.0 * (old / new - 1.0) + 0.0)
            cells.append("%s / %s%s" % (f(old * scale), f(new * scale), bias))
        old = r.get("fixed_window", 0)
        old = 0 if old is None or (isinstance(old, float) and math.isnan(old)) else int(old)
        rows.append([str(r["variant"]), "%g" % r["load"],
                     str(r["n"]) + (" (%d old)" % old if old else "")] + cells)
    header = (["variant", "load", "seeds"]
              + ["%s old / new" % name for _, _, name, _ in BIAS_METRICS])
    return "%s: fixed window (old) vs equilibrium (new)\n\n%s" % (fig, simple_table(header, rows))


def figure_tables(large, make=figure_table):
    """The tables (make: figure_table or bias_table) of every figure whose <fig>.csv exists in
    large."""
    out = []
    for fig in FIGURE_TABLES:
        path = os.path.join(large, fig + ".csv")
        if os.path.isfile(path):
            out.append(make(pd.read_csv(path), fig))
    return "\n\n".join(out)


RUN_TAGS = ["spread"]  # run-name suffixes of large_sweep.py figures that add arguments


def read_records(store, workload, load, tag=""):
    """{variant: {seed: record data}} of the run records in `store` at one load (run names
    ending in -TAG when tag is given, without a tag otherwise)."""
    import glob
    import json
    recs = {}
    suffix = ("-" + tag) if tag else ""
    for path in sorted(glob.glob(os.path.join(store, f"{workload}-*-load{load:g}-s*.json"))):
        with open(path) as f:
            rec = json.load(f)
        name = rec["run"]
        tagged = any(name.endswith("-" + t) for t in RUN_TAGS)
        if (tag and not name.endswith(suffix)) or (not tag and tagged):
            continue
        variant = name[len(workload) + 1:name.index(f"-load{load:g}-s")]
        seed = int(name.split(f"-load{load:g}-s")[1].split("-")[0])
        recs.setdefault(variant, {})[seed] = rec["data"]
    return recs


CAUSE_VARIANTS = ["dcqcn", "dcon", "dcon-raises", "dcon-listing", "dcon-cnmrateonly",
                  "dcon-tlastport", "dcon-hyper", "dcon-m1", "dcon-m2", "dcon-mqecn",
                  "dcon-mdesign", "dcon-dynpfc", "dcon-dynpfc-m2", "dcqcn-dynpfc",
                  "dcon-dcqcnsender", "dcon-prev"]


def causes_table(store, workload="websearch", load=0.8, variants_=CAUSE_VARIANTS):
    """Where DCON's pauses come from: per variant at one load, the mean over the seeds every
    listed variant has of: average FCT (ms), PAUSE/s (measured window), the PAUSE frames sent
    while flows arrived and after the arrivals stopped (the drain of the last flows), ECN
    marks, CNMs sent and the share that
    raised a rate, and the shares of the queues' congested time spent marking, latched off and
    in burst (the records of scripts/run_store.py in `store`). Returns (text, seeds used)."""
    recs = {v: r for v, r in read_records(store, workload, load).items() if v in variants_}
    present = [v for v in variants_ if v in recs]
    if not present:
        return "", []
    seeds = sorted(set.intersection(*(set(recs[v]) for v in present)))
    rows = []
    for v in present:
        def mean(fn):
            vals = [fn(recs[v][s]) for s in seeds]
            vals = [x for x in vals if x is not None]
            return sum(vals) / len(vals) if vals else math.nan
        dq = lambda d, k: (d.get("dcon_queues") or {}).get("shares_above_qecn", {}).get(k)
        cnm = lambda d, k: (d.get("cnms") or {}).get(k)
        sent = mean(lambda d: cnm(d, "sent"))
        raised = mean(lambda d: cnm(d, "raised_rate"))
        arrivals = mean(lambda d: d.get("arrival_pause_frames"))
        total = mean(lambda d: d.get("pause_frames_total"))
        rows.append([v, "%.2f" % (mean(lambda d: d["avg_fct_s"]) * 1e3),
                     "{:,.0f}".format(mean(lambda d: d["pause_rate_per_s"])),
                     "-" if math.isnan(total) else "{:,.0f} / {:,.0f}".format(
                         arrivals, total - arrivals),
                     "{:,.0f}".format(mean(lambda d: d["ecn_marks"])),
                     "-" if math.isnan(sent) else "{:,.0f}".format(sent),
                     "-" if math.isnan(sent) or sent == 0 else "%.1f%%" % (100 * raised / sent),
                     "-" if math.isnan(mean(lambda d: dq(d, "marking"))) else " / ".join(
                         "%.2f" % mean(lambda d: dq(d, k))
                         for k in ("marking", "latched", "burst"))])
    header = ["variant", "avg FCT ms", "PAUSE/s", "frames arr. / after", "ECN marks", "CNMs",
              "raised", "marking / latched / burst"]
    return simple_table(header, rows), seeds


SPREAD_VARIANTS = ["dcon", "dcqcn", "swift", "pcn", "dcon-raises"]


def spread_table(store, workload="websearch", load=0.8, variants_=SPREAD_VARIANTS):
    """Congestion spreading at one load (the records of large_sweep.py spread): per variant,
    the means over its seeds of the average FCT (ms), PAUSE/s (measured window), the PAUSE
    frames of the whole run, victim and culprit time (flow-seconds), the victim share, the
    flows victimized, the deepest pause tree (max over seeds) and the victim time per seed."""
    recs = read_records(store, workload, load, "spread")
    rows = []
    for v in [v for v in variants_ if v in recs]:
        seeds = sorted(recs[v])
        ds = [recs[v][s] for s in seeds]
        sp = [d.get("spreading") or {} for d in ds]

        def mean(vals):
            return sum(vals) / len(vals)

        rows.append([v, " ".join(map(str, seeds)),
                     "%.2f" % (mean([d["avg_fct_s"] for d in ds]) * 1e3),
                     "{:,.0f}".format(mean([d["pause_rate_per_s"] for d in ds])),
                     "{:,.0f}".format(mean([d["pause_frames_total"] for d in ds])),
                     "%.3f" % mean([x["victim_s"] for x in sp]),
                     "%.3f" % mean([x["culprit_s"] for x in sp]),
                     # (null in summary.json when no flow was held at all: not measured)
                     "-" if all(x["victim_share"] is None for x in sp) else "%.0f%%" % (
                         100 * mean([x["victim_share"] for x in sp
                                     if x["victim_share"] is not None])),
                     "{:,.0f}".format(mean([x["flows_victims"] for x in sp])),
                     str(max(x["max_depth"] for x in sp)),
                     " / ".join("%.3f" % x["victim_s"] for x in sp)])
    header = ["variant", "seeds", "avg FCT ms", "PAUSE/s", "frames (run)", "victim s",
              "culprit s", "share", "victims", "depth", "victim s per seed"]
    return simple_table(header, rows)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--large", default="results/large")
    ap.add_argument("--fig7", default="results/fig7")
    ap.add_argument("--testbed", default="results/testbed-readings")
    ap.add_argument("--out", default="results/claims.csv")
    ap.add_argument("--causes", metavar="STORE", nargs="?", const=os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "validation",
        "large"), help="also print where DCON's pauses come from at WebSearch load 0.8 (the "
        "DCON readings of the sens figure, from the run records in STORE)")
    ap.add_argument("--spread", metavar="STORE", nargs="?", const=os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "validation",
        "large"), help="also print congestion spreading at WebSearch load 0.8 (the records of "
        "scripts.large_sweep spread in STORE)")
    ap.add_argument("--tables", action="store_true",
                    help="also print each large-scale figure's table (LARGE/<fig>.csv): mean "
                         "+- 95%% CI of the average and p99 FCT and the pause rate per point")
    ap.add_argument("--figures", nargs="+", metavar="FIG", default=None,
                    help="keep only the claims of these figures (their figure column without "
                         "the panel letter, e.g. 'Fig. 9' for Fig. 9a-9c; 'Testbed'), in the "
                         "printed table and the CSV")
    ap.add_argument("--bias", action="store_true",
                    help="also print, per large-scale figure, the old (fixed, nominal window) "
                         "and the new (data-driven window) means of the average and p99 FCT and "
                         "the pause rate per point, and the old window's bias")
    args = ap.parse_args(argv)
    table = claims(args.large, args.fig7, args.testbed)
    if args.figures:
        keep = table.figure.map(lambda f: figure_of(f) in args.figures)
        if not keep.any():
            known = sorted(set(table.figure.map(figure_of)))
            print(f"error: --figures {' '.join(args.figures)} matches no claim (figures: "
                  f"{', '.join(known)})", file=sys.stderr)
            return 2
        table = table[keep]
    out_dir = os.path.dirname(args.out)
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    table.to_csv(args.out + ".part", index=False)  # complete or absent
    os.replace(args.out + ".part", args.out)
    print(rst(table))
    if args.tables:
        print()
        print(figure_tables(args.large))
    if args.bias:
        print()
        print(figure_tables(args.large, bias_table))
    if args.causes:
        text, seeds = causes_table(args.causes)
        print()
        print("Where the pauses come from, WebSearch load 0.8, seeds %s" %
              " ".join(map(str, seeds)))
        print()
        print(text)
    if args.spread:
        print()
        print("Congestion spreading, WebSearch load 0.8")
        print()
        print(spread_table(args.spread))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The testbed's facts (DCON paper Fig. 2 and 6) for every scheme variant, under every reading
of the scenario the paper leaves open.

Runs examples/dcon-testbed (defaults: burst from 30 ms, 60 ms run, 20 us samples) for each
variant of scripts/variants.py (default: the schemes and DCON's readings, VARIANTS below) under
three readings of the scenario:
  spacing    --burstInterval 15us (the paper's text, Fig. 7's default) and 230us (its 8 ms burst);
  placement  ecmp (the burst spread over S0 and S1 by per-flow ECMP) and vias0 (the burst pinned
             through S0, so that L2's port from S1 carries f0 and f1 only: --burstViaS0);
  start      fair (f0 and f1 start at their 20 Gb/s fair share, alpha 1: the default) and run
             (they start at line rate at t = 0 and converge by running before the burst:
             --longFlowStartRate=0);
and the seeds 1 (--seeds; ns-3's --RngRun). Every run measures congestion spreading
(--spreading: f0's and f1's victim and culprit time, the deepest pause tree). Runs go in parallel and resumably
(sweep_runner.py: RESULTS/NAME.tmp renamed to RESULTS/NAME once summary.json is written; finished
runs are skipped), NAME = <variant>-i<spacing>[-vias0][-run]-s<seed>, e.g. dcon-i15us-s1 (ECMP,
fair start) or dcon-i230us-vias0-s1.

Each finished run leaves a record in the repository (scripts/run_store.py; --store, default
data/validation/testbed): a run recorded there with today's arguments and model versions is not
run again, and the table is made from the records.

The facts are computed here from each run's files, with the rules of the C++ code
(helper/dcon-testbed.cc DconTestbed::GetFacts, helper/dcon-monitor.cc GetAverageThroughput):
  pauses X->Y   PAUSE frames sent by X to Y over the whole run (summary.json
                pause_frames_per_link; 0 when absent), for L2->S1, S1->L0 and S1->L1;
  mean(f, a, b) the mean of flow f's throughput.csv samples (Gb/s over the sample interval
                ending at time_s) whose interval lies in (a, b]: time_s - interval >= a and
                time_s <= b; 0 when there is none;
  burst end     the completion of the last burst flow (flow id >= 2), or the stop time when a
                burst flow has not completed (flows.csv lists completed flows only, summary.json
                flows_total all) or it completed later;
  before = mean(f, burstStart - 2 ms, burstStart), during = mean(f, burstStart, burst end),
  end = mean(f, stopTime - 3 ms, stopTime) (f0 only).
  DCQCN facts (Fig. 2, congestion spreading; expected for --cc=dcqcn): L2 pauses S1 (> 0),
  S1 pauses L0, S1 pauses L1, f0 collapses during the burst (during < 0.5 x before), f1
  collapses during the burst, f0 recovers after the burst (end > 0.5 x before).
  DCON facts (Fig. 6, direct notification; expected for --cc=dcon): L2 never pauses S1 (== 0),
  f1 is throttled during the burst (during < 0.5 x before), f0 keeps half its rate during the
  burst (during >= 0.5 x before).
Every fact is computed for every run; "expected" names the set the paper shows for the run's
--cc (none for PCN and Swift), "verdict" is PASS/FAIL over that set. Times are compared in
integer picoseconds (ns-3's resolution), as the C++ compares Time values. The numbers the
example prints (its stdout, kept in NAME/sweep.log) are parsed too and compared with these
("stdout_agrees"; they differ only by the CSV's rounding to 1e-6 Gb/s).

Usage: /usr/bin/python3 -m scripts.testbed_readings [--variants ...] [--spacings 15us 230us]
         [--seeds 1] [-j N] [--binary build/examples/dcon-testbed]
         [--results results/testbed-readings]
Writes RESULTS/readings.csv (one row per run) and prints the table.
"""
import argparse
import collections
import json
import math
import os
import re
import sys

import pandas as pd

from . import run_store
from .rst_table import simple_table
from . import sweep_runner
from . import variants

VARIANTS = ["dcqcn", "dcqcn-step", "pcn", "swift", "dcon", "dcon-qecn5", "dcon-listing",
            "dcon-raises", "dcon-cnmrateonly", "dcon-tlastport", "dcon-hyper", "dcon-m1",
            "dcon-m2", "dcon-mdesign", "dcon-ctrlstamp", "dcon-nqueued", "dcon-markinburst",
            "dcon-dcqcnsender", "dcon-prev", "dcon-old"]
SPACINGS = ["15us", "230us"]
PLACEMENTS = {"ecmp": [], "vias0": ["--burstViaS0=true"]}
STARTS = {"fair": [], "run": ["--longFlowStartRate=0"]}
DEFAULT_STORE = os.path.join(run_store.STORE_ROOT, "testbed")
# Passed explicitly, so the facts' windows do not depend on the example's defaults.
BURST_START, STOP_TIME, SAMPLE_INTERVAL = "30ms", "60ms", "20us"
BEFORE_WINDOW, END_WINDOW = "2ms", "3ms"
RUN_FILES = ("summary.json",)  # dcon-testbed writes it last
PAUSE_LINKS = [("L2", "S1"), ("S1", "L0"), ("S1", "L1")]
COLLAPSE = 0.5  # the facts' factor of the rate before the burst

Settings = collections.namedtuple("Settings", "burst_start stop_time sample_interval")
DEFAULT_SETTINGS = Settings(BURST_START, STOP_TIME, SAMPLE_INTERVAL)
TestbedRun = collections.namedtuple("TestbedRun", "variant spacing seed placement start",
                                    defaults=("ecmp", "fair"))

# (column, the C++ fact's name, set, rule on the readings r)
FACTS = [
    ("l2_pauses_s1", "L2 pauses S1", "dcqcn", lambda r: r["pauses_l2_s1"] > 0),
    ("s1_pauses_l0", "S1 pauses L0", "dcqcn", lambda r: r["pauses_s1_l0"] > 0),
    ("s1_pauses_l1", "S1 pauses L1", "dcqcn", lambda r: r["pauses_s1_l1"] > 0),
    ("f0_collapses", "f0 collapses during the burst", "dcqcn",
     lambda r: r["f0_during_gbps"] < COLLAPSE * r["f0_before_gbps"]),
    ("f1_collapses", "f1 collapses during the burst", "dcqcn",
     lambda r: r["f1_during_gbps"] < COLLAPSE * r["f1_before_gbps"]),
    ("f0_recovers", "f0 recovers after the burst", "dcqcn",
     lambda r: r["f0_end_gbps"] > COLLAPSE * r["f0_before_gbps"]),
    ("l2_never_pauses_s1", "L2 never pauses S1", "dcon", lambda r: r["pauses_l2_s1"] == 0),
    ("f1_throttled", "f1 is throttled during the burst", "dcon",
     lambda r: r["f1_during_gbps"] < COLLAPSE * r["f1_before_gbps"]),
    ("f0_keeps_half", "f0 keeps half its rate during the burst", "dcon",
     lambda r: r["f0_during_gbps"] >= COLLAPSE * r["f0_before_gbps"]),
]
READINGS = ["pauses_l2_s1", "pauses_s1_l0", "pauses_s1_l1", "f0_before_gbps",
            "f0_during_gbps", "f0_end_gbps", "f1_before_gbps", "f1_during_gbps", "burst_end_ms"]
# CNMs per flow and the congestion-spreading readings (every run measures it: --spreading), from
# the run's facts.json (written by dcon-testbed; NaN for an older run)
CNM_READINGS = ["cnms_f0", "cnms_f1", "cnms_f1_applied", "cnms_burst", "f0_victim_s",
                "f0_culprit_s", "f1_victim_s", "f1_culprit_s", "max_pause_depth"]


class ReadingsError(Exception):
    """A run directory that cannot be read; the message names the file."""


def ps(time_text):
    """A time like '30ms' in integer picoseconds."""
    return round(sweep_runner.seconds(time_text) * 1e12)


def run_name(run):
    return (f"{run.variant}-i{run.spacing}" + ("" if run.placement == "ecmp" else "-" + run.placement)
            + ("" if run.start == "fair" else "-" + run.start) + f"-s{run.seed}")


def plan(variant_names, spacings, seeds, placements=("ecmp",), starts=("fair",)):
    """{run name: TestbedRun}, variant by variant."""
    out = {}
    for v in variant_names:
        variants.get(v)  # VariantError for an unknown name
        for sp in spacings:
            for pl in placements:
                if pl not in PLACEMENTS:
                    raise sweep_runner.SweepError(
                        f"unknown placement {pl!r} (known: {', '.join(PLACEMENTS)})")
                for st in starts:
                    if st not in STARTS:
                        raise sweep_runner.SweepError(
                            f"unknown start {st!r} (known: {', '.join(STARTS)})")
                    for seed in seeds:
                        r = TestbedRun(v, sp, seed, pl, st)
                        out[run_name(r)] = r
    return out


def command(binary, run, outdir, settings=DEFAULT_SETTINGS):
    return ([binary] + variants.args(run.variant) + PLACEMENTS[run.placement] + STARTS[run.start]
            + [f"--burstInterval={run.spacing}", f"--burstStart={settings.burst_start}",
               f"--stopTime={settings.stop_time}",
               f"--sampleInterval={settings.sample_interval}", "--spreading=true",
               f"--outdir={outdir}",
               f"--RngRun={run.seed}"])


def _read_csv(path):
    try:
        return pd.read_csv(path)
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError) as e:
        raise ReadingsError(f"{path}: cannot read ({e})") from None


def mean_throughput(thr, flow, from_ps, to_ps, interval_ps):
    """GetAverageThroughput: mean gbps of the flow's samples with t - interval >= from and
    t <= to (t in integer ps); 0.0 without such a sample."""
    s = thr[thr.flow == flow]
    t = (s.time_s * 1e12).round().astype("int64")
    sel = s.gbps[(t - interval_ps >= from_ps) & (t <= to_ps)]
    return float(sel.mean()) if len(sel) else 0.0


def burst_end_ps(flows, flows_total, start_ps, stop_ps):
    """The last burst flow's completion (flow id >= 2), or the stop time when one has not
    completed or completed after it."""
    burst = flows[flows.flow_id >= 2]
    end = max([start_ps] + [round(x * 1e12) for x in burst.end_s])
    all_done = set(burst.flow_id.astype(int)) >= set(range(2, int(flows_total)))
    return end if all_done and end <= stop_ps else stop_ps


def readings(run_dir, settings=DEFAULT_SETTINGS):
    """The pause counts, throughputs and burst end of one testbed run directory (READINGS)."""
    try:
        with open(os.path.join(run_dir, "summary.json")) as f:
            summary = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise ReadingsError(f"{run_dir}/summary.json: cannot read ({e})") from None
    per_link = summary.get("pause_frames_per_link", {}) or {}
    r = {f"pauses_{a.lower()}_{b.lower()}": int(per_link.get(f"{a}->{b}", 0))
         for a, b in PAUSE_LINKS}
    thr = _read_csv(os.path.join(run_dir, "throughput.csv"))
    flows = _read_csv(os.path.join(run_dir, "flows.csv"))
    if "flows_total" not in summary:
        raise ReadingsError(f"{run_dir}/summary.json: no flows_total")
    start, stop = ps(settings.burst_start), ps(settings.stop_time)
    interval = ps(settings.sample_interval)
    end = burst_end_ps(flows, summary["flows_total"], start, stop)
    before = start - ps(BEFORE_WINDOW)
    r.update(f0_before_gbps=mean_throughput(thr, 0, before, start, interval),
             f0_during_gbps=mean_throughput(thr, 0, start, end, interval),
             f0_end_gbps=mean_throughput(thr, 0, stop - ps(END_WINDOW), stop, interval),
             f1_before_gbps=mean_throughput(thr, 1, before, start, interval),
             f1_during_gbps=mean_throughput(thr, 1, start, end, interval),
             burst_end_ms=end / 1e9)
    r.update(cnm_readings(run_dir))
    return r


def cnm_readings(run_dir):
    """CNM_READINGS from the run's facts.json (NaN each when the file or the key is missing)."""
    try:
        with open(os.path.join(run_dir, "facts.json")) as f:
            facts_json = json.load(f)
    except (OSError, json.JSONDecodeError):
        facts_json = {}
    return {k: float(facts_json[k]) if k in facts_json else math.nan for k in CNM_READINGS}


def facts(r):
    """{fact column: bool} of a readings dict."""
    return {col: bool(rule(r)) for col, _, _, rule in FACTS}


def verdict(fact_values, cc):
    """(expected set name or "none", "PASS" | "FAIL" | "-", [names of the failed facts])."""
    expected = cc if cc in ("dcqcn", "dcon") else "none"
    failed = [name for col, name, which, _ in FACTS
              if which == expected and not fact_values[col]]
    return expected, ("-" if expected == "none" else "FAIL" if failed else "PASS"), failed


STDOUT_PATTERNS = [
    (re.compile(r"PAUSE frames L2->S1 (\d+), S1->L0 (\d+), S1->L1 (\d+)"),
     ["pauses_l2_s1", "pauses_s1_l0", "pauses_s1_l1"]),
    (re.compile(r"f0 throughput \(Gb/s\): before burst (\S+), during (\S+), end of run (\S+)"),
     ["f0_before_gbps", "f0_during_gbps", "f0_end_gbps"]),
    (re.compile(r"f1 throughput \(Gb/s\): before burst (\S+), during (\S+)"),
     ["f1_before_gbps", "f1_during_gbps"]),
    (re.compile(r"burst from \S+ to \+?(\S+)ms"), ["burst_end_ms"]),
]


def parse_stdout(text):
    """The readings the example printed ({} for what is not found)."""
    out = {}
    for pattern, keys in STDOUT_PATTERNS:
        m = pattern.search(text)
        if m:
            out.update({k: float(v.rstrip(",")) for k, v in zip(keys, m.groups())})
    return out


def agrees(computed, printed):
    """True when every printed reading equals the computed one up to the printing (6
    significant digits) and the CSV's rounding; None when nothing was printed."""
    if not printed:
        return None
    return all(math.isclose(computed[k], v, rel_tol=1e-4, abs_tol=1e-5)
               for k, v in printed.items())


def run_stdout(run_dir):
    """The stdout section of the sweep.log sweep_runner keeps ('' when there is none)."""
    try:
        with open(os.path.join(run_dir, "sweep.log")) as f:
            text = f.read()
    except OSError:
        return ""
    return text.split("--- stdout\n", 1)[-1].split("\n--- stderr\n", 1)[0]


COLUMNS = (["run", "variant", "label", "cc", "spacing", "placement", "start", "seed"] + READINGS
           + CNM_READINGS + [c for c, _, _, _ in FACTS]
           + ["expected", "verdict", "failed_facts", "stdout_agrees"])


def run_args(run, settings=DEFAULT_SETTINGS):
    """The simulator arguments that define a run (its command without binary and outdir)."""
    return [a for a in command("BINARY", run, "OUTDIR", settings)
            if a != "BINARY" and not a.startswith("--outdir=")]


def table(results, runs, settings=DEFAULT_SETTINGS, store=None):
    """One row per finished run of {name: TestbedRun}: from its current record in `store` (a
    folder of scripts/run_store.py records, or None), else from its folder in results, which then
    becomes its record. Returns (DataFrame, error messages)."""
    rows, errors = [], []
    for name, run in runs.items():
        args = run_args(run, settings)
        try:
            data = run_store.current(store, name, args) if store else None
        except run_store.StoreError as e:
            errors.append(str(e))
            data = None
        if data is None:
            d = os.path.join(results, name)
            if not sweep_runner.is_complete(d, RUN_FILES):
                continue
            try:
                r = readings(d, settings)
            except ReadingsError as e:
                errors.append(str(e))
                continue
            data = dict(r, stdout_agrees=agrees(r, parse_stdout(run_stdout(d))))
            if store:
                try:
                    run_store.save(store, name, args, data)
                except run_store.StoreError as e:
                    errors.append(str(e))
        r = {k: data.get(k, math.nan) for k in READINGS + CNM_READINGS}
        f = facts(r)
        cc = variants.cc(run.variant)
        expected, v, failed = verdict(f, cc)
        rows.append({"run": name, "variant": run.variant, "label": variants.label(run.variant),
                     "cc": cc, "spacing": run.spacing, "placement": run.placement,
                     "start": run.start, "seed": run.seed, **r, **f,
                     "expected": expected, "verdict": v, "failed_facts": "; ".join(failed),
                     "stdout_agrees": data.get("stdout_agrees")})
    return pd.DataFrame(rows, columns=COLUMNS), errors


def print_table(t):
    cols = ["variant", "spacing", "placement", "start", "seed", "pauses_l2_s1", "pauses_s1_l0", "pauses_s1_l1",
            "f0_before_gbps", "f0_during_gbps", "f0_end_gbps", "f1_before_gbps",
            "f1_during_gbps", "burst_end_ms", "cnms_f0", "cnms_f1", "verdict"]
    short = t[cols].rename(columns=lambda c: c.replace("pauses_", "").replace("_gbps", ""))
    print(short.to_string(index=False, float_format=lambda x: "%.3f" % x))
    for _, row in t[t.verdict == "FAIL"].iterrows():
        print(f"  {row.run}: FAIL {row.failed_facts}")


DOC_COLUMNS = [("PAUSE", lambda g: "%d / %d / %d" % tuple(
                    round(g[c].mean()) for c in ("pauses_l2_s1", "pauses_s1_l0", "pauses_s1_l1"))),
               ("f0", lambda g: "%.1f / %.2f / %.1f" % tuple(
                   g[c].mean() for c in ("f0_before_gbps", "f0_during_gbps", "f0_end_gbps"))),
               ("f1", lambda g: "%.2f" % g.f1_during_gbps.mean()),
               ("CNMs f0/f1", lambda g: "-" if g.cnms_f1.isna().all() or (
                   g.cnms_f0.fillna(0) + g.cnms_f1.fillna(0) == 0).all() else "%d / %d" % (
                   round(g.cnms_f0.mean()), round(g.cnms_f1.mean()))),
               ("f0 victim ms", lambda g: "-" if g.f0_victim_s.isna().all()
                else "%.2f" % (1e3 * g.f0_victim_s.mean())),
               ("facts", lambda g: fact_summary(g))]


def fact_summary(g):
    """The paper's facts of the rows' scheme that hold in every seed: "Fig. 2: 6 of 6" etc."""
    expected = g.expected.iloc[0]
    if expected not in ("dcqcn", "dcon"):
        return "(none published)"
    cols = [(c, name) for c, name, which, _ in FACTS if which == expected]
    held = [name for c, name in cols if g[c].astype(bool).all()]
    fig = "Fig. 2" if expected == "dcqcn" else "Fig. 6"
    if len(held) == len(cols):
        return f"{fig}: all {len(cols)}"
    return f"{fig}: {len(held)} of {len(cols)}" + ("" if not held else " (" + ", ".join(
        name.replace(" during the burst", "") for name in held) + ")")


def doc_tables(t, variant_names):
    """reStructuredText simple tables, one per configuration (spacing, placement, start), a
    row per variant: means over the seeds (only DCQCN's RED marking is random)."""
    out = []
    for (sp, pl, st), cfg in t.groupby(["spacing", "placement", "start"], sort=False):
        rows = []
        for v in variant_names:
            g = cfg[cfg.variant == v]
            if len(g):
                rows.append([v] + [fn(g) for _, fn in DOC_COLUMNS])
        out.append(simple_table([f"{sp}, {pl}, {st}"] + [name for name, _ in DOC_COLUMNS], rows))
    return "\n\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--variants", nargs="+", default=VARIANTS,
                    help="variants (scripts/variants.py; default: %(default)s)")
    ap.add_argument("--spacings", nargs="+", default=SPACINGS,
                    help="burst spacings (--burstInterval; default %(default)s)")
    ap.add_argument("--placements", nargs="+", default=["ecmp"],
                    help="burst placements: ecmp, vias0 (default %(default)s)")
    ap.add_argument("--starts", nargs="+", default=["fair"],
                    help="how f0 and f1 reach the fair share: fair (start at 20 Gb/s), run "
                         "(start at line rate and converge) (default %(default)s)")
    ap.add_argument("--all-readings", action="store_true",
                    help="every spacing, placement and start (the readings table of the doc)")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1],
                    help="ns-3 run numbers (--RngRun) >= 1 (default 1)")
    ap.add_argument("--doc-tables", action="store_true",
                    help="also print the tables of doc/dcon.rst's validation section (one per "
                         "configuration, means over the seeds)")
    ap.add_argument("--store", default=DEFAULT_STORE,
                    help="folder of the runs' records in the repository (scripts/run_store.py; "
                         "'none': no records; default %(default)s)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--binary", default="build/examples/dcon-testbed")
    ap.add_argument("--results", default=os.path.join("results", "testbed-readings"))
    args = ap.parse_args(argv)
    try:
        if args.jobs < 1:
            raise sweep_runner.SweepError(f"--jobs must be >= 1, got {args.jobs}")
        bad = [s for s in args.seeds if s < 1]
        if bad:
            raise sweep_runner.SweepError(f"--seeds must be >= 1, got {bad[0]}")
        if args.all_readings:
            args.spacings, args.placements, args.starts = SPACINGS, list(PLACEMENTS), list(STARTS)
        spacings = [sweep_runner.canonical_time(s, "--spacings") for s in args.spacings]
        try:
            runs = plan(args.variants, list(dict.fromkeys(spacings)),
                        list(dict.fromkeys(args.seeds)), list(dict.fromkeys(args.placements)),
                        list(dict.fromkeys(args.starts)))
        except variants.VariantError as e:
            raise sweep_runner.SweepError(str(e)) from None
        store = None if args.store == "none" else args.store
        os.makedirs(args.results, exist_ok=True)
        try:
            todo = {n: r for n, r in runs.items()
                    if not (store and run_store.current(store, n, run_args(r)) is not None)}
        except run_store.StoreError as e:
            raise sweep_runner.SweepError(str(e)) from None
        if len(todo) < len(runs):
            print(f"{len(runs) - len(todo)} of {len(runs)} runs have a current record in {store}")
        failures = sweep_runner.execute(
            todo, lambda run, outdir: command(args.binary, run, outdir), args.binary,
            args.results, args.jobs, RUN_FILES, "testbed runs")
    except sweep_runner.SweepError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    t, errors = table(args.results, runs, store=store)
    path = os.path.join(args.results, "readings.csv")
    t.to_csv(path, index=False)
    if len(t):
        print_table(t)
    if args.doc_tables and len(t):
        print()
        print(doc_tables(t, list(dict.fromkeys(args.variants))))
    print(f"wrote {path} ({len(t)} runs)")
    disagree = t[t.stdout_agrees == False]  # noqa: E712
    for name in disagree.run:
        print(f"warning: {name}: the facts computed here differ from the example's printed "
              "numbers (see its sweep.log)", file=sys.stderr)
    failures += errors
    return sweep_runner.report_failures(failures)


if __name__ == "__main__":
    sys.exit(main())

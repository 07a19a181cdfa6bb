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

The readings and the facts are dcon-testbed's own, read from each run's facts.json (written by
DconTestbedFacts::WriteJson, experiments/dcon-testbed.cc, the code behind --validate): nothing is
computed here again. Per run:
  pauses X->Y   PAUSE frames X sent to Y, for L2->S1, S1->L0 and S1->L1;
  f0/f1 before, during, end   mean throughput (Gb/s) of f0 and f1 in the 2 ms before the burst,
                during the burst (up to its last flow's completion, or the stop time) and, for
                f0, in the last 3 ms of the run; burst end;
  CNMs per flow and congestion spreading (victim and culprit time of f0 and f1, deepest pause);
  every fact of Fig. 2 (DCQCN, congestion spreading: L2 pauses S1, S1 pauses L0, S1 pauses L1,
  f0 and f1 collapse during the burst, f0 recovers after it) and Fig. 6 (DCON, direct
  notification: L2 never pauses S1, f1 is throttled during the burst, f0 keeps half its rate
  during the burst) with whether it holds (facts.json also gives each fact's value, relation
  and threshold), and the facts the paper shows for the run's --cc ("expected": dcqcn, dcon or
  none for PCN and Swift) with the verdict over them (PASS, FAIL, "-" for none).
A run's record (and so readings.csv) keeps the readings, which facts hold, expected and verdict.
The records made before this module read facts.json (data/validation/testbed) hold the readings
it then computed from each run's CSV files by the rules of the C++ code, and the facts derived
from them, which are the C++'s (no reading lies within 0.007 Gb/s of its threshold); a record
without facts is not current, so its run is done again.

The simulator is the fastest build's dcon-testbed (build-opt/bin or build-mpi/bin when up to
date, else build/: scripts/builds.py; --build DIR or --binary PATH to choose); each run's record
and row of readings.csv say which build made it (the build column; a table that mixes builds is
warned of). --scheduler runs the runs on a Dask cluster (scripts/sweep_runner.py) instead of the
local pool of -j processes.

Usage: /usr/bin/python3 -m scripts.testbed_readings [--variants ...] [--spacings 15us 230us]
         [--seeds 1] [-j N] [--build DIR | --binary PATH] [--scheduler ADDRESS]
         [--results results/testbed-readings]
Writes RESULTS/readings.csv (one row per run) and prints the table.
"""
import argparse
import collections
import json
import math
import os
import sys

import pandas as pd

from . import builds
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
RUN_FILES = ("facts.json", "summary.json")  # dcon-testbed writes summary.json last

Settings = collections.namedtuple("Settings", "burst_start stop_time sample_interval")
DEFAULT_SETTINGS = Settings(BURST_START, STOP_TIME, SAMPLE_INTERVAL)
TestbedRun = collections.namedtuple("TestbedRun", "variant spacing seed placement start",
                                    defaults=("ecmp", "fair"))

# (column, the fact's name in facts.json, the set of the paper it belongs to)
FACTS = [
    ("l2_pauses_s1", "L2 pauses S1", "dcqcn"),
    ("s1_pauses_l0", "S1 pauses L0", "dcqcn"),
    ("s1_pauses_l1", "S1 pauses L1", "dcqcn"),
    ("f0_collapses", "f0 collapses during the burst", "dcqcn"),
    ("f1_collapses", "f1 collapses during the burst", "dcqcn"),
    ("f0_recovers", "f0 recovers after the burst", "dcqcn"),
    ("l2_never_pauses_s1", "L2 never pauses S1", "dcon"),
    ("f1_throttled", "f1 is throttled during the burst", "dcon"),
    ("f0_keeps_half", "f0 keeps half its rate during the burst", "dcon"),
]
FACT_COLUMNS = [c for c, _, _ in FACTS]
SET_OF_FIGURE = {"Fig. 2": "dcqcn", "Fig. 6": "dcon"}  # facts.json's figures -> set names
# facts.json's verdict -> the table's ("NOT JUDGED": no expected fact fails, but one compares a
# reading that was not measured, e.g. an empty window; such a fact's "holds" is null)
VERDICTS = {"PASS": "PASS", "FAIL": "FAIL", "NOT JUDGED": "NOT JUDGED", "none": "-"}
# facts.json's numbers (burst_end_ms: its burst_end_s in ms)
READINGS = ["pauses_l2_s1", "pauses_s1_l0", "pauses_s1_l1", "f0_before_gbps",
            "f0_during_gbps", "f0_end_gbps", "f1_before_gbps", "f1_during_gbps", "burst_end_ms"]
# CNMs per flow and the congestion-spreading readings (every run measures it: --spreading; NaN
# when facts.json has none)
CNM_READINGS = ["cnms_f0", "cnms_f1", "cnms_f1_applied", "cnms_burst", "f0_victim_s",
                "f0_culprit_s", "f1_victim_s", "f1_culprit_s", "max_pause_depth"]


class ReadingsError(Exception):
    """A run directory that cannot be read; the message names the file."""


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


def read_facts(run_dir):
    """A run's readings and facts from its facts.json, as kept in its record: READINGS,
    CNM_READINGS, "facts" {column: holds (None: not judged)} for every fact of FACTS,
    "expected" (the set of the facts the paper shows for the run: dcqcn, dcon or none) and
    "verdict" (PASS, FAIL, NOT JUDGED or -).
    ReadingsError, naming the file, when it cannot be read or lacks a fact."""
    path = os.path.join(run_dir, "facts.json")
    try:
        with open(path) as f:
            data = json.load(f)
        if not isinstance(data, dict):
            raise TypeError("not an object")
        # (a reading that was not measured is null in facts.json: NaN here)
        out = {k: math.nan if data[k] is None else data[k] for k in READINGS[:-1]}
        # (null without a burst: --burstFlowsPerHost=0)
        out["burst_end_ms"] = math.nan if data["burst_end_s"] is None else data["burst_end_s"] * 1e3
        out.update({k: float(data[k]) if k in data else math.nan for k in CNM_READINGS})
        listed = {x["fact"]: x for x in data["facts"]}
        missing = [name for _, name, _ in FACTS if name not in listed]
        if missing:
            raise ReadingsError(f"{path}: no fact {missing[0]!r}")
        # True, False, or None for a fact that was not judged (facts.json's null)
        out["facts"] = {col: None if listed[name]["holds"] is None else bool(listed[name]["holds"])
                        for col, name, _ in FACTS}
        figures = {x["figure"] for x in data["facts"] if x["expected"]}
        out["expected"] = SET_OF_FIGURE.get(min(figures)) if len(figures) == 1 else "none"
        out["verdict"] = VERDICTS.get(data["verdict"])
        if out["expected"] is None or out["verdict"] is None or (
                (out["expected"] == "none") != (out["verdict"] == "-")):
            raise ReadingsError(f"{path}: unknown verdict {data['verdict']!r} of the facts "
                                f"expected ({', '.join(sorted(figures)) or 'none'})")
    except (OSError, ValueError) as e:
        raise ReadingsError(f"{path}: cannot read ({e})") from None
    except KeyError as e:
        raise ReadingsError(f"{path}: no {e} (not a facts.json of dcon-testbed)") from None
    except (TypeError, AttributeError) as e:
        raise ReadingsError(f"{path}: not a facts.json of dcon-testbed ({e})") from None
    return out


def failed_facts(facts, expected):
    """The names of the expected facts that do not hold (a fact that was not judged neither
    holds nor fails)."""
    return [name for col, name, which in FACTS if which == expected and facts[col] is False]


COLUMNS = (["run", "variant", "label", "cc", "spacing", "placement", "start", "seed"] + READINGS
           + CNM_READINGS + FACT_COLUMNS + ["expected", "verdict", "failed_facts", "build"])


def run_args(run, settings=DEFAULT_SETTINGS):
    """The simulator arguments that define a run (its command without binary and outdir)."""
    return [a for a in command("BINARY", run, "OUTDIR", settings)
            if a != "BINARY" and not a.startswith("--outdir=")]


def stored(store, name, args, record=False):
    """The data of run `name`'s current record in `store` (its whole record with record=True;
    None when there is none, or when the record has no facts: made before facts.json was read,
    so the run is done again)."""
    rec = run_store.current(store, name, args, record=True) if store else None
    if rec is None or "facts" not in rec["data"]:
        return None
    return rec if record else rec["data"]


def table(results, runs, settings=DEFAULT_SETTINGS, store=None):
    """One row per finished run of {name: TestbedRun}: from its current record in `store` (a
    folder of scripts/run_store.py records, or None), else from its folder in results (its
    facts.json), which then becomes its record; its build column names the build that made the
    run (scripts/builds.py). Returns (DataFrame, error messages)."""
    rows, errors = [], []
    for name, run in runs.items():
        args = run_args(run, settings)
        try:
            rec = stored(store, name, args, record=True)
        except run_store.StoreError as e:
            errors.append(str(e))
            rec = None
        data, build = (rec["data"], rec.get("build")) if rec else (None, None)
        if data is None:
            d = os.path.join(results, name)
            if not sweep_runner.is_complete(d, RUN_FILES):
                continue
            try:
                data = read_facts(d)
            except ReadingsError as e:
                errors.append(str(e))
                continue
            build = builds.of_run(d)
            if store:
                try:
                    run_store.save(store, name, args, data, build=build,
                                   resources=sweep_runner.read_resources(d))
                except run_store.StoreError as e:
                    errors.append(str(e))
        r = {k: data.get(k, math.nan) for k in READINGS + CNM_READINGS}
        rows.append({"run": name, "variant": run.variant, "label": variants.label(run.variant),
                     "cc": variants.cc(run.variant), "spacing": run.spacing,
                     "placement": run.placement, "start": run.start, "seed": run.seed, **r,
                     **data["facts"], "expected": data["expected"], "verdict": data["verdict"],
                     "failed_facts": "; ".join(failed_facts(data["facts"], data["expected"])),
                     "build": builds.label(build)})
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
    cols = [(c, name) for c, name, which in FACTS if which == expected]
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
                    help="also print the tables of doc/validation/testbed.rst (one per "
                         "configuration, means over the seeds)")
    ap.add_argument("--store", default=DEFAULT_STORE,
                    help="folder of the runs' records in the repository (scripts/run_store.py; "
                         "'none': no records; default %(default)s)")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--build", default=None,
                    help="build folder of dcon-testbed (default: the fastest up-to-date one, "
                         "build-mpi/bin or build/; scripts/builds.py)")
    ap.add_argument("--binary", default=None, help="the simulator itself (instead of --build)")
    sweep_runner.add_executor_option(ap)
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
            todo = {n: r for n, r in runs.items() if stored(store, n, run_args(r)) is None}
        except run_store.StoreError as e:
            raise sweep_runner.SweepError(str(e)) from None
        if len(todo) < len(runs):
            print(f"{len(runs) - len(todo)} of {len(runs)} runs have a current record in {store}")
        choice = None if args.binary else builds.choose("dcon-testbed", args.build)
        binary = args.binary or choice.binary
        if todo and choice and choice.note:
            print(choice.note)
        failures = sweep_runner.execute(
            todo, lambda run, outdir: command(binary, run, outdir), binary,
            args.results, args.jobs, RUN_FILES, "testbed runs", args.scheduler)
    except sweep_runner.SweepError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    t, errors = table(args.results, runs, store=store)
    path = os.path.join(args.results, "readings.csv")
    t.to_csv(path, index=False)
    builds.warn_if_mixed(t.build, "readings.csv")
    if len(t):
        print_table(t)
    if args.doc_tables and len(t):
        print()
        print(doc_tables(t, list(dict.fromkeys(args.variants))))
    print(f"wrote {path} ({len(t)} runs)")
    failures += errors
    return sweep_runner.report_failures(failures)


if __name__ == "__main__":
    sys.exit(main())

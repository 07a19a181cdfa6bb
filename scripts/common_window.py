"""The schemes of a large-scale figure compared seed by seed over a common window.

Usage: /usr/bin/python3 -m scripts.common_window FIG --load L [--seeds S ...]
         [--variants V ...] [--reference V] [--store DIR] [--quick] [--csv PATH]

Runs of one seed and arrival window replay the same flows whatever the scheme, so averages over
one window of arrivals compare the same flows, and the luck of which elephants fall in a window
(DataMining: 3% of the flows hold 85% of the flow-time) cancels out of the comparison. Each
run's own measured window starts where its data says (fct_stats.py, Equilibrium), so the
schemes' windows differ; this script measures them all over the window every one of them is at
equilibrium in.

For each seed: the store's records of FIG's variants at load L (full scale, the figure's
windows; with their --extend extensions), the longest arrival window every variant has a record
of (with start bins: fct_stats.py, Start bins; records made before them are left out and
named); the common window [the latest measured_start_s, the earliest measured_end_s] of those
records, cut to whole 10 ms bins; per variant over it: the average FCT, the completed flows,
the completion ratio and the PAUSE rate (fct_stats.bins_window), its verdict (flag_text of its
record: the common window lies inside its measured window, so a flag stands) and its average
FCT over the reference's (--reference, default dcon, or the first variant). Then over the
seeds: each variant's mean ratio and the 95% CI of that mean (seed_stats.mean_std_ci95). A
seed with fewer than two variants, or no common window, is skipped and said so.
"""
import argparse
import math
import sys

import pandas as pd

from . import fct_stats, large_sweep, seed_stats


class CommonWindowError(Exception):
    """Bad arguments or no data to compare."""


def sweep_settings(fig, load, seed, store, quick=False):
    """The settings of scripts.large_sweep for FIG at one load and seed (its --quick ones with
    quick)."""
    return large_sweep.parse_args([fig, "--loads", repr(float(load)), "--seeds", str(seed),
                                   "--store", store] + (["--quick"] if quick else [])).settings


def seed_records(fig, load, seed, store, variants=None, quick=False):
    """Per variant the records of its run and extensions that have start bins ({variant:
    [(Run, data), ...]}, shortest first), and the names of the records without them."""
    settings = dict(sweep_settings(fig, load, seed, store, quick), only_variants=variants)
    runs = large_sweep.plan([fig], **settings)
    have = large_sweep.stored(large_sweep.with_extensions(runs, "/nonexistent", store), store)
    out, missing = {}, []
    for run in runs.values():
        chain, r = [], run
        while large_sweep.run_name(r) in have:
            data = have[large_sweep.run_name(r)]
            if data.get("start_bins"):
                chain.append((r, data))
            else:
                missing.append(large_sweep.run_name(r))
            r = large_sweep.extended(r)
        if chain:
            out[run.variant] = chain
    return out, missing


def compare_seed(chains, reference):
    """The rows of one seed: the longest arrival window every variant has, the common window of
    those records and each variant's numbers over it (module docstring). Returns (rows, note);
    rows empty with a note when the seed cannot be compared."""
    if len(chains) < 2:
        return [], "fewer than two variants with start bins"
    durations = set.intersection(*[{r.duration for r, _ in c} for c in chains.values()])
    if not durations:
        return [], "no arrival window that every variant has"
    d = max(durations, key=large_sweep.seconds)
    picked = {v: next((r, data) for r, data in c if r.duration == d) for v, c in chains.items()}
    start = max(data["measured_start_s"] for _, data in picked.values())
    end = min(data["measured_end_s"] for _, data in picked.values())
    rows = []
    for v, (r, data) in picked.items():
        try:
            w = fct_stats.bins_window(data["start_bins"], start, end)
        except fct_stats.StatsError as e:
            return [], f"no common window ({e})"
        rows.append({"variant": v, "seed": r.seed, "arrival_window": d, "run":
                     large_sweep.run_name(r), "start_s": w["start_s"], "end_s": w["end_s"],
                     "avg_fct_s": w["avg_fct_s"], "fct_count": w["fct_count"],
                     "completion_ratio": w["completion_ratio"],
                     "pause_rate_per_s": w["pause_rate_per_s"],
                     "own_avg_fct_s": data.get("avg_fct_s"),
                     "flag": fct_stats.flag_text(data)})
    ref = next((x for x in rows if x["variant"] == reference), None)
    for x in rows:
        x["vs_reference"] = (x["avg_fct_s"] / ref["avg_fct_s"]
                             if ref and ref["avg_fct_s"] and x["avg_fct_s"] is not None
                             else math.nan)
    return rows, None


def compare(fig, load, seeds, store, variants=None, reference=None, quick=False):
    """(table of every compared seed's rows, summary over seeds, notes) (module docstring)."""
    rows, notes = [], []
    f = large_sweep.FIGURES.get(fig)
    if f is None:
        raise CommonWindowError(f"unknown figure {fig!r} (choose from "
                                f"{', '.join(large_sweep.FIG_NAMES)})")
    names = [v for v in f.variants if variants is None or v in variants]
    if variants is not None:
        unknown = [v for v in variants if v not in f.variants]
        if unknown:
            raise CommonWindowError(f"{fig} has no variant {unknown[0]!r} (it has "
                                    f"{', '.join(f.variants)})")
    reference = reference or ("dcon" if "dcon" in names else names[0])
    if reference not in names:
        raise CommonWindowError(f"--reference {reference!r} is not among the variants "
                                f"compared ({', '.join(names)})")
    for seed in seeds:
        chains, missing = seed_records(fig, load, seed, store, names, quick)
        if missing:
            notes.append("seed %d: records without start bins left out: %s"
                         % (seed, ", ".join(missing)))
        got, note = compare_seed(chains, reference)
        if note:
            notes.append(f"seed {seed}: {note}")
        rows += got
    table = pd.DataFrame(rows, columns=[
        "variant", "seed", "arrival_window", "run", "start_s", "end_s", "avg_fct_s", "fct_count",
        "completion_ratio", "pause_rate_per_s", "own_avg_fct_s", "flag", "vs_reference"])
    summary = []
    for v in names:
        t = table[table.variant == v]
        if not len(t):
            continue
        n, mean, _, ci = seed_stats.mean_std_ci95(t.vs_reference)
        summary.append({"variant": v, "seeds": len(t), "mean_avg_fct_s": t.avg_fct_s.mean(),
                        "vs_reference": mean, "vs_reference_ci95": ci})
    return table, pd.DataFrame(summary), reference, notes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("fig", metavar="FIG", help="a figure of scripts.large_sweep (fig9, fig10, ...)")
    ap.add_argument("--load", type=float, required=True, help="the load compared")
    ap.add_argument("--seeds", type=int, nargs="+", default=list(large_sweep.SEEDS))
    ap.add_argument("--variants", nargs="+", default=None,
                    help="the variants compared (default: the figure's)")
    ap.add_argument("--reference", default=None,
                    help="the variant the others' average FCT is divided by (default dcon)")
    ap.add_argument("--store", default=large_sweep.DEFAULT_STORE,
                    help="the run records (default %(default)s)")
    ap.add_argument("--quick", action="store_true",
                    help="the runs of scripts.large_sweep --quick (small fabric, short windows)")
    ap.add_argument("--csv", default=None, help="also write the per-seed rows to this file")
    args = ap.parse_args(argv)
    try:
        table, summary, ref, notes = compare(args.fig, args.load, args.seeds, args.store,
                                             args.variants, args.reference, args.quick)
    except (CommonWindowError, large_sweep.SweepError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for note in notes:
        print(note)
    if not len(table):
        print("nothing to compare")
        return 1
    for seed, t in table.groupby("seed", sort=True):
        r = t.iloc[0]
        print("seed %d, %s of arrivals, common window %.4g-%.4g s:" % (
            seed, r.arrival_window, r.start_s, r.end_s))
        for _, x in t.iterrows():
            print("  %-12s %7.3f ms (own window %s ms), %6d flows, PAUSE %9.0f /s, x%.3f of %s%s"
                  % (x.variant, 1e3 * x.avg_fct_s,
                     "-" if x.own_avg_fct_s is None or x.own_avg_fct_s != x.own_avg_fct_s
                     else "%.3f" % (1e3 * x.own_avg_fct_s),
                     x.fct_count, x.pause_rate_per_s, x.vs_reference, ref,
                     "; " + x.flag if x.flag else ""))
    print("over the seeds (average FCT / %s's, mean +- 95%% CI):" % ref)
    for _, s in summary.iterrows():
        print("  %-12s %d seed(s): x%.3f%s" % (
            s.variant, s.seeds, s.vs_reference,
            "" if s.vs_reference_ci95 != s.vs_reference_ci95
            else " +- %.3f" % s.vs_reference_ci95))
    if args.csv:
        table.to_csv(args.csv, index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())

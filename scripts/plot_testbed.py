"""Draw the DCON paper's testbed figure (Fig. 2 for DCQCN, Fig. 6 for DCON) from runs of
examples/dcon-testbed.

One column per run directory (e.g. DCQCN and DCON side by side), three rows:
  1. queue lengths: L2's egress to R1 (P2/L2), L2's ingress from S1 (P1/L2), S1's egress to
     L2 (P0/S1), with the PFC pause threshold;
  2. PFC pause-frame rate per link (L2->S1, S1->L0, S1->L1), frames per second in bins;
  3. throughput of f0 and f1;
and under each column the facts of the paper's Fig. 2 (DCQCN) and Fig. 6 (DCON) that the run
shows or not (the run's facts.json, written by dcon-testbed): the facts the paper shows for the
run's scheme first, marked "holds" or "FAILS" with the comparison that decides it (value,
relation, threshold), or "----" with the reason when it was not judged (it compares a reading
that was not measured: an empty window, no sample in it), then the other figure's, in grey.
A throughput of facts.json that was not measured is null there; the panels draw the samples.

Usage: /usr/bin/python3 -m scripts.plot_testbed RUN_DIR [RUN_DIR ...] -o figure.png
"""
import argparse
import json
import os
import sys
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

QUEUES = [  # (node, port label, kind, legend)
    ("L2", "R1", "egress", "P2/L2 egress to R1"),
    ("L2", "S1", "ingress", "P1/L2 ingress from S1"),
    ("S1", "L2", "egress", "P0/S1 egress to L2"),
]
PAUSE_LINKS = [("L2", "S1"), ("S1", "L0"), ("S1", "L1")]


def load(run):
    for name in ("queues.csv", "pfc.csv", "throughput.csv", "summary.json"):
        if not os.path.exists(os.path.join(run, name)):
            sys.exit(f"error: {run} has no {name}; run examples/dcon-testbed first")
    q = pd.read_csv(os.path.join(run, "queues.csv"))
    pfc = pd.read_csv(os.path.join(run, "pfc.csv"))
    thr = pd.read_csv(os.path.join(run, "throughput.csv"))
    with open(os.path.join(run, "summary.json")) as f:
        summary = json.load(f)
    return q, pfc, thr, summary


# Why a fact of the paper fails, printed under it when it does (doc/validation/testbed.rst
# measures each cause). {fact: function(facts.json) -> lines}.
REASONS = {
    "L2 never pauses S1": lambda f: [
        "    why: each 64 KB burst flow leaves its sender at line rate in 13 us, before",
        "    any CNM can reach it, so the burst bytes routed through S1 still fill L2's",
        "    port from S1 (the 230 us burst spacing with a converged start shows Fig. 6)"],
    "f0 keeps half its rate during the burst": lambda f: [
        "    f0 kept %.0f%% (%.2f of %.2f Gb/s): it shares S1->L2 with that part of the" % (
            100 * f["f0_during_gbps"] / f["f0_before_gbps"], f["f0_during_gbps"],
            f["f0_before_gbps"]),
        "    burst and waits with it behind S1's queue and L2's pauses (CNMs to f0: %d)"
        % f["cnms_f0"]]
    if f.get("f0_before_gbps") else [],
}


def comparison(fact):
    """" (value relation threshold)" of a fact of facts.json, e.g. " (0.689 < 9.24)"; for a fact
    that was not judged (a reading it compares was not measured: "holds" is null) the reason;
    "" for a facts.json written before dcon-testbed gave them."""
    if fact.get("holds") is None and "not_judged" in fact:
        return " (" + fact["not_judged"] + ")"
    if not {"value", "relation", "threshold"} <= set(fact):
        return ""
    if fact["value"] is None or fact["threshold"] is None:
        return ""
    return " (%.3g %s %.3g)" % (fact["value"], fact["relation"], fact["threshold"])


def mark(fact):
    """How a fact is marked under a column: holds, FAILS, or not judged (null "holds")."""
    if fact["holds"] is None:
        return "  ----   "
    return "  holds  " if fact["holds"] else "  FAILS  "


def facts_text(run):
    """The lines printed under a column: the run's facts (facts.json), the expected ones first;
    [] when the run has no facts.json (an older run)."""
    path = os.path.join(run, "facts.json")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        facts = json.load(f)
    lines = []
    for expected in (True, False):
        figs = sorted({x["figure"] for x in facts["facts"] if x["expected"] == expected})
        for fig in figs:
            sel = [x for x in facts["facts"] if x["figure"] == fig and x["expected"] == expected]
            held = sum(x["holds"] is True for x in sel)
            unjudged = sum(x["holds"] is None for x in sel)
            tail = f", {unjudged} not judged (a reading not measured)" if unjudged else ""
            head = (f"paper's {fig} for this scheme: {held} of {len(sel)} hold{tail}" if expected
                    else f"({fig}'s facts, shown for another scheme: {held} of {len(sel)}{tail})")
            lines.append((head, expected, None))
            for x in sel:
                if x["holds"] is None and "not_judged" in x:
                    # not judged: the reason on lines of its own, wrapped to the column
                    lines.append((mark(x) + x["fact"] + ": not judged", expected, None))
                    lines += [("           " + w, expected, None)
                              for w in textwrap.wrap(x["not_judged"], 62)]
                    continue
                lines.append((mark(x) + x["fact"] + comparison(x), expected, x["holds"]))
                if expected and x["holds"] is False and x["fact"] in REASONS:
                    lines += [(r, True, None) for r in REASONS[x["fact"]](facts)]
    if "cnms_f0" in facts and (facts["cnms_f0"] or facts["cnms_f1"] or facts["cnms_burst"]):
        lines.append((f"CNMs: f0 {facts['cnms_f0']}, f1 {facts['cnms_f1']}, burst flows "
                      f"{facts['cnms_burst']}", True, None))
    return lines


def run_end(summary, thr, pauses):
    """The time (s) the PAUSE-rate bins cover: the run's end (summary.json), or the last
    throughput sample or PAUSE frame if later. PAUSE frames are events, counted also where no
    throughput sample was taken (a --sampleInterval longer than the run)."""
    return max([summary.get("simulated_time_s") or 0]
               + ([thr.time_s.max()] if len(thr) else [])
               + ([pauses.time_s.max()] if len(pauses) else []))


def port_series(q, node, kind, order):
    """Queue samples of one sampled port of a node (the order-th of that node and kind)."""
    sel = q[(q.node == node) & (q.kind == kind)]
    ports = sorted(sel.port.unique())
    if order >= len(ports):
        return None
    return sel[sel.port == ports[order]]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("runs", nargs="+", help="output directories of dcon-testbed runs")
    ap.add_argument("-o", "--output", default="testbed.png", help="PNG file to write")
    ap.add_argument("--labels", nargs="*", help="column titles (default: the run's cc)")
    ap.add_argument("--xoff-kb", type=float, default=320.0, help="PFC threshold line (KB)")
    ap.add_argument("--bin-us", type=float, default=500.0, help="pause-rate bin width (us)")
    args = ap.parse_args()

    ncol = len(args.runs)
    texts = [facts_text(run) for run in args.runs]
    nlines = max((len(t) for t in texts), default=0)
    text_in = 0.16 * nlines + (0.3 if nlines else 0)
    fig, axes = plt.subplots(3, ncol, figsize=(6 * ncol, 9 + text_in), squeeze=False,
                             sharex="col")
    for c, run in enumerate(args.runs):
        q, pfc, thr, summary = load(run)
        title = args.labels[c] if args.labels and c < len(args.labels) else os.path.basename(
            os.path.normpath(run))
        # 1. queues. The testbed samples, in this order: L2 egress to R1, L2 ingress from S1,
        # S1 egress to L2 (see experiments/dcon-testbed.cc).
        ax = axes[0][c]
        series = [
            (port_series(q, "L2", "egress", 0), QUEUES[0][3]),
            (port_series(q, "L2", "ingress", 0), QUEUES[1][3]),
            (port_series(q, "S1", "egress", 0), QUEUES[2][3]),
        ]
        for s, label in series:
            if s is not None:
                ax.plot(s.time_s * 1e3, s.bytes / 1e3, label=label, lw=1)
        if (q.time_s > 0).sum() == 0:
            # only the samples at t = 0: the queues were not measured over the run
            ax.text(0.5, 0.5, "queues not measured:\nno sample after t = 0 (--sampleInterval "
                    "longer than the run)", transform=ax.transAxes, ha="center", va="center",
                    fontsize=9)
        ax.axhline(args.xoff_kb, color="k", ls="--", lw=0.8, label="PFC threshold")
        ax.set_ylabel("queue (KB)")
        ax.set_title(title)
        ax.legend(fontsize=7, loc="upper right")
        # 2. pause frame rate per link
        ax = axes[1][c]
        pauses = pfc[pfc.event == "pause"]
        t_end = run_end(summary, thr, pauses)
        bin_s = args.bin_us * 1e-6
        nbins = max(1, int(t_end / bin_s) + 1)
        for a, b in PAUSE_LINKS:
            sel = pauses[(pauses.node == a) & (pauses.peer == b)]
            counts = pd.cut(sel.time_s, bins=[i * bin_s for i in range(nbins + 1)],
                            right=False).value_counts(sort=False)
            x = [i * bin_s * 1e3 for i in range(nbins)]
            ax.step(x, counts.values / bin_s, where="post", label=f"{a}->{b} ({len(sel)} frames)")
        ax.set_ylabel("PAUSE frames / s")
        ax.legend(fontsize=7, loc="upper right")
        # 3. throughput
        ax = axes[2][c]
        for flow, label in ((0, "f0 (H0->R0)"), (1, "f1 (H1->R1)")):
            s = thr[thr.flow == flow]
            ax.plot(s.time_s * 1e3, s.gbps, label=label, lw=1)
        if (thr.time_s > 0).sum() == 0:
            # only the sample at t = 0, which covers no time: nothing was measured
            ax.text(0.5, 0.5, "throughput not measured:\nno sample after t = 0 (--sampleInterval "
                    "longer than the run)", transform=ax.transAxes, ha="center", va="center",
                    fontsize=9)
        ax.set_ylabel("throughput (Gb/s)")
        ax.set_xlabel("time (ms)")
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout(rect=(0, text_in / (9 + text_in), 1, 1))
    for c, lines in enumerate(texts):
        for i, (line, expected, holds) in enumerate(lines):
            # (a fact that was not judged, like a heading, in black)
            color = ("black" if holds is None else "tab:green" if holds else "tab:red") \
                if expected else "gray"
            fig.text((c + 0.08) / ncol, (text_in - 0.25 - 0.16 * i) / (9 + text_in), line,
                     fontsize=8, color=color, family="monospace", va="top")
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()

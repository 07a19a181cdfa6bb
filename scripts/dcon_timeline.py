"""What DCON's queues and senders did over a run, from the per-interval records that
examples/dcon-large-scale (and the other programs) write with --ns3::DconTimeline::Interval=T:
dcon-timeline.csv (DCON egress queues per tier) and dcon-senders.csv (the senders), plus the
run's buffer.csv when it has one.

Per bin of --bin milliseconds (default 5) it prints, for each tier of queues (tor-host: a ToR's
ports towards hosts; tor-up: a ToR's ports towards the spines; core: the spines' ports):
  MB          mean bytes queued at the samples (egress queue bytes, MB = 10^6 B)
  burst       mean number of queues in burst congestion (q >= Q_CNM) at the samples
  latched     mean number of queues between Q_ECN and Q_CNM with marking latched off
  floor%      share of arrivals whose Q_CNM was at its Q_ECN floor (the dynamic bound
              Q_PFC / M - 3dC(M - 1) at or below Q_ECN: with it, no arrival can be marked)
  mark%       share of arrivals marked CE
  unmarked%   share of arrivals at or above Q_ECN that were not marked
  cnms        CNMs the tier's queues caused
and for the senders: active flows, mean sending rate (Gb/s), share of the CNPs carrying the
congestion mark (cnp_mark%), CNMs received and the share applied (applied%: the others did not
lower a rate or fell within the 50 us hold).

Usage: /usr/bin/python3 -m scripts.dcon_timeline RUN_DIR [--bin MS] [-o timeline.png]
The functions (load, bin_queues, bin_senders) take DataFrames and can be used from a notebook.
"""
import argparse
import os
import sys

import pandas as pd

TIERS = ["tor-host", "tor-up", "core"]
QUEUE_COLUMNS = ["time_s", "tier", "queues", "bytes", "max_queue_bytes", "queues_below",
                 "queues_marking", "queues_latched", "queues_burst", "queue_s_marking",
                 "queue_s_latched", "queue_s_burst", "arrivals", "arrivals_qcnm_at_qecn",
                 "ecn_marks", "unmarked_above_qecn", "latched_arrivals", "burst_onsets",
                 "cnm_triggers", "cnms_sent"]
SENDER_COLUMNS = ["time_s", "active_flows", "mean_rate_gbps", "mean_target_gbps",
                  "flows_at_line", "flows_below_tenth", "cnps_received", "cnps_marked",
                  "cnms_received", "cnms_applied"]


class TimelineError(Exception):
    """A run directory without the timeline files, or with bad ones; the message names it."""


def _read(path, columns):
    if not os.path.isfile(path):
        raise TimelineError(f"{path} is missing: run the program with "
                            "--ns3::DconTimeline::Interval=1ms (DCON runs only)")
    try:
        df = pd.read_csv(path)
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as e:
        raise TimelineError(f"{path}: cannot read ({e})") from None
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise TimelineError(f"{path}: missing column(s) {', '.join(missing)}")
    return df


def load(run):
    """(queues, senders, buffer or None) DataFrames of a run directory."""
    queues = _read(os.path.join(run, "dcon-timeline.csv"), QUEUE_COLUMNS)
    senders = _read(os.path.join(run, "dcon-senders.csv"), SENDER_COLUMNS)
    path = os.path.join(run, "buffer.csv")
    buffer = pd.read_csv(path) if os.path.isfile(path) else None
    return queues, senders, buffer


def _bin(times_s, bin_ms):
    """The start (ms) of the bin of each sample; a sample at time t covers (t - T, t]."""
    ms = (times_s * 1e3).round(6)
    return ((ms - 1e-9) // bin_ms * bin_ms).astype(float)


def _share(num, den):
    return (100.0 * num / den.where(den > 0)).round(2)


def bin_queues(queues, bin_ms=5.0):
    """One row per (bin_ms, tier): mean MB, burst and latched queues, floor%, mark%, unmarked%,
    CNMs (definitions: module docstring)."""
    q = queues.copy()
    q["bin_ms"] = _bin(q.time_s, bin_ms)
    g = q.groupby(["bin_ms", "tier"], sort=True).agg(
        MB=("bytes", "mean"), burst=("queues_burst", "mean"), latched=("queues_latched", "mean"),
        arrivals=("arrivals", "sum"), floor=("arrivals_qcnm_at_qecn", "sum"),
        marks=("ecn_marks", "sum"), unmarked=("unmarked_above_qecn", "sum"),
        cnms=("cnms_sent", "sum"))
    g["MB"] = (g.MB / 1e6).round(3)
    g["floor%"] = _share(g.floor, g.arrivals)
    g["mark%"] = _share(g.marks, g.arrivals)
    g["unmarked%"] = _share(g.unmarked, g.unmarked + g.marks)
    return g.drop(columns=["floor", "marks", "unmarked"]).reset_index()


def bin_senders(senders, bin_ms=5.0):
    """One row per bin_ms: mean active flows and rate, cnp_mark%, CNMs and applied%."""
    s = senders.copy()
    s["bin_ms"] = _bin(s.time_s, bin_ms)
    g = s.groupby("bin_ms", sort=True).agg(
        active=("active_flows", "mean"), rate_gbps=("mean_rate_gbps", "mean"),
        cnps=("cnps_received", "sum"), marked=("cnps_marked", "sum"),
        cnms=("cnms_received", "sum"), applied=("cnms_applied", "sum"))
    g["cnp_mark%"] = _share(g.marked, g.cnps)
    g["applied%"] = _share(g.applied, g.cnms)
    g["active"] = g.active.round(1)
    g["rate_gbps"] = g.rate_gbps.round(3)
    return g.drop(columns=["marked", "applied"]).reset_index()


def plot(queues, senders, buffer, path, title=""):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(4, 1, figsize=(8, 10), sharex=True)
    qb = bin_queues(queues, 1.0)
    for tier in TIERS:
        t = qb[qb.tier == tier]
        if len(t):
            ax[0].plot(t.bin_ms + 1, t.MB, label=f"{tier} egress queues")
    if buffer is not None and len(buffer):
        ax[0].plot(buffer.time_s * 1e3, buffer.total_bytes / 1e6, color="k", lw=0.6,
                   label="all switches (buffer.csv)")
    ax[0].set_ylabel("buffered (MB)")
    ax[0].legend(fontsize=7)
    for tier in TIERS:
        t = qb[qb.tier == tier]
        if len(t):
            ax[1].plot(t.bin_ms + 1, t["floor%"], label=f"{tier}: Q_CNM at Q_ECN")
            ax[1].plot(t.bin_ms + 1, t["mark%"], ls="--", label=f"{tier}: marked")
    ax[1].set_ylabel("% of arrivals")
    ax[1].legend(fontsize=7, ncol=2)
    sb = bin_senders(senders, 1.0)
    ax[2].plot(sb.bin_ms + 1, sb.active, color="tab:purple")
    ax[2].set_ylabel("active flows")
    ax[3].plot(sb.bin_ms + 1, sb["cnp_mark%"], label="CNPs with the mark (%)")
    ax[3].plot(sb.bin_ms + 1, sb["applied%"], label="CNMs applied (%)")
    ax[3].plot(sb.bin_ms + 1, 10 * sb.rate_gbps, label="mean rate x 10 (Gb/s)")
    ax[3].set_ylabel("senders")
    ax[3].set_xlabel("time (ms)")
    ax[3].legend(fontsize=7)
    if title:
        ax[0].set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run", help="run directory with dcon-timeline.csv and dcon-senders.csv")
    p.add_argument("--bin", type=float, default=5.0, help="bin width in ms (default 5)")
    p.add_argument("-o", "--output", help="also draw the timeline into this PNG file")
    a = p.parse_args(argv)
    if not a.bin > 0:
        p.error(f"--bin must be > 0 ms, got {a.bin}")
    try:
        queues, senders, buffer = load(a.run)
    except TimelineError as e:
        print(f"dcon_timeline: {e}", file=sys.stderr)
        return 1
    with pd.option_context("display.width", 200, "display.max_rows", 10000,
                           "display.max_columns", 30):
        print(bin_queues(queues, a.bin).to_string(index=False))
        print()
        print(bin_senders(senders, a.bin).to_string(index=False))
    if a.output:
        plot(queues, senders, buffer, a.output, title=os.path.basename(os.path.normpath(a.run)))
        print(f"wrote {a.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

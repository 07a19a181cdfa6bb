"""Draw the InfiniBand CC sharing results of examples/dcon-ibcc-share.

Two panels:
  1. the ratio table: measured rate ratio A/B of two flows with CCTI_Increase 1 : N against
     the IB partitioning paper's claim N (ibcc-ratio.csv);
  2. the tenant run: throughput of tenant 1's flow and of tenant 2's flows over time, with
     tenant 2's total (ibcc-tenant-series.csv) and tenant 1's measured share per phase
     (ibcc-tenant.csv).

Usage: /usr/bin/python3 -m scripts.plot_ibcc OUTDIR [-o figure.png]
(OUTDIR is the --outdir of dcon-ibcc-share; default output OUTDIR/ibcc-share.png)
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir", help="the --outdir of dcon-ibcc-share")
    ap.add_argument("-o", "--output", help="PNG to write (default OUTDIR/ibcc-share.png)")
    args = ap.parse_args()
    names = ("ibcc-ratio.csv", "ibcc-tenant.csv", "ibcc-tenant-series.csv")
    missing = [n for n in names if not os.path.exists(os.path.join(args.outdir, n))]
    if missing:
        sys.exit(f"error: {args.outdir} has no {', '.join(missing)}; run "
                 "examples/dcon-ibcc-share --mode=all first")
    ratio = pd.read_csv(os.path.join(args.outdir, "ibcc-ratio.csv"))
    tenant = pd.read_csv(os.path.join(args.outdir, "ibcc-tenant.csv"))
    series = pd.read_csv(os.path.join(args.outdir, "ibcc-tenant-series.csv"))
    if ratio.empty or series.empty:
        sys.exit(f"error: {args.outdir} has empty CSV files")

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    x = range(len(ratio))
    ax1.bar([i - 0.2 for i in x], ratio["n"], width=0.4, label="claim: N")
    ax1.bar([i + 0.2 for i in x], ratio["ratio_a_over_b"], width=0.4, label="measured A/B")
    for i, r in zip(x, ratio["ratio_a_over_b"]):
        ax1.annotate(f"{r:.2f}", (i + 0.2, r), ha="center", va="bottom", fontsize=8)
    ax1.set_xticks(list(x))
    ax1.set_xticklabels([f"1:{n}" for n in ratio["n"]])
    ax1.set_xlabel("CCTI_Increase A : B")
    ax1.set_ylabel("rate ratio A / B")
    ax1.set_title("Two flows on one bottleneck")
    ax1.legend()

    t = series["time_ms"]
    flows2 = [c for c in series.columns if c.startswith("tenant2_flow")]
    ax2.plot(t, series["tenant1"], label="tenant 1 (1 flow)", lw=1.5)
    ax2.plot(t, series[flows2].sum(axis=1), label="tenant 2 (total)", lw=1.5)
    for c in flows2:
        ax2.plot(t, series[c], lw=0.6, alpha=0.6, label=c.replace("_", " "))
    ax2.axhline(3.4, color="grey", ls=":", label="seed: tenant 1 ~3.4 Gb/s")
    phase = t.max() / len(tenant)
    for i, row in tenant.iterrows():
        ax2.annotate(f"share {row['tenant1_share']:.2f}", ((i + 0.5) * phase, 0.3),
                     ha="center", fontsize=8)
    ax2.set_xlabel("time (ms)")
    ax2.set_ylabel("Gb/s (1 ms samples)")
    ax2.set_title("Tenant 2 adds flows; CCTI_Increase = its flow count")
    ax2.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    out = args.output or os.path.join(args.outdir, "ibcc-share.png")
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()

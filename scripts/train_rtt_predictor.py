# Copyright (c) 2026 dcon authors
# SPDX-License-Identifier: GPL-2.0-only
"""Train the LSTM RTT predictor of --cc=rttpid (the RTT-PID thesis, 3.3-3.4) with numpy only.

Reads per-RTT sample traces (CSV flow,time_ns,rtt_ns, as written by
`dcon-rttpid-incast --rttTrace=FILE`), builds the data set of the thesis:

  S_t = R_t (t = 0), sigma R_t + (1 - sigma) S_{t-1}      (sigma = 0.2)
  K_t = (R_t - S_t) / S_t,  L_t = (R_{t+1} - S_t) / S_t
  input [K_{t-2}, K_{t-1}, K_t] (three LSTM steps of input size 1), label L_t

samples about the same number of pairs from each |K_t| range [0, 0.02), [0.02, 0.08),
[0.08, 0.15), [0.15, inf) (3.3.1), and trains an LSTM (hidden 16) + linear layer with the L1
loss, Adam at lr 0.001, 19 epochs of 800 training pairs each, 200 validation pairs per epoch
(3.4.2). The weights go to a plain-text file that model/cc/rttpid/lstm-predictor.h reads.

  /usr/bin/python3 -m scripts.train_rtt_predictor --out data/rtt-predictor/lstm-weights.txt \
      timely.csv pid.csv
"""

import argparse
import csv
import math
import os
import sys

import numpy as np

BINS = (0.0, 0.02, 0.08, 0.15, math.inf)


# ------------------------------------------------------------------ data set


def read_traces(paths):
    """Per-flow RTT sequences (seconds) from trace CSVs, in file then flow order."""
    seqs = []
    for path in paths:
        flows = {}
        with open(path, newline="") as f:
            rd = csv.reader(f)
            header = next(rd, None)
            if header != ["flow", "time_ns", "rtt_ns"]:
                raise ValueError(f"{path}: expected header flow,time_ns,rtt_ns, got {header}")
            for lineno, row in enumerate(rd, start=2):
                if len(row) != 3:
                    raise ValueError(f"{path}:{lineno}: expected 3 fields, got {len(row)}")
                flow, rtt = int(row[0]), float(row[2]) * 1e-9
                if not rtt > 0:
                    raise ValueError(f"{path}:{lineno}: RTT must be > 0, got {row[2]}")
                flows.setdefault(flow, []).append(rtt)
        for flow in sorted(flows):
            seqs.append(np.array(flows[flow]))
    return seqs


def features(rtts, sigma=0.2, steps=3):
    """Inputs [K_{t-steps+1} .. K_t] and labels L_t of one flow's sequence."""
    s = np.empty_like(rtts)
    s[0] = rtts[0]
    for t in range(1, len(rtts)):
        s[t] = sigma * rtts[t] + (1 - sigma) * s[t - 1]
    k = (rtts - s) / s
    xs, ys = [], []
    for t in range(steps - 1, len(rtts) - 1):
        xs.append(k[t - steps + 1 : t + 1])
        ys.append((rtts[t + 1] - s[t]) / s[t])
    if not xs:
        return np.zeros((0, steps)), np.zeros(0)
    return np.array(xs), np.array(ys)


def balanced(x, y, per_bin, rng):
    """At most per_bin pairs from each |K_t| range (the last input)."""
    mag = np.abs(x[:, -1])
    keep = []
    for lo, hi in zip(BINS[:-1], BINS[1:]):
        idx = np.nonzero((mag >= lo) & (mag < hi))[0]
        if len(idx) > per_bin:
            idx = rng.choice(idx, per_bin, replace=False)
        keep.append(np.sort(idx))
    keep = np.concatenate(keep)
    rng.shuffle(keep)
    return x[keep], y[keep]


# ------------------------------------------------------------------ model


def init_params(hidden, rng):
    """PyTorch's initialisation: U(-1/sqrt(H), 1/sqrt(H)) for every weight and bias."""
    b = 1 / math.sqrt(hidden)
    u = lambda *shape: rng.uniform(-b, b, size=shape)  # noqa: E731
    return {
        "W_ih": u(4 * hidden, 1),
        "W_hh": u(4 * hidden, hidden),
        "b_ih": u(4 * hidden),
        "b_hh": u(4 * hidden),
        "W_lin": u(1, hidden),
        "b_lin": u(1),
    }


def _sig(z):
    return 1 / (1 + np.exp(-z))


def forward(p, x, keep=False):
    """LSTM (gate order i, f, g, o) over x[:, t] from a zero state, then linear: out (B,)."""
    n, steps = x.shape
    hs = p["W_hh"].shape[1]
    h = np.zeros((n, hs))
    c = np.zeros((n, hs))
    cache = []
    for t in range(steps):
        z = x[:, t : t + 1] * p["W_ih"][:, 0] + p["b_ih"] + p["b_hh"] + h @ p["W_hh"].T
        i, f = _sig(z[:, :hs]), _sig(z[:, hs : 2 * hs])
        g, o = np.tanh(z[:, 2 * hs : 3 * hs]), _sig(z[:, 3 * hs :])
        c_new = f * c + i * g
        h_new = o * np.tanh(c_new)
        if keep:
            cache.append((x[:, t : t + 1], h, c, i, f, g, o, c_new))
        h, c = h_new, c_new
    out = h @ p["W_lin"][0] + p["b_lin"][0]
    return (out, h, cache) if keep else out


def l1_grad(p, x, y):
    """Mean L1 loss and its gradient (backpropagation through the steps)."""
    out, h_last, cache = forward(p, x, keep=True)
    n = len(y)
    loss = float(np.mean(np.abs(out - y)))
    dout = np.sign(out - y) / n
    g = {k: np.zeros_like(v) for k, v in p.items()}
    g["W_lin"][0] = dout @ h_last
    g["b_lin"][0] = dout.sum()
    dh = dout[:, None] * p["W_lin"][0]
    dc = np.zeros_like(dh)
    for xt, h_prev, c_prev, i, f, gg, o, c in reversed(cache):
        tc = np.tanh(c)
        do = dh * tc
        dc = dc + dh * o * (1 - tc * tc)
        dz = np.concatenate(
            [dc * gg * i * (1 - i), dc * c_prev * f * (1 - f), dc * i * (1 - gg * gg), do * o * (1 - o)],
            axis=1,
        )
        g["W_ih"] += dz.T @ xt
        g["b_ih"] += dz.sum(0)
        g["b_hh"] += dz.sum(0)
        g["W_hh"] += dz.T @ h_prev
        dh = dz @ p["W_hh"]
        dc = dc * f
    return loss, g


class Adam:
    """Adam (Kingma and Ba) with PyTorch's defaults beta = (0.9, 0.999), eps = 1e-8."""

    def __init__(self, params, lr):
        self.lr, self.t = lr, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, p, g):
        self.t += 1
        for k in p:
            self.m[k] = 0.9 * self.m[k] + 0.1 * g[k]
            self.v[k] = 0.999 * self.v[k] + 0.001 * g[k] * g[k]
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            p[k] -= self.lr * mh / (np.sqrt(vh) + 1e-8)


def train(p, xtr, ytr, xva, yva, epochs, per_epoch, val_per_epoch, lr, batch, rng, log=None):
    """The thesis's schedule: each epoch draws per_epoch training pairs (and val_per_epoch
    validation pairs) at random; returns [(epoch, train L1, validation L1, validation MAPE)]."""
    opt = Adam(p, lr)
    history = []
    for ep in range(1, epochs + 1):
        idx = rng.choice(len(ytr), min(per_epoch, len(ytr)), replace=False)
        losses = []
        for b0 in range(0, len(idx), batch):
            sel = idx[b0 : b0 + batch]
            loss, g = l1_grad(p, xtr[sel], ytr[sel])
            opt.step(p, g)
            losses.append(loss * len(sel))
        tr = sum(losses) / len(idx)
        vsel = rng.choice(len(yva), min(val_per_epoch, len(yva)), replace=False)
        out = forward(p, xva[vsel])
        va = float(np.mean(np.abs(out - yva[vsel])))
        mape = float(np.mean(np.abs(out - yva[vsel]) / (1 + yva[vsel])))  # thesis eq. 13
        history.append((ep, tr, va, mape))
        if log:
            log(f"epoch {ep:2d}: train L1 {tr:.5f}  validation L1 {va:.5f}  MAPE {mape:.4f}")
    return history


# ------------------------------------------------------------------ weight file


def write_weights(p, path, steps, comments=()):
    hs = p["W_hh"].shape[1]
    f17 = lambda v: format(float(v), ".17g")  # noqa: E731
    lines = [f"# {c}" for c in comments]
    lines.append(f"dcon-lstm 1 1 {hs} {steps}")
    lines.append(f"W_ih {4 * hs} 1")
    lines += [f17(v) for v in p["W_ih"][:, 0]]
    lines.append(f"W_hh {4 * hs} {hs}")
    lines += [" ".join(f17(v) for v in row) for row in p["W_hh"]]
    lines.append(f"b_ih {4 * hs}")
    lines.append(" ".join(f17(v) for v in p["b_ih"]))
    lines.append(f"b_hh {4 * hs}")
    lines.append(" ".join(f17(v) for v in p["b_hh"]))
    lines.append(f"W_lin 1 {hs}")
    lines.append(" ".join(f17(v) for v in p["W_lin"][0]))
    lines.append("b_lin 1")
    lines.append(f17(p["b_lin"][0]))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def read_weights(path):
    """Read a weight file (the same format LstmPredictor parses): (params, steps)."""
    rows = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                rows.append(line)
    head = rows[0]
    if head[:3] != ["dcon-lstm", "1", "1"] or len(head) != 5:
        raise ValueError(f"{path}: bad header {head}")
    hs, steps = int(head[3]), int(head[4])
    pos = 1
    p = {}
    for name, nrows, ncols, vector in (
        ("W_ih", 4 * hs, 1, False),
        ("W_hh", 4 * hs, hs, False),
        ("b_ih", 4 * hs, 1, True),
        ("b_hh", 4 * hs, 1, True),
        ("W_lin", 1, hs, False),
        ("b_lin", 1, 1, True),
    ):
        want = [name, str(nrows * ncols)] if vector else [name, str(nrows), str(ncols)]
        if rows[pos] != want:
            raise ValueError(f"{path}: expected section {want}, got {rows[pos]}")
        pos += 1
        n = 1 if vector else nrows
        vals = np.array([[float(v) for v in r] for r in rows[pos : pos + n]])
        pos += n
        p[name] = vals.reshape(-1) if vector else vals.reshape(nrows, ncols)
    return p, steps


# ------------------------------------------------------------------ main


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("traces", nargs="+", help="CSV files flow,time_ns,rtt_ns (dcon-rttpid-incast --rttTrace)")
    ap.add_argument("--out", required=True, help="weight file to write")
    ap.add_argument("--seed", type=int, default=1, help="numpy RNG seed (default 1)")
    ap.add_argument("--sigma", type=float, default=0.2, help="EWMA weight (thesis: 0.2)")
    ap.add_argument("--hidden", type=int, default=16, help="LSTM hidden size (thesis: 16)")
    ap.add_argument("--steps", type=int, default=3, help="K values per prediction (thesis: 3)")
    ap.add_argument("--epochs", type=int, default=19, help="epochs (thesis: 19)")
    ap.add_argument("--per-epoch", type=int, default=800, help="training pairs per epoch (thesis: 800)")
    ap.add_argument("--val-per-epoch", type=int, default=200, help="validation pairs per epoch (thesis: 200)")
    ap.add_argument("--lr", type=float, default=0.001, help="Adam learning rate (thesis: 0.001)")
    ap.add_argument("--batch", type=int, default=1, help="pairs per gradient step (thesis: not given)")
    ap.add_argument("--per-bin", type=int, default=5000, help="pairs kept per |K| range")
    ap.add_argument("--val-fraction", type=float, default=0.2, help="held-out fraction of the pairs")
    a = ap.parse_args(argv)
    for name in ("hidden", "steps", "epochs", "per_epoch", "val_per_epoch", "batch", "per_bin"):
        if getattr(a, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be >= 1, got {getattr(a, name)}")
    if not 0 < a.sigma <= 1 or not a.lr > 0 or not 0 < a.val_fraction < 1:
        ap.error("--sigma must be in (0, 1], --lr > 0, --val-fraction in (0, 1)")
    rng = np.random.default_rng(a.seed)
    xs, ys = [], []
    for seq in read_traces(a.traces):
        x, y = features(seq, a.sigma, a.steps)
        xs.append(x)
        ys.append(y)
    x, y = np.concatenate(xs), np.concatenate(ys)
    counts = [int(np.sum((np.abs(x[:, -1]) >= lo) & (np.abs(x[:, -1]) < hi))) for lo, hi in zip(BINS[:-1], BINS[1:])]
    x, y = balanced(x, y, a.per_bin, rng)
    nval = max(1, int(round(len(y) * a.val_fraction)))
    xva, yva, xtr, ytr = x[:nval], y[:nval], x[nval:], y[nval:]
    print(f"{sum(counts)} pairs; per |K| range {counts}; kept {len(y)} ({len(ytr)} train, {nval} validation)")
    p = init_params(a.hidden, rng)
    hist = train(p, xtr, ytr, xva, yva, a.epochs, a.per_epoch, a.val_per_epoch, a.lr, a.batch, rng, log=print)
    full_tr = float(np.mean(np.abs(forward(p, xtr) - ytr)))
    full_va = float(np.mean(np.abs(forward(p, xva) - yva)))
    print(f"final L1 on all kept pairs: train {full_tr:.5f}, validation {full_va:.5f}")
    comments = [
        "LSTM RTT predictor of ns3::RdmaRttPid (dcon), written by scripts/train_rtt_predictor.py",
        "traces: " + " ".join(os.path.basename(t) for t in a.traces),
        f"seed {a.seed}, sigma {a.sigma}, hidden {a.hidden}, steps {a.steps}, epochs {a.epochs}, "
        f"{a.per_epoch}/{a.val_per_epoch} pairs per epoch, Adam lr {a.lr}, batch {a.batch}, L1 loss",
        f"pairs {sum(counts)}, per |K| range {counts}, kept {len(y)} ({len(ytr)} train, {nval} validation)",
        f"last epoch: train L1 {hist[-1][1]:.5f}, validation L1 {hist[-1][2]:.5f}; "
        f"all kept pairs: train L1 {full_tr:.5f}, validation L1 {full_va:.5f}",
    ]
    write_weights(p, a.out, a.steps, comments)
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Predict the speedup of a parallel dcon run at 4 to 32 ranks from measured pieces.

Usage: /usr/bin/python3 -m scripts.parallel_model [--program bench|large-scale]
           [--ranks 4 8 16 32] [--check N] [--workdir DIR] [--json OUT] [-- program arguments]

Needs build-mpi/ (scripts/setup-mpi.sh). One command does every step, on this machine:

1. A sequential run of the scenario (build-mpi's program, one rank) with --nodeWork: its wall
   time T1, its events E, and the frames every node sent and received and every link carried.
   bench: the HPCC simulator's 320-host fat-tree with the 2 ms WebSearch file (links of 1 us);
   large-scale: the paper's 240-host leaf-spine (5 us links), WebSearch at load 0.8, 5 ms of
   arrivals (program arguments after -- replace these defaults).
2. The same scenario on 2 ranks (mpirun -np 2), with the default partition and with hosts on
   rank 0 and switches on rank 1; and dcon-mpi-check --rounds on 2 ranks: the wall time of one
   synchronization round at the scenario's lookahead.
3. The model. From the two 2-rank runs (default partition; hosts on rank 0 and switches on
   rank 1, where far more frames cross), each rank's busy time (Simulator::Run less the time
   blocked in synchronization) is busy = E c_ev2 + X c_x with E its events and X its frame
   ends crossing ranks (sent + received): least squares over the four ranks give c_ev2, the cost
   of an event on 2 ranks (smaller than the sequential c_ev1 = T1 / E: each rank's share of the
   fabric fits better in the caches), and c_x, what a frame crossing ranks adds at each end. A
   synchronization round costs c_round (dcon-mpi-check --rounds on 2 ranks: one event per rank
   and round, no frame). For N ranks, with the partition the program uses (--writePartition=N),
   rank r runs E_r events (the sequential run's events shared out in proportion to the frames
   each node sent and received) and has X_r frame ends crossing ranks (the frames of the links
   it cuts, both directions, from the sequential run); the run
   needs R synchronization rounds (the 2-rank run's count: the lookahead, the smallest delay of
   a cut link, does not change with N), and a round costs c_round log2(N) (MPI's collectives
   take log2(N) steps). Then
       T_N = max_r (E_r c_ev + X_r c_x) + R c_round log2(N),   speedup S_N = T1 / T_N,
   with c_ev = c_ev2 (the cache gain of 2 ranks, kept at N ranks) and, as a bound, c_ev = c_ev1
   (no cache gain). The load imbalance is max_r E_r / mean_r E_r. Nothing of an N-rank run is
   measured; a partition that cannot be made (more ranks than groups of nodes) is reported.
--check N also runs the scenario on N ranks (needs N cores) and prints the measured speedup
next to the prediction. Prints a table; --json writes every input and output of the model.
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import pandas as pd

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "build-mpi", "bin")
SCENARIOS = {
    "bench": {
        "program": "dcon-bench",
        "args": [f"--topo={ROOT}/data/bench/fat-tree-320.topo",
                 f"--flows={ROOT}/data/bench/websearch-30pct-2ms.flows"],
        "node_work": ["--nodeWork"],
    },
    "large-scale": {
        "program": "dcon-large-scale",
        "args": ["--cc=dcqcn", "--workload=websearch", "--load=0.8", "--duration=5ms",
                 "--warmup=0ms", "--cooldown=0ms", "--seed=1"],
        "node_work": ["--nodeWork"],
    },
}
MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")


def run(cmd, what):
    print(f"  {what}: {' '.join(cmd)}", flush=True)
    p = subprocess.run(cmd, env=MPI_ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if p.returncode != 0:
        last = (p.stdout.strip().splitlines() or [""])[-1]
        raise SystemExit(f"error: {what} failed (exit status {p.returncode}): {last}")
    return p.stdout


def read_json(path):
    with open(path) as f:
        return json.load(f)


def partition(program, args, n):
    out = run([os.path.join(BIN, program)] + args + [f"--writePartition={n}"],
              f"partition for {n} ranks")
    rank = {}
    for line in out.splitlines():
        m = re.fullmatch(r"(\d+) (\d+)", line.strip())
        if m:
            rank[int(m.group(1))] = int(m.group(2))
    return rank


def rank_loads(nodes, links, rank, n, events_total):
    """Events and cross-rank frames per rank for a partition."""
    frames = nodes.frames_sent + nodes.frames_received
    share = frames / frames.sum()
    ev = [0.0] * n
    for node, s in zip(nodes.node, share):
        ev[rank[node]] += s * events_total
    x = [0.0] * n
    for a, b, ab, ba in zip(links.a, links.b, links.frames_a_to_b, links.frames_b_to_a):
        if rank[a] != rank[b]:
            x[rank[a]] += ab + ba
            x[rank[b]] += ab + ba
    return ev, x


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--program", choices=sorted(SCENARIOS), default="bench")
    p.add_argument("--ranks", type=int, nargs="+", default=[4, 8, 16, 32])
    p.add_argument("--check", type=int, help="also run on this many ranks and compare")
    p.add_argument("--workdir", help="keep the runs here (default: a temporary folder)")
    p.add_argument("--json", help="write the model's inputs and outputs here")
    p.add_argument("extra", nargs="*", help="program arguments (after --)")
    a = p.parse_args(argv)
    if any(n < 2 for n in a.ranks):
        p.error("--ranks must be >= 2")
    sc = SCENARIOS[a.program]
    prog = os.path.join(BIN, sc["program"])
    if not os.access(prog, os.X_OK):
        print(f"error: no {prog} (run scripts/setup-mpi.sh)", file=sys.stderr)
        return 2
    args = a.extra or sc["args"]
    work = a.workdir or tempfile.mkdtemp(prefix="dcon-model-")
    os.makedirs(work, exist_ok=True)

    print("1. sequential run")
    seq = os.path.join(work, "seq")
    run([prog] + args + sc["node_work"] + [f"--outdir={seq}"], "sequential")
    summary = read_json(os.path.join(seq, "summary.json"))
    t1 = summary["wall_time_s"]
    events = summary["events_executed"]
    nodes = pd.read_csv(os.path.join(seq, "node-work-nodes.csv"))
    links = pd.read_csv(os.path.join(seq, "node-work-links.csv"))
    c_ev = t1 / events

    print("2. two ranks")
    # Twice: the default partition, and hosts on rank 0 / switches on rank 1 (many more frames
    # cross ranks); each rank of each run is one equation busy = E c_ev2 + X c_x.
    split = os.path.join(work, "hosts-switches.txt")
    with open(split, "w") as f:
        for node, kind in zip(nodes.node, nodes.kind):
            f.write(f"{node} {0 if kind == 'host' else 1}\n")
    eqs = []
    runs2 = {}
    for tag, extra in (("default", []), ("split", [f"--partition={split}"])):
        par = os.path.join(work, f"par2-{tag}")
        run(["mpirun", "-np", "2", "--bind-to", "core", prog] + args + extra + [f"--outdir={par}"],
            f"2 ranks, {tag} partition")
        pj = read_json(os.path.join(par, "parallel.json"))
        runs2[tag] = pj
        for r in pj["per_rank"]:
            eqs.append((r["events_executed"],
                        r["frames_sent_to_other_ranks"] + r["frames_received_from_other_ranks"],
                        r["run_wall_s"] - r["sync_wait_s"]))
    (c_ev2, c_x), *_ = np.linalg.lstsq(np.array([[e, x] for e, x, _ in eqs], dtype=float),
                                       np.array([b for _, _, b in eqs]), rcond=None)
    pj = runs2["default"]
    x2 = [r["frames_sent_to_other_ranks"] + r["frames_received_from_other_ranks"]
          for r in pj["per_rank"]]
    rounds = pj["per_rank"][0]["sync_calls"]
    t2 = max(r["run_wall_s"] for r in pj["per_rank"])
    lookahead = float(links.delay_s.min())
    rj = os.path.join(work, "rounds.json")
    run(["mpirun", "-np", "2", "--bind-to", "core", os.path.join(BIN, "dcon-mpi-check"),
         "--rounds=100000", f"--delay={lookahead * 1e9:.0f}ns", f"--report={rj}",
         f"--out={os.path.join(work, 'rounds.txt')}"], "synchronization rounds")
    rr = read_json(rj)["per_rank"]
    c_round = max(r["run_wall_s"] for r in rr) / rr[0]["sync_calls"]

    print("3. model")
    rows = []
    for n in [2] + a.ranks:
        try:
            rank = partition(sc["program"], args, n)
        except SystemExit as e:
            rows.append({"ranks": n, "error": str(e)})
            continue
        ev, x = rank_loads(nodes, links, rank, n, events)
        sync = rounds * c_round * math.log2(n)
        row = {
            "ranks": n,
            "imbalance": max(ev) / (sum(ev) / n),
            "cross_frame_ends_max": max(x),
            "cross_frames_share": sum(x) / 2 / max(1, (links.frames_a_to_b
                                                        + links.frames_b_to_a).sum()),
            "sync_s": sync,
        }
        for tag, c in (("", c_ev2), ("_no_cache_gain", c_ev)):
            tn = max(e * c + xx * c_x for e, xx in zip(ev, x)) + sync
            row["predicted_s" + tag] = tn
            row["predicted_speedup" + tag] = t1 / tn
        rows.append(row)
    measured = {"2": {"wall_s": t2, "speedup": t1 / t2}}
    if a.check:
        chk = os.path.join(work, f"par{a.check}")
        run(["mpirun", "-np", str(a.check), prog] + args + [f"--outdir={chk}"],
            f"{a.check} ranks")
        tc = max(r["run_wall_s"] for r in read_json(os.path.join(chk, "parallel.json"))["per_rank"])
        measured[str(a.check)] = {"wall_s": tc, "speedup": t1 / tc}

    print(f"\nscenario {a.program}: {' '.join(args)}")
    print(f"sequential: {t1:.2f} s, {events / 1e6:.2f} M events, c_ev1 = {c_ev * 1e9:.0f} ns/event")
    print(f"2 ranks: {t2:.2f} s (speedup {t1 / t2:.2f}), {sum(x2) / 2 / 1e6:.2f} M frames crossed, "
          f"{rounds} rounds, c_ev2 = {c_ev2 * 1e9:.0f} ns/event")
    print(f"a frame crossing ranks: c_x = {c_x * 1e9:.0f} ns per end; a synchronization round at "
          f"lookahead {lookahead * 1e6:g} us: c_round = {c_round * 1e6:.2f} us (2 ranks)")
    print(f"{'ranks':>5} {'imbalance':>9} {'crossing':>8} {'sync s':>7} {'T_N s':>7} "
          f"{'speedup':>7} {'(no cache gain)':>15}")
    for r in rows:
        if "error" in r:
            print(f"{r['ranks']:>5} {r['error']}")
            continue
        print(f"{r['ranks']:>5} {r['imbalance']:>9.3f} {r['cross_frames_share']:>8.1%} "
              f"{r['sync_s']:>7.2f} {r['predicted_s']:>7.2f} {r['predicted_speedup']:>7.2f} "
              f"{r['predicted_speedup_no_cache_gain']:>15.2f}")
    for n, m in measured.items():
        print(f"measured at {n} ranks: {m['wall_s']:.2f} s, speedup {m['speedup']:.2f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"scenario": a.program, "args": args, "t1_s": t1, "events": events,
                       "c_ev1_s": c_ev, "c_ev2_s": c_ev2, "c_x_s": c_x,
                       "c_round_s": c_round, "rounds": rounds,
                       "lookahead_s": lookahead, "rows": rows, "measured": measured}, f,
                      indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())

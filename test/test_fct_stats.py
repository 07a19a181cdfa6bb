#!/usr/bin/python3
"""Tests of scripts/fct_stats.py, large_sweep.py, burst_sweep.py (and so sweep_runner.py) and
plot_large.py.

Run: /usr/bin/python3 test/test_fct_stats.py   (or python3 -m unittest from test/)
"""
import contextlib
import io
import json
import math
import os
import stat
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))

import pandas as pd  # noqa: E402

import burst_sweep  # noqa: E402
import fct_stats  # noqa: E402
import large_sweep  # noqa: E402
import plot_large  # noqa: E402

FLOWS_HEADER = "flow_id,src,dst,size_bytes,start_s,end_s,fct_s,ideal_fct_s,slowdown\n"
PFC_HEADER = "time_s,node,port,peer,priority,event,quanta\n"

# Ten completed flows. FCTs (ms), sorted: 1 2 2 3 5 8 13 21 34 89 (stored out of order).
# Sizes sit on both sides of every bucket boundary, two per bucket.
# Slowdown (fct/ideal) is given directly.
#   id size      fct_ms slowdown  bucket
FLOWS = [
    (0, 10_000, 13, 3.0, "<=10KB"),        # exactly 10 KB: upper bound inclusive
    (1, 1, 2, 1.0, "<=10KB"),
    (2, 10_001, 89, 10.0, "10KB-100KB"),
    (3, 100_000, 1, 2.0, "10KB-100KB"),    # exactly 100 KB
    (4, 100_001, 34, 4.0, "100KB-1MB"),
    (5, 1_000_000, 2, 5.0, "100KB-1MB"),   # exactly 1 MB
    (6, 1_000_001, 21, 1.5, "1MB-10MB"),
    (7, 10_000_000, 3, 2.5, "1MB-10MB"),   # exactly 10 MB
    (8, 10_000_001, 8, 1.2, ">10MB"),
    (9, 30_000_000, 5, 1.4, ">10MB"),
]


def flows_frame(rows=FLOWS):
    return pd.DataFrame(
        [{"flow_id": i, "src": "h%d" % i, "dst": "h%d" % (i + 1), "size_bytes": size,
          "start_s": 0.001, "end_s": 0.001 + fct / 1e3, "fct_s": fct / 1e3,
          "ideal_fct_s": fct / 1e3 / sd, "slowdown": sd} for i, size, fct, sd, _ in rows],
        columns=fct_stats.FLOW_COLUMNS)


# Arrival window [1 ms, 3 ms): 0.001 + 0.002 == 0.003 exactly in binary floating point.
PFC_ROWS = [
    (0.0009999, "spine0", 1, "leaf1", 3, "pause", 65535),   # before the window: out
    (0.001, "leaf0", 8, "spine1", 3, "pause", 65535),       # at the start: in
    (0.0015, "leaf0", 8, "spine1", 3, "pause", 65535),      # in
    (0.002, "leaf0", 8, "spine1", 3, "resume", 0),          # a RESUME: never counted
    (0.0029999, "spine1", 2, "leaf2", 3, "pause", 65535),   # in
    (0.003, "spine1", 2, "leaf2", 3, "pause", 65535),       # at the end: out (half-open)
    (0.004, "spine0", 1, "leaf1", 3, "pause", 65535),       # after: out
]

SUMMARY = {
    "simulated_time_s": 0.01, "wall_time_s": 12.5, "events_executed": 123456,
    "flows_total": 12, "flows_completed": 10, "link_frames_sent": 1000,
    "data_packets_sent": 900, "retransmitted_packets": 0, "timeouts": 0,
    "pause_frames_sent": 5, "resume_frames_sent": 1,
    "pause_frames_per_link": {"leaf0->spine1": 2, "spine1->leaf2": 2, "spine0->leaf1": 1},
    "drops": {"buffer": 3, "ttl": 4}, "ecn_marks": 77, "cnps_sent": 11, "cnps_received": 10,
    "cnms_received": 9, "naks_sent": 0,
}
RUN = {"cc": "dcon", "workload": "websearch", "load": 0.6, "load_type": "core",
       "host_load": 0.2, "arrival_start_s": 0.001, "arrival_duration_s": 0.002, "seed": 1,
       "spines": 8, "leaves": 10, "hosts_per_leaf": 24, "link_rate_bps": 40e9,
       "qcnm_fraction": 0.0, "cnm_window_rtts": 3, "flows_generated": 12}


def pfc_frame(rows=PFC_ROWS):
    return pd.DataFrame(rows, columns=fct_stats.PFC_COLUMNS)


def write_run(d, flows=None, pfc=None, summary=SUMMARY, run=RUN):
    os.makedirs(d, exist_ok=True)
    (flows_frame() if flows is None else flows).to_csv(os.path.join(d, "flows.csv"), index=False)
    (pfc_frame() if pfc is None else pfc).to_csv(os.path.join(d, "pfc.csv"), index=False)
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump(run, f)
    with open(os.path.join(d, "summary.json"), "w") as f:
        json.dump(summary, f)


class FctTest(unittest.TestCase):
    def test_average_median_p99(self):
        s = fct_stats.fct_summary(flows_frame())
        self.assertEqual(s["fct_count"], 10)
        self.assertEqual(s["percentile_method"], "linear")
        # mean = (1+2+2+3+5+8+13+21+34+89) / 10 = 178 / 10 = 17.8 ms
        self.assertAlmostEqual(s["avg_fct_s"], 17.8e-3, places=12)
        # median: rank 0.50 * (10-1) = 4.5 -> x[4] + 0.5 * (x[5] - x[4]) = 5 + 0.5*3 = 6.5 ms
        self.assertAlmostEqual(s["median_fct_s"], 6.5e-3, places=12)
        # p99: rank 0.99 * (10-1) = 8.91 -> x[8] + 0.91 * (x[9] - x[8])
        #      = 34 + 0.91 * (89 - 34) = 34 + 50.05 = 84.05 ms
        # ('lower' would give 34 ms, 'nearest' 89 ms, so this pins the linear method)
        self.assertAlmostEqual(s["p99_fct_s"], 84.05e-3, places=12)

    def test_bucket_boundaries(self):
        for _, size, _, _, bucket in FLOWS:
            self.assertEqual(fct_stats.size_bucket(size), bucket, size)
        self.assertEqual(fct_stats.size_bucket(10_000), "<=10KB")
        self.assertEqual(fct_stats.size_bucket(10_000.5), "10KB-100KB")

    def test_slowdown_by_bucket(self):
        b = fct_stats.slowdown_by_bucket(flows_frame())
        self.assertEqual(list(b), ["<=10KB", "10KB-100KB", "100KB-1MB", "1MB-10MB", ">10MB"])
        self.assertEqual([v["count"] for v in b.values()], [2, 2, 2, 2, 2])
        # <=10KB slowdowns sorted 1.0, 3.0 (n = 2, rank = q/100 * 1):
        #   p50 = 1 + 0.50*2 = 2.0, p95 = 1 + 0.95*2 = 2.9, p99 = 1 + 0.99*2 = 2.98
        self.assertAlmostEqual(b["<=10KB"]["p50"], 2.0)
        self.assertAlmostEqual(b["<=10KB"]["p95"], 2.9)
        self.assertAlmostEqual(b["<=10KB"]["p99"], 2.98)
        # 10KB-100KB: 2.0, 10.0 -> p95 = 2 + 0.95*8 = 9.6
        self.assertAlmostEqual(b["10KB-100KB"]["p95"], 9.6)
        # >10MB: 1.2, 1.4 -> p50 = 1.3
        self.assertAlmostEqual(b[">10MB"]["p50"], 1.3)

    def test_empty_bucket_is_null(self):
        b = fct_stats.slowdown_by_bucket(flows_frame(FLOWS[:2]))  # both <= 10 KB
        self.assertEqual(b["<=10KB"]["count"], 2)
        self.assertEqual(b[">10MB"]["count"], 0)
        self.assertIsNone(b[">10MB"]["p99"])

    def test_non_numeric_fct_is_named(self):
        f = flows_frame().astype({"fct_s": object})
        f.loc[3, "fct_s"] = "oops"
        with self.assertRaisesRegex(fct_stats.StatsError, "fct_s.*'oops'"):
            fct_stats.fct_summary(f)


class PauseRateTest(unittest.TestCase):
    def test_window_and_resume(self):
        p = fct_stats.pause_rate(pfc_frame(), 0.001, 0.002)
        # inside [1 ms, 3 ms): pauses at 1.0, 1.5 (leaf0->spine1) and 2.9999 ms (spine1->leaf2)
        # = 3 frames; the resume at 2 ms and the pauses at 0.9999, 3 and 4 ms do not count.
        self.assertEqual(p["pause_frames_in_window"], 3)
        # 3 frames / 0.002 s = 1500 frames/s
        self.assertAlmostEqual(p["pause_rate_per_s"], 1500.0)
        # per link: 2 / 0.002 = 1000, 1 / 0.002 = 500, spine0->leaf1 paused only outside -> 0
        self.assertEqual(p["pause_rate_per_link"],
                         {"leaf0->spine1": 1000.0, "spine0->leaf1": 0.0, "spine1->leaf2": 500.0})

    def test_no_pfc_frames(self):
        p = fct_stats.pause_rate(pd.DataFrame(columns=fct_stats.PFC_COLUMNS), 0.0, 0.005)
        self.assertEqual(p["pause_frames_in_window"], 0)
        self.assertEqual(p["pause_rate_per_s"], 0.0)
        self.assertEqual(p["pause_rate_per_link"], {})

    def test_bad_window(self):
        with self.assertRaisesRegex(fct_stats.StatsError, "arrival_duration_s.*0"):
            fct_stats.pause_rate(pfc_frame(), 0.001, 0)


class StatsTest(unittest.TestCase):
    def test_compute_stats(self):
        s = fct_stats.compute_stats(flows_frame(), pfc_frame(), SUMMARY, RUN)
        self.assertIsNone(s["note"])
        self.assertAlmostEqual(s["avg_fct_s"], 17.8e-3)
        self.assertAlmostEqual(s["pause_rate_per_s"], 1500.0)
        self.assertEqual(s["pause_frames_total"], 5)
        self.assertEqual(s["pause_frames_per_link_total"]["spine0->leaf1"], 1)
        # 10 of 12 flows completed: 10 / 12 = 0.8333...
        self.assertAlmostEqual(s["completion_ratio"], 10 / 12)
        self.assertEqual(s["drops_total"], 7)  # 3 + 4
        for key, value in (("cnps_sent", 11), ("cnms_received", 9), ("ecn_marks", 77),
                           ("flows_total", 12), ("flows_completed", 10), ("wall_time_s", 12.5),
                           ("events_executed", 123456)):
            self.assertEqual(s[key], value, key)
        for key in RUN:  # run.json copied in
            self.assertEqual(s[key], RUN[key], key)

    def test_missing_summary_field_is_named(self):
        summary = dict(SUMMARY)
        del summary["cnms_received"]
        with self.assertRaisesRegex(fct_stats.StatsError, "cnms_received"):
            fct_stats.compute_stats(flows_frame(), pfc_frame(), summary, RUN)

    def test_empty_flows_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "run")
            write_run(d, summary=dict(SUMMARY, flows_completed=0))
            with open(os.path.join(d, "flows.csv"), "w") as f:
                f.write(FLOWS_HEADER)  # finished, but no completed flow
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                self.assertEqual(fct_stats.main([d]), 0)
            self.assertIn("no completed flows", out.getvalue())
            with open(os.path.join(d, "stats.json")) as f:
                s = json.load(f)
            self.assertEqual(s["note"], fct_stats.NO_FLOWS_NOTE)
            self.assertEqual(s["fct_count"], 0)
            self.assertIsNone(s["avg_fct_s"])
            self.assertIsNone(s["p99_fct_s"])
            self.assertIsNone(s["slowdown_by_size"]["<=10KB"]["p50"])
            self.assertEqual(s["completion_ratio"], 0.0)  # 0 / 12
            self.assertAlmostEqual(s["pause_rate_per_s"], 1500.0)  # pauses still counted

    def test_cli_on_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "run")
            write_run(d)
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(fct_stats.main([d]), 0)
            with open(os.path.join(d, "stats.json")) as f:
                s = json.load(f)
            self.assertAlmostEqual(s["p99_fct_s"], 84.05e-3)
            self.assertEqual(s["cc"], "dcon")

    def test_cli_errors_name_the_dir(self):
        with tempfile.TemporaryDirectory() as tmp:
            half = os.path.join(tmp, "half")
            os.makedirs(half)
            with open(os.path.join(half, "run.json"), "w") as f:
                json.dump(RUN, f)
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                rc = fct_stats.main([os.path.join(tmp, "nope"), half])
            self.assertEqual(rc, 1)
            self.assertIn("nope: no such run directory", err.getvalue())
            self.assertIn("half: not a complete run", err.getvalue())
            self.assertFalse(os.path.exists(os.path.join(half, "stats.json")))


FAKE_SIM = textwrap.dedent('''\
    #!/usr/bin/python3
    """Stand-in for dcon-large-scale: fails if every token of $FAKE_SIM_FAIL is in argv."""
    import json, os, sys
    args = dict(a[2:].split("=", 1) for a in sys.argv[1:])
    fail = os.environ.get("FAKE_SIM_FAIL")
    if fail and all(t in sys.argv[1:] for t in fail.split(",")):
        sys.stderr.write("line1\\nerror: simulated failure for " + args["load"] + "\\n")
        sys.exit(3)
    d = args["outdir"]
    os.makedirs(d)
    load = float(args["load"])
    T = float(args["cnmWindowRtts"])
    # one flow with FCT = load * T ms; pause frames 0..9 at 0.1 ms steps, window [0, 1 ms)
    with open(os.path.join(d, "flows.csv"), "w") as f:
        f.write("flow_id,src,dst,size_bytes,start_s,end_s,fct_s,ideal_fct_s,slowdown\\n")
        f.write("0,h0,h1,1000,0,%r,%r,0.0001,1\\n" % (load * T / 1e3, load * T / 1e3))
    with open(os.path.join(d, "pfc.csv"), "w") as f:
        f.write("time_s,node,port,peer,priority,event,quanta\\n")
        for i in range(10):
            f.write("%r,leaf0,1,spine0,3,pause,65535\\n" % (i * 1e-4,))
    json.dump({"cc": args["cc"], "arrival_start_s": 0.0, "arrival_duration_s": 0.001,
               "load": load}, open(os.path.join(d, "run.json"), "w"))
    json.dump({"wall_time_s": 1.0, "events_executed": 10, "flows_total": 2,
               "flows_completed": 1, "pause_frames_sent": 10, "drops": {},
               "ecn_marks": 0, "cnps_sent": 4, "cnms_received": 5},
              open(os.path.join(d, "summary.json"), "w"))
''')


class SweepTest(unittest.TestCase):
    def test_run_name(self):
        r = large_sweep.Run("websearch", "dcon", 0.8, 0.0, 3, 1, "5ms", "full")
        self.assertEqual(large_sweep.run_name(r), "websearch-dcon-load0.8-q0-T3-s1-d5ms-full")
        r = large_sweep.Run("websearch", "dcon", 0.4, 0.6, 2, 7, "2ms", "small")
        self.assertEqual(large_sweep.run_name(r), "websearch-dcon-load0.4-q0.6-T2-s7-d2ms-small")

    def test_duration(self):
        self.assertEqual(large_sweep.canonical_duration("5.0ms"), "5ms")
        self.assertEqual(large_sweep.canonical_duration("500us"), "500us")
        for bad in ("5", "5 parsecs", "0ms", "-1ms"):
            with self.assertRaisesRegex(large_sweep.SweepError, repr(bad)):
                large_sweep.canonical_duration(bad)

    def test_bad_input_exit_code(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(large_sweep.main(["fig9", "--scale", "huge"]), 2)
        self.assertIn("'huge'", err.getvalue())

    def test_run_counts(self):
        a = ([0.4, 0.5, 0.6, 0.7, 0.8], [1], "5ms", "full")
        # 5 loads x 4 schemes = 20; fig11/12: 5 loads x 3 settings = 15
        self.assertEqual(len(large_sweep.fig_runs("fig9", *a)), 20)
        self.assertEqual(len(large_sweep.fig_runs("fig10", *a)), 20)
        self.assertEqual(len(large_sweep.fig_runs("fig11", *a)), 15)
        self.assertEqual(len(large_sweep.fig_runs("fig12", *a)), 15)
        two_seeds = ([0.4, 0.5, 0.6, 0.7, 0.8], [1, 2], "5ms", "full")
        self.assertEqual(len(large_sweep.fig_runs("fig9", *two_seeds)), 40)  # 20 per seed

    def test_shared_runs_deduplicated(self):
        a = ([0.4, 0.5, 0.6, 0.7, 0.8], [1], "5ms", "full")
        # fig9's dcon runs (q dynamic, T 3) = fig12's T=3 runs; fig11 runs at Q_ECN 100 KB and
        # shares nothing: 20 + 15 + (15 - 5) = 45 distinct runs for fig9 + fig11 + fig12
        self.assertEqual(len(large_sweep.plan(["fig9", "fig11", "fig12"], *a)), 45)
        self.assertEqual(len(large_sweep.plan(["fig11", "fig12"], *a)), 30)
        # all: + fig10's 20 (DataMining, shares nothing) = 65
        self.assertEqual(len(large_sweep.plan(large_sweep.FIG_NAMES, *a)), 65)
        names9 = {large_sweep.run_name(r) for r in large_sweep.fig_runs("fig9", *a)}
        names11 = {large_sweep.run_name(r) for r in large_sweep.fig_runs("fig11", *a)}
        names12 = {large_sweep.run_name(r) for r in large_sweep.fig_runs("fig12", *a)}
        self.assertIn("websearch-dcon-load0.6-q0-T3-s1-d5ms-full", names9 & names12)
        self.assertEqual(len(names9 & names12), 5)
        self.assertEqual(len(names9 & names11), 0)
        self.assertIn("websearch-dcon-load0.6-q0.4-T3-s1-d5ms-full-e100KB", names11)
        # quick: 3 loads -> fig9 12 runs, all 12 + 12 + 9 + 6 = 39
        q = ([0.4, 0.6, 0.8], [1], "2ms", "small")
        self.assertEqual(len(large_sweep.plan(large_sweep.FIG_NAMES, *q)), 39)

    def test_fig11_sets_qecn(self):
        # Fig. 11 passes Q_ECN = 100 KB as Kmin = Kmax; the other figures keep the default.
        a = ([0.8], [1], "5ms", "full")
        cmd11 = large_sweep.command("sim", large_sweep.fig_runs("fig11", *a)[0], "out")
        self.assertIn("--kmin=100KB", cmd11)
        cmd9 = large_sweep.command("sim", large_sweep.fig_runs("fig9", *a)[0], "out")
        self.assertIn("--kmin=200KB", cmd9)

    def test_completeness(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "websearch-dcon-load0.4-q0-T3-s1-d5ms-full")
            os.makedirs(d)
            open(os.path.join(d, "run.json"), "w").close()
            self.assertFalse(large_sweep.is_complete(d))  # only run.json
            d1 = os.path.join(tmp, "only-summary")
            os.makedirs(d1)
            open(os.path.join(d1, "summary.json"), "w").close()
            self.assertFalse(large_sweep.is_complete(d1))  # only summary.json
            open(os.path.join(d, "summary.json"), "w").close()
            self.assertTrue(large_sweep.is_complete(d))
            # a finished-looking .tmp dir does not make its run complete
            d2 = os.path.join(tmp, "websearch-dcon-load0.5-q0-T3-s1-d5ms-full")
            os.makedirs(d2 + ".tmp")
            for n in ("run.json", "summary.json"):
                open(os.path.join(d2 + ".tmp", n), "w").close()
            self.assertFalse(large_sweep.is_complete(d2))
            self.assertFalse(large_sweep.is_complete(d2 + ".tmp"))

    def make_fake(self, tmp):
        build = os.path.join(tmp, "build")
        os.makedirs(os.path.join(build, "examples"))
        sim = os.path.join(build, "examples", "dcon-large-scale")
        with open(sim, "w") as f:
            f.write(FAKE_SIM)
        os.chmod(sim, os.stat(sim).st_mode | stat.S_IXUSR)
        return build

    def test_sweep_end_to_end(self):
        with tempfile.TemporaryDirectory() as tmp:
            build = self.make_fake(tmp)
            res = os.path.join(tmp, "res")
            argv = ["fig12", "--quick", "--jobs", "2", "--build", build, "--results", res]
            # leftovers of an interrupted sweep: a .tmp and a dir with only run.json
            stale = os.path.join(res, "websearch-dcon-load0.4-q0-T2-s1-d2ms-small")
            os.makedirs(stale + ".tmp")
            os.makedirs(stale)
            open(os.path.join(stale, "run.json"), "w").close()
            os.environ["FAKE_SIM_FAIL"] = "--load=0.6,--cnmWindowRtts=4"
            try:
                err, out = io.StringIO(), io.StringIO()
                with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
                    rc = large_sweep.main(argv)
            finally:
                del os.environ["FAKE_SIM_FAIL"]
            self.assertEqual(rc, 1)  # one failed run -> nonzero, the other 8 finished
            self.assertIn("simulated failure for 0.6", err.getvalue())
            failed = os.path.join(res, "websearch-dcon-load0.6-q0-T4-s1-d2ms-small")
            self.assertFalse(os.path.exists(failed))
            self.assertTrue(large_sweep.is_complete(stale))
            self.assertFalse(os.path.exists(stale + ".tmp"))
            table = pd.read_csv(os.path.join(res, "fig12.csv"))
            self.assertEqual(len(table), 8)  # 3 loads x 3 T - 1 failed
            row = table[(table.load == 0.8) & (table.cnm_window_rtts == 2)].iloc[0]
            # fake FCT = load * T ms = 0.8 * 2 = 1.6 ms; 10 pauses in a 1 ms window = 10000/s
            self.assertAlmostEqual(row.avg_fct_s, 1.6e-3)
            self.assertAlmostEqual(row.pause_rate_per_s, 10000.0)
            self.assertEqual(row.cnps, 4)
            self.assertEqual(row.cnms, 5)
            self.assertAlmostEqual(row.completion_ratio, 0.5)  # 1 / 2
            self.assertTrue(os.path.isfile(os.path.join(res, "fig12.png")))
            # rerun: the 8 finished runs are skipped, only the failed one is redone
            err, out = io.StringIO(), io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
                rc = large_sweep.main(argv)
            self.assertEqual(rc, 0)
            self.assertIn("9 runs, 8 already finished, 1 to do", out.getvalue())
            self.assertTrue(large_sweep.is_complete(failed))
            self.assertFalse(os.path.exists(failed + ".tmp"))
            self.assertEqual(len(pd.read_csv(os.path.join(res, "fig12.csv"))), 9)

    def test_missing_binary(self):
        with tempfile.TemporaryDirectory() as tmp:
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                rc = large_sweep.main(["fig9", "--build", os.path.join(tmp, "nobuild"),
                                       "--results", os.path.join(tmp, "r")])
            self.assertEqual(rc, 2)
            self.assertIn("nobuild", err.getvalue())


FAKE_TESTBED = textwrap.dedent('''\
    #!/usr/bin/python3
    """Stand-in for dcon-testbed: exits 4 for --cc=$FAKE_TB_FAIL; else 3 flows with FCT
    1, 2 and 3 ms times the interval (us) or the size (KB) / 10."""
    import json, os, sys
    args = dict(a[2:].split("=", 1) for a in sys.argv[1:])
    if args["cc"] == os.environ.get("FAKE_TB_FAIL"):
        sys.stderr.write("error: simulated failure of " + args["cc"] + "\\n")
        sys.exit(4)
    d = args["outdir"]
    os.makedirs(d)
    iv = int(args["burstInterval"][:-2])
    kb = int(args["burstFlowSize"]) // 1000
    x = iv if kb == 64 and iv != 15 else kb / 10
    with open(os.path.join(d, "flows.csv"), "w") as f:
        f.write("flow_id,src,dst,size_bytes,start_s,end_s,fct_s,ideal_fct_s,slowdown\\n")
        for i in range(3):
            f.write("%d,h0,h1,1000,0,0,%r,0.0001,1\\n" % (i, (i + 1) * x / 1e3))
    json.dump({"wall_time_s": 1.0}, open(os.path.join(d, "summary.json"), "w"))
''')


class BurstSweepTest(unittest.TestCase):
    def test_runs_and_command(self):
        plan = burst_sweep.runs(["dcon", "dcqcn"], quick=True)
        self.assertEqual(len(plan), 12)  # 2 schemes x (3 intervals + 3 sizes)
        self.assertEqual(list(plan)[:4], ["interval-dcon-10", "interval-dcon-20",
                                          "interval-dcon-30", "size-dcon-32"])
        self.assertEqual(len(burst_sweep.runs(["dcon"], quick=False)), 10)
        cmd = burst_sweep.command("tb", plan["size-dcqcn-512"], "out")
        self.assertEqual(cmd[:3], ["tb", "--cc=dcqcn", "--outdir=out"])
        self.assertIn("--burstFlowSize=512000", cmd)
        self.assertIn("--burstInterval=15us", cmd)
        self.assertIn("--burstFlowsPerHost=30", cmd)

    def test_sweep_end_to_end(self):
        with tempfile.TemporaryDirectory() as tmp:
            sim = os.path.join(tmp, "dcon-testbed")
            with open(sim, "w") as f:
                f.write(FAKE_TESTBED)
            os.chmod(sim, os.stat(sim).st_mode | stat.S_IXUSR)
            res = os.path.join(tmp, "fig7")
            argv = ["--ccs", "dcon", "dcqcn", "--quick", "-j", "2", "--binary", sim,
                    "--outdir", res]
            os.environ["FAKE_TB_FAIL"] = "dcqcn"
            try:
                err = io.StringIO()
                with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                    rc = burst_sweep.main(argv)
            finally:
                del os.environ["FAKE_TB_FAIL"]
            self.assertEqual(rc, 1)  # dcqcn's 6 runs failed, dcon's 6 finished
            self.assertIn("simulated failure of dcqcn", err.getvalue())
            self.assertFalse(os.path.exists(os.path.join(res, "size-dcqcn-32")))
            table = pd.read_csv(os.path.join(res, "fig7.csv"))
            self.assertEqual(len(table), 6)
            row = table[(table.panel == "interval") & (table.value == 20)].iloc[0]
            # FCTs 20, 40, 60 ms -> average 40 ms; the short flow (id 2): 60 ms
            self.assertAlmostEqual(row.avg_fct_ms, 40.0)
            self.assertAlmostEqual(row.avg_short_fct_ms, 60.0)
            row = table[(table.panel == "size") & (table.value == 128)].iloc[0]
            self.assertAlmostEqual(row.avg_fct_ms, 25.6)  # 12.8 x (1 + 2 + 3) / 3
            out = io.StringIO()
            with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(out):
                rc = burst_sweep.main(argv)
            self.assertEqual(rc, 0)
            self.assertIn("12 runs, 6 already finished, 6 to do", out.getvalue())
            self.assertEqual(len(pd.read_csv(os.path.join(res, "fig7.csv"))), 12)

    def test_missing_binary(self):
        with tempfile.TemporaryDirectory() as tmp:
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                rc = burst_sweep.main(["--binary", os.path.join(tmp, "nosim"),
                                       "--outdir", os.path.join(tmp, "r")])
            self.assertEqual(rc, 2)
            self.assertIn("nosim", err.getvalue())


class PlotTest(unittest.TestCase):
    def test_aggregate_seeds(self):
        t = pd.DataFrame({"load": [0.4, 0.4, 0.4, 0.6, 0.8],
                          "avg_fct_s": [1.0, 2.0, 6.0, math.nan, 5.0]})
        a = plot_large.aggregate(t, "avg_fct_s")
        # load 0.4: mean (1+2+6)/3 = 3, min 1, max 6; load 0.6 has no value -> left out
        self.assertEqual(list(a.index), [0.4, 0.8])
        self.assertEqual(list(a["mean"]), [3.0, 5.0])
        self.assertEqual(list(a["min"]), [1.0, 5.0])
        self.assertEqual(list(a["max"]), [6.0, 5.0])
        self.assertEqual(list(a["n"]), [3, 1])

    def test_series_rows_numeric(self):
        t = pd.DataFrame({"qcnm_fraction": [0.4, 0.0, 0.6], "load": [0.4] * 3})
        self.assertEqual(len(plot_large.series_rows(t, "qcnm_fraction", 0.0)), 1)

    def test_plot_with_missing_points_and_tables(self):
        with tempfile.TemporaryDirectory() as tmp:
            rows = []
            for cc in ("dcon", "dcqcn"):  # swift, pcn missing entirely
                for load, seed in ((0.4, 1), (0.4, 2), (0.8, 1)):
                    rows.append({"cc": cc, "load": load, "seed": seed, "scale": "small",
                                 "duration": "2ms", "pause_rate_per_s": 100.0 * load,
                                 "avg_fct_s": math.nan if cc == "dcqcn" else 1e-3,
                                 "p99_fct_s": 2e-3})
            pd.DataFrame(rows).to_csv(os.path.join(tmp, "fig9.csv"), index=False)
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                written = plot_large.plot_dir(tmp)
            self.assertEqual(written, [os.path.join(tmp, "fig9.png")])
            self.assertIn("skipping fig10", err.getvalue())


if __name__ == "__main__":
    unittest.main()

"""Tests of scripts/testbed_readings.py: the testbed's facts from a synthetic run directory, by
the C++ rules, and a sweep with a stand-in for examples/dcon-testbed.

Run from the repository root: /usr/bin/python3 -m scripts.tests.test_testbed_readings
"""
import os
import tempfile
import textwrap
import unittest

import pandas as pd

from .. import testbed_readings as tr
from .. import variants
from .test_fct_stats import quiet, write_executable

# Writes a testbed run directory: throughput samples every 20 us from 0 to 60 ms (time_s with 12
# decimals, as the example writes it). f0 and f1: 20 Gb/s up to and at 30 ms, except 1000 Gb/s
# at exactly 28 ms (its interval (27.98, 28] starts before the 'before' window: left out);
# DURING Gb/s in (30 ms, 36 ms], 15 Gb/s after. Burst flows 2, 3, 4 complete at 34, 35, 36 ms.
# Shared by the tests and the stand-in simulator (exec'd there).
WRITER = textwrap.dedent('''\
    import json, os

    def write_run(d, pauses, during0, during1, burst_ends=(0.034, 0.035, 0.036), total=5):
        os.makedirs(d)
        with open(os.path.join(d, "throughput.csv"), "w") as f:
            f.write("time_s,flow,gbps\\n")
            for flow, during in ((0, during0), (1, during1)):
                for j in range(3001):
                    t = j * 2e-5
                    g = 1000.0 if j == 1400 else 20.0 if j <= 1500 else (
                        during if j <= 1800 else 15.0)
                    f.write("%.12f,%d,%.6f\\n" % (t, flow, g))
        with open(os.path.join(d, "flows.csv"), "w") as f:
            f.write("flow_id,src,dst,size_bytes,start_s,end_s,fct_s,ideal_fct_s,slowdown\\n")
            for i, end in enumerate(burst_ends):
                f.write("%d,H2,R1,64000,0.030000000000,%.12f,%.12f,0.0000545676,2\\n"
                        % (i + 2, end, end - 0.03))
        with open(os.path.join(d, "summary.json"), "w") as f:
            json.dump({"flows_total": total, "flows_completed": len(burst_ends),
                       "pause_frames_per_link": pauses, "wall_time_s": 1.0}, f)
''')
_writer = {}
exec(WRITER, _writer)
write_run = _writer["write_run"]

DCQCN_PAUSES = {"L2->S1": 3, "S1->L0": 2, "S1->L1": 1, "L0->H2": 7}
# What dcon-testbed printed for a real DCQCN run (15 us spacing, seed 1).
REAL_STDOUT = """cc=dcqcn wall=2.27852s
  PAUSE frames L2->S1 125, S1->L0 82, S1->L1 74
  f0 throughput (Gb/s): before burst 18.484, during 0.689017, end of run 14.6148
  f1 throughput (Gb/s): before burst 18.488, during 0.677457
  burst from +30ms to +36.9335ms (its last flow's completion)
  results in /tmp/tb1
"""

FAKE_TESTBED = textwrap.dedent('''\
    #!/usr/bin/python3
    """Stand-in for dcon-testbed: exits 4 for --cc=$FAKE_TB_FAIL; DCON-like readings (no
    L2->S1 pause, f0 at 12 Gb/s during the burst) for --cc=dcon, DCQCN-like ones otherwise;
    prints the example's summary lines (a wrong f0 'before' for --cc=$FAKE_TB_LIE)."""
    import os, sys
    args = dict(a[2:].split("=", 1) for a in sys.argv[1:])
    if args["cc"] == os.environ.get("FAKE_TB_FAIL"):
        sys.stderr.write("error: simulated failure of " + args["cc"] + "\\n")
        sys.exit(4)
    exec(os.environ["FAKE_TB_WRITER"])
    dcon = args["cc"] == "dcon"
    pauses = {"S1->L0": 2} if dcon else {"L2->S1": 3, "S1->L0": 2, "S1->L1": 1}
    during0 = 12.0 if dcon else 2.0
    write_run(args["outdir"], pauses, during0, 1.0)
    before = 21 if args["cc"] == os.environ.get("FAKE_TB_LIE") else 20
    print("cc=%s wall=1s" % args["cc"])
    print("  PAUSE frames L2->S1 %d, S1->L0 %d, S1->L1 %d" % tuple(
        pauses.get(k, 0) for k in ("L2->S1", "S1->L0", "S1->L1")))
    print("  f0 throughput (Gb/s): before burst %d, during %g, end of run 15" % (before, during0))
    print("  f1 throughput (Gb/s): before burst 20, during 1")
    print("  burst from +30ms to +36ms (its last flow's completion)")
''')


class FactsTest(unittest.TestCase):
    def test_readings_and_facts(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "run")
            write_run(d, DCQCN_PAUSES, 2.0, 1.0)
            r = tr.readings(d)
        self.assertEqual((r["pauses_l2_s1"], r["pauses_s1_l0"], r["pauses_s1_l1"]), (3, 2, 1))
        # before: samples t in [28.02, 30] ms, all 20 (the 1000 at 28 ms is left out)
        self.assertEqual(r["f0_before_gbps"], 20.0)
        self.assertEqual(r["f1_before_gbps"], 20.0)
        # during: (30, 36] ms -> samples 30.02 .. 36 ms, all 2 (f0) / 1 (f1)
        self.assertEqual(r["burst_end_ms"], 36.0)
        self.assertEqual(r["f0_during_gbps"], 2.0)
        self.assertEqual(r["f1_during_gbps"], 1.0)
        self.assertEqual(r["f0_end_gbps"], 15.0)  # (57, 60] ms
        f = tr.facts(r)
        self.assertEqual(tr.verdict(f, "dcqcn"), ("dcqcn", "PASS", []))
        # DCON's: L2 pauses S1 (3 frames), f1 throttled (1 < 10), f0 kept 2 < 10
        self.assertEqual(tr.verdict(f, "dcon"), (
            "dcon", "FAIL", ["L2 never pauses S1", "f0 keeps half its rate during the burst"]))
        self.assertEqual(tr.verdict(f, "pcn"), ("none", "-", []))

    def test_boundaries(self):
        # 0.5 x before is the line: 10 Gb/s keeps half (>=) and does not collapse (not <)
        r = {"pauses_l2_s1": 0, "pauses_s1_l0": 0, "pauses_s1_l1": 0, "f0_before_gbps": 20.0,
             "f0_during_gbps": 10.0, "f0_end_gbps": 10.0, "f1_before_gbps": 20.0,
             "f1_during_gbps": 10.0}
        f = tr.facts(r)
        self.assertTrue(f["f0_keeps_half"])
        self.assertFalse(f["f0_collapses"])
        self.assertFalse(f["f1_throttled"])
        self.assertFalse(f["f0_recovers"])  # end must exceed half
        self.assertTrue(f["l2_never_pauses_s1"])
        self.assertEqual(tr.verdict(f, "dcqcn")[2], [
            "L2 pauses S1", "S1 pauses L0", "S1 pauses L1", "f0 collapses during the burst",
            "f1 collapses during the burst", "f0 recovers after the burst"])

    def test_burst_end(self):
        with tempfile.TemporaryDirectory() as tmp:
            # flow 4 never completed: the burst lasts until the stop time, 60 ms; during =
            # (300 samples of 2 + 1200 of 15) / 1500 = 12.4
            d = os.path.join(tmp, "a")
            write_run(d, {}, 2.0, 1.0, burst_ends=(0.034, 0.035))
            r = tr.readings(d)
            self.assertEqual(r["burst_end_ms"], 60.0)
            self.assertAlmostEqual(r["f0_during_gbps"], 12.4)
            self.assertEqual(r["pauses_l2_s1"], 0)  # no such link in summary.json: 0
            # a burst flow completing after the stop time: the stop time too
            d = os.path.join(tmp, "b")
            write_run(d, {}, 2.0, 1.0, burst_ends=(0.034, 0.035, 0.07))
            self.assertEqual(tr.readings(d)["burst_end_ms"], 60.0)
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaisesRegex(tr.ReadingsError, "summary.json"):
                tr.readings(tmp)

    def test_same_as_the_example_prints(self):
        printed = tr.parse_stdout(REAL_STDOUT)
        self.assertEqual(printed["pauses_s1_l1"], 74)
        self.assertEqual(printed["f0_during_gbps"], 0.689017)
        self.assertEqual(printed["burst_end_ms"], 36.9335)
        computed = dict(printed, f0_end_gbps=14.614765100671141, burst_end_ms=36.9334908)
        self.assertTrue(tr.agrees(computed, printed))
        self.assertFalse(tr.agrees(dict(computed, f0_end_gbps=14.62), printed))
        self.assertIsNone(tr.agrees(computed, {}))

    def test_plan_and_command(self):
        runs = tr.plan(["dcqcn", "dcon-old"], ["15us", "230us"], [1, 2])
        self.assertEqual(list(runs)[:3], ["dcqcn-i15us-s1", "dcqcn-i15us-s2", "dcqcn-i230us-s1"])
        self.assertEqual(len(runs), 8)
        cmd = tr.command("tb", runs["dcon-old-i230us-s2"], "out")
        self.assertEqual(cmd, ["tb"] + variants.args("dcon-old") + [
            "--burstInterval=230us", "--burstStart=30ms", "--stopTime=60ms",
            "--sampleInterval=20us", "--spreading=true", "--outdir=out", "--RngRun=2"])
        self.assertEqual(len(tr.plan(tr.VARIANTS, tr.SPACINGS, [1])), 2 * len(tr.VARIANTS))
        with self.assertRaises(variants.VariantError):
            tr.plan(["nope"], ["15us"], [1])
        # the other readings of the scenario: placement and how f0/f1 reach the fair share
        runs = tr.plan(["dcon"], ["230us"], [3], ["ecmp", "vias0"], ["fair", "run"])
        self.assertEqual(list(runs), ["dcon-i230us-s3", "dcon-i230us-run-s3",
                                      "dcon-i230us-vias0-s3", "dcon-i230us-vias0-run-s3"])
        cmd = tr.command("tb", runs["dcon-i230us-vias0-run-s3"], "out")
        self.assertEqual(cmd[:4], ["tb", "--cc=dcon", "--burstViaS0=true",
                                   "--longFlowStartRate=0"])
        self.assertEqual(tr.run_args(runs["dcon-i230us-s3"]),
                         ["--cc=dcon", "--burstInterval=230us", "--burstStart=30ms",
                          "--stopTime=60ms", "--sampleInterval=20us", "--spreading=true",
                          "--RngRun=3"])
        with self.assertRaises(tr.sweep_runner.SweepError):
            tr.plan(["dcon"], ["15us"], [1], ["nowhere"])


class DocTablesTest(unittest.TestCase):
    def rows(self, variant, expected, seeds, **cols):
        base = {"variant": variant, "expected": expected, "spacing": "15us",
                "placement": "ecmp", "start": "fair", "pauses_l2_s1": 10, "pauses_s1_l0": 5,
                "pauses_s1_l1": 0, "f0_before_gbps": 18.0, "f0_during_gbps": 9.0,
                "f0_end_gbps": 20.0, "f1_during_gbps": 1.0, "cnms_f0": 0, "cnms_f1": 3,
                "f0_victim_s": 0.002}
        base.update({c: False for c, *_ in tr.FACTS})
        out = []
        for i in range(seeds):
            r = dict(base)
            for k, v in cols.items():
                r[k] = v[i] if isinstance(v, list) else v
            out.append(r)
        return out

    def test_means_and_facts(self):
        # DCON, two seeds: L2->S1 10 and 13 (mean 11.5, shown rounded half to even: 12), f0
        # victim 2 and 4 ms (3.00); "f1 throttled" holds in both seeds, "f0 keeps half" in
        # one only: 1 of 3. DCQCN, one seed, every Fig. 2 fact: all 6. PCN: none published.
        t = pd.DataFrame(
            self.rows("dcon", "dcon", 2, pauses_l2_s1=[10, 13], f0_victim_s=[0.002, 0.004],
                      f1_throttled=True, f0_keeps_half=[True, False])
            + self.rows("dcqcn", "dcqcn", 1, cnms_f0=float("nan"), cnms_f1=float("nan"),
                        **{c: True for c, _, which, _ in tr.FACTS if which == "dcqcn"})
            + self.rows("pcn", "", 1))
        lines = tr.doc_tables(t, ["dcqcn", "dcon", "pcn"]).split("\n")
        self.assertTrue(lines[1].startswith("15us, ecmp, fair  PAUSE"))
        rows = {l.split()[0]: l for l in lines[3:-1]}
        self.assertEqual(list(rows), ["dcqcn", "dcon", "pcn"])
        self.assertIn("12 / 5 / 0", rows["dcon"])
        self.assertIn("18.0 / 9.00 / 20.0", rows["dcon"])
        self.assertIn("0 / 3", rows["dcon"])
        self.assertTrue(rows["dcon"].endswith("3.00          Fig. 6: 1 of 3 (f1 is throttled)"))
        self.assertTrue(rows["dcqcn"].endswith("Fig. 2: all 6"))
        self.assertIn("  -  ", rows["dcqcn"])  # no CNM column for DCQCN
        self.assertTrue(rows["pcn"].endswith("(none published)"))


class SweepTest(unittest.TestCase):
    def test_end_to_end(self):
        with tempfile.TemporaryDirectory() as tmp:
            sim = write_executable(os.path.join(tmp, "dcon-testbed"), FAKE_TESTBED)
            res = os.path.join(tmp, "r")
            store = os.path.join(tmp, "store")
            argv = ["--variants", "dcqcn", "dcon", "pcn", "dcon-m1", "-j", "2", "--binary", sim,
                    "--results", res, "--store", store]
            env = {"FAKE_TB_FAIL": "pcn", "FAKE_TB_LIE": "dcqcn"}
            os.environ.update(env, FAKE_TB_WRITER=WRITER)
            try:
                rc, out, err = quiet(tr.main, argv)
            finally:
                for k in env:
                    del os.environ[k]
            self.assertEqual(rc, 1)  # pcn's two runs failed
            self.assertIn("simulated failure of pcn", err)
            self.assertIn("dcqcn-i15us-s1: the facts computed here differ", err)
            t = pd.read_csv(os.path.join(res, "readings.csv"))
            self.assertEqual(list(t.run), ["dcqcn-i15us-s1", "dcqcn-i230us-s1", "dcon-i15us-s1",
                                           "dcon-i230us-s1", "dcon-m1-i15us-s1",
                                           "dcon-m1-i230us-s1"])
            self.assertEqual(list(t.verdict), ["PASS"] * 6)
            self.assertEqual(list(t.expected), ["dcqcn"] * 2 + ["dcon"] * 4)
            self.assertEqual(list(t.stdout_agrees), [False] * 2 + [True] * 4)
            row = t[t.run == "dcon-m1-i230us-s1"].iloc[0]
            self.assertEqual((row.cc, row.spacing, row.seed), ("dcon", "230us", 1))
            self.assertEqual(row.f0_during_gbps, 12.0)
            self.assertEqual(row.pauses_l2_s1, 0)
            self.assertTrue(row.f0_keeps_half)
            self.assertIn("dcon-m1", out)
            # rerun: the finished runs are skipped, pcn's redone
            try:
                rc, out, _ = quiet(tr.main, argv + ["--seeds", "1"])
            finally:
                del os.environ["FAKE_TB_WRITER"]
            self.assertIn("6 of 8 runs have a current record", out)
            self.assertIn("2 runs, 0 already finished, 2 to do", out)
            self.assertEqual(rc, 0)  # FAKE_TB_FAIL no longer set
            t = pd.read_csv(os.path.join(res, "readings.csv"))
            self.assertEqual(t[t.variant == "pcn"].verdict.tolist(), ["-", "-"])
            # the records alone give the same table (the raw results deleted)
            before = t
            import shutil
            shutil.rmtree(res)
            rc, out, _ = quiet(tr.main, argv[:-4] + ["--results", res, "--store", store,
                                                     "--binary", sim])
            self.assertEqual(rc, 0)
            self.assertIn("8 of 8 runs have a current record", out)
            after = pd.read_csv(os.path.join(res, "readings.csv"))
            pd.testing.assert_frame_equal(before, after)

    def test_bad_input(self):
        with tempfile.TemporaryDirectory() as tmp:
            for argv, what in ((["--binary", os.path.join(tmp, "nosim")], "nosim"),
                               (["--variants", "nope"], "'nope'"),
                               (["--spacings", "15"], "--spacings"),
                               (["--seeds", "0"], "--seeds")):
                rc, _, err = quiet(tr.main, argv + ["--results", os.path.join(tmp, "r"),
                                                    "--store", "none"])
                self.assertEqual(rc, 2, argv)
                self.assertIn(what, err)


if __name__ == "__main__":
    unittest.main()

"""Tests of scripts/testbed_readings.py: the testbed's readings and facts read from a run's
facts.json (hand-made ones with known verdicts, and one of a short run of the real dcon-testbed
when ctest gives its path in DCON_TESTBED_BINARY), the records of data/validation/testbed, and a
sweep with a stand-in for examples/dcon-testbed.

Run from the repository root: /usr/bin/python3 -m scripts.tests.test_testbed_readings
"""
import glob
import json
import math
import os
import re
import shutil
import subprocess
import tempfile
import textwrap
import unittest

import pandas as pd

from .. import run_store
from .. import testbed_readings as tr
from .. import variants
from .test_fct_stats import quiet, write_executable

# Writes a testbed run directory as dcon-testbed leaves it for the sweep: facts.json (the
# readings, every fact of Fig. 2 and Fig. 6 with whether it holds as given, the expected figure,
# the verdict) and summary.json. Shared by the tests and the stand-in simulator (exec'd there).
WRITER = textwrap.dedent('''\
    import json, os

    FIG2 = ["L2 pauses S1", "S1 pauses L0", "S1 pauses L1", "f0 collapses during the burst",
            "f1 collapses during the burst", "f0 recovers after the burst"]
    FIG6 = ["L2 never pauses S1", "f1 is throttled during the burst",
            "f0 keeps half its rate during the burst"]

    def facts_json(pauses=(3, 2, 1), f0=(20.0, 2.0, 15.0), f1=(20.0, 1.0), burst_end_s=0.036,
                   failing=(), expected=None, verdict="PASS", cnms=(0, 5, 4, 7), spread=None):
        """A facts.json: every fact holds but those named in `failing`; `expected` is the figure
        the paper shows for the run's scheme (None: neither)."""
        data = {"pauses_l2_s1": pauses[0], "pauses_s1_l0": pauses[1], "pauses_s1_l1": pauses[2],
                "f0_before_gbps": f0[0], "f0_during_gbps": f0[1], "f0_end_gbps": f0[2],
                "f1_before_gbps": f1[0], "f1_during_gbps": f1[1], "burst_end_s": burst_end_s,
                "cnms_f0": cnms[0], "cnms_f1": cnms[1], "cnms_f1_applied": cnms[2],
                "cnms_burst": cnms[3]}
        if spread:
            data.update(zip(["f0_victim_s", "f0_culprit_s", "f1_victim_s", "f1_culprit_s",
                             "max_pause_depth"], spread))
        data["facts"] = [{"figure": fig, "fact": name, "holds": name not in failing,
                          "expected": fig == expected, "value": 1.0, "relation": ">",
                          "threshold": 0.0}
                         for fig, names in (("Fig. 2", FIG2), ("Fig. 6", FIG6)) for name in names]
        data["verdict"] = verdict
        return data

    def write_run(d, **kw):
        os.makedirs(d)
        with open(os.path.join(d, "facts.json"), "w") as f:
            json.dump(facts_json(**kw), f, indent=2)
        with open(os.path.join(d, "summary.json"), "w") as f:
            json.dump({"flows_total": 5, "flows_completed": 5, "wall_time_s": 1.0}, f)
''')
_writer = {}
exec(WRITER, _writer)
facts_json, write_run = _writer["facts_json"], _writer["write_run"]

FAKE_TESTBED = textwrap.dedent('''\
    #!/usr/bin/python3
    """Stand-in for dcon-testbed: exits 4 for --cc=$FAKE_TB_FAIL; a DCQCN run showing Fig. 2 for
    --cc=dcqcn; for --cc=dcon a run showing Fig. 6 (no L2->S1 pause, f0 at 12 Gb/s during the
    burst), except with --qcnmFanOut=1 (dcon-m1), whose f0 does not keep half its rate (its
    readings say otherwise: the verdict is facts.json's); no expectation for the others."""
    import os, sys
    args = dict(a[2:].split("=", 1) for a in sys.argv[1:])
    if args["cc"] == os.environ.get("FAKE_TB_FAIL"):
        sys.stderr.write("error: simulated failure of " + args["cc"] + "\\n")
        sys.exit(4)
    exec(os.environ["FAKE_TB_WRITER"])
    cc = args["cc"]
    if cc == "dcqcn":
        write_run(args["outdir"], expected="Fig. 2", failing=FIG6[0:1] + FIG6[2:])
    elif cc == "dcon":
        m1 = args.get("qcnmFanOut") == "1"
        write_run(args["outdir"], pauses=(0, 2, 0), f0=(20.0, 12.0, 15.0), expected="Fig. 6",
                  failing=FIG2[0:1] + FIG2[2:4] + FIG6[2:] * m1, verdict="FAIL" if m1 else "PASS",
                  spread=(0.0, 0.001, 0.002, 0.003, 2))
    else:
        write_run(args["outdir"], verdict="none")
    print("cc=%s wall=1s" % cc)
''')


class FactsTest(unittest.TestCase):
    def read(self, **kw):
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "run")
            write_run(d, **kw)
            return tr.read_facts(d)

    def test_readings_and_facts(self):
        r = self.read(expected="Fig. 2", failing=["L2 never pauses S1",
                                                  "f0 keeps half its rate during the burst"])
        self.assertEqual((r["pauses_l2_s1"], r["pauses_s1_l0"], r["pauses_s1_l1"]), (3, 2, 1))
        self.assertEqual((r["f0_before_gbps"], r["f0_during_gbps"], r["f0_end_gbps"]),
                         (20.0, 2.0, 15.0))
        self.assertEqual((r["f1_before_gbps"], r["f1_during_gbps"]), (20.0, 1.0))
        self.assertEqual(r["burst_end_ms"], 36.0)
        self.assertEqual((r["cnms_f0"], r["cnms_f1"], r["cnms_f1_applied"], r["cnms_burst"]),
                         (0, 5, 4, 7))
        self.assertTrue(math.isnan(r["f0_victim_s"]))  # a run without --spreading
        self.assertEqual(set(r["facts"]), set(tr.FACT_COLUMNS))
        self.assertEqual([c for c, h in r["facts"].items() if not h],
                         ["l2_never_pauses_s1", "f0_keeps_half"])
        self.assertEqual((r["expected"], r["verdict"]), ("dcqcn", "PASS"))
        self.assertEqual(tr.failed_facts(r["facts"], "dcqcn"), [])
        self.assertEqual(tr.failed_facts(r["facts"], "dcon"), [
            "L2 never pauses S1", "f0 keeps half its rate during the burst"])

    def test_verdicts_are_the_files_not_recomputed(self):
        # The readings say L2 paused S1 three times and f0 kept 2 of 20 Gb/s; the file says
        # "L2 never pauses S1" and "f0 keeps half" hold and the verdict is FAIL: the file wins.
        r = self.read(expected="Fig. 6", failing=["f1 is throttled during the burst"],
                      verdict="FAIL")
        self.assertTrue(r["facts"]["l2_never_pauses_s1"])
        self.assertTrue(r["facts"]["f0_keeps_half"])
        self.assertFalse(r["facts"]["f1_throttled"])
        self.assertEqual((r["expected"], r["verdict"]), ("dcon", "FAIL"))
        self.assertEqual(tr.failed_facts(r["facts"], r["expected"]),
                         ["f1 is throttled during the burst"])
        # a scheme the paper shows no testbed run of
        r = self.read(verdict="none", spread=(0.001, 0.002, 0.003, 0.004, 3))
        self.assertEqual((r["expected"], r["verdict"]), ("none", "-"))
        self.assertEqual((r["f0_victim_s"], r["max_pause_depth"]), (0.001, 3))

    def test_facts_not_judged(self):
        # A run without a burst (--burstFlowsPerHost=0): the readings during it are null in
        # facts.json and the facts comparing them neither hold nor fail (issue 29).
        with tempfile.TemporaryDirectory() as tmp:
            d = os.path.join(tmp, "run")
            write_run(d, expected="Fig. 6", verdict="NOT JUDGED")
            path = os.path.join(d, "facts.json")
            with open(path) as f:
                data = json.load(f)
            data["f0_during_gbps"] = data["f1_during_gbps"] = data["burst_end_s"] = None
            for x in data["facts"]:
                if "during" in x["fact"]:
                    x.update(holds=None, value=None, not_judged="there is no burst")
            with open(path, "w") as f:
                json.dump(data, f)
            r = tr.read_facts(d)
        self.assertTrue(math.isnan(r["f0_during_gbps"]))
        self.assertTrue(math.isnan(r["burst_end_ms"]))
        self.assertIsNone(r["facts"]["f1_throttled"])
        self.assertTrue(r["facts"]["l2_never_pauses_s1"])
        self.assertEqual((r["expected"], r["verdict"]), ("dcon", "NOT JUDGED"))
        self.assertEqual(tr.failed_facts(r["facts"], "dcon"), [])

    def test_bad_facts_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaisesRegex(tr.ReadingsError, "facts.json: cannot read"):
                tr.read_facts(tmp)
            path = os.path.join(tmp, "facts.json")
            for text, what in (("{", "cannot read"),
                               ("[]", "not a facts.json"),
                               (json.dumps({k: v for k, v in facts_json().items()
                                            if k != "verdict"}), "no 'verdict'"),
                               (json.dumps({k: v for k, v in facts_json().items()
                                            if k != "burst_end_s"}), "no 'burst_end_s'"),
                               (json.dumps(dict(facts_json(), facts=[1])), "not a facts.json"),
                               (json.dumps(dict(facts_json(), verdict="ok")),
                                "unknown verdict 'ok'")):
                with open(path, "w") as f:
                    f.write(text)
                with self.assertRaisesRegex(tr.ReadingsError, "facts.json: " + what):
                    tr.read_facts(tmp)
            data = facts_json()
            data["facts"] = [x for x in data["facts"] if x["fact"] != "S1 pauses L1"]
            with open(path, "w") as f:
                json.dump(data, f)
            with self.assertRaisesRegex(tr.ReadingsError, "no fact 'S1 pauses L1'"):
                tr.read_facts(tmp)

    @unittest.skipUnless(os.environ.get("DCON_TESTBED_BINARY"),
                         "DCON_TESTBED_BINARY (ctest sets it) names no dcon-testbed")
    def test_facts_json_of_the_real_testbed(self):
        # A short run (burst at 1 ms, 3 ms run): what facts.json says is what the example
        # printed (readings, and the verdict of --validate), and each fact holds exactly when
        # value relation threshold.
        binary = os.environ["DCON_TESTBED_BINARY"]
        for cc in ("dcqcn", "dcon"):
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "run")
                p = subprocess.run([binary, "--cc=" + cc, "--burstStart=1ms", "--stopTime=3ms",
                                    "--burstFlowsPerHost=2", "--sampleInterval=100us",
                                    "--spreading=true", "--validate", "--outdir=" + out],
                                   capture_output=True, text=True, timeout=300)
                self.assertIn(p.returncode, (0, 1), p.stderr)
                r = tr.read_facts(out)
                with open(os.path.join(out, "facts.json")) as f:
                    facts = json.load(f)["facts"]
            m = re.search(r"PAUSE frames L2->S1 (\d+), S1->L0 (\d+), S1->L1 (\d+)", p.stdout)
            self.assertEqual([int(x) for x in m.groups()],
                             [r["pauses_l2_s1"], r["pauses_s1_l0"], r["pauses_s1_l1"]])
            m = re.search(r"f0 throughput \(Gb/s\): before burst (\S+), during (\S+), "
                          r"end of run (\S+)", p.stdout)
            for printed, key in zip(m.groups(), ["f0_before_gbps", "f0_during_gbps",
                                                 "f0_end_gbps"]):
                self.assertAlmostEqual(float(printed.rstrip(",")), r[key], delta=1e-4 * (
                    1 + abs(r[key])))
            self.assertEqual(r["expected"], cc)
            self.assertEqual(r["verdict"], "PASS" if "VALIDATION PASSED" in p.stdout else "FAIL")
            printed = {name: v for v, name in re.findall(r"^  (PASS|FAIL)  (.+)$", p.stdout,
                                                         re.M)}
            self.assertEqual(printed, {name: "PASS" if r["facts"][c] else "FAIL"
                                       for c, name, which in tr.FACTS if which == cc})
            ops = {"<": lambda a, b: a < b, ">": lambda a, b: a > b,
                   ">=": lambda a, b: a >= b, "==": lambda a, b: a == b}
            self.assertEqual(len(facts), len(tr.FACTS))
            for x in facts:
                # value and threshold are printed to 6 decimals: compare where that decides
                if abs(x["value"] - x["threshold"]) > 1e-5 or x["relation"] == "==":
                    self.assertEqual(ops[x["relation"]](x["value"], x["threshold"]), x["holds"],
                                     x)
            self.assertFalse(math.isnan(r["max_pause_depth"]))

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
                        **{c: True for c, _, which in tr.FACTS if which == "dcqcn"})
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


class RecordsTest(unittest.TestCase):
    def test_every_stored_record_has_what_the_table_needs(self):
        # data/validation/testbed: records made before facts.json was read (readings computed
        # from the CSV files, facts added to the record since) and after, all in one shape
        paths = sorted(glob.glob(os.path.join(tr.DEFAULT_STORE, "*.json")))
        self.assertGreaterEqual(len(paths), 480)
        for path in paths:
            with open(path) as f:
                data = json.load(f)["data"]
            with self.subTest(record=os.path.basename(path)):
                self.assertEqual(set(data["facts"]), set(tr.FACT_COLUMNS))
                self.assertIn(data["expected"], ("dcqcn", "dcon", "none"))
                self.assertEqual(data["verdict"], "-" if data["expected"] == "none" else (
                    "PASS" if all(data["facts"][c] for c, _, which in tr.FACTS
                                  if which == data["expected"]) else "FAIL"))
                for k in tr.READINGS:
                    self.assertIsInstance(data[k], (int, float))

    def test_stored_record_makes_the_row(self):
        # A real record (copied, with today's model versions) gives its row without a run; one
        # without facts (the shape before facts.json was read) is not current: the run is redone.
        run = tr.TestbedRun("dcqcn", "15us", 1)
        name, args = tr.run_name(run), tr.run_args(run)
        with open(os.path.join(tr.DEFAULT_STORE, name + ".json")) as f:
            data = json.load(f)["data"]
        with tempfile.TemporaryDirectory() as tmp:
            run_store.save(tmp, name, args, data)
            t, errors = tr.table(os.path.join(tmp, "none"), {name: run}, store=tmp)
            self.assertEqual(errors, [])
            row = t.iloc[0]
            self.assertEqual((row.run, row.expected, row.verdict), (name, "dcqcn",
                                                                   data["verdict"]))
            self.assertEqual(row.pauses_l2_s1, data["pauses_l2_s1"])
            self.assertEqual(row.f0_collapses, data["facts"]["f0_collapses"])
            old = {k: v for k, v in data.items() if k not in ("facts", "expected", "verdict")}
            run_store.save(tmp, name, args, old)
            self.assertIsNone(tr.stored(tmp, name, args))
            t, _ = tr.table(os.path.join(tmp, "none"), {name: run}, store=tmp)
            self.assertEqual(len(t), 0)


class SweepTest(unittest.TestCase):
    def test_end_to_end(self):
        with tempfile.TemporaryDirectory() as tmp:
            sim = write_executable(os.path.join(tmp, "dcon-testbed"), FAKE_TESTBED)
            res = os.path.join(tmp, "r")
            store = os.path.join(tmp, "store")
            argv = ["--variants", "dcqcn", "dcon", "pcn", "dcon-m1", "-j", "2", "--binary", sim,
                    "--results", res, "--store", store]
            os.environ.update(FAKE_TB_FAIL="pcn", FAKE_TB_WRITER=WRITER)
            try:
                rc, out, err = quiet(tr.main, argv)
            finally:
                del os.environ["FAKE_TB_FAIL"]
            self.assertEqual(rc, 1)  # pcn's two runs failed
            self.assertIn("simulated failure of pcn", err)
            t = pd.read_csv(os.path.join(res, "readings.csv"))
            self.assertEqual(list(t.columns), tr.COLUMNS)
            self.assertEqual(list(t.run), ["dcqcn-i15us-s1", "dcqcn-i230us-s1", "dcon-i15us-s1",
                                           "dcon-i230us-s1", "dcon-m1-i15us-s1",
                                           "dcon-m1-i230us-s1"])
            self.assertEqual(list(t.verdict), ["PASS"] * 4 + ["FAIL"] * 2)
            self.assertEqual(list(t.expected), ["dcqcn"] * 2 + ["dcon"] * 4)
            self.assertEqual(list(t.failed_facts.fillna("")),
                             [""] * 4 + ["f0 keeps half its rate during the burst"] * 2)
            row = t[t.run == "dcon-m1-i230us-s1"].iloc[0]
            self.assertEqual((row.cc, row.spacing, row.seed), ("dcon", "230us", 1))
            self.assertEqual(row.f0_during_gbps, 12.0)
            self.assertEqual(row.pauses_l2_s1, 0)
            self.assertFalse(row.f0_keeps_half)  # facts.json's, though 12 >= 20 / 2
            self.assertTrue(row.l2_never_pauses_s1)
            self.assertFalse(row.l2_pauses_s1)
            self.assertEqual((row.f1_victim_s, row.max_pause_depth), (0.002, 2))
            self.assertIn("dcon-m1", out)
            self.assertIn("dcon-m1-i15us-s1: FAIL f0 keeps half its rate during the burst", out)
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
            self.assertEqual(t[t.variant == "pcn"].expected.tolist(), ["none", "none"])
            # the records alone give the same table (the raw results deleted)
            before = t
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

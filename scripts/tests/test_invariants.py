"""Tests of scripts/invariants.py: each check on synthetic run folders (a run that breaks each
invariant must be caught), the case generator's ranges, the determinism comparison and the
driver end to end with a stand-in simulator.

Run from the repository root: /usr/bin/python3 -m scripts.tests.test_invariants
"""
import contextlib
import io
import json
import os
import shutil
import stat
import tempfile
import textwrap
import unittest

from .. import cc_names
from .. import invariants

FLOWS_HEADER = "flow_id,src,dst,size_bytes,start_s,end_s,fct_s,ideal_fct_s,slowdown\n"
PFC_HEADER = "time_s,node,port,peer,priority,event,quanta\n"

# Three flows (src, dst, size, start) as flows.txt and flows.csv write them.
FLOWS = [(5, 0, 18397, "0.000133933680"), (3, 4, 4496598, "0.000280274372"),
         (1, 4, 120, "0.000364741882")]
# leaf0 port 1 pauses, refreshes, resumes, pauses and resumes again; spine0 port 2 once.
PFC = [
    ("0.000100000000", "leaf0", 1, "spine0", 3, "pause", 65535),
    ("0.000110000000", "spine0", 2, "leaf1", 3, "pause", 65535),
    ("0.000120000000", "spine0", 2, "leaf1", 3, "resume", 0),
    ("0.000519000000", "leaf0", 1, "spine0", 3, "pause", 65535),  # refresh while paused
    ("0.000600000000", "leaf0", 1, "spine0", 3, "resume", 0),
    ("0.000700000000", "leaf0", 1, "spine0", 3, "pause", 65535),
    ("0.000800000000", "leaf0", 1, "spine0", 3, "resume", 0),
]


def summary(**over):
    s = {"simulated_time_s": 0.002687152666, "wall_time_s": 0.592248, "events_executed": 126238,
         "flows_total": len(FLOWS), "flows_completed": len(FLOWS), "link_frames_sent": 79984,
         "pause_frames_sent": 4, "resume_frames_sent": 3, "pause_frames_per_link": {},
         "drops": {}, "ecn_marks": 303}
    s.update(over)
    return s


def csv_rows(flows=FLOWS):
    """flows.csv rows (id, src, dst, size, start) of completed flows as flows.txt lists them."""
    return [(i, "h%d" % s, "h%d" % t, size, start) for i, (s, t, size, start) in enumerate(flows)]


def write_run(d, flows=FLOWS, csv_flows=None, pfc=PFC, summ=None, drops=(), run_json=None):
    """A run folder as dcon-large-scale writes it (only the files the checks read)."""
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "flows.txt"), "w") as f:
        f.write("%d\n" % len(flows))
        for src, dst, size, start in flows:
            f.write("%d %d 3 100 %d %s\n" % (src, dst, size, start))
    if csv_flows is None:
        csv_flows = csv_rows(flows)
    with open(os.path.join(d, "flows.csv"), "w") as f:
        f.write(FLOWS_HEADER)
        for i, src, dst, size, start in csv_flows:
            f.write("%d,%s,%s,%d,%s,0.001,0.0005,0.0004,1.25\n" % (i, src, dst, size, start))
    with open(os.path.join(d, "pfc.csv"), "w") as f:
        f.write(PFC_HEADER)
        for row in pfc:
            f.write(",".join(str(x) for x in row) + "\n")
    with open(os.path.join(d, "drops.csv"), "w") as f:
        f.write("node,reason,packets\n")
        for node, reason, n in drops:
            f.write("%s,%s,%d\n" % (node, reason, n))
    with open(os.path.join(d, "summary.json"), "w") as f:
        json.dump(summary() if summ is None else summ, f, indent=2)
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump({"cc": "dcon", "flows_generated": len(flows)} if run_json is None else run_json,
                  f)
    return d


class RunFolderTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.n = 0

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_dir(self, **kw):
        self.n += 1
        return write_run(os.path.join(self.tmp, "run%d" % self.n), **kw)

    def assertCaught(self, violations, *words):
        self.assertTrue(violations, "the violation was not caught")
        text = "\n".join(violations)
        for w in words:
            self.assertIn(w, text)


class ChecksTest(RunFolderTest):
    def test_good_run_holds_every_invariant(self):
        self.assertEqual(invariants.check_run(self.run_dir()), [])

    # drops
    def test_drop_in_summary(self):
        d = self.run_dir(summ=summary(drops={"HeadroomFull": 2}))
        self.assertCaught(invariants.check_drops(d), "2 packets dropped (HeadroomFull)")
        self.assertCaught(invariants.check_run(d), "drops:")

    def test_drop_in_drops_csv(self):
        d = self.run_dir(drops=[("leaf1", "BufferFull", 0), ("spine0", "NoRoute", 7)])
        self.assertCaught(invariants.check_drops(d), "spine0 dropped 7 packets (NoRoute)")
        self.assertEqual(len(invariants.check_drops(d)), 1)  # a zero count is no drop

    def test_zero_drop_counts_are_fine(self):
        d = self.run_dir(summ=summary(drops={"BufferFull": 0}), drops=[("leaf0", "BufferFull", 0)])
        self.assertEqual(invariants.check_drops(d), [])

    # completion
    def test_unfinished_flow(self):
        d = self.run_dir(summ=summary(flows_completed=2))
        self.assertCaught(invariants.check_completion(d), "2 of 3 flows completed")

    def test_flows_total_disagrees_with_flows_txt(self):
        d = self.run_dir(summ=summary(flows_total=4, flows_completed=4))
        self.assertCaught(invariants.check_completion(d), "flows_total 4 != 3 flows in flows.txt")

    def test_flows_generated_disagrees(self):
        d = self.run_dir(run_json={"flows_generated": 5})
        self.assertCaught(invariants.check_completion(d), "flows_generated 5")

    # bytes
    def test_size_delivered_differs_from_size_sent(self):
        rows = csv_rows()
        rows[1] = (1, "h3", "h4", 4496597, FLOWS[1][3])
        d = self.run_dir(csv_flows=rows)
        self.assertCaught(invariants.check_flow_bytes(d),
                          "flow 1: 4496597 bytes delivered (flows.csv), 4496598 sent")

    def test_flow_missing_from_flows_csv(self):
        rows = csv_rows()[:2]
        d = self.run_dir(csv_flows=rows)
        self.assertCaught(invariants.check_flow_bytes(d), "1 flows of flows.txt missing", "[2]")

    def test_flow_listed_twice_or_unknown(self):
        rows = csv_rows()
        d = self.run_dir(csv_flows=rows + [rows[0], (9, "h1", "h2", 5, "0.1")])
        self.assertCaught(invariants.check_flow_bytes(d), "flow 0 listed twice",
                          "flow 9 is not in flows.txt")

    def test_wrong_endpoints_or_start(self):
        rows = csv_rows()
        rows[0] = (0, "h5", "h1", 18397, FLOWS[0][3])
        rows[2] = (2, "h1", "h4", 120, "0.000364741883")
        d = self.run_dir(csv_flows=rows)
        self.assertCaught(invariants.check_flow_bytes(d), "flow 0: h5 -> h1", "flow 2: starts")

    # pfc
    def test_first_frame_is_a_resume(self):
        pfc = [("0.000050000000", "leaf2", 0, "h3", 3, "resume", 0)] + PFC
        d = self.run_dir(pfc=pfc, summ=summary(resume_frames_sent=4))
        self.assertCaught(invariants.check_pfc(d), "leaf2 port 0 priority 3 RESUME while not "
                          "paused (its first PFC frame)")

    def test_two_resumes_in_a_row(self):
        pfc = PFC + [("0.000900000000", "leaf0", 1, "spine0", 3, "resume", 0)]
        d = self.run_dir(pfc=pfc, summ=summary(resume_frames_sent=4))
        v = invariants.check_pfc(d)
        self.assertCaught(v, "pfc.csv line 9", "leaf0 port 1 priority 3 RESUME while not paused")
        self.assertNotIn("first", "\n".join(v))

    def test_keys_are_separate(self):
        # A resume of another priority (or port, or node) does not resume this one.
        pfc = PFC[:1] + [("0.000105000000", "leaf0", 1, "spine0", 4, "resume", 0),
                         ("0.000106000000", "leaf0", 2, "spine0", 3, "resume", 0),
                         ("0.000107000000", "leaf1", 1, "spine0", 3, "resume", 0)] + PFC[1:]
        d = self.run_dir(pfc=pfc, summ=summary(resume_frames_sent=6))
        self.assertEqual(len(invariants.check_pfc(d)), 3)

    def test_refresh_pauses_are_allowed(self):
        pfc = PFC[:1] + [("0.00010%d000000" % k, "leaf0", 1, "spine0", 3, "pause", 65535)
                         for k in (2, 3, 4)] + PFC[1:]
        d = self.run_dir(pfc=pfc, summ=summary(pause_frames_sent=7))
        self.assertEqual(invariants.check_pfc(d), [])

    def test_still_paused_at_the_end(self):
        pfc = PFC + [("0.000900000000", "spine0", 2, "leaf1", 3, "pause", 65535)]
        d = self.run_dir(pfc=pfc, summ=summary(pause_frames_sent=5))
        self.assertCaught(invariants.check_pfc(d), "spine0 port 2 priority 3 is still paused at "
                          "the end")

    def test_event_and_quanta_disagree(self):
        pfc = list(PFC)
        pfc[2] = ("0.000120000000", "spine0", 2, "leaf1", 3, "resume", 100)
        d = self.run_dir(pfc=pfc)
        self.assertCaught(invariants.check_pfc(d), "event 'resume' with quanta 100")
        pfc[2] = ("0.000120000000", "spine0", 2, "leaf1", 3, "pause", 0)
        d = self.run_dir(pfc=pfc)
        self.assertCaught(invariants.check_pfc(d), "event 'pause' with quanta 0")

    def test_time_goes_back(self):
        pfc = list(PFC)
        pfc[1], pfc[2] = pfc[2], pfc[1]  # resume listed before its pause, earlier time after
        d = self.run_dir(pfc=pfc)
        self.assertCaught(invariants.check_pfc(d), "time goes back")

    def test_counts_disagree_with_summary(self):
        d = self.run_dir(summ=summary(pause_frames_sent=5, resume_frames_sent=2))
        self.assertCaught(invariants.check_pfc(d), "pause_frames_sent 5 != 4",
                          "resume_frames_sent 2 != 3")

    def test_no_pfc_at_all(self):
        d = self.run_dir(pfc=[], summ=summary(pause_frames_sent=0, resume_frames_sent=0))
        self.assertEqual(invariants.check_pfc(d), [])

    # mmu
    def test_mmu_counters_left_over(self):
        end = {"buffer_bytes": 0, "paused_ingresses": 0,
               "switches": {"leaf0": {"shared_bytes": 1078, "headroom_bytes": 0}}}
        d = self.run_dir(summ=summary(mmu_at_end=end))
        self.assertCaught(invariants.check_mmu_empty(d), "mmu_at_end switches.leaf0.shared_bytes "
                          "= 1078")
        self.assertEqual(len(invariants.check_mmu_empty(d)), 1)

    def test_mmu_counters_zero_or_absent(self):
        d = self.run_dir(summ=summary(mmu_at_end={"buffer_bytes": 0, "paused_ingresses": 0}))
        self.assertEqual(invariants.check_mmu_empty(d), [])
        self.assertEqual(invariants.check_mmu_empty(self.run_dir()), [])

    def test_unreadable_run_is_a_violation(self):
        d = self.run_dir()
        os.remove(os.path.join(d, "pfc.csv"))
        self.assertCaught(invariants.check_run(d), "pfc: cannot check (FileNotFoundError")
        with open(os.path.join(d, "flows.txt"), "w") as f:
            f.write("4\n1 2 3 100 5 0.1\n")
        self.assertCaught(invariants.check_run(d), "announces 4 flows and lists 1")


class CompareTest(RunFolderTest):
    def test_identical_but_wall_time(self):
        a = self.run_dir()
        b = self.run_dir(summ=summary(wall_time_s=9.5))
        self.assertEqual(invariants.compare_runs(a, b), [])

    def test_any_other_difference(self):
        a = self.run_dir()
        b = self.run_dir(summ=summary(events_executed=126239))
        self.assertEqual(invariants.compare_runs(a, b), ["summary.json differs from line 4"])
        c = self.run_dir()
        with open(os.path.join(c, "pfc.csv"), "a") as f:
            f.write("0.000900000000,leaf0,1,spine0,3,pause,65535\n")
        self.assertEqual(invariants.compare_runs(a, c), ["pfc.csv differs from line 9"])
        open(os.path.join(c, "extra.csv"), "w").close()
        self.assertIn("extra.csv is written by only one of the two runs",
                      invariants.compare_runs(a, c))


# What a simulator's --list-cc might print (scripts/cc_names.py reads it).
CCS = ["dcon", "dcqcn", "none", "pcn", "swift", "timely"]


class DrawTest(unittest.TestCase):
    def test_same_seed_same_cases_and_every_cc(self):
        a = invariants.draw_cases(5, 12, CCS)
        self.assertEqual(a, invariants.draw_cases(5, 12, CCS))
        self.assertNotEqual(a, invariants.draw_cases(6, 12, CCS))
        self.assertEqual(sorted(c["cc"] for c in a[:6]), CCS)
        self.assertEqual(sorted(c["cc"] for c in a[6:]), CCS)
        # a seventh algorithm: each round of seven draws every one of them
        b = invariants.draw_cases(5, 14, CCS + ["zeta"])
        self.assertEqual(sorted(c["cc"] for c in b[:7]), CCS + ["zeta"])
        self.assertEqual(sorted(c["cc"] for c in b[7:]), CCS + ["zeta"])

    def test_values_in_their_valid_ranges(self):
        for case in invariants.draw_cases(1, 300, CCS):
            b = {k: int(case[k][:-1]) for k in ("bufferSize", "xoff", "xon", "kmin", "kmax",
                                                 "qecn")}
            self.assertTrue(all(case[k].endswith("B") for k in b))
            self.assertLessEqual(b["xoff"], b["bufferSize"])
            self.assertGreaterEqual(b["xoff"] - b["xon"],
                                    min(invariants.MIN_HYSTERESIS, 0.7 * b["xoff"]) - 1)
            self.assertGreaterEqual(b["xon"], 0)
            self.assertLessEqual(b["kmin"], b["kmax"])
            self.assertLessEqual(b["kmax"], b["xoff"])
            self.assertTrue(0 < b["qecn"] <= b["xoff"])
            self.assertTrue(0 < float(case["pmax"]) <= 1)
            spines, leaves, hpl = (int(case[k]) for k in ("spines", "leaves", "hostsPerLeaf"))
            self.assertTrue(1 <= spines <= 3 and 2 <= leaves <= 4 and 1 <= hpl <= 4)
            host_load = float(case["load"]) / invariants.core_load_per_host_load(spines, leaves,
                                                                                  hpl)
            self.assertLessEqual(host_load, 0.9 + 1e-3)
            self.assertIn(case["duration"], ("1ms", "1.5ms", "2ms"))
            self.assertIn(case["workload"], invariants.WORKLOADS)
            self.assertGreaterEqual(int(case["seed"]), 1)
            if "incastSenders" in case:
                self.assertTrue(1 <= int(case["incastSenders"]) < leaves * hpl)

    def test_core_load_conversion(self):
        # 2 leaves x 1 host: every flow crosses the core, over `spines` uplinks per leaf.
        self.assertAlmostEqual(invariants.core_load_per_host_load(1, 2, 1), 1.0)
        self.assertAlmostEqual(invariants.core_load_per_host_load(2, 2, 1), 0.5)
        # 10 leaves x 24 hosts x 8 spines (the paper's fabric): 24 * (216/239) / 8.
        self.assertAlmostEqual(invariants.core_load_per_host_load(8, 10, 24), 24 * 216 / 239 / 8)


# A stand-in dcon-large-scale: copies the good run folder TEMPLATE (written by the test), or
# with FAKE_MODE in the environment fails in one of several ways for one --cc.
FAKE_SIM = textwrap.dedent("""\
    #!/usr/bin/python3
    import json, os, shutil, sys
    if sys.argv[1:] == ["--list-cc"]:
        for cc in ("dcon", "dcqcn", "dctcp", "none", "pcn", "swift", "timely"):
            print(cc + "\tns3::RedEcnQueueDisc\t" + cc.upper())
        sys.exit(0)
    args = dict(a[2:].split("=", 1) for a in sys.argv[1:])
    mode = os.environ.get("FAKE_MODE", "")
    if mode == "noflow" and args["cc"] == "pcn":
        print("error: the workload has no flow: raise the load or the duration", file=sys.stderr)
        sys.exit(2)
    if mode == "crash" and args["cc"] == "swift":
        print("terminate called", file=sys.stderr)
        sys.exit(134)
    shutil.copytree(os.environ["FAKE_TEMPLATE"], args["outdir"], dirs_exist_ok=True)
    path = os.path.join(args["outdir"], "summary.json")
    with open(path) as f:
        s = json.load(f)
    s["wall_time_s"] = os.getpid() / 1000
    if mode == "drop" and args["cc"] == "dcqcn":
        s["drops"] = {"HeadroomFull": 1}
    if mode == "nondeterministic":
        s["events_executed"] = os.getpid()
    with open(path, "w") as f:
        json.dump(s, f, indent=2)
    print("cc=%s flows completed 3/3" % args["cc"])
    """)


class CcNamesTest(unittest.TestCase):
    """scripts/cc_names.py: the algorithm list comes from the binary's --list-cc."""

    def test_parse_listing(self):
        text = "dcon\tns3::DconQueueDisc\tDCON (x)\ndctcp\tns3::RedEcnQueueDisc\tDCTCP (y)\n"
        self.assertEqual(cc_names.parse_listing(text),
                         [("dcon", "ns3::DconQueueDisc", "DCON (x)"),
                          ("dctcp", "ns3::RedEcnQueueDisc", "DCTCP (y)")])
        with self.assertRaisesRegex(cc_names.CcListError, "unexpected --list-cc line 'dcon'"):
            cc_names.parse_listing("dcon\n")

    def test_asks_the_binary(self):
        tmp = tempfile.mkdtemp()
        try:
            sim = os.path.join(tmp, "sim")
            with open(sim, "w") as f:
                f.write("#!/bin/sh\nprintf 'b\\tq\\tB one\\na\\tq\\tA two\\n'\n")
            os.chmod(sim, 0o755)
            self.assertEqual(cc_names.names(sim), ["b", "a"])
            self.assertEqual(cc_names.summary("a", sim), "A two")
            self.assertIsNone(cc_names.summary("c", sim))
            with self.assertRaisesRegex(cc_names.CcListError, "no simulator at"):
                cc_names.names(os.path.join(tmp, "missing"))
            bad = os.path.join(tmp, "bad")
            with open(bad, "w") as f:
                f.write("#!/bin/sh\necho oops >&2\nexit 3\n")
            os.chmod(bad, 0o755)
            with self.assertRaisesRegex(cc_names.CcListError, "exited with 3: oops"):
                cc_names.names(bad)
        finally:
            shutil.rmtree(tmp)

    def test_real_binary_lists_every_scheme(self):
        if not os.access(cc_names.DEFAULT_BINARY, os.X_OK):
            self.skipTest("simulator not built")
        names = cc_names.names()
        self.assertEqual(names, sorted(names))
        for cc in ("dcon", "dcqcn", "dctcp", "hpcc", "ibcc", "none", "pcn", "rttpid", "swift",
                   "timely"):
            self.assertIn(cc, names)


class DriverTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.sim = os.path.join(self.tmp, "dcon-large-scale")
        with open(self.sim, "w") as f:
            f.write(FAKE_SIM)
        os.chmod(self.sim, os.stat(self.sim).st_mode | stat.S_IXUSR)

    def tearDown(self):
        os.environ.pop("FAKE_MODE", None)
        os.environ.pop("FAKE_TEMPLATE", None)
        shutil.rmtree(self.tmp)

    def run_main(self, mode, *extra):
        os.environ["FAKE_MODE"] = mode
        os.environ["FAKE_TEMPLATE"] = write_run(os.path.join(self.tmp, "template"))
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            rc = invariants.main(["--binary", self.sim, "--cases", "6", "--jobs", "2",
                                  "--workdir", os.path.join(self.tmp, "work")] + list(extra))
        return rc, out.getvalue()

    def test_all_good(self):
        rc, out = self.run_main("")
        self.assertEqual(rc, 0, out)
        self.assertIn("run twice: every output file identical", out)
        self.assertIn("all invariants hold", out)

    def test_violation_prints_the_command(self):
        rc, out = self.run_main("drop")
        self.assertEqual(rc, 1, out)
        self.assertIn("drops: summary.json: 1 packets dropped (HeadroomFull)", out)
        line = next(x for x in out.splitlines() if "reproduce:" in x)
        self.assertIn(self.sim + " --cc=dcqcn --workload=", line)
        self.assertIn("--seed=", line)
        self.assertIn("--outdir=", line)

    def test_failed_run_and_empty_workload(self):
        rc, out = self.run_main("noflow")
        self.assertEqual(rc, 0, out)
        self.assertIn("1 without any flow skipped", out)
        rc, out = self.run_main("crash")
        self.assertEqual(rc, 1, out)
        self.assertIn("run failed: exit status 134: terminate called", out)

    def test_nondeterminism_is_caught(self):
        rc, out = self.run_main("nondeterministic", "--repeat", "2")
        self.assertEqual(rc, 1, out)
        self.assertIn("determinism: summary.json differs from line 4", out)
        self.assertIn("reproduce (run it twice, compare the folders)", out)

    def test_check_existing_run_folders(self):
        good = write_run(os.path.join(self.tmp, "good"))
        bad = write_run(os.path.join(self.tmp, "bad"), summ=summary(flows_completed=1))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(invariants.main(["--check", good]), 0)
            self.assertEqual(invariants.main(["--check", good, bad]), 1)
        self.assertIn(good + ": every invariant holds", out.getvalue())
        self.assertIn(bad + ": FAIL\n  completion: summary.json: 1 of 3 flows completed",
                      out.getvalue())

    def test_list_and_bad_options(self):
        rc, out = self.run_main("", "--list")
        self.assertEqual(rc, 0)
        self.assertEqual(len(out.splitlines()), 6)
        for bad in (["--cases", "0"], ["--jobs", "0"], ["--cases", "6", "--repeat", "6"],
                    ["--timeout", "0"], ["--min-hysteresis", "-1"], ["--seed", "-1"]):
            with self.assertRaises(SystemExit) as e, \
                    contextlib.redirect_stderr(io.StringIO()) as err:
                invariants.parse_args(bad)
            self.assertEqual(e.exception.code, 2)
            self.assertIn(bad[-2], err.getvalue())


if __name__ == "__main__":
    unittest.main()

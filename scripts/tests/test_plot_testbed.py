"""Tests of scripts/plot_testbed.py's text under each column: the facts of a run's facts.json
with the comparison that decides each, and why a failing fact of the paper fails.

Run from the repository root: /usr/bin/python3 -m scripts.tests.test_plot_testbed
"""
import json
import os
import tempfile
import unittest

import pandas as pd

from .. import plot_testbed as pt

# Fig. 6's facts: (relation, the reading compared, the threshold as a share of f0's or f1's
# Gb/s before the burst, or None for a pause count compared with 0)
FIG6 = {"L2 never pauses S1": ("==", "pauses_l2_s1", None),
        "f1 is throttled during the burst": ("<", "f1_during_gbps", "f1_before_gbps"),
        "f0 keeps half its rate during the burst": (">=", "f0_during_gbps", "f0_before_gbps")}


def facts(f0_before, f0_during, holds, pauses=88, f1_during=0.85):
    """A facts.json of a DCON run as dcon-testbed writes it: Fig. 6's facts as given
    (expected), with value, relation and threshold; Fig. 2's first fact, not expected."""
    data = {"pauses_l2_s1": pauses, "pauses_s1_l0": 81, "pauses_s1_l1": 31,
            "f0_before_gbps": f0_before, "f0_during_gbps": f0_during, "f0_end_gbps": 25.0,
            "f1_before_gbps": f0_before, "f1_during_gbps": f1_during, "burst_end_s": 0.037,
            "cnms_f0": 0, "cnms_f1": 5, "cnms_f1_applied": 4, "cnms_burst": 7}
    out = []
    for name, h in holds.items():
        relation, value, base = FIG6[name]
        out.append({"figure": "Fig. 6", "fact": name, "holds": h, "expected": True,
                    "value": data[value], "relation": relation,
                    "threshold": 0.5 * data[base] if base else 0.0})
    out.append({"figure": "Fig. 2", "fact": "L2 pauses S1", "holds": True, "expected": False,
                "value": pauses, "relation": ">", "threshold": 0.0})
    data["facts"] = out
    data["verdict"] = "PASS" if all(holds.values()) else "FAIL"
    return data


class FactsTextTest(unittest.TestCase):
    def lines(self, data):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "facts.json"), "w") as f:
                json.dump(data, f)
            return pt.facts_text(d)

    def test_reasons_follow_failing_facts_only(self):
        # f0 kept 7.5 of 18 Gb/s: 42% (rounded), printed under the failing fact
        lines = self.lines(facts(18.0, 7.5, {"L2 never pauses S1": False,
                                             "f1 is throttled during the burst": True,
                                             "f0 keeps half its rate during the burst": False}))
        text = [t for t, _, _ in lines]
        self.assertEqual(text[0], "paper's Fig. 6 for this scheme: 1 of 3 hold")
        self.assertEqual(text[1], "  FAILS  L2 never pauses S1 (88 == 0)")
        self.assertTrue(text[2].strip().startswith("why: each 64 KB burst flow"))
        self.assertIn("  holds  f1 is throttled during the burst (0.85 < 9)", text)
        i = text.index("  FAILS  f0 keeps half its rate during the burst (7.5 >= 9)")
        self.assertTrue(text[i + 1].strip().startswith("f0 kept 42% (7.50 of 18.00 Gb/s)"))
        self.assertIn("(CNMs to f0: 0)", text[i + 2])
        self.assertIn("(Fig. 2's facts, shown for another scheme: 1 of 1)", text)
        self.assertIn("  holds  L2 pauses S1 (88 > 0)", text)
        self.assertEqual(text[-1], "CNMs: f0 0, f1 5, burst flows 7")
        # colours: the expected facts green or red by whether they hold, the others grey
        self.assertEqual([(e, h) for t, e, h in lines if "L2 never" in t], [(True, False)])
        self.assertEqual([(e, h) for t, e, h in lines if "L2 pauses" in t], [(False, True)])

    def test_no_reason_when_everything_holds(self):
        lines = self.lines(facts(18.0, 12.0, {"L2 never pauses S1": True,
                                              "f0 keeps half its rate during the burst": True},
                                 pauses=0))
        text = [t for t, _, _ in lines]
        self.assertEqual(text[0], "paper's Fig. 6 for this scheme: 2 of 2 hold")
        self.assertIn("  holds  f0 keeps half its rate during the burst (12 >= 9)", text)
        self.assertFalse(any("why:" in t or "f0 kept" in t for t in text))

    def test_facts_json_without_comparisons(self):
        # a facts.json written before dcon-testbed gave value, relation and threshold
        data = facts(18.0, 7.5, {"L2 never pauses S1": False})
        for x in data["facts"]:
            for k in ("value", "relation", "threshold"):
                del x[k]
        del data["verdict"]
        text = [t for t, _, _ in self.lines(data)]
        self.assertEqual(text[1], "  FAILS  L2 never pauses S1")

    def test_no_facts_file(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(pt.facts_text(d), [])


class RunEndTest(unittest.TestCase):
    def test_pauses_binned_without_samples(self):
        # a 2 ms run whose only throughput sample is at t = 0 (--sampleInterval=20s): its PAUSE
        # frames, at 1 to 2 ms, are binned to the run's end, not to the last sample (0)
        thr = pd.DataFrame({"time_s": [0.0, 0.0], "flow": [0, 1], "gbps": [0.0, 0.0]})
        pauses = pd.DataFrame({"time_s": [0.0011, 0.0019]})
        self.assertEqual(pt.run_end({"simulated_time_s": 0.002}, thr, pauses), 0.002)
        self.assertEqual(pt.run_end({}, thr, pauses), 0.0019)
        self.assertEqual(pt.run_end({}, thr.iloc[:0], pauses.iloc[:0]), 0)


if __name__ == "__main__":
    unittest.main()

"""Tests of scripts/plot_testbed.py's text under each column: the facts of a run's facts.json,
and why a failing fact of the paper fails.

Run from the repository root: /usr/bin/python3 -m scripts.tests.test_plot_testbed
"""
import json
import os
import tempfile
import unittest

from .. import plot_testbed as pt


def facts(f0_before, f0_during, holds):
    """A facts.json of a DCON run: Fig. 6's facts as given (expected), Fig. 2's not expected."""
    return {"f0_before_gbps": f0_before, "f0_during_gbps": f0_during, "cnms_f0": 0,
            "cnms_f1": 5, "cnms_burst": 7,
            "facts": [{"figure": "Fig. 6", "fact": name, "holds": h, "expected": True}
                      for name, h in holds.items()]
            + [{"figure": "Fig. 2", "fact": "L2 pauses S1", "holds": True, "expected": False}]}


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
        self.assertEqual(text[1], "  FAILS  L2 never pauses S1")
        self.assertTrue(text[2].strip().startswith("why: each 64 KB burst flow"))
        i = text.index("  FAILS  f0 keeps half its rate during the burst")
        self.assertTrue(text[i + 1].strip().startswith("f0 kept 42% (7.50 of 18.00 Gb/s)"))
        self.assertIn("(CNMs to f0: 0)", text[i + 2])
        self.assertEqual(text[-1], "CNMs: f0 0, f1 5, burst flows 7")

    def test_no_reason_when_everything_holds(self):
        lines = self.lines(facts(18.0, 12.0, {"L2 never pauses S1": True,
                                              "f0 keeps half its rate during the burst": True}))
        self.assertFalse(any("why:" in t or "f0 kept" in t for t, _, _ in lines))

    def test_no_facts_file(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(pt.facts_text(d), [])


if __name__ == "__main__":
    unittest.main()

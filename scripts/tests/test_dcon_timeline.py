"""Tests of scripts/dcon_timeline.py: binning of hand-made timeline rows, worked by hand.

Run from the repository root: /usr/bin/python3 -m scripts.tests.test_dcon_timeline
"""
import os
import tempfile
import unittest

import pandas as pd

from .. import dcon_timeline as dt


def queue_row(t, tier, **kw):
    row = {c: 0 for c in dt.QUEUE_COLUMNS}
    row.update(time_s=t, tier=tier, queues=4)
    row.update(kw)
    return row


def sender_row(t, **kw):
    row = {c: 0 for c in dt.SENDER_COLUMNS}
    row.update(time_s=t)
    row.update(kw)
    return row


class BinQueues(unittest.TestCase):
    def test_shares_and_means_per_bin_and_tier(self):
        # Samples at 1, 2 ms fall in bin 0 (of 2 ms); 3 ms in bin 2. Sample times carry the
        # float noise of the CSV's 12 decimals.
        q = pd.DataFrame([
            queue_row(0.001000000000, "core", bytes=1_000_000, queues_burst=1, arrivals=100,
                      arrivals_qcnm_at_qecn=10, ecn_marks=20, unmarked_above_qecn=60,
                      cnms_sent=3),
            queue_row(0.002000000000, "core", bytes=3_000_000, queues_burst=3, arrivals=300,
                      arrivals_qcnm_at_qecn=90, ecn_marks=0, unmarked_above_qecn=140,
                      cnms_sent=5),
            queue_row(0.003000000000, "core", bytes=0, arrivals=0),
            queue_row(0.001000000000, "tor-up", bytes=500_000, arrivals=50, ecn_marks=5,
                      unmarked_above_qecn=5),
        ])
        b = dt.bin_queues(q, 2.0)
        core0 = b[(b.bin_ms == 0) & (b.tier == "core")].iloc[0]
        self.assertAlmostEqual(core0.MB, 2.0)           # mean of 1 and 3 MB
        self.assertAlmostEqual(core0.burst, 2.0)        # mean of 1 and 3 queues
        self.assertAlmostEqual(core0["floor%"], 25.0)   # 100 of 400 arrivals
        self.assertAlmostEqual(core0["mark%"], 5.0)     # 20 of 400
        self.assertAlmostEqual(core0["unmarked%"], 100 * 200 / 220, places=2)  # 200 of 220
        self.assertEqual(core0.cnms, 8)
        core2 = b[(b.bin_ms == 2) & (b.tier == "core")].iloc[0]
        self.assertTrue(pd.isna(core2["floor%"]))       # no arrival: no share
        up0 = b[(b.bin_ms == 0) & (b.tier == "tor-up")].iloc[0]
        self.assertAlmostEqual(up0["unmarked%"], 50.0)


class BinSenders(unittest.TestCase):
    def test_cnp_mark_and_applied_shares(self):
        s = pd.DataFrame([
            sender_row(0.001, active_flows=10, mean_rate_gbps=2.0, cnps_received=100,
                       cnps_marked=25, cnms_received=4, cnms_applied=1),
            sender_row(0.002, active_flows=20, mean_rate_gbps=4.0, cnps_received=300,
                       cnps_marked=15, cnms_received=6, cnms_applied=4),
        ])
        b = dt.bin_senders(s, 5.0).iloc[0]
        self.assertAlmostEqual(b.active, 15.0)
        self.assertAlmostEqual(b.rate_gbps, 3.0)
        self.assertAlmostEqual(b["cnp_mark%"], 10.0)    # 40 of 400
        self.assertAlmostEqual(b["applied%"], 50.0)     # 5 of 10


class Load(unittest.TestCase):
    def test_missing_files_and_columns_named(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaisesRegex(dt.TimelineError, "dcon-timeline.csv is missing"):
                dt.load(d)
            pd.DataFrame([queue_row(0.001, "core")]).drop(columns=["cnms_sent"]).to_csv(
                os.path.join(d, "dcon-timeline.csv"), index=False)
            pd.DataFrame([sender_row(0.001)]).to_csv(os.path.join(d, "dcon-senders.csv"),
                                                     index=False)
            with self.assertRaisesRegex(dt.TimelineError, "missing column.*cnms_sent"):
                dt.load(d)

    def test_plot_writes_a_png(self):
        q = pd.DataFrame([queue_row(0.001 * i, t, bytes=1000 * i, arrivals=10)
                          for i in range(1, 4) for t in dt.TIERS])
        s = pd.DataFrame([sender_row(0.001 * i, active_flows=i, cnps_received=2)
                          for i in range(1, 4)])
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "t.png")
            dt.plot(q, s, None, out, title="x")
            self.assertGreater(os.path.getsize(out), 1000)


if __name__ == "__main__":
    unittest.main()

"""Tests of scripts/plot_collectives.py: the slowdown table per job (mean, fastest and slowest
iteration, incomplete iterations left out) and one iteration's timeline, on files written here
in examples/dcon-collectives' formats; a missing file or job is named.

Run from the repository root: /usr/bin/python3 -m scripts.tests.test_plot_collectives
"""
import os
import tempfile
import unittest

from .. import plot_collectives as pc

COLLECTIVES = """job,name,iteration,op,algorithm,chunks,bytes,ranks,start_s,end_s,time_s,algbw_gbps,busbw_gbps,ideal_s,slowdown
0,ar,0,allreduce,ring,1,1000,2,0.0,0.2,0.2,1,1,0.1,2.0
0,ar,1,allreduce,ring,1,1000,2,0.3,0.4,0.1,1,1,0.1,1.0
0,ar,2,allreduce,ring,1,1000,2,0.5,,,,,0.1,
1,moe,0,alltoall,direct,1,1000,2,0.0,0.15,0.15,1,1,0.1,1.5
"""
STEPS = """job,iteration,step,chunk,src_rank,dst_rank,src,dst,bytes,flow_id,sport,path,start_s,sent_s,end_s,acked_s
0,1,0,0,0,1,h0,h1,250,0,5,s,0.3,0.31,0.32,0.33
0,1,0,0,1,0,h1,h0,250,1,6,s,0.3,0.31,0.325,0.33
0,1,1,0,0,1,h0,h1,250,2,5,s,0.325,0.33,0.36,0.37
0,0,0,0,0,1,h0,h1,250,3,5,s,0.0,0.1,0.1,0.1
"""


class PlotCollectivesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.run = self.tmp.name
        with open(os.path.join(self.run, "collectives.csv"), "w") as f:
            f.write(COLLECTIVES)
        with open(os.path.join(self.run, "steps.csv"), "w") as f:
            f.write(STEPS)

    def tearDown(self):
        self.tmp.cleanup()

    def test_slowdowns_per_job(self):
        t = pc.slowdowns(pc.read_csv(self.run, "collectives.csv"))
        self.assertEqual(list(t.key), ["ar: allreduce ring", "moe: alltoall direct"])
        ar = t.iloc[0]
        self.assertAlmostEqual(ar["mean"], 1.5)
        self.assertEqual((ar["min"], ar["max"], ar["completed"], ar["iterations"]),
                         (1.0, 2.0, 2, 3))

    def test_timeline_of_one_iteration(self):
        coll = pc.read_csv(self.run, "collectives.csv")
        msgs, steps = pc.timeline(pc.read_csv(self.run, "steps.csv"), "ar", coll, 1)
        self.assertEqual(steps, 2)
        self.assertEqual([(r, round(s, 6), round(e, 6), k) for r, s, e, k in msgs],
                         [(0, 0.0, 0.02, 0), (1, 0.0, 0.025, 0), (0, 0.025, 0.06, 1)])

    def test_errors_name_what_is_missing(self):
        coll = pc.read_csv(self.run, "collectives.csv")
        with self.assertRaisesRegex(pc.CollectivesError, "no job named 'x' .jobs: ar, moe"):
            pc.timeline(pc.read_csv(self.run, "steps.csv"), "x", coll, 0)
        with self.assertRaisesRegex(pc.CollectivesError, "has no iteration 7"):
            pc.timeline(pc.read_csv(self.run, "steps.csv"), "ar", coll, 7)
        os.remove(os.path.join(self.run, "steps.csv"))
        with self.assertRaisesRegex(pc.CollectivesError, "has no steps.csv"):
            pc.read_csv(self.run, "steps.csv")

    def test_draws(self):
        out = os.path.join(self.run, "c.png")
        self.assertEqual(pc.main([self.run, "--job", "ar", "--iteration", "1", "-o", out]), 0)
        self.assertGreater(os.path.getsize(out), 1000)
        self.assertEqual(pc.main([self.run, "--labels", "a", "b", "-o", out]), 2)


if __name__ == "__main__":
    unittest.main()

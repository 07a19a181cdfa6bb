"""Tests of scripts/collectives_table.py: the doc's table rows from run folders of
examples/dcon-collectives (jobs.csv, run.json and steps.csv, written here): one row per
congestion control and job, in the doc's order, the mean over seeds with the range, hold times
in us, the most connections of a job's first step on one link; a folder without its files is
named.

Run from the repository root: /usr/bin/python3 -m scripts.tests.test_collectives_table
"""
import json
import os
import tempfile
import unittest

from .. import collectives_table as ct

HEADER = ("job,name,op,algorithm,ranks,bytes,chunks,iterations,placement,paths,completed,"
          "ideal_s,mean_time_s,max_time_s,mean_slowdown,max_slowdown,mean_busbw_gbps,"
          "victim_others_s,victim_others_hold_s,own_hold_s,unknown_hold_s\n")


class CollectivesTableTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def run_dir(self, name, cc, seed, rows):
        d = os.path.join(self.tmp.name, name)
        os.makedirs(d)
        with open(os.path.join(d, "run.json"), "w") as f:
            json.dump({"cc": cc, "seed": seed}, f)
        with open(os.path.join(d, "jobs.csv"), "w") as f:
            f.write(HEADER + "".join(rows))
        return d

    def test_rows_per_cc_and_job(self):
        ar = "0,ar,allreduce,ring,32,1000,1,1,random,ecmp,1,0.01,0.02,0.02,{},{},{},{},{},0,0\n"
        a2a = "1,a2a,alltoall,direct,32,1000,1,10,random,ecmp,10,0.001,0.002,0.003,2,3,40,,,,\n"
        runs = [self.run_dir("h1", "hpcc", 1, [ar.format(2, 2, 50, 0.0001, 0.0003)]),
                self.run_dir("h2", "hpcc", 2, [ar.format(4, 4, 30, 0.0003, 0.0005)]),
                self.run_dir("d1", "dcqcn", 1, [ar.format(1.5, 1.5, 60, 0, 0), a2a])]
        # the dcqcn run's first steps: job 0's connections 0 -> 1 and 2 -> 3 share leaf0's uplink
        # to spine1, a later step (not counted) would put three there; job 1's stay on leaves
        with open(os.path.join(runs[2], "steps.csv"), "w") as f:
            f.write("job,iteration,step,chunk,src_rank,dst_rank,path,start_s\n"
                    "0,0,0,0,0,1,leaf0>spine1>leaf2,0\n"
                    "0,0,0,0,1,2,leaf2>spine0>leaf0,0\n"
                    "0,0,0,0,2,3,leaf0>spine1>leaf3,0\n"
                    "0,0,1,0,3,0,leaf0>spine1>leaf3,0\n"
                    "0,0,1,0,4,0,leaf0>spine1>leaf3,0\n"
                    "1,0,0,0,0,1,leaf4,0\n")
        rows = ct.table([ct.load(r) for r in runs])
        self.assertEqual(rows, [
            ["dcqcn", "ar", 1, "1.500", "60.0", "0", "0", "0", "2"],
            ["dcqcn", "a2a", 1, "2.000", "40.0", "-", "-", "-", "0"],
            ["hpcc", "ar", 2, "3.000 (2.000-4.000)", "40.0 (30.0-50.0)", "200 (100-300)",
             "400 (300-500)", "0", "-"],
        ])
        self.assertEqual(ct.table([ct.load(r) for r in runs], jobs=["a2a"]),
                         [["dcqcn", "a2a", 1, "2.000", "40.0", "-", "-", "-", "0"]])

    def test_missing_files_are_named(self):
        d = os.path.join(self.tmp.name, "empty")
        os.makedirs(d)
        with self.assertRaisesRegex(ct.TableError, "empty.*run.json"):
            ct.load(d)
        self.assertEqual(ct.main([d]), 2)


if __name__ == "__main__":
    unittest.main()

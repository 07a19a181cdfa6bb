"""Tests of the sweeps' executors (scripts/sweep_runner.py) and build records (scripts/builds.py).

- A small Fig. 9 sweep of the real dcon-large-scale (ctest gives its path in
  DCON_LARGE_SCALE_BINARY; tiny fabric, 1 ms windows, about a second of CPU) on a local Dask
  cluster of 2 worker processes (distributed.LocalCluster) gives the same records, byte for byte,
  and the same tables (wall time aside) as on the local pool; the records name the build.
- Ctrl-C (SIGINT) of a sweep, on the Dask cluster and on the local pool, with a stand-in
  simulator that sleeps: the sweep stops within seconds with exit code 130, the running
  simulator is terminated and its run left unfinished, the finished runs are kept, and a second
  call does only what is left.
- A run that fails on a Dask worker reports its stderr tail; a worker without the simulator, or
  without the sweep's results folder, stops the sweep at its start with a message naming them.
- The choice of the fastest up-to-date build, and a table that mixes builds is warned of.

Run from the repository root: /usr/bin/python3 -m scripts.tests.test_sweep_executors
(it needs python3-distributed: scripts/install-deps.sh installs it).
"""
import contextlib
import io
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import unittest
import warnings

from .. import builds
from .. import sweep_runner

# pandas and large_sweep (matplotlib) are imported by the tests that use them: the child
# processes of the Ctrl-C test (drive()) need sweep_runner only.

# A stand-in simulator: --outdir=DIR --sleep=S [--fail=1] [--wait=1]; writes DIR/pid, sleeps S
# seconds, then DIR/summary.json; with --fail, prints to stderr and exits 3; with --wait, prints
# a line on stdout and on stderr and waits for DIR/go first.
FAKE_SIM = textwrap.dedent('''\
    #!/usr/bin/python3
    import os, sys, time
    args = dict(a[2:].split("=", 1) for a in sys.argv[1:])
    d = args["outdir"]
    os.makedirs(d)
    with open(os.path.join(d, "pid"), "w") as f:
        f.write(str(os.getpid()))
    if args.get("fail"):
        sys.stderr.write("first line\\nerror: simulated failure of " + d + "\\n")
        sys.exit(3)
    if args.get("wait"):
        print("progress: waiting", flush=True)
        print("a warning", file=sys.stderr, flush=True)
        while not os.path.exists(os.path.join(d, "go")):
            time.sleep(0.02)
    time.sleep(float(args["sleep"]))
    with open(os.path.join(d, "summary.json"), "w") as f:
        f.write("{}")
''')


def write_fake_sim(folder):
    path = os.path.join(folder, "fake-sim")
    with open(path, "w") as f:
        f.write(FAKE_SIM)
    os.chmod(path, 0o755)
    return path


def fake_command(sim, sleep):
    """command(run, outdir) of sweep_runner.execute for the stand-in: a run is its sleep (a
    number, or "slow": `sleep`) or "fail"."""
    def command(run, outdir):
        if run == "fail":
            return [sim, "--outdir=" + outdir, "--sleep=0", "--fail=1"]
        return [sim, "--outdir=" + outdir, "--sleep=" + str(sleep if run == "slow" else run)]
    return command


def drive(scheduler, results, sim, sleep):
    """A sweep of the stand-in (run by the Ctrl-C test in a child process): three quick runs and
    a slow one; exit code 130 on Ctrl-C, like the sweeps' main()."""
    runs = {"quick-1": 0, "quick-2": 0, "quick-3": 0, "slow": "slow"}
    try:
        failures = sweep_runner.execute(runs, fake_command(sim, sleep), sim, results, 2,
                                        ("summary.json",), "runs",
                                        None if scheduler == "local" else scheduler)
    except KeyboardInterrupt:
        return 130
    return 1 if failures else 0


def quiet(fn, *args):
    """(fn(*args), stdout, stderr) with both captured."""
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        rc = fn(*args)
    return rc, out.getvalue(), err.getvalue()


def alive(pid):
    """True when process pid runs (not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# A stand-in that costs what the test knows: it touches 64 MiB, spins 0.4 s of CPU, and writes
# DIR/summary.json with its own peak (VmHWM), as the simulators do.
HUNGRY_SIM = textwrap.dedent('''\
    #!/usr/bin/python3
    import json, os, sys, time
    d = sys.argv[1].split("=", 1)[1]
    os.makedirs(d)
    block = bytearray(64 << 20)
    for i in range(0, len(block), 4096):
        block[i] = 1
    end = time.process_time() + 0.4
    while time.process_time() < end:
        pass
    with open("/proc/self/status") as f:
        kib = next(int(l.split()[1]) for l in f if l.startswith("VmHWM:"))
    with open(os.path.join(d, "summary.json"), "w") as f:
        json.dump({"wall_time_s": 0.5, "peak_rss_mib": round(kib / 1024, 1)}, f)
''')


class ResourcesTest(unittest.TestCase):
    """What a run cost, as sweep_runner measures it (os.wait4 of the simulator process)."""

    def test_measured_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            sim = os.path.join(tmp, "hungry-sim")
            with open(sim, "w") as f:
                f.write(HUNGRY_SIM)
            os.chmod(sim, 0o755)
            results = os.path.join(tmp, "res")
            failures = sweep_runner.execute(
                {"r": 0}, lambda run, outdir: [sim, "--outdir=" + outdir], sim, results, 1,
                ("summary.json",), "runs")
            self.assertEqual(failures, [])
            res = sweep_runner.read_resources(os.path.join(results, "r"))
            # the child's own peak as it reports it: its 64 MiB block and the interpreter
            # (about 10 MiB), whatever this process's size; its CPU (wait4): the 0.4 s loop and
            # the interpreter's start (tens of ms)
            self.assertGreaterEqual(res["max_rss_mib"], 64)
            self.assertLess(res["max_rss_mib"], 64 + 32)
            self.assertGreaterEqual(res["cpu_s"], 0.4)
            self.assertLess(res["cpu_s"], 5)
            self.assertGreaterEqual(res["wall_s"], 0.4)
            self.assertEqual(res["host"], socket.gethostname())

    def test_on_done(self):
        """on_done is called once per finished run, as soon as its folder is in place, not for
        a failed run; a message it returns makes the run a failure of the sweep."""
        with tempfile.TemporaryDirectory() as tmp:
            sim, results = write_fake_sim(tmp), os.path.join(tmp, "res")
            seen = []

            def on_done(name):
                seen.append((name, os.path.isfile(os.path.join(results, name, "summary.json"))))
                return "no record" if name == "b" else None

            rc, out, err = quiet(sweep_runner.execute, {"a": 0, "b": 0, "bad": "fail"},
                                 fake_command(sim, 0), sim, results, 2, ("summary.json",),
                                 "runs", None, None, on_done)
            self.assertEqual(sorted(seen), [("a", True), ("b", True)])
            self.assertEqual(sorted(m.split(":")[0] for m in rc), ["b", "bad"])
            self.assertIn("b: no record", rc)
            self.assertIn("FAILED b: no record", err)

    def test_without_peak(self):
        """A summary.json without a numeric peak_rss_mib (a program that does not report it):
        no max_rss_mib, the rest as measured."""
        with tempfile.TemporaryDirectory() as tmp:
            proc = sweep_runner._MeasuredPopen([sys.executable, "-c", "pass"])
            proc.wait()
            for text in ("{}", '{"peak_rss_mib": null}', '{"peak_rss_mib": "12"}', "[]", "{"):
                with open(os.path.join(tmp, "summary.json"), "w") as f:
                    f.write(text)
                res = sweep_runner.resources_of(proc, 1.5, tmp)
                self.assertNotIn("max_rss_mib", res, text)
                self.assertEqual(res["wall_s"], 1.5)
                self.assertGreater(res["cpu_s"], 0)

    def test_live_output(self):
        """A running simulator's stdout and stderr are next to NAME.tmp as it goes (its progress
        lines), and in NAME/sweep.log once it has finished, the live files gone."""
        with tempfile.TemporaryDirectory() as tmp:
            sim, results = write_fake_sim(tmp), os.path.join(tmp, "res")
            live = os.path.join(results, "w.tmp")
            seen = {}

            def release():
                end = time.monotonic() + 30
                while time.monotonic() < end and len(seen) < 2:
                    for key, suffix in sweep_runner.LIVE_FILES.items():
                        try:
                            with open(os.path.join(results, "w" + suffix)) as f:
                                if f.read().strip():
                                    seen[key] = True
                        except OSError:
                            pass
                    time.sleep(0.02)
                with open(os.path.join(live, "go"), "w"):
                    pass

            watcher = threading.Thread(target=release)
            watcher.start()
            rc, _, _ = quiet(sweep_runner.execute, {"w": 0},
                             lambda run, outdir: [sim, "--outdir=" + outdir, "--sleep=0",
                                                  "--wait=1"], sim, results, 1,
                             ("summary.json",), "runs")
            watcher.join()
            self.assertEqual(rc, [])
            self.assertEqual(seen, {"stdout": True, "stderr": True})
            final = os.path.join(results, "w")
            with open(os.path.join(final, "sweep.log")) as f:
                log = f.read()
            self.assertRegex(log, r"--- stdout\nprogress: waiting\n+--- stderr\na warning\n")
            self.assertEqual(sorted(os.listdir(results)), ["w"])  # the live files gathered

    def test_unreadable(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assertIsNone(sweep_runner.read_resources(tmp))  # a run made before
            with open(os.path.join(tmp, sweep_runner.RESOURCES_FILE), "w") as f:
                f.write("{not json")
            self.assertIsNone(sweep_runner.read_resources(tmp))
            with open(os.path.join(tmp, sweep_runner.RESOURCES_FILE), "w") as f:
                f.write("[1, 2]")
            self.assertIsNone(sweep_runner.read_resources(tmp))


class DaskTest(unittest.TestCase):
    """Everything that needs a Dask cluster: one LocalCluster of 2 worker processes."""

    @classmethod
    def setUpClass(cls):
        import distributed  # python3-distributed (scripts/install-deps.sh)
        for category in (DeprecationWarning, ResourceWarning, UserWarning):  # Dask's, not ours
            warnings.filterwarnings("ignore", category=category, module="(tornado|distributed)")
        cls.cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                               dashboard_address=":0",
                                               silence_logs=logging.ERROR)
        cls.address = cls.cluster.scheduler_address

    @classmethod
    def tearDownClass(cls):
        cls.cluster.close()

    @unittest.skipUnless(os.environ.get("DCON_LARGE_SCALE_BINARY"),
                         "DCON_LARGE_SCALE_BINARY (ctest sets it) names no dcon-large-scale")
    def test_records_equal_local_pool(self):
        import pandas as pd
        from .. import large_sweep
        binary = os.path.abspath(os.environ["DCON_LARGE_SCALE_BINARY"])
        build = os.path.dirname(os.path.dirname(binary))  # BUILD/examples/dcon-large-scale
        with tempfile.TemporaryDirectory() as tmp:
            argv = ["fig9", "--scale", "tiny", "--duration", "1ms", "--warmup", "0.2ms",
                    "--cooldown", "0ms", "--loads", "0.6", "--seeds", "1", "--no-plot",
                    "--build", build]
            out = {}
            for name, extra in (("local", ["-j", "2"]), ("dask", ["--scheduler", self.address])):
                res, store = os.path.join(tmp, name), os.path.join(tmp, name + "-store")
                rc, text, err = quiet(large_sweep.main,
                                      argv + ["--results", res, "--store", store] + extra)
                self.assertEqual(rc, 0, err)
                self.assertIn("5 runs, 0 already finished, 5 to do", text)
                out[name] = (res, store, text)
            self.assertIn("2 worker(s), 2 thread(s)", out["dask"][2])
            names = sorted(os.listdir(out["local"][1]))
            self.assertEqual(len(names), 5)
            self.assertEqual(names, sorted(os.listdir(out["dask"][1])))
            for n in names:  # equal but for what each run cost (measured where it ran)
                recs = []
                for k in ("local", "dask"):
                    with open(os.path.join(out[k][1], n)) as f:
                        recs.append(json.load(f))
                    res = recs[-1].pop("resources")
                    self.assertGreater(res["cpu_s"], 0, (k, n))
                    self.assertGreater(res["max_rss_mib"], 1, (k, n))
                    self.assertGreaterEqual(res["wall_s"], 0, (k, n))
                    self.assertTrue(res["host"], (k, n))
                self.assertEqual(recs[0], recs[1], n)
                # the simulators ran with --progress (their log says so), which is not one of
                # the arguments that define a run
                self.assertFalse([a for a in recs[0]["args"] if a.startswith("--progress")])
                with open(os.path.join(out["local"][0], n[:-len(".json")], "sweep.log")) as f:
                    self.assertIn(" --progress=60s", f.readline())
            # the sweep's executor records each run as it finishes (a sweep cut off after it
            # keeps them): execute() alone leaves the five records
            runs = large_sweep.plan(["fig9"], **large_sweep.parse_args(argv).settings)
            store = os.path.join(tmp, "execute-store")
            quiet(large_sweep.execute, runs, binary, os.path.join(tmp, "execute"), 2, 1, store)
            self.assertEqual(sorted(os.listdir(store)), names)
            with open(os.path.join(out["dask"][1], names[0])) as f:
                rec = json.load(f)
            self.assertEqual(rec["build"]["path"], builds.rel(binary))
            self.assertRegex(rec["build"]["commit"], r"^([0-9a-f]{40}(-dirty)?|unknown)$")
            self.assertIn(rec["build"]["ns3"], ("debian", "installed"))
            self.assertNotIn("build", rec["data"])
            for table in ("fig9-runs.csv", "fig9.csv"):
                a, b = (pd.read_csv(os.path.join(out[k][0], table)) for k in ("local", "dask"))
                drop = [c for c in a.columns if c.startswith("wall_time")
                        or c in large_sweep.RESOURCE_COLUMNS]
                pd.testing.assert_frame_equal(a.drop(columns=drop), b.drop(columns=drop))
                self.assertEqual(set(a.build), {builds.label(rec["build"])})

    def interrupt(self, scheduler):
        """Ctrl-C of drive() on `scheduler` ("local" or an address), then its second call."""
        with tempfile.TemporaryDirectory() as tmp:
            sim, results = write_fake_sim(tmp), os.path.join(tmp, "res")
            os.makedirs(results)
            cmd = [sys.executable, "-m", "scripts.tests.test_sweep_executors", "--drive",
                   scheduler, results, sim]
            env = dict(os.environ, PYTHONUNBUFFERED="1")
            p = subprocess.Popen(cmd + ["60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, env=env)
            slow = os.path.join(results, "slow.tmp")
            deadline = time.time() + 60
            pidfile = os.path.join(slow, "pid")
            while time.time() < deadline and not (
                    all(os.path.isdir(os.path.join(results, f"quick-{i}")) for i in (1, 2, 3))
                    and os.path.isfile(pidfile) and os.path.getsize(pidfile) > 0):
                time.sleep(0.1)
            with open(pidfile) as f:
                pid = int(f.read())
            self.assertTrue(alive(pid))
            t0 = time.time()
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=60)
            self.assertEqual(p.returncode, 130, err)
            self.assertLess(time.time() - t0, 30)  # not the slow run's 60 s
            self.assertIn("interrupted: 3 runs finished in this session are kept", err)
            deadline = time.time() + 10
            while alive(pid) and time.time() < deadline:
                time.sleep(0.1)
            self.assertFalse(alive(pid), "the slow run's simulator still runs")
            self.assertFalse(os.path.exists(os.path.join(results, "slow")))
            # resumed: only the slow run is done again (quickly now)
            p = subprocess.run(cmd + ["0"], capture_output=True, text=True, env=env, timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("4 runs, 3 already finished, 1 to do", p.stdout)
            self.assertTrue(os.path.isfile(os.path.join(results, "slow", "summary.json")))
            self.assertFalse(os.path.exists(slow))

    def test_ctrl_c_dask(self):
        self.interrupt(self.address)

    def test_ctrl_c_local_pool(self):
        self.interrupt("local")

    def test_failure_on_worker_and_worker_checks(self):
        with tempfile.TemporaryDirectory() as tmp:
            sim, results = write_fake_sim(tmp), os.path.join(tmp, "res")
            os.makedirs(results)
            runs = {"good": 0, "bad": "fail"}
            rc, out, err = quiet(sweep_runner.execute, runs, fake_command(sim, 0), sim,
                                 results, 1, ("summary.json",), "runs", self.address)
            self.assertEqual(len(rc), 1)
            self.assertTrue(rc[0].startswith("bad: " + sim), rc[0])
            # on_done on the Dask cluster too, for the run done only
            seen = []
            quiet(sweep_runner.execute, {"good2": 0, "bad2": "fail"}, fake_command(sim, 0), sim,
                  results, 1, ("summary.json",), "runs", self.address, None, seen.append)
            self.assertEqual(seen, ["good2"])
            self.assertIn("exit code 3", rc[0])
            self.assertIn("(on Dask worker tcp://", rc[0])
            self.assertIn("error: simulated failure of " + os.path.join(results, "bad.tmp"),
                          rc[0])
            self.assertIn("FAILED bad", err)
            self.assertTrue(os.path.isfile(os.path.join(results, "good", "summary.json")))
            self.assertTrue(os.path.isfile(os.path.join(results, "bad.tmp", "sweep-error.log")))
            # no simulator on the workers
            nosim = os.path.join(tmp, "nosim")
            with self.assertRaises(sweep_runner.SweepError) as e:
                quiet(sweep_runner.execute, {"x": 0}, fake_command(nosim, 0), nosim, results, 1,
                      ("summary.json",), "runs", self.address)
            self.assertIn(f"simulator {nosim} not found or not executable", str(e.exception))
            self.assertIn("same paths", str(e.exception))
            self.assertEqual(str(e.exception).count("worker tcp://"), 2)
            # a results folder the workers do not see (what a worker on another machine, without
            # the shared file system, is told)
            other = os.path.join(tmp, "other")
            os.makedirs(other)
            problem = sweep_runner._check_worker(sim, other, os.getcwd(), ".sweep-probe-x")
            self.assertIn(f"{other} is not the sweep's results folder", problem)
            self.assertIsNone(sweep_runner._check_worker(sim, results, os.getcwd(),
                                                         "good/summary.json"))
        with self.assertRaises(sweep_runner.SweepError) as e:
            sweep_runner._connect(__import__("distributed"), "tcp://127.0.0.1:1", "1s")
        self.assertIn("--scheduler tcp://127.0.0.1:1: cannot reach a Dask scheduler",
                      str(e.exception))
        with self.assertRaises(sweep_runner.SweepError) as e:
            sweep_runner._connect(__import__("distributed"), "/nonexistent/sched.json")
        self.assertIn("--scheduler /nonexistent/sched.json: no such scheduler file",
                      str(e.exception))


class BuildsTest(unittest.TestCase):
    def make(self, root, folder, sub, program, age):
        path = os.path.join(root, folder, sub, program)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("#!/bin/sh\n")
        os.chmod(path, 0o755)
        t = time.time() - age
        os.utime(path, (t, t))
        return path

    def test_choice(self):
        with tempfile.TemporaryDirectory() as root:
            src = os.path.join(root, "model", "x.cc")
            os.makedirs(os.path.dirname(src))
            open(src, "w").close()
            t = time.time() - 100
            os.utime(src, (t, t))
            # nothing built: build/examples' path, no note (the sweep says it is missing)
            c = builds.choose("sim", root=root)
            self.assertEqual(c, (os.path.join(root, "build", "examples", "sim"), ""))
            std = self.make(root, "build", "examples", "sim", 10)
            c = builds.choose("sim", root=root)
            self.assertEqual(c.binary, std)
            self.assertIn("simulator build/examples/sim (standalone build", c.note)
            # an in-tree build is faster
            mpi = self.make(root, "build-mpi", "bin", "sim", 10)
            c = builds.choose("sim", root=root)
            self.assertEqual(c.binary, mpi)
            self.assertIn("build-mpi/bin/sim (in-tree ns-3 build", c.note)
            # ... unless older than the sources
            self.make(root, "build-mpi", "bin", "sim", 1000)
            c = builds.choose("sim", root=root)
            self.assertEqual(c.binary, std)
            self.assertIn("note: build-mpi/bin/sim is older than dcon's sources", c.note)
            # both older: the fastest, with a warning
            self.make(root, "build", "examples", "sim", 1000)
            c = builds.choose("sim", root=root)
            self.assertEqual(c.binary, mpi)
            self.assertIn("warning: build-mpi/bin/sim is older", c.note)
            # the optimized build is the fastest; stale, it is passed over with the script that
            # rebuilds it named
            opt = self.make(root, "build-opt", "bin", "sim", 10)
            c = builds.choose("sim", root=root)
            self.assertEqual(c.binary, opt)
            self.assertIn("build-opt/bin/sim (static LTO and PGO build", c.note)
            self.make(root, "build-opt", "bin", "sim", 1000)
            self.make(root, "build-mpi", "bin", "sim", 10)
            c = builds.choose("sim", root=root)
            self.assertEqual(c.binary, mpi)
            self.assertIn("note: build-opt/bin/sim is older than dcon's sources, so not used "
                          "(rebuild it: scripts/build-optimized.sh)", c.note)
            self.make(root, "build-mpi", "bin", "sim", 1000)
            # --build: that one (a standalone build, bin/, an ns-3 tree), stale or not
            c = builds.choose("sim", os.path.join(root, "build"), root=root)
            self.assertEqual(c.binary, std)
            self.assertIn("--build", c.note)
            self.assertIn("warning", c.note)
            tree = self.make(root, "ns-3.48/build/contrib/dcon", "examples", "ns3.48-sim-default",
                             0)
            c = builds.choose("sim", os.path.join(root, "ns-3.48"), root=root)
            self.assertEqual((c.binary, "warning" in c.note), (tree, False))
            c = builds.choose("sim", os.path.join(root, "none"), root=root)
            self.assertEqual(c, (os.path.join(root, "none", "examples", "sim"), ""))

    def test_record_and_label(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertIsNone(builds.of_run(d))
            run = {"command_line": [os.path.join(builds.ROOT, "build-mpi", "bin", "sim"), "--x"],
                   "ns3_version": "3.37",
                   "build": {"type": "release", "ns3": "in-tree", "commit": "ab" * 20}}
            with open(os.path.join(d, "run.json"), "w") as f:
                json.dump(run, f)
            b = builds.of_run(d)
            self.assertEqual(b, {"path": "build-mpi/bin/sim", "ns3_version": "3.37",
                                 "type": "release", "ns3": "in-tree", "commit": "ab" * 20})
            self.assertEqual(builds.label(b), "build-mpi/bin (in-tree ns-3 3.37, release)")
            # a run made before the programs recorded their build
            del run["build"]
            run["command_line"][0] = "/elsewhere/sim"
            with open(os.path.join(d, "run.json"), "w") as f:
                json.dump(run, f)
            self.assertEqual(builds.of_run(d), {"path": "/elsewhere/sim", "ns3_version": "3.37"})
            self.assertEqual(builds.label(builds.of_run(d)), builds.UNRECORDED)
            self.assertEqual(builds.label(None), builds.UNRECORDED)

    def test_path_in_another_checkout(self):
        """A build in another checkout of dcon (a clone, a git worktree) is named as it is in
        that checkout, so one build has one name whichever checkout's scripts ran the sweep;
        a program outside any checkout keeps its absolute path."""
        with tempfile.TemporaryDirectory() as d:
            other = os.path.join(d, "wt", "sweep")
            os.makedirs(os.path.join(other, "scripts"))
            os.makedirs(os.path.join(other, "build", "examples"))
            open(os.path.join(other, "scripts", "builds.py"), "w").close()
            with open(os.path.join(other, ".git"), "w") as f:  # a worktree's .git is a file
                f.write("gitdir: /somewhere\n")
            sim = os.path.join(other, "build", "examples", "dcon-large-scale")
            self.assertEqual(builds.rel(sim), "build/examples/dcon-large-scale")
            lone = os.path.join(d, "bin", "dcon-large-scale")  # no checkout above it
            self.assertEqual(builds.rel(lone), os.path.abspath(lone))
            os.remove(os.path.join(other, "scripts", "builds.py"))  # a git checkout, not dcon's
            self.assertEqual(builds.rel(sim), os.path.abspath(sim))
            self.assertEqual(builds.rel(os.path.join(builds.ROOT, "build", "examples", "x")),
                             "build/examples/x")

    def test_mixed_builds(self):
        import pandas as pd
        runs = pd.DataFrame({"variant": ["a", "a", "b"], "seed": [1, 2, 1],
                             "build": ["X", "Y", "X"]})
        err = io.StringIO()
        self.assertIsNone(builds.warn_if_mixed(["X", "X"], "t", file=err))
        text = builds.warn_if_mixed(runs.build, "fig9-runs.csv", file=err)
        self.assertEqual(text, "warning: fig9-runs.csv mixes runs of 2 builds (see its build "
                               "column): 2 run(s) of X; 1 run(s) of Y")
        self.assertEqual(err.getvalue(), text + "\n")
        points = pd.DataFrame({"variant": ["a", "b"], "n": [2, 1]})
        builds.add_builds_column(points, runs, ["variant"])
        self.assertEqual(list(points.build), ["X + Y", "X"])


if __name__ == "__main__":
    if sys.argv[1:2] == ["--drive"]:
        # Ctrl-C as at a terminal, even when the tests run in the background (a shell's
        # background job starts with SIGINT ignored, and its children inherit that)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        sys.exit(drive(*sys.argv[2:5], float(sys.argv[5])))
    unittest.main()

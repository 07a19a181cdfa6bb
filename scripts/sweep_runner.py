"""Run many simulator commands in parallel, resumably; shared by large_sweep.py, burst_sweep.py
and testbed_readings.py.

A run named NAME writes into RESULTS/NAME.tmp, which is renamed to RESULTS/NAME only when the
simulator exits 0 having written every file that marks a finished run (e.g. summary.json, which
the examples write last). Finished runs are skipped, so an interrupted sweep is simply started
again. While a simulator runs, its stdout and stderr go to RESULTS/NAME.stdout.txt and
NAME.stderr.txt (LIVE_FILES: its progress lines can be followed there); when it exits they are
gathered into the run's sweep.log. A failed run keeps its .tmp folder with sweep-error.log
(redone on the next call), its stderr tail is reported, and the other runs go on. Ctrl-C
terminates the running simulators, keeps the runs that had finished and re-raises
KeyboardInterrupt.

Two executors run the same runs the same way (records, resumption, Ctrl-C, progress bar):
- the local pool (default): `jobs` simulators at a time on this machine, one thread each;
- Dask's distributed scheduler (--scheduler ADDRESS, python3-distributed, imported only then):
  each run is a task of the scheduler's workers (`dask worker`, e.g. started by a batch job),
  which run the simulator in the sweep's working folder. The workers need the build, its inputs
  and the results folder at the same paths as here (a shared file system): this is checked on
  every worker at the start (the simulator exists and is executable, the results folder is this
  one). Ctrl-C sets a Dask Event that the tasks poll every second: they terminate their
  simulators, and the tasks not started yet do nothing. The tasks' code is sent to the workers
  (cloudpickle by value), so they need Python and python3-distributed only, not this package.

What each finished run cost is written next to its outputs, in RESULTS/NAME/resources.json
(read_resources): wall_s, the wall time of the simulator process; cpu_s, its CPU time, from
os.wait4 when it is reaped (with --ranks > 1 that process is mpirun, and the CPU time includes
the ranks it waited for); max_rss_mib, the peak resident memory the simulator reports of itself
(summary.json's peak_rss_mib: its VmHWM; rank 0's in a parallel run), not wait4's ru_maxrss,
which on Linux starts from the Python process's own size at the spawn; and host, where it ran.
The sweeps copy it into the run's record; it is not an output of the simulation (it differs from
run to run) and decides nothing.
"""
import concurrent.futures as cf
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid

from tqdm import tqdm


class SweepError(Exception):
    """Bad user input or set-up; the message names the value."""


TIME_RE = re.compile(r"^([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(s|ms|us|ns)$")
TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}


def fmt_num(x):
    """Canonical short form of a number in run names: 0.4 -> '0.4', 0.0 -> '0', 3.0 -> '3'."""
    return "%g" % x


def canonical_time(text, option="--duration", allow_zero=False):
    """A simulator time option's value in canonical form ('5.0ms' -> '5ms'); SweepError naming
    the option for anything that is not <number><s|ms|us|ns> > 0 (>= 0 with allow_zero)."""
    m = TIME_RE.match(str(text).strip())
    if not m or not (float(m.group(1)) > 0 or (allow_zero and float(m.group(1)) == 0)):
        raise SweepError(f"{option} must be a {'' if allow_zero else 'positive '}time like "
                         f"5ms, 500us or 0.01s, got {text!r}")
    return fmt_num(float(m.group(1))) + m.group(2)


def seconds(time_text):
    """A time like '30ms' (see canonical_time) in seconds."""
    m = TIME_RE.match(str(time_text).strip())
    if not m:
        raise SweepError(f"not a time like 5ms, 500us or 0.01s: {time_text!r}")
    return float(m.group(1)) * TIME_UNITS[m.group(2)]


RESOURCES_FILE = "resources.json"
# a running simulator's output as it goes (e.g. its progress lines: `tail -f`), next to its
# RESULTS/NAME.tmp folder (not in it: the programs note files in their output folder that they
# do not write); gathered into sweep.log (sweep-error.log on failure) when it exits
LIVE_FILES = {"stdout": ".stdout.txt", "stderr": ".stderr.txt"}


class _MeasuredPopen(subprocess.Popen):
    """A Popen that keeps the child's resource usage (os.wait4) when it reaps the child:
    `rusage` (None until then, or when this Python reaps it by another path). CPython's Popen
    reaps through _try_wait (wait, communicate); a Python that does not leaves rusage None, and
    the run's resources then lack cpu_s (ResourcesTest checks that this one does)."""

    rusage = None

    def _try_wait(self, wait_flags):
        try:
            pid, sts, ru = os.wait4(self.pid, wait_flags)
        except ChildProcessError:  # reaped elsewhere (SIGCHLD ignored): no status, no usage
            return self.pid, 0
        if pid == self.pid:
            self.rusage = ru
        return pid, sts


def _read_text(path):
    """A text file's content; bytes that are not UTF-8 replaced."""
    with open(path, errors="replace") as f:
        return f.read()


def resources_of(proc, wall_s, run_dir):
    """{wall_s, cpu_s, max_rss_mib, host} of a finished _MeasuredPopen whose outputs are in
    run_dir: cpu_s only when it was reaped through wait4, max_rss_mib only when its
    summary.json has a numeric peak_rss_mib (see the module's doc)."""
    out = {"wall_s": round(wall_s, 3), "host": socket.gethostname()}
    ru = getattr(proc, "rusage", None)
    if ru is not None:
        out["cpu_s"] = round(ru.ru_utime + ru.ru_stime, 3)
    try:
        with open(os.path.join(run_dir, "summary.json")) as f:
            peak = json.load(f).get("peak_rss_mib")
    except (OSError, ValueError, AttributeError):
        peak = None
    if isinstance(peak, (int, float)) and not isinstance(peak, bool):
        out["max_rss_mib"] = peak
    return out


def read_resources(run_dir):
    """The resources.json of a finished run (see the module's doc), or None when it has none
    (runs made before the sweeps measured them) or it cannot be read."""
    try:
        with open(os.path.join(run_dir, RESOURCES_FILE)) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def is_complete(run_dir, required):
    """A finished run: not a .tmp folder, and every file of `required` is in it."""
    return (not os.path.normpath(run_dir).endswith(".tmp")
            and all(os.path.isfile(os.path.join(run_dir, f)) for f in required))


class Runner:
    """Runs one simulator process per call (one call per worker thread); stop() kills them.

    results: the results folder; required: the files that mark a finished run; cwd: the folder
    the simulators run in (None: this process's); env: variables added to their environment;
    should_stop: None, or a function polled every POLL_S seconds while a simulator runs (and
    before it starts) that returns True to stop it (a Dask worker's view of the sweep's stop).
    """

    POLL_S = 1.0

    def __init__(self, results, required, cwd=None, env=None, should_stop=None):
        self.results = results
        self.required = tuple(required)
        self.cwd = cwd
        self.env = dict(os.environ, **env) if env else None
        self.should_stop = should_stop
        self.stopping = threading.Event()
        self._procs = set()
        self._lock = threading.Lock()

    def run_one(self, name, cmd):
        """Run argv `cmd` as run `name` (its --outdir is RESULTS/NAME.tmp).
        -> (name, "skipped" | "done" | "failed" | "stopped", message)."""
        try:
            return self._run_one(name, cmd)
        except OSError as e:  # cannot start the simulator, disk full, ...
            return name, "failed", f"{type(e).__name__}: {e}"

    def _stopped(self):
        if not self.stopping.is_set() and self.should_stop is not None and self.should_stop():
            self.stopping.set()
        return self.stopping.is_set()

    def _path(self, p):
        return p if self.cwd is None else os.path.join(self.cwd, p)

    def _run_one(self, name, cmd):
        final = self._path(os.path.join(self.results, name))
        if is_complete(final, self.required):
            return name, "skipped", ""
        if self._stopped():
            return name, "stopped", ""
        tmp = final + ".tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        live = {k: final + suffix for k, suffix in LIVE_FILES.items()}
        with self._lock:
            if self.stopping.is_set():
                return name, "stopped", ""
            started = time.monotonic()
            os.makedirs(os.path.dirname(final), exist_ok=True)
            try:
                with open(live["stdout"], "w") as fo, open(live["stderr"], "w") as fe:
                    proc = _MeasuredPopen(cmd, stdout=fo, stderr=fe, stdin=subprocess.DEVNULL,
                                          cwd=self.cwd, env=self.env)
            except OSError:  # cannot start the simulator: run_one reports it
                for f in live.values():
                    if os.path.exists(f):
                        os.remove(f)
                raise
            self._procs.add(proc)
        try:
            if self.should_stop is None:
                proc.wait()
            else:
                while True:
                    try:
                        proc.wait(timeout=self.POLL_S)
                        break
                    except subprocess.TimeoutExpired:
                        if self._stopped():
                            proc.terminate()
        finally:
            with self._lock:
                self._procs.discard(proc)
        wall_s = time.monotonic() - started
        out, err = (_read_text(live[k]) for k in ("stdout", "stderr"))
        for f in live.values():
            os.remove(f)
        if proc.returncode != 0 and (self.stopping.is_set() or proc.returncode == -signal.SIGINT):
            return name, "stopped", ""
        problem = None
        if proc.returncode != 0:
            problem = f"exit code {proc.returncode}"
        elif not all(os.path.isfile(os.path.join(tmp, f)) for f in self.required):
            problem = f"exit code 0 but no {'/'.join(self.required)} in {tmp}"
        if problem:
            if os.path.isdir(tmp):  # keep the failed output for a look; removed on retry
                with open(os.path.join(tmp, "sweep-error.log"), "w") as f:
                    f.write(" ".join(cmd) + "\n" + problem + "\n--- stdout\n" + out
                            + "\n--- stderr\n" + err)
            tail = "\n".join(err.rstrip().splitlines()[-15:])
            return name, "failed", f"{' '.join(cmd)}\n{problem}; stderr tail:\n{tail}"
        with open(os.path.join(tmp, "sweep.log"), "w") as f:
            f.write(" ".join(cmd) + "\n--- stdout\n" + out + "\n--- stderr\n" + err)
        with open(os.path.join(tmp, RESOURCES_FILE), "w") as f:
            json.dump(resources_of(proc, wall_s, tmp), f, sort_keys=True)
            f.write("\n")
        shutil.rmtree(final, ignore_errors=True)  # an incomplete leftover, if any
        os.rename(tmp, final)
        return name, "done", ""

    def stop(self):
        self.stopping.set()
        with self._lock:
            for p in list(self._procs):
                if p.poll() is None:
                    p.terminate()


def report_failures(failures):
    """Print the first line of each failure message to stderr; the exit code (1 if any, else 0)."""
    if failures:
        print(f"{len(failures)} run(s) failed:\n  " + "\n  ".join(
            f.splitlines()[0] for f in failures), file=sys.stderr)
    return 1 if failures else 0


def add_executor_option(ap):
    """Add --scheduler to a sweep's argument parser (its value: args.scheduler)."""
    ap.add_argument("--scheduler", default=None, metavar="ADDRESS|FILE",
                    help="run on Dask's distributed scheduler at ADDRESS (e.g. "
                         "tcp://node1:8786), or the one a scheduler file names (dask scheduler "
                         "--scheduler-file FILE), instead of the local pool (-j is then "
                         "ignored: the workers' threads set how many runs go at once); the "
                         "workers need the build, the inputs and the results folder at the "
                         "same paths (python3-distributed)")


def _interrupted(done):
    print(f"\ninterrupted: {done} runs finished in this session are kept, unfinished "
          "ones were discarded (their .tmp folders are redone); rerun the same command "
          "to continue", file=sys.stderr)


def execute(runs, command, binary, results, jobs, required, desc, scheduler=None, env=None,
            on_done=None):
    """Run the runs of {name: run} that are not finished yet, `jobs` at a time on this machine
    (or on the Dask cluster of `scheduler`, see the module docstring), with a tqdm progress
    bar. command(run, outdir) -> the simulator's argv for `run` writing into outdir (called
    here, RESULTS/NAME.tmp); env: variables added to the simulators' environment. `binary` is
    checked before anything starts (SweepError naming it; on every Dask worker too).
    on_done(name), when given, is called in this thread as soon as a run has finished (its
    folder renamed to RESULTS/NAME), while the others go on: e.g. to record it at once, so that a
    sweep cut off later keeps it; a message it returns is a failure of the sweep.
    Returns the list of failure messages; raises KeyboardInterrupt after cleaning up."""
    todo = {n: r for n, r in runs.items()
            if not is_complete(os.path.join(results, n), required)}
    print(f"{len(runs)} runs, {len(runs) - len(todo)} already finished, {len(todo)} to do")
    if not todo:
        return []
    cmds = {n: command(r, os.path.join(results, n + ".tmp")) for n, r in todo.items()}
    if scheduler:
        return _execute_dask(cmds, binary, results, required, desc, scheduler, env, on_done)
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        raise SweepError(f"simulator {binary} not found or not executable; build first "
                         "(scripts/setup.sh) or pass its build folder")
    failures = []
    runner = Runner(results, required, env=env)
    pool = cf.ThreadPoolExecutor(max_workers=jobs)
    futures = [pool.submit(runner.run_one, n, c) for n, c in cmds.items()]
    try:
        with tqdm(total=len(futures), desc=desc, unit="run") as bar:
            for fut in cf.as_completed(futures):
                name, status, msg = fut.result()
                _finished(name, status, msg, failures, on_done)
                bar.update(1)
    except KeyboardInterrupt:
        runner.stop()
        pool.shutdown(wait=True, cancel_futures=True)
        _interrupted(sum(1 for f in futures if f.done() and not f.cancelled()
                         and f.exception() is None and f.result()[1] == "done"))
        raise
    pool.shutdown(wait=True)
    return failures


# ------------------------------------------------------------------ Dask


def _dask_task(name, cmd, results, required, cwd, env, stop_event):
    """A run on a Dask worker (Runner.run_one, stopped by the Dask Event named stop_event)."""
    import distributed
    stop = distributed.Event(stop_event)
    where = distributed.get_worker().address
    name, status, msg = Runner(results, required, cwd, env, stop.is_set).run_one(name, cmd)
    if status == "failed":
        first, _, rest = msg.partition("\n")
        msg = f"{first}\n(on Dask worker {where}) {rest}"
    return name, status, msg


def _check_worker(binary, results, cwd, probe):
    """What keeps this Dask worker from running the sweep, or None (run by client.run)."""
    if not os.path.isdir(cwd):
        return f"no folder {cwd} (the sweep's working folder)"
    path = os.path.join(cwd, binary)
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        return f"simulator {path} not found or not executable"
    if not os.path.isfile(os.path.join(cwd, results, probe)):
        return (f"{os.path.join(cwd, results)} is not the sweep's results folder (no {probe} "
                "in it: not the same file system)")
    return None


def _connect(distributed, scheduler, timeout="30s"):
    """A Client of the scheduler at an address, or of the one a scheduler file names."""
    if "://" not in scheduler and (os.sep in scheduler or scheduler.endswith(".json")) \
            and not os.path.isfile(scheduler):
        raise SweepError(f"--scheduler {scheduler}: no such scheduler file (dask scheduler "
                         "--scheduler-file writes it when it starts)")
    try:
        if os.path.isfile(scheduler):
            return distributed.Client(scheduler_file=scheduler, timeout=timeout)
        return distributed.Client(scheduler, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as e:
        raise SweepError(f"--scheduler {scheduler}: cannot reach a Dask scheduler there "
                         f"({type(e).__name__}: {e})") from None


def _finished(name, status, msg, failures, on_done):
    """A run's outcome: a failure is reported and listed; a run done goes to on_done, whose
    message (if any) is listed as a failure."""
    if status == "done" and on_done is not None:
        problem = on_done(name)
        if problem:
            status, msg = "failed", problem
    if status == "failed":
        failures.append(f"{name}: {msg}")
        tqdm.write(f"FAILED {name}: {msg}", file=sys.stderr)


def _execute_dask(cmds, binary, results, required, desc, scheduler, env, on_done=None):
    try:
        import cloudpickle
        import distributed
    except ImportError as e:
        raise SweepError(f"--scheduler needs Dask's distributed ({e}): apt-get install "
                         "python3-distributed (scripts/install-deps.sh installs it)") from None
    # the tasks' code goes to the workers by value: they need not import this package
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    cwd = os.getcwd()
    token = uuid.uuid4().hex[:12]
    probe = f".sweep-probe-{token}"
    client = _connect(distributed, scheduler)
    futures, stop = [], None
    failures = []
    try:
        if not client.scheduler_info()["workers"]:
            print(f"waiting for a Dask worker to join the scheduler at {scheduler} ...")
            client.wait_for_workers(1)
        with open(os.path.join(results, probe), "w"):
            pass
        try:
            problems = {w: p for w, p in client.run(_check_worker, binary, results, cwd,
                                                     probe).items() if p}
        finally:
            os.remove(os.path.join(results, probe))
        if problems:
            raise SweepError(
                "the Dask workers need the build, its inputs and the results folder at the "
                "same paths as here (a shared file system); "
                + "; ".join(f"worker {w}: {p}" for w, p in sorted(problems.items())))
        workers = client.scheduler_info()["workers"]
        print(f"Dask scheduler {client.scheduler.address}: {len(workers)} worker(s), "
              f"{sum(w['nthreads'] for w in workers.values())} thread(s)")
        stop = distributed.Event(f"dcon-sweep-stop-{token}", client=client)
        futures = [client.submit(_dask_task, n, c, results, required, cwd, env, stop.name,
                                 key=f"{n}-{token}", pure=False) for n, c in cmds.items()]
        with tqdm(total=len(futures), desc=desc, unit="run") as bar:
            for fut in distributed.as_completed(futures):
                try:
                    name, status, msg = fut.result()
                except Exception as e:  # e.g. KilledWorker: its worker died 3 times
                    name = fut.key[:-len(token) - 1]
                    status, msg = "failed", (f"{' '.join(cmds[name])}\non the Dask cluster: "
                                             f"{type(e).__name__}: {e}")
                _finished(name, status, msg, failures, on_done)
                bar.update(1)
    except KeyboardInterrupt:
        done = 0
        if stop is not None:
            stop.set()  # the running tasks terminate their simulators, the others do nothing
            try:
                distributed.wait(futures, timeout=60)
            except (distributed.TimeoutError, TimeoutError):
                pass
            done = sum(1 for f in futures if f.status == "finished" and f.result()[1] == "done")
        _interrupted(done)
        raise
    finally:
        if futures:
            client.cancel(futures)
        if stop is not None:
            try:
                stop.clear()
            except Exception:  # noqa: BLE001 (a closing scheduler: nothing left to clear)
                pass
        client.close()
    return failures

"""Run many simulator commands in parallel, resumably; shared by large_sweep.py and burst_sweep.py.

A run named NAME writes into RESULTS/NAME.tmp, which is renamed to RESULTS/NAME only when the
simulator exits 0 having written every file that marks a finished run (e.g. summary.json, which
the examples write last). Finished runs are skipped, so an interrupted sweep is simply started
again. A failed run keeps its .tmp folder with sweep-error.log (redone on the next call), its
stderr tail is reported, and the other runs go on. Ctrl-C terminates the running simulators,
keeps the runs that had finished and re-raises KeyboardInterrupt.
"""
import concurrent.futures as cf
import os
import re
import shutil
import signal
import subprocess
import sys
import threading

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


def is_complete(run_dir, required):
    """A finished run: not a .tmp folder, and every file of `required` is in it."""
    return (not os.path.normpath(run_dir).endswith(".tmp")
            and all(os.path.isfile(os.path.join(run_dir, f)) for f in required))


class Runner:
    """Runs one simulator process per call (one call per worker thread); stop() kills them.

    command(run, outdir) -> argv list of the simulator for `run`, writing into `outdir`.
    """

    def __init__(self, command, results, required):
        self.command = command
        self.results = results
        self.required = tuple(required)
        self.stopping = threading.Event()
        self._procs = set()
        self._lock = threading.Lock()

    def run_one(self, name, run):
        """-> (name, "skipped" | "done" | "failed" | "stopped", message)."""
        try:
            return self._run_one(name, run)
        except OSError as e:  # cannot start the simulator, disk full, ...
            return name, "failed", f"{type(e).__name__}: {e}"

    def _run_one(self, name, run):
        final = os.path.join(self.results, name)
        if is_complete(final, self.required):
            return name, "skipped", ""
        if self.stopping.is_set():
            return name, "stopped", ""
        tmp = final + ".tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        cmd = self.command(run, tmp)
        with self._lock:
            if self.stopping.is_set():
                return name, "stopped", ""
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    stdin=subprocess.DEVNULL, text=True, errors="replace")
            self._procs.add(proc)
        try:
            out, err = proc.communicate()
        finally:
            with self._lock:
                self._procs.discard(proc)
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


def execute(runs, command, binary, results, jobs, required, desc):
    """Run the runs of {name: run} that are not finished yet, `jobs` at a time, with a tqdm
    progress bar. `binary` is checked before anything starts (SweepError naming it).
    Returns the list of failure messages; raises KeyboardInterrupt after cleaning up."""
    todo = {n: r for n, r in runs.items()
            if not is_complete(os.path.join(results, n), required)}
    print(f"{len(runs)} runs, {len(runs) - len(todo)} already finished, {len(todo)} to do")
    failures = []
    if not todo:
        return failures
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        raise SweepError(f"simulator {binary} not found or not executable; build first "
                         "(scripts/setup.sh) or pass its build folder")
    runner = Runner(command, results, required)
    pool = cf.ThreadPoolExecutor(max_workers=jobs)
    futures = [pool.submit(runner.run_one, n, r) for n, r in todo.items()]
    try:
        with tqdm(total=len(futures), desc=desc, unit="run") as bar:
            for fut in cf.as_completed(futures):
                name, status, msg = fut.result()
                if status == "failed":
                    failures.append(f"{name}: {msg}")
                    tqdm.write(f"FAILED {name}: {msg}", file=sys.stderr)
                bar.update(1)
    except KeyboardInterrupt:
        runner.stop()
        pool.shutdown(wait=True, cancel_futures=True)
        done = sum(1 for f in futures if f.done() and not f.cancelled()
                   and f.exception() is None and f.result()[1] == "done")
        print(f"\ninterrupted: {done} runs finished in this session are kept, unfinished "
              "ones were discarded (their .tmp folders are redone); rerun the same command "
              "to continue", file=sys.stderr)
        raise
    pool.shutdown(wait=True)
    return failures

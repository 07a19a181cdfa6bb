"""The compact records of finished sweep runs, kept in the repository.

A sweep's raw output (flows, PFC events, CNMs: megabytes per run) stays in results/, which is not
committed. What the tables, the claims and the figures need from a run is small: its statistics.
Each finished run leaves one JSON record in a store folder of the repository,

  data/validation/<sweep>/<run name>.json
  {"run": NAME, "args": [...], "models": {...}, "data": {...}, "build": {...},
   "resources": {...}}

- "args": the simulator arguments that define the run (without the binary and the output
  folder), so a record is only used for the run it was made for;
- "models": the model versions the run depends on (MODEL_VERSIONS below: the fabric for every
  run, plus the --cc it runs), so that a change of one algorithm's code, recorded by bumping its
  version here, invalidates the runs of that algorithm and no others;
- "data": the sweep's numbers for that run (e.g. stats.json without per-link detail);
- "build": which build made the run (scripts/builds.py's of_run: the program's path, relative to
  the repository when inside it, the build type, "debian", "installed" or "in-tree" ns-3, the
  ns-3 version and dcon's git commit, from the run's run.json); not in the records made before
  the programs recorded their build. It does not decide whether a record is current: two builds
  of the same code give the same results (the tables name the builds they mix).
- "resources": what the run cost where the sweep measured it (scripts/sweep_runner.py's
  resources.json: wall_s, cpu_s, max_rss_mib, host); not in records made before the sweeps
  measured them. Like "build", it decides nothing.

A sweep treats a run with a current record (same args and models) as finished and does not run
it; its tables are made from the records, so they regenerate on any machine from the repository
alone. A stale record is replaced when the run is redone. Records are written with sorted keys
and a trailing newline, so that a rerun giving the same numbers leaves the file unchanged.
"""
import json
import os
import re

# Bump a version when a change of the model changes the results of runs that use it: "fabric"
# for the switch, links, PFC, NIC and monitor (every run), an algorithm's --cc name for its own
# code. Runs recorded under another version are redone by the next sweep.
MODEL_VERSIONS = {
    "fabric": "1",
    "dcon": "2",  # 2: the text's AIMD sender, T_last per (ingress, egress) (issue 19)
}

STORE_ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                          "validation")
_NAME_RE = re.compile(r"^[A-Za-z0-9._+-]+$")


class StoreError(Exception):
    """A record that cannot be read or written; the message names the file."""


def models_for(args):
    """The model versions a run with these simulator arguments depends on: the fabric's, and
    the --cc's when it has one in MODEL_VERSIONS."""
    models = {"fabric": MODEL_VERSIONS["fabric"]}
    for a in args:
        if a.startswith("--cc="):
            cc = a.split("=", 1)[1]
            if cc in MODEL_VERSIONS:
                models[cc] = MODEL_VERSIONS[cc]
    return models


def path(store, name):
    """The record file of run `name` in folder `store`."""
    if not _NAME_RE.match(name):
        raise StoreError(f"run name {name!r} is not a plain file name")
    return os.path.join(store, name + ".json")


def load(store, name):
    """The record of a run, or None when there is none."""
    p = path(store, name)
    if not os.path.isfile(p):
        return None
    try:
        with open(p) as f:
            rec = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise StoreError(f"{p}: cannot read ({e})") from None
    if not isinstance(rec, dict) or not {"run", "args", "models", "data"} <= set(rec):
        raise StoreError(f"{p}: not a run record (needs run, args, models, data)")
    return rec


def current(store, name, args, record=False):
    """The data of run `name` (its whole record with record=True) if its record was made with
    these arguments and today's model versions, else None."""
    rec = load(store, name)
    if rec is None or rec["args"] != list(args) or rec["models"] != models_for(args):
        return None
    return rec if record else rec["data"]


def save(store, name, args, data, build=None, resources=None):
    """Write (or replace) the record of run `name`, with its build record and its resources
    when given; atomically."""
    os.makedirs(store, exist_ok=True)
    p = path(store, name)
    rec = {"run": name, "args": list(args), "models": models_for(args), "data": data}
    if build is not None:
        rec["build"] = build
    if resources is not None:
        rec["resources"] = resources
    tmp = p + ".part"
    try:
        with open(tmp, "w") as f:
            json.dump(rec, f, indent=1, sort_keys=True, allow_nan=True)
            f.write("\n")
        os.replace(tmp, p)
    except OSError as e:
        raise StoreError(f"{p}: cannot write ({e})") from None

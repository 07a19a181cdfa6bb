"""The congestion controls a simulator binary knows, asked of the binary itself (`--list-cc`).

Every example (dcon-large-scale, dcon-testbed, dcon-bench) prints its registry with
`--list-cc`: one line per algorithm, "name<TAB>queue disc TypeId<TAB>summary". Scripts that mean
"every algorithm" use this list instead of keeping their own, so a new algorithm (one class
registered in the C++ library) reaches them without an edit here.
"""
import functools
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_BINARY = os.path.join(ROOT, "build", "examples", "dcon-large-scale")


class CcListError(RuntimeError):
    """The binary could not be asked (missing, failed, or printed nothing)."""


def parse_listing(text):
    """[(name, queue_disc, summary)] from the text of `--list-cc`, in its order."""
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != 3 or not fields[0]:
            raise CcListError(f"unexpected --list-cc line {line!r} (want name<TAB>queue<TAB>summary)")
        out.append(tuple(fields))
    return out


@functools.lru_cache(maxsize=None)
def listing(binary=DEFAULT_BINARY):
    """[(name, queue_disc, summary)] of every congestion control `binary` knows."""
    if not os.access(binary, os.X_OK):
        raise CcListError(f"no simulator at {binary} to ask for its congestion controls "
                          "(build it first)")
    try:
        res = subprocess.run([binary, "--list-cc"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise CcListError(f"{binary} --list-cc failed: {e}") from e
    if res.returncode != 0:
        raise CcListError(f"{binary} --list-cc exited with {res.returncode}: {res.stderr.strip()}")
    entries = parse_listing(res.stdout)
    if not entries:
        raise CcListError(f"{binary} --list-cc printed no congestion control")
    return entries


def names(binary=DEFAULT_BINARY):
    """The short names (--cc) `binary` knows, in its order (sorted by name)."""
    return [name for name, _, _ in listing(binary)]


def summary(name, binary=DEFAULT_BINARY):
    """The one-line summary of a congestion control (None if `binary` does not know it)."""
    for n, _, s in listing(binary):
        if n == name:
            return s
    return None

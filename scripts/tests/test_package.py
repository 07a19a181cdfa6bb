"""The scripts package as a whole: every module imports cleanly on its own, without any edit of
the interpreter's import path; the modules import each other without a cycle; every program
answers --help when run as documented (python3 -m scripts.NAME from the repository root); and
the commands the docs print name modules that exist.

Each import runs in a fresh interpreter started in the repository root with Python's environment
variables ignored (-E: no PYTHONPATH) and no user site (-s), so that the package is found only as
./scripts; the import path must be the same after the import as before it.

Run from the repository root: /usr/bin/python3 -m scripts.tests.test_package
"""
import ast
import os
import re
import subprocess
import sys
import unittest

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(PACKAGE_DIR)
PACKAGE = os.path.basename(PACKAGE_DIR)  # "scripts"
# The interpreter's import path list, spelt in two parts so that this file does not match itself.
NEEDLE = "sys" + ".path"
DOCS = ["README.md", "doc", os.path.join("data", "rtt-predictor", "README.md"),
        os.path.join("scripts", "setup.sh"), os.path.join("test", "mpi-tests.sh"),
        os.path.join("test", "CMakeLists.txt"), os.path.join("scripts", "tests", "CMakeLists.txt"),
        "CMakeLists.txt", ".ci"]


def python_files():
    """(module name, path) of every Python file of the package, subpackages included."""
    out = []
    for d, dirs, files in os.walk(PACKAGE_DIR):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        for f in sorted(files):
            if f.endswith(".py"):
                path = os.path.join(d, f)
                rel = os.path.relpath(path, ROOT)[:-3].split(os.sep)
                if rel[-1] == "__init__":
                    rel = rel[:-1]
                out.append((".".join(rel), path))
    return out


def doc_lines():
    """(path relative to the root, line number, line) of every file of DOCS."""
    for entry in DOCS:
        full = os.path.join(ROOT, entry)
        paths = (sorted(os.path.join(d, f) for d, _, fs in os.walk(full) for f in fs)
                 if os.path.isdir(full) else [full] if os.path.isfile(full) else [])
        for path in paths:
            with open(path, errors="replace") as f:
                for i, line in enumerate(f, 1):
                    yield os.path.relpath(path, ROOT), i, line


def run(args, timeout=120):
    return subprocess.run([sys.executable, "-E", "-s"] + args, cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def package_imports(module, path):
    """The package's modules that a module imports (relative or absolute imports of it)."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    is_pkg = os.path.basename(path) == "__init__.py"
    base = module.split(".") if is_pkg else module.split(".")[:-1]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parent = base[:len(base) - node.level + 1]
            else:
                parent = []
            target = parent + (node.module.split(".") if node.module else [])
            for a in node.names:
                out.add(".".join(target + [a.name]))
                out.add(".".join(target))
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


class PackageTest(unittest.TestCase):
    def test_every_module_imports_alone_without_path_edits(self):
        modules = python_files()
        self.assertGreater(len(modules), 20)
        for name, _ in modules:
            code = ("import importlib, sys\n"
                    f"before = list({NEEDLE})\n"
                    f"importlib.import_module({name!r})\n"
                    f"sys.exit(0 if list({NEEDLE}) == before else 3)\n")
            with self.subTest(module=name):
                p = run(["-c", code])
                self.assertNotEqual(p.returncode, 3, f"importing {name} changed the import path")
                self.assertEqual(p.returncode, 0, f"import {name}:\n{p.stderr}")

    def test_no_import_path_edit_in_the_package(self):
        hits = []
        for name, path in python_files():
            with open(path) as f:
                for i, line in enumerate(f, 1):
                    if NEEDLE in line:
                        hits.append(f"{os.path.relpath(path, ROOT)}:{i}: {line.strip()}")
        self.assertEqual(hits, [])

    def test_no_import_cycle(self):
        modules = dict(python_files())
        graph = {m: sorted(x for x in package_imports(m, p) if x in modules and x != m)
                 for m, p in modules.items()}
        # large_sweep draws with plot_large, which no longer reaches back into large_sweep
        self.assertIn(f"{PACKAGE}.plot_large", graph[f"{PACKAGE}.large_sweep"])
        self.assertNotIn(f"{PACKAGE}.large_sweep", graph[f"{PACKAGE}.plot_large"])
        state = {}

        def visit(m, stack):
            state[m] = "open"
            for n in graph[m]:
                if n == PACKAGE or (m.startswith(n + ".") and n in modules):
                    continue  # a package's __init__, imported on the way: no cycle of modules
                if state.get(n) == "open":
                    self.fail("import cycle: " + " -> ".join(stack[stack.index(n):] + [n]))
                if n not in state:
                    visit(n, stack + [n])
            state[m] = "done"

        for m in sorted(graph):
            if m not in state:
                visit(m, [m])

    def test_programs_answer_help(self):
        programs = []
        for name, path in python_files():
            with open(path) as f:
                if '__name__ == "__main__"' in f.read() and ".tests." not in name:
                    programs.append(name)
        self.assertIn(f"{PACKAGE}.large_sweep", programs)
        for name in programs:
            with self.subTest(program=name):
                p = run(["-m", name, "--help"])
                self.assertEqual(p.returncode, 0, f"{name} --help:\n{p.stderr}")
                self.assertIn("usage:", p.stdout.lower())

    def test_documented_commands_name_modules(self):
        known = {name for name, _ in python_files()}
        # lower case: module names (scripts.NAME is the docs' placeholder)
        pattern = re.compile(r"-m (%s(?:\.[a-z0-9_]+)+)" % PACKAGE)
        seen, unknown = set(), []
        for path, i, line in doc_lines():
            for m in pattern.finditer(line):
                seen.add(m.group(1))
                if m.group(1) not in known:
                    unknown.append(f"{path}:{i}: {m.group(1)}")
        self.assertEqual(unknown, [])
        self.assertIn(f"{PACKAGE}.large_sweep", seen)
        # and no doc still runs a module as a file (python3 scripts/NAME.py)
        old = re.compile(r"python3\S* +\S*%s/\w+\.py" % PACKAGE)
        self.assertEqual([f"{path}:{i}: {line.strip()}" for path, i, line in doc_lines()
                          if old.search(line)], [])

if __name__ == "__main__":
    unittest.main()

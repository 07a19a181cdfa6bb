"""dcon's Python scripts, one package: sweeps of the simulator, statistics of its runs, the
paper's claims and the plots.

Run a program from the repository root as a module of the package, with Debian's Python:

  /usr/bin/python3 -m scripts.NAME [ARGS]     e.g. /usr/bin/python3 -m scripts.fct_stats RUN_DIR

(--help for each). The modules import each other relatively (from . import fct_stats), so none
edits the import path; their tests are in scripts/tests/ (ctest runs them):

  /usr/bin/python3 -m scripts.tests.test_fct_stats
  /usr/bin/python3 -m unittest discover -s scripts/tests -t .     # every test of the package

The shell scripts beside them (setup.sh, test.sh, bench.sh, ...) are run as files.
"""

"""Tests of the scripts package, one module per program (registered in ctest as python.*:
scripts/tests/CMakeLists.txt). Run from the repository root, e.g.
/usr/bin/python3 -m scripts.tests.test_fct_stats."""

"""scripts/clang_warnings.py: the clang command made from a compile command, the warnings kept
(dcon's files only, links resolved), the files chosen by --base; with a clang installed, the
warning that failed CI on 2026-12-07 is found in a real parse.

Run from the repository root: /usr/bin/python3 -m scripts.tests.test_clang_warnings
"""
import os
import shutil
import tempfile
import unittest

from scripts import clang_warnings as cw

ENTRY = {"directory": "/r/build",
         "command": "/usr/bin/c++ -DX=\\\"/r/data\\\" '-DY=a b' -I/r/build/include -O3 "
                    "-std=gnu++17 -o CMakeFiles/t.dir/test/a.cc.o -c /r/test/a.cc",
         "file": "/r/test/a.cc"}


class CommandTest(unittest.TestCase):
    def test_output_dropped_flags_kept_warnings_added(self):
        cmd = cw.syntax_only_command(ENTRY, "clang++-19")
        self.assertEqual(cmd[0], "clang++-19")
        self.assertNotIn("-o", cmd)
        self.assertNotIn("-c", cmd)
        self.assertNotIn("CMakeFiles/t.dir/test/a.cc.o", cmd)
        # the shell's quoting undone, as the compiler saw it
        self.assertIn('-DX="/r/data"', cmd)
        self.assertIn("-DY=a b", cmd)
        for flag in ["-I/r/build/include", "-O3", "-std=gnu++17", "/r/test/a.cc",
                     "-fsyntax-only", "-Wall", "-Wextra", "-Wno-unused-parameter"]:
            self.assertIn(flag, cmd)

    def test_arguments_form(self):
        entry = {"directory": "/r", "file": "/r/a.cc",
                 "arguments": ["g++", "-c", "/r/a.cc", "-o", "a.o"]}
        self.assertEqual(cw.syntax_only_command(entry, "clang++")[:2], ["clang++", "/r/a.cc"])


class WarningsTest(unittest.TestCase):
    def test_only_dcon_files_count(self):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "model"))
            os.makedirs(os.path.join(root, "build", "include", "ns3"))
            header = os.path.join(root, "model", "q.h")
            open(header, "w").close()
            link = os.path.join(root, "build", "include", "ns3", "q.h")
            os.symlink(header, link)
            stderr = "\n".join([
                "../test/a.cc:196:21: warning: loop variable 't' creates a copy "
                "[-Wrange-loop-construct]",
                "  196 |     for (const Time t : {far})",
                "../test/a.cc:196:10: note: use reference type",
                "/usr/include/ns3/object.h:3:1: warning: not ours [-Wdeprecated]",
                link + ":7:2: warning: in a header reached through the link [-Wshadow]",
                os.path.join(root, "build", "gen.cc") + ":1:1: warning: generated [-Wx]",
            ])
            found = cw.dcon_warnings(stderr, os.path.join(root, "build"), root=root,
                                     build_dirs=[os.path.join(root, "build")])
        self.assertEqual(found, [
            "test/a.cc:196:21: warning: loop variable 't' creates a copy "
            "[-Wrange-loop-construct]",
            "model/q.h:7:2: warning: in a header reached through the link [-Wshadow]"])

    def test_selection_by_changed_files(self):
        entries = [{"directory": "/r/build", "file": "/r/test/a.cc"},
                   {"directory": "/r/build", "file": "/r/model/b.cc"}]
        self.assertEqual(cw.select_entries(entries, None), entries)
        self.assertEqual(cw.select_entries(entries, {"/r/test/a.cc", "/r/doc/x.rst"}),
                         entries[:1])
        self.assertEqual(cw.select_entries(entries, {"/r/model/b.h"}), entries)
        self.assertEqual(cw.select_entries(entries, {"/r/doc/x.rst"}), [])

    def test_unknown_base_is_named(self):
        with self.assertRaisesRegex(ValueError, "--base no-such-commit-xyz"):
            cw.changed_files("no-such-commit-xyz")


@unittest.skipUnless(cw.newest_clang(), "no clang++ installed (scripts/install-deps.sh clang-19)")
class RealParseTest(unittest.TestCase):
    def parse(self, source):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "t.cc")
            with open(path, "w") as f:
                f.write(source)
            entry = {"directory": d, "file": path, "command": "c++ -std=c++17 -c %s -o t.o" % path}
            return cw.check(entry, cw.newest_clang(), os.path.join(d, "build"), root=d)

    def test_copy_in_range_loop_is_found(self):
        source = ("#include <string>\n"
                  "int f() { int n = 0;\n"
                  "  for (const std::string s : {std::string(\"a\"), std::string(\"b\")}) "
                  "n += s.size();\n"
                  "  return n; }\n")
        found = self.parse(source)
        self.assertEqual(len(found), 1, found)
        self.assertIn("t.cc:3:", found[0])
        self.assertIn("-Wrange-loop-construct", found[0])

    def test_clean_file_passes(self):
        self.assertEqual(self.parse("int g(int x) { return x + 1; }\n"), [])


if __name__ == "__main__":
    unittest.main()

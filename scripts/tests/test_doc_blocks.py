"""scripts/doc_blocks.py: the generated tables and excerpt, and the check that finds a stale block.

Run from the repository root: /usr/bin/python3 -m scripts.tests.test_doc_blocks
"""
import os
import tempfile
import unittest

from scripts import doc_blocks

ENTRIES = [("dcqcn", "ns3::RedEcnQueueDisc", "DCQCN (Zhu et al.): rate control | CNPs"),
           ("zzz-new", "ns3::ZzzQueueDisc", "a new algorithm")]


class TablesTest(unittest.TestCase):
    def test_markdown_links_the_pages_that_exist(self):
        md = doc_blocks.algorithms_markdown(ENTRIES)
        self.assertIn("| [`dcqcn`](doc/cc/dcqcn.rst) | DCQCN (Zhu et al.): rate control / CNPs "
                      "| `RedEcnQueueDisc` |", md)
        self.assertIn("| `zzz-new` | a new algorithm | `ZzzQueueDisc` |", md)

    def test_rst_is_a_list_table(self):
        rst = doc_blocks.algorithms_rst(ENTRIES)
        self.assertTrue(rst.startswith(".. list-table::"))
        self.assertIn("   * - :doc:`dcqcn </cc/dcqcn>`", rst)
        self.assertIn("   * - ``zzz-new``", rst)

    def test_excerpt_is_the_compiled_example(self):
        ex = doc_blocks.first_program_excerpt()
        self.assertTrue(ex.startswith("```cpp\n// The topology"))
        self.assertTrue(ex.endswith("Simulator::Run();\n```"))
        with open(doc_blocks.FIRST) as f:
            source = f.read()
        for line in ex.split("\n")[1:-1]:
            self.assertIn(line.strip(), source)


class BlockTest(unittest.TestCase):
    def test_replace_and_stale_detection(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "README.md")
            text = ("intro\n<!-- generated: algorithms (x) -->\nold table\n"
                    "<!-- end generated: algorithms -->\nrest\n")
            with open(path, "w") as f:
                f.write(text)
            want = doc_blocks.expected({path: ["algorithms"]}, ENTRIES)[path]
            self.assertNotEqual(want, text)  # a stale block is seen
            self.assertIn(doc_blocks.algorithms_markdown(ENTRIES), want)
            self.assertTrue(want.startswith("intro\n<!-- generated: algorithms ("))
            self.assertTrue(want.endswith("<!-- end generated: algorithms -->\nrest\n"))
            with open(path, "w") as f:
                f.write(want)
            # generating again changes nothing
            self.assertEqual(doc_blocks.expected({path: ["algorithms"]}, ENTRIES)[path], want)

    def test_missing_markers_are_named(self):
        with self.assertRaisesRegex(doc_blocks.BlockError, "no block 'algorithms'"):
            doc_blocks.replace_block("no markers here\n", "algorithms", "x", rst=True)


if __name__ == "__main__":
    unittest.main()

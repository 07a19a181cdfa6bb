"""reStructuredText simple tables for the scripts that print doc/ tables (paper_claims.py,
testbed_readings.py)."""


def simple_table(header, rows):
    """An reStructuredText simple table (columns as wide as their widest cell; cells are str()ed,
    left-aligned, trailing spaces stripped)."""
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
    rule = "  ".join("=" * w for w in widths)

    def line(cells):
        return "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()

    return "\n".join([rule, line(header), rule] + [line(r) for r in rows] + [rule])

